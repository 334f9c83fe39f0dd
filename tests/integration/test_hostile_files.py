# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 (revised 2026-11-26): refusing a file is bounded as
loading one.  For any data file, valid or not, the time to load or refuse
it grows linearly with its size and the peak memory stays within 16 times
its size plus 8 MB; only a regular file is read, and nothing else ever
blocks.  Issue 25, deliverable 6 (the review of 2026-11-26, D1, D2, D7).

The files come from hostile_files.py (every kind at any size).

test_check_cost_is_linear, test_configtest_cost_is_linear: `profilectl
check` and `apache2 -t` on each kind at SMALL and BIG bytes, each run in
a fresh process measured with os.wait4() (its own CPU time, user + system,
and its own peak RSS): the CPU time of the big file, less that of a run on
the sample (the process's fixed cost), is at most SLOPE times the size
ratio times the small file's (at least CPU_FLOOR: below it the figure is
noise), and at most NS_PER_BYTE nanoseconds per byte; the peak RSS is at
most the sample's run's plus 16 times the size plus 8 MB.  A run still
going after its time limit is killed and fails.

test_graceful_onto_bad_file_beside_static_site: one server holds the API
(a valid GRACEFUL_SIZE file) and a static file, which a poller thread
requests every 20 ms.  For each bad kind, a graceful (SIGUSR1) onto a
different valid file of the same size, then one onto the bad file: the
static file's longest silence over the bad file is at most SILENCE_FACTOR
times that over the valid one plus SILENCE_SLACK seconds (the noise of a
shared 2-core machine: both are well under a second when the refusal is
linear); the API serves the last good data (the valid file's ETag); the
error log names the file; the parent's peak (VmHWM, reset through
/proc/PID/clear_refs before the graceful) grows by at most 16 times the
size plus 8 MB over its VmRSS before, and its VmRSS afterwards is within
8 MB of that.  A parent that grows past twice that bound, or does not
resume within its time limit, is killed and the test fails.

test_nonregular_file_*: a FIFO, a link to /dev/zero, a directory and a
link to a FIFO at the data path: `apache2 -t` and `profilectl check`
return within NONREGULAR_TIMEOUT seconds with the refusal, and a graceful
leaves the static file answering and the API on its last good data.
"""
import os
import re
import signal
import subprocess
import threading
import time

import pytest

import hostile_files as hf
import httpd_harness as h
import proc_util as pu

# Under the sanitized build httpd (and profilectl) run with the ASan
# runtime: memory figures are meaningless there and times several times
# longer.  The refusals and the linearity are checked there, the memory
# figures only in the plain build.
SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))

PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
KB = 1024
MB = 1024 * KB
SMALL = 256 * KB
BIG = 2 * MB
GRACEFUL_SIZE = 4 * MB          # the acceptance's "up to 4 MB"
NONREGULAR_DATA_SIZE = 256 * KB

SLOPE = 3                       # allowed: 3x the size ratio (quadratic: 8x)
# s of CPU below which a figure is noise.  Under the sanitizers it also
# holds a fixed cost the plain build does not have: above 256 KB the
# loader starts its finishing threads (profile_finish.c), and starting
# them under ASan costs about 0.1 s of CPU by itself (`apache2 -t` on
# the valid kind: 0.114 s at 256 KB, 0.212 s at 260 KB, 0.377 s at
# 512 KB; the plain build 0.058, 0.051, 0.101 s), so the big file's
# 1.0-1.3 s of CPU there came within 3 % of the plain floor's allowance
# (3 x 8 x 0.05 s).  A cost that grows with the square of the size still
# fails: 0.05 s at 256 KB makes 3.2 s at 2 MB, over 3 x 8 x 0.1 s.
CPU_FLOOR = 0.1 if SANITIZED else 0.05
NS_PER_BYTE = 1000 * (5 if SANITIZED else 1)
SILENCE_FACTOR = 2
# A poll that meets the change of generation (a connection the old
# children no longer serve) can go unanswered until its 1 s timeout:
# 1.15 s was seen over a FIFO refused at once, in both of two pairs in the
# sanitized build, against 0.3 s over a valid load that happened to miss
# it; a graceful by hand onto an unchanged file, a FIFO and a valid file
# was silent 0.05 to 0.09 s each.  So the allowance is that timeout more
# than the noise: a refusal that costs seconds (the review's 27 s) still
# fails.
SILENCE_SLACK = 1.5             # s
NONREGULAR_TIMEOUT = 5          # s
RSS_RETURN = 8 * MB             # D7: the parent's RSS after a refusal
REFUSAL = re.compile(r"not a regular file")


def bound(size):
    """CONTRACT §9: the peak's growth for a file of `size` bytes."""
    return 16 * size + 8 * MB


def _dir(workdir, name):
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    return d


@pytest.fixture(scope="module")
def files(workdir):
    """files(kind, size) -> the path of that file, generated once."""
    d = _dir(workdir, "hostile-files")
    made = {}

    def get(kind, size):
        if (kind, size) not in made:
            made[kind, size] = hf.write(kind, size, os.path.join(
                d, "%s-%d.json" % (kind, size)))
        return made[kind, size]
    return get


# ------------------------------------------------------ measured runs
def measured(argv, limit, env=None):
    """hostile_files.measured(), its output searched for sanitizer
    reports."""
    r = hf.measured(argv, limit, env)
    h.note_sanitizer_output(r.out)
    h.note_sanitizer_output(r.err)
    return r


def time_limit(size):
    """Wall-clock seconds a run on `size` bytes may take before it is
    killed: three times the CPU time allowed, plus start-up."""
    return 3 * NS_PER_BYTE * size / 1e9 + 5


def check_run(path, size):
    return measured([PROFILECTL, "check", path], time_limit(size))


def configtest_run(server, size):
    return measured([h.HTTPD, "-d", server.root, "-f", server.conf, "-t"],
                    time_limit(size), env=h.httpd_env())


def assert_linear(kind, runs, base):
    """runs: {size: Run}, SMALL and BIG (a run killed at SMALL stands for
    both); base: the same command on the sample."""
    for size, r in sorted(runs.items()):
        assert not r.killed, (
            "%s at %d bytes still running after %.0f s (%.1f s CPU): more "
            "than %d ns/byte" % (kind, size, r.wall, r.cpu, NS_PER_BYTE))
    small, big = runs[SMALL], runs[BIG]
    for size, r in sorted(runs.items()):
        if not SANITIZED:
            assert r.maxrss - base.maxrss <= bound(size), (
                "%s at %d bytes: peak RSS %.1f MB, %.1f MB over the sample's "
                "run; bound 16 x size + 8 MB = %.1f MB" % (
                    kind, size, r.maxrss / MB, (r.maxrss - base.maxrss) / MB,
                    bound(size) / MB))
    net_small = max(small.cpu - base.cpu, 0.0)
    net_big = max(big.cpu - base.cpu, 0.0)
    ratio = BIG / SMALL
    allowed = SLOPE * ratio * max(net_small, CPU_FLOOR)
    assert net_big <= allowed, (
        "%s: %.3f s CPU at %d bytes, %.3f s at %d: more than %d x the size "
        "ratio %.0f (not linear)" % (kind, net_big, BIG, net_small, SMALL,
                                     SLOPE, ratio))
    assert net_big * 1e9 / BIG <= NS_PER_BYTE, (
        "%s: %.0f ns of CPU per byte at %d bytes, more than %d" % (
            kind, net_big * 1e9 / BIG, BIG, NS_PER_BYTE))


def _print(tool, kind, runs, base):
    for size, r in sorted(runs.items()):
        print("\n%s %s %d bytes: %.3f s CPU (%.0f ns/byte net), peak %.1f MB"
              " (%.2f x size over the sample's %.1f MB)" % (
                  tool, kind, size, r.cpu,
                  max(r.cpu - base.cpu, 0) * 1e9 / size, r.maxrss / MB,
                  (r.maxrss - base.maxrss) / size, base.maxrss / MB))


@pytest.fixture(scope="module")
def check_base():
    r = check_run(h.SAMPLE_DATA, 0)
    assert r.rc == 0, r.out + r.err
    return r


@pytest.mark.parametrize("kind", hf.KINDS)
def test_check_cost_is_linear(files, check_base, kind):
    runs = {}
    for size in (SMALL, BIG):
        path = files(kind, size)
        r = runs[size] = check_run(path, size)
        if r.killed:
            break
        valid = kind in hf.VALID_KINDS
        # 0: no problem; 1: data problems (D8: the memory estimate's
        # refusal too).
        assert r.rc == (0 if valid else 1), (r, r.out[-2000:], r.err)
        if not valid:
            assert path in r.out, r.out[-2000:]
    _print("profilectl check", kind, runs, check_base)
    assert_linear(kind, runs, check_base)


@pytest.fixture(scope="module")
def configtest_server(make_httpd):
    """A configuration whose data file configtest_of() sets."""
    server = make_httpd("hostile-configtest", h.location("/api/v1",
                                                         h.SAMPLE_DATA))
    return server


def configtest_of(server, path, size):
    server.write_conf(h.location("/api/v1", path))
    return configtest_run(server, size)


@pytest.fixture(scope="module")
def configtest_base(configtest_server):
    r = configtest_of(configtest_server, h.SAMPLE_DATA, 0)
    assert r.rc == 0 and "Syntax OK" in r.err, r.err
    return r


@pytest.mark.parametrize("kind", hf.KINDS)
def test_configtest_cost_is_linear(files, configtest_server, configtest_base,
                                   kind):
    runs = {}
    for size in (SMALL, BIG):
        path = files(kind, size)
        r = runs[size] = configtest_of(configtest_server, path, size)
        if r.killed:
            break
        # ProfileBadData keep: a warning naming the file, and Syntax OK.
        assert r.rc == 0 and "Syntax OK" in r.err, (r, r.err[-2000:])
        if kind in hf.VALID_KINDS:
            assert "PROFILE" not in r.err, r.err[-2000:]
        else:
            assert path in r.err, r.err[-2000:]
    _print("apache2 -t", kind, runs, configtest_base)
    assert_linear(kind, runs, configtest_base)


# ------------------------------------------ a server beside a static site
STATIC = b"a static site beside the API\n" * 64


def _status_kib(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError("no %s for %d" % (field, pid))


def _reset_hwm(pid):
    """Resets the process's VmHWM to its VmRSS (Linux >= 4.0); False when
    not allowed."""
    try:
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Poller(threading.Thread):
    """Requests the static file every 20 ms (1 s timeout) and records when
    each correct answer arrived."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.ok = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            t = time.monotonic()
            try:
                r = h.request(self.port, "GET", "/static.txt", timeout=1)
                if r.status == 200 and r.body == STATIC:
                    self.ok.append(time.monotonic())
            except (OSError, AssertionError, ValueError):
                pass
            self.halt.wait(max(0.0, 0.02 - (time.monotonic() - t)))

    def longest_silence(self):
        return max((b - a for a, b in zip(self.ok, self.ok[1:])),
                   default=float("inf"))


class Beside:
    """A server holding the API, whose data file is `data`, and a static
    file; reloads measured as the module docstring says."""

    def __init__(self, make_httpd, workdir, name, size):
        self.size = size
        d = _dir(workdir, name)
        self.data = os.path.join(d, "profile.json")
        self.valid = [os.path.join(d, "valid-%d.json" % v) for v in (0, 1, 2)]
        for v, path in enumerate(self.valid):
            with open(path, "wb") as f:
                f.write(hf.valid(size, variant=v))
            os.chmod(path, 0o644)
        self.server = make_httpd(name, "")
        self.server.write_conf(
            '<Directory "%s/htdocs">\n    Require all granted\n'
            '</Directory>\n' % self.server.root
            + h.location("/api/v1", self.data))
        with open(os.path.join(self.server.root, "htdocs", "static.txt"),
                  "wb") as f:
            f.write(STATIC)
        self.loaded = None          # the variant of the last good data
        self.etag = None

    def _put_valid(self, variant):
        tmp = self.data + ".tmp"
        with open(self.valid[variant], "rb") as f, open(tmp, "wb") as g:
            g.write(f.read())
        os.chmod(tmp, 0o644)
        if os.path.isdir(self.data) and not os.path.islink(self.data):
            os.rmdir(self.data)
        os.replace(tmp, self.data)

    def ensure_up(self):
        """Running, with a valid file loaded; started anew after a test
        that had to kill it."""
        s = self.server
        if s.running() and s.answers():
            return
        self.kill()
        self._put_valid(0)
        s.start_checked()
        r = s.get("/api/v1/experience", timeout=30)
        assert r.status == 200, r
        self.loaded, self.etag = 0, r.etag

    def kill(self):
        """Kills the server's process group (a parent stuck in a refusal
        answers no signal but this one)."""
        pid = self.server.pid
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            h.wait_for(lambda: not os.path.exists("/proc/%d" % pid)
                       or _status_kib_safe(pid) is None, 10)
        self.server.pid = None

    def graceful(self, install, size, limit):
        """install() changes the data path; then SIGUSR1, measured.
        Returns a dict of the figures and the error-log text."""
        s = self.server
        pid = s.pid
        install()
        rss_before = _status_kib(pid, "VmRSS") * KB
        hwm_reset = _reset_hwm(pid)
        old = set(pu.children(pid))
        start = pu.log_size(s)
        poller = Poller(s.port)
        poller.start()
        try:
            assert h.wait_for(lambda: len(poller.ok) >= 2, 10), \
                "the static file does not answer before the graceful"
            t0 = time.monotonic()
            os.kill(pid, signal.SIGUSR1)
            done = False
            blown = False
            peak = 0
            while time.monotonic() - t0 < limit:
                rss = _status_kib(pid, "VmRSS") * KB
                peak = max(peak, rss)
                if not SANITIZED and rss - rss_before > 2 * bound(size):
                    blown = True
                    break
                text = pu.log_since(s, start)
                kids = set(pu.children(pid))
                if pu.RESUMING.search(text) and kids and not kids & old \
                        and s.answers():
                    done = True
                    break
                time.sleep(0.02)
            wall = time.monotonic() - t0
            if done:
                # Past the last gap: the new children answer.
                h.wait_for(lambda: poller.ok and poller.ok[-1] > t0 + wall,
                           5)
                time.sleep(0.1)
        finally:
            poller.halt.set()
            poller.join()
        text = pu.log_since(s, start)
        if not done:
            hwm = _status_kib_safe(pid, "VmHWM")
            self.kill()
            raise AssertionError(
                "%s: VmRSS %.1f MB before, %.1f MB at most seen, VmHWM %s; "
                "killed. Log:\n%s" % (
                    "after %.1f s the parent had grown past twice the bound "
                    "(%.1f MB)" % (wall, 2 * bound(size) / MB) if blown else
                    "the parent did not resume within %.0f s" % limit,
                    rss_before / MB, peak / MB,
                    "%.1f MB" % (hwm * KB / MB) if hwm else "?",
                    text[-3000:]))
        pu.assert_no_crash(s, text)
        return {"silence": poller.longest_silence(), "wall": wall,
                "rss_before": rss_before, "hwm_reset": hwm_reset,
                "hwm": _status_kib(pid, "VmHWM") * KB,
                "rss_after": _status_kib(pid, "VmRSS") * KB, "log": text}

    def graceful_valid(self, limit=60):
        """A graceful onto the valid file that differs from the loaded
        one; checks that it loaded (a new ETag)."""
        variant = 1 if self.loaded != 1 else 2
        m = self.graceful(lambda: self._put_valid(variant), self.size, limit)
        r = self.server.get("/api/v1/experience", timeout=30)
        assert r.status == 200 and r.etag != self.etag, (r, m["log"])
        self.loaded, self.etag = variant, r.etag
        return m


def _status_kib_safe(pid, field="VmRSS"):
    try:
        return _status_kib(pid, field)
    except (OSError, AssertionError):
        return None


def _report(what, m, size):
    print("\n%s: static site silent %.3f s at most; parent VmRSS %.1f MB "
          "before, VmHWM %.1f MB (+%.1f MB, bound %.1f MB), VmRSS %.1f MB "
          "after; %.2f s to resume" % (
              what, m["silence"], m["rss_before"] / MB, m["hwm"] / MB,
              (m["hwm"] - m["rss_before"]) / MB, bound(size) / MB,
              m["rss_after"] / MB, m["wall"]))


def assert_refused_beside(beside, m, valid, size, path_named):
    """After a graceful onto a bad file (m) that came after one onto a
    valid file (valid): every promise of the module docstring."""
    s = beside.server
    assert silences_compare(m, valid), (
        "the static site was silent %.2f s over the bad file, %.2f s over "
        "the valid one of the same size" % (m["silence"], valid["silence"]))
    r = s.get("/api/v1/experience", timeout=30)
    assert (r.status, r.etag) == (200, beside.etag), (r, m["log"][-3000:])
    assert s.get("/static.txt").body == STATIC
    assert "PROFILE0003" in m["log"] and path_named in m["log"], \
        m["log"][-3000:]
    if SANITIZED:
        return
    growth = m["hwm"] - m["rss_before"]
    if not m["hwm_reset"]:
        # No clear_refs: VmHWM is the process's peak since it started,
        # the valid loads included; only the bound itself can be checked.
        growth = max(0, m["hwm"] - m["rss_before"])
    assert growth <= bound(size), (
        "the parent's peak grew by %.1f MB refusing a %d-byte file; bound "
        "%.1f MB" % (growth / MB, size, bound(size) / MB))
    assert m["rss_after"] - m["rss_before"] <= RSS_RETURN, (
        "the parent's VmRSS went from %.1f MB to %.1f MB and stayed (D7)" % (
            m["rss_before"] / MB, m["rss_after"] / MB))


def silences_compare(m, valid):
    return m["silence"] <= SILENCE_FACTOR * valid["silence"] + SILENCE_SLACK


def measured_pair(beside, install, size, limit=None):
    """A graceful onto a different valid file, then one onto the bad
    file install() puts in place: (valid, bad) figures.  When the
    static site's silence over the bad file is over its allowance, the
    pair is measured once more and the second pair judged: a machine's
    momentary load lengthens one silence, a refusal that costs more than
    a load lengthens both."""
    for attempt in (1, 2):
        valid = beside.graceful_valid()
        m = beside.graceful(install, size,
                            limit(valid) if limit else restart_limit(valid))
        if silences_compare(m, valid):
            break
        print("\nsilence %.2f s over the bad file, %.2f s over the valid "
              "one (attempt %d)" % (m["silence"], valid["silence"],
                                    attempt))
    return valid, m


def restart_limit(valid):
    """How long a refusal may take before the parent is killed: far more
    than the silence the test allows."""
    return max(10.0, 4 * valid["wall"] + 5)


@pytest.fixture(scope="module")
def beside(make_httpd, workdir):
    b = Beside(make_httpd, workdir, "hostile-graceful", GRACEFUL_SIZE)
    yield b
    b.kill()


@pytest.mark.allow_log(r"PROFILE0003")
@pytest.mark.parametrize("kind", hf.BAD_KINDS)
def test_graceful_onto_bad_file_beside_static_site(beside, files, kind):
    size = GRACEFUL_SIZE
    bad = files(kind, size)
    beside.ensure_up()

    def install():
        with open(bad, "rb") as f, open(beside.data + ".tmp", "wb") as g:
            g.write(f.read())
        os.chmod(beside.data + ".tmp", 0o644)
        os.replace(beside.data + ".tmp", beside.data)
    valid, m = measured_pair(beside, install, size)
    _report("graceful onto a valid %d-byte file" % size, valid, size)
    if not SANITIZED and valid["hwm_reset"]:
        assert valid["hwm"] - valid["rss_before"] <= bound(size), valid
    _report("graceful onto %s, %d bytes" % (kind, size), m, size)
    assert_refused_beside(beside, m, valid, size, beside.data)


def test_graceful_onto_escaped_valid_file_beside_static_site(beside, files):
    """A valid file of long escaped strings loads like the realistic one:
    no longer a silence, within the bound."""
    size = GRACEFUL_SIZE
    path = files("escapes-valid", size)
    beside.ensure_up()
    valid = beside.graceful_valid()
    _report("graceful onto a valid %d-byte file" % size, valid, size)

    def install():
        with open(path, "rb") as f, open(beside.data + ".tmp", "wb") as g:
            g.write(f.read())
        os.chmod(beside.data + ".tmp", 0o644)
        os.replace(beside.data + ".tmp", beside.data)
    m = beside.graceful(install, size, restart_limit(valid))
    _report("graceful onto escapes-valid, %d bytes" % size, m, size)
    r = beside.server.get("/api/v1/profile", timeout=30)
    assert r.status == 200 and "\u00e9\n" in r.json()["summary"], r
    beside.loaded, beside.etag = None, None
    assert m["silence"] <= SILENCE_FACTOR * valid["silence"] + SILENCE_SLACK, (
        m["silence"], valid["silence"])
    if not SANITIZED and m["hwm_reset"]:
        assert m["hwm"] - m["rss_before"] <= bound(size), m


# ------------------------------------------------------ non-regular files
@pytest.mark.parametrize("kind", hf.NONREGULAR)
def test_nonregular_file_configtest_returns_at_once(configtest_server,
                                                    workdir, kind):
    d = _dir(workdir, "hostile-nonregular-t")
    path = hf.make_nonregular(kind, os.path.join(d, kind + ".json"))
    configtest_server.write_conf(h.location("/api/v1", path))
    try:
        cp = configtest_server.ctl("-t", timeout=NONREGULAR_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("apache2 -t with a %s at the data path did not "
                             "return within %d s" % (kind,
                                                     NONREGULAR_TIMEOUT))
    assert cp.returncode == 0 and "Syntax OK" in cp.stderr, cp.stderr
    assert path in cp.stderr and REFUSAL.search(cp.stderr), cp.stderr

    configtest_server.write_conf(h.REFUSE + h.location("/api/v1", path))
    try:
        cp = configtest_server.ctl("-t", timeout=NONREGULAR_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("apache2 -t (refuse) with a %s did not return "
                             "within %d s" % (kind, NONREGULAR_TIMEOUT))
    assert cp.returncode != 0 and REFUSAL.search(cp.stderr), cp.stderr


@pytest.mark.parametrize("kind", hf.NONREGULAR)
def test_nonregular_file_profilectl_check_returns_at_once(workdir, kind):
    d = _dir(workdir, "hostile-nonregular-check")
    path = hf.make_nonregular(kind, os.path.join(d, kind + ".json"))
    r = measured([PROFILECTL, "check", path], NONREGULAR_TIMEOUT)
    assert not r.killed, "profilectl check %s (%s) did not return within " \
        "%d s" % (path, kind, NONREGULAR_TIMEOUT)
    assert r.rc != 0 and path in r.out + r.err \
        and REFUSAL.search(r.out + r.err), (r, r.out, r.err)


@pytest.fixture(scope="module")
def beside_small(make_httpd, workdir):
    b = Beside(make_httpd, workdir, "hostile-nonregular",
               NONREGULAR_DATA_SIZE)
    yield b
    b.kill()


@pytest.mark.allow_log(r"PROFILE0003")
@pytest.mark.parametrize("kind", hf.NONREGULAR)
def test_nonregular_file_graceful_keeps_every_site(beside_small, kind):
    b = beside_small
    b.ensure_up()
    valid, m = measured_pair(
        b, lambda: hf.make_nonregular(kind, b.data), b.size,
        lambda valid: NONREGULAR_TIMEOUT + valid["wall"])
    _report("graceful onto a %s" % kind, m, b.size)
    assert REFUSAL.search(m["log"]), m["log"][-3000:]
    assert_refused_beside(b, m, valid, b.size, b.data)
