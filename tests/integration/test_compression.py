# SPDX-License-Identifier: Apache-2.0
"""mod_deflate and mod_brotli in front of the API (docs/ecosystem.md).

* The shipped httpd-conf/profile-compression.conf (module compression off,
  httpd's filters compress JSON and problem bodies): clients that accept
  gzip or br get that encoding of the identity bytes, Vary names
  Accept-Encoding, and the ETag they received revalidates to 304.
* Why the file says DeflateAlterETag/BrotliAlterETag NoChange: with httpd's
  default (AddSuffix) a compressed answer never revalidates.
* Issue 3: the module's own precompression together with the filters:
  nothing is compressed twice, every received ETag revalidates, Vary stays
  right.
"""
import json
import os

import pytest

import httpd_harness as h

pytest.importorskip("brotli", reason="python3-brotli is not installed "
                    "(scripts/install-deps installs it)")

CONF = os.path.join(h.SRCDIR, "httpd-conf", "profile-compression.conf")
MODULES = h.load_modules("filter", "env", "headers", "deflate", "brotli")
ENCODINGS = ["gzip", "br"]
LANGS = ["en", "es"]
B = "/api/v1"


def site(data, extra="", opts=""):
    """The API at /api/v1 with the shipped compression file included after
    it (as the file asks), then `extra`; `opts` on its ProfileData line."""
    return (MODULES + h.location(B, data, opts=opts)
            + 'Include "%s"\n' % CONF + extra)


ADD_SUFFIX = "DeflateAlterETag AddSuffix\nBrotliAlterETag AddSuffix\n"
# The API's line says compress=on, beside the file's server default Off.
MODULE_COMPRESSION_ON = "compress=on"


@pytest.fixture(scope="module")
def filters(make_httpd, data_files):
    """ProfileCompression Off (from the file): httpd compresses."""
    server = make_httpd("filters", site(data_files["main"]))
    yield server.start_checked()
    server.stop()


@pytest.fixture(scope="module")
def both(make_httpd, data_files):
    """The module's own precompression on, and the filters configured."""
    server = make_httpd("both", site(data_files["main"],
                                     opts=MODULE_COMPRESSION_ON))
    yield server.start_checked()
    server.stop()


def get(server, target, lang="en", ae="identity", **more):
    hdrs = {"Accept-Language": lang, "Accept-Encoding": ae}
    hdrs.update(more)
    return server.get(target, hdrs)


def coding(r):
    """The Content-Encoding as one token, or None; never a list (a list
    would mean the body was compressed twice)."""
    ce = r.header_all("Content-Encoding")
    assert len(ce) <= 1, r
    if not ce:
        return None
    assert "," not in ce[0], "compressed twice: %r" % ce[0]
    return ce[0].strip().lower()


def assert_vary(r):
    assert {"accept-encoding", "accept-language"} <= r.tokens("Vary"), r


def assert_revalidates(server, target, lang, ae, got):
    """If-None-Match with the ETag the client got, and the same request
    headers otherwise: 304, no body, the same ETag, Vary right, and no
    Content-Encoding that contradicts the stored answer."""
    c = get(server, target, lang, ae, **{"If-None-Match": got.etag})
    assert c.status == 304, (target, lang, ae, got.etag, c)
    assert c.body == b""
    assert c.etag == got.etag
    assert_vary(c)
    assert coding(c) in (None, coding(got)), c
    return c


# ------------------------------------------------ profile-compression.conf
class TestShippedConfiguration:
    """ProfileCompression Off; mod_brotli and mod_deflate compress."""

    @pytest.mark.parametrize("enc", ENCODINGS)
    def test_every_route_compressed_and_revalidated(self, filters, sample,
                                                    enc):
        for route in h.all_routes(sample):
            for lang in LANGS:
                ident = get(filters, B + route, lang)
                assert ident.status == 200 and coding(ident) is None
                r = get(filters, B + route, lang, enc)
                assert r.status == 200
                assert coding(r) == enc, (route, r)
                assert h.decompress(r.body, enc) == ident.body, route
                assert r.header("Content-Type") == "application/json"
                assert r.header("Content-Language") == lang
                assert_vary(r)
                # NoChange: the module's ETag, which its conditional
                # evaluation recognises.
                assert r.etag == ident.etag
                assert_revalidates(filters, B + route, lang, enc, r)

    @pytest.mark.parametrize("ae", [None, "identity", "gzip;q=0, br;q=0",
                                    "compress"])
    def test_identity_when_nothing_acceptable(self, filters, ae):
        r = filters.get(B + "/experience", {"Accept-Encoding": ae})
        assert r.status == 200
        assert coding(r) is None
        assert r.json() == get(filters, B + "/experience").json()
        assert "accept-encoding" in r.tokens("Vary")

    @pytest.mark.parametrize("ae, enc", [("gzip, br", "br"),
                                         ("br, gzip", "br"),
                                         ("br;q=0, gzip", "gzip"),
                                         ("gzip;q=0, br", "br")])
    def test_br_preferred_gzip_otherwise(self, filters, ae, enc):
        r = get(filters, B + "/case-studies", "es", ae)
        assert coding(r) == enc
        assert h.decompress(r.body, enc) == \
            get(filters, B + "/case-studies", "es").body
        assert_revalidates(filters, B + "/case-studies", "es", ae, r)

    @pytest.mark.parametrize("enc", ENCODINGS)
    def test_filtered_answers(self, filters, enc):
        target = B + "/skills?q=test"
        ident = get(filters, target)
        r = get(filters, target, ae=enc)
        assert coding(r) == enc
        assert h.decompress(r.body, enc) == ident.body
        assert_revalidates(filters, target, "en", enc, r)

    @pytest.mark.parametrize("enc", ENCODINGS)
    @pytest.mark.parametrize("accept", ["application/json",
                                        "application/problem+json"])
    @pytest.mark.parametrize("target, status", [
        ("/nope", 404),
        ("/skills?q=&x=1", 400)])
    def test_problem_bodies_compressed(self, filters, enc, accept, target,
                                       status):
        ident = get(filters, B + target, "es", Accept=accept)
        r = get(filters, B + target, "es", enc, Accept=accept)
        assert r.status == ident.status == status
        assert coding(r) == enc
        assert json.loads(h.decompress(r.body, enc)) == ident.json()
        assert r.header("Content-Type") == accept
        assert r.header("Cache-Control") == "no-store"
        assert_vary(r)

    @pytest.mark.parametrize("enc", ENCODINGS)
    def test_head_has_the_headers_of_get(self, filters, enc):
        g = get(filters, B + "/experience", "es", enc)
        hd = filters.request("HEAD", B + "/experience",
                             {"Accept-Language": "es",
                              "Accept-Encoding": enc})
        assert hd.status == 200 and hd.body == b""
        for name in ("Content-Encoding", "Content-Length", "ETag", "Vary",
                     "Content-Type"):
            assert hd.header(name) == g.header(name), name

    def test_options_has_nothing_to_compress(self, filters):
        r = filters.request("OPTIONS", B + "/profile",
                            {"Accept-Encoding": "gzip, br"})
        assert r.status == 200
        assert r.header("Content-Length") == "0"
        assert coding(r) is None


def test_default_add_suffix_never_revalidates(make_httpd, data_files):
    """Why the file says NoChange: with httpd's default (AddSuffix) the
    compressed answer's ETag is the module's plus "-gzip"/"-br", and
    revalidating with it gives the whole body again, every time."""
    server = make_httpd("suffix", site(data_files["main"], ADD_SUFFIX))
    server.start_checked()
    try:
        ident = get(server, B + "/profile")
        for enc in ENCODINGS:
            r = get(server, B + "/profile", ae=enc)
            assert coding(r) == enc
            assert r.etag == ident.etag[:-1] + "-%s\"" % enc
            again = get(server, B + "/profile", ae=enc,
                        **{"If-None-Match": r.etag})
            assert again.status == 200 and again.body == r.body
    finally:
        server.stop()


# ------------------------------------------- issue 3: module + filters
class TestModuleCompressionWithFilters:
    """The module precompresses; mod_brotli and mod_deflate are
    configured too (the shipped file, then ProfileCompression On)."""

    @pytest.mark.parametrize("ae", ["gzip", "br", "gzip, br", "br, gzip"])
    def test_every_route_compressed_once_and_revalidated(self, both, sample,
                                                         ae):
        for route in h.all_routes(sample):
            for lang in LANGS:
                ident = get(both, B + route, lang)
                assert ident.status == 200 and coding(ident) is None
                r = get(both, B + route, lang, ae)
                assert r.status == 200
                enc = coding(r)
                assert enc in ae.replace(" ", "").split(","), (route, r)
                assert h.decompress(r.body, enc) == ident.body, route
                assert_vary(r)
                # The module's own encoding has an ETag of its own.
                assert r.etag != ident.etag, (route, enc)
                assert_revalidates(both, B + route, lang, ae, r)

    def test_identity_answers_revalidate(self, both, sample):
        for route in h.all_routes(sample):
            ident = get(both, B + route, "es")
            assert_vary(ident)
            assert_revalidates(both, B + route, "es", "identity", ident)

    def test_each_encoding_its_own_etag(self, both):
        tags = {enc: get(both, B + "/metrics", ae=enc).etag
                for enc in ["identity"] + ENCODINGS}
        assert len(set(tags.values())) == 3, tags

    @pytest.mark.parametrize("enc", ENCODINGS)
    def test_filtered_answers_compressed_once(self, both, enc):
        target = B + "/experience?company=mareta"
        ident = get(both, target, "es")
        r = get(both, target, "es", enc)
        assert coding(r) == enc
        assert h.decompress(r.body, enc) == ident.body
        assert_revalidates(both, target, "es", enc, r)

    @pytest.mark.parametrize("enc", ENCODINGS)
    def test_problem_bodies_compressed_once(self, both, enc):
        ident = get(both, B + "/experience/nope", "es")
        r = get(both, B + "/experience/nope", "es", enc)
        assert r.status == 404
        assert coding(r) == enc
        assert json.loads(h.decompress(r.body, enc)) == ident.json()
        assert_vary(r)


def test_module_answers_revalidate_under_add_suffix(make_httpd, data_files,
                                                    sample):
    """A site that adds the filters with httpd's default AddSuffix: the
    module's precompressed answers pass the filters untouched, so their
    ETags still revalidate."""
    server = make_httpd("both-suffix", site(
        data_files["main"], ADD_SUFFIX, opts=MODULE_COMPRESSION_ON))
    server.start_checked()
    try:
        for route in h.all_routes(sample):
            for enc in ENCODINGS:
                r = get(server, B + route, "es", enc)
                assert coding(r) == enc
                assert h.decompress(r.body, enc) == \
                    get(server, B + route, "es").body
                assert_revalidates(server, B + route, "es", enc, r)
    finally:
        server.stop()
