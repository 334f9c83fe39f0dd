# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §3: methods."""
import pytest

import httpd_harness as h

# Headers that legitimately differ between two responses.
VOLATILE = {"date", "expires"}  # the moment of the answer


def _comparable(resp):
    return sorted((k.lower(), v) for k, v in resp.headers
                  if k.lower() not in VOLATILE)


def _allow(resp):
    return {t.strip() for t in (resp.header("Allow") or "").split(",")
            if t.strip()}


# CONTRACT §3
class TestGetAndHead:
    def test_get_every_route_is_200(self, api, B, sample):
        for route in h.all_routes(sample):
            assert api.get(B + route).status == 200, route

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_head_has_get_headers_and_no_body(self, api, B, sample, lang):
        for route in h.all_routes(sample):
            hdrs = {"Accept-Language": lang}
            g = api.get(B + route, hdrs)
            hd = api.request("HEAD", B + route, hdrs)
            assert hd.status == g.status == 200
            assert hd.body == b"", route
            assert hd.header("Content-Length") == str(len(g.body)), route
            assert _comparable(hd) == _comparable(g), route

    def test_head_filtered_has_get_headers(self, api, B):
        target = B + "/experience?company=cierzo"
        g = api.get(target)
        hd = api.request("HEAD", target)
        assert hd.status == 200 and hd.body == b""
        assert hd.header("Content-Length") == str(len(g.body))
        assert _comparable(hd) == _comparable(g)

    @pytest.mark.parametrize("target", ["/nope", "/skills?q=", "/experience/x"])
    def test_head_error_has_get_status_and_headers(self, api, B, target):
        g = api.get(B + target)
        hd = api.request("HEAD", B + target)
        assert hd.status == g.status
        assert g.status in (400, 404)
        assert hd.body == b""
        assert _comparable(hd) == _comparable(g)


# CONTRACT §3
class TestOptions:
    @pytest.mark.parametrize("target", [
        "/profile", "/skills", "/experience/norteverde-platform-lead",
        "/nope", "/experience/no-such-id", "/skills/", "", "/",
        "/skills?q=", "/skills?q=a&q=a", "/profile?x=1", "/skills?q=%zz",
        "/nope?bad=%FF",
    ])
    def test_options_anywhere_is_200_empty(self, api, B, target):
        r = api.request("OPTIONS", B + target)
        assert r.status == 200, (target, r)
        assert r.body == b""
        assert r.header("Content-Length") == "0"
        assert _allow(r) == h.ALLOW_SET
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert r.header("Content-Language") == "en"
        assert "accept-language" in r.tokens("Vary")

    def test_options_preflight_on_missing_record_is_200(self, api, B):
        r = api.request("OPTIONS", B + "/case-studies/missing",
                        {"Origin": "https://app.example",
                         "Access-Control-Request-Method": "GET"})
        assert r.status == 200
        assert r.body == b""
        assert _allow(r) == h.ALLOW_SET
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert r.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS"


# CONTRACT §3
class TestOtherMethods:
    @pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH",
                                        "FROB", "PROPFIND"])
    @pytest.mark.parametrize("route", ["/profile", "/skills",
                                       "/case-studies/billing-api-apache-module"])
    def test_other_method_on_route_is_405(self, api, B, method, route):
        body = '{"x":1}' if method in ("POST", "PUT", "PATCH") else None
        r = api.request(method, B + route, body=body)
        assert r.status == 405, (method, route, r)
        assert _allow(r) == h.ALLOW_SET
        problem = r.json()
        assert problem["status"] == 405
        assert problem["title"] == "Method Not Allowed"
        assert problem["type"] == "about:blank"
        assert "invalid-params" not in problem

    def test_other_method_on_unknown_record_is_405(self, api, B):
        # Method is checked before the record id (§7 order).
        r = api.request("DELETE", B + "/experience/no-such-id")
        assert r.status == 405
        assert _allow(r) == h.ALLOW_SET

    @pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "FROB"])
    @pytest.mark.parametrize("path", ["/nope", "/skills/", "", "/Profile"])
    def test_other_method_on_unknown_path_is_404(self, api, B, method, path):
        r = api.request(method, B + path, body="" if method == "POST"
                        else None)
        assert r.status == 404, (method, path, r)
        assert r.json()["status"] == 404

    def test_trace_is_the_modules_405_problem(self, api, B):
        # CONTRACT §3: the module answers TRACE itself (the harness sets
        # TraceEnable off, so httpd's answer would be an HTML 405).
        r = api.request("TRACE", B + "/profile")
        assert r.status == 405
        assert r.header("Content-Type") == "application/json"
        assert _allow(r) == h.ALLOW_SET
        body = r.json()
        assert body["status"] == 405 and "TRACE" in body["detail"]
        assert b"TRACE /api/v1/profile" not in r.body
