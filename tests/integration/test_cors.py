# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §6: CORS."""
import pytest

import httpd_harness as h
from conftest import CORS_ORIGINS

PREFLIGHT = {"Origin": "https://app.example",
             "Access-Control-Request-Method": "GET",
             "Access-Control-Request-Headers": "if-none-match"}
ALLOW_METHODS = "GET, HEAD, OPTIONS"
ALLOW_HEADERS = "Accept-Language, If-None-Match, If-Modified-Since"

# (method, target below the base, extra headers, expected status)
SAMPLES = [
    ("GET", "/profile", {}, 200),
    ("HEAD", "/skills", {}, 200),
    ("GET", "/experience?company=cierzo", {}, 200),
    ("GET", "/profile", {"If-None-Match": "*"}, 304),
    ("GET", "/skills?q=", {}, 400),
    ("GET", "/nope", {}, 404),
    ("GET", "/experience/nope", {}, 404),
    ("PATCH", "/profile", {}, 405),
    ("OPTIONS", "/profile", {}, 200),
    ("OPTIONS", "/nope", {}, 200),
]


def _all_samples(origin):
    for method, target, headers, status in SAMPLES:
        hdrs = dict(headers)
        if origin is not None:
            hdrs["Origin"] = origin
        yield method, target, hdrs, status


# CONTRACT §6 (default "*")
class TestDefaultStar:
    @pytest.mark.parametrize("origin", [None, "https://app.example"])
    def test_star_on_every_response(self, api, B, origin):
        for method, target, hdrs, status in _all_samples(origin):
            r = api.request(method, B + target, hdrs)
            assert r.status == status, (method, target, r)
            assert r.header_all("Access-Control-Allow-Origin") == ["*"], \
                (method, target)

    def test_expose_etag_on_non_preflight(self, api, B):
        for method, target, hdrs, status in _all_samples("https://x.example"):
            r = api.request(method, B + target, hdrs)
            assert "etag" in r.tokens("Access-Control-Expose-Headers"), \
                (method, target)

    @pytest.mark.parametrize("target", ["/profile", "/experience/nope",
                                        "/nope", "/skills?q="])
    def test_preflight_headers(self, api, B, target):
        r = api.request("OPTIONS", B + target, PREFLIGHT)
        assert r.status == 200
        assert r.body == b""
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert r.header("Access-Control-Allow-Methods") == ALLOW_METHODS
        assert r.header("Access-Control-Allow-Headers") == ALLOW_HEADERS
        assert r.header("Access-Control-Max-Age") == "7200"

    def test_plain_options_is_not_preflight(self, api, B):
        # Origin without Access-Control-Request-Method: no preflight block.
        r = api.request("OPTIONS", B + "/profile",
                        {"Origin": "https://app.example"})
        assert r.status == 200
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert not r.has("Access-Control-Allow-Methods")
        assert not r.has("Access-Control-Max-Age")

    def test_never_allow_credentials(self, api, B):
        for origin in (None, "https://app.example"):
            for method, target, hdrs, _ in _all_samples(origin):
                hdrs["Cookie"] = "session=1"
                r = api.request(method, B + target, hdrs)
                assert not r.has("Access-Control-Allow-Credentials")
        r = api.request("OPTIONS", B + "/profile", PREFLIGHT)
        assert not r.has("Access-Control-Allow-Credentials")


# CONTRACT §6 (list of origins)
class TestOriginList:
    base = "/cors/api/v1"

    @pytest.mark.parametrize("origin", CORS_ORIGINS)
    def test_allowed_origin_echoed(self, api, origin):
        for method, target, hdrs, status in _all_samples(origin):
            r = api.request(method, self.base + target, hdrs)
            assert r.status == status, (method, target)
            assert r.header_all("Access-Control-Allow-Origin") == [origin], \
                (method, target, r)

    @pytest.mark.parametrize("origin", [
        None, "https://c.example", "http://a.example",
        "https://a.example.evil", "https://A.EXAMPLE", "null",
        "https://a.example https://b.example", "*"])
    def test_other_origin_gets_no_acao(self, api, origin):
        for method, target, hdrs, status in _all_samples(origin):
            r = api.request(method, self.base + target, hdrs)
            assert r.status == status, (method, target)
            assert not r.has("Access-Control-Allow-Origin"), \
                (origin, method, target, r)

    @pytest.mark.parametrize("origin", [None, "https://a.example",
                                        "https://c.example"])
    def test_every_response_varies_on_origin(self, api, origin):
        for method, target, hdrs, _ in _all_samples(origin):
            r = api.request(method, self.base + target, hdrs)
            vary = r.tokens("Vary")
            assert "origin" in vary, (origin, method, target, r)
            assert "accept-language" in vary, (origin, method, target)

    def test_preflight_from_allowed_origin(self, api):
        hdrs = dict(PREFLIGHT, Origin="https://b.example")
        r = api.request("OPTIONS", self.base + "/experience/nope", hdrs)
        assert r.status == 200
        assert r.header("Access-Control-Allow-Origin") == "https://b.example"
        assert r.header("Access-Control-Allow-Methods") == ALLOW_METHODS
        assert r.header("Access-Control-Allow-Headers") == ALLOW_HEADERS
        assert r.header("Access-Control-Max-Age") == "7200"
        assert "origin" in r.tokens("Vary")
        assert not r.has("Access-Control-Allow-Credentials")

    def test_preflight_from_other_origin_still_200(self, api):
        hdrs = dict(PREFLIGHT, Origin="https://c.example")
        r = api.request("OPTIONS", self.base + "/profile", hdrs)
        assert r.status == 200
        assert not r.has("Access-Control-Allow-Origin")
        assert "origin" in r.tokens("Vary")
        # Only the allowed origin depends on Origin (CONTRACT §6).
        assert r.header("Access-Control-Allow-Methods") == ALLOW_METHODS
        assert r.header("Access-Control-Max-Age") == "7200"

    @pytest.mark.parametrize("origin", [None, "https://c.example"])
    def test_other_origin_still_gets_expose_headers(self, api, origin):
        for method, target, hdrs, _ in _all_samples(origin):
            if method == "OPTIONS" and "Access-Control-Request-Method" in hdrs:
                continue
            r = api.request(method, self.base + target, hdrs)
            assert "etag" in r.tokens("Access-Control-Expose-Headers"), \
                (origin, method, target, r)

    def test_same_body_and_etag_as_star_location(self, api, B):
        a = api.get(B + "/metrics")
        b = api.get(self.base + "/metrics", {"Origin": "https://a.example"})
        assert a.body == b.body and a.etag == b.etag

    def test_304_from_allowed_origin(self, api):
        r = api.get(self.base + "/skills", {"Origin": "https://a.example"})
        r = api.get(self.base + "/skills", {"Origin": "https://a.example",
                                            "If-None-Match": r.etag})
        assert r.status == 304
        assert r.header("Access-Control-Allow-Origin") == "https://a.example"
        assert "etag" in r.tokens("Access-Control-Expose-Headers")
        assert {"origin", "accept-language"} <= r.tokens("Vary")


# CONTRACT §6 with a long list of origins.
def test_every_origin_of_a_long_list_is_allowed(make_httpd):
    origins = ["https://o%d.example" % i for i in range(70)]
    server = make_httpd("manyorigins", h.location(
        "/api/v1", h.SAMPLE_DATA,
        "    ProfileCORSOrigins %s\n" % " ".join(origins)))
    assert server.start().returncode == 0
    try:
        for o in (origins[0], origins[63], origins[64], origins[69]):
            r = server.get("/api/v1/profile", {"Origin": o})
            assert r.header("Access-Control-Allow-Origin") == o, o
    finally:
        server.stop()


def test_origins_on_several_lines_add_up(make_httpd):
    """httpd passes a directive at most 64 arguments: long lists go on
    several lines."""
    server = make_httpd("originlines", h.location(
        "/api/v1", h.SAMPLE_DATA,
        "    ProfileCORSOrigins https://a.example\n"
        "    ProfileCORSOrigins https://b.example https://c.example\n"))
    assert server.start().returncode == 0
    try:
        for o in ("https://a.example", "https://b.example",
                  "https://c.example"):
            r = server.get("/api/v1/profile", {"Origin": o})
            assert r.header("Access-Control-Allow-Origin") == o, o
        r = server.get("/api/v1/profile", {"Origin": "https://d.example"})
        assert not r.has("Access-Control-Allow-Origin")
    finally:
        server.stop()


@pytest.mark.parametrize("lines", [
    ["*", "https://a.example"], ["https://a.example", "*"],
    ["* https://a.example"], ["https://a.example *"], ["*", "*"]])
def test_star_with_origins_is_refused(make_httpd, lines):
    server = make_httpd("starmix", h.location(
        "/api/v1", h.SAMPLE_DATA,
        "".join("    ProfileCORSOrigins %s\n" % l for l in lines)))
    cp = server.configtest()
    assert cp.returncode != 0
    assert "'*' stands alone" in cp.stderr
