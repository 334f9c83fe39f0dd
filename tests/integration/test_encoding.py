# SPDX-License-Identifier: Apache-2.0
"""Precompressed representations (issue 3): gzip and br rendered at load
time, chosen by Accept-Encoding, each with its own strong ETag; Vary:
Accept-Encoding on every response; ProfileCompression Off; the data-file
size cap (ProfileMaxDataSize) and absurd nesting."""
import gzip
import json
import os

import brotli
import pytest

import httpd_harness as h

LANGS = ["en", "es"]
DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


def coded(server, target, ae, lang="en", extra=None):
    headers = {"Accept-Language": lang, "Accept-Encoding": ae}
    headers.update(extra or {})
    return server.get(target, headers)


class TestNegotiation:
    @pytest.mark.parametrize("ae,enc", [
        ("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br"),
        ("br;q=0.5, gzip", "gzip"), ("x-gzip", "gzip"), ("*", "br"),
        ("*, br;q=0", "gzip")])
    def test_every_unfiltered_route_in_the_chosen_coding(
            self, api, B, sample, ae, enc):
        for route in h.all_routes(sample):
            for lang in LANGS:
                plain = api.get(B + route, {"Accept-Language": lang})
                r = coded(api, B + route, ae, lang)
                assert r.status == 200, (route, r)
                assert r.header("Content-Encoding") == enc, (route, ae)
                assert DECODE[enc](r.body) == plain.body, route
                assert int(r.header("Content-Length")) == len(r.body)
                assert r.etag != plain.etag
                assert r.etag.startswith('"p1-')
                assert "accept-encoding" in r.tokens("Vary")
                assert r.header("Content-Type") == "application/json"
                assert r.header("Content-Language") == lang

    @pytest.mark.parametrize("ae", [None, "", "identity", "deflate",
                                    "gzip;q=0, br;q=0", "zstd",
                                    "identity;q=1, gzip;q=0.5"])
    def test_identity_when_nothing_better_is_accepted(self, api, B, ae):
        headers = {} if ae is None else {"Accept-Encoding": ae}
        r = api.get(B + "/case-studies", headers)
        assert r.status == 200
        assert not r.has("Content-Encoding")
        assert "accept-encoding" in r.tokens("Vary")
        json.loads(r.body)

    def test_codings_have_distinct_etags(self, api, B):
        tags = {coded(api, B + "/profile", ae).etag
                for ae in ("identity", "gzip", "br")}
        assert len(tags) == 3

    def test_same_data_same_coded_etags_elsewhere(self, api, B, sample):
        for route in h.all_routes(sample):
            a = coded(api, B + route, "br", "es")
            b = coded(api, "/ana/api/v1" + route, "br", "es")
            assert (a.etag, a.body) == (b.etag, b.body)

    def test_head_matches_get(self, api, B):
        g = coded(api, B + "/experience", "gzip")
        hd = api.request("HEAD", B + "/experience",
                         {"Accept-Encoding": "gzip"})
        assert hd.status == 200 and hd.body == b""
        for name in ("ETag", "Content-Encoding", "Content-Length", "Vary",
                     "Content-Type", "Last-Modified", "Cache-Control"):
            assert hd.header(name) == g.header(name), name

    def test_filtered_answers_are_identity(self, api, B):
        r = coded(api, B + "/skills?q=linux", "gzip, br")
        assert r.status == 200
        assert not r.has("Content-Encoding")
        assert "accept-encoding" in r.tokens("Vary")
        assert json.loads(r.body)

    @pytest.mark.parametrize("target,status", [
        ("/nope", 404), ("/skills?bogus=1", 400),
        ("/experience/none-such", 404)])
    def test_errors_are_identity_and_vary(self, api, B, target, status):
        r = coded(api, B + target, "gzip, br")
        assert r.status == status
        assert not r.has("Content-Encoding")
        assert "accept-encoding" in r.tokens("Vary")
        json.loads(r.body)

    def test_options_varies_too(self, api, B):
        r = api.request("OPTIONS", B + "/profile",
                        {"Origin": "https://x.example",
                         "Access-Control-Request-Method": "GET"})
        assert r.status == 200
        assert "accept-encoding" in r.tokens("Vary")


class TestRevalidation:
    @pytest.mark.parametrize("enc", ["gzip", "br"])
    def test_304_for_the_coding_the_client_holds(self, api, B, enc):
        first = coded(api, B + "/experience", enc, "es")
        r = coded(api, B + "/experience", enc, "es",
                  {"If-None-Match": first.etag})
        assert r.status == 304
        assert r.body == b""
        assert r.etag == first.etag
        assert r.header("Content-Encoding") == enc
        assert "accept-encoding" in r.tokens("Vary")
        assert r.header("Content-Language") == "es"
        assert r.header("Cache-Control") == first.header("Cache-Control")

    def test_identity_etag_with_gzip_accepted_gives_gzip_200(self, api, B):
        plain = api.get(B + "/experience")
        r = coded(api, B + "/experience", "gzip",
                  extra={"If-None-Match": plain.etag})
        assert r.status == 200
        assert r.header("Content-Encoding") == "gzip"

    def test_list_holding_each_coding_gives_304(self, api, B):
        tags = [coded(api, B + "/profile", ae).etag
                for ae in ("identity", "gzip", "br")]
        for ae in ("identity", "gzip", "br"):
            r = coded(api, B + "/profile", ae,
                      extra={"If-None-Match": ", ".join(tags)})
            assert r.status == 304, ae

    def test_gzip_etag_for_identity_client_gives_200(self, api, B):
        gz = coded(api, B + "/profile", "gzip")
        r = api.get(B + "/profile", {"If-None-Match": gz.etag})
        assert r.status == 200
        assert not r.has("Content-Encoding")


class TestCompressionOff:
    @pytest.fixture(scope="class")
    def off(self, make_httpd, data_files):
        server = make_httpd("nocompress", h.location(
            "/api/v1", data_files["main"], opts="compress=off")
            + h.location("/on/api/v1", data_files["main"]))
        assert server.start().returncode == 0
        yield server
        server.stop()

    def test_identity_and_still_vary_on_encoding(self, off, sample):
        """Vary names Accept-Encoding all the same: mod_deflate/mod_brotli
        may compress these 200s, and never mark their 304s."""
        for route in h.all_routes(sample):
            r = coded(off, "/api/v1" + route, "gzip, br")
            assert r.status == 200
            assert not r.has("Content-Encoding")
            assert "accept-encoding" in r.tokens("Vary")
            assert "accept-language" in r.tokens("Vary")

    def test_other_location_keeps_compressing(self, off):
        r = coded(off, "/on/api/v1/profile", "br")
        assert r.header("Content-Encoding") == "br"

    def test_identity_etags_are_the_same_either_way(self, off, sample):
        for route in h.all_routes(sample):
            a = off.get("/api/v1" + route)
            b = off.get("/on/api/v1" + route)
            assert (a.etag, a.body) == (b.etag, b.body)


class TestLimits:
    def test_file_over_the_cap_is_refused_by_configtest(
            self, make_httpd, data_files):
        size = os.path.getsize(data_files["main"])
        server = make_httpd("cap", h.REFUSE + "ProfileMaxDataSize %d\n" % (size - 1)
                            + h.location("/api/v1", data_files["main"]))
        cp = server.configtest()
        assert cp.returncode != 0
        assert data_files["main"] in cp.stderr
        assert "more than the limit of %d" % (size - 1) in cp.stderr
        assert "ProfileMaxDataSize" in cp.stderr

    @pytest.mark.parametrize("value", ["%d", "1M", "64k", "1G"])
    def test_file_within_the_cap_is_served(self, make_httpd, data_files,
                                           value):
        size = os.path.getsize(data_files["main"])
        if "%d" in value:
            value = value % size
        server = make_httpd("capok", "ProfileMaxDataSize %s\n" % value
                            + h.location("/api/v1", data_files["main"]))
        assert server.configtest().returncode == 0

    @pytest.mark.parametrize("value", ["0", "-1", "ten", "10X", "1MB", "",
                                       "99999999999999G"])
    def test_bad_values_are_refused(self, make_httpd, data_files, value):
        server = make_httpd("capbad", 'ProfileMaxDataSize "%s"\n' % value
                            + h.location("/api/v1", data_files["main"]))
        cp = server.configtest()
        assert cp.returncode != 0
        assert "ProfileMaxDataSize" in cp.stderr

    def test_cap_after_profile_data_applies_too(self, make_httpd, workdir):
        """Files are read once the whole configuration is: the cap holds
        wherever it stands."""
        path = os.path.join(workdir, "two-mb.json")
        with open(path, "wb") as f:
            f.truncate(2 * 1024 * 1024)
        os.chmod(path, 0o644)
        server = make_httpd("caplate", h.REFUSE + h.location("/api/v1", path)
                            + "ProfileMaxDataSize 1M\n")
        cp = server.configtest()
        assert cp.returncode != 0
        assert "more than the limit of 1048576" in cp.stderr
        os.unlink(path)

    def test_cap_above_1g_is_refused(self, make_httpd, data_files):
        server = make_httpd("capbig", "ProfileMaxDataSize 2G\n"
                            + h.location("/api/v1", data_files["main"]))
        cp = server.configtest()
        assert cp.returncode != 0
        assert "at most 1G" in cp.stderr

    def test_cap_inside_location_is_refused(self, make_httpd, data_files):
        server = make_httpd("caploc", h.location(
            "/api/v1", data_files["main"], "    ProfileMaxDataSize 1M\n"))
        cp = server.configtest()
        assert cp.returncode != 0
        assert "ProfileMaxDataSize" in cp.stderr

    def test_default_cap_refuses_a_huge_file_quickly(self, make_httpd,
                                                     workdir):
        path = os.path.join(workdir, "huge.json")
        with open(path, "wb") as f:
            f.truncate(65 * 1024 * 1024)        # sparse: no disk used
        os.chmod(path, 0o644)
        server = make_httpd("huge", h.REFUSE + h.location("/api/v1", path))
        cp = server.configtest()
        assert cp.returncode != 0
        assert "more than the limit of 67108864" in cp.stderr
        os.unlink(path)

    def test_absurd_nesting_is_refused_with_a_clear_message(
            self, make_httpd, workdir):
        path = os.path.join(workdir, "deep.json")
        with open(path, "w") as f:
            f.write('{"profile": ' + "[" * 100000 + "]" * 100000 + "}")
        os.chmod(path, 0o644)
        server = make_httpd("deep", h.REFUSE + h.location("/api/v1", path))
        cp = server.configtest()
        assert cp.returncode != 0
        assert path + ":1:" in cp.stderr
        assert "depth" in cp.stderr
