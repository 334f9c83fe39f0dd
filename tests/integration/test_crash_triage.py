# SPDX-License-Identifier: Apache-2.0
"""crash_triage.py tells httpd's own known restart crashes from ours by the
crashed child's core (docs/testing.md, "Crashed children"): the two stacks
of /work/shared/notes/httpd-event-restart-crash.md and
httpd-worker-restart-abort.md are httpd's; any stack with a mod_profile
frame, any other stack, and a crash without a core fail the test."""
import os
import re
import shutil
import signal
import subprocess
import sys

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
        ct.judge(str(tmp_path), [line])
    assert "no core dumped" in str(e.value)
    assert not isinstance(e.value, ct.HttpdCrash)


def test_a_child_killed_by_sigsegv_fails_the_check(make_httpd, data_files):
    """Live: a child killed with SIGSEGV leaves a core (User www-data when
    run as root: httpd makes it dumpable again; in the sanitized build
    too, where run.sh tells the ASan runtime to leave core dumps on) whose
    stack is no known httpd crash, so the check fails, printing the
    backtrace."""
    server = make_httpd("crash", h.location("/api/v1", data_files["main"]))
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
        msg = str(e.value)
        assert "child %d: NOT a known httpd crash" % kid in msg, msg
        assert "Program terminated with signal SIGSEGV" in msg, msg
        core = os.path.join(ct.kept_dir(), "core.%d" % kid)
        assert os.path.isfile(core) and ("core " + core) in msg, msg
        os.unlink(core)
        assert server.get("/api/v1/profile").status == 200
    finally:
        server.stop()


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


def test_a_known_httpd_crash_reruns_the_test_once_from_scratch(tmp_path):
    """conftest.py's policy, run by a pytest of its own: the crashed
    attempt is reported as a rerun, every fixture is set up again, the
    rerun decides; a second crash fails; the summary names each crash."""
    for name in ("conftest.py", "crash_triage.py", "httpd_harness.py"):
        shutil.copy(os.path.join(h.HERE, name), str(tmp_path))
    (tmp_path / "test_policy.py").write_text(RERUN_TESTS)
    cp = subprocess.run([sys.executable, "-m", "pytest", "-p",
                         "no:cacheprovider", "-rA", str(tmp_path)],
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
