# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §2: routes, bodies, field names and order, ids."""
import pytest

import httpd_harness as h

LANGS = ["en", "es"]


def routes(sample):
    return h.all_routes(sample)


def _fields_of(pairs):
    return [k for k, _ in pairs]


# CONTRACT §2
class TestEveryRoute:
    @pytest.mark.parametrize("lang", LANGS)
    def test_every_route_serves_the_expected_body(self, api, B, sample,
                                                  lang):
        """Each route, in each language, answers 200 with exactly the
        records of the data file, fields in the specification's order."""
        for route in h.all_routes(sample):
            r = api.get(B + route, {"Accept-Language": lang})
            assert r.status == 200, (route, r)
            assert r.header("Content-Type") == "application/json", route
            assert r.pairs() == h.expected(sample, route, lang), route

    @pytest.mark.parametrize("lang", LANGS)
    def test_bodies_are_compact_utf8_json(self, api, B, sample, lang):
        for route in h.all_routes(sample):
            r = api.get(B + route, {"Accept-Language": lang})
            assert h.is_compact(r.body), (route, r.body[:200])
            assert b"\\u" not in r.body, route   # no \u escapes at all
            r.body.decode("utf-8")               # valid UTF-8

    def test_non_ascii_is_raw_utf8(self, api, B):
        r = api.get(B + "/profile")
        assert "Álvarez".encode("utf-8") in r.body
        assert "Lucía".encode("utf-8") in r.body
        r = api.get(B + "/experience")
        assert "Hafenstraße".encode("utf-8") in r.body

    def test_profile_fields_in_spec_order(self, api, B):
        r = api.get(B + "/profile")
        assert _fields_of(r.pairs()) == ["name", "headline", "summary"]

    def test_contact_entries_fields_in_spec_order(self, api, B):
        body = api.get(B + "/contact").pairs()
        assert _fields_of(body) == ["contacts", "links"]
        for entry in dict(body)["contacts"]:
            assert _fields_of(entry) == ["kind", "label", "text", "url"]
        for entry in dict(body)["links"]:
            # A link entry has no label.
            assert _fields_of(entry) == ["kind", "text", "url"]

    @pytest.mark.parametrize("route,fields", [
        ("/skills", h.FIELDS["skill"]),
        ("/experience", h.FIELDS["experience"]),
        ("/education", h.FIELDS["education"]),
        ("/case-studies", h.FIELDS["case_study"]),
        ("/metrics", h.FIELDS["metric"]),
    ])
    def test_every_record_has_every_field_in_order(self, api, B, route,
                                                   fields):
        body = api.get(B + route).pairs()
        assert body, route
        for rec in body:
            assert _fields_of(rec) == fields
            for k, v in rec:
                assert v is not None, (route, k)
                if k in h.LIST_FIELDS:
                    assert isinstance(v, list)
                    assert all(isinstance(x, str) for x in v)
                else:
                    assert isinstance(v, str), (route, k)

    def test_empty_string_kept_where_data_has_it(self, api, B, sample):
        body = api.get(B + "/education").json()
        urls = [e["institutionUrl"] for e in body]
        assert "" in urls
        assert urls == [e["institutionUrl"] for e in sample["education"]]

    def test_metric_value_is_a_string(self, api, B):
        for m in api.get(B + "/metrics").json():
            assert isinstance(m["value"], str)

    @pytest.mark.parametrize("route,key", [
        ("/skills", None), ("/experience", "id"), ("/education", None),
        ("/case-studies", "id"), ("/metrics", "id")])
    def test_collections_keep_data_file_order(self, api, B, sample, route,
                                              key):
        body = api.get(B + route).json()
        src = {"/skills": "skills", "/experience": "experience",
               "/education": "education", "/case-studies": "caseStudies",
               "/metrics": "metrics"}[route]
        if key:
            assert [x[key] for x in body] == [x[key] for x in sample[src]]
        else:
            assert len(body) == len(sample[src])
            assert body == h_json(h.expected(sample, route, "en"))


def h_json(pairs):
    """Ordered pairs back to plain dicts/lists."""
    if isinstance(pairs, list) and pairs and isinstance(pairs[0], tuple):
        return {k: h_json(v) for k, v in pairs}
    if isinstance(pairs, list):
        return [h_json(x) for x in pairs]
    return pairs


# CONTRACT §2
class TestIds:
    def test_each_experience_id_serves_its_record(self, api, B, sample):
        for rec in sample["experience"]:
            r = api.get(B + "/experience/" + rec["id"])
            assert r.status == 200
            assert r.json()["id"] == rec["id"]
            assert r.json()["company"] == rec["company"]

    def test_each_case_study_id_serves_its_record(self, api, B, sample):
        for rec in sample["caseStudies"]:
            r = api.get(B + "/case-studies/" + rec["id"])
            assert r.status == 200
            assert r.json()["id"] == rec["id"]

    def test_single_record_equals_collection_element(self, api, B, sample):
        coll = api.get(B + "/case-studies", {"Accept-Language": "es"}).pairs()
        for rec in coll:
            rid = dict(rec)["id"]
            one = api.get(B + "/case-studies/" + rid,
                          {"Accept-Language": "es"}).pairs()
            assert one == rec

    def test_unknown_experience_id_is_404(self, api, B):
        r = api.get(B + "/experience/no-such-id")
        assert r.status == 404
        assert r.json()["status"] == 404

    def test_unknown_case_study_id_is_404(self, api, B):
        assert api.get(B + "/case-studies/no-such-id").status == 404

    def test_experience_id_of_other_collection_is_404(self, api, B, sample):
        cid = sample["caseStudies"][0]["id"]
        assert api.get(B + "/experience/" + cid).status == 404

    def test_ids_are_case_sensitive(self, api, B, sample):
        eid = sample["experience"][0]["id"]
        assert api.get(B + "/experience/" + eid.upper()).status == 404
        assert api.get(B + "/experience/" + eid.capitalize()).status == 404
        cid = sample["caseStudies"][0]["id"]
        assert api.get(B + "/case-studies/" + cid.upper()).status == 404

    def test_percent_encoded_id_is_decoded(self, api, B, sample):
        eid = sample["experience"][0]["id"]          # norteverde-platform-lead
        plain = api.get(B + "/experience/" + eid)
        enc = eid.replace("-", "%2D", 1)
        r = api.get(B + "/experience/" + enc)
        assert r.status == 200
        assert r.body == plain.body
        enc = "%" + "%02X" % ord(eid[0]) + eid[1:]
        r = api.get(B + "/experience/" + enc)
        assert r.status == 200 and r.body == plain.body

    def test_percent_encoded_case_study_id_is_decoded(self, api, B, sample):
        cid = sample["caseStudies"][1]["id"]
        enc = "".join("%%%02x" % ord(c) for c in cid)   # all encoded
        r = api.get(B + "/case-studies/" + enc)
        assert r.status == 200
        assert r.json()["id"] == cid

    def test_id_with_extra_segment_is_404(self, api, B, sample):
        eid = sample["experience"][0]["id"]
        assert api.get(B + "/experience/" + eid + "/x").status == 404
        assert api.get(B + "/experience/" + eid + "/").status == 404

    def test_empty_id_is_404(self, api, B):
        assert api.get(B + "/experience/").status == 404
        assert api.get(B + "/case-studies/").status == 404


# CONTRACT §2
class TestEncodedSlash:
    # CONTRACT §2, §3, §7 with AllowEncodedSlashes NoDecode
    def test_encoded_slash_in_id_is_json_404_with_cors(self, api, B):
        r = api.get(B + "/experience/a%2Fb")
        assert r.status == 404
        assert r.json()["status"] == 404
        assert r.header("Access-Control-Allow-Origin") == "*"

    def test_preflight_on_encoded_slash_path_succeeds(self, api, B):
        r = api.request("OPTIONS", B + "/experience/a%2Fb",
                        {"Origin": "https://app.example",
                         "Access-Control-Request-Method": "GET"})
        assert r.status == 200
        assert r.header("Access-Control-Allow-Origin") == "*"


class TestUnknownPaths:
    @pytest.mark.parametrize("path", [
        "/skills/", "/Skills", "/skills/x", "/", "", "/PROFILE",
        "/profile/", "/profile.json", "/metrics/x", "/education/0",
        "/contact/", "/experiences", "/case-study", "/caseStudies",
        "/nothing/here", "/skills%2F",
    ])
    def test_unknown_path_under_base_is_404(self, api, B, path):
        r = api.get(B + path)
        assert r.status == 404, (path, r)
        # With AllowEncodedSlashes NoDecode (the shipped configurations),
        # "%2F" reaches the module too.
        problem = r.json()
        assert problem["status"] == 404
        assert problem["title"] == "Not Found"
        assert r.header("Content-Language") == "en"

    def test_base_itself_is_404_problem(self, api, B):
        r = api.get(B)
        assert r.status == 404
        assert r.json()["title"] == "Not Found"
        assert r.header("Access-Control-Allow-Origin") == "*"


# CONTRACT §2 (<Location /ana/api/v1> works the same way)
class TestOtherBasePath:
    def test_every_route_same_under_other_base(self, api, B, sample):
        for route in h.all_routes(sample):
            for lang in LANGS:
                a = api.get(B + route, {"Accept-Language": lang})
                b = api.get("/ana/api/v1" + route, {"Accept-Language": lang})
                assert b.status == 200, route
                assert b.body == a.body, route
                assert b.etag == a.etag, route

    @pytest.mark.parametrize("path", ["/skills/", "/Skills", "/", "",
                                      "/experience/nope"])
    def test_unknown_paths_under_other_base_are_404(self, api, path):
        assert api.get("/ana/api/v1" + path).status == 404

    def test_base_routes_are_relative(self, api):
        # The main API's path below the other base is not a route.
        assert api.get("/ana/api/v1/api/v1/profile").status == 404

    def test_query_rules_apply_under_other_base(self, api):
        r = api.get("/ana/api/v1/experience?company=MARETA")
        assert r.status == 200
        assert [x["id"] for x in r.json()] == ["mareta-software-developer"]
        assert api.get("/ana/api/v1/profile?x=1").status == 400
