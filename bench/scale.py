#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mod_profile benchmark, the scale section (issue 35, deliverable 5):
one server publishing N people's profiles, at N = 1, 1,000 and 10,000,
printed as ratios to N = 1.

    bench/scale.py [--scale-profiles 1,1000,10000] [--quick]
                   [--pages] [--rounds R] [--seconds S]
                   [--connections C] [--step-timeout S] [--out FILE]

Needs what bench/bench.py needs (the built module, Debian's apache2,
wrk, taskset); it shares bench.py's server, wrk and report helpers.
`make bench` runs it after bench.py as its own section (appended to
bench-results.md; SCALE_ARGS passes options, BENCH_SCALE=no skips it);
`make bench-scale` runs it alone (bench-scale-results.md).

Per N, one server (event MPM with Debian's mpm_event.conf settings,
Debian's two children, not pinned) from one generated configuration:
N copies of data/profile.json, each its own file made distinct by its
name ("Person 00042"), one `<Location /p/NNNNN/api/v1>` (SetHandler
profile) per file, as issue 35 measured, and with --pages its page
`<Location /p/NNNNN/page>` too (SetHandler profile-page, the same file
named again; about four times the start-up cost and twice the memory
today, so not the default), beside one static file in the DocumentRoot
(the "static site").
Measured, in this order:

  configtest   `httpd -t` on the configuration (validation only);
  cold start   from `httpd -k start` until the last profile's API and page
               and the static file answer 200, after the configtest
               above compiled every file (ProfileCompiledDir, in the
               run's directory);
  memory       parent RSS, one child's RSS, the children's PSS summed
               (/proc/PID/smaps_rollup), beside the files' size on disk;
  graceful     three ways: (a) one file (the middle one) rewritten, then
               `httpd -k graceful`; (b) every file rewritten, then
               `-k graceful`; (c) every file rewritten, then `httpd -t`
               and then `-k graceful` (what Debian's `apache2ctl
               graceful` does).  A thread requests the static file in a
               tight loop (a new connection per request, no timeout short
               of the step's, so a request queued in the listen backlog
               during the reload is answered when the new generation
               starts) from 0.3 s before the command until the changed
               profiles answer with their new name (the first, the
               middle and the last profile, and every N/20th, for (b) and
               (c)) and the static file answered again after that.  The
               silence is the longest gap between two successive answers
               of the static file (completion times);
  req/s        wrk (bench.py's settings: one thread, C connections, S
               seconds, median of R rounds; server pinned to CPU 0, wrk
               to CPU 1) on /p/NNNNN/api/v1/profile of the LAST profile
               declared (the worst case for httpd's <Location> walk);
  first start  the server stopped and its compiled forms removed, the
               cold start again: every file rendered at start-up.

Every step has a time limit (--step-timeout); servers are stopped and the
work directory removed whatever happens, and the run checks that none of
its httpd processes is left.
"""
import argparse
import datetime
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench                                     # noqa: E402
from bench import hh, log                        # noqa: E402

SAMPLE_NAME = '"name": "Lucía Álvarez Romero"'.encode("utf-8")
STATIC = "/static.html"
STATIC_BODY = b"<!doctype html><title>static</title><p>The static site.\n"
DEFAULT_SIZES = "1,1000,10000"
QUICK_SIZES = "1,50"


def pnum(i):
    return "%05d" % i


# "sections": one <Location> per profile (issue 35's measurement);
# "one": one <Location /p> (and /pg) whose ProfileData names them all
# with a '*' (CONTRACT §1, revised 2026-11-28).  Set by main().
LAYOUT = ["sections"]


def api_base(i):
    if LAYOUT[0] == "one":
        return "/p/%s" % pnum(i)
    return "/p/%s%s" % (pnum(i), bench.BASE)


def page_base(i):
    if LAYOUT[0] == "one":
        return "/pg/%s" % pnum(i)
    return "/p/%s/page" % pnum(i)


def person(i, rev):
    """The name profile i holds at revision rev (0: as generated)."""
    return "Person %s%s" % (pnum(i), " rev %d" % rev if rev else "")


class Sample:
    def __init__(self):
        with open(bench.SAMPLE, "rb") as f:
            self.raw = f.read()
        if self.raw.count(SAMPLE_NAME) != 1:
            raise SystemExit("scale: the sample's profile name is not "
                             "where the bench expects it")

    def write(self, path, i, rev):
        data = self.raw.replace(SAMPLE_NAME, ('"name": "%s"' % person(
            i, rev)).encode("utf-8"))
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)           # as a deploy does: a new file


class ScaleServer(bench.Server):
    """bench.Server with time limits of our choosing and starts that do
    not wait inside `httpd -k start`."""

    def __init__(self, root, body):
        super().__init__(root, "scale", body, bench.MPM_DEBIAN, pin=False)

    def argv(self, *args):
        return [bench.HTTPD, "-d", self.root, "-f", self.conf] + list(args)

    def run(self, *args, timeout):
        return subprocess.run(self.argv(*args), capture_output=True,
                              text=True, timeout=timeout)

    def stop(self):
        """What `httpd -k stop` sends (SIGTERM to the parent), without
        reading the configuration again; waits for every process."""
        pid = self.parent_pid()
        # Still loading at start-up, the parent has written no pid file
        # yet: then every process of ours (named by our configuration).
        for p in [pid] if pid else self.leftovers():
            try:
                os.kill(p, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + 60
        while self.leftovers() and time.monotonic() < deadline:
            time.sleep(0.1)

    def child_pids(self):
        parent = self.parent_pid()
        return [p for p in self.pids() if p != parent]

    def kill_all(self):
        """Our processes only: the parent from our pid file, its children,
        and any process whose command line names our configuration."""
        pids = set(self.pids())
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    if self.conf.encode() in f.read():
                        pids.add(int(entry))
            except OSError:
                pass
        pids.discard(os.getpid())
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return sorted(pids)

    def leftovers(self):
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    cmd = f.read()
                with open("/proc/%s/stat" % entry) as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if self.conf.encode() in cmd and state != "Z":
                out.append(int(entry))
        return out


def get(port, target, timeout, headers=None):
    """(status, body) or None on a connection error."""
    try:
        r = hh.request(port, "GET", target, headers, timeout=timeout)
        return r.status, r.body
    except (OSError, AssertionError):
        return None


def wait_until(pred, timeout, step=0.02, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        if pred():
            return time.monotonic()
        if time.monotonic() > deadline:
            raise TimeoutError("scale: %s not reached in %.0f s"
                               % (what, timeout))
        time.sleep(step)


class Poller(threading.Thread):
    """Requests the static file in a tight loop, one connection each,
    recording the completion time of every 200."""

    def __init__(self, port, timeout):
        super().__init__(daemon=True)
        self.port = port
        self.timeout = timeout
        self.ok = []
        self.failed = 0
        self.stopping = threading.Event()

    def run(self):
        req = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Connection: close\r\n\r\n" % (STATIC, self.port)).encode()
        while not self.stopping.is_set():
            try:
                raw = hh.raw_exchange(self.port, req, self.timeout)
                if raw.startswith(b"HTTP/1.1 200") and raw.endswith(
                        STATIC_BODY):
                    self.ok.append(time.monotonic())
                else:
                    self.failed += 1
            except (OSError, AssertionError):
                self.failed += 1
            time.sleep(0.001)

    def last_ok(self):
        return self.ok[-1] if self.ok else 0.0

    def stop(self):
        self.stopping.set()
        self.join(self.timeout + 5)

    def silence(self, since):
        """The longest gap between successive answers after `since`
        (the first answer at or before it counts as the gap's start)."""
        times = [t for t in self.ok if t >= since]
        before = [t for t in self.ok if t < since]
        if before:
            times.insert(0, before[-1])
        if len(times) < 2:
            return None
        return max(b - a for a, b in zip(times, times[1:]))


def name_of(port, i, timeout):
    r = get(port, api_base(i) + "/profile", timeout,
            {"Accept-Language": "en"})
    if not r or r[0] != 200:
        return None
    try:
        import json
        return json.loads(r[1].decode("utf-8")).get("name")
    except ValueError:
        return None


def setup(work, n, pages, sample):
    root = os.path.join(work, "N%d" % n)
    data = os.path.join(root, "data")
    os.makedirs(data)
    os.chmod(data, 0o755)
    # Compiled forms (issue 35) inside the run's directory.
    body = ["LoadModule profile_module %s\n" % bench.MODULE,
            "ProfileCompiledDir \"%s\"\n" % os.path.join(root, "compiled")]
    paths = []
    if LAYOUT[0] == "one":
        body.append("<Location /p>\n    Require all granted\n"
                    "    SetHandler profile\n    ProfileData \"%s/*.json\"\n"
                    "</Location>\n" % data)
        if pages:
            body.append("<Location /pg>\n    Require all granted\n"
                        "    SetHandler profile-page\n"
                        "    ProfileData \"%s/*.json\"\n</Location>\n"
                        % data)
    for i in range(n):
        path = os.path.join(data, "%s.json" % pnum(i))
        sample.write(path, i, 0)
        paths.append(path)
        if LAYOUT[0] == "one":
            continue
        body.append("<Location %s>\n    Require all granted\n"
                    "    SetHandler profile\n    ProfileData \"%s\"\n"
                    "</Location>\n" % (api_base(i), path))
        if pages:
            body.append("<Location %s>\n    Require all granted\n"
                        "    SetHandler profile-page\n"
                        "    ProfileData \"%s\"\n</Location>\n"
                        % (page_base(i), path))
    srv = ScaleServer(root, "".join(body))
    static = os.path.join(root, "htdocs", STATIC.lstrip("/"))
    with open(static, "wb") as f:
        f.write(STATIC_BODY)
    os.chmod(static, 0o644)
    disk = sum(os.path.getsize(p) for p in paths)
    return srv, paths, disk


def configtest(srv, timeout):
    t0 = time.monotonic()
    cp = srv.run("-t", timeout=timeout)
    took = time.monotonic() - t0
    if cp.returncode != 0:
        raise SystemExit("scale: configtest failed: %s" % cp.stderr[-2000:])
    return took


def cold_start(srv, n, pages, timeout):
    t0 = time.monotonic()
    proc = subprocess.Popen(srv.argv("-k", "start"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    last = n - 1
    targets = [api_base(last) + "/profile", STATIC]
    if pages:
        targets.append(page_base(last) + "/en/")
    for target in targets:
        def answered(target=target):
            left = max(t0 + timeout - time.monotonic(), 1)
            r = get(srv.port, target, left)
            if r is None and proc.poll() not in (None, 0):
                raise SystemExit("scale: httpd -k start failed: %s"
                                 % proc.stdout.read().decode()[-2000:])
            return r is not None and r[0] == 200
        wait_until(answered, t0 + timeout - time.monotonic(),
                   what="answer of %s" % target)
    took = time.monotonic() - t0
    try:
        proc.wait(max(t0 + timeout - time.monotonic(), 1))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return took


def memory(srv):
    """(parent RSS, one child's RSS, children's PSS summed), kB."""
    wait_until(lambda: len(srv.child_pids()) >= 1, 30, what="children")
    time.sleep(1)
    m = srv.rss_kb()
    parent = srv.parent_pid()
    children = [p for p in m if p > 0 and p != parent]
    return (m.get(parent), max(m[p] for p in children) if children else None,
            sum(m.get(-p, 0) for p in children) if children else None)


def graceful(srv, n, sample, paths, kind, rev, timeout):
    """One graceful way (kind a, b, c); returns a dict of figures."""
    if kind == "a":
        changed = [n // 2]
    else:
        changed = sorted({0, n // 2, n - 1} | set(range(0, n,
                                                        max(n // 20, 1))))
    for i in ([n // 2] if kind == "a" else range(n)):
        sample.write(paths[i], i, rev)
    poller = Poller(srv.port, timeout)
    poller.start()
    try:
        wait_until(lambda: len(poller.ok) >= 5, 30, what="static answers")
        time.sleep(0.3)
        t_cmd = time.monotonic()
        test_s = None
        if kind == "c":
            test_s = configtest(srv, timeout)
        # What the parent holds just before the signal: the running
        # stores and what it mapped ahead of the restart since.
        parent = srv.parent_pid()
        before_kb = srv.rss_kb().get(parent) if parent else None
        t_sig = time.monotonic()
        cp = srv.run("-k", "graceful", timeout=timeout)
        cmd_s = time.monotonic() - t_sig
        if cp.returncode != 0:
            raise SystemExit("scale: graceful failed: %s" % cp.stderr)
        left = lambda: max(t_cmd + timeout - time.monotonic(), 1)  # noqa
        for i in changed:
            want = person(i, rev)
            wait_until(lambda i=i, want=want: name_of(
                srv.port, i, left()) == want, left(),
                what="new data of profile %d" % i)
        t_new = time.monotonic()
        wait_until(lambda: poller.last_ok() > t_new, left(),
                   what="static answer after the reload")
        time.sleep(0.2)
    finally:
        poller.stop()
    silence = poller.silence(t_cmd - 0.3)
    return {"silence": silence, "to_new": t_new - t_cmd, "cmd": cmd_s,
            "test": test_s, "failed": poller.failed,
            "parent_before": before_kb}


def rps(srv, n, args):
    """Median req/s of wrk on the last profile's /profile; the server's
    processes pinned to CPU 0 for it (bench.py's arrangement)."""
    for pid in srv.pids():
        subprocess.run(["taskset", "-a", "-p", "-c", bench.SERVER_CPU,
                        str(pid)], capture_output=True)
    sc = bench.Scenario("scale", "/profile", {"Accept-Language": "en"})
    url = api_base(n - 1) + "/profile"
    out = []
    for _ in range(args.rounds):
        r = bench.run_wrk(srv.port, url, sc, args.seconds,
                          args.connections)
        if r["errors"] or r["bad"]:
            log("  wrk: %d socket errors, %d bad statuses"
                % (r["errors"], r["bad"]))
        out.append(r["rps"])
    return statistics.median(out), out


def measure(work, n, args, sample):
    log("scale: %d profiles: writing files and configuration" % n)
    srv, paths, disk = setup(work, n, args.pages, sample)
    res = {"n": n, "disk": disk}
    try:
        log("scale: %d: configtest" % n)
        res["configtest"] = configtest(srv, args.step_timeout)
        log("scale: %d: cold start" % n)
        res["start"] = cold_start(srv, n, args.pages, args.step_timeout)
        res["parent"], res["child"], res["pss"] = memory(srv)
        for kind, rev in (("a", 1), ("b", 2), ("c", 3)):
            log("scale: %d: graceful (%s)" % (n, kind))
            res[kind] = graceful(srv, n, sample, paths, kind, rev,
                                 args.step_timeout)
        log("scale: %d: req/s" % n)
        res["rps"], res["rps_rounds"] = rps(srv, n, args)
        # A start with nothing compiled (a new server, or a reboot that
        # emptied a DefaultRuntimeDir on tmpfs): everything is rendered in
        # the first of httpd's two readings.
        log("scale: %d: first start, nothing compiled" % n)
        srv.stop()
        wait_until(lambda: not srv.leftovers(), 60, what="stop")
        shutil.rmtree(os.path.join(srv.root, "compiled"))
        res["first"] = cold_start(srv, n, args.pages, args.step_timeout)
    finally:
        srv.stop()
        try:
            wait_until(lambda: not srv.leftovers(), 30, what="stop")
        except TimeoutError:
            log("scale: %d: killing what is left: %s"
                % (n, srv.kill_all()))
        left = srv.leftovers()
        if left:
            raise SystemExit("scale: httpd processes left: %s" % left)
        shutil.rmtree(srv.root, ignore_errors=True)
    log("scale: %d: %r" % (n, res))
    return res


# -------------------------------------------------------------- report
COLUMNS = [
    ("configtest", "configtest", lambda r: r["configtest"], "%.2f s"),
    ("start", "cold start (after configtest)", lambda r: r["start"],
     "%.2f s"),
    ("first", "first start, nothing compiled", lambda r: r.get("first"),
     "%.2f s"),
    ("parent", "parent RSS", lambda r: r["parent"] / 1024, "%.0f MB"),
    ("child", "a child's RSS", lambda r: r["child"] / 1024, "%.0f MB"),
    ("pss", "children PSS", lambda r: r["pss"] / 1024, "%.0f MB"),
    ("disk", "files on disk", lambda r: r["disk"] / 2**20, "%.2f MB"),
    ("a", "graceful silence, one file", lambda r: r["a"]["silence"],
     "%.2f s"),
    ("b", "graceful silence, all files", lambda r: r["b"]["silence"],
     "%.2f s"),
    ("c", "graceful silence, all files, configtest first",
     lambda r: r["c"]["silence"], "%.2f s"),
    ("rps", "req/s, last profile", lambda r: r["rps"], "%.0f"),
]


def cell(fmt, v):
    return "-" if v is None else fmt % v


def report_lines(results, args):
    pages = args.pages
    head = ("| profiles | " + " | ".join(c[1] for c in COLUMNS) + " |")
    rule = "|---" * (len(COLUMNS) + 1) + "|"
    out = ["", "## Scale: many profiles on one server (issue 35)%s" % (
        ", one section" if args.layout == "one" else ""), "",
           "Run %s on %s." % (datetime.datetime.now().strftime(
               "%Y-%m-%d %H:%M"), bench.machine_line()), "",
           ("N copies of the sample, each its own file with its own name, "
            + ("one `<Location /p>` whose `ProfileData DIR/*.json` names "
               "them all (each profile's API at `/p/NNNNN`)%s"
               if args.layout == "one" else
               "one `<Location /p/NNNNN/api/v1>` each%s") +
            ", and one static file, "
           "on the event MPM (Debian's mpm_event.conf settings); "
           "`bench/scale.py`; method in docs/performance.md (Scale). "
           "Silence: the longest gap between answers of the static "
           "file, requested in a loop from before the command until the "
           "changed profiles "
           "answer their new data. req/s: wrk, %d connections, median of "
           "%d rounds of %d s on the last profile's `/profile`, server on "
           "CPU %s, wrk on CPU %s.") % (
               (" and `<Location /pg>` for their pages (the same files)"
                if args.layout == "one" else
                " and its page `<Location /p/NNNNN/page>` (the same file)")
               if pages else "", args.connections, args.rounds,
               args.seconds, bench.SERVER_CPU, bench.CLIENT_CPU),
           "", head, rule]
    for r in results:
        out.append("| %d | " % r["n"] + " | ".join(
            cell(c[3], c[2](r)) for c in COLUMNS) + " |")
    base = results[0] if results and results[0]["n"] == 1 else None
    if base:
        out += ["", "Ratios to one profile:", "", head, rule]
        for r in results:
            cells = []
            for c in COLUMNS:
                v, b = c[2](r), c[2](base)
                cells.append("-" if v is None or not b else
                             "%.2f" % (v / b) if v / b < 100 else
                             "%.0f" % (v / b))
            out.append("| %d | " % r["n"] + " | ".join(cells) + " |")
    out += ["", "Graceful details (seconds from the command, or from "
            "`httpd -t` for (c), until the changed profiles answer their "
            "new data; the `-k graceful` command's own time; failed "
            "static requests during the step; the parent's RSS just "
            "before `-k graceful`, holding what it mapped ahead of the "
            "restart):", "",
            "| profiles | way | silence | to new data | `-k graceful` "
            "command | `httpd -t` | failed | parent RSS before the "
            "signal |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        for kind in ("a", "b", "c"):
            g = r[kind]
            kb = g.get("parent_before")
            out.append("| %d | %s | %s | %.2f s | %.2f s | %s | %d | %s |"
                       % (r["n"], kind, cell("%.2f s", g["silence"]),
                          g["to_new"], g["cmd"], cell("%.2f s", g["test"]),
                          g["failed"], cell("%.0f MB", kb / 1024.0
                                            if kb else None)))
    out += ["", "req/s rounds: " + "; ".join(
        "%d: %s" % (r["n"], ", ".join("%.0f" % x for x in r["rps_rounds"]))
        for r in results)]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale-profiles", default=None, metavar="N,N,...",
                    help="profile counts (default %s; --quick: %s)"
                    % (DEFAULT_SIZES, QUICK_SIZES))
    ap.add_argument("--quick", action="store_true",
                    help="a smoke run: %s profiles, 1 wrk round"
                    % QUICK_SIZES)
    ap.add_argument("--pages", action="store_true",
                    help="also each profile's page, its own <Location> "
                    "naming the same file")
    ap.add_argument("--no-pages", action="store_false", dest="pages",
                    help="one <Location> per profile, its API (default)")
    ap.add_argument("--layout", choices=("sections", "one"),
                    default="sections",
                    help="sections (default): one <Location> per profile; "
                    "one: one <Location /p> whose ProfileData names every "
                    "file with a '*'")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--step-timeout", type=float, default=2400,
                    help="seconds any one step may take (default 2400)")
    ap.add_argument("--out", default=None,
                    help="write the section to FILE")
    ap.add_argument("--append", action="store_true",
                    help="append to --out rather than overwrite it")
    args = ap.parse_args()
    LAYOUT[0] = args.layout
    sizes = args.scale_profiles or (QUICK_SIZES if args.quick
                                    else DEFAULT_SIZES)
    sizes = [int(x) for x in sizes.split(",") if x.strip()]
    if not sizes or min(sizes) < 1:
        raise SystemExit("scale: bad --scale-profiles")
    if args.rounds is None:
        args.rounds = 1 if args.quick else 3
    for tool in ("wrk", "taskset"):
        if not shutil.which(tool):
            raise SystemExit("scale: %s not found" % tool)
    if not os.path.exists(bench.MODULE):
        raise SystemExit("scale: module not built: %s" % bench.MODULE)
    sample = Sample()
    work = tempfile.mkdtemp(prefix="mod_profile-scale-")
    os.chmod(work, 0o755)
    results = []
    failed = None
    try:
        for n in sizes:
            try:
                results.append(measure(work, n, args, sample))
            except (TimeoutError, AssertionError, OSError,
                    subprocess.SubprocessError) as e:
                failed = "%d profiles: %s" % (n, e)
                log("scale: " + failed)
                break
    finally:
        if not os.environ.get("KEEP_TMP"):
            shutil.rmtree(work, ignore_errors=True)
    lines = report_lines(results, args) if results else [
        "", "## Scale: many profiles on one server (issue 35)", ""]
    if failed:
        lines += ["", "**Not measured further:** %s" % failed]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "a" if args.append else "w") as f:
            f.write(text)
        log("written to %s" % args.out)
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
