# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §7: problem details, media types, order of checks."""
import pytest

import httpd_harness as h

TITLES = {
    "en": {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"},
    "es": {400: "Solicitud incorrecta", 404: "No encontrado",
           405: "Método no permitido"},
}

# (method, target below the base, status)
ERRORS = [
    ("GET", "/skills?q=", 400),
    ("GET", "/skills?nope=1", 400),
    ("GET", "/experience?company=a&company=b", 400),
    ("GET", "/nope", 404),
    ("GET", "/experience/nope", 404),
    ("GET", "/case-studies/nope", 404),
    ("POST", "/metrics", 405),
    ("DELETE", "/experience/cierzo-backend-engineer", 405),
]


def _check_problem(r, status, lang):
    assert r.status == status, r
    pairs = r.pairs()
    keys = [k for k, _ in pairs]
    p = dict(pairs)
    want = ["type", "title", "status", "detail"]
    if status == 400:
        want.append("invalid-params")
    assert sorted(keys) == sorted(want), keys
    assert p["type"] == "about:blank"
    assert p["title"] == TITLES[lang][status]
    assert p["status"] == status and isinstance(p["status"], int)
    assert isinstance(p["detail"], str) and p["detail"].strip()
    if status == 400:
        ip = p["invalid-params"]
        assert isinstance(ip, list) and ip
        for item in ip:
            item = dict(item)
            assert set(item) == {"name", "reason"}
            assert isinstance(item["name"], str)
            assert isinstance(item["reason"], str) and item["reason"]
    assert h.is_compact(r.body)
    return p


# CONTRACT §7
class TestProblemBody:
    @pytest.mark.parametrize("lang", ["en", "es"])
    @pytest.mark.parametrize("method,target,status", ERRORS)
    def test_problem_shape(self, api, B, lang, method, target, status):
        r = api.request(method, B + target, {"Accept-Language": lang})
        _check_problem(r, status, lang)

    def test_invalid_params_names_the_parameter(self, api, B):
        p = api.get(B + "/experience?company=").json()
        assert [x["name"] for x in p["invalid-params"]] == ["company"]
        p = api.get(B + "/skills?colour=red").json()
        assert [x["name"] for x in p["invalid-params"]] == ["colour"]
        p = api.get(B + "/case-studies?organization=a&organization=a").json()
        assert [x["name"] for x in p["invalid-params"]] == ["organization"]

    def test_no_invalid_params_on_404_405(self, api, B):
        for method, target in [("GET", "/nope"), ("PUT", "/profile"),
                               ("GET", "/experience/nope")]:
            assert "invalid-params" not in \
                api.request(method, B + target).json()

    def test_es_titles(self, api, B):
        es = {"Accept-Language": "es"}
        assert api.get(B + "/skills?q=", es).json()["title"] == \
            "Solicitud incorrecta"
        assert api.get(B + "/nope", es).json()["title"] == "No encontrado"
        assert api.request("POST", B + "/skills", es).json()["title"] == \
            "Método no permitido"
        # Raw UTF-8, not \u-escaped.
        assert "Método".encode() in api.request("POST", B + "/skills",
                                                es).body

    def test_detail_is_localized(self, api, B):
        for method, target, _ in ERRORS:
            en = api.request(method, B + target, {"Accept-Language": "en"})
            es = api.request(method, B + target, {"Accept-Language": "es"})
            assert en.json()["detail"] != es.json()["detail"], target

    def test_detail_mentions_the_parameter(self, api, B):
        d = api.get(B + "/experience?company=").json()["detail"]
        assert "company" in d


# CONTRACT §7
class TestMediaType:
    @pytest.mark.parametrize("method,target,status", ERRORS)
    def test_default_is_application_json(self, api, B, method, target,
                                         status):
        r = api.request(method, B + target)
        assert r.status == status
        assert r.header("Content-Type").split(";")[0].strip() == \
            "application/json"

    @pytest.mark.parametrize("accept", [
        "application/problem+json",
        "application/json, application/problem+json",
        "application/json;q=0.9, application/problem+json;q=0.1",
        "APPLICATION/PROBLEM+JSON",
        "text/html, application/problem+json;q=1",
    ])
    @pytest.mark.parametrize("method,target,status", [
        ("GET", "/skills?q=", 400), ("GET", "/nope", 404),
        ("PUT", "/profile", 405)])
    def test_problem_json_when_accept_names_it(self, api, B, accept, method,
                                               target, status):
        r = api.request(method, B + target, {"Accept": accept})
        assert r.status == status
        assert r.header("Content-Type").split(";")[0].strip().lower() == \
            "application/problem+json"
        r.json()

    @pytest.mark.parametrize("accept", [
        "application/problem+json;q=0",
        "application/problem+json;q=0, application/json",
        "application/problem+json; q=0.000",
        "*/*", "application/*", "text/html", "application/json",
    ])
    def test_json_when_problem_json_not_named_or_q0(self, api, B, accept):
        r = api.get(B + "/nope", {"Accept": accept})
        assert r.status == 404
        assert r.header("Content-Type").split(";")[0].strip() == \
            "application/json"

    def test_success_ignores_accept(self, api, B):
        r = api.get(B + "/profile", {"Accept": "application/problem+json"})
        assert r.status == 200
        assert r.header("Content-Type") == "application/json"

    @pytest.mark.parametrize("method,target,status", ERRORS)
    def test_errors_vary_on_accept(self, api, B, method, target, status):
        r = api.request(method, B + target)
        assert r.status == status
        assert {"accept", "accept-language"} <= r.tokens("Vary")


# CONTRACT §7 (order of checks: path -> method -> query -> record id)
class TestOrderOfChecks:
    def test_unknown_path_with_bad_query_is_404(self, api, B):
        assert api.get(B + "/nope?q=&q=%zz").status == 404
        assert api.get(B + "/skills/?bad").status == 404

    def test_post_with_bad_query_on_route_is_405(self, api, B):
        r = api.request("POST", B + "/skills?q=&zz=%FF", body="")
        assert r.status == 405
        r = api.request("DELETE", B + "/experience/nope?x=1")
        assert r.status == 405

    def test_unknown_id_with_bad_query_is_400(self, api, B):
        r = api.get(B + "/experience/no-such-id?company=a")
        assert r.status == 400
        r = api.get(B + "/case-studies/no-such-id?x")
        assert r.status == 400

    def test_unknown_id_without_query_is_404(self, api, B):
        assert api.get(B + "/experience/no-such-id").status == 404
        assert api.get(B + "/experience/no-such-id?").status == 404

    def test_unknown_path_with_post_is_404_not_405(self, api, B):
        assert api.request("POST", B + "/nope", body="").status == 404


# CONTRACT §7 (no request produces a 5xx)
def test_hostile_requests_never_5xx(api, B):
    targets = [
        B + "/skills?q=" + "%C3%A9" * 5000,
        B + "/skills?" + "&".join("a%d=1" % i for i in range(500)),
        B + "/skills?" + "&" * 2000,
        B + "/experience/" + "x" * 4000,
        B + "/experience/%C3%28",
        B + "/experience/%FF%FE",
        B + "/case-studies/%E2%80%AE",
        B + "/skills?q=%F0%9F%98%80",
        B + "/skills?q=%ED%A0%80",            # UTF-16 surrogate
        B + "/skills?q=%C0%AF",               # overlong
        B + "/skills?q=%F4%90%80%80",         # beyond U+10FFFF
        B + "/skills?=",
        B + "/skills?=x",
        B + "/skills?%00=1",
        B + "/skills?q=%",
        B + "/skills?q=a%2",
    ]
    for t in targets:
        for lang in ("en", "es", "*;q=0.5,es;q=abc," * 50):
            r = api.get(t, [("Accept-Language", lang),
                            ("Accept", "application/problem+json;q=" + "9" * 40)])
            assert r.status < 500, (t[:80], r)
    assert api.get(B + "/profile").status == 200
