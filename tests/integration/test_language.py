# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §4: language negotiation and localization."""
import pytest

import httpd_harness as h

HEADLINE = {
    "en": "Senior Platform Engineer – reliability, C and Kubernetes",
    "es": "Ingeniera de plataforma sénior – fiabilidad, C y Kubernetes",
}


def _lang(api, B, accept_language):
    hdrs = [] if accept_language is None else \
        [("Accept-Language", accept_language)]
    r = api.get(B + "/profile", hdrs)
    assert r.status == 200
    lang = r.header("Content-Language")
    # The body agrees with the header.
    assert r.json()["headline"] == HEADLINE[lang]
    return lang


# CONTRACT §4
class TestNegotiation:
    @pytest.mark.parametrize("value,lang", [
        # The contract's own examples.
        ("en;q=0, *", "es"),
        ("de, *;q=0.5", "en"),
        ("es;q=0, en;q=0", "en"),
    ])
    def test_contract_examples(self, api, B, value, lang):
        assert _lang(api, B, value) == lang

    @pytest.mark.parametrize("value,lang", [
        ("es", "es"), ("en", "en"),
        ("es-MX", "es"), ("es-419", "es"), ("ES", "es"), ("Es-mX", "es"),
        ("en-GB", "en"), ("EN-us", "en"),
        ("fr, es", "es"), ("fr-CA, es-AR;q=0.1", "es"),
    ])
    def test_ranges_and_regional_tags(self, api, B, value, lang):
        assert _lang(api, B, value) == lang

    def test_es_mx_range_selects_es(self, api, B):
        assert _lang(api, B, "es-MX") == "es"

    @pytest.mark.parametrize("value", ["esp", "e", "eng", "es_MX", "fr",
                                       "spanish"])
    def test_range_must_equal_or_prefix_with_dash(self, api, B, value):
        assert _lang(api, B, value) == "en"

    @pytest.mark.parametrize("value,lang", [
        ("en;q=0.5, es;q=0.8", "es"),
        ("es;q=0.5, en", "en"),
        ("es;q=0.001, en;q=0", "es"),
        ("en;q=0.8, es;q=0.800", "en"),       # tie: first listed
        ("es;q=0.8, en;q=0.8", "es"),         # tie: first listed
        ("es;q=1.000", "es"),
        ("en;q=0.9, es;Q=1", "es"),           # q is case-insensitive
        ("en;q=0.4 , es ; q=0.5", "es"),      # optional white space
        ("es-MX;q=0.9, en;q=0.8", "es"),
        ("en;q=0, es;q=0", "en"),              # nothing acceptable
        ("*", "en"),                           # * ties: data file order
        ("*;q=0.5, es;q=0.4", "en"),           # * covers only en here
        ("es;q=0.4, *;q=0.5", "en"),
        ("es;q=0.6, *;q=0.5", "es"),
        ("*, en;q=0.1", "es"),
        ("*;q=0", "en"),
    ])
    def test_weights(self, api, B, value, lang):
        assert _lang(api, B, value) == lang

    @pytest.mark.parametrize("value,lang", [
        ("es;q=abc", "en"),
        ("es;q=1.5", "en"),
        ("es;q=0.1234", "en"),                # more than three decimals
        ("es;q=2", "en"),
        ("es;q=-1", "en"),
        ("es;q=", "en"),
        # Skipped as a whole, not taken as q=0: * then still covers es.
        ("en;q=0, es;q=abc, *;q=0.5", "es"),
        ("en;q=0, es;q=1.5, *", "es"),
        # A malformed range does not spoil the rest of the header.
        ("es;q=abc, en;q=0.1", "en"),
        ("en;q=1.5, es;q=0.2", "es"),
        ("!!, es", "es"),
        ("@@@;q=1, es;q=0.3", "es"),
        (",,, es ,,", "es"),
    ])
    def test_malformed_ranges_and_weights_are_skipped(self, api, B, value,
                                                      lang):
        assert _lang(api, B, value) == lang

    @pytest.mark.parametrize("value", [None, "", "   "])
    def test_no_or_empty_header_is_en(self, api, B, value):
        assert _lang(api, B, value) == "en"

    def test_garbage_header_is_never_an_error(self, api, B):
        for value in [";;;", "q=1", "*;q", "es;q=0.5;q=0.9", "\t",
                      "es;foo=bar", "x" * 300]:
            r = api.get(B + "/profile", [("Accept-Language", value)])
            assert r.status == 200, value
            assert r.header("Content-Language") in ("en", "es")


# CONTRACT §4
class TestLanguageHeaders:
    def _check(self, r, lang):
        assert r.header("Content-Language") == lang, r
        assert "accept-language" in r.tokens("Vary"), r

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_on_200(self, api, B, lang):
        self._check(api.get(B + "/skills", {"Accept-Language": lang}), lang)

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_on_304(self, api, B, lang):
        r = api.get(B + "/skills", {"Accept-Language": lang})
        r = api.get(B + "/skills", {"Accept-Language": lang,
                                    "If-None-Match": r.etag})
        assert r.status == 304
        self._check(r, lang)

    @pytest.mark.parametrize("lang", ["en", "es"])
    @pytest.mark.parametrize("method,target,status", [
        ("GET", "/nope", 404), ("GET", "/experience/nope", 404),
        ("GET", "/skills?q=", 400), ("POST", "/skills", 405)])
    def test_on_4xx(self, api, B, lang, method, target, status):
        r = api.request(method, B + target, {"Accept-Language": lang})
        assert r.status == status
        self._check(r, lang)

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_on_options(self, api, B, lang):
        r = api.request("OPTIONS", B + "/skills", {"Accept-Language": lang})
        assert r.status == 200
        self._check(r, lang)
        r = api.request("OPTIONS", B + "/nope",
                        {"Accept-Language": lang, "Origin": "https://x.example",
                         "Access-Control-Request-Method": "GET"})
        self._check(r, lang)

    def test_on_head(self, api, B):
        r = api.request("HEAD", B + "/metrics", {"Accept-Language": "es-ES"})
        self._check(r, "es")


def _walk_pairs(a, b, path=""):
    """Yields (path, key, value_en, value_es) for every object field."""
    assert type(a) == type(b), path
    if isinstance(a, list) and a and isinstance(a[0], tuple):
        assert [k for k, _ in a] == [k for k, _ in b], path
        for (k, va), (_, vb) in zip(a, b):
            yield path, k, va, vb
            yield from _walk_pairs(va, vb, path + "." + k)
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            yield from _walk_pairs(x, y, "%s[%d]" % (path, i))


# CONTRACT §4
class TestLocalization:
    def test_plain_fields_identical_text_differs(self, api, B, sample):
        differing = set()
        for route in h.all_routes(sample):
            en = api.get(B + route, {"Accept-Language": "en"}).pairs()
            es = api.get(B + route, {"Accept-Language": "es"}).pairs()
            assert en != es, route
            for path, key, ven, ves in _walk_pairs(en, es, route):
                if key in h.PLAIN_FIELDS:
                    assert ven == ves, (path, key)
                elif isinstance(ven, (str, list)) and ven != ves \
                        and not (ven and isinstance(ven[0], tuple)):
                    differing.add(key)
        # Every localized kind of field of the sample data does differ.
        assert {"headline", "summary", "title", "role", "context", "period",
                "highlights", "degree", "credential", "label", "skills",
                "mobileTitle", "problem", "intervention", "result",
                "resultItems"} <= differing

    def test_localized_list_items(self, api, B):
        en = api.get(B + "/skills", {"Accept-Language": "en"}).json()
        es = api.get(B + "/skills", {"Accept-Language": "es"}).json()
        assert "Testing" in en[3]["skills"]
        assert "Pruebas" in es[3]["skills"]
        # Plain strings in the list are the same in both.
        assert "Kubernetes" in en[0]["skills"] and \
            "Kubernetes" in es[0]["skills"]

    def test_problem_bodies_localized(self, api, B):
        cases = [("GET", "/skills?q=", 400, "Bad Request",
                  "Solicitud incorrecta"),
                 ("GET", "/nope", 404, "Not Found", "No encontrado"),
                 ("GET", "/experience/nope", 404, "Not Found",
                  "No encontrado"),
                 ("PUT", "/skills", 405, "Method Not Allowed",
                  "Método no permitido")]
        for method, target, status, en_title, es_title in cases:
            en = api.request(method, B + target, {"Accept-Language": "en"})
            es = api.request(method, B + target,
                             {"Accept-Language": "es-MX"})
            assert en.status == es.status == status
            assert en.json()["title"] == en_title
            assert es.json()["title"] == es_title
            assert en.json()["detail"] != es.json()["detail"], target


# CONTRACT §4 (a Vary value another module adds is kept)
def test_vary_added_by_another_module_is_kept(make_httpd, data_files):
    body = (h.load_modules("headers")
            + "Header merge Vary X-Early early\n"
            + h.location("/api/v1", data_files["main"],
                         "    Header always merge Vary X-Always\n"))
    server = make_httpd("vary", body)
    try:
        cp = server.start()
        assert cp.returncode == 0, cp.stderr
        tag = server.get("/api/v1/skills").etag
        cases = [("GET", "/api/v1/skills", {}, 200),
                 ("GET", "/api/v1/skills", {"If-None-Match": tag}, 304),
                 ("GET", "/api/v1/nope", {}, 404),
                 ("GET", "/api/v1/skills?q=", {}, 400),
                 ("OPTIONS", "/api/v1/skills", {}, 200)]
        for method, target, hdrs, status in cases:
            r = server.request(method, target, hdrs)
            assert r.status == status
            assert {"accept-language", "x-early", "x-always"} <= \
                r.tokens("Vary"), (method, target, r)
    finally:
        server.stop()
