#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A graceful restart onto a large bad data file, beside a static site:
how long the static site is silent when the restart must parse the bad
file, against when a configtest judged it first (its verdict:
docs/operations.md, "Changed files are rendered before the signal";
the review of 2026-11-28, E3).

    MODULE=mod_profile/.libs/mod_profile.so bench/bad_graceful.py \\
        [--size 32M] [--rounds 3] [--out FILE]

(`make bench-bad` runs it on the build.)  One server on the event MPM
(bench.py's Debian settings) serves the sample's API and a static file,
requested in a loop, one connection each (scale.py's Poller).  Each
round, side by side:

  signal        new bad bytes written, then SIGUSR1 to the parent: the
                restart parses the file after the signal;
  configtest    other new bad bytes written, `httpd -t`, then SIGUSR1:
                the restart finds the verdict of those bytes.

Between the two, the sample is written back and the server restarted
onto it.  The bad file is the review's: {"skills":[{"title":"x...x"},
...]} of SIZE bytes, every element three problems, under the pre-scan's
bound; each write differs from every other (no verdict of earlier bytes
applies).  Printed: each way's silence (the longest gap between static
answers from the signal until the restart has resumed, plus half a
second), the configtest's own time, and the ratio of the medians.
"""
import argparse
import datetime
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench                                     # noqa: E402
import scale                                     # noqa: E402

RESUMED = "resuming normal operations"


def bad_bytes(size, mark):
    """The review's file of shape problems, `size` bytes, marked so that
    no two calls give the same bytes."""
    el = b'{"title":"%s"}' % (b"x" * 32 + b"%08d" % mark)
    n = max(1, (size - 12) // (len(el) + 1))
    return b'{"skills":[' + b",".join([el] * n) + b"]}"


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.rename(tmp, path)


def log_text(srv):
    with open(os.path.join(srv.root, "logs", "error.log"),
              errors="replace") as f:
        return f.read()


def restart(srv, timeout=120):
    """SIGUSR1 to the parent, beside a poller of the static file; the
    static site's longest silence until the restart resumed (+0.5 s)."""
    before = log_text(srv).count(RESUMED)
    poller = scale.Poller(srv.port, 30)
    poller.start()
    scale.wait_until(lambda: len(poller.ok) >= 5, 30, what="static answers")
    time.sleep(0.3)
    t = time.monotonic()
    os.kill(srv.parent_pid(), signal.SIGUSR1)
    scale.wait_until(lambda: log_text(srv).count(RESUMED) > before, timeout,
                     step=0.05, what="the restart")
    time.sleep(0.5)
    poller.stop()
    return poller.silence(t - 0.3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="32M",
                    help="the bad file's size (K or M suffix; 32M)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=None, help="also write the report here")
    args = ap.parse_args()
    size = int(args.size[:-1]) << (20 if args.size[-1] in "Mm" else 10) \
        if args.size[-1] in "KkMm" else int(args.size)
    work = tempfile.mkdtemp(prefix="mod_profile-bad-", dir="/var/tmp")
    os.chmod(work, 0o755)
    root = os.path.join(work, "srv")
    os.makedirs(root)
    data = os.path.join(work, "profile.json")
    with open(bench.SAMPLE, "rb") as f:
        good = f.read()
    write(data, good)
    srv = scale.ScaleServer(root, (
        "LoadModule profile_module %s\n"
        "LogLevel warn profile:info\n"
        "ProfileCompiledDir \"%s\"\n"
        "<Location /api/v1>\n    Require all granted\n"
        "    SetHandler profile\n    ProfileData \"%s\"\n</Location>\n")
        % (bench.MODULE, os.path.join(root, "compiled"), data))
    static = os.path.join(root, "htdocs", scale.STATIC.lstrip("/"))
    with open(static, "wb") as f:
        f.write(scale.STATIC_BODY)
    os.chmod(static, 0o644)
    rows, mark = [], 0
    try:
        srv.run("-k", "start", timeout=60)
        scale.wait_until(lambda: scale.get(srv.port, scale.STATIC, 2)
                         is not None, 60, what="the start")
        time.sleep(2)
        for r in range(args.rounds):
            row = {}
            for way in ("signal", "configtest"):
                mark += 1
                write(data, bad_bytes(size, mark))
                if way == "configtest":
                    t = time.monotonic()
                    srv.run("-t", timeout=300)
                    row["configtest_s"] = time.monotonic() - t
                row[way] = restart(srv)
                write(data, good)
                restart(srv)
            rows.append(row)
            print("round %d: signal %.3f s, configtest first %.3f s "
                  "(configtest %.2f s)" % (r + 1, row["signal"],
                                           row["configtest"],
                                           row["configtest_s"]),
                  file=sys.stderr)
        text = log_text(srv)
    finally:
        srv.stop()
        srv.kill_all()
        shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(r[k] for r in rows)
           for k in ("signal", "configtest", "configtest_s")}
    judged = text.count("found bad, not read again")
    lines = [
        "## A graceful onto a bad data file beside a static site",
        "",
        "Run %s on %s." % (datetime.datetime.now().strftime(
            "%Y-%m-%d %H:%M"), bench.machine_line()),
        "",
        "`bench/bad_graceful.py --size %s --rounds %d`: the review's file "
        "of shape problems (%d bytes), the static site's longest silence "
        "from SIGUSR1 until the restart resumed (+0.5 s), event MPM." % (
            args.size, args.rounds, len(bad_bytes(size, 0))),
        "",
        "| round | signal only | configtest first | configtest's own time |",
        "|---|---|---|---|",
    ]
    for i, r in enumerate(rows):
        lines.append("| %d | %.3f s | %.3f s | %.2f s |" % (
            i + 1, r["signal"], r["configtest"], r["configtest_s"]))
    lines += [
        "| median | %.3f s | %.3f s | %.2f s |" % (
            med["signal"], med["configtest"], med["configtest_s"]),
        "",
        "Configtest first / signal only: %.2f; restarts that found a "
        "verdict: %d of %d." % (med["configtest"] / med["signal"]
                                if med["signal"] else 0.0, judged,
                                len(rows)),
        "",
    ]
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    return 0 if judged == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
