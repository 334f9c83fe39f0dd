# SPDX-License-Identifier: Apache-2.0
"""The parent's memory over graceful reloads of a big data file.

The httpd parent loads the data at every graceful restart (SIGUSR1) and
keeps it across generations; it must give the previous load back.  Until
53ba5fb the stores sat on httpd's global APR allocator, which keeps freed
memory for good, and the parent's RSS doubled after the first reload of a
big file (docs/performance.md, "Memory after reloads").

test_parent_rss_flat_over_reloads generates a data file with
bench/gen-bigdata.py, starts one server on it (one child), reads the
parent's VmRSS, then reloads it RELOADS times with SIGUSR1.  Before each
reload the file's content changes (the English headline names the round,
the file is replaced and its time moves on), so that every reload really
loads new data; after each, the new headline and a new ETag must be
served.  The parent's RSS must stay within LIMIT times its post-start RSS
after every reload.  The figures are printed (run with -s to see them).

The file is the 31 MB one of the original report (15,000 experience
records and 15,000 case studies; about 35 s here).  Smaller files make the
test faster but not sound: after a reload the parent also keeps what
glibc leaves resident at the top of the loader threads' malloc arenas
(malloc_trim() does not trim those, and glibc's dynamic mmap threshold
sends the compressors' large buffers there), measured at up to 9 MB with
a 10 MB file and up to 17 MB with this one: 1.21x and 1.15x of the
post-start RSS at worst (docs/performance.md).  The old code's extra
store is 2x at any size.  PROFILE_MEMORY_EXPERIENCE and
PROFILE_MEMORY_CASE_STUDIES change the size (gen-bigdata.py's
--experience and --case-studies).

test_parent_rss_flat_over_unchanged_reloads reloads a smaller file that
does not change: each restart keeps the loaded data (PROFILE0006
"unchanged, kept") and the parent's RSS must not move beyond
UNCHANGED_LIMIT (a few seconds).
"""
import json
import os
import subprocess
import sys
import time

import httpd_harness as h
import proc_util as pu

RELOADS = 10
LIMIT = 1.2
UNCHANGED_LIMIT = 1.02
GEN = os.path.join(h.SRCDIR, "bench", "gen-bigdata.py")

# Under the sanitized build httpd runs with the ASan runtime, whose
# quarantine keeps freed memory by design: reported, not judged there, and
# with a smaller file (still big enough for the threaded loader), since
# loading is many times slower under ASan.
SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))
_RECORDS = "2000" if SANITIZED else "15000"
EXPERIENCE = int(os.environ.get("PROFILE_MEMORY_EXPERIENCE", _RECORDS))
CASE_STUDIES = int(os.environ.get("PROFILE_MEMORY_CASE_STUDIES", _RECORDS))

# One child, no spare-thread management, no child recycling: the parent's
# memory then depends on the data only.  ServerLimit leaves room for the
# new generation's child beside the old one's during a graceful restart.
MPM = """StartServers 1
ServerLimit 2
ThreadsPerChild 8
MaxRequestWorkers 16
MinSpareThreads 1
MaxSpareThreads 16
MaxConnectionsPerChild 0
ProfileMaxDataSize 64M
"""

EN = [("Accept-Language", "en")]


def headline(n):
    return "Memory round %d of %d" % (n, RELOADS)


def _big_file(workdir, experience=EXPERIENCE, case_studies=CASE_STUDIES):
    """(path, bytes of round 0, marker of round 0): the generated file
    with the English headline replaced by headline(0)."""
    d = os.path.join(workdir, "memory-%d-%d" % (experience, case_studies))
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = os.path.join(d, "big.json")
    subprocess.run([sys.executable, GEN, "--experience", str(experience),
                    "--case-studies", str(case_studies), path],
                   check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data["profile"]["headline"]["en"] = headline(0)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    raw = text.encode("utf-8")
    marker = json.dumps(headline(0)).encode("utf-8")
    assert raw.count(marker) == 1
    return path, raw, marker


def _put(path, raw, mtime):
    """Replaces `path` by `raw` (write, rename) with mtime `mtime`."""
    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(raw)
    os.chmod(tmp, 0o644)
    os.utime(tmp, (mtime, mtime))
    os.rename(tmp, path)


def _served(server, n):
    r = server.get("/api/v1/profile", EN, timeout=30)
    assert r.status == 200, r
    got = dict(r.pairs())["headline"]
    assert got == headline(n), "round %d: served %r" % (n, got)
    return r.etag


def _parent_rss(pid):
    """The parent's VmRSS in KiB once it has settled (two equal readings
    0.2 s apart, at most 2 s)."""
    last = pu.rss_kib(pid)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = pu.rss_kib(pid)
        if now == last:
            break
        last = now
    return last


def _started(make_httpd, name, path, raw, extra=""):
    """A server (one child) on `raw`, written to `path`, serving round 0:
    (server, its ETag, the parent's RSS)."""
    _put(path, raw, h.DATA_MTIME)
    # The start loads as the reloads do: no compiled form is mapped (the
    # first reading at start-up would compile the file, and the start
    # would map it, a smaller post-start RSS than a load's).
    server = make_httpd(name, extra + "ProfileCompiledDir Off\n" + MPM
                        + h.location("/api/v1", path))
    server.start_checked()
    return server, _served(server, 0), _parent_rss(server.pid)


def test_parent_rss_flat_over_reloads(make_httpd, workdir):
    t0 = time.monotonic()
    path, raw, marker = _big_file(workdir)
    size = len(raw)
    server, etag, start = _started(make_httpd, "memory", path, raw)
    try:
        pid = server.pid
        rows = []
        for n in range(1, RELOADS + 1):
            _put(path, raw.replace(marker, json.dumps(headline(n)).encode(
                "utf-8")), h.DATA_MTIME + 3600 * n)
            t = time.monotonic()
            pu.restart(server, "USR1", timeout=60)
            took = time.monotonic() - t
            assert server.pid == pid and server.running()
            new_etag = _served(server, n)
            assert new_etag != etag, "round %d: ETag unchanged" % n
            etag = new_etag
            rows.append((n, _parent_rss(pid), took))
        pu.assert_no_crash(server, server.read_log())
    finally:
        server.stop()
    lines = ["parent VmRSS over %d graceful reloads (SIGUSR1) of a %d-byte "
             "data file (%d experience records, %d case studies)%s:"
             % (RELOADS, size, EXPERIENCE, CASE_STUDIES,
                " [sanitized build: not judged]" if SANITIZED else ""),
             "  after start: %d KiB" % start]
    lines += ["  reload %2d: %d KiB = %.2fx (new data served %.2f s after "
              "the signal)" % (n, rss, rss / start, took)
              for n, rss, took in rows]
    worst = max(rss for _, rss, _ in rows)
    lines.append("  largest: %.2fx, limit %.1fx; test %.1f s"
                 % (worst / start, LIMIT, time.monotonic() - t0))
    report = "\n".join(lines)
    print("\n" + report)
    if not SANITIZED:
        assert worst <= start * LIMIT, report


def test_parent_rss_flat_over_unchanged_reloads(make_httpd, workdir):
    path, raw, _ = _big_file(workdir, 2000, 2000)
    server, etag, start = _started(make_httpd, "memory-unchanged", path, raw,
                                   "LogLevel warn profile:info\n")
    try:
        rows = []
        for _ in range(RELOADS):
            text = pu.restart(server, "USR1", timeout=60)
            assert "unchanged, kept" in text, text
            assert _served(server, 0) == etag
            rows.append(_parent_rss(server.pid))
    finally:
        server.stop()
    report = "parent VmRSS over %d unchanged reloads of a %d-byte file: " \
        "after start %d KiB, then %s" % (
            RELOADS, len(raw), start, ", ".join("%d" % r for r in rows))
    print("\n" + report)
    if not SANITIZED:
        assert max(rows) <= start * UNCHANGED_LIMIT, report
