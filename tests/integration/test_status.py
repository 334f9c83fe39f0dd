# SPDX-License-Identifier: Apache-2.0
"""What the module shows of itself (issue 12; docs/operations.md,
"Observing it"):

* mod_status's /server-status has a mod_profile section, HTML-escaped,
  and its ?auto form the same facts as `Key: value` lines;
* `SetHandler profile-status` answers them as JSON, never cached;
* after a reload with a bad file, all three say "serving last good data
  since T because: <the error>", and stop saying it after a good reload;
  a file that never loaded says that it answers 503;
* `apache2 -t -D DUMP_PROFILES` lists each API base with its virtual host,
  data file, languages, record counts and effective directives;
* every view, and the error log at each start, names the running
  module's version (configure.ac's).
"""
import calendar
import json
import os
import re
import time

import pytest

import httpd_harness as h
import proc_util as pu
from test_datafile import MINIMAL_FILE

COLLECTIONS = ["skills", "experience", "education", "caseStudies",
               "metrics"]
ROUTE_OF = {"skills": "/skills", "experience": "/experience",
            "education": "/education", "caseStudies": "/case-studies",
            "metrics": "/metrics"}
API = "api.test"
STATUS = """<Location /server-status>
    SetHandler server-status
    Require all granted
</Location>
<Location /profile-status>
    SetHandler profile-status
    Require all granted
</Location>
"""


def module_version():
    """The version configure.ac's AC_INIT gives, the one source of it."""
    with open(os.path.join(h.SRCDIR, "configure.ac")) as f:
        m = re.search(r"^AC_INIT\(\[mod_profile\], \[([^]]+)\]", f.read(),
                      re.M)
    assert m, "no AC_INIT version in configure.ac"
    return m.group(1)


def _iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def _parse_iso(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))


def _line_of(conf, text):
    """The line number of the line of file `conf` holding `text`."""
    with open(conf) as f:
        lines = [i for i, ln in enumerate(f, 1) if text in ln]
    assert len(lines) == 1, (text, lines)
    return lines[0]


def _vhost(port, loc, extra=""):
    return """<VirtualHost 127.0.0.1:{port}>
    ServerName {api}
{extra}{loc}</VirtualHost>
""".format(port=port, api=API, extra=extra, loc=loc)


def _dir(workdir, name):
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    return d


def status_json(server):
    r = server.get("/profile-status")
    assert r.status == 200, r
    assert r.header("Content-Type") == "application/json"
    assert r.header("Cache-Control") == "no-store"
    return r.json()


def auto_lines(server):
    """/server-status?auto as {key: value} (mod_status's own lines too)."""
    r = server.get("/server-status?auto")
    assert r.status == 200, r
    out = {}
    # (The first line is the server's name.)
    for ln in r.body.decode("utf-8").splitlines()[1:]:
        key, sep, value = ln.partition(":")
        assert sep, ln
        assert key not in out, key
        out[key] = value[1:]
    return out


def flatten(value, prefix="Profile"):
    """The ?auto lines docs/operations.md says the JSON gives: object keys
    capitalized and joined, arrays of objects indexed, arrays of values
    joined by spaces, booleans on/off, null no line."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(flatten(v, prefix + k[0].upper() + k[1:]))
        return out
    if isinstance(value, list) and value and isinstance(value[0], dict):
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(v, "%s[%d]" % (prefix, i)))
        return out
    if value is None:
        return {}
    if isinstance(value, bool):
        return {prefix: "on" if value else "off"}
    if isinstance(value, float):
        return {prefix: "%.6f" % value}
    if isinstance(value, list):
        return {prefix: " ".join(str(v) for v in value)}
    return {prefix: str(value)}


def identity_bytes(server, base, data, host=None):
    """What the representations of `data` served at `base` hold, in
    bytes: profile, contact, each collection and each of its elements
    (a collection is "[" + its elements joined by "," + "]"), in every
    language."""
    total = 0
    for lang in data["languages"]:
        hdrs = {"Accept-Language": lang, "Accept-Encoding": "identity"}
        if host:
            hdrs["Host"] = host
        for route in ["/profile", "/contact"]:
            total += len(server.get(base + route, hdrs).body)
        for name in COLLECTIONS:
            body = server.get(base + ROUTE_OF[name], hdrs).body
            n = len(data[name])
            total += len(body) + (len(body) - 2 - max(n - 1, 0))
    return total


def representations(data):
    return len(data["languages"]) * (
        2 + sum(1 + len(data[name]) for name in COLLECTIONS))


# ------------------------------------------------------- a running server
@pytest.fixture(scope="module")
def site(make_httpd, workdir, sample):
    """The sample data at /api/v1 on the main server, from a directory
    whose name needs HTML escaping; the minimal data at /x/api/v1 on a
    virtual host with its own directives."""
    d = _dir(workdir, "status-a&b<c>")
    main = h.copy_data(h.SAMPLE_DATA, os.path.join(d, "profile.json"))
    other = h.copy_data(MINIMAL_FILE, os.path.join(d, "x-other.json"),
                        mtime=h.DATA_MTIME + 60)
    server = make_httpd("status", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", main)
                      + _vhost(server.port, h.location(
                          "/x/api/v1", other,
                          "    ProfileCORSOrigins https://a.example "
                          "https://b.example\n", opts="compress=off"),
                          "    ProfileMaxAge 60\n"))
    before = time.time()
    server.start_checked()
    server.files = {"main": main, "other": other}
    server.started = before
    yield server
    server.stop()


def test_json_status_names_each_file_and_what_it_holds(site, sample):
    st = status_json(site)
    assert (st["files"], st["fresh"], st["stale"], st["unavailable"]) == \
        (2, 2, 0, 0)
    main, other = st["data"]        # sorted by path
    assert main["path"] == site.files["main"]
    assert other["path"] == site.files["other"]
    minimal = h.load_data(MINIMAL_FILE)
    for f, data, mtime in ((main, sample, h.DATA_MTIME),
                           (other, minimal, h.DATA_MTIME + 60)):
        assert f["state"] == "fresh"
        assert f["error"] is None and f["staleSince"] is None
        assert f["message"] == "serving the data loaded at %s" \
            % f["loadedAt"]
        assert site.started - 1 <= _parse_iso(f["loadedAt"]) \
            <= time.time() + 1
        assert 0 < f["loadSeconds"] < 30
        size = os.path.getsize(f["path"])
        assert f["loaded"] == {"size": size, "mtime": _iso(mtime)}
        assert f["onDisk"] == {"size": size, "mtime": _iso(mtime),
                               "changed": False}
        assert f["badData"] == "keep"
        assert f["languages"] == data["languages"]
        assert f["fallback"] is None
        assert f["untranslated"] == {lang: 0 for lang in data["languages"]}
        assert f["records"] == {k: len(data[k]) for k in COLLECTIONS}
        assert f["representations"]["identity"] == representations(data)
    assert main["bytes"]["identity"] == \
        identity_bytes(site, "/api/v1", sample)
    assert other["bytes"]["identity"] == \
        identity_bytes(site, "/x/api/v1", minimal, host=API)
    # Compressed forms exist where compression is on (and only smaller
    # ones are kept), none where ProfileCompression Off is all there is.
    assert main["compressed"] is True
    for enc in ("gzip", "br"):
        assert 0 < main["representations"][enc] \
            <= main["representations"]["identity"]
        assert 0 < main["bytes"][enc] < main["bytes"]["identity"]
    assert other["compressed"] is False
    assert other["representations"]["gzip"] == 0
    assert other["bytes"] == dict(other["bytes"], gzip=0, br=0)

    conf = site.conf
    # Each ProfileData line where it is written: the main server's, and
    # the virtual host's with what its section configures; the virtual
    # host's ProfileMaxAge 60 is listed as a setting of another section,
    # not as what applies.  (What applies is httpd's: both hosts get 60,
    # the main server's <Location> being inherited by the virtual host.)
    age = {"directive": "ProfileMaxAge", "value": "60", "definedIn": conf,
           "line": _line_of(conf, "ProfileMaxAge 60"), "section": None,
           "server": "%s:%d" % (API, site.port), "applies": "server"}
    assert main["lines"] == [{
        "definedIn": conf,
        "line": _line_of(conf, 'ProfileData "%s"' % site.files["main"]),
        "section": "<Location /api/v1>", "server": "127.0.0.1 (main server)",
        "base": "/api/v1", "badData": "keep", "badDataFrom": "default",
        "compression": True, "compressionFrom": "default",
        # (The virtual host's server level too, which a request to it
        # inherits; not its <Location /x/api/v1>, which can apply to no
        # URL below /api/v1: review E5.)
        "configuredHere": {}, "mayChangeForSomeUrls": [age]}]
    for host in (API, "elsewhere.test"):
        r = site.get("/api/v1/profile", {"Host": host})
        assert r.header("Cache-Control") == "public, max-age=60"
    assert other["lines"] == [{
        "definedIn": conf,
        "line": _line_of(conf, 'ProfileData "%s"' % site.files["other"]),
        "section": "<Location /x/api/v1>",
        "server": "%s:%d" % (API, site.port), "base": "/x/api/v1",
        "badData": "keep", "badDataFrom": "default",
        "compression": False, "compressionFrom": "this line",
        "configuredHere": {
            "ProfileCORSOrigins": "https://a.example https://b.example"},
        "mayChangeForSomeUrls": [age]}]


def test_status_handler_answers_get_and_head_only(site):
    r = site.request("HEAD", "/profile-status")
    assert r.status == 200 and r.body == b""
    assert r.header("Cache-Control") == "no-store"
    r = site.request("POST", "/profile-status", body="x")
    assert r.status == 405, r
    assert r.tokens("Allow") == {"get", "head"}     # TraceEnable off


AUTO_KEYS = ["ProfileModuleVersion", "ProfileFiles", "ProfileFresh",
             "ProfileStale", "ProfileUnavailable"]
AUTO_MEMBER = {"ProfileModuleVersion": "version"}
AUTO_FILE_KEYS = ["Path", "State", "StaleSince"]


def auto_of(st):
    """The ?auto lines docs/operations.md lists, from the JSON status."""
    out = {k: str(st[AUTO_MEMBER.get(k, k[len("Profile"):].lower())])
           for k in AUTO_KEYS}
    for i, f in enumerate(st["data"]):
        for k in AUTO_FILE_KEYS:
            v = f[k[0].lower() + k[1:]]
            if v is not None:
                out["ProfileData[%d]%s" % (i, k)] = v
    return out


def test_server_status_auto_has_a_few_stable_keys(site):
    st = status_json(site)
    lines = auto_lines(site)
    mine = {k: v for k, v in lines.items() if k.startswith("Profile")}
    assert mine == auto_of(st)
    # The keys an admin's script reads (docs/operations.md).
    assert lines["ProfileModuleVersion"] == module_version()
    assert lines["ProfileFiles"] == "2"
    assert lines["ProfileFresh"] == "2"
    assert lines["ProfileStale"] == "0"
    assert lines["ProfileUnavailable"] == "0"
    assert lines["ProfileData[0]Path"] == site.files["main"]
    assert lines["ProfileData[0]State"] == "fresh"
    assert "ProfileData[0]StaleSince" not in lines
    # mod_status's own lines are still there.
    assert "Total Accesses" in lines or "ServerUptimeSeconds" in lines


def test_auto_keys_are_those_docs_list():
    with open(os.path.join(h.SRCDIR, "docs", "operations.md")) as f:
        doc = f.read()
    section = doc[doc.index("### In server-status"):]
    section = section[:section.index("\n### ", 5)]
    listed = set(re.findall(r"^\| `(Profile[A-Za-z\[\]]+)` \|", section,
                            re.M))
    assert listed == set(AUTO_KEYS) | {"ProfileData[N]" + k
                                       for k in AUTO_FILE_KEYS}


def test_server_status_page_has_an_escaped_section(site):
    r = site.get("/server-status")
    assert r.status == 200, r
    page = r.body.decode("utf-8")
    assert "<h2>mod_profile %s</h2>" % module_version() in page
    assert "2 data files: 2 fresh, 0 serving last good data, " \
        "0 unavailable" in page
    escaped = site.files["main"].replace("&", "&amp;") \
        .replace("<", "&lt;").replace(">", "&gt;")
    assert "<h3>%s</h3>" % escaped in page
    assert "status-a&b<c>" not in page
    assert "skills 6, experience 4, education 3, caseStudies 3, " \
        "metrics 5" in page
    assert ", &lt;Location /api/v1&gt;, 127.0.0.1 (main server); API base " \
        "/api/v1, bad=keep (default), compress=on (default)" in page
    assert ", &lt;Location /x/api/v1&gt;, %s:%d; API base /x/api/v1, " \
        "bad=keep (default), compress=off (this line)" % (API, site.port) \
        in page
    assert "last good data since" not in page


# ------------------------------------------------ stale, then fresh again
def _put(path, data, mtime):
    tmp = path + ".tmp"
    h.write_json(tmp, data, mtime)
    os.chmod(tmp, 0o644)
    os.rename(tmp, path)


@pytest.fixture
def reloading(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-reload"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("status-reload", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    server.start_checked()
    server.path = path
    yield server
    server.stop()


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/status-reload/")
def test_failed_reload_says_last_good_data_until_a_good_one(reloading):
    server = reloading
    good = status_json(server)["data"][0]
    good_size = os.path.getsize(server.path)

    with open(server.path, "w") as f:
        f.write('{"languages": ["en", "es"],\n')
    before = time.time()
    pu.restart(server, "USR1")
    st = status_json(server)
    assert (st["fresh"], st["stale"], st["unavailable"]) == (0, 1, 0)
    f = st["data"][0]
    assert f["state"] == "stale"
    assert f["error"].startswith(server.path + ":2:")
    assert "invalid JSON" in f["error"]
    since = f["staleSince"]
    assert before - 1 <= _parse_iso(since) <= time.time() + 1
    assert f["message"] == "serving last good data since %s because: %s" \
        % (since, f["error"])
    # What is served is what was loaded before.
    assert f["loadedAt"] == good["loadedAt"]
    assert f["loadSeconds"] == good["loadSeconds"]
    assert f["loaded"] == {"size": good_size, "mtime": _iso(h.DATA_MTIME)}
    assert f["records"] == good["records"]
    assert f["onDisk"]["size"] == os.path.getsize(server.path)
    assert f["onDisk"]["changed"] is True

    lines = auto_lines(server)
    assert lines["ProfileStale"] == "1"
    assert lines["ProfileData[0]State"] == "stale"
    assert lines["ProfileData[0]StaleSince"] == since
    page = server.get("/server-status").body.decode("utf-8")
    assert "<b>serving last good data since %s because: %s" \
        % (since, server.path) in page

    # Still bad at the next reload: stale since the first failure.
    pu.restart(server, "HUP")
    assert status_json(server)["data"][0]["staleSince"] == since

    _put(server.path, h.load_data(MINIMAL_FILE), h.DATA_MTIME + 100)
    pu.restart(server, "USR1")
    st = status_json(server)
    assert (st["fresh"], st["stale"], st["unavailable"]) == (1, 0, 0)
    f = st["data"][0]
    assert f["state"] == "fresh"
    assert f["error"] is None and f["staleSince"] is None
    assert f["loadedAt"] >= since
    assert f["loaded"]["mtime"] == _iso(h.DATA_MTIME + 100)
    assert f["onDisk"]["changed"] is False
    assert "ProfileData[0]Error" not in auto_lines(server)
    page = server.get("/server-status").body.decode("utf-8")
    assert "last good data" not in page.replace(
        "serving last good data, ", "")


@pytest.mark.allow_log(r"PROFILE0005: ProfileData: .*/status-never/")
def test_file_that_never_loaded_says_it_answers_503(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-never"), "profile.json")
    with open(path, "w") as f:
        f.write("{")
    server = make_httpd("status-never", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    try:
        assert server.start().returncode == 0
        assert server.get("/api/v1/profile").status == 503
        st = status_json(server)
        assert (st["fresh"], st["stale"], st["unavailable"]) == (0, 0, 1)
        f = st["data"][0]
        assert f["state"] == "unavailable"
        assert f["message"] == "no good data loaded: answering 503 " \
            "because: " + f["error"]
        assert f["error"].startswith(path + ":1:")
        assert f["loaded"] is None and f["loadedAt"] is None
        assert "records" not in f and "untranslated" not in f
        assert auto_lines(server)["ProfileUnavailable"] == "1"
        # The page has the section, and the child serving it survives.
        page = server.get("/server-status")
        assert page.status == 200, page
        assert "<b>no good data loaded: answering 503" \
            in page.body.decode("utf-8")
        assert server.get("/api/v1/profile").status == 503
    finally:
        server.stop()


# ------------------------------------------- every view in every state
def check_views(server, path, state):
    """The JSON status, ?auto, the HTML page and DUMP_PROFILES all answer
    for a file in `state`, and agree on it; returns the JSON of the file."""
    f = status_json(server)["data"][0]
    assert (f["path"], f["state"]) == (path, state)
    lines = auto_lines(server)
    assert lines["ProfileData[0]Path"] == path
    assert lines["ProfileData[0]State"] == state
    assert (lines.get("ProfileData[0]StaleSince") == f["staleSince"]
            if state == "stale" else "ProfileData[0]StaleSince" not in lines)
    r = server.get("/server-status")
    assert r.status == 200, r
    page = r.body.decode("utf-8")
    assert "<h3>%s</h3>" % path in page
    assert "<p>1 data file: " in page
    assert f["message"].replace('"', "&quot;") in page
    cp = server.ctl("-t", "-D", "DUMP_PROFILES")
    assert cp.returncode == 0, cp.stderr
    assert "\n  %s\n" % path in cp.stdout
    assert "\n    ProfileData on line " in cp.stdout
    return f


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/status-states/")
def test_every_view_in_fresh_kept_and_stale_states(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-states"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("status-states", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    server.start_checked()
    try:
        fresh = check_views(server, path, "fresh")
        assert fresh["keptUnchanged"] is False
        assert fresh["loadSeconds"] > 0 and fresh["loadedAt"]

        # A restart that keeps the unchanged data keeps when and how fast
        # it was loaded.
        os.utime(path, (h.DATA_MTIME + 5, h.DATA_MTIME + 5))
        pu.restart(server, "USR1")
        kept = check_views(server, path, "fresh")
        assert kept["keptUnchanged"] is True
        assert kept["loadSeconds"] == fresh["loadSeconds"]
        assert kept["loadedAt"] == fresh["loadedAt"]
        assert kept["loaded"]["mtime"] == _iso(h.DATA_MTIME + 5)
        assert status_json(server)["generation"] == 2

        with open(path, "w") as f:
            f.write("{")
        pu.restart(server, "USR1")
        stale = check_views(server, path, "stale")
        assert stale["loadSeconds"] == fresh["loadSeconds"]
        assert stale["loadedAt"] == fresh["loadedAt"]
        assert stale["keptUnchanged"] is False
    finally:
        server.stop()


@pytest.mark.allow_log(r"PROFILE0005: ProfileData: .*/status-never-views/")
def test_every_view_of_a_file_that_never_loaded(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-never-views"), "profile.json")
    with open(path, "w") as f:
        f.write("{")
    server = make_httpd("status-never-views", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    try:
        assert server.start().returncode == 0
        f = check_views(server, path, "unavailable")
        assert f["loadSeconds"] is None and f["loadedAt"] is None
        assert server.get("/api/v1/profile").status == 503
    finally:
        server.stop()


def test_server_status_off_shows_no_section(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-off"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("status-off", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + "ProfileServerStatus Off\n"
                      + h.location("/api/v1", path))
    server.start_checked()
    try:
        page = server.get("/server-status").body.decode("utf-8")
        assert "mod_profile" not in page and path not in page
        lines = auto_lines(server)
        assert not [k for k in lines if k.startswith("Profile")]
        assert "ServerUptimeSeconds" in lines or "Total Accesses" in lines
        # The JSON handler, set where the admin chose, still answers.
        assert status_json(server)["data"][0]["path"] == path
    finally:
        server.stop()


def test_server_status_directive_is_server_config_only(make_httpd):
    server = make_httpd("status-off-ctx", "<Location /x>\n"
                        "    ProfileServerStatus Off\n</Location>\n")
    cp = server.configtest()
    assert cp.returncode != 0
    assert "ProfileServerStatus" in cp.stderr


# ------------------------------------------------------- DUMP_PROFILES
def test_dump_profiles_lists_each_file_and_its_lines(make_httpd, workdir,
                                                    sample):
    d = _dir(workdir, "status-dump")
    a = h.copy_data(h.SAMPLE_DATA, os.path.join(d, "a.json"))
    b = h.copy_data(MINIMAL_FILE, os.path.join(d, "b.json"))
    server = make_httpd("status-dump", "")
    body = """<VirtualHost 127.0.0.1:{port}>
    ServerName a.test
    ProfileMaxAge 60
{loc_a}</VirtualHost>
<VirtualHost 127.0.0.1:{port}>
    ServerName b.test
    ProfileBadData refuse
{loc_b}</VirtualHost>
""".format(port=server.port,
           loc_a=h.location("/api/v1", a,
                            "    ProfileCORSOrigins https://a.example\n"),
           loc_b=h.location("/people/b/api/v1", b, opts="compress=off"))
    server.write_conf(body)
    line_a = _line_of(server.conf, 'ProfileData "%s"' % a)
    line_b = _line_of(server.conf, 'ProfileData "%s"' % b)

    cp = server.ctl("-t", "-D", "DUMP_PROFILES")
    assert cp.returncode == 0, cp.stderr
    assert "Syntax OK" in cp.stderr
    assert cp.stdout == """\
Profile data files (mod_profile {version}):
  {a}
    languages: en es; records: skills 6, experience 4, education 3, \
caseStudies 3, metrics 5
    untranslated texts: en 0, es 0
    ProfileData on line {line_a} of {conf}, <Location /api/v1>, \
a.test:{port}
      API base /api/v1, bad=keep (default), compress=on (default)
      in this section: ProfileMaxAge not set, ProfileCORSOrigins \
https://a.example
      set in other sections, which may change it for some URLs:
        ProfileMaxAge 60 on line {age} of {conf}, server level, \
a.test:{port} (server)
  {b}
    languages: en es; records: skills 1, experience 1, education 1, \
caseStudies 1, metrics 1
    untranslated texts: en 0, es 0
    ProfileData on line {line_b} of {conf}, <Location /people/b/api/v1>, \
b.test:{port}
      API base /people/b/api/v1, bad=refuse (ProfileBadData refuse on \
line {refuse} of {conf}), compress=off (this line)
      in this section: ProfileMaxAge not set, ProfileCORSOrigins not set
""".format(port=server.port, a=a, b=b, line_a=line_a, line_b=line_b,
           conf=server.conf, version=module_version(),
           age=_line_of(server.conf, "ProfileMaxAge 60"),
           refuse=_line_of(server.conf, "ProfileBadData refuse"))

    # Only when asked.
    cp = server.ctl("-t")
    assert cp.returncode == 0 and cp.stdout == ""


def test_dump_profiles_shows_a_bad_file_indented(make_httpd, workdir):
    d = _dir(workdir, "status-dump-bad")
    a = os.path.join(d, "a.json")
    with open(a, "w") as f:
        f.write('{"languages": 1, "x": 2}')
    server = make_httpd("status-dump-bad", h.location("/api/v1", a))
    cp = server.ctl("-t", "-D", "DUMP_PROFILES")
    assert cp.returncode == 0, cp.stderr     # bad=keep
    assert "PROFILE0007" in cp.stderr
    lines = cp.stdout.splitlines()
    assert lines[1] == "  " + a
    assert lines[2] == "    data: bad:"
    problems = [ln for ln in lines[3:] if not ln.startswith("    Profile")
                and not ln.startswith("      API base")
                and not ln.startswith("      in this section")]
    assert len(problems) >= 2, lines            # one problem a line,
    assert all(ln.startswith("      %s:1:" % a) for ln in problems), lines
    assert lines[-3].startswith("    ProfileData on line ")
    assert lines[-3].endswith(", <Location /api/v1>, 127.0.0.1 (main server)")
    assert lines[-2:] == [
        "      API base /api/v1, bad=keep (default), compress=on (default)",
        "      in this section: ProfileMaxAge not set, ProfileCORSOrigins "
        "not set"]


# ------------------------------------------------ the shipped example
def test_shipped_profile_status_block_works_uncommented(make_httpd, workdir):
    """httpd-conf/profile.conf ships <Location /profile-status> commented
    out; uncommented, it answers the JSON to a local client."""
    with open(os.path.join(h.SRCDIR, "httpd-conf", "profile.conf")) as f:
        text = f.read()
    block = re.search(r"^ *# <Location /profile-status>\n.*?"
                      r"^ *# </Location>\n", text, re.S | re.M)
    assert block, "no commented <Location /profile-status> in profile.conf"
    conf = re.sub(r"^( *)# ?", r"\1", block.group(0), flags=re.M)
    assert "SetHandler profile-status" in conf and "Require local" in conf
    path = os.path.join(_dir(workdir, "status-shipped"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("status-shipped", "")
    server.write_conf(h.load_modules("authz_host")
                      + "<IfModule profile_module>\n" + conf
                      + "</IfModule>\n" + h.location("/api/v1", path))
    try:
        server.start_checked()
        st = status_json(server)
        assert st["files"] == 1 and st["data"][0]["path"] == path
    finally:
        server.stop()


# ------------------------------------------------ which version runs
def test_every_view_names_the_running_version(site):
    """After an upgrade, an administrator sees which build runs: the JSON
    status, ?auto and the page all carry configure.ac's version."""
    v = module_version()
    assert status_json(site)["version"] == v
    assert auto_lines(site)["ProfileModuleVersion"] == v
    assert "<h2>mod_profile %s</h2>" % v in \
        site.get("/server-status").body.decode("utf-8")


def test_error_log_names_the_version_at_each_start(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "status-version"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("status-version", "")
    # Notices are logged whatever the LogLevel (docs/operations.md).
    server.write_conf("LogLevel crit\n" + h.location("/api/v1", path))
    line = r"\[profile:notice\] .*PROFILE0008: mod_profile/%s loaded " \
        r"\(configuration generation %d\)"
    try:
        server.start_checked()
        log = server.read_log()
        assert len(re.findall(line % (re.escape(module_version()), 1),
                              log)) == 1, log
        pu.restart(server, "USR1")
        log = server.read_log()
        assert len(re.findall(line % (re.escape(module_version()), 2),
                              log)) == 1, log
        assert "PROFILE0008" not in server.ctl("-t").stderr
    finally:
        server.stop()


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/status-reload/"
                       r".*more problem")
def test_problem_count_is_said_in_singular_and_plural(reloading, workdir):
    """A stale file's error names its first problem and how many more:
    "and 1 more problem", "and 2 more problems"."""
    server = reloading
    for wrong, more in ((("name", "headline"), "1 more problem:"),
                        (("name", "headline", "location"),
                         "2 more problems:")):
        data = h.load_data(MINIMAL_FILE)
        for key in wrong:
            data["profile"][key] = 7
        _put(server.path, data, h.DATA_MTIME + 10 * len(wrong))
        pu.restart(server, "USR1")
        f = status_json(server)["data"][0]
        assert f["state"] == "stale"
        assert "(and %s apachectl configtest lists them)" % more \
            in f["error"], f["error"]
