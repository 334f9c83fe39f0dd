# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 (revised): `ProfileBadData keep | refuse`.  A broken data
file never takes the server down; with `refuse` it fails the commands that
read the configuration, as dedicated servers and deploy pipelines want.

Every combination of mode x command (configtest, cold start, `-k
graceful`, raw SIGUSR1, raw SIGHUP, `-k stop`) with each kind of bad file,
on a server that also hosts a second, unrelated site (a name-based virtual
host), which must keep serving throughout.
"""
import copy
import json
import os
import shutil
import time

import pytest

import httpd_harness as h
import proc_util as pu


def _bad_syntax(path, sample):
    with open(path, "w") as f:
        f.write(json.dumps(sample)[:-40])


def _bad_shape(path, sample):
    d = copy.deepcopy(sample)
    del d["experience"][0]["period"]["es"]
    h.write_json(path, d)


def _missing(path, sample):
    os.unlink(path)


KINDS = {"syntax": _bad_syntax, "shape": _bad_shape, "missing": _missing}
OTHER = {"Host": "other.test"}
API = "api.test"


def _conf(server, mode, path):
    other_root = os.path.join(server.root, "other")
    os.makedirs(other_root, exist_ok=True)
    with open(os.path.join(other_root, "index.html"), "w") as f:
        f.write("other site\n")
    return """<VirtualHost 127.0.0.1:{port}>
    ServerName other.test
    DocumentRoot "{other}"
    <Directory "{other}">
        Require all granted
    </Directory>
</VirtualHost>
<VirtualHost 127.0.0.1:{port}>
    ServerName {api}
    ProfileBadData {mode}
{loc}</VirtualHost>
""".format(port=server.port, other=other_root, api=API, mode=mode,
           loc=h.location("/api/v1", path))


def _get(server, path, headers=None):
    return server.get(path, dict({"Host": API}, **(headers or {})))


def _other_serves(server):
    r = server.get("/index.html", OTHER)
    return r.status == 200 and r.body == b"other site\n"


def _server(make_httpd, workdir, sample, mode, name):
    d = os.path.join(workdir, "baddata-%s" % name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("baddata-" + name, "")
    server.write_conf(_conf(server, mode, path))
    return server, path


def _is_503(r, lang="en"):
    assert r.status == 503, r
    assert r.header("Content-Type") == "application/json"
    assert r.header("Cache-Control") == "no-store"
    assert r.header("Retry-After") == "60"
    assert r.header("Access-Control-Allow-Origin") == "*"
    assert r.tokens("Access-Control-Expose-Headers") == {"etag",
                                                         "retry-after"}
    assert r.header("Content-Language") == lang
    body = r.json()
    assert body["status"] == 503
    assert body["title"] == ("Servicio no disponible" if lang == "es"
                             else "Service Unavailable")
    # The detail speaks to a page's visitor; the reason is in the error
    # log (PROFILE0005), never in the body.
    assert body["detail"] == (
        "El perfil no está disponible en este momento; vuelva a intentarlo "
        "en un minuto." if lang == "es" else
        "The profile is temporarily unavailable; please try again in a "
        "minute.")


# ------------------------------------------------------------------ keep
@pytest.mark.allow_log(r"PROFILE0003", r"PROFILE0005")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_keep_never_takes_the_server_down(make_httpd, workdir, sample, kind):
    server, path = _server(make_httpd, workdir, sample, "keep", "keep-" + kind)
    try:
        # Cold start with a bad file: httpd starts; the API answers 503,
        # the other site serves.
        KINDS[kind](path, sample)
        cp = server.configtest()
        assert cp.returncode == 0, cp.stderr
        assert "PROFILE0007" in cp.stderr and path in cp.stderr
        assert "Syntax OK" in cp.stderr
        assert server.start().returncode == 0
        assert _other_serves(server)
        for route in ("/profile", "/nope", "/experience/x"):
            _is_503(_get(server, "/api/v1" + route))
        _is_503(_get(server, "/api/v1/skills", {"Accept-Language": "es-MX"}),
                "es")
        # A preflight still succeeds, so a page reads the 503.
        r = server.request("OPTIONS", "/api/v1/profile",
                           {"Host": API, "Origin": "https://x.example",
                            "Access-Control-Request-Method": "GET"})
        assert (r.status, r.body) == (200, b""), r
        assert r.header("Access-Control-Max-Age") == "7200"
        assert "PROFILE0005" in server.read_log()

        # A good file and a graceful restart: served.
        h.write_json(path, sample)
        pu.restart(server, "graceful")
        good = _get(server, "/api/v1/profile")
        assert good.status == 200

        # Bad again: graceful, USR1 and HUP keep the last good data and
        # log it each time; the other site serves throughout.
        KINDS[kind](path, sample)
        for how in ("graceful", "USR1", "HUP"):
            text = pu.restart(server, how)
            assert "PROFILE0003" in text and path in text, (how, text)
            pu.assert_no_crash(server, text)
            r = _get(server, "/api/v1/profile")
            assert (r.status, r.etag, r.body) == (good.status, good.etag,
                                                  good.body), how
            assert _other_serves(server)
        # apachectl restart (httpd -k restart) reads the configuration
        # too: it works.
        offset = pu.log_size(server)
        cp = server.ctl("-k", "restart")
        assert cp.returncode == 0, cp.stderr
        assert h.wait_for(lambda: "PROFILE0003" in pu.log_since(
            server, offset) and server.answers(), timeout=30)
        r = _get(server, "/api/v1/profile")
        assert (r.status, r.etag) == (200, good.etag)
        assert _other_serves(server)

        # stop and graceful-stop work with the bad file.
        pid = server.pid
        cp = server.ctl("-k", "stop")
        assert cp.returncode == 0, cp.stderr
        assert h.wait_for(lambda: not h._alive(pid), timeout=30)
        server.pid = None
    finally:
        server.stop()


# ---------------------------------------------------------------- refuse
@pytest.mark.allow_log(r"PROFILE0003", r"PROFILE0007")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_refuse_fails_commands_but_keeps_a_running_server(
        make_httpd, workdir, sample, kind):
    server, path = _server(make_httpd, workdir, sample, "refuse",
                           "refuse-" + kind)
    try:
        KINDS[kind](path, sample)
        cp = server.configtest()
        assert cp.returncode != 0
        assert "PROFILE0007" in cp.stderr and path in cp.stderr
        cp = server.start()
        assert cp.returncode != 0
        assert not server.answers()

        h.write_json(path, sample)
        server.start_checked()
        good = _get(server, "/api/v1/profile")
        assert good.status == 200

        KINDS[kind](path, sample)
        # -k graceful refuses before the running server is touched.
        # (Untouched: no restart logged, and every child still there;
        # prefork may have started spare ones meanwhile.)
        # (The start's own "resuming normal operations" line may come
        # after the first answers: wait for it.)
        assert h.wait_for(lambda: pu.RESUMING.search(server.read_log()))
        pid, kids = server.pid, set(pu.children(server.pid))
        offset = pu.log_size(server)
        cp = server.graceful()
        assert cp.returncode != 0 and "PROFILE0007" in cp.stderr
        # So does -k restart (apachectl restart).
        cp = server.ctl("-k", "restart")
        assert cp.returncode != 0 and "PROFILE0007" in cp.stderr
        time.sleep(0.5)
        assert server.pid == pid and kids <= set(pu.children(pid))
        assert not pu.RESUMING.search(pu.log_since(server, offset))
        # A raw signal reaches the parent anyway: last good data.
        for how in ("USR1", "HUP"):
            text = pu.restart(server, how)
            assert "PROFILE0003" in text and path in text, (how, text)
            r = _get(server, "/api/v1/profile")
            assert (r.status, r.etag) == (200, good.etag), how
            assert _other_serves(server)

        for how in ("graceful-stop",):
            cp = server.ctl("-k", how)
            assert cp.returncode == 0, cp.stderr
            assert h.wait_for(lambda: not h._alive(pid), timeout=30)
        server.pid = None
    finally:
        server.stop()


# ------------------------------------------------- OPTIONS without data
# CONTRACT §9 (revised 2026-11-24): below a base whose file never loaded,
# OPTIONS gets the 200 of a loaded API (the CORS policy comes from the
# configuration), so a browser's preflight succeeds and the page reads the
# real request's 503, whose Retry-After it may read too.
@pytest.fixture(scope="module")
def half_loaded(make_httpd, workdir, sample):
    """/api/v1 and /cors/api/v1 serve the sample; /bad/api/v1 and
    /badcors/api/v1 have a file that was bad at start-up."""
    d = os.path.join(workdir, "baddata-options")
    os.makedirs(d)
    os.chmod(d, 0o755)
    good = h.write_json(os.path.join(d, "good.json"), sample)
    bad = os.path.join(d, "bad.json")
    _bad_shape(bad, sample)
    cors = "    ProfileCORSOrigins https://a.example https://b.example\n"
    server = make_httpd("baddata-options", "".join([
        h.location("/api/v1", good), h.location("/bad/api/v1", bad),
        h.location("/cors/api/v1", good, cors),
        h.location("/badcors/api/v1", bad, cors)]))
    cp = server.start()
    assert cp.returncode == 0, cp.stderr
    yield server
    server.stop()


def _fields(r):
    """The header fields but the instants (Date, Expires)."""
    return [(k, v) for k, v in r.headers
            if k.lower() not in ("date", "expires")]


OPTIONS_HEADERS = [
    {},
    {"Origin": "https://b.example"},
    {"Origin": "https://b.example", "Access-Control-Request-Method": "GET",
     "Access-Control-Request-Headers": "if-none-match"},
    {"Origin": "https://c.example", "Access-Control-Request-Method": "GET"},
]


@pytest.mark.allow_log(r"PROFILE0005")
@pytest.mark.parametrize("good_base,bad_base", [
    ("/api/v1", "/bad/api/v1"), ("/cors/api/v1", "/badcors/api/v1")])
@pytest.mark.parametrize("target", ["/profile", "/experience/nope", "/nope",
                                    "/skills?q=", ""])
@pytest.mark.parametrize("lang", ["es-MX", "en", None])
def test_options_without_data_is_the_loaded_apis_200(
        half_loaded, good_base, bad_base, target, lang):
    for headers in OPTIONS_HEADERS:
        if lang is not None:
            headers = dict(headers, **{"Accept-Language": lang})
        good = half_loaded.request("OPTIONS", good_base + target, headers)
        r = half_loaded.request("OPTIONS", bad_base + target, headers)
        assert (r.status, r.body) == (200, b""), (headers, r)
        assert _fields(r) == _fields(good), headers
        assert h.parse_http_date(r.header("Expires")) == \
            h.parse_http_date(r.header("Date")) + 300
        assert not r.has("Retry-After")


@pytest.mark.allow_log(r"PROFILE0005")
@pytest.mark.parametrize("lang,want", [("de", "en"), ("de, es;q=0.1", "es"),
                                       ("fr-CA, en-GB", "en")])
def test_options_without_data_speaks_the_modules_languages(half_loaded,
                                                           lang, want):
    """No data names the API's languages: English or Spanish, the
    module's own, as the 503 chooses them; English when the request
    accepts neither."""
    headers = {"Accept-Language": lang, "Origin": "https://app.example",
               "Access-Control-Request-Method": "GET"}
    r = half_loaded.request("OPTIONS", "/bad/api/v1/metrics", headers)
    assert r.status == 200
    assert r.header("Content-Language") == want
    assert "accept-language" in r.tokens("Vary")
    r = half_loaded.get("/bad/api/v1/metrics", {"Accept-Language": lang})
    _is_503(r, want)


@pytest.mark.allow_log(r"PROFILE0005")
@pytest.mark.parametrize("method,target", [
    ("GET", "/profile"), ("HEAD", "/skills"), ("GET", "/nope"),
    ("POST", "/profile"), ("GET", "/profile?x=1")])
def test_503_lets_pages_read_retry_after(half_loaded, method, target):
    r = half_loaded.request(method, "/bad/api/v1" + target,
                            {"Origin": "https://app.example"})
    assert r.status == 503, r
    assert r.header("Retry-After") == "60"
    assert r.header("Access-Control-Allow-Origin") == "*"
    assert r.tokens("Access-Control-Expose-Headers") == {"etag",
                                                         "retry-after"}
    assert not r.has("Access-Control-Max-Age")
    # A listed origin gets it echoed; an unlisted one none (CONTRACT §6).
    r = half_loaded.request(method, "/badcors/api/v1" + target,
                            {"Origin": "https://a.example"})
    assert r.status == 503
    assert r.header("Access-Control-Allow-Origin") == "https://a.example"
    assert "origin" in r.tokens("Vary")
    assert r.tokens("Access-Control-Expose-Headers") == {"etag",
                                                         "retry-after"}
    r = half_loaded.request(method, "/badcors/api/v1" + target,
                            {"Origin": "https://c.example"})
    assert r.status == 503 and not r.has("Access-Control-Allow-Origin")
