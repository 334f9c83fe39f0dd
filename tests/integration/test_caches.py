# SPDX-License-Identifier: Apache-2.0
"""Shared caches and replicas in front of the API (docs/ecosystem.md).

* mod_cache with mod_cache_disk on the API's own server: a cached answer
  is served only to requests it fits (language, encoding, origin), client
  revalidation gets 304, and after max-age the cache revalidates with the
  module and serves what the module serves now.
* Two replicas (separate server roots, copies of one data file with
  different modification times) behind mod_proxy_balancer: the same ETags
  everywhere, so a client revalidates against either replica, directly or
  through the balancer.
"""
import os
import shutil
import time

import pytest

import httpd_harness as h
from conftest import changed_variant

LANGS = ["en", "es"]

# Accept-Language values and the language each selects.  The cache keys
# on the raw header value, so each is a separate cache entry.
LANGUAGE_VARIANTS = [
    (None, "en"), ("en", "en"), ("es", "es"), ("es-MX", "es"),
    ("es-MX,es;q=0.9,en;q=0.5", "es"), ("en-GB", "en"), ("ES", "es"),
    ("en;q=0.1, es", "es"), ("de, *;q=0.5", "en"), ("en;q=0, *", "es"),
]


def xcache(r):
    """mod_cache's verdict (CacheHeader on): HIT, MISS or REVALIDATE."""
    v = r.header("X-Cache") or ""
    return v.split()[0] if v else None


@pytest.fixture(scope="module")
def cached(make_httpd, data_files, workdir):
    """The API behind mod_cache/mod_cache_disk, on the same server.  Each
    test has a <Location> of its own, so no test sees another's entries.
    /fresh/api/v1 serves a file the expiry test changes."""
    cache_root = os.path.join(workdir, "cache-root")
    os.makedirs(cache_root)
    fresh = h.copy_data(data_files["main"],
                        os.path.join(workdir, "cache-fresh.json"))
    if os.geteuid() == 0:               # the children write the cache
        shutil.chown(cache_root, "www-data", "www-data")
    body = (h.load_modules("cache", "cache_disk")
            + 'CacheRoot "%s"\n' % cache_root
            + "CacheDirLevels 2\nCacheDirLength 1\n"
            + "CacheEnable disk /\nCacheHeader on\n"
            + "".join(h.location("/%s/api/v1" % name, data_files["main"])
                      for name in ("lang", "enc", "reval", "hit")))
    body += h.location("/cors/api/v1", data_files["main"],
                       "    ProfileCORSOrigins https://a.example\n")
    body += h.location("/expiry/api/v1", data_files["main"],
                       "    ProfileMaxAge 1\n")
    body += h.location("/fresh/api/v1", fresh, "    ProfileMaxAge 1\n")
    server = make_httpd("cache", body)
    server.fresh_data = fresh
    yield server.start_checked()
    server.stop()


# ---------------------------------------------------------------- mod_cache
class TestDiskCache:
    def test_cache_serves_repeated_requests(self, cached, api):
        """The cache really is in front: a repeated request is a HIT with
        the module's own answer."""
        first = cached.get("/hit/api/v1/skills")
        again = cached.get("/hit/api/v1/skills")
        assert xcache(first) == "MISS"
        assert xcache(again) == "HIT"
        direct = api.get("/api/v1/skills")
        for r in (first, again):
            assert r.status == 200
            assert r.body == direct.body and r.etag == direct.etag

    def test_language_never_crosses(self, cached, api, sample):
        """English first fills the cache; every later request, whatever its
        Accept-Language, gets the language it asked for, twice (the second
        time usually from the cache)."""
        base = "/lang/api/v1"
        hits = 0
        for route in h.all_routes(sample):
            cached.get(base + route, {"Accept-Language": "en"})
            for value, lang in LANGUAGE_VARIANTS:
                want = api.get("/api/v1" + route, {"Accept-Language": lang})
                for _ in range(2):
                    r = cached.get(base + route, {"Accept-Language": value})
                    assert r.status == 200
                    assert r.header("Content-Language") == lang, \
                        (route, value, r)
                    assert r.body == want.body, (route, value)
                    assert r.etag == want.etag
                    hits += xcache(r) == "HIT"
        assert hits > 0

    def test_encoding_never_crosses(self, cached, api, sample):
        """A compressed answer in the cache is served only to clients that
        accept its encoding (the module's precompression: Vary names
        Accept-Encoding)."""
        base = "/enc/api/v1"
        order = ["gzip", "br", "identity", None, "gzip, br", "gzip", "br"]
        hits = 0
        for route in h.all_routes(sample):
            want = api.get("/api/v1" + route,
                           {"Accept-Encoding": "identity"}).body
            for ae in order:
                r = cached.get(base + route, {"Accept-Encoding": ae})
                assert r.status == 200
                enc = r.header("Content-Encoding")
                if ae in ("gzip", "br"):
                    assert enc == ae, (route, ae, r)
                elif ae in ("identity", None):
                    assert enc is None, (route, ae, r)
                assert h.decompress(r.body, enc) == want, (route, ae)
                hits += xcache(r) == "HIT"
        assert hits > 0

    def test_origin_never_crosses(self, cached):
        """With a list of origins, the echoed origin is never served to
        another origin from the cache (Vary: Origin)."""
        url = "/cors/api/v1/profile"
        for origin, acao in [("https://a.example", "https://a.example"),
                             ("https://evil.example", None),
                             ("https://a.example", "https://a.example"),
                             (None, None),
                             ("https://evil.example", None)]:
            r = cached.get(url, {"Origin": origin})
            assert r.status == 200
            assert r.header("Access-Control-Allow-Origin") == acao, origin

    def test_client_revalidation(self, cached, api):
        url = "/reval/api/v1/experience"
        en = cached.get(url)
        es = api.get("/api/v1/experience", {"Accept-Language": "es"})
        for _ in range(2):
            r = cached.get(url, {"If-None-Match": en.etag})
            assert r.status == 304 and r.body == b""
            assert r.etag == en.etag
            assert r.header("Content-Language") == "en"
            assert "accept-language" in r.tokens("Vary")
        # The English ETag from a Spanish client is not a match.
        r = cached.get(url, {"If-None-Match": en.etag,
                             "Accept-Language": "es"})
        assert r.status == 200 and r.body == es.body
        assert r.etag == es.etag
        r = cached.get(url, {"If-None-Match": es.etag,
                             "Accept-Language": "es"})
        assert r.status == 304 and r.etag == es.etag

    def test_after_max_age_the_cache_revalidates(self, cached):
        url = "/expiry/api/v1/metrics"
        first = cached.get(url)
        assert first.header("Cache-Control") == "public, max-age=1"
        assert xcache(cached.get(url)) == "HIT"
        time.sleep(2.5)                 # older than max-age=1
        r = cached.get(url)
        assert xcache(r) == "REVALIDATE", r
        assert r.status == 200
        assert r.body == first.body and r.etag == first.etag
        time.sleep(2.5)
        r = cached.get(url, {"If-None-Match": first.etag})
        assert r.status == 304 and r.etag == first.etag

    def test_after_max_age_new_data_is_served(self, cached, api, sample):
        """The data changes (and httpd reloads): once max-age has passed
        the cache asks the module again and serves the new answer."""
        url = "/fresh/api/v1/experience"
        old = cached.get(url)
        assert old.etag == api.get("/api/v1/experience").etag
        new = api.get("/changed/api/v1/experience")
        assert new.etag != old.etag
        h.write_json(cached.fresh_data, changed_variant(sample),
                     mtime=h.DATA_MTIME + 7200)
        cp = cached.graceful()
        assert cp.returncode == 0, cp.stderr
        deadline = time.monotonic() + 20
        while True:
            time.sleep(1.5)             # more than max-age each time
            r = cached.get(url, {"If-None-Match": old.etag})
            if r.status == 200 or time.monotonic() > deadline:
                break
        assert r.status == 200, r
        assert r.body == new.body and r.etag == new.etag
        again = cached.get(url, {"If-None-Match": new.etag})
        assert again.status == 304


# -------------------------------------------------- replicas and balancer
@pytest.fixture(scope="module")
def replicas(make_httpd, data_files, workdir):
    """Two replicas with their own server roots and their own copy of the
    data (the second one a day newer on disk), and a mod_proxy_balancer
    front end.  Each replica names itself in X-Replica."""
    servers = {}
    for name, mtime in (("a", h.DATA_MTIME), ("b", h.DATA_MTIME + 86400)):
        server = make_httpd("replica-" + name, "")
        data = h.copy_data(h.SAMPLE_DATA,
                           os.path.join(server.root, "profile.json"), mtime)
        server.write_conf(h.load_modules("headers")
                          + "Header always set X-Replica %s\n" % name
                          + h.location("/api/v1", data))
        servers[name] = server.start_checked()
    front = make_httpd("balancer", h.load_modules(
        "proxy", "proxy_http", "proxy_balancer", "lbmethod_byrequests",
        "slotmem_shm") + """<Proxy "balancer://replicas">
    BalancerMember "http://127.0.0.1:{a}"
    BalancerMember "http://127.0.0.1:{b}"
    ProxySet lbmethod=byrequests
</Proxy>
ProxyPass "/api/v1" "balancer://replicas/api/v1"
""".format(a=servers["a"].port, b=servers["b"].port))
    servers["front"] = front.start_checked()
    yield servers
    for s in servers.values():
        s.stop()


class TestReplicas:
    def test_same_etags_on_both_replicas(self, replicas, sample):
        a, b = replicas["a"], replicas["b"]
        for route in h.all_routes(sample):
            for lang in LANGS:
                ra = a.get("/api/v1" + route, {"Accept-Language": lang})
                rb = b.get("/api/v1" + route, {"Accept-Language": lang})
                assert ra.status == rb.status == 200
                assert ra.body == rb.body
                assert ra.etag == rb.etag, (route, lang)
                # The files' times differ: the ETag does not depend on them.
                assert ra.header("Last-Modified") != \
                    rb.header("Last-Modified")

    def test_revalidate_against_the_other_replica(self, replicas, sample):
        """A browser revalidates with both If-None-Match and
        If-Modified-Since; with If-None-Match present the other replica's
        different Last-Modified does not matter."""
        a, b = replicas["a"], replicas["b"]
        for route in h.all_routes(sample):
            for lang in LANGS:
                for src, dst in ((a, b), (b, a)):
                    got = src.get("/api/v1" + route,
                                  {"Accept-Language": lang})
                    r = dst.get("/api/v1" + route, {
                        "Accept-Language": lang,
                        "If-None-Match": got.etag,
                        "If-Modified-Since": got.header("Last-Modified")})
                    assert r.status == 304, (route, lang, r)
                    assert r.etag == got.etag

    def test_through_the_balancer(self, replicas, sample):
        """Through the balancer the ETags are the replicas' own, and the
        ETag got from either replica revalidates against whichever one
        the balancer picks."""
        a, front = replicas["a"], replicas["front"]
        answered = {200: set(), 304: set()}
        for route in h.all_routes(sample):
            for lang in LANGS:
                direct = a.get("/api/v1" + route, {"Accept-Language": lang})
                # byrequests takes the replicas in turn: two of each.
                for _ in range(2):
                    r = front.get("/api/v1" + route,
                                  {"Accept-Language": lang})
                    assert r.status == 200
                    assert r.body == direct.body
                    assert r.etag == direct.etag
                    answered[200].add(r.header("X-Replica"))
                for _ in range(2):
                    r = front.get("/api/v1" + route, {
                        "Accept-Language": lang,
                        "If-None-Match": direct.etag})
                    assert r.status == 304, (route, lang, r)
                    assert r.etag == direct.etag
                    answered[304].add(r.header("X-Replica"))
        assert answered == {200: {"a", "b"}, 304: {"a", "b"}}
