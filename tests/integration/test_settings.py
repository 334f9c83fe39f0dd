# SPDX-License-Identifier: Apache-2.0
"""One truth for settings (CONTRACT §1, docs/operations.md "Which settings
apply where"): a directive set in an enclosing <Location>, in a virtual
host or in the server config is what requests below the API get, what
decides how its file is loaded (no gzip and br forms with
ProfileCompression Off; a bad file refused with ProfileBadData refuse),
and what -D DUMP_PROFILES, /server-status and profile-status report.
The shipped example configurations are among them.
"""
import os
import re

import pytest

import httpd_harness as h
from test_status import STATUS, status_json, _line_of

SETTINGS = """    ProfileMaxAge 60
    ProfileCORSOrigins https://a.example
    ProfileCompression Off
    ProfileBadData refuse
"""
ORIGIN = "https://a.example"


def _conf(where, port, path):
    """The API at /api/v1 with SETTINGS set `where`."""
    api = h.location("/api/v1", path)
    if where == "location":
        return ("<Location /api>\n" + SETTINGS + "</Location>\n" + api)
    if where == "vhost":
        return ("<VirtualHost 127.0.0.1:%d>\n    ServerName api.test\n"
                % port + SETTINGS + api + "</VirtualHost>\n")
    return SETTINGS.replace("    ", "") + api


def _refuse_line(conf):
    with open(conf) as f:
        return [i for i, ln in enumerate(f, 1)
                if "ProfileBadData refuse" in ln][0]


@pytest.mark.parametrize("where", ["location", "vhost", "server"])
def test_settings_from_where_they_are_set_agree_everywhere(make_httpd,
                                                           workdir, sample,
                                                           where):
    d = os.path.join(workdir, "settings-" + where)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("settings-" + where, "")
    server.write_conf(h.load_modules("status") + STATUS
                      + _conf(where, server.port, path))
    server.start_checked()
    try:
        # What requests get.
        r = server.get("/api/v1/profile", {"Origin": ORIGIN,
                                           "Accept-Encoding": "gzip, br"})
        assert r.status == 200, r
        assert r.header("Cache-Control") == "public, max-age=60"
        assert r.header("Access-Control-Allow-Origin") == ORIGIN
        assert not r.has("Content-Encoding")
        r = server.get("/api/v1/profile", {"Origin": "https://b.example"})
        assert not r.has("Access-Control-Allow-Origin")

        # What is loaded, and what the JSON status says.
        f = status_json(server)["data"][0]
        assert f["compressed"] is False
        assert f["representations"]["gzip"] == 0
        assert f["representations"]["br"] == 0
        assert f["badData"] == "refuse"
        api, = f["apis"]
        assert (api["base"], api["maxAge"], api["corsOrigins"],
                api["compression"], api["badData"]) == \
            ("/api/v1", 60, [ORIGIN], False, "refuse")
        assert api["servers"] == (["api.test:%d" % server.port]
                                  if where == "vhost"
                                  else ["127.0.0.1 (main server)"])

        # What server-status says.
        page = server.get("/server-status").body.decode("utf-8")
        assert "max-age 60, CORS %s, compression off, bad data refuse" \
            % ORIGIN in page

        # What DUMP_PROFILES says.
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert cp.returncode == 0, cp.stderr
        assert "\n    ProfileMaxAge 60\n    ProfileCORSOrigins %s\n" \
            "    ProfileCompression Off\n    ProfileBadData refuse\n" \
            % ORIGIN in cp.stdout, cp.stdout

        # ProfileBadData refuse acts: configtest fails on a bad file and
        # names the line that refused it.
        with open(path, "w") as fh:
            fh.write("{")
        cp = server.configtest()
        assert cp.returncode != 0
        assert "ProfileBadData refuse on line %d of %s" \
            % (_refuse_line(server.conf), server.conf) in cp.stderr, \
            cp.stderr
    finally:
        server.stop()


def test_nested_section_overrides_and_forms_follow_any_on(make_httpd,
                                                          workdir, sample):
    """Off in the enclosing section, On in the API's: requests get the
    coded forms and they are built; a second API of the same file with
    Off everywhere does not stop them being built."""
    d = os.path.join(workdir, "settings-nested")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("settings-nested", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + "<Location /a>\n    ProfileCompression Off\n"
                        "    ProfileMaxAge 10\n</Location>\n"
                      + h.location("/a/api", path,
                                   "    ProfileCompression On\n")
                      + "<Location /b>\n    ProfileCompression Off\n"
                        "</Location>\n"
                      + h.location("/b/api", path))
    server.start_checked()
    try:
        r = server.get("/a/api/profile", {"Accept-Encoding": "gzip"})
        assert r.header("Content-Encoding") == "gzip"
        assert r.header("Cache-Control") == "public, max-age=10"
        r = server.get("/b/api/profile", {"Accept-Encoding": "gzip"})
        assert not r.has("Content-Encoding")
        f = status_json(server)["data"][0]
        assert f["compressed"] is True
        assert f["representations"]["gzip"] > 0
        assert [(a["base"], a["compression"], a["maxAge"])
                for a in f["apis"]] == [("/a/api", True, 10),
                                        ("/b/api", False, 300)]
    finally:
        server.stop()


def test_all_off_builds_no_coded_forms(make_httpd, workdir, sample):
    d = os.path.join(workdir, "settings-alloff")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    server = make_httpd("settings-alloff", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + "<Location />\n    ProfileCompression Off\n"
                        "</Location>\n"
                      + h.location("/a/api", path)
                      + h.location("/b/api", path))
    server.start_checked()
    try:
        f = status_json(server)["data"][0]
        assert f["compressed"] is False
        assert f["representations"]["gzip"] == 0
        assert [a["compression"] for a in f["apis"]] == [False, False]
    finally:
        server.stop()


def test_main_server_api_is_served_by_every_vhost_with_its_settings(
        make_httpd, workdir, sample):
    """A <Location> of the main server is inherited by every virtual host,
    each with its own settings; a virtual host with its own ProfileData
    at the base does not serve it."""
    d = os.path.join(workdir, "settings-vhosts")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
    other = h.write_json(os.path.join(d, "other.json"), sample)
    server = make_httpd("settings-vhosts", "")
    port = server.port
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path)
                      + "<VirtualHost 127.0.0.1:%d>\n    ServerName a.test\n"
                        "    ProfileMaxAge 60\n</VirtualHost>\n" % port
                      + "<VirtualHost 127.0.0.1:%d>\n    ServerName b.test\n"
                        "</VirtualHost>\n" % port
                      + "<VirtualHost 127.0.0.1:%d>\n    ServerName c.test\n"
                        % port + h.location("/api/v1", other)
                      + "</VirtualHost>\n")
    server.start_checked()
    try:
        for host, age in (("a.test", 60), ("b.test", 300)):
            r = server.get("/api/v1/profile", {"Host": host})
            assert r.header("Cache-Control") == "public, max-age=%d" % age
        st = status_json(server)
        by_path = {f["path"]: f for f in st["data"]}
        assert [(a["servers"], a["maxAge"]) for a in by_path[path]["apis"]] \
            == [(["a.test:%d" % port], 60), (["b.test:%d" % port], 300)]
        assert [a["servers"] for a in by_path[other]["apis"]] == \
            [["c.test:%d" % port]]
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert "  a.test:%d /api/v1\n" % port in cp.stdout
        assert "  b.test:%d /api/v1\n" % port in cp.stdout
        assert "main server" not in cp.stdout
    finally:
        server.stop()


# ------------------------------------------------ the shipped examples
def test_shipped_site_with_compression_conf_agrees(make_httpd, workdir,
                                                   sample):
    """httpd-conf/profile-site.conf + profile-compression.conf: the second
    file's ProfileCompression Off (a second <Location /api/v1>) is what
    requests get, what is loaded and what is reported."""
    confs = {}
    for name in ("profile-site.conf", "profile-compression.conf"):
        with open(os.path.join(h.SRCDIR, "httpd-conf", name)) as f:
            confs[name] = f.read()
    d = os.path.join(workdir, "settings-shipped")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = h.write_json(os.path.join(d, "profile.json"), sample)
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
        api, = f["apis"]
        assert api["compression"] is False and api["maxAge"] == 300
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert "    ProfileCompression Off\n" in cp.stdout, cp.stdout
        page = server.get("/server-status").body.decode("utf-8")
        assert "compression off" in page
        assert re.search(r"Compressed forms</th><td>off", page)
    finally:
        server.stop()


def test_refuse_in_one_vhost_is_named_when_it_fails_configtest(
        make_httpd, workdir, sample):
    """profile-site.conf (keep) and profile-vhost.conf switched to refuse,
    both naming one bad file: configtest fails, and its message names the
    vhost's ProfileBadData refuse line and both ProfileData lines."""
    with open(os.path.join(h.SRCDIR, "httpd-conf", "profile-site.conf")) as f:
        site = f.read()
    with open(os.path.join(h.SRCDIR, "httpd-conf",
                           "profile-vhost.conf")) as f:
        vhost = f.read()
    d = os.path.join(workdir, "settings-f4")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = os.path.join(d, "profile.json")
    with open(path, "w") as fh:
        fh.write("{")
    server = make_httpd("settings-f4", "")
    port = h.free_port()
    conf = (site + vhost.replace("ProfileBadData keep", "ProfileBadData refuse")
            .replace("8081", str(port))
            .replace("${APACHE_LOG_DIR}", os.path.join(server.root, "logs"))
            ).replace("/usr/share/mod_profile/profile.json", path)
    assert "ProfileBadData refuse" in conf
    server.write_conf(conf)
    cp = server.configtest()
    assert cp.returncode != 0
    lines = [i for i, ln in enumerate(open(server.conf), 1)
             if "ProfileBadData refuse" in ln or "ProfileData " + path in ln]
    assert len(lines) == 3, lines
    assert "(ProfileData on line %d of %s, line %d of %s); ProfileBadData " \
        "refuse on line %d of %s" % (lines[0], server.conf, lines[1],
                                     server.conf, lines[2], server.conf) \
        in cp.stderr, cp.stderr
