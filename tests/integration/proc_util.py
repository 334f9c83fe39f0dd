# SPDX-License-Identifier: Apache-2.0
"""Process helpers for the reliability tests: an httpd parent's children,
their memory, waiting for a restart to finish, and the error-log lines that
mean a child crashed.  Linux /proc only; Python standard library only."""
import os
import re
import signal
import time

import crash_triage
import httpd_harness as h

# What httpd logs when a child dies of a signal (AH00052, at notice, which
# httpd writes whatever the LogLevel), when the parent catches a fatal
# signal (AH00060), or a core dump.
CRASH = re.compile(r"exit signal|AH00052|AH00051|AH00060|Segmentation fault"
                   r"|core dumped|dumped core|Aborted")


def children(ppid):
    """The pids whose parent is `ppid` (zombies excluded)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...; comm may hold spaces and parentheses.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == ppid and fields[0] != "Z":
            out.append(int(name))
    return sorted(out)


def rss_kib(pid, field="VmRSS"):
    """Resident set size of `pid` in KiB (0 if it is gone); with field
    "RssAnon", only its anonymous part (heap, pools, stacks: not the
    pages of files and libraries it maps)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def server_rss(parent):
    """{"parent": KiB, "parent_anon": KiB, "children": KiB,
    "processes": n, "total": KiB}."""
    kids = children(parent)
    p = rss_kib(parent)
    c = sum(rss_kib(k) for k in kids)
    return {"parent": p, "parent_anon": rss_kib(parent, "RssAnon"),
            "children": c, "processes": 1 + len(kids), "total": p + c}


def log_size(server):
    try:
        return os.path.getsize(server.error_log)
    except OSError:
        return 0


def log_since(server, offset):
    """The error-log text written after byte `offset`."""
    try:
        with open(server.error_log, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


# "configured -- resuming normal operations", which each MPM logs when its
# parent has read the configuration again: event AH00489, worker AH00292,
# prefork AH00163 (tests/integration/matrix.sh runs all three).  Under a
# hard restart (SIGHUP) the parent forks the new children before it logs
# it, under a graceful one after.
RESUMING = re.compile(r"AH00489|AH00292|AH00163")


def pipes(pid):
    """The pipes `pid` holds open, as "pipe:[inode]" (empty if it is
    gone)."""
    out = set()
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except FileNotFoundError:
        return out
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except FileNotFoundError:
            continue
        if target.startswith("pipe:"):
            out.add(target)
    return out


# Which generation a child belongs to.  Each MPM opens its pipe of death
# (the pipe through which the parent tells a generation's children to
# stop) in the configuration pool, so anew at every restart, after it has
# closed the previous one; every child inherits the pipe of death of the
# generation that forks it, and keeps it until it exits.  So a child holds
# a pipe the parent opened after the signal if and only if it is of the
# new generation.  The children's own pipes are never the parent's, and a
# pipe the parent kept across the restart (a piped ErrorLog) is left out.
# Neither the log's order (under SIGHUP the new children come before the
# "resuming" line, under a graceful restart after it) nor the set of
# children seen before the signal (the parent may fork one more of the
# previous generation just before it acts on the signal: a replacement
# child, or one still owed when the signal cut its one-second wait short)
# tells the generations apart.
def _of_generation(pid, fresh):
    return bool(pipes(pid) & fresh)


# A <Location> of the configuration whose handler is profile-status: its
# JSON says the generation of the child that answered.
_STATUS_LOCATION = re.compile(r"<Location\s+\"?([^\s\">]+)\"?\s*>"
                              r"(?:(?!</Location>).)*?"
                              r"SetHandler\s+profile-status\b", re.S | re.I)


def _status_generation(server, path):
    """The generation the profile-status view at `path` gives, or None
    when it does not answer it."""
    try:
        r = h.request(server.port, "GET", path, timeout=5)
        return int(r.json()["generation"]) if r.status == 200 else None
    except (OSError, AssertionError, ValueError, KeyError, TypeError):
        return None


def restart(server, how, timeout=20):
    """Restarts `server` (`how`: "USR1" or "HUP" sent straight to the
    parent, or "graceful" for `apache2 -k graceful`) and waits until the
    parent has re-read its configuration, no child of the previous
    generation is left (none can answer any later request), and a child
    of the new generation answers.  Where the configuration has a
    profile-status <Location> that answers, its generation must have gone
    up too.  Returns the error-log text the restart wrote.

    Every request of the harness opens a connection of its own, so none
    made before the restart is answered after it on a kept-alive one."""
    parent = server.pid
    before = pipes(parent)
    assert before, "httpd parent %s holds no pipe of death" % parent
    status = None
    try:
        with open(server.conf) as f:
            m = _STATUS_LOCATION.search(f.read())
    except OSError:
        m = None
    if m:
        gen = _status_generation(server, m.group(1))
        if gen is not None:
            status = (m.group(1), gen)
    start = log_size(server)
    if how == "graceful":
        cp = server.graceful()
        assert cp.returncode == 0, cp.stderr
    else:
        os.kill(parent, getattr(signal, "SIG" + how))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not server.running():
            raise AssertionError("restart (%s): the httpd parent %s exited; "
                                 "log:\n%s" % (how, parent,
                                               log_since(server, start)))
        # The log first: once it says "resuming", the parent has opened
        # the new pipe of death, and forks children of no other
        # generation; those listed after it are all there can be.
        text = log_since(server, start)
        if RESUMING.search(text):
            fresh = pipes(parent) - before
            kids = children(parent)
            if fresh and kids \
                    and all(_of_generation(k, fresh) for k in kids) \
                    and server.answers():
                if status:
                    gen = _status_generation(server, status[0])
                    assert gen is not None and gen > status[1], \
                        "restart (%s): %s says generation %r, not above " \
                        "%d, with only new children left" % (
                            how, status[0], gen, status[1])
                return log_since(server, start)
        time.sleep(0.02)
    raise AssertionError("restart (%s) did not finish in %ss; children %s "
                         "(of the new generation: %s); log:\n%s"
                         % (how, timeout, children(parent),
                            [k for k in children(parent) if _of_generation(
                                k, pipes(parent) - before)],
                            log_since(server, start)))


def crash_lines(text):
    return [ln for ln in text.splitlines() if CRASH.search(ln)]


def assert_no_crash(server, text):
    """Fails unless error-log text `text` of `server` shows no crash.  A
    crashed child whose core shows one of httpd's own known restart
    crashes raises crash_triage.HttpdCrash instead, and conftest.py runs
    the test again from scratch (docs/testing.md, "Crashed children")."""
    lines = crash_lines(text)
    if lines:
        crash_triage.judge(server.core_dir, lines)


def module_messages(text):
    """The module's lines (PROFILEnnnn) of error-log text `text`, but the
    PROFILE0008 notice naming its version, logged at every start and
    restart."""
    return [ln for ln in text.splitlines()
            if "PROFILE" in ln and "PROFILE0008: " not in ln]


def wrk_binary():
    for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin"]:
        p = os.path.join(d, "wrk")
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None



# Under the sanitized build the ASan runtime's shadow memory and
# quarantine make memory figures meaningless: check those apart.
SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))

# Runs argv[1:] and prints its exit status, then its peak resident set
# size in KiB (getrusage of the only child this interpreter has had), on
# stderr's last line; the child's own output goes through.
_PEAK = ("import resource, subprocess, sys\n"
         "rc = subprocess.run(sys.argv[1:]).returncode\n"
         "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
         "sys.stderr.write('\\nPEAK %d %d\\n' % (rc, m))\n")


def run_peak(args, timeout=120):
    """(returncode, stdout, stderr, peak KiB) of a command, its peak RSS
    measured apart from every other child of the test process."""
    import subprocess
    import sys

    cp = subprocess.run([sys.executable, "-c", _PEAK] + [str(a) for a in
                                                         args],
                        capture_output=True, timeout=timeout)
    err, _, last = cp.stderr.rstrip(b"\n").rpartition(b"\n")
    word, rc, peak = last.split()
    assert word == b"PEAK", cp.stderr
    return int(rc), cp.stdout, err, int(peak)
