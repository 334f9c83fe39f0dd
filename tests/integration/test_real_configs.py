# SPDX-License-Identifier: Apache-2.0
"""Configurations real servers run (issue "Right in every Apache
configuration that real servers run", section 1): each test here failed
on the module before that work.

* mod_rewrite [PT] out of the API's URL space is served by its target;
* `SetHandler Profile` (any case) is the same handler;
* a nested <Location> naming its own data is the base of its own API;
* an error's Content-Language names the language of its text (§7);
* mod_expires adds no second max-age (§5);
* TRACE gets the module's 405 problem, whatever TraceEnable says (§3);
* restart-time data errors reach the configured error log, also when it
  is piped, and every virtual host's own log, at every restart (§9);
* PROFILE0001 cannot fill the error log;
* the request's header fields are left as they came (access log);
* ProfileCompression Off renders no compressed forms at load.
"""
import copy
import json
import os
import re
import signal
import time

import pytest

import httpd_harness as h

FIFTY_YEARS = 50 * 365 * 86400



def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def _fr_data(sample):
    """The sample with its Spanish texts relabelled French."""
    def walk(v):
        if isinstance(v, dict):
            if set(v) == {"en", "es"}:
                return {"en": v["en"], "fr": v["es"]}
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    d = walk(copy.deepcopy(sample))
    d["languages"] = ["en", "fr"]
    return d


# ---------------------------------------------------------------- rewrite
@pytest.fixture(scope="module")
def rewrite(make_httpd, data_files):
    body = (h.load_modules("rewrite")
            + "RewriteEngine On\n"
            + "RewriteRule ^/api/v1/old$ /static.html [PT]\n"
            + "RewriteRule ^/v1/(.*)$ /api/v1/$1 [PT]\n"
            + '<Directory "{root}/htdocs">\n    Require all granted\n'
              "</Directory>\n"
            + h.location("/api/v1", data_files["main"]))
    server = make_httpd("rewrite", body)
    server.write_conf(body.replace("{root}", server.root))
    with open(os.path.join(server.root, "htdocs", "static.html"), "w") as f:
        f.write("<p>static</p>\n")
    server.start_checked()
    yield server
    server.stop()


def test_rewrite_pt_out_of_the_api_serves_its_target(rewrite):
    r = rewrite.get("/api/v1/old")
    assert r.status == 200, r
    assert r.body == b"<p>static</p>\n"


def test_rewrite_pt_into_the_api_is_served_by_the_api(rewrite, sample):
    r = rewrite.get("/v1/profile")
    assert r.status == 200, r
    assert r.pairs() == h.expected(sample, "/profile", "en")


def test_api_beside_the_rewrite_is_unchanged(rewrite, sample):
    r = rewrite.get("/api/v1/metrics", {"Accept-Language": "es"})
    assert r.status == 200
    assert r.pairs() == h.expected(sample, "/metrics", "es")


# ---------------------------------------------------------- handler name
@pytest.fixture(scope="module")
def traceable(make_httpd, data_files):
    """TraceEnable on; one API with `SetHandler Profile`, one with
    `SetHandler profile`."""
    body = ("TraceEnable on\n"
            + h.location("/api/v1", data_files["main"])
            + h.location("/cap/api/v1", data_files["main"]).replace(
                "SetHandler profile", "SetHandler Profile")
            + h.location("/up/api/v1", data_files["main"]).replace(
                "SetHandler profile", "SetHandler PROFILE"))
    server = make_httpd("traceable", body)
    server.start_checked()
    yield server
    server.stop()


BASES = ["/api/v1", "/cap/api/v1", "/up/api/v1"]


def _is_405_problem(r, path):
    assert r.status == 405, r
    assert r.header("Content-Type") == "application/json"
    assert {m.strip() for m in r.header("Allow").split(",")} == h.ALLOW_SET
    body = r.json()
    assert body["status"] == 405 and body["title"] == "Method Not Allowed"
    assert "TRACE" in body["detail"]
    assert b"TRACE " + path.encode() + b" HTTP" not in r.body


@pytest.mark.parametrize("base", BASES)
def test_trace_is_the_modules_405_with_trace_enabled(traceable, base):
    _is_405_problem(traceable.request("TRACE", base + "/profile"),
                    base + "/profile")


@pytest.mark.parametrize("base", BASES)
def test_any_handler_case_serves_the_api(traceable, base, sample):
    r = traceable.get(base + "/skills")
    assert r.status == 200
    assert r.pairs() == h.expected(sample, "/skills", "en")


@pytest.mark.parametrize("base", BASES)
def test_long_path_is_the_modules_404_in_any_handler_case(traceable, base):
    path = base + "/" + "x" * (4090 - len(base) - 1)
    r = traceable.get(path)
    assert r.status == 404, r
    assert r.json()["status"] == 404


def test_trace_outside_the_api_is_still_httpds(traceable):
    r = traceable.request("TRACE", "/elsewhere")
    assert r.status == 200
    assert r.header("Content-Type").startswith("message/http")


# ----------------------------------------------------------------- nested
@pytest.fixture(scope="module")
def nested(make_httpd, data_files):
    body = ("<Location /nest>\n    Require all granted\n"
            "    ProfileBasePath /nest\n"
            '    ProfileData "%s"\n    SetHandler profile\n</Location>\n'
            % data_files["main"]
            + '<Location /nest/v2>\n    SetHandler profile\n'
              '    ProfileData "%s"\n</Location>\n' % data_files["other"])
    server = make_httpd("nested", body)
    server.start_checked()
    yield server
    server.stop()


def test_nested_section_with_its_own_data_is_its_own_base(nested, sample):
    r = nested.get("/nest/v2/profile")
    assert r.status == 200, r
    assert r.json()["name"] == "Ana Pérez Ibáñez"
    r = nested.get("/nest/profile")
    assert r.status == 200
    assert r.pairs() == h.expected(sample, "/profile", "en")


def test_nested_configtest_and_unknown_paths(nested):
    assert nested.configtest().returncode == 0
    assert nested.get("/nest/v2/nope").status == 404
    assert nested.get("/nest/v2").status == 404


# --------------------------------------------------------------- languages
@pytest.fixture(scope="module")
def french(make_httpd, workdir, sample):
    path = h.write_json(os.path.join(workdir, "data", "fr.json"),
                        _fr_data(sample))
    body = (h.location("/fr/api/v1", path)
            + 'ProfileData "%s"\n' % path
            + "<LocationMatch ^/fr500>\n    Require all granted\n"
              "    SetHandler profile\n</LocationMatch>\n")
    server = make_httpd("french", body)
    server.start_checked()
    yield server
    server.stop()


def test_french_answers_say_fr(french):
    r = french.get("/fr/api/v1/profile", {"Accept-Language": "fr-CA"})
    assert r.status == 200
    assert r.header("Content-Language") == "fr"


@pytest.mark.allow_log(r"PROFILE0001")
@pytest.mark.parametrize("status,method,path,headers", [
    (404, "GET", "/fr/api/v1/nope", {}),
    (404, "GET", "/fr/api/v1/experience/nope", {}),
    (400, "GET", "/fr/api/v1/skills?x=1", {}),
    (405, "POST", "/fr/api/v1/profile", {}),
    (412, "GET", "/fr/api/v1/profile", {"If-Match": '"nope"'}),
    (500, "GET", "/fr500/profile", {}),
])
def test_error_text_is_labelled_with_its_own_language(french, status, method,
                                                      path, headers):
    hdrs = dict(headers, **{"Accept-Language": "fr"})
    r = french.request(method, path, hdrs,
                       body="" if method == "POST" else None)
    assert r.status == status, r
    assert r.header("Content-Language") == "en"
    assert r.json()["status"] == status
    # English text, as labelled.
    assert r.json()["title"] in ("Not Found", "Bad Request",
                                 "Method Not Allowed", "Precondition Failed",
                                 "Internal Server Error")
    assert "accept-language" in r.tokens("Vary")


def test_spanish_errors_are_still_spanish(api, B):
    r = api.get(B + "/nope", {"Accept-Language": "es-MX"})
    assert r.status == 404
    assert r.header("Content-Language") == "es"
    assert r.json()["title"] == "No encontrado"


# --------------------------------------------------------------- expires
@pytest.fixture(scope="module")
def expires(make_httpd, data_files):
    body = (h.load_modules("expires")
            + h.location("/api/v1", data_files["main"],
                         "    ExpiresActive On\n"
                         '    ExpiresDefault "access plus 1 month"\n'))
    server = make_httpd("expires", body)
    server.start_checked()
    yield server
    server.stop()


def _one_max_age(r, seconds):
    assert r.header_all("Cache-Control") == ["public, max-age=%d" % seconds]
    expires = h.parse_http_date(r.header("Expires"))
    date = h.parse_http_date(r.header("Date"))
    assert len(r.header_all("Expires")) == 1
    # The module's Expires is the request time plus max-age; Date is
    # stamped a moment later.
    assert date - 1 <= expires - seconds <= date, (r.header("Date"),
                                                   r.header("Expires"))


def test_mod_expires_adds_no_second_max_age(expires, B):
    r = expires.get(B + "/profile")
    assert r.status == 200
    _one_max_age(r, 300)
    r304 = expires.get(B + "/profile", {"If-None-Match": r.etag})
    assert r304.status == 304
    _one_max_age(r304, 300)
    opt = expires.request("OPTIONS", B + "/profile")
    assert opt.status == 200
    _one_max_age(opt, 300)


def test_errors_stay_no_store_beside_mod_expires(expires, B):
    r = expires.get(B + "/nope")
    assert r.status == 404
    assert r.header_all("Cache-Control") == ["no-store"]
    assert not r.has("Expires")


def test_expires_follows_profile_max_age(api):
    r = api.get("/nested/api/v1/metrics")
    assert r.status == 200
    _one_max_age(r, 60)


# ------------------------------------------------- restart-time messages
def _bad(sample):
    d = copy.deepcopy(sample)
    del d["experience"][1]["period"]["es"]
    return d


@pytest.mark.allow_log(r"PROFILE0003", r"PROFILE0005")
def test_restart_errors_reach_piped_and_vhost_logs(make_httpd, workdir,
                                                   sample):
    d = os.path.join(workdir, "piped")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("piped", "")
    main_log = os.path.join(server.root, "logs", "piped-main.log")
    vhost_log = os.path.join(server.root, "logs", "vhost.log")
    server.write_conf(
        'ErrorLog "|/bin/sh -c \'cat >> %s\'"\n' % main_log
        + "<VirtualHost 127.0.0.1:%d>\n    ServerName one.test\n"
          '    ErrorLog "%s"\n%s</VirtualHost>\n'
        % (server.port, vhost_log, h.location("/api/v1", path)))
    assert server.start().returncode == 0
    assert h.wait_for(lambda: os.path.exists(server.pid_file))
    with open(server.pid_file) as f:
        pid = int(f.read())
    server.pid = pid
    try:
        assert h.wait_for(lambda: server.answers())
        good = server.get("/api/v1/profile")
        assert good.status == 200
        h.write_json(path, _bad(sample), h.DATA_MTIME + 60)
        for round_ in (1, 2):
            os.kill(pid, signal.SIGUSR1)
            for log in (main_log, vhost_log):
                assert h.wait_for(lambda: len(re.findall(
                    r"PROFILE0003: ProfileData: " + re.escape(path)
                    + r":\d+:\d+: \$\.experience\[1\]\.period: .*still "
                    r"serving the "
                    r"last good data", _read(log))) == round_), (
                        round_, log, _read(log))
            assert h.wait_for(lambda: server.get("/api/v1/profile").etag
                             == good.etag)
            assert server.running()
        # The bytes of the last good load again, with a later time: that
        # load is kept (same ETag), with the file's new time as its
        # Last-Modified, and the error is no longer logged.
        h.write_json(path, sample, h.DATA_MTIME + 120)
        os.kill(pid, signal.SIGUSR1)
        time.sleep(1.5)
        assert h.wait_for(lambda: server.get("/api/v1/profile").header(
            "Last-Modified") == h.http_date(h.DATA_MTIME + 120))
        assert server.get("/api/v1/profile").etag == good.etag
        assert len(re.findall("PROFILE0003", _read(main_log))) == 2
    finally:
        server.stop()


# ----------------------------------------------------- smaller defects
@pytest.mark.allow_log(r"PROFILE0001")
def test_unconfigured_section_logs_once_per_process(make_httpd, data_files):
    # One server process, whatever the MPM.
    body = ("<IfModule mpm_prefork_module>\nStartServers 1\n"
            "MinSpareServers 1\nMaxSpareServers 1\nMaxRequestWorkers 1\n"
            "</IfModule>\n<IfModule !mpm_prefork_module>\nStartServers 1\n"
            "ServerLimit 1\nThreadsPerChild 25\nMaxRequestWorkers 25\n"
            "MinSpareThreads 1\nMaxSpareThreads 75\n</IfModule>\n"
            + 'ProfileData "%s"\n' % data_files["main"]
            + "<LocationMatch ^/m500>\n    Require all granted\n"
              "    SetHandler profile\n</LocationMatch>\n")
    server = make_httpd("once", body)
    server.start_checked()
    try:
        for _ in range(6):
            assert server.get("/m500/profile").status == 500
        lines = [ln for ln in server.read_log().splitlines()
                 if "PROFILE0001" in ln]
        assert len(lines) == 1, lines
    finally:
        server.stop()


def test_request_fields_reach_the_access_log_unchanged(make_httpd,
                                                       data_files, B):
    body = ('LogFormat "[%{Range}i][%{If-Range}i][%{If-Modified-Since}i]'
              '[%>s]" fields\n'
            + "CustomLog logs/access.log fields\n"
            + h.location("/api/v1", data_files["main"]))
    server = make_httpd("fields", body)
    server.start_checked()
    try:
        ims = h.http_date(h.DATA_MTIME - 10)
        r = server.get(B + "/profile", {"Range": "bytes=0-9",
                                        "If-Range": '"x"',
                                        "If-Modified-Since": ims})
        assert r.status == 200 and len(r.body) > 10
        assert not r.has("Content-Range")
        r = server.get(B + "/profile", {"Range": "bytes=0-9"})
        assert r.status == 200 and not r.has("Content-Range")
        server.stop()
        log = _read(os.path.join(server.root, "logs", "access.log"))
        # (httpd escapes the quotes of "x" in its log.)
        assert '[bytes=0-9][\\"x\\"][%s][200]' % ims in log, log
    finally:
        server.stop()


def test_compression_off_renders_no_compressed_forms(make_httpd, data_files,
                                                     B):
    body = ("LogLevel warn profile:info\n"
            + h.location("/api/v1", data_files["ana"],
                         opts="compress=off"))
    server = make_httpd("nocomp", body)
    server.start_checked()
    try:
        log = server.read_log()
        line, = [ln for ln in log.splitlines() if "PROFILE0006" in ln
                 and data_files["ana"] in ln]
        assert "no compressed forms" in line, line
        r = server.get(B + "/profile", {"Accept-Encoding": "gzip, br"})
        assert r.status == 200 and not r.has("Content-Encoding")
    finally:
        server.stop()


def test_compression_on_reports_its_forms(make_httpd, data_files):
    body = ("LogLevel warn profile:info\n"
            + h.location("/api/v1", data_files["ana"]))
    server = make_httpd("withcomp", body)
    server.start_checked()
    try:
        line, = [ln for ln in server.read_log().splitlines()
                 if "PROFILE0006" in ln]
        assert "gzip and br forms" in line, line
    finally:
        server.stop()


# ------------------------------------------------------ stop always works
@pytest.mark.parametrize("how", ["stop", "graceful-stop"])
def test_stop_works_with_a_bad_data_file(make_httpd, workdir, sample, how):
    # With ProfileBadData refuse, where configtest fails on the file.
    """CONTRACT §9: `apachectl stop` and `graceful-stop` always work (they
    read the configuration only to find the pid file)."""
    d = os.path.join(workdir, "stop-" + how)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("stop", h.REFUSE + h.location("/api/v1", path))
    server.start_checked()
    pid = server.pid
    h.write_json(path, _bad(sample))
    assert server.configtest().returncode != 0     # the file is bad
    cp = server.ctl("-k", how)
    assert cp.returncode == 0, cp.stderr
    assert h.wait_for(lambda: not h._alive(pid), timeout=30)
    server.pid = None


# ------------------------------------------- the shipped dedicated vhost
@pytest.mark.allow_log(r"AH01630: client denied .*/htdocs/")
def test_shipped_vhost_serves_the_api_on_its_own_port_only(make_httpd,
                                                           data_files,
                                                           sample):
    with open(os.path.join(h.SRCDIR, "httpd-conf",
                           "profile-vhost.conf")) as f:
        shipped = f.read()
    server = make_httpd("vhost-example", "")
    port = h.free_port()
    conf = (shipped.replace("8081", str(port))
            .replace("/usr/share/mod_profile/profile.json", data_files["main"])
            .replace("${APACHE_LOG_DIR}", os.path.join(server.root, "logs"))
            .replace("ServerName api.example.com", "ServerName 127.0.0.1"))
    assert conf != shipped
    # The main server serves its DocumentRoot, which a virtual host
    # without one of its own would serve too.
    server.write_conf('<Directory "%s/htdocs">\n    Require all granted\n'
                      '</Directory>\n%s' % (server.root, conf))
    server.start_checked()
    try:
        r = h.request(port, "GET", "/api/v1/profile")
        assert r.status == 200
        assert r.pairs() == h.expected(sample, "/profile", "en")
        r = h.request(port, "TRACE", "/elsewhere")
        assert r.status == 405 and b"TRACE /elsewhere" not in r.body
        # Nothing but the API on its port: not the server's DocumentRoot.
        with open(os.path.join(server.root, "htdocs", "static.txt"),
                  "w") as f:
            f.write("the server's own content\n")
        assert server.get("/static.txt").status == 200
        for path in ("/static.txt", "/"):
            r = h.request(port, "GET", path)
            assert r.status == 403, path
            assert b"the server's own content" not in r.body
        # The server's own port does not publish the API.
        r = server.get("/api/v1/profile")
        assert r.status != 200
        assert r.header("Content-Type") != "application/json"
    finally:
        server.stop()
