# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 and §1 configuration: validation of the data file by
`apache2 -t`, start-up and graceful reload; several <Location>s."""
import copy
import json
import os
import re
import signal
import time

import pytest

import httpd_harness as h

SYNTAX_FILE = os.path.join(h.TEST_DATA, "syntax-error.json")
MINIMAL_FILE = os.path.join(h.TEST_DATA, "minimal.json")


def _mutate(fn):
    def make(sample):
        d = copy.deepcopy(sample)
        fn(d)
        return json.dumps(d, ensure_ascii=False, indent=2)
    return make


def _set(path, value):
    def fn(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return _mutate(fn)


def _del(path):
    def fn(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return _mutate(fn)


def _dup_metric_id(d):
    d["metrics"][3]["id"] = d["metrics"][1]["id"]


def _duplicate_key(sample):
    with open(h.SAMPLE_DATA, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = next(n for n, ln in enumerate(lines) if ln.strip().startswith(
        '"name"'))
    lines.insert(i + 1, '    "name": "Otra Persona",')
    return "\n".join(lines)


def _syntax(sample):
    with open(SYNTAX_FILE, encoding="utf-8") as f:
        return f.read()


# kind -> (maker(sample) -> file text, [fragments the message must hold])
BAD_FILES = {
    "syntax": (_syntax, [re.compile(r"(:4:(1[234])\b)|"
                                    r"(line 4\D+(1[234])\b)")]),
    "missing_translation": (_del(["experience", 2, "period", "es"]),
                            ["$.experience[2].period", "es"]),
    "unknown_key": (_set(["metrics", 0, "colour"], "red"),
                    ["$.metrics[0]", "colour"]),
    "wrong_type": (_set(["profile", "name"], 42), ["$.profile.name"]),
    "wrong_type_collection": (_set(["skills"], {}), ["$.skills"]),
    "wrong_type_list_item": (_set(["experience", 0, "highlights"], [1]),
                             ["$.experience[0].highlights"]),
    "null": (_set(["experience", 1, "companyUrl"], None),
             ["$.experience[1].companyUrl", "null"]),
    "null_list_item": (_set(["caseStudies", 0, "resultItems"], [None]),
                       ["$.caseStudies[0].resultItems", "null"]),
    "duplicate_id": (_mutate(_dup_metric_id),
                     ["$.metrics[3]", "ingestion-latency",
                      re.compile("duplicate", re.I)]),
    "bad_id": (_set(["experience", 0, "id"], "bad id!"),
               ["$.experience[0].id", "bad id!"]),
    "bad_id_leading_dash": (_set(["caseStudies", 1, "id"], "-x"),
                            ["$.caseStudies[1].id"]),
    "duplicate_json_key": (_duplicate_key,
                           [re.compile("duplicate", re.I), "name"]),
    "missing_field": (_del(["caseStudies", 1, "mobileTitle"]),
                      ["$.caseStudies[1]", "mobileTitle"]),
    "per_language_url": (_set(["experience", 0, "companyUrl"],
                              {"en": "https://a", "es": "https://b"}),
                         ["$.experience[0].companyUrl"]),
    "undeclared_language": (_set(["profile", "headline"],
                                 {"en": "a", "es": "b", "fr": "c"}),
                            ["$.profile.headline"]),
    "bad_kind": (_set(["contact", "links", 0, "kind"], "Linked In"),
                 ["$.contact.links[0].kind"]),
    # CONTRACT §9 (revised 2026-11-26): a page renders links.
    "script_url": (_set(["contact", "links", 0, "url"],
                        "javascript:alert(document.cookie)"),
                   ['$.contact.links[0].url: "javascript:alert(document.'
                    'cookie)" is not an https, http, mailto or tel URL']),
    "relative_url": (_set(["experience", 2, "companyUrl"], "/about"),
                     ['$.experience[2].companyUrl: "/about" is not an '
                      'https, http, mailto or tel URL']),
}


def _message_lines(cp, path):
    out = (cp.stdout or "") + (cp.stderr or "")
    return out, [ln for ln in out.splitlines() if path in ln]


# CONTRACT §9
def _passes_and_serves_minimal(server):
    assert server.configtest().returncode == 0
    try:
        assert server.start().returncode == 0
        assert server.get("/api/v1/profile").json()["name"] == \
            "Mínima Prueba"
    finally:
        server.stop()


class TestConfigtestRefusesBadFiles:
    @pytest.mark.parametrize("kind", sorted(BAD_FILES))
    def test_configtest_names_file_and_problem(self, make_httpd, workdir,
                                               sample, kind):
        maker, fragments = BAD_FILES[kind]
        path = os.path.join(workdir, "bad-%s.json" % kind)
        with open(path, "w", encoding="utf-8") as f:
            f.write(maker(sample))
        server = make_httpd("bad-" + kind,
                             h.REFUSE + h.location("/api/v1", path))
        cp = server.configtest()
        assert cp.returncode != 0, (kind, cp)
        out, lines = _message_lines(cp, path)
        assert len(lines) == 1, (kind, out)
        for frag in fragments:
            if isinstance(frag, str):
                assert frag in lines[0], (kind, frag, lines[0])
            else:
                assert frag.search(lines[0]), (kind, frag.pattern, lines[0])

    def test_missing_file_is_refused(self, make_httpd, workdir):
        path = os.path.join(workdir, "does-not-exist.json")
        server = make_httpd("nofile", h.REFUSE + h.location("/api/v1", path))
        cp = server.configtest()
        assert cp.returncode != 0
        out, lines = _message_lines(cp, path)
        assert len(lines) == 1, out

    def test_good_file_passes_configtest(self, make_httpd):
        server = make_httpd("goodtest", h.location("/api/v1", MINIMAL_FILE))
        cp = server.configtest()
        assert cp.returncode == 0, cp.stderr

    # CONTRACT §1: ProfileData is required where the handler is set.
    # Which handler a section sets is an expression httpd evaluates per
    # request, so the check is made there (docs/operations.md,
    # PROFILE0001): configtest passes, requests answer a 500 problem.
    @pytest.mark.allow_log(r"PROFILE0001")
    def test_handler_without_profile_data_answers_500(self, make_httpd):
        server = make_httpd("nodata", h.location("/api/v1", MINIMAL_FILE)
                            + "<Location /other/api>\n"
                            "    Require all granted\n"
                            "    SetHandler profile\n</Location>\n")
        assert server.configtest().returncode == 0
        try:
            assert server.start().returncode == 0
            resp = server.get("/other/api/profile")
            assert resp.status == 500, resp
            assert resp.json()["status"] == 500
            assert server.get("/api/v1/profile").status == 200
            assert h.wait_for(lambda: "no ProfileData applies there"
                              in server.read_log())
        finally:
            server.stop()

    @pytest.mark.allow_log(r"PROFILE0001")
    def test_data_of_another_virtual_host_does_not_apply(self, make_httpd):
        # Each virtual host has its own <Location> sections: vhost A's
        # ProfileData is nothing to vhost B's SetHandler.
        server = make_httpd("vhosts", "")
        server.write_conf(
            "<VirtualHost 127.0.0.1:{port}>\n"
            "    ServerName a.example\n{a}</VirtualHost>\n"
            "<VirtualHost 127.0.0.1:{port}>\n"
            "    ServerName b.example\n"
            "    <Location /api/v1>\n        Require all granted\n"
            "        SetHandler profile\n    </Location>\n"
            "</VirtualHost>\n".format(
                port=server.port, a=h.location("/api/v1", MINIMAL_FILE)))
        assert server.configtest().returncode == 0
        try:
            assert server.start().returncode == 0
            a = server.get("/api/v1/profile", {"Host": "a.example"})
            assert a.status == 200 and a.json()["name"] == "Mínima Prueba"
            b = server.get("/api/v1/profile", {"Host": "b.example"})
            assert b.status == 500, b
        finally:
            server.stop()

    def test_data_only_in_parent_location_is_that_locations_api(
            self, make_httpd):
        # ProfileData's <Location> is the base (CONTRACT §1): a handler
        # set below it serves routes relative to the parent.
        server = make_httpd("parentdata",
                            "<Location /api>\n    Require all granted\n"
                            "    ProfileData \"%s\"\n"
                            "</Location>\n<Location /api/v1>\n"
                            "    SetHandler profile\n</Location>\n"
                            % MINIMAL_FILE)
        assert server.configtest().returncode == 0
        try:
            assert server.start().returncode == 0
            assert server.get("/api/v1/profile").status == 404
        finally:
            server.stop()

    def test_data_in_if_section_has_its_locations_base(self, make_httpd):
        server = make_httpd("dataif",
                            "<Location /api/v1>\n    Require all granted\n"
                            "    SetHandler profile\n    <If \"true\">\n"
                            "        ProfileData \"%s\"\n    </If>\n"
                            "</Location>\n" % MINIMAL_FILE)
        _passes_and_serves_minimal(server)

    def test_handler_set_by_an_expression_serves(self, make_httpd):
        server = make_httpd("exprhandler",
                            "<Location /api/v1>\n    Require all granted\n"
                            "    SetHandler \"%%{tolower:PROFILE}\"\n"
                            "    ProfileData \"%s\"\n</Location>\n"
                            % MINIMAL_FILE)
        _passes_and_serves_minimal(server)

    def test_handler_in_if_section_passes_configtest(self, make_httpd):
        server = make_httpd("ifsection",
                            "<Location /api/v1>\n    Require all granted\n"
                            "    ProfileData \"%s\"\n    <If \"true\">\n"
                            "        SetHandler profile\n    </If>\n"
                            "</Location>\n" % MINIMAL_FILE)
        _passes_and_serves_minimal(server)

    def test_handler_below_location_with_data_passes_configtest(
            self, make_httpd):
        server = make_httpd("datatop",
                            "<Location /api>\n    ProfileData \"%s\"\n"
                            "    ProfileBasePath /api/v1\n</Location>\n"
                            "<Location /api/v1>\n    Require all granted\n"
                            "    SetHandler profile\n</Location>\n"
                            % MINIMAL_FILE)
        _passes_and_serves_minimal(server)

    def test_relative_path_is_relative_to_server_root(self, make_httpd):
        server = make_httpd("relative", "")
        h.copy_data(MINIMAL_FILE, os.path.join(server.root, "rel.json"))
        server.write_conf(h.location("/api/v1", "rel.json"))
        _passes_and_serves_minimal(server)


# Start-up with each kind of bad file: test_lastgood.py.


def _write(path, text_or_data, mtime):
    if isinstance(text_or_data, str):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text_or_data)
        os.utime(path, (mtime, mtime))
    else:
        h.write_json(path, text_or_data, mtime)



@pytest.fixture
def reloadable(make_httpd, workdir):
    """A server of its own whose data file the test may rewrite."""
    d = os.path.join(workdir, "reload-%d" % time.monotonic_ns())
    os.makedirs(d)
    path = os.path.join(d, "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    # These reloads test refusals: ProfileBadData refuse (test_bad_data.py
    # tests keep, the default, and refuse beside another site).
    server = make_httpd("reload", h.REFUSE + h.location("/api/v1", path))
    assert server.start().returncode == 0
    server.data_path = path
    server.good = h.load_data(MINIMAL_FILE)
    yield server
    server.stop()


def _snapshot(server):
    out = {}
    for route in ["/profile", "/skills", "/experience/only-job"]:
        for lang in ("en", "es"):
            r = server.get("/api/v1" + route, {"Accept-Language": lang})
            assert r.status == 200, (route, r)
            out[(route, lang)] = (r.etag, r.body,
                                  r.header("Last-Modified"))
    return out


# CONTRACT §9 (a bad edit never takes the API down)
class TestReload:
    @pytest.mark.parametrize("kind", ["syntax", "missing_translation",
                                      "duplicate_json_key"])
    def test_bad_edit_refused_and_old_data_still_served(
            self, reloadable, sample, kind):
        server = reloadable
        before = _snapshot(server)
        pid = server.pid
        maker, _ = BAD_FILES[kind]
        _write(server.data_path, maker(sample), h.DATA_MTIME + 100)

        cp = server.configtest()
        assert cp.returncode != 0
        assert server.data_path in cp.stdout + cp.stderr
        cp = server.graceful()
        assert cp.returncode != 0, cp
        assert server.data_path in cp.stdout + cp.stderr

        time.sleep(1.0)
        assert server.running() and server.pid == pid
        for _ in range(3):
            assert _snapshot(server) == before

    def test_good_graceful_reload_takes_effect(self, reloadable):
        server = reloadable
        before = _snapshot(server)
        new = copy.deepcopy(server.good)
        new["profile"]["headline"]["en"] = "Version two"
        new_mtime = h.DATA_MTIME + 86400
        _write(server.data_path, new, new_mtime)

        assert server.configtest().returncode == 0
        cp = server.graceful()
        assert cp.returncode == 0, cp.stderr
        assert h.wait_for(lambda: server.get("/api/v1/profile").json()
                         ["headline"] == "Version two")
        after = _snapshot(server)
        assert after[("/profile", "en")][0] != before[("/profile", "en")][0]
        assert after[("/profile", "en")][2] == h.http_date(new_mtime)
        # Representations whose bytes did not change keep their ETags.
        for key in [("/profile", "es"), ("/skills", "en"),
                    ("/experience/only-job", "es")]:
            assert after[key][0] == before[key][0], key
        # Old ETag no longer validates the changed representation.
        r = server.get("/api/v1/profile",
                       {"If-None-Match": before[("/profile", "en")][0]})
        assert r.status == 200

    def test_bad_then_good_reload(self, reloadable, sample):
        server = reloadable
        maker, _ = BAD_FILES["syntax"]
        _write(server.data_path, maker(sample), h.DATA_MTIME + 10)
        assert server.graceful().returncode != 0
        new = copy.deepcopy(server.good)
        new["metrics"][0]["value"] = "2"
        _write(server.data_path, new, h.DATA_MTIME + 20)
        assert server.graceful().returncode == 0
        assert h.wait_for(lambda: server.get("/api/v1/metrics").json()
                         [0]["value"] == "2")

    # A raw SIGUSR1/SIGHUP with each kind of bad file: test_lastgood.py.

    @pytest.mark.allow_log(r"profile:error\]")
    def test_raw_signal_with_bad_file_in_virtual_host_is_logged(
            self, make_httpd, workdir, sample):
        d = os.path.join(workdir, "vhost-%d" % time.monotonic_ns())
        os.makedirs(d)
        path = os.path.join(d, "profile.json")
        h.copy_data(MINIMAL_FILE, path)
        server = make_httpd("vhost", "")
        server.write_conf("<VirtualHost 127.0.0.1:%d>\n"
                          "ServerName vhost.test\n%s</VirtualHost>\n"
                          % (server.port, h.location("/api/v1", path)))
        assert server.start().returncode == 0
        try:
            before = _snapshot(server)
            maker, _ = BAD_FILES["unknown_key"]
            _write(path, maker(sample), h.DATA_MTIME + 30)
            os.kill(server.pid, signal.SIGUSR1)
            assert h.wait_for(lambda: "PROFILE0003" in server.read_log())
            assert server.running()
            assert _snapshot(server) == before
            assert path in server.read_log()
        finally:
            server.stop()

    @pytest.mark.allow_log(r"profile:error\]")
    def test_new_location_with_bad_file_does_not_take_server_down(
            self, reloadable, workdir, sample):
        """A restart that adds a <Location> whose file is bad (no earlier
        good data to keep) leaves the rest of the server serving."""
        server = reloadable
        before = _snapshot(server)
        bad = os.path.join(os.path.dirname(server.data_path), "new.json")
        maker, _ = BAD_FILES["syntax"]
        _write(bad, maker(sample), h.DATA_MTIME)
        server.write_conf(server.body + h.location("/new/api/v1", bad))
        os.kill(server.pid, signal.SIGUSR1)
        assert h.wait_for(lambda: "PROFILE0005" in server.read_log())
        time.sleep(0.5)
        assert server.running()
        assert _snapshot(server) == before
        r = server.get("/new/api/v1/profile")
        assert r.status == 503
        assert r.json()["status"] == 503
        h.copy_data(MINIMAL_FILE, bad)
        os.kill(server.pid, signal.SIGUSR1)
        assert h.wait_for(lambda: server.get("/new/api/v1/profile").status
                         == 200)


# CONTRACT §1 (several <Location>s, nested <Location>)
class TestLocations:
    def test_two_locations_with_different_data_side_by_side(self, api, B):
        for _ in range(3):
            a = api.get(B + "/profile")
            b = api.get("/other/api/v1/profile")
            assert a.json()["name"] == "Lucía Álvarez Romero"
            assert b.json()["name"] == "Ana Pérez Ibáñez"
            assert len(api.get(B + "/metrics").json()) == 5
            assert len(api.get("/other/api/v1/metrics").json()) == 2
            assert a.etag != b.etag
        # ETags of one do not validate the other.
        r = api.get("/other/api/v1/profile", {"If-None-Match": a.etag})
        assert r.status == 200

    def test_other_location_has_own_ids(self, api, B):
        r = api.get("/other/api/v1/metrics/platform-availability")
        assert r.status == 404
        assert api.get("/other/api/v1/metrics").json()[-1]["id"] == \
            "ingestion-latency"

    def test_nested_location_inherits_profile_data(self, api, B):
        a = api.get(B + "/metrics")
        n = api.get("/nested/api/v1/metrics")
        assert n.status == 200
        assert n.body == a.body and n.etag == a.etag
        assert n.header("Cache-Control") == "public, max-age=60"
        p = api.get("/nested/api/v1/profile")
        assert p.status == 200
        assert p.header("Cache-Control") == "public, max-age=300"

    def test_nested_location_keeps_outer_base(self, api):
        # Routes stay relative to the <Location> holding ProfileData.
        assert api.get("/nested/api/v1/metrics/x").status == 404
        assert api.get("/nested/api/v1/metrics?x=1").status == 400
        r = api.request("OPTIONS", "/nested/api/v1/metrics")
        assert r.status == 200

    def test_two_locations_in_one_server_one_data_file_each(self, make_httpd,
                                                           workdir):
        server = make_httpd("pair", h.location("/a/api/v1", MINIMAL_FILE)
                            + h.location("/b/api/v1", h.SAMPLE_DATA))
        try:
            assert server.start().returncode == 0
            assert server.get("/a/api/v1/profile").json()["name"] == \
                "Mínima Prueba"
            assert server.get("/b/api/v1/profile").json()["name"] == \
                "Lucía Álvarez Romero"
            assert server.get("/a/api/v1/experience/only-job").status == 200
            assert server.get("/b/api/v1/experience/only-job").status == 404
        finally:
            server.stop()
