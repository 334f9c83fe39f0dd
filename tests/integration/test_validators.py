# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §5: validators, conditional requests and caching headers."""
import os
import re

import pytest

import httpd_harness as h

STRONG_ETAG = re.compile(r'^"[\x21\x23-\x7e]+"$')
LANGS = ["en", "es"]


def etags(server, base, routes, langs=LANGS):
    out = {}
    for route in routes:
        for lang in langs:
            r = server.get(base + route, {"Accept-Language": lang})
            assert r.status == 200, (route, r)
            out[(route, lang)] = (r.etag, r.body)
    return out


# CONTRACT §5
class TestETag:
    def test_every_200_has_strong_quoted_etag(self, api, B, sample):
        for route in h.all_routes(sample):
            for lang in LANGS:
                r = api.get(B + route, {"Accept-Language": lang})
                assert r.etag is not None, route
                assert STRONG_ETAG.match(r.etag), r.etag
                assert not r.etag.startswith("W/")

    def test_en_and_es_etags_differ(self, api, B, sample):
        tags = etags(api, B, h.all_routes(sample))
        for route in h.all_routes(sample):
            (ten, ben), (tes, bes) = tags[(route, "en")], tags[(route, "es")]
            assert ben != bes
            assert ten != tes, route

    def test_all_etags_distinct_across_representations(self, api, B,
                                                        sample):
        tags = etags(api, B, h.all_routes(sample))
        values = [t for t, _ in tags.values()]
        assert len(set(values)) == len(values)

    def test_same_request_same_etag(self, api, B):
        a = api.get(B + "/case-studies", {"Accept-Language": "es"})
        b = api.get(B + "/case-studies", {"Accept-Language": "es-419"})
        assert a.body == b.body and a.etag == b.etag

    def test_same_bytes_other_location_same_etags(self, api, B, sample):
        """Another <Location> serving a copy of the same data (another
        file, another path) gives the same ETags: they come from bytes."""
        routes = h.all_routes(sample)
        assert etags(api, B, routes) == etags(api, "/ana/api/v1", routes)

    def test_data_change_changes_only_changed_representations(
            self, api, B, sample):
        """/changed/api/v1 serves the sample with one experience record's
        English period changed: only the English experience collection
        and that record change ETag; everything else keeps it."""
        routes = h.all_routes(sample)
        old = etags(api, B, routes)
        new = etags(api, "/changed/api/v1", routes)
        changed_id = sample["experience"][-1]["id"]
        must_change = {("/experience", "en"),
                       ("/experience/" + changed_id, "en")}
        for key in old:
            (t_old, b_old), (t_new, b_new) = old[key], new[key]
            if key in must_change:
                assert b_old != b_new, key
                assert t_old != t_new, key
            else:
                assert b_old == b_new, key
                assert t_old == t_new, key

    def test_filtered_responses_have_own_etags(self, api, B):
        full = api.get(B + "/experience")
        f1 = api.get(B + "/experience?company=mareta")
        f2 = api.get(B + "/experience?company=cierzo")
        f3 = api.get(B + "/experience?company=MARETA")
        for r in (f1, f2, f3):
            assert r.status == 200
            assert STRONG_ETAG.match(r.etag)
        assert len({full.etag, f1.etag, f2.etag}) == 3
        assert f1.body == f3.body and f1.etag == f3.etag
        es = api.get(B + "/experience?company=mareta",
                     {"Accept-Language": "es"})
        assert es.body != f1.body and es.etag != f1.etag

    def test_filtered_response_conditional_304(self, api, B):
        r = api.get(B + "/skills?q=rust")
        r2 = api.get(B + "/skills?q=rust", {"If-None-Match": r.etag})
        assert r2.status == 304
        assert r2.etag == r.etag
        # The unfiltered ETag does not validate the filtered one.
        full = api.get(B + "/skills")
        r3 = api.get(B + "/skills?q=rust", {"If-None-Match": full.etag})
        assert r3.status == 200

    def test_empty_filter_results_have_etag(self, api, B):
        r = api.get(B + "/experience?company=zzzz")
        assert r.body == b"[]"
        assert STRONG_ETAG.match(r.etag)
        assert api.get(B + "/experience?company=zzzz",
                       {"If-None-Match": r.etag}).status == 304


# CONTRACT §5 (restart stability)
def test_etags_stable_across_restart(make_httpd, workdir, api, B, sample):
    data = h.copy_data(h.SAMPLE_DATA, os.path.join(workdir, "restart.json"))
    server = make_httpd("restart", h.location("/api/v1", data))
    routes = h.all_routes(sample)
    try:
        assert server.start().returncode == 0
        first = etags(server, "/api/v1", routes)
        server.stop()
        assert server.start().returncode == 0
        second = etags(server, "/api/v1", routes)
    finally:
        server.stop()
    assert first == second
    # ... and the same as on the main server: same data, same ETags.
    assert first == etags(api, B, routes)


# CONTRACT §5
class TestLastModified:
    def test_last_modified_is_data_file_mtime(self, api, B, sample):
        want = h.http_date(h.DATA_MTIME)
        for route in h.all_routes(sample):
            r = api.get(B + route)
            assert r.header("Last-Modified") == want, route
        r = api.get(B + "/skills?q=c")
        assert r.header("Last-Modified") == want

    def test_last_modified_per_location_file(self, api, data_files):
        mt = os.stat(data_files["other"]).st_mtime
        r = api.get("/other/api/v1/profile")
        assert h.parse_http_date(r.header("Last-Modified")) == int(mt)


# CONTRACT §5
class TestConditional:
    route = "/experience/cierzo-backend-engineer"

    def _tag(self, api, B, lang="en"):
        return api.get(B + self.route, {"Accept-Language": lang}).etag

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_inm_exact_is_304(self, api, B, method):
        r = api.request(method, B + self.route,
                        {"If-None-Match": self._tag(api, B)})
        assert r.status == 304
        assert r.body == b""

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_inm_weak_is_304(self, api, B, method):
        r = api.request(method, B + self.route,
                        {"If-None-Match": "W/" + self._tag(api, B)})
        assert r.status == 304

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_inm_list_is_304(self, api, B, method):
        tag = self._tag(api, B)
        r = api.request(method, B + self.route,
                        {"If-None-Match": '"nope", W/"other", ' + tag})
        assert r.status == 304

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_inm_star_is_304(self, api, B, method):
        r = api.request(method, B + self.route, {"If-None-Match": "*"})
        assert r.status == 304

    def test_inm_mismatch_is_200(self, api, B):
        tag = self._tag(api, B)
        for value in ['"nope"', tag.lower() if tag != tag.lower()
                      else tag.upper(), tag.strip('"'),
                      self._tag(api, B, "es")]:
            r = api.get(B + self.route, {"If-None-Match": value})
            assert r.status == 200, value
            assert r.body

    def test_etag_of_one_language_does_not_validate_other(self, api, B):
        r = api.get(B + self.route, {"Accept-Language": "es",
                                     "If-None-Match": self._tag(api, B)})
        assert r.status == 200

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_ims_equal_or_later_is_304(self, api, B, method):
        for ts in (h.DATA_MTIME, h.DATA_MTIME + 3600):
            r = api.request(method, B + self.route,
                            {"If-Modified-Since": h.http_date(ts)})
            assert r.status == 304, ts

    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_ims_in_the_future_is_304(self, api, B, method):
        # "at or after Last-Modified" (CONTRACT §5), whatever the clock.
        r = api.request(method, B + self.route,
                        {"If-Modified-Since": "Fri, 31 Dec 2099 23:59:59 GMT"})
        assert r.status == 304

    def test_ims_that_is_not_a_date_is_ignored(self, api, B):
        for value in ("yesterday", "", "Fri, 99 Foo 2020 00:00:00 GMT"):
            r = api.get(B + self.route, {"If-Modified-Since": value})
            assert r.status == 200, value
            assert r.body

    def test_ims_earlier_is_200(self, api, B):
        r = api.get(B + self.route,
                    {"If-Modified-Since": h.http_date(h.DATA_MTIME - 1)})
        assert r.status == 200

    def test_inm_mismatch_with_ims_match_is_200(self, api, B):
        r = api.get(B + self.route,
                    {"If-None-Match": '"nope"',
                     "If-Modified-Since": h.http_date(h.DATA_MTIME)})
        assert r.status == 200
        assert r.body

    def test_inm_match_with_older_ims_is_304(self, api, B):
        r = api.get(B + self.route,
                    {"If-None-Match": self._tag(api, B),
                     "If-Modified-Since": h.http_date(h.DATA_MTIME - 86400)})
        assert r.status == 304

    def test_inm_match_with_ims_in_future_is_304(self, api, B):
        # IMS is ignored when INM is present, even a bogus one.
        r = api.get(B + self.route,
                    {"If-None-Match": self._tag(api, B),
                     "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"})
        assert r.status == 304

    def test_304_headers(self, api, B):
        full = api.get(B + self.route, {"Accept-Language": "es"})
        r = api.get(B + self.route, {"Accept-Language": "es",
                                     "If-None-Match": full.etag,
                                     "Origin": "https://x.example"})
        assert r.status == 304
        assert r.body == b""
        assert r.etag == full.etag
        assert r.header("Cache-Control") == "public, max-age=300"
        assert "accept-language" in r.tokens("Vary")
        assert r.header("Content-Language") == "es"
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert "etag" in r.tokens("Access-Control-Expose-Headers")
        assert r.header("X-Content-Type-Options") == "nosniff"
        assert not r.has("Content-Length") or \
            r.header("Content-Length") == "0"

    def test_failed_if_match_is_412_problem(self, api, B):
        r = api.get(B + self.route, {"If-Match": '"nope"'})
        assert r.status == 412
        assert r.json()["status"] == 412
        assert r.header("Cache-Control") == "no-store"
        assert not r.has("ETag")
        r = api.get(B + self.route, {"If-Match": self._tag(api, B)})
        assert r.status == 200

    @pytest.mark.parametrize("rng", ["bytes=0-10", "bytes=0-1,3-4",
                                     "bytes=99999-"])
    def test_range_is_ignored_whole_200(self, api, B, rng):
        full = api.get(B + self.route)
        r = api.get(B + self.route, {"Range": rng})
        assert r.status == 200
        assert r.body == full.body
        assert r.header("Content-Type") == "application/json"

    def test_conditional_not_applied_to_errors(self, api, B):
        r = api.get(B + "/nope", {"If-None-Match": "*"})
        assert r.status == 404
        r = api.get(B + "/skills?q=", {"If-None-Match": "*"})
        assert r.status == 400


# CONTRACT §5
class TestCachingHeaders:
    def test_default_cache_control(self, api, B, sample):
        for route in h.all_routes(sample):
            r = api.get(B + route)
            assert r.header("Cache-Control") == "public, max-age=300"

    def test_profile_max_age_honoured(self, api):
        r = api.get("/nested/api/v1/metrics")
        assert r.status == 200
        assert r.header("Cache-Control") == "public, max-age=60"
        r = api.get("/nested/api/v1/metrics", {"If-None-Match": r.etag})
        assert r.status == 304
        assert r.header("Cache-Control") == "public, max-age=60"

    @pytest.mark.parametrize("method,target", [
        ("GET", "/nope"), ("GET", "/experience/nope"), ("GET", "/skills?q="),
        ("DELETE", "/skills"), ("GET", "/profile?x=1")])
    def test_errors_are_no_store(self, api, B, method, target):
        r = api.request(method, B + target)
        assert 400 <= r.status < 500
        assert r.header("Cache-Control") == "no-store"

    def test_content_type_exact_on_200(self, api, B, sample):
        for route in h.all_routes(sample) + ["/skills?q=rust"]:
            r = api.get(B + route)
            assert r.header_all("Content-Type") == ["application/json"]

    @pytest.mark.parametrize("method,target,headers", [
        ("GET", "/profile", {}),
        ("HEAD", "/profile", {}),
        ("GET", "/profile", {"If-None-Match": "*"}),
        ("GET", "/nope", {}),
        ("GET", "/skills?q=", {}),
        ("POST", "/skills", {}),
        ("OPTIONS", "/skills", {}),
        ("OPTIONS", "/nope", {"Origin": "https://x.example",
                              "Access-Control-Request-Method": "GET"}),
    ])
    def test_nosniff_on_every_response(self, api, B, method, target,
                                       headers):
        r = api.request(method, B + target, headers)
        assert r.header("X-Content-Type-Options") == "nosniff", r


# CONTRACT §5 (revised 2026-11-24): Expires to HTTP/1.0 requests.
def http10(server, method, target, headers=None):
    """One HTTP/1.0 request on a raw socket (the server closes after
    the answer)."""
    req = "%s %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n" % (method, target,
                                                        server.port)
    req += "".join("%s: %s\r\n" % kv for kv in (headers or {}).items())
    raw = h.raw_exchange(server.port, (req + "\r\n").encode("ascii"))
    return h.parse_response(raw, dechunk=False)


class TestExpiresForHTTP10:
    """Every answer is negotiated (Vary), which HTTP/1.0 caches ignore:
    to an HTTP/1.0 request Expires equals Date, as httpd's
    mod_negotiation does, so such a cache serves no one language or
    coding to everyone.  Cache-Control, for HTTP/1.1 caches on the way,
    is unchanged."""
    CASES = [
        ("GET", "/metrics", {"Accept-Language": "es"}, 200),
        ("GET", "/skills?q=linux", {}, 200),
        ("GET", "/profile", {"Accept-Encoding": "gzip, br"}, 200),
        ("HEAD", "/experience/norteverde-platform-lead", {}, 200),
        ("GET", "/profile", {"If-None-Match": "*"}, 304),
        ("GET", "/profile", {"If-Modified-Since":
                             h.http_date(h.DATA_MTIME)}, 304),
        ("OPTIONS", "/nope", {}, 200),
        ("OPTIONS", "/experience/nope", {
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "GET"}, 200),
    ]

    @pytest.mark.parametrize("method,target,headers,status", CASES)
    def test_http10_expires_is_date(self, api, B, method, target, headers,
                                    status):
        r = http10(api, method, B + target, headers)
        assert r.status == status, r
        assert r.header_all("Expires") == r.header_all("Date"), r
        assert r.header("Cache-Control") == "public, max-age=300"
        assert "accept-language" in r.tokens("Vary")

    @pytest.mark.parametrize("method,target,headers,status", CASES)
    def test_http11_expires_is_date_plus_max_age(self, api, B, method,
                                                 target, headers, status):
        r = api.request(method, B + target, headers)
        assert r.status == status, r
        assert h.parse_http_date(r.header("Expires")) == \
            h.parse_http_date(r.header("Date")) + 300, r

    def test_http10_with_its_own_max_age(self, api):
        r = http10(api, "GET", "/nested/api/v1/metrics")
        assert r.status == 200
        assert r.header("Cache-Control") == "public, max-age=60"
        assert r.header_all("Expires") == r.header_all("Date")

    def test_http10_answer_is_the_http11_answer(self, api, B, sample):
        """Only Expires differs: the same body, ETag and other fields."""
        skip = {"date", "expires", "connection", "keep-alive"}
        for route in h.all_routes(sample):
            a = http10(api, "GET", B + route, {"Accept-Language": "es"})
            b = api.get(B + route, {"Accept-Language": "es"})
            assert (a.status, a.body) == (b.status, b.body), route
            assert [(k, v) for k, v in a.headers if k.lower() not in skip] \
                == [(k, v) for k, v in b.headers if k.lower() not in skip], \
                route

    @pytest.mark.parametrize("method,target", [
        ("GET", "/nope"), ("GET", "/skills?q="), ("DELETE", "/skills")])
    def test_http10_errors_stay_no_store(self, api, B, method, target):
        r = http10(api, method, B + target)
        assert 400 <= r.status < 500
        assert r.header("Cache-Control") == "no-store"
        assert not r.has("Expires")
