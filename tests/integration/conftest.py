# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the mod_profile integration suite.

* `workdir`: one world-readable scratch directory for the whole session
  (the children run as www-data when the suite runs as root).
* `make_httpd`: creates private httpd instances (stopped at the end of the
  session at the latest).
* `api`: the session's main server, started once; see MAIN_LOCATIONS.
* Every test's new error-log lines at [warn] or worse fail the test unless
  the test declares them with @pytest.mark.allow_log(regex, ...).
* A test that fails only because a child crashed with one of httpd's own
  known restart crashes (crash_triage.HttpdCrash, judged from the core) is
  run once more from scratch, every fixture set up again; the run's
  summary names the crash and its core.  A second such crash fails it.
"""
import atexit
import copy
import os
import re
import shutil
import tempfile

import pytest
from _pytest.runner import runtestprotocol

import crash_triage
import httpd_harness as h

_servers = []


def pytest_report_header(config):
    return "httpd configuration: %s (PROFILE_MPM, PROFILE_MODSET, " \
        "PROFILE_PHP)" % h.CONFIGURATION


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "allow_log(*regex): error-log lines at [warn] or worse "
        "that this test provokes on purpose")


# Under pytest-xdist (run.sh) each worker takes the next tests as it
# finishes; the files with the longest tests go first, so that no worker
# starts a minute-long test when the others are nearly done.
LONGEST_FIRST = ("test_memory.py", "test_hostile_files.py", "test_load.py",
                 "test_shared_caches.py", "test_po.py")


def pytest_collection_modifyitems(session, config, items):
    def rank(item):
        name = os.path.basename(str(item.fspath))
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST \
            else len(LONGEST_FIRST)
    items.sort(key=rank)                # stable: each file's order kept


# ------------------------------------------- httpd's own known crashes
_httpd_crashes = []         # (nodeid, what the finding says)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if call.excinfo is not None \
            and call.excinfo.errisinstance(crash_triage.HttpdCrash):
        rep.httpd_crash = call.excinfo.value


def _plain(report):
    """The report without the exception object, which pytest-xdist could
    not send to its controller."""
    report.__dict__.pop("httpd_crash", None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Runs the test; should it fail with a known httpd crash, reports
    that attempt as "rerun", tears every fixture down (the crashed server
    too) and runs the test once more.  Only the second run counts."""
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid,
                                       location=item.location)
    reports = runtestprotocol(item, nextitem=nextitem, log=False)
    crashed = [r for r in reports if getattr(r, "httpd_crash", None)]
    if crashed:
        rerun = crashed[0]
        rerun.outcome = "rerun"
        # What the summary prints travels with the report (user_properties
        # reach pytest-xdist's controller; attributes of ours do not).
        rerun.user_properties.append(
            ("httpd_crash", ["%s\n    %s" % (f.line, f.describe())
                             for f in rerun.httpd_crash.findings]))
        try:
            item.session._setupstate.teardown_exact(None)
        except Exception as e:          # shown, and the rerun still runs
            rerun.user_properties.append(
                ("httpd_crash", ["teardown before the rerun failed: %r" % e]))
        for r in reports:
            _plain(r)
            item.ihook.pytest_runtest_logreport(report=r)
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
    for r in reports:
        _plain(r)
        item.ihook.pytest_runtest_logreport(report=r)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid,
                                        location=item.location)
    return True


def pytest_runtest_logreport(report):
    for name, lines in getattr(report, "user_properties", ()):
        if name == "httpd_crash":
            _httpd_crashes.extend((report.nodeid, ln) for ln in lines)


def pytest_report_teststatus(report):
    if report.outcome == "rerun":
        return "rerun", "R", ("RERUN (httpd crash)", {"yellow": True})
    return None


def pytest_terminal_summary(terminalreporter):
    if not _httpd_crashes:
        return
    tr = terminalreporter
    tr.section("httpd's own known crashes (test run again from scratch)")
    for nodeid, text in _httpd_crashes:
        tr.write_line("%s\n    %s" % (nodeid, text))
    tr.write_line("%d httpd crash(es) of a known kind; see docs/testing.md, "
                  "\"Crashed children\"" % len(_httpd_crashes))


@pytest.fixture(scope="session")
def workdir():
    base = tempfile.mkdtemp(prefix="mod_profile-it-")
    os.chmod(base, 0o755)
    yield base
    for s in list(_servers):
        s.stop()
    # Sanitizer reports written while the servers stopped.
    reports = h.sanitizer_reports()
    for s in _servers:
        reports += [ln for ln in s.new_problem_lines()
                    if h.SANITIZER_REPORT.search(ln)]
    crash_triage.drop_kept_dir_if_empty()
    assert not reports, "sanitizer reports:\n" + "\n".join(reports)
    if not os.environ.get("KEEP_TMP"):
        shutil.rmtree(base, ignore_errors=True)


@atexit.register
def _stop_leftovers():
    for s in _servers:
        s.stop()


@pytest.fixture(scope="session")
def make_httpd(workdir):
    """make_httpd(name, body) -> Httpd (not started)."""
    counter = [0]

    def make(name, body):
        counter[0] += 1
        root = os.path.join(workdir, "%s-%d" % (name, counter[0]))
        os.makedirs(root)
        server = h.Httpd(root, body, name)
        _servers.append(server)
        return server
    return make


# httpd's own lines that no module causes: the event MPM, stopping the
# children of an earlier generation at a restart, may find a connection
# in lingering close whose socket is already gone (AH03092, EBADF).  It
# shows only under load, in the tests that restart servers.
HTTPD_RESTART_NOISE = [re.compile(r"\(9\)Bad file descriptor: AH03092: "
                                  r"process_lingering_close: "
                                  r"apr_pollset_add failure")]


@pytest.fixture(autouse=True)
def error_log_guard(request):
    """Fails the test when any server's error log gained a [warn] (or
    worse) line during it that the test did not declare."""
    for s in _servers:
        s.new_problem_lines()          # anything earlier is judged already
    earlier = h.sanitizer_reports()
    yield
    reports = earlier + h.sanitizer_reports()
    assert not reports, "sanitizer reports from httpd commands:\n" + \
        "\n".join(reports)
    allowed = list(HTTPD_RESTART_NOISE)
    for m in request.node.iter_markers("allow_log"):
        allowed += [re.compile(p) for p in m.args]
    unexpected = []
    for s in _servers:
        for line in s.new_problem_lines():
            if h.SANITIZER_REPORT.search(line) \
                    or not any(p.search(line) for p in allowed):
                unexpected.append("%s: %s" % (s.name, line))
    assert not unexpected, "unexpected error-log lines:\n" + \
        "\n".join(unexpected)


# ---------------------------------------------------------------- data
@pytest.fixture(scope="session")
def sample():
    """The sample data, parsed (what the main server serves)."""
    return h.load_data(h.SAMPLE_DATA)


def changed_variant(data):
    """The sample data with one experience record changed, in its English
    text only (the last record's period)."""
    d = copy.deepcopy(data)
    d["experience"][-1]["period"]["en"] = "Jul 2013 – Oct 2015"
    return d


def other_variant(data):
    """A second person, whose Cierzo company name is stored decomposed
    (NFD) in the file."""
    d = copy.deepcopy(data)
    d["profile"]["name"] = "Ana Pérez Ibáñez"
    d["profile"]["headline"] = {"en": "Data engineer",
                                "es": "Ingeniera de datos"}
    for r in d["experience"]:
        if r["company"] == "Ingeniería Cierzo Sistemas":
            r["company"] = "Ingenieri\u0301a Cierzo Sistemas"
    d["metrics"] = d["metrics"][:2]
    return d


# Locations of the main server.
#   /api/v1            the sample data (copy, mtime DATA_MTIME)
#   /ana/api/v1        the same bytes in another file, another base
#   /cors/api/v1       the sample data, ProfileCORSOrigins list
#   /nested/api/v1     the sample data; /nested/api/v1/metrics is a nested
#                      <Location> holding only ProfileMaxAge 60
#   /changed/api/v1    changed_variant()
#   /other/api/v1      other_variant()
CORS_ORIGINS = ["https://a.example", "https://b.example"]


@pytest.fixture(scope="session")
def data_files(workdir, sample):
    d = os.path.join(workdir, "data")
    os.makedirs(d)
    os.chmod(d, 0o755)
    files = {
        "main": h.copy_data(h.SAMPLE_DATA, os.path.join(d, "profile.json")),
        # Other mtimes on purpose: ETags come from bytes, not file times.
        "ana": h.copy_data(h.SAMPLE_DATA, os.path.join(d, "ana.json"),
                           mtime=h.DATA_MTIME + 500),
        "changed": h.write_json(os.path.join(d, "changed.json"),
                                changed_variant(sample),
                                mtime=h.DATA_MTIME + 1000),
        "other": h.write_json(os.path.join(d, "other.json"),
                              other_variant(sample)),
    }
    return files


@pytest.fixture(scope="session")
def api(make_httpd, data_files):
    f = data_files
    body = "".join([
        h.location("/api/v1", f["main"]),
        h.location("/ana/api/v1", f["ana"]),
        h.location("/cors/api/v1", f["main"],
                   "    ProfileCORSOrigins %s\n" % " ".join(CORS_ORIGINS)),
        h.location("/nested/api/v1", f["main"]),
        "<Location /nested/api/v1/metrics>\n    ProfileMaxAge 60\n"
        "</Location>\n",
        h.location("/changed/api/v1", f["changed"]),
        h.location("/other/api/v1", f["other"]),
    ])
    server = make_httpd("main", body)
    cp = server.start()
    assert cp.returncode == 0, cp.stderr
    # Start-up lines are judged here: the per-test guard starts later.
    lines = server.new_problem_lines()
    assert not lines, "error-log lines at start-up:\n" + "\n".join(lines)
    server.base = "/api/v1"
    yield server
    server.stop()
    lines = server.new_problem_lines()
    assert not lines, "error-log lines at shutdown:\n" + "\n".join(lines)


@pytest.fixture(scope="session")
def B():
    return "/api/v1"
