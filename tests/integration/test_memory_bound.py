# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 (revised 2026-11-24): the memory a loaded file takes is
bounded by its size.  For any file the module accepts, the parent's peak
memory while loading grows by at most 16 times the file's size plus 8 MB;
a file that would take more is refused as a data problem, under the usual
`ProfileBadData` rules, with a message naming the limit and by how much.

test_many_records_file_is_refused_as_bad_data: the file of the review
(docs/performance.md, "Memory bounded by the file's size"): 16 languages,
50,000 empty skill groups, about 2 MB, which took ~420 MB in the parent
before.  With `keep`: configtest warns and says Syntax OK, a cold start
runs and answers 503, a reload keeps the last good data, the parent's peak
memory stays small; with `refuse`: configtest fails.

test_realistic_10mb_file_loads_within_the_bound: a realistic 10 MB file
(bench/gen-bigdata.py) still loads, and the parent's peak (VmHWM) grows by
less than the bound over a server loading the sample.
"""
import json
import re
import os
import subprocess
import sys

import pytest

import httpd_harness as h
import proc_util as pu

# Under the sanitized build httpd runs with the ASan runtime, whose
# shadow memory and quarantine make memory figures meaningless: the
# refusals are checked there, the figures only in the plain build.
SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))

PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
GEN = os.path.join(h.SRCDIR, "bench", "gen-bigdata.py")
LANGS = "en,es,fr,de,it,pt,nl,sv,da,fi,pl,cs,sk,hu,ro,bg"
GROUPS = 50000
MB = 1024 * 1024
LIMIT_TEXT = "more than its memory limit of"


def _bound(size):
    return 16 * size + 8 * MB


def _hwm_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM for %d" % pid)


def _dir(workdir, name):
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    return d


def _many_records(path):
    """profilectl new in 16 languages, its skills replaced by GROUPS empty
    groups (plain strings: valid in every language)."""
    subprocess.run([PROFILECTL, "new", "--force", "--languages", LANGS, path],
                   check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data["skills"] = [{"title": "", "summary": "", "skills": []}
                      for _ in range(GROUPS)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
    os.chmod(path, 0o644)
    return os.path.getsize(path)


def test_profilectl_check_of_the_file_is_a_data_problem(workdir):
    """The estimate's refusal is a problem in the data (CONTRACT §9):
    check exits 1, as profilectl(1) says, not 2 (review D8)."""
    path = os.path.join(_dir(workdir, "memory-bound-check"), "profile.json")
    _many_records(path)
    cp = subprocess.run([PROFILECTL, "check", path], capture_output=True,
                        timeout=120)
    assert cp.returncode == 1, cp
    # (Its tree alone is over the bound: the pre-scan refuses it before
    # the parse, "reading ..."; the estimate after it says "loading ...".)
    assert re.match(re.escape(path) + r": (reading|loading) the data file "
                    r"would take about", cp.stdout.decode()), cp.stdout
    assert LIMIT_TEXT in cp.stdout.decode()
    cp = subprocess.run([PROFILECTL, "check", "--json", path],
                        capture_output=True, timeout=120)
    assert cp.returncode == 1, cp
    p, = json.loads(cp.stdout)
    assert p["line"] is None and p["path"] is None
    assert LIMIT_TEXT in p["message"]


@pytest.mark.allow_log(r"PROFILE0003", r"PROFILE0005", r"PROFILE0007")
def test_many_records_file_is_refused_as_bad_data(make_httpd, workdir,
                                                  sample):
    d = _dir(workdir, "memory-bound")
    path = os.path.join(d, "profile.json")
    size = _many_records(path)
    assert 1.5 * MB < size < 3 * MB

    server = make_httpd("memory-bound-keep", "ProfileBadData keep\n"
                        + h.location("/api/v1", path))
    try:
        cp = server.configtest()
        assert cp.returncode == 0, cp.stderr
        assert "Syntax OK" in cp.stderr
        assert path in cp.stderr and LIMIT_TEXT in cp.stderr, cp.stderr

        # A cold start runs, the API answers 503, the log says why.
        assert server.start().returncode == 0
        r = server.get("/api/v1/profile")
        assert r.status == 503, r
        log = server.read_log()
        assert "PROFILE0005" in log and LIMIT_TEXT in log, log
        assert "16 times its %d bytes plus 8 MB" % size in log, log
        # Refused before the expensive work: the parent's peak stays far
        # below what loading took (~420 MB) and within the bound.
        hwm = _hwm_kib(server.pid) * 1024
        assert SANITIZED or hwm < _bound(size) + 64 * MB, hwm
        assert server.running()

        # A good file loads; the big one again keeps it (last good data).
        h.write_json(path, sample)
        pu.restart(server, "graceful")
        good = server.get("/api/v1/profile")
        assert good.status == 200
        _many_records(path)
        text = pu.restart(server, "USR1", timeout=60)
        assert "PROFILE0003" in text and LIMIT_TEXT in text, text
        r = server.get("/api/v1/profile")
        assert (r.status, r.etag) == (200, good.etag)
    finally:
        server.stop()

    # ProfileBadData refuse: configtest fails, naming the limit.
    server = make_httpd("memory-bound-refuse", "ProfileBadData refuse\n"
                        + h.location("/api/v1", path))
    cp = server.configtest()
    assert cp.returncode != 0
    assert "PROFILE0007" in cp.stderr and LIMIT_TEXT in cp.stderr, cp.stderr


def test_realistic_10mb_file_loads_within_the_bound(make_httpd, workdir):
    d = _dir(workdir, "memory-bound-10mb")
    big = os.path.join(d, "big.json")
    small = os.path.join(d, "sample.json")
    subprocess.run([sys.executable, GEN, big], check=True,
                   capture_output=True)
    os.chmod(big, 0o644)
    h.copy_data(h.SAMPLE_DATA, small)
    os.chmod(small, 0o644)
    size = os.path.getsize(big)
    assert size > 9 * MB

    peaks = {}
    for name, path in (("sample", small), ("big", big)):
        server = make_httpd("memory-bound-" + name,
                            h.location("/api/v1", path))
        server.start_checked()
        try:
            r = server.get("/api/v1/profile", timeout=30)
            assert r.status == 200, r
            peaks[name] = _hwm_kib(server.pid) * 1024
        finally:
            server.stop()
    growth = peaks["big"] - peaks["sample"]
    print("\nparent VmHWM: sample %.1f MB, %d-byte file %.1f MB: +%.1f MB, "
          "bound %.1f MB" % (peaks["sample"] / MB, size, peaks["big"] / MB,
                             growth / MB, _bound(size) / MB))
    assert SANITIZED or growth <= _bound(size), (growth, _bound(size))
