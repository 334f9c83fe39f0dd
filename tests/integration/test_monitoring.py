# SPDX-License-Identifier: Apache-2.0
"""The monitoring checks shipped in contrib/monitoring (docs/operations.md,
"A monitoring check that alerts on stale data"), each run against a server
whose data file is fresh, stale after a bad reload, never loaded
(unavailable, 503), and against no server at all:

* check-stale-jq, check-stale-python (the JSON status) and
  check-stale-auto (server-status?auto): 0 when fresh; 1 and one line
  per file saying why when stale or unavailable; 2 when the status cannot
  be read;
* check_profile_status, the Nagios/Icinga plugin: OK 0, WARNING 1,
  CRITICAL 2, UNKNOWN 3, one status line with performance data.

The docs show these files by name, and every file is shown.
"""
import os
import re
import shutil
import subprocess

import pytest

import httpd_harness as h
import proc_util as pu
from test_datafile import MINIMAL_FILE
from test_status import STATUS, status_json, _dir, _put

CONTRIB = os.path.join(h.SRCDIR, "contrib", "monitoring")
JQ = ("check-stale-jq", "check_profile_status")
# Nagios plugin guidelines: 'label'=value[UOM];[warn];[crit];[min];[max]
PERFDATA = re.compile(r"^[A-Za-z_]+=\d+(;\d*){0,4}$")


def run(name, url):
    if name in JQ and shutil.which("jq") is None:
        pytest.skip("jq is not installed (scripts/install-deps)")
    cp = subprocess.run([os.path.join(CONTRIB, name), url],
                        capture_output=True, text=True, timeout=60)
    return cp.returncode, cp.stdout, cp.stderr


def urls(port):
    base = "http://127.0.0.1:%d" % port
    return {"json": base + "/profile-status",
            "auto": base + "/server-status?auto"}


SIMPLE = (("check-stale-jq", "json"), ("check-stale-python", "json"),
          ("check-stale-auto", "auto"))


def check_simple(port, want_rc, want_lines):
    for name, kind in SIMPLE:
        rc, out, err = run(name, urls(port)[kind])
        assert (rc, err) == (want_rc, ""), (name, rc, out, err)
        assert out.splitlines() == want_lines[kind], (name, out)


def nagios(port):
    rc, out, err = run("check_profile_status", urls(port)["json"])
    assert err == "" and out.endswith("\n") and out.count("\n") == 1, \
        (rc, out, err)
    text, perf = out[:-1].split(" | ")
    for item in perf.split():
        assert PERFDATA.match(item), item
    return rc, text, perf


@pytest.fixture
def reloading(make_httpd, workdir):
    path = os.path.join(_dir(workdir, "monitor-reload"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("monitor-reload", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    server.start_checked()
    server.path = path
    yield server
    server.stop()


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/monitor-reload/")
def test_checks_say_fresh_then_stale_then_fresh(reloading):
    server, path = reloading, reloading.path
    check_simple(server.port, 0, {"json": [], "auto": []})
    assert nagios(server.port) == (
        0, "OK - 1 data file fresh",
        "files=1 fresh=1;;;0 stale=0;0;;0 unavailable=0;;0;0")

    with open(path, "w") as f:
        f.write('{"languages": ["en", "es"],\n')
    pu.restart(server, "USR1")
    f = status_json(server)["data"][0]
    assert f["state"] == "stale"
    check_simple(server.port, 1, {
        "json": ["%s: %s" % (path, f["message"])],
        "auto": ["%s: stale since %s" % (path, f["staleSince"])]})
    assert nagios(server.port) == (
        1, "WARNING - %s: %s" % (path, f["message"]),
        "files=1 fresh=0;;;0 stale=1;0;;0 unavailable=0;;0;0")

    _put(path, h.load_data(MINIMAL_FILE), h.DATA_MTIME + 100)
    pu.restart(server, "USR1")
    check_simple(server.port, 0, {"json": [], "auto": []})
    assert nagios(server.port)[0] == 0


@pytest.mark.allow_log(r"PROFILE0005: ProfileData: .*/monitor-never/")
def test_checks_say_unavailable_when_the_api_answers_503(make_httpd,
                                                         workdir):
    path = os.path.join(_dir(workdir, "monitor-never"), "profile.json")
    with open(path, "w") as f:
        f.write("{")
    good = h.copy_data(MINIMAL_FILE, os.path.join(
        _dir(workdir, "monitor-good"), "profile.json"))
    server = make_httpd("monitor-never", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path)
                      + h.location("/good/api/v1", good))
    try:
        assert server.start().returncode == 0
        assert server.get("/api/v1/profile").status == 503
        st = status_json(server)
        f = [x for x in st["data"] if x["path"] == path][0]
        assert f["state"] == "unavailable"
        check_simple(server.port, 1, {
            "json": ["%s: %s" % (path, f["message"])],
            "auto": ["%s: unavailable" % path]})
        assert nagios(server.port) == (
            2, "CRITICAL - %s: %s" % (path, f["message"]),
            "files=2 fresh=1;;;0 stale=0;0;;0 unavailable=1;;0;0")
    finally:
        server.stop()


def test_checks_say_they_cannot_tell_when_no_server_answers():
    port = h.free_port()            # nothing listens there
    for name, kind in SIMPLE:
        rc, out, err = run(name, urls(port)[kind])
        assert (rc, out) == (2, ""), (name, rc, out, err)
        assert "cannot read http://127.0.0.1:%d/" % port in err, (name, err)
    rc, out, err = run("check_profile_status", urls(port)["json"])
    assert rc == 3 and err == "", (out, err)
    assert out.startswith("UNKNOWN - cannot read %s: " % urls(port)["json"])
    assert out.count("\n") == 1


def test_checks_say_they_cannot_tell_from_a_wrong_url(make_httpd, workdir):
    """A URL that answers, but not the status: a 404, another page, or
    server-status without the module's lines (ProfileServerStatus Off)."""
    path = h.copy_data(MINIMAL_FILE, os.path.join(
        _dir(workdir, "monitor-wrong"), "profile.json"))
    server = make_httpd("monitor-wrong", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + "ProfileServerStatus Off\n"
                      + h.location("/api/v1", path))
    server.start_checked()
    base = "http://127.0.0.1:%d" % server.port
    try:
        for name, url in (("check-stale-jq", base + "/api/v1/nowhere"),
                          ("check-stale-jq", base + "/api/v1/profile"),
                          ("check-stale-python", base + "/api/v1/nowhere"),
                          ("check-stale-python", base + "/api/v1/profile"),
                          ("check-stale-auto", base + "/api/v1/nowhere"),
                          ("check-stale-auto", base + "/server-status?auto")):
            rc, out, err = run(name, url)
            assert (rc, out) == (2, "") and (name + ": ") in err, \
                (name, url, rc, out, err)
        for url in (base + "/api/v1/nowhere", base + "/api/v1/profile"):
            rc, out, err = run("check_profile_status", url)
            assert rc == 3 and out.startswith("UNKNOWN - "), (url, out)
    finally:
        server.stop()


def test_nagios_plugin_options():
    plugin = os.path.join(CONTRIB, "check_profile_status")
    port = h.free_port()
    cp = subprocess.run([plugin, "-t", "2", "-u",
                         "http://127.0.0.1:%d/profile-status" % port],
                        capture_output=True, text=True, timeout=30)
    assert cp.returncode == 3 and cp.stdout.startswith(
        "UNKNOWN - cannot read http://127.0.0.1:%d/" % port), cp
    for args in (["-t", "soon"], ["-x"], ["a", "b"]):
        cp = subprocess.run([plugin] + args, capture_output=True, text=True,
                            timeout=30)
        assert cp.returncode == 3 and cp.stdout.startswith("UNKNOWN - "), \
            (args, cp)


def test_docs_show_every_shipped_check_and_no_other():
    with open(os.path.join(h.SRCDIR, "docs", "operations.md")) as f:
        doc = f.read()
    section = doc[doc.index("### A monitoring check that alerts on stale"):]
    section = section[:section.index("\n### ", 5)]
    shipped = set(os.listdir(CONTRIB))
    named = set(re.findall(r"contrib/monitoring/([A-Za-z0-9_.-]+)", doc))
    assert shipped <= named, shipped - named
    assert named <= shipped, named - shipped
    # The checks are files now, not commands to copy from the page.
    assert "python3 -c" not in section and "awk -F" not in section
    for name in shipped:
        if name.endswith(".yml"):
            continue
        assert os.access(os.path.join(CONTRIB, name), os.X_OK), name
