# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §8: query parameters — parsing, validation, matching."""
import urllib.parse

import pytest

import httpd_harness as h


def enc(s):
    """Percent-encodes a str as UTF-8, every byte that is not unreserved."""
    return urllib.parse.quote(s, safe="")


def bad(api, target, name=None, lang="en"):
    r = api.get(target, {"Accept-Language": lang})
    assert r.status == 400, (target, r)
    p = r.json()
    assert p["status"] == 400
    if name is not None:
        assert name in [x["name"] for x in p["invalid-params"]], p
    return r


def ids(r, key="id"):
    assert r.status == 200, r
    return [x[key] for x in r.json()]


# CONTRACT §8.1
class TestSplitting:
    @pytest.mark.parametrize("route", ["/skills", "/experience",
                                       "/case-studies", "/profile",
                                       "/metrics", "/contact", "/education",
                                       "/experience/mareta-software-developer"])
    @pytest.mark.parametrize("query", ["?", "?&", "?&&", "?&&&&"])
    def test_empty_pieces_mean_no_parameters(self, api, B, route, query):
        plain = api.get(B + route)
        r = api.get(B + route + query)
        assert r.status == 200, (route, query, r)
        assert r.body == plain.body
        assert r.etag == plain.etag

    def test_empty_pieces_around_a_parameter(self, api, B):
        want = api.get(B + "/experience?company=mareta")
        for q in ["?&company=mareta", "?company=mareta&", "?&&company=mareta&&"]:
            r = api.get(B + "/experience" + q)
            assert r.status == 200 and r.body == want.body, q

    def test_name_without_value_is_empty_value(self, api, B):
        bad(api, B + "/skills?q", "q")
        bad(api, B + "/experience?company&", "company")

    def test_value_may_hold_equals_sign(self, api, B):
        # Split at the first "=": the value is "a=b", valid and unmatched.
        r = api.get(B + "/skills?q=a=b")
        assert r.status == 200 and r.body == b"[]"


# CONTRACT §8.2
class TestDecoding:
    def test_plus_is_space(self, api, B):
        a = api.get(B + "/skills?q=Code+review")
        b = api.get(B + "/skills?q=Code%20review")
        assert a.status == b.status == 200
        assert [g["title"] for g in a.json()] == ["Delivery & quality"]
        assert a.body == b.body
        assert ids(api.get(B + "/experience?company=Mareta+Pagos")) == \
            ["mareta-software-developer"]

    def test_encoded_plus_is_plus(self, api, B):
        # %2B is a literal "+": "Code+review" is not in the data.
        r = api.get(B + "/skills?q=Code%2Breview")
        assert r.status == 200 and r.body == b"[]"

    def test_percent_encoded_name(self, api, B):
        # "%71" is "q".
        r = api.get(B + "/skills?%71=rust")
        assert r.status == 200
        assert [g["title"] for g in r.json()] == ["Languages & data"]

    @pytest.mark.parametrize("query", [
        "q=%zz", "q=%4", "q=abc%", "q=%", "q=a%g1", "q=%%", "q=%4G",
        "%zz=1", "q%=1", "q=a&%=b"])
    def test_invalid_percent_sequence_is_400(self, api, B, query):
        bad(api, B + "/skills?" + query)

    def test_invalid_percent_in_value_names_parameter(self, api, B):
        bad(api, B + "/skills?q=%zz", "q")

    @pytest.mark.parametrize("query", [
        "q=%C3%28", "q=%FF", "q=%C3", "q=a%80b", "q=%ED%A0%80",
        "q=%C0%AF", "q=%F4%90%80%80", "q=%E2%82"])
    def test_invalid_utf8_is_400(self, api, B, query):
        bad(api, B + "/skills?" + query, "q")

    def test_raw_invalid_utf8_byte_is_400(self, api, B):
        bad(api, (B + "/skills?q=").encode() + b"\xff\xfe")

    def test_raw_utf8_bytes_are_accepted(self, api, B):
        r = api.get((B + "/experience?company=").encode()
                    + "ingeniería".encode("utf-8"))
        assert ids(r) == ["cierzo-backend-engineer"]

    def test_invalid_utf8_in_name_is_400(self, api, B):
        bad(api, B + "/skills?%FF=1")


# CONTRACT §8.3
class TestNames:
    @pytest.mark.parametrize("route,query,name", [
        ("/skills", "x=1", "x"),
        ("/skills", "company=a", "company"),
        ("/experience", "q=a", "q"),
        ("/experience", "organization=a", "organization"),
        ("/case-studies", "company=a", "company"),
        ("/skills", "q=a&extra=1", "extra"),
    ])
    def test_unknown_name_is_400(self, api, B, route, query, name):
        bad(api, B + route + "?" + query, name)

    @pytest.mark.parametrize("query,name", [
        ("Q=rust", "Q"), ("COMPANY=a", None), ("Company=a", None)])
    def test_names_are_case_sensitive(self, api, B, query, name):
        route = "/skills" if query.startswith("Q") else "/experience"
        bad(api, B + route + "?" + query, name)

    @pytest.mark.parametrize("route", [
        "/profile", "/education", "/contact", "/metrics",
        "/experience/mareta-software-developer",
        "/case-studies/billing-api-apache-module"])
    @pytest.mark.parametrize("query", ["x=1", "q=a", "company=a",
                                       "organization=a", "x"])
    def test_route_without_parameters_accepts_none(self, api, B, route,
                                                   query):
        bad(api, B + route + "?" + query)

    def test_profile_x_is_400(self, api, B):
        bad(api, B + "/profile?x=1", "x")

    def test_single_record_with_collection_filter_is_400(self, api, B):
        bad(api, B + "/experience/mareta-software-developer?company=a",
            "company")

    @pytest.mark.parametrize("query", [
        "q=rust&q=rust", "q=rust&q=go", "q=a&q=b&q=c", "q=rust&&q=rust",
        "q=rust&%71=rust", "q=rust&q="])
    def test_repeated_name_is_400(self, api, B, query):
        bad(api, B + "/skills?" + query, "q")

    def test_repeated_company_and_organization_400(self, api, B):
        bad(api, B + "/experience?company=x&company=x", "company")
        bad(api, B + "/case-studies?organization=x&organization=y",
            "organization")


# CONTRACT §8.4
class TestValues:
    @pytest.mark.parametrize("value", ["", "%20", "+", "%20%20%09",
                                       "%0D%0A", "%0C%0B", "+%09+"])
    def test_empty_or_white_space_only_is_400(self, api, B, value):
        bad(api, B + "/skills?q=" + value, "q")
        bad(api, B + "/experience?company=" + value, "company")

    def test_100_code_points_ok_101_not(self, api, B):
        r = api.get(B + "/skills?q=" + enc("é" * 100))
        assert r.status == 200 and r.body == b"[]"
        bad(api, B + "/skills?q=" + enc("é" * 101), "q")
        r = api.get(B + "/experience?company=" + "a" * 100)
        assert r.status == 200
        bad(api, B + "/experience?company=" + "a" * 101, "company")
        bad(api, B + "/case-studies?organization=" + "x" * 250,
            "organization")

    def test_length_counts_after_trimming(self, api, B):
        padded = "%20%09" * 10 + enc("é" * 100) + "%0A%20" * 10
        r = api.get(B + "/skills?q=" + padded)
        assert r.status == 200 and r.body == b"[]"

    def test_length_counts_code_points_before_normalization(self, api, B):
        # 50 x (e + U+0301) is 100 code points (50 after NFC): allowed;
        # 51 x is 102 code points: too long, although NFC has 51.
        r = api.get(B + "/skills?q=" + enc("e\u0301" * 50))
        assert r.status == 200
        bad(api, B + "/skills?q=" + enc("e\u0301" * 51), "q")

    def test_four_byte_characters_count_once(self, api, B):
        r = api.get(B + "/skills?q=" + enc("\U0001F600" * 100))
        assert r.status == 200 and r.body == b"[]"
        bad(api, B + "/skills?q=" + enc("\U0001F600" * 101), "q")

    @pytest.mark.parametrize("pad", ["%20", "+", "%09", "%0D", "%0A",
                                     "%0C", "%0B", "%20%09%0D%0A%0C%0B"])
    def test_white_space_trimmed(self, api, B, pad):
        r = api.get(B + "/experience?company=" + pad + "Mareta" + pad)
        assert ids(r) == ["mareta-software-developer"]

    @pytest.mark.parametrize("pad", ["%C2%A0", "%E2%80%83", "%E3%80%80"])
    def test_only_ascii_white_space_trimmed(self, api, B, pad):
        # NBSP, EM SPACE, IDEOGRAPHIC SPACE are kept, so nothing matches.
        r = api.get(B + "/experience?company=" + pad + "Mareta")
        assert r.status == 200 and r.body == b"[]"

    @pytest.mark.parametrize("value", [
        "a%01b", "a%7Fb", "a%00b", "a%1Fb", "%01", "a%01", "%7Fabc",
        "Mareta%00", "a%09b", "a%0Ab"])
    def test_control_character_is_400(self, api, B, value):
        bad(api, B + "/experience?company=" + value, "company")

    def test_trimmed_value_then_control_char_inside(self, api, B):
        bad(api, B + "/skills?q=%20a%01b%20", "q")

    def test_c1_controls_are_not_control_characters(self, api, B):
        # U+0080..U+009F are outside U+0000-U+001F/U+007F.
        r = api.get(B + "/skills?q=a%C2%85b")
        assert r.status == 200 and r.body == b"[]"


# CONTRACT §8.5, §8.6
class TestMatching:
    def test_company_case_insensitive_substring(self, api, B):
        assert ids(api.get(B + "/experience?company=NORTEVERDE")) == \
            ["norteverde-platform-lead"]
        assert ids(api.get(B + "/experience?company=agos")) == \
            ["mareta-software-developer"]

    @pytest.mark.parametrize("value", ["INGENIERÍA", "ingeniería",
                                       "IngenierÍa cierzo"])
    def test_accented_case_folding(self, api, B, value):
        assert ids(api.get(B + "/experience?company=" + enc(value))) == \
            ["cierzo-backend-engineer"]
        assert ids(api.get(B + "/case-studies?organization=" + enc(value))) \
            == ["billing-api-apache-module"]

    def test_alvarez_style_uppercase_accents(self, api, B):
        # ÁLVAREZ-style: an upper-case accented letter folds to the data's.
        assert ids(api.get(B + "/case-studies?organization="
                           + enc("NORTEVERDE ENERGÍA"))) == \
            ["telemetry-kubernetes-migration"]

    @pytest.mark.parametrize("value", ["STRASSE", "strasse", "HafenStraße",
                                       "HAFENSTRAẞE", "straße logistik"])
    def test_full_case_folding_sharp_s(self, api, B, value):
        assert ids(api.get(B + "/experience?company=" + enc(value))) == \
            ["hafen-logistik-senior-sre"]
        assert ids(api.get(B + "/case-studies?organization=" + enc(value))) \
            == ["incident-response-programme"]

    def test_nfd_input_matches_nfc_data(self, api, B):
        value = "Ingenieri\u0301a"
        assert ids(api.get(B + "/experience?company=" + enc(value))) == \
            ["cierzo-backend-engineer"]
        assert ids(api.get(B + "/experience?company="
                           + "Ingenieri%CC%81a")) == ["cierzo-backend-engineer"]

    def test_nfc_input_matches_nfd_data(self, api):
        # /other serves a file whose Cierzo company is stored in NFD.
        r = api.get("/other/api/v1/experience?company=" + enc("INGENIERÍA"))
        assert ids(r) == ["cierzo-backend-engineer"]

    @pytest.mark.parametrize("value", ["ingenieria", "INGENIERIA",
                                       "energia", "Ingenieria Cierzo"])
    def test_accents_are_significant(self, api, B, value):
        r = api.get(B + "/experience?company=" + enc(value))
        assert r.status == 200
        assert r.body == b"[]"
        assert r.header("Content-Type") == "application/json"

    def test_no_match_is_empty_array(self, api, B):
        for target in ["/skills?q=zzzz", "/experience?company=zzzz",
                       "/case-studies?organization=zzzz"]:
            for lang in ("en", "es"):
                r = api.get(B + target, {"Accept-Language": lang})
                assert r.status == 200
                assert r.body == b"[]"
                assert r.header("Content-Language") == lang

    def test_filter_matches_chosen_language(self, api, B):
        es = api.get(B + "/skills?q=Pruebas", {"Accept-Language": "es"})
        assert [g["title"] for g in es.json()] == ["Entrega y calidad"]
        en = api.get(B + "/skills?q=Pruebas", {"Accept-Language": "en"})
        assert en.status == 200 and en.body == b"[]"
        en = api.get(B + "/skills?q=testing", {"Accept-Language": "en"})
        assert [g["title"] for g in en.json()] == ["Delivery & quality"]
        es = api.get(B + "/skills?q=testing", {"Accept-Language": "es"})
        assert es.body == b"[]"

    def test_q_matches_group_title(self, api, B, sample):
        r = api.get(B + "/skills?q=LEADER")
        assert r.pairs() == [h.expected(sample, "/skills", "en")[4]]
        r = api.get(B + "/skills?q=liderazgo", {"Accept-Language": "es"})
        assert r.pairs() == [h.expected(sample, "/skills", "es")[4]]

    def test_q_returns_whole_group_on_skill_match(self, api, B, sample):
        r = api.get(B + "/skills?q=rust")
        groups = r.pairs()
        assert groups == [h.expected(sample, "/skills", "en")[1]]
        skills = dict(groups[0])["skills"]
        assert "Rust" in skills and "Python" in skills and len(skills) == 6

    def test_q_matches_localized_skill_in_list(self, api, B, sample):
        r = api.get(B + "/skills?q=" + enc("CÓDIGO"),
                    {"Accept-Language": "es"})
        titles = [g["title"] for g in r.json()]
        assert titles == ["Plataforma e infraestructura", "Entrega y calidad"]

    @pytest.mark.parametrize("lang", ["en", "es"])
    @pytest.mark.parametrize("route,param,value", [
        ("/skills", "q", "c"), ("/skills", "q", "IÓN"),
        ("/skills", "q", "an"), ("/skills", "q", " & "),
        ("/skills", "q", "e"), ("/skills", "q", "CI"),
        ("/experience", "company", "a"), ("/experience", "company", "E"),
        ("/experience", "company", "í"),
        ("/case-studies", "organization", "ía"),
        ("/case-studies", "organization", "gmbh"),
        ("/case-studies", "organization", "s"),
    ])
    def test_filters_agree_with_oracle(self, api, B, sample, lang, route,
                                       param, value):
        """Results equal the contract's definition (NFC + full case
        folding, substring), kept in data file order."""
        r = api.get(B + route + "?" + param + "=" + enc(value),
                    {"Accept-Language": lang})
        assert r.status == 200
        assert r.pairs() == h.expected_filtered(sample, route, param, value,
                                                lang)

    def test_filtered_body_is_compact_and_typed(self, api, B):
        r = api.get(B + "/experience?company=a")
        assert r.header("Content-Type") == "application/json"
        assert h.is_compact(r.body)
        assert r.header("Cache-Control") == "public, max-age=300"
