# SPDX-License-Identifier: Apache-2.0
"""crash_triage.py tells httpd's own known restart crashes from ours by the
crashed child's core (docs/testing.md, "Crashed children"): the two stacks
of /work/shared/notes/httpd-event-restart-crash.md and
httpd-worker-restart-abort.md are httpd's; any stack with a mod_profile
frame, any other stack, and a crash without a core fail the test.  The
core is looked for wherever kernel.core_pattern sends it, or the check
says plainly that it cannot read it."""
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

import crash_triage as ct
import httpd_harness as h
import proc_util as pu

SAMPLES = os.path.join(h.TEST_DATA, "crash")


def sample(name):
    with open(os.path.join(SAMPLES, name)) as f:
        return f.read()


EVENT = sample("event-close-worker-sockets.txt")
WORKER = sample("worker-just-die-free.txt")
PREFORK = sample("prefork-exit-in-malloc.txt")
# The event MPM's race in the sanitized build (ASan preloaded, 2026-11-27):
# thread 12 served a request in mod_profile (profile_route_match) when the
# main thread crashed.
EVENT_ASAN = sample("event-close-worker-sockets-asan.txt")


def test_event_close_worker_sockets_stack_is_httpds():
    kind, why = ct.classify(EVENT)
    assert kind == ct.EVENT_CLOSE_WORKER_SOCKETS, why


def test_event_stack_with_symbols_is_httpds():
    text = EVENT
    for off, name in (("1a06c", "close_socket_nonblocking_"),
                      ("1b507", "signal_threads"), ("1bda7", "child_main")):
        text = text.replace(
            "0x00007fbdf4c%s in ?? () from /usr/lib/apache2/modules/"
            "mod_mpm_event.so" % off,
            "0x00007fbdf4c%s in %s (csd=0x7fbdf49cd0b0) at "
            "server/mpm/event/event.c:551" % (off, name))
    assert ct.classify(text)[0] == ct.EVENT_CLOSE_WORKER_SOCKETS


def test_event_crash_beside_a_request_in_mod_profile_is_httpds():
    """A worker thread serving a request in mod_profile is a bystander of
    the main thread's race: the crash is httpd's."""
    kind, why = ct.classify(EVENT_ASAN)
    assert kind == ct.EVENT_CLOSE_WORKER_SOCKETS, why


def test_a_mod_profile_frame_outside_a_request_is_ours():
    # The same thread, not called from httpd's handler: ours.
    text = EVENT_ASAN.replace(" in ap_run_handler ()", " in ?? ()") \
        .replace(" in ap_invoke_handler ()", " in ?? ()")
    assert text != EVENT_ASAN
    kind, why = ct.classify(text)
    assert kind is None and "profile_route_match" in why, why
    # The handler call outside any connection's processing: ours.
    text = EVENT_ASAN.replace(" in ap_run_process_connection ()",
                              " in ?? ()")
    assert text != EVENT_ASAN
    assert ct.classify(text)[0] is None
    # The same frames in the crashing thread: ours.
    text = EVENT_ASAN.replace("[Current thread is 1 ", "[Current thread "
                              "is 12 ")
    assert text != EVENT_ASAN
    assert ct.classify(text)[0] is None


def test_worker_just_die_free_stack_is_httpds():
    kind, why = ct.classify(WORKER)
    assert kind == ct.WORKER_JUST_DIE_FREE, why


def test_prefork_exit_in_malloc_stack_is_httpds():
    kind, why = ct.classify(PREFORK)
    assert kind == ct.PREFORK_EXIT_IN_MALLOC, why


def test_prefork_exit_stack_is_ours_unless_exactly_httpds():
    # A frame of ours in the crashing thread.
    text = PREFORK.replace(
        "#18 0x00007f00622ba13a in apr_allocator_create () from "
        "/lib/x86_64-linux-gnu/libapr-1.so.0",
        "#18 profile_handler (r=0x0) at mod_profile/mod_profile.c:321")
    assert text != PREFORK
    assert ct.classify(text)[0] is None
    # The handler interrupted something else than malloc.
    text = PREFORK.replace(
        "#16 0x00007f006214e154 in _int_malloc (",
        "#16 0x00007f006214e154 in __GI___poll (")
    assert text != PREFORK
    assert ct.classify(text)[0] is None
    # free()'s abort in exit() outside a signal handler: ours.
    text = PREFORK.replace("#15 <signal handler called>",
                           "#15 0x0000560e77b2f000 in ap_run_handler ()")
    assert text != PREFORK
    assert ct.classify(text)[0] is None


@pytest.mark.parametrize("frame", [
    # A stripped address inside mod_profile.so's .text (info sharedlibrary)
    "#4  0x00007fbdf4be0123 in ?? ()",
    # gdb naming the library
    "#4  0x00007f0000000123 in ?? () from /usr/lib/apache2/modules/"
    "mod_profile.so",
    # the module's own symbols and sources
    "#4  profile_handler (r=0x55b1a4000000) at mod_profile/mod_profile.c:321",
])
def test_a_mod_profile_frame_in_any_thread_makes_it_ours(frame):
    # In a thread that did not crash: the main thread's stack is still
    # httpd's known one.
    text = EVENT.replace("#4  0x000055b1a3ce6bc5 in ap_queue_pop_something ()",
                         frame)
    assert text != EVENT
    kind, why = ct.classify(text)
    assert kind is None and "mod_profile frame" in why, why
    # In the crashing thread (the address moved into this core's
    # mod_profile.so).
    text = WORKER.replace("#8  0x0000556792ea9a81 in ?? ()",
                          frame.replace("#4 ", "#8 ").replace(
                              "0x00007fbdf4be0123", "0x00007f2c32177123"))
    assert text != WORKER
    assert ct.classify(text)[0] is None


def test_another_segfault_stack_is_ours():
    # The same library, another function on top: not the known race.
    text = EVENT.replace("in apr_os_sock_get () from",
                         "in apr_socket_close () from")
    assert ct.classify(text)[0] is None
    # The known frames, but not in this order.
    text = EVENT.replace(
        "#2  0x00007fbdf4c1b507 in ?? () from /usr/lib/apache2/modules/"
        "mod_mpm_event.so", "#2  0x000055b1a3c8e4f0 in ap_run_mpm ()")
    assert ct.classify(text)[0] is None
    # Another signal with the known stack.
    text = EVENT.replace("signal SIGSEGV", "signal SIGBUS")
    assert ct.classify(text)[0] is None


def test_an_abort_not_in_a_signal_handler_during_initgroups_is_ours():
    # free()'s abort outside any signal handler: a double free, say.
    text = WORKER.replace("#12 <signal handler called>",
                          "#12 0x0000556792e9a000 in ap_run_handler ()")
    assert ct.classify(text)[0] is None
    # The handler interrupted something else than malloc in initgroups.
    text = WORKER.replace(
        "#13 malloc_consolidate (av=av@entry=0x7f2c3242fc60 <main_arena>) "
        "at ./malloc/malloc.c:4791",
        "#13 0x00007f2c3239d000 in __GI___poll (fds=0x0) at poll.c:29")
    text = text.replace("in initgroups (user=", "in getgrouplist (user=")
    assert ct.classify(text)[0] is None


def test_a_crash_without_a_core_is_ours(tmp_path):
    line = "[mpm_event:notice] AH00052: child pid 4242 exit signal " \
        "Aborted (6)"
    with pytest.raises(AssertionError) as e:
        ct.judge(str(tmp_path), [line], setting=ct.CoreSetting("core"))
    assert "no core dumped" in str(e.value)
    assert not isinstance(e.value, ct.HttpdCrash)


# ------------------------------------- where kernel.core_pattern sends cores
# Fabricated cores: a file holding the gdb text of a sample core for pid
# PID, which a fake gdb_backtrace returns; judge() moves the core it uses
# to the kept directory as core.PID.
PID = 4242
DUMPED = "[core:notice] [pid 4200:tid 4200] AH00051: child pid %d exit " \
    "signal Segmentation fault (11), possible coredump in /x" % PID


def core_text(pid=PID, exe="/usr/sbin/apache2"):
    return EVENT.replace("process 7526 ", "process %d " % pid) \
        .replace("`/usr/sbin/apache2 ", "`%s " % exe)


@pytest.fixture
def fake_gdb(tmp_path, monkeypatch):
    """gdb reads a fabricated core as its text; cores are kept in
    tmp_path/kept.  Returns the kept directory."""
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(ct, "GDB", "gdb")
    monkeypatch.setattr(ct, "HTTPD", "/usr/sbin/apache2")
    monkeypatch.setattr(ct, "_kept", [str(kept)])
    monkeypatch.setattr(ct, "gdb_backtrace",
                        lambda core: open(core).read())
    return kept


def judged(core_dir, setting, lines=(DUMPED,), wait=0):
    """judge()'s verdict: the HttpdCrash or the AssertionError."""
    with pytest.raises((ct.HttpdCrash, AssertionError)) as e:
        ct.judge(str(core_dir), list(lines), setting=setting, wait=wait)
    return e.value


@pytest.mark.parametrize("pattern, uses_pid, expect", [
    ("core", False, "/srv/cores/core"),
    ("core", True, "/srv/cores/core.4242"),
    ("core.%p", True, "/srv/cores/core.4242"),
    ("core.%e.%p", False, "/srv/cores/core.*.4242"),
    ("core.%e.%p.%t", False, "/srv/cores/core.*.4242.*"),
    ("cores/%E-%P-%i-%I-%u-%g-%s-%h-%c-%d", False,
     "/srv/cores/cores/*-*-*-*-*-*-*-*-*-*"),
    ("/var/crash/core.%e.%p", False, "/var/crash/core.*.4242"),
    ("/tmp/cores/%e-%p-%t", True, "/tmp/cores/*-4242-*"),
    ("/var/crash/%u/core", True, "/var/crash/*/core.4242"),
    # %% is a "%", never a specifier; glob's own characters are literal;
    # a lone % at the end is dropped, as the kernel does.
    ("100%%p[%p]?%", False, "/srv/cores/100%p[[]4242][?]"),
])
def test_the_pattern_is_expanded_for_the_crashed_pid(pattern, uses_pid,
                                                      expect):
    setting = ct.CoreSetting(pattern, uses_pid)
    assert setting.kind == "file"
    assert setting.glob("/srv/cores", PID) == expect
    assert setting.names_pid() == ("4242" in expect)


@pytest.mark.parametrize("pattern, uses_pid, name", [
    ("core", False, "core"),                            # Debian's
    ("core", True, "core.4242"),
    ("core.%e.%p", False, "core.apache2.4242"),
    ("core.%e.%p.%t", False, "core.apache2.4242.1795887624"),
    ("%e-%s.core", False, "apache2-11.core"),           # no pid in it
])
def test_a_relative_pattern_is_read_in_the_core_dump_directory(
        tmp_path, fake_gdb, pattern, uses_pid, name):
    cores = tmp_path / "cores"
    cores.mkdir()
    (cores / name).write_text(core_text())
    crash = judged(cores, ct.CoreSetting(pattern, uses_pid))
    assert isinstance(crash, ct.HttpdCrash), crash
    [f] = crash.findings
    assert f.pid == PID and f.kind == ct.EVENT_CLOSE_WORKER_SOCKETS
    assert f.core == str(fake_gdb / "core.4242")
    assert os.listdir(str(cores)) == []                 # moved away
    assert f.describe().endswith("; core %s (from %s)"
                                 % (f.core, cores / name))


def test_only_the_crashed_pids_core_is_taken_by_its_name(tmp_path,
                                                         fake_gdb):
    cores = tmp_path / "cores"
    cores.mkdir()
    (cores / "core.apache2.4242").write_text(core_text())
    (cores / "core.apache2.14242").write_text(core_text(14242))
    crash = judged(cores, ct.CoreSetting("core.%e.%p"))
    assert isinstance(crash, ct.HttpdCrash), crash
    assert os.listdir(str(cores)) == ["core.apache2.14242"]


@pytest.mark.parametrize("name_pattern, name", [
    ("core.%e.%p.%t", "core.apache2.4242.1795887624"),
    ("%e-%p-%t", "apache2-4242-1795887624"),
    ("core.%e", "core.apache2"),                        # no pid in it
])
def test_an_absolute_pattern_is_read_in_its_directory(
        tmp_path, fake_gdb, name_pattern, name):
    """A directory another tool set: the crashed child's core is taken,
    every other file is left where it is -- another program's core, or a
    core of another process with the same pid."""
    crash_dir = tmp_path / "crash"
    crash_dir.mkdir()
    (crash_dir / name).write_text(core_text())
    others = {"core.python3.4242.1795887000",
              "core.apache2.777.1795887000", "python3-4242-1795887000",
              "unrelated.txt"}
    for other in others:
        (crash_dir / other).write_text(
            core_text(777) if ".777." in other
            else core_text(PID, "/usr/bin/python3"))
    setting = ct.CoreSetting(str(crash_dir / name_pattern))
    assert setting.unreadable() is None
    crash = judged(tmp_path / "cores", setting)
    assert isinstance(crash, ct.HttpdCrash), crash
    assert crash.findings[0].core == str(fake_gdb / "core.4242")
    assert set(os.listdir(str(crash_dir))) == others


@pytest.mark.parametrize("pattern, why", [
    ("|/usr/share/apport/apport -p%p -s%s -c%c -d%d -P%P -u%u -g%g -- %E",
     "a pipe to /usr/share/apport/apport"),
    ("|/bin/false", "a pipe to /bin/false"),
    ("|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h",
     "a pipe to systemd-coredump, and no coredumpctl on PATH"),
    ("@/run/systemd/coredump", "a socket"),
    ("/nonexistent-mod_profile-cores/core.%p",
     "its directory /nonexistent-mod_profile-cores does not exist"),
    ("", "empty: no core files"),
])
def test_cores_it_cannot_read_fail_the_check_saying_so(
        tmp_path, fake_gdb, monkeypatch, pattern, why):
    monkeypatch.setenv("PATH", str(tmp_path))           # no coredumpctl
    start = time.monotonic()
    e = judged(tmp_path, ct.CoreSetting(pattern), wait=5)
    assert time.monotonic() - start < 2                 # nothing to wait for
    assert not isinstance(e, ct.HttpdCrash)
    msg = str(e)
    assert "child 4242: NOT a known httpd crash: ours or unknown (cannot " \
        "read cores: kernel.core_pattern is %r (%s); set it to 'core' " \
        "(sysctl kernel.core_pattern=core) to let the suite judge crashes)" \
        % (pattern, why) in msg, msg


def test_waiting_for_a_core_is_bounded(tmp_path, fake_gdb):
    """A dumped core (AH00051) is waited for a few seconds at most; a
    crash the kernel did not dump (AH00052) is not waited for."""
    setting = ct.CoreSetting("core.%p")
    start = time.monotonic()
    e = judged(tmp_path, setting, wait=1)
    assert 1 <= time.monotonic() - start < 3
    assert "no core dumped: none matching %s/core.4242; " \
        "kernel.core_pattern 'core.%%p'" % tmp_path in str(e), str(e)
    crash_dir = tmp_path / "crash"
    crash_dir.mkdir(mode=0o755)
    e = judged(tmp_path, ct.CoreSetting(str(crash_dir / "core.%p")))
    assert "no core dumped: none matching %s/core.4242 (can the children's " \
        "user write in %s?)" % (crash_dir, crash_dir) in str(e), str(e)
    start = time.monotonic()
    judged(tmp_path, setting, [DUMPED.replace(
        "AH00051", "AH00052").replace(", possible coredump in /x", "")],
        wait=5)
    assert time.monotonic() - start < 1
    # A core that comes late is found.
    threading.Timer(0.5, lambda: (tmp_path / "core.4242").write_text(
        core_text())).start()
    crash = judged(tmp_path, setting, wait=5)
    assert isinstance(crash, ct.HttpdCrash), crash


FAKE_COREDUMPCTL = """#!/bin/sh
# coredumpctl dump PID --output=FILE from $FAKE_JOURNAL/core.PID, which
# systemd-coredump "stores" only at the call numbered $FAKE_STORED_AT.
echo "$*" >> "$FAKE_JOURNAL/calls"
n=$(wc -l < "$FAKE_JOURNAL/calls")
[ "$1" = dump ] || exit 2
out=${3#--output=}
if [ "$n" -ge "$FAKE_STORED_AT" ] && [ -f "$FAKE_JOURNAL/core.$2" ]; then
    cp "$FAKE_JOURNAL/core.$2" "$out" && exit 0
fi
echo "No coredumps found." >&2
exit 1
"""

SYSTEMD = "|/lib/systemd/systemd-coredump %P %u %g %s %t " \
    "9223372036854775808 %h"


@pytest.fixture
def coredumpctl(tmp_path, monkeypatch):
    """A fake coredumpctl on PATH; returns its journal directory."""
    bindir, journal = tmp_path / "bin", tmp_path / "journal"
    bindir.mkdir()
    journal.mkdir()
    tool = bindir / "coredumpctl"
    tool.write_text(FAKE_COREDUMPCTL)
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", "%s:%s" % (bindir, os.environ["PATH"]))
    monkeypatch.setenv("FAKE_JOURNAL", str(journal))
    monkeypatch.setenv("FAKE_STORED_AT", "1")
    return journal


def test_systemd_coredump_is_read_with_coredumpctl(tmp_path, fake_gdb,
                                                   coredumpctl, monkeypatch):
    """systemd-coredump stores the core a moment after the child is gone:
    coredumpctl is asked again until it has it."""
    (coredumpctl / "core.4242").write_text(core_text())
    monkeypatch.setenv("FAKE_STORED_AT", "3")
    crash = judged(tmp_path, ct.CoreSetting(SYSTEMD), wait=5)
    assert isinstance(crash, ct.HttpdCrash), crash
    kept = str(fake_gdb / "core.4242")
    assert crash.findings[0].core == kept and os.path.isfile(kept)
    assert crash.findings[0].describe().endswith(
        "core %s (from coredumpctl dump 4242)" % kept)
    calls = (coredumpctl / "calls").read_text().splitlines()
    assert calls == ["dump 4242 --output=%s" % kept] * 3


def test_a_core_systemd_coredump_does_not_have_fails_the_check(
        tmp_path, fake_gdb, coredumpctl):
    start = time.monotonic()
    e = judged(tmp_path, ct.CoreSetting(SYSTEMD), wait=1)
    assert time.monotonic() - start < 3
    assert not isinstance(e, ct.HttpdCrash)
    assert "(no core dumped: none in systemd-coredump's journal " \
        "(coredumpctl dump 4242: No coredumps found.); kernel.core_pattern " \
        "%r)" % SYSTEMD in str(e), str(e)
    assert os.listdir(str(fake_gdb)) == []


def crash_a_child(make_httpd, data_files, name="crash"):
    """Kills a child of a fresh server with SIGSEGV: the check fails,
    printing its backtrace from the core kept as core.PID -- or, where
    the kernel sends cores somewhere the suite cannot read, saying so."""
    setting = ct.CoreSetting.current()
    server = make_httpd(name, h.location("/api/v1", data_files["main"]))
    server.start_checked()
    try:
        start = pu.log_size(server)
        kid = pu.children(server.pid)[0]
        os.kill(kid, signal.SIGSEGV)
        assert h.wait_for(lambda: pu.crash_lines(pu.log_since(server, start)))
        text = pu.log_since(server, start)
        assert "child pid %d exit signal Segmentation fault" % kid in text
        with pytest.raises(AssertionError) as e:
            pu.assert_no_crash(server, text)
        assert not isinstance(e.value, ct.HttpdCrash)
        msg = str(e.value)
        assert "child %d: NOT a known httpd crash" % kid in msg, msg
        cannot = setting.unreadable()
        if cannot is not None:
            assert "(%s); core none" % cannot in msg, msg
        else:
            assert "Program terminated with signal SIGSEGV" in msg, msg
            core = os.path.join(ct.kept_dir(), "core.%d" % kid)
            assert os.path.isfile(core) and ("core " + core) in msg, msg
            os.unlink(core)
        assert server.get("/api/v1/profile").status == 200
        return msg
    finally:
        server.stop()


def test_a_child_killed_by_sigsegv_fails_the_check(make_httpd, data_files):
    """Live, under the machine's kernel.core_pattern: a child killed with
    SIGSEGV leaves a core (User www-data when run as root: httpd makes it
    dumpable again; in the sanitized build too, where run.sh tells the
    ASan runtime to leave core dumps on) whose stack is no known httpd
    crash, so the check fails, printing the backtrace."""
    crash_a_child(make_httpd, data_files)


# The real kernel under other patterns: opt-in, since kernel.core_pattern
# is global -- while it is changed, every crash on the machine (other
# engineers' runs, the other xdist workers) goes there, and a run killed
# before its `finally` would leave it changed, the very trap this guards
# against.  docs/testing.md, "Crashed children", says how to run it.
REAL_PATTERNS = ["core", "core.%e.%p", "{dir}/core.%e.%p.%t", "|/bin/false"]
CORE_PATTERN = "/proc/sys/kernel/core_pattern"


@pytest.mark.parametrize("pattern", REAL_PATTERNS)
def test_a_child_killed_by_sigsegv_under_a_core_pattern(
        make_httpd, data_files, pattern):
    if os.environ.get("PROFILE_TEST_CORE_PATTERNS") != "1":
        pytest.skip("changes the machine's kernel.core_pattern for a few "
                    "seconds: PROFILE_TEST_CORE_PATTERNS=1 to run")
    if os.geteuid() != 0 or not os.access(CORE_PATTERN, os.W_OK):
        pytest.skip("needs root and a writable %s" % CORE_PATTERN)
    with open("/tmp/mod_profile-core-pattern.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        crash_dir = tempfile.mkdtemp(prefix="mod_profile-crash-")
        os.chmod(crash_dir, 0o1777)     # the children's user writes there
        with open(CORE_PATTERN) as f:
            before = f.read().rstrip("\n")
        try:
            with open(CORE_PATTERN, "w") as f:
                f.write(pattern.format(dir=crash_dir))
            msg = crash_a_child(make_httpd, data_files, "pattern")
        finally:
            with open(CORE_PATTERN, "w") as f:
                f.write(before)
            shutil.rmtree(crash_dir)
    print(pattern.format(dir=crash_dir), "->",
          [ln for ln in msg.splitlines() if ln.startswith("child ")])
    if pattern.startswith("|"):
        assert "cannot read cores: kernel.core_pattern is '|/bin/false' " \
            "(a pipe to /bin/false)" in msg, msg


RERUN_TESTS = '''
import pytest
import crash_triage as ct

setups = []


@pytest.fixture(scope="module")
def server():
    setups.append(len(setups) + 1)
    return setups[-1]


def crash(pid):
    raise ct.HttpdCrash([ct.Finding(
        pid, "child pid %d exit signal Segmentation fault (11)" % pid,
        ct.EVENT_CLOSE_WORKER_SOCKETS, "sample", "/cores/core.%d" % pid)])


def test_crashes_once(server):
    if server == 1:
        crash(101)


def test_after_a_rerun_fixtures_are_fresh(server):
    assert setups == [1, 2] and server == 2


def test_crashes_twice(server):
    crash(202)
'''


def _have_xdist():
    try:
        import xdist                    # noqa: F401
    except ImportError:
        return False
    return True


# Serially, and as run.sh runs the suite: in pytest-xdist's workers, whose
# reports (and the crash each rerun names) reach the controller.
@pytest.mark.parametrize("workers", [
    [], pytest.param(["-p", "xdist", "-n", "2", "--dist", "loadfile"],
                     marks=pytest.mark.skipif(not _have_xdist(),
                                              reason="no pytest-xdist"))],
    ids=["serial", "xdist"])
def test_a_known_httpd_crash_reruns_the_test_once_from_scratch(tmp_path,
                                                               workers):
    """conftest.py's policy, run by a pytest of its own: the crashed
    attempt is reported as a rerun, every fixture is set up again, the
    rerun decides; a second crash fails; the summary names each crash."""
    for name in ("conftest.py", "crash_triage.py", "httpd_harness.py"):
        shutil.copy(os.path.join(h.HERE, name), str(tmp_path))
    (tmp_path / "test_policy.py").write_text(RERUN_TESTS)
    cp = subprocess.run([sys.executable, "-m", "pytest", "-p",
                         "no:cacheprovider", "-rA"] + workers
                        + [str(tmp_path)],
                        capture_output=True, text=True, timeout=120,
                        cwd=str(tmp_path))
    out = cp.stdout + cp.stderr
    assert cp.returncode == 1, out
    assert re.search(r"1 failed, 2 passed, 2 rerun", out), out
    assert "FAILED test_policy.py::test_crashes_twice" in out, out
    assert "PASSED test_policy.py::test_crashes_once" in out, out
    assert "httpd's own known crashes (test run again from scratch)" in out
    assert "child 101: %s (sample); core /cores/core.101" \
        % ct.EVENT_CLOSE_WORKER_SOCKETS in out, out
