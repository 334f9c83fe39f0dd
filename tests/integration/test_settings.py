# SPDX-License-Identifier: Apache-2.0
"""httpd owns every setting (CONTRACT §1, revised 2026-11-26; docs/
operations.md "Which settings apply where").  The load-time choices are
options of the ProfileData line, `bad=keep|refuse` and `compress=on|off`,
with ProfileBadData and ProfileCompression as the server's and each
virtual host's defaults for lines that do not say; in a <Location> those
two fail configtest, naming the new form.  Request-time directives are
httpd's merge.  The reports print each ProfileData line with its options
and what its own section configures, and label what other sections
(enclosing, regex, <If>) may change for some URLs, never as applying.
"""
import os

import pytest

import httpd_harness as h
from test_status import STATUS, status_json, _line_of

ORIGIN = "https://a.example"


def _data(workdir, name, sample):
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    return h.write_json(os.path.join(d, "profile.json"), sample)


def _api(base, path, opts="", extra=""):
    """h.location() with options on the ProfileData line."""
    return h.location(base, path, extra).replace(
        'ProfileData "%s"\n' % path, 'ProfileData "%s"%s\n'
        % (path, " " + opts if opts else ""))


def _break(path):
    with open(path, "w") as fh:
        fh.write("{")


@pytest.mark.parametrize("where", ["vhost", "server"])
def test_server_and_vhost_defaults_apply_to_lines_that_do_not_say(
        make_httpd, workdir, sample, where):
    path = _data(workdir, "defaults-" + where, sample)
    server = make_httpd("defaults-" + where, "")
    settings = ("ProfileMaxAge 60\nProfileCORSOrigins %s\n"
                "ProfileCompression Off\nProfileBadData refuse\n" % ORIGIN)
    api = _api("/api/v1", path)
    body = (settings + api if where == "server" else
            "<VirtualHost 127.0.0.1:%d>\nServerName api.test\n%s%s"
            "</VirtualHost>\n" % (server.port, settings, api))
    server.write_conf(h.load_modules("status") + STATUS + body)
    server.start_checked()
    try:
        r = server.get("/api/v1/profile", {"Origin": ORIGIN,
                                           "Accept-Encoding": "gzip, br"})
        assert r.status == 200, r
        assert r.header("Cache-Control") == "public, max-age=60"
        assert r.header("Access-Control-Allow-Origin") == ORIGIN
        assert not r.has("Content-Encoding")
        f = status_json(server)["data"][0]
        assert f["compressed"] is False
        assert f["representations"]["gzip"] == 0
        assert f["badData"] == "refuse"
        line, = f["lines"]
        conf = server.conf
        assert (line["base"], line["badData"], line["compression"]) == \
            ("/api/v1", "refuse", False)
        assert line["badDataFrom"] == "ProfileBadData refuse on line %d of " \
            "%s" % (_line_of(conf, "ProfileBadData refuse"), conf)
        assert line["compressionFrom"] == "ProfileCompression Off on line " \
            "%d of %s" % (_line_of(conf, "ProfileCompression Off"), conf)
        assert line["server"] == ("api.test:%d" % server.port
                                  if where == "vhost"
                                  else "127.0.0.1 (main server)")
        # The defaults refuse a bad file at configtest, naming their line.
        _break(path)
        cp = server.configtest()
        assert cp.returncode != 0
        assert "ProfileBadData refuse on line %d of %s" \
            % (_line_of(conf, "ProfileBadData refuse"), conf) in cp.stderr
    finally:
        server.stop()


def test_bad_refuse_on_the_line_refuses_at_configtest(make_httpd, workdir,
                                                      sample):
    """bad=refuse on the line refuses; bad=keep on a line beats a server
    default of refuse."""
    path = _data(workdir, "line-refuse", sample)
    server = make_httpd("line-refuse", "")
    server.write_conf(_api("/api/v1", path, "bad=refuse"))
    assert server.configtest().returncode == 0
    _break(path)
    cp = server.configtest()
    assert cp.returncode != 0
    assert "(ProfileData on line %d of %s); bad=refuse on line %d of %s" % (
        (_line_of(server.conf, "ProfileData"), server.conf) * 2) \
        in cp.stderr, cp.stderr
    server.write_conf("ProfileBadData refuse\n"
                      + _api("/api/v1", path, "BAD=Keep"))
    cp = server.configtest()
    assert cp.returncode == 0, cp.stderr
    assert "bad=keep: a running server keeps the last good data" in cp.stderr


def test_compress_off_builds_no_coded_forms_and_any_on_builds_them(
        make_httpd, workdir, sample):
    path = _data(workdir, "line-compress", sample)
    server = make_httpd("line-compress", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + _api("/a/api", path, "compress=off"))
    server.start_checked()
    try:
        f = status_json(server)["data"][0]
        assert f["compressed"] is False
        assert f["representations"]["gzip"] == 0
        assert f["representations"]["br"] == 0
        r = server.get("/a/api/profile", {"Accept-Encoding": "gzip"})
        assert not r.has("Content-Encoding")
        # A second line saying on: the forms are built, and each line
        # serves what it says.
        server.write_conf(h.load_modules("status") + STATUS
                          + "ProfileCompression Off\n"
                          + _api("/a/api", path, "compress=off bad=keep")
                          + _api("/b/api", path, "compress=on"))
        server.graceful()
        h.wait_for(lambda: status_json(server)["data"][0]["compressed"])
        f = status_json(server)["data"][0]
        assert f["representations"]["gzip"] > 0
        assert [(ln["base"], ln["compression"], ln["compressionFrom"])
                for ln in f["lines"]] == [("/a/api", False, "this line"),
                                          ("/b/api", True, "this line")]
        r = server.get("/a/api/profile", {"Accept-Encoding": "gzip"})
        assert not r.has("Content-Encoding")
        r = server.get("/b/api/profile", {"Accept-Encoding": "gzip"})
        assert r.header("Content-Encoding") == "gzip"
    finally:
        server.stop()


def test_vhost_default_beats_the_server_default(make_httpd, workdir, sample):
    path = _data(workdir, "vhost-default", sample)
    other = h.write_json(os.path.join(os.path.dirname(path), "other.json"),
                         sample)
    server = make_httpd("vhost-default", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + "ProfileCompression Off\n" + _api("/api/v1", path)
                      + "<VirtualHost 127.0.0.1:%d>\nServerName c.test\n"
                        "ProfileCompression On\n%s</VirtualHost>\n"
                      % (server.port, _api("/api/v1", other)))
    server.start_checked()
    try:
        by_path = {f["path"]: f for f in status_json(server)["data"]}
        assert by_path[path]["compressed"] is False
        assert by_path[other]["compressed"] is True
        r = server.get("/api/v1/profile", {"Host": "c.test",
                                           "Accept-Encoding": "gzip"})
        assert r.header("Content-Encoding") == "gzip"
    finally:
        server.stop()


@pytest.mark.parametrize("directive,form", [
    ("ProfileBadData refuse", "bad=keep|refuse"),
    ("ProfileCompression Off", "compress=on|off")])
@pytest.mark.parametrize("section", ["Location", "Directory"])
def test_old_directives_in_a_section_fail_configtest_naming_the_new_form(
        make_httpd, workdir, sample, directive, form, section):
    path = _data(workdir, "old-form", sample)
    server = make_httpd("old-form", "")
    where = "/api/v1" if section == "Location" else workdir
    server.write_conf(_api("/api/v1", path) + "<%s %s>\n    %s\n</%s>\n"
                      % (section, where, directive, section))
    cp = server.configtest()
    assert cp.returncode != 0
    # httpd's own context check, then the new form.
    assert "%s cannot occur within directory context" \
        % directive.split()[0] in cp.stderr, cp.stderr
    assert "ProfileData PATH %s" % form in cp.stderr, cp.stderr


@pytest.mark.parametrize("opts", ["bad=maybe", "compress=yes", "gzip",
                                  "bad=keep bad=refuse"])
def test_bad_options_fail_configtest(make_httpd, workdir, sample, opts):
    path = _data(workdir, "bad-opts", sample)
    server = make_httpd("bad-opts", "")
    server.write_conf(_api("/api/v1", path, opts))
    cp = server.configtest()
    assert cp.returncode != 0
    assert "ProfileData: '%s'" % opts.split()[-1] in cp.stderr, cp.stderr


# ------------------------------------------------------------ review D9
D9 = """<Location /outer>
    ProfileMaxAge 60
</Location>
{api}<LocationMatch "^/outer/api/v1/skills">
    ProfileMaxAge 7
</LocationMatch>
<Location /outer/api/v1>
    <If "%{{QUERY_STRING}} =~ /x/">
        ProfileCORSOrigins https://if.example
    </If>
</Location>
"""


def test_d9_reports_label_what_other_sections_may_change(make_httpd,
                                                         workdir, sample):
    """Review D9: an enclosing <Location>, a <LocationMatch> and an <If>
    set request-time directives for the API's URLs.  Requests get httpd's
    merge; DUMP_PROFILES, profile-status and server-status print what the
    line's own section configures and list the others as sections that
    may change it for some URLs, never a value as applying."""
    path = _data(workdir, "d9", sample)
    server = make_httpd("d9", "")
    server.write_conf(h.load_modules("status") + STATUS + D9.format(
        api=_api("/outer/api/v1", path, "compress=off",
                 "    ProfileCORSOrigins %s\n" % ORIGIN)))
    server.start_checked()
    try:
        assert server.get("/outer/api/v1/skills").header("Cache-Control") \
            == "public, max-age=7"
        assert server.get("/outer/api/v1/profile").header("Cache-Control") \
            == "public, max-age=60"
        r = server.get("/outer/api/v1/profile?x", {"Origin": ORIGIN})
        assert not r.has("Access-Control-Allow-Origin")
        conf = server.conf
        n = {t: _line_of(conf, t) for t in (
            "ProfileData", "ProfileMaxAge 60", "ProfileMaxAge 7",
            "ProfileCORSOrigins https://if")}
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert cp.returncode == 0, cp.stderr
        assert cp.stdout.endswith(
            "    ProfileData on line {pd} of {c}, <Location /outer/api/v1>, "
            "127.0.0.1 (main server)\n"
            "      API base /outer/api/v1, bad=keep (default), compress=off "
            "(this line)\n"
            "      in this section: ProfileMaxAge not set, "
            "ProfileCORSOrigins {o}\n"
            "      set in other sections, which may change it for some "
            "URLs:\n"
            "        ProfileMaxAge 60 on line {a} of {c}, <Location /outer>, "
            "127.0.0.1 (main server) (encloses)\n"
            "        ProfileMaxAge 7 on line {b} of {c}, <LocationMatch "
            "\"^/outer/api/v1/skills\">, 127.0.0.1 (main server) "
            "(regex or <If>)\n"
            "        ProfileCORSOrigins https://if.example on line {i} of "
            "{c}, <Location /outer/api/v1> <If \"%{{QUERY_STRING}} =~ /x/\">,"
            " 127.0.0.1 (main server) (regex or <If>)\n".format(
                pd=n["ProfileData"], c=conf, o=ORIGIN,
                a=n["ProfileMaxAge 60"], b=n["ProfileMaxAge 7"],
                i=n["ProfileCORSOrigins https://if"])), cp.stdout
        assert "ProfileMaxAge 60\n" not in cp.stdout
        line, = status_json(server)["data"][0]["lines"]
        assert line["section"] == "<Location /outer/api/v1>"
        assert line["configuredHere"] == {"ProfileCORSOrigins": ORIGIN}
        assert [(o["directive"], o["value"], o["line"])
                for o in line["mayChangeForSomeUrls"]] == [
            ("ProfileMaxAge", "60", n["ProfileMaxAge 60"]),
            ("ProfileMaxAge", "7", n["ProfileMaxAge 7"]),
            ("ProfileCORSOrigins", "https://if.example",
             n["ProfileCORSOrigins https://if"])]
        page = server.get("/server-status").body.decode("utf-8")
        assert "in this section: ProfileMaxAge not set" in page
        assert "set in other sections, which may change it for some URLs:" \
            in page
        assert "ProfileMaxAge 7 on line %d" % n["ProfileMaxAge 7"] in page
    finally:
        server.stop()


def test_reports_list_only_sections_that_can_apply(make_httpd, workdir,
                                                   sample):
    """Review E5: two APIs and a static site, each section with its own
    ProfileMaxAge.  Neither API's section can apply to a URL below the
    other's base, nor /static's: the reports list none of them; a
    <Location /a> that encloses /a/api/v1 is listed, labelled, and so is
    one nested below it."""
    path = _data(workdir, "e5", sample)
    server = make_httpd("e5", "")
    server.write_conf(
        h.load_modules("status") + STATUS
        + _api("/a/api/v1", path, "", "    ProfileMaxAge 11\n")
        + _api("/b/api/v1", path, "", "    ProfileMaxAge 22\n")
        + "<Location /static>\n    ProfileMaxAge 30\n</Location>\n"
        + "<Location /a>\n    ProfileMaxAge 40\n</Location>\n"
        + "<Location /a/api/v1/metrics>\n    ProfileMaxAge 50\n"
        "</Location>\n")
    server.start_checked()
    try:
        lines = {ln["base"]: ln for ln in status_json(server)["data"][0][
            "lines"]}
        assert [(o["value"], o["applies"])
                for o in lines["/a/api/v1"]["mayChangeForSomeUrls"]] == [
            ("40", "encloses"), ("50", "nested")]
        assert lines["/b/api/v1"]["mayChangeForSomeUrls"] == []
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert "ProfileMaxAge 30" not in cp.stdout
        assert "ProfileMaxAge 22 on line" not in cp.stdout
        assert "ProfileMaxAge 11 on line" not in cp.stdout
    finally:
        server.stop()


# ------------------------------------------------ the shipped examples
def test_shipped_site_with_compression_conf_agrees(make_httpd, workdir,
                                                   sample):
    """httpd-conf/profile-site.conf + profile-compression.conf: the second
    file's ProfileCompression Off (the server's default) is what requests
    get, what is loaded and what is reported."""
    confs = {}
    for name in ("profile-site.conf", "profile-compression.conf"):
        with open(os.path.join(h.SRCDIR, "httpd-conf", name)) as f:
            confs[name] = f.read()
    path = _data(workdir, "settings-shipped", sample)
    site = confs["profile-site.conf"].replace(
        "/usr/share/mod_profile/profile.json", path)
    assert site != confs["profile-site.conf"]
    server = make_httpd("settings-shipped", "")
    server.write_conf(h.load_modules("status", "filter", "deflate",
                                     "headers", "env")
                      + STATUS + site + confs["profile-compression.conf"])
    server.start_checked()
    try:
        assert server.get("/api/v1/profile").status == 200
        f = status_json(server)["data"][0]
        assert f["compressed"] is False
        assert f["representations"]["gzip"] == 0
        line, = f["lines"]
        assert line["compression"] is False
        assert line["compressionFrom"].startswith("ProfileCompression Off")
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert "compress=off (ProfileCompression Off on line" in cp.stdout
        page = server.get("/server-status").body.decode("utf-8")
        assert "compress=off (ProfileCompression Off" in page
    finally:
        server.stop()


def test_refuse_in_one_vhost_is_named_when_it_fails_configtest(
        make_httpd, workdir, sample):
    """profile-site.conf (keep) and profile-vhost.conf switched to
    bad=refuse, both naming one bad file: configtest fails, and its
    message names both ProfileData lines and the refusing one."""
    with open(os.path.join(h.SRCDIR, "httpd-conf", "profile-site.conf")) as f:
        site = f.read()
    with open(os.path.join(h.SRCDIR, "httpd-conf",
                           "profile-vhost.conf")) as f:
        vhost = f.read()
    path = _data(workdir, "settings-f4", {})
    _break(path)
    server = make_httpd("settings-f4", "")
    port = h.free_port()
    assert "profile.json bad=keep" in vhost
    conf = (site + vhost.replace("bad=keep\n", "bad=refuse\n")
            .replace("8081", str(port))
            .replace("${APACHE_LOG_DIR}", os.path.join(server.root, "logs"))
            ).replace("/usr/share/mod_profile/profile.json", path)
    server.write_conf(conf)
    cp = server.configtest()
    assert cp.returncode != 0
    lines = [i for i, ln in enumerate(open(server.conf), 1)
             if "ProfileData " + path in ln]
    assert len(lines) == 2, lines
    assert "(ProfileData on line %d of %s, line %d of %s); bad=refuse on " \
        "line %d of %s" % (lines[0], server.conf, lines[1], server.conf,
                           lines[1], server.conf) in cp.stderr, cp.stderr
