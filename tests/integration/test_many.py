# SPDX-License-Identifier: Apache-2.0
"""Many profiles in one section (issue 35, deliverable 2; README
"Directives", docs/operations.md "Many profiles in one section").

`ProfileData DIR/*.json` in `<Location /people>` publishes each regular
file of DIR whose name matches, NAME being what the '*' matched (an id:
[A-Za-z0-9][A-Za-z0-9._~-]*), at /people/NAME, as if a line of its own
stood in `<Location /people/NAME>`:

* each profile answers its own data, with the section's settings
  (ProfileMaxAge, ProfileCORSOrigins) and the usual 404 problems below
  its base; a NAME no file has gets httpd's 404;
* files that do not match, whose NAME is no id, or that are not regular
  files are not published;
* the directory is read with the configuration: a file added or removed
  counts from the next graceful;
* a bad file is one profile's 503 (bad=keep), the others serve;
* `SetHandler profile-page` with a pattern publishes each page at
  /pages/NAME/;
* the status names every file with its own base;
* a pattern with two '*', a '*' in the directory, or
  outside a <Location PATH>, and a directory that cannot be read, fail
  configtest with a message saying so.
"""
import itertools
import json
import os

import pytest

import httpd_harness as h
import proc_util as pu

NAMES = ["ana", "bob", "c.d-e_f~1"]
_SERIAL = itertools.count()


def _bytes(name):
    d = h.load_data(os.path.join(h.TEST_DATA, "minimal.json"))
    d["profile"]["name"] = "Person %s" % name
    return (json.dumps(d, ensure_ascii=False, indent=2) + "\n").encode()


def _put(path, data):
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.chmod(path + ".tmp", 0o644)
    os.rename(path + ".tmp", path)


@pytest.fixture
def people(workdir):
    d = os.path.join(workdir, "people-%d" % next(_SERIAL))
    os.makedirs(d)
    os.chmod(d, 0o755)
    for n in NAMES:
        _put(os.path.join(d, n + ".json"), _bytes(n))
    # Not published: another suffix, a name that is no id, a directory.
    _put(os.path.join(d, "notes.txt"), b"x")
    _put(os.path.join(d, "bad name.json"), _bytes("bad name"))
    _put(os.path.join(d, "-dash.json"), _bytes("-dash"))
    os.makedirs(os.path.join(d, "dir.json"))
    return d


def _conf(d, extra=""):
    return ("<Location /people>\n    Require all granted\n"
            "    SetHandler profile\n"
            '    ProfileData "%s/*.json"\n    ProfileMaxAge 60\n'
            "    ProfileCORSOrigins https://app.example\n%s</Location>\n"
            "<Location /profile-status>\n    Require all granted\n"
            "    SetHandler profile-status\n"
            "</Location>\n" % (d, extra))


@pytest.fixture
def server(make_httpd, people):
    srv = make_httpd("many", _conf(people))
    yield srv.start_checked()
    srv.stop()


def test_each_file_is_a_profile_at_its_name(server, people):
    for n in NAMES:
        r = server.get("/people/%s/profile" % n,
                       {"Accept-Language": "en",
                        "Origin": "https://app.example"})
        assert r.status == 200, (n, r)
        assert r.json()["name"] == "Person %s" % n
        assert r.header("Cache-Control") == "public, max-age=60"
        assert r.header("Access-Control-Allow-Origin") == \
            "https://app.example"
        data = h.load_data(os.path.join(people, n + ".json"))
        r = server.get("/people/%s/experience" % n)
        assert r.pairs() == h.expected(data, "/experience", "en")
    # Below a profile's base: its API's own 404 problem.
    r = server.get("/people/ana/nope")
    assert r.status == 404 and r.json()["status"] == 404
    # No such profile: httpd's 404.
    for url in ("/people/zed/profile", "/people/notes/profile",
                "/people/bad name.json/profile", "/people/-dash/profile",
                "/people/dir/profile", "/people"):
        r = server.get(url.replace(" ", "%20"))
        assert r.status == 404, (url, r)
        assert "application/problem+json" not in (
            r.header("Content-Type") or ""), (url, r)


def test_the_status_names_each_file_with_its_base(server, people):
    st = server.get("/profile-status").json()
    bases = sorted(line["base"] for f in st["data"] for line in f["lines"])
    assert bases == sorted("/people/" + n for n in NAMES)
    assert st["files"] == len(NAMES)


def test_a_file_added_or_removed_counts_from_the_next_graceful(server,
                                                              people):
    _put(os.path.join(people, "dora.json"), _bytes("dora"))
    assert server.get("/people/dora/profile").status == 404
    os.remove(os.path.join(people, "bob.json"))
    pu.restart(server, "graceful")
    assert server.get("/people/dora/profile").json()["name"] == \
        "Person dora"
    assert server.get("/people/bob/profile").status == 404
    assert server.get("/people/ana/profile").status == 200


@pytest.mark.allow_log(r"PROFILE000[57]")
def test_a_bad_file_is_one_profiles_503(make_httpd, people):
    _put(os.path.join(people, "bob.json"), b'{"broken":')
    srv = make_httpd("many-bad", _conf(people))
    cp = srv.start()
    assert cp.returncode == 0, cp.stderr
    try:
        assert srv.get("/people/bob/profile").status == 503
        assert srv.get("/people/ana/profile").status == 200
    finally:
        srv.stop()


def test_pages_of_many(make_httpd, people):
    srv = make_httpd("many-pages", _conf(people) + (
        "<Location /pages>\n    Require all granted\n"
        "    SetHandler profile-page\n"
        '    ProfileData "%s/*.json"\n</Location>\n' % people))
    srv.start_checked()
    try:
        r = srv.get("/pages/ana/en/")
        assert r.status == 200, r
        body = r.body.decode()
        assert "Person ana" in body
        assert '<link rel="canonical" href="http://127.0.0.1:%d/pages/ana/'\
               'en/"' % srv.port in body or \
               'href="http://127.0.0.1/pages/ana/en/"' in body, body[:2000]
        assert srv.get("/pages/zed/en/").status == 404
    finally:
        srv.stop()


@pytest.mark.parametrize("pattern,said", [
    ("/*.*", "one '*'"),
    ("*/x.json", "one '*'"),
    ("/nowhere/*.json", "cannot read the directory"),
])
def test_a_bad_pattern_fails_configtest(make_httpd, people, pattern,
                                        said):
    srv = make_httpd("many-conf", "<Location /people>\n    SetHandler "
                     'profile\n    ProfileData "%s%s"\n</Location>\n'
                     % (people, pattern))
    cp = srv.configtest()
    assert cp.returncode != 0
    assert said in cp.stderr, cp.stderr


def test_a_pattern_outside_a_location_fails_configtest(make_httpd, people):
    srv = make_httpd("many-where", '<LocationMatch "^/people">\n'
                     '    SetHandler profile\n'
                     '    ProfileData "%s/*.json"\n</LocationMatch>\n'
                     % people)
    cp = srv.configtest()
    assert cp.returncode != 0
    assert "stands in a <Location PATH>" in cp.stderr, cp.stderr
