# SPDX-License-Identifier: Apache-2.0
"""What the module tells the access log (issue 12, item 4;
docs/operations.md, "The access log").

* The request notes %{profile-lang}n, %{profile-route}n,
  %{profile-coding}n and %{profile-stale}n, for a 200 in Spanish coded
  br, a 304, a 404 outside the routes and one of an unknown id, an {id}
  route, an OPTIONS, and after a failed reload (stale data); CustomLog
  expr= on the notes (note('profile-stale')).
* With ProfileLogVariables On, the same values as environment variables
  (%{...}e, CustomLog env=, mod_headers); with it Off (the default),
  none.
* r->filename is "profile:" and the URL path (%f), which is also what
  mod_rewrite's rules in the API's <Location> match.
* Requests the module does not answer carry none of them, and a section
  without good data (503) says no stale value.
* What mod_mime derives from an {id} that looks like a file name
  (`notes.html`) changes none of the module's answers.
"""
import os

import pytest

import httpd_harness as h
import proc_util as pu

B = "/api/v1"
NOTES = ("lang", "route", "coding", "stale")
FORMAT = "%>s %m %U|" + "|".join("%%{profile-%s}n" % n for n in NOTES) \
    + "|%f|" + "|".join("%%{profile-%s}e" % n for n in NOTES)


def _config(server, path):
    return (h.load_modules("rewrite", "mime")
            + "TypesConfig /etc/mime.types\n"
            + 'LogFormat "%s" notes\n' % FORMAT.replace('"', '\\"')
            + "CustomLog logs/access.log notes\n"
            + 'CustomLog logs/api.log "%U" env=profile-route\n'
            + "CustomLog logs/stale.log \"%U\" "
              "\"expr=note('profile-stale') == '1'\"\n"
            + '<Directory "%s/htdocs">\n    Require all granted\n'
              "</Directory>\n" % server.root
            + h.location(B, path, "    RewriteEngine On\n"
                         "    RewriteRule ^profile:/api/v1/old-skills$ "
                         "/api/v1/skills [R=301,L]\n"
                         "    ProfileLogVariables On\n"))


def _data():
    d = h.load_data(h.SAMPLE_DATA)
    dotted = dict(d["experience"][0], id="notes.html")
    d["experience"].append(dotted)
    return d


class _Log:
    def __init__(self, server, name):
        self.path = os.path.join(server.root, "logs", name)

    def lines(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []


def _entry(server, before):
    """The fields of the one access-log line written since `before`
    lines: status, method, path, the notes, %f, the variables."""
    lines = h.wait_for(lambda: len(_Log(server, "access.log").lines())
                       > before) and _Log(server, "access.log").lines()
    assert len(lines) == before + 1, lines
    head, *rest = lines[-1].split("|")
    status, method, path = head.split(" ")
    notes = dict(zip(NOTES, rest[:4]))
    env = dict(zip(NOTES, rest[5:]))
    assert env == notes, lines[-1]         # subprocess_env holds the same
    return int(status), method, path, notes, rest[4]


@pytest.fixture(scope="module")
def logged(make_httpd, workdir):
    root = os.path.join(workdir, "logging")
    os.makedirs(os.path.join(root, "data"))
    for d in (root, os.path.join(root, "data")):
        os.chmod(d, 0o755)
    path = h.write_json(os.path.join(root, "data", "profile.json"), _data())
    server = make_httpd("logging", "")
    server.write_conf(_config(server, path))
    with open(os.path.join(server.root, "htdocs", "static.html"), "w") as f:
        f.write("<p>static</p>\n")
    server.start_checked()
    server.path = path
    yield server
    server.stop()


def _ask(server, method, target, headers=None):
    before = len(_Log(server, "access.log").lines())
    r = server.request(method, target, headers)
    return r, _entry(server, before)


def test_200_in_spanish_coded_br(logged):
    r, (status, _, path, notes, filename) = _ask(
        logged, "GET", B + "/skills",
        {"Accept-Language": "es-MX", "Accept-Encoding": "br"})
    assert r.status == 200 and r.header("Content-Encoding") == "br"
    assert status == 200 and path == B + "/skills"
    assert notes == {"lang": "es", "route": "/skills", "coding": "br",
                     "stale": "0"}
    assert filename == "profile:/api/v1/skills"


def test_304_keeps_the_coding_of_the_representation(logged):
    r = logged.get(B + "/skills", {"Accept-Encoding": "gzip"})
    assert r.header("Content-Encoding") == "gzip", r
    r, (status, _, _, notes, _) = _ask(
        logged, "GET", B + "/skills",
        {"If-None-Match": r.etag, "Accept-Encoding": "gzip"})
    assert r.status == 304 and status == 304
    assert notes == {"lang": "en", "route": "/skills", "coding": "gzip",
                     "stale": "0"}


def test_id_route_and_unknown_id(logged):
    rid = _data()["experience"][0]["id"]
    _, (status, _, _, notes, filename) = _ask(
        logged, "GET", B + "/experience/" + rid)
    assert status == 200 and notes["route"] == "/experience/{id}"
    assert notes["coding"] == "identity"
    assert filename == "profile:/api/v1/experience/" + rid
    _, (status, _, _, notes, _) = _ask(logged, "GET",
                                       B + "/experience/nobody")
    assert status == 404 and notes["route"] == "/experience/{id}"


def test_404_outside_the_routes_has_no_route(logged):
    _, (status, _, _, notes, filename) = _ask(
        logged, "GET", B + "/nope", {"Accept-Language": "es"})
    assert status == 404
    assert notes == {"lang": "es", "route": "-", "coding": "identity",
                     "stale": "0"}
    assert filename == "profile:/api/v1/nope"


def test_options_names_its_route(logged):
    _, (status, method, _, notes, _) = _ask(logged, "OPTIONS",
                                            B + "/case-studies")
    assert (status, method) == (200, "OPTIONS")
    assert notes["route"] == "/case-studies"


def test_other_urls_carry_no_notes(logged):
    _, (status, _, _, notes, filename) = _ask(logged, "GET", "/static.html")
    assert status == 200
    assert notes == dict.fromkeys(NOTES, "-")
    assert filename.endswith("/htdocs/static.html")
    assert "/static.html" not in _Log(logged, "api.log").lines()


def test_rewrite_rule_in_the_location_matches_the_file_name(logged):
    r = logged.get(B + "/old-skills")
    assert r.status == 301, r
    assert r.header("Location").endswith(B + "/skills"), r


def test_file_name_extension_changes_no_answer(logged):
    """mod_mime would take `.html` for text/html: not on OPTIONS (which
    has no Content-Type), a 304 or a 200."""
    u = B + "/experience/notes.html"
    r = logged.get(u)
    assert r.status == 200 and r.header("Content-Type") == \
        "application/json", r
    assert not r.has("Content-Encoding"), r
    assert logged.get(u, {"If-None-Match": r.etag}).status == 304
    o = logged.request("OPTIONS", u)
    assert o.status == 200 and not o.has("Content-Type"), o


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*logging/data")
def test_stale_after_a_failed_reload(logged):
    with open(logged.path, "rb") as f:
        good = f.read()
    assert not _Log(logged, "stale.log").lines()
    try:
        with open(logged.path, "wb") as f:
            f.write(good[:len(good) // 2])
        assert "PROFILE0003" in pu.restart(logged, "USR1")
        r, (status, _, _, notes, _) = _ask(logged, "GET", B + "/metrics")
        assert r.status == 200 and status == 200
        assert notes == {"lang": "en", "route": "/metrics",
                         "coding": "identity", "stale": "1"}
        assert _Log(logged, "stale.log").lines() == [B + "/metrics"]
    finally:
        with open(logged.path, "wb") as f:
            f.write(good)
        pu.restart(logged, "USR1")
    _, (_, _, _, notes, _) = _ask(logged, "GET", B + "/metrics")
    assert notes["stale"] == "0"
    assert B + "/metrics" in _Log(logged, "api.log").lines()


@pytest.mark.allow_log(r"PROFILE0005: ProfileData: .*never")
def test_section_without_good_data_says_no_stale_value(make_httpd,
                                                       workdir):
    root = os.path.join(workdir, "logging-503")
    os.makedirs(os.path.join(root, "data"))
    for d in (root, os.path.join(root, "data")):
        os.chmod(d, 0o755)
    path = os.path.join(root, "data", "never.json")
    with open(path, "w") as f:
        f.write("{")
    os.chmod(path, 0o644)
    server = make_httpd("logging-503", "")
    server.write_conf(_config(server, path))
    assert server.start().returncode == 0
    try:
        r, (status, _, _, notes, _) = _ask(server, "GET", B + "/profile",
                                           {"Accept-Language": "es"})
        assert r.status == 503 and status == 503
        assert notes == {"lang": "es", "route": "-", "coding": "identity",
                         "stale": "-"}
    finally:
        server.stop()


def _server_with(make_httpd, workdir, name, extra, location_extra=""):
    root = os.path.join(workdir, name)
    os.makedirs(root)
    os.chmod(root, 0o755)
    server = make_httpd(name, "")
    server.write_conf(h.load_modules("headers") + extra
                      + h.location(B, h.SAMPLE_DATA, location_extra))
    server.start_checked()
    return server


def test_notes_alone_by_default(make_httpd, workdir):
    """Without ProfileLogVariables, the documented log (notes, and
    CustomLog expr= on a note) is whole and no variable is set."""
    fmt = "|".join("%%{profile-%s}n" % n for n in NOTES) + "|%{profile-lang}e"
    server = _server_with(make_httpd, workdir, "notes-only",
                          'LogFormat "%s" notes\n' % fmt
                          + "CustomLog logs/access.log notes\n"
                          + "CustomLog logs/api.log \"%U\" "
                            "\"expr=-n note('profile-lang')\"\n",
                          '    Header set X-Served-Lang "%{profile-lang}e"\n')
    try:
        r = server.request("GET", B + "/skills", {"Accept-Language": "es"})
        assert r.header("X-Served-Lang") in ("(null)", ""), r.headers
        log = _Log(server, "access.log")
        h.wait_for(log.lines)
        # (The first line is the harness's check that httpd is up.)
        assert log.lines()[-1] == "es|/skills|identity|0|-", log.lines()
        api = _Log(server, "api.log")
        h.wait_for(api.lines)
        assert api.lines() == [B + "/skills"], api.lines()
    finally:
        server.stop()


@pytest.mark.parametrize("where", ["location", "server"])
def test_log_variables_on_sets_them(make_httpd, workdir, where):
    """ProfileLogVariables On, in the API's section or at server level:
    the values are variables too (mod_headers' %{NAME}e, CustomLog
    env=)."""
    directive = "ProfileLogVariables On\n"
    server = _server_with(
        make_httpd, workdir, "variables-" + where,
        ('CustomLog logs/api.log "%U %{Content-Language}o" '
         "env=profile-coding\n")
        + (directive if where == "server" else ""),
        '    Header set X-Served-Lang "%{profile-lang}e"\n'
        + ("    " + directive if where == "location" else ""))
    try:
        r = server.request("GET", B + "/skills", {"Accept-Language": "es"})
        assert r.status == 200
        assert r.header("X-Served-Lang") == "es", r.headers
        log = _Log(server, "api.log")
        h.wait_for(log.lines)
        assert log.lines() == [B + "/skills es"], log.lines()
    finally:
        server.stop()
