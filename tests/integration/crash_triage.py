# SPDX-License-Identifier: Apache-2.0
"""Tells httpd's own rare restart crashes from ours, by the crashed child's
core (docs/testing.md, "Crashed children").

When an error log says a child died of a signal, judge() finds the child's
core where kernel.core_pattern sends it (CoreSetting, CoreFinder: a
relative pattern such as Debian's "core" or "core.%e.%p" into the server's
CoreDumpDirectory, an absolute one into its directory, systemd-coredump's
pipe through `coredumpctl dump`; any other pipe, or a directory it cannot
read, is a crash it cannot judge, said plainly), prints every thread's
backtrace with gdb and classifies the crashing thread's stack.  Three
signatures are httpd's own (shown without mod_profile, /work/shared/notes):

* EVENT_CLOSE_WORKER_SOCKETS (httpd-event-restart-crash.md): SIGSEGV in
  libapr's apr_os_sock_get called from close_socket_nonblocking_ <-
  signal_threads/close_worker_sockets <- child_main in mod_mpm_event.so,
  a use-after-free race at a hard restart.
* WORKER_JUST_DIE_FREE (httpd-worker-restart-abort.md): SIGABRT in free()
  called from the SIGTERM handler just_die -> clean_child_exit ->
  apr_pool_destroy, which interrupted malloc in initgroups() while the
  new child dropped its privileges.

* PREFORK_EXIT_IN_MALLOC (seen 2026-11-26 under the prefork MPM of the
  php configuration): SIGABRT in free() called from exit()'s handlers
  (OpenSSL's cleanup) <- the prefork child's signal handler, which
  interrupted malloc while the child was starting (apr_allocator_create
  from mod_mpm_prefork.so): exit() is not async-signal-safe.

Each one also needs no frame of mod_profile in any thread -- but for the
event MPM's race, a worker thread serving a request (frames of ours above
httpd's handler call in a connection's processing) is a bystander: the
race is between the main thread and a worker in lingering close.  Anything
else -- a mod_profile frame, another stack, no core, a core it cannot read,
no gdb -- is ours (or unknown) and fails the test with the backtrace.  A
classified httpd crash raises HttpdCrash, which conftest.py answers by
running the test once more from scratch."""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

GDB = shutil.which("gdb")
HTTPD = os.environ.get("HTTPD") or "/usr/sbin/apache2"

EVENT_CLOSE_WORKER_SOCKETS = "httpd event MPM: close_worker_sockets " \
    "use-after-free at a hard restart"
WORKER_JUST_DIE_FREE = "httpd worker MPM: free() in the SIGTERM handler " \
    "just_die of a child in initgroups()"

PREFORK_EXIT_IN_MALLOC = "httpd prefork MPM: exit() in the signal " \
    "handler of a child interrupted in malloc"

# AH00051 (a core was dumped) / AH00052 (none): the child and its signal.
CHILD_SIGNAL = re.compile(r"child pid (\d+) exit signal ([^(]*?) ?\((\d+)\)")


class HttpdCrash(Exception):
    """A child crash whose core shows one of httpd's known crashes."""

    def __init__(self, findings):
        self.findings = findings        # [Finding]
        Exception.__init__(self, "\n".join(f.describe() for f in findings))


class Finding:
    def __init__(self, pid, line, kind=None, why="", core=None, bt="",
                 origin=None):
        self.pid = pid
        self.line = line
        self.kind = kind                # None: ours or unknown
        self.why = why
        self.core = core
        self.bt = bt
        self.origin = origin            # where the kernel had put it

    def describe(self):
        return "child %s: %s (%s); core %s%s" % (
            self.pid, self.kind or "NOT a known httpd crash: ours or "
            "unknown", self.why, self.core or "none",
            " (from %s)" % self.origin
            if self.origin and self.origin != self.core else "")


# ---------------------------------------------------------- backtraces
class Frame:
    def __init__(self, text):
        self.text = text
        m = re.match(r"#\d+\s+(?:0x[0-9a-f]+ in )?(\S+)", text)
        self.func = m.group(1) if m else "??"
        m = re.search(r" from (\S+)\s*$", text)
        self.lib = m.group(1) if m else ""
        m = re.match(r"#\d+\s+(0x[0-9a-f]+) in ", text)
        self.pc = int(m.group(1), 16) if m else None
        m = re.search(r" at (\S+):\d+\s*$", text)
        self.src = m.group(1) if m else ""

    def is_(self, names, lib=None):
        """Whether the frame is one of the functions `names`, or, with no
        symbol, lies in library `lib` (a stripped build)."""
        if self.func in names:
            return True
        return lib is not None and self.func == "??" \
            and os.path.basename(self.lib) == lib


class Backtrace:
    """`thread apply all bt` output, with `info inferiors` and `info
    sharedlibrary` (to tell which library an address lies in)."""

    def __init__(self, text):
        self.text = text
        m = re.search(r"terminated with signal (SIG\w+)", text)
        self.signal = m.group(1) if m else None
        m = re.search(r"^\*?\s*\d+\s+process (\d+)", text, re.M)
        self.pid = int(m.group(1)) if m else None
        m = re.search(r"Current thread is (\d+)", text)
        current = m.group(1) if m else "1"
        self.threads = {}
        thread = None
        for ln in text.splitlines():
            m = re.match(r"Thread (\d+) \(.*\):\s*$", ln)
            if m:
                thread = self.threads.setdefault(m.group(1), [])
            elif thread is not None and re.match(r"#\d+ ", ln):
                thread.append(Frame(ln))
        self.crashing = self.threads.get(current, [])
        self.libs = []
        for m in re.finditer(r"^(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+\S+"
                             r"(?: \(\*\))?\s+(/\S+)\s*$", text, re.M):
            self.libs.append((int(m.group(1), 16), int(m.group(2), 16),
                              m.group(3)))

    def ours(self, frame):
        """Whether `frame` is in mod_profile.so: by the library gdb names,
        the library its address lies in, or its source file."""
        if "mod_profile" in os.path.basename(frame.lib):
            return True
        if frame.pc is not None:
            for lo, hi, path in self.libs:
                if lo <= frame.pc < hi and "mod_profile" in path:
                    return True
        return bool(re.search(r"(^|/)(mod_profile\w*|profile_\w+)\.c$",
                              frame.src))

    def ours_anywhere(self):
        return [f.text for fs in self.threads.values() for f in fs
                if self.ours(f)]

    def ours_outside_requests(self):
        """The frames of ours in threads other than the crashing one that
        are not serving a request: in such a thread every frame of ours
        lies above httpd's handler call (ap_run_handler and the like)
        inside a connection's processing (ap_run_process_connection)."""
        out = []
        for fs in self.threads.values():
            if fs is self.crashing:
                continue
            mine = [i for i, f in enumerate(fs) if self.ours(f)]
            if not mine:
                continue
            calls = [i for i, f in enumerate(fs) if f.is_(REQUEST_CALLS)]
            conn = [i for i, f in enumerate(fs)
                    if f.is_({"ap_run_process_connection"})]
            if not (calls and conn and max(mine) < min(calls)
                    and max(calls) < min(conn)):
                out.append(fs[mine[0]].text)
        return out


# httpd's calls into a module's request hooks: a thread whose frames of
# ours all lie above one of these serves a request.
REQUEST_CALLS = {"ap_run_handler", "ap_invoke_handler",
                 "ap_run_translate_name", "ap_run_map_to_storage",
                 "ap_run_fixups", "ap_run_post_read_request",
                 "ap_process_request_internal"}


MALLOC_INTERNALS = {"malloc_consolidate", "_int_malloc", "_int_free",
                    "_int_realloc", "sysmalloc", "unlink_chunk", "malloc",
                    "__GI___libc_malloc", "__libc_malloc", "free",
                    "__GI___libc_free", "__libc_free", "calloc",
                    "__libc_calloc", "realloc", "__libc_realloc",
                    "tcache_init"}


def classify(text):
    """(kind, why) for gdb output `text`; kind None means not httpd's."""
    bt = Backtrace(text)
    frames = bt.crashing
    if not frames:
        return None, "no backtrace of the crashing thread"
    mine = [f.text for f in frames if bt.ours(f)]
    if mine:
        return None, "mod_profile frame: " + mine[0]
    # The event MPM's race is between the child's main thread and a
    # worker thread closing a connection (lingering close): a worker
    # serving a request in mod_profile at that moment is a bystander.
    # Anywhere else a frame of ours makes the crash ours.
    mine = bt.ours_outside_requests() if bt.signal == "SIGSEGV" \
        else bt.ours_anywhere()
    if mine:
        return None, "mod_profile frame: " + mine[0]
    if bt.signal == "SIGSEGV":
        want = [({"apr_os_sock_get"}, None),
                ({"close_socket_nonblocking_", "close_socket_nonblocking"},
                 "mod_mpm_event.so"),
                ({"signal_threads", "close_worker_sockets"},
                 "mod_mpm_event.so"),
                ({"child_main"}, "mod_mpm_event.so")]
        if len(frames) >= 4 and all(f.is_(n, lib) for f, (n, lib)
                                    in zip(frames, want)):
            return EVENT_CLOSE_WORKER_SOCKETS, \
                "apr_os_sock_get <- close_socket_nonblocking <- " \
                "signal_threads <- child_main in mod_mpm_event.so"
        return None, "SIGSEGV with another stack"
    if bt.signal == "SIGABRT":
        k = [i for i, f in enumerate(frames)
             if "<signal handler called>" in f.text]
        if not k:
            return None, "SIGABRT outside a signal handler"
        above, below = frames[:k[0]], frames[k[0] + 1:]
        mpm = ("mod_mpm_worker.so", "mod_mpm_event.so")
        handler = any(f.is_({"just_die", "clean_child_exit"})
                      or any(f.is_(set(), lib) for lib in mpm)
                      for f in above)
        aborting = any(f.is_({"abort", "__GI_abort"}) for f in above) \
            and any(f.is_({"free", "__GI___libc_free", "__libc_free",
                           "_int_free", "malloc_printerr"}) for f in above) \
            and any(f.is_({"apr_pool_destroy"}) for f in above)
        interrupted = bool(below) and (
            below[0].is_(MALLOC_INTERNALS)
            or below[0].is_({"initgroups", "internal_getgrouplist"}))
        in_initgroups = any(f.is_({"initgroups"}) for f in below)
        if handler and aborting and interrupted and in_initgroups:
            return WORKER_JUST_DIE_FREE, \
                "abort in free <- apr_pool_destroy <- just_die " \
                "(SIGTERM handler) interrupting %s in initgroups" \
                % below[0].func
        prefork = "mod_mpm_prefork.so"
        exiting = any(f.is_({"exit", "__GI_exit", "__run_exit_handlers"})
                      for f in above) \
            and any(f.is_({"just_die", "clean_child_exit"})
                    or f.is_(set(), prefork) for f in above) \
            and any(f.is_({"abort", "__GI_abort"}) for f in above) \
            and any(f.is_({"free", "__GI___libc_free", "__libc_free",
                           "_int_free", "malloc_printerr"}) for f in above)
        in_prefork_child = bool(below) and below[0].is_(MALLOC_INTERNALS) \
            and any(f.is_({"child_main", "make_child"}, prefork)
                    for f in below)
        if exiting and in_prefork_child:
            return PREFORK_EXIT_IN_MALLOC, \
                "abort in free <- exit() <- the prefork child's signal " \
                "handler interrupting %s" % below[0].func
        return None, "SIGABRT with another stack"
    return None, "signal %s" % bt.signal


# ---------------------------------------------------------- cores
_kept = []


def kept_dir():
    """Where judged cores are kept (outside the suite's work directory,
    which is removed at the end)."""
    if not _kept:
        _kept.append(os.environ.get("CORE_KEEP_DIR")
                     or tempfile.mkdtemp(prefix="mod_profile-cores-"))
        os.makedirs(_kept[0], exist_ok=True)
    return _kept[0]


def drop_kept_dir_if_empty():
    """At the end of the run: no empty directory left behind."""
    if _kept:
        try:
            os.rmdir(_kept[0])
            _kept.pop()
        except OSError:
            pass                        # cores kept: the summary names them


def gdb_backtrace(core):
    cp = subprocess.run([GDB, "-batch", "-nx", "-ex", "info inferiors",
                         "-ex", "info sharedlibrary",
                         "-ex", "thread apply all bt", HTTPD, core],
                        capture_output=True, text=True, timeout=300)
    return cp.stdout + cp.stderr


class CoreSetting:
    """Where the kernel sends cores: kernel.core_pattern and
    kernel.core_uses_pid.  kind is "file" (a relative pattern, in the
    crashing process's working directory -- httpd's CoreDumpDirectory --
    or an absolute one), "systemd" (a pipe to systemd-coredump), "pipe"
    (any other program), "socket" (@...) or "none" (an empty pattern)."""

    def __init__(self, pattern, uses_pid=False):
        self.pattern = pattern
        self.uses_pid = uses_pid
        if pattern is None:             # no /proc: Debian's default
            self.kind = "file"
        elif pattern.startswith("|"):
            words = pattern[1:].split()
            self.program = words[0] if words else ""
            self.kind = "systemd" if os.path.basename(self.program) \
                == "systemd-coredump" else "pipe"
        elif pattern.startswith("@"):
            self.kind = "socket"
        elif pattern == "":
            self.kind = "none"
        else:
            self.kind = "file"

    @classmethod
    def current(cls):
        def read(name):
            try:
                with open("/proc/sys/kernel/" + name) as f:
                    return f.read().rstrip("\n")
            except OSError:
                return None
        return cls(read("core_pattern"), (read("core_uses_pid") or "0")
                   .strip() not in ("", "0"))

    def __repr__(self):
        return "kernel.core_pattern %r%s" % (
            "core" if self.pattern is None else self.pattern,
            ", core_uses_pid 1" if self.uses_pid else "")

    def names_pid(self):
        """Whether a core's file name has its pid in it."""
        return self.glob("", 1) != self.glob("", None)

    def glob(self, core_dir, pid=None):
        """A glob of the file the core of `pid` (any pid: None) goes to,
        for a process whose working directory is `core_dir`.  Of the
        pattern's specifiers (man 5 core), %p is the pid as the crashed
        process's namespace sees it -- the pid httpd logs -- and %% a
        "%"; every other one (%e, %t, %P, %h, ... or one unknown, which
        the kernel drops) matches any text.  With core_uses_pid and no %p
        the kernel appends ".PID"."""
        pattern = "core" if self.pattern is None else self.pattern
        out, i, pid_in = [], 0, False
        while i < len(pattern):
            c = pattern[i]
            if c != "%":
                out.append(glob.escape(c))
                i += 1
                continue
            spec = pattern[i + 1:i + 2]
            i += 2
            if spec == "%":
                out.append("%")
            elif spec == "p":
                pid_in = True
                out.append("*" if pid is None else str(pid))
            elif spec:
                out.append("*")
        if self.uses_pid and not pid_in:
            out.append("." + ("*" if pid is None else str(pid)))
        return os.path.join(glob.escape(core_dir), "".join(out))

    def directory(self):
        """The directory an absolute pattern sends cores to, if its name
        has no specifier."""
        if self.kind != "file" or not (self.pattern or "").startswith("/"):
            return None
        d = os.path.dirname(self.pattern)
        return None if "%" in d else d

    def unreadable(self):
        """Why the suite cannot read the cores under this setting (a
        sentence for the finding), or None."""
        what = None
        if self.kind == "pipe":
            what = "a pipe to %s" % (self.program or "nothing")
        elif self.kind == "systemd" and shutil.which("coredumpctl") is None:
            what = "a pipe to systemd-coredump, and no coredumpctl on PATH"
        elif self.kind == "socket":
            what = "a socket"
        elif self.kind == "none":
            what = "empty: no core files"
        elif self.directory() is not None:
            d = self.directory()
            if not os.path.isdir(d):
                what = "its directory %s does not exist" % d
            elif not os.access(d, os.R_OK | os.X_OK):
                what = "its directory %s is not readable" % d
        if what is None:
            return None
        return "cannot read cores: kernel.core_pattern is %r (%s); set it " \
            "to 'core' (sysctl kernel.core_pattern=core) to let the suite " \
            "judge crashes" % (self.pattern, what)


def _keep(path, pid):
    dest = os.path.join(kept_dir(), "core.%s" % pid)
    if os.path.abspath(path) != dest:
        shutil.move(path, dest)
    return dest


def _generated_by_httpd(text):
    m = re.search(r"Core was generated by `(\S+)", text)
    return m is not None and os.path.basename(m.group(1)) \
        == os.path.basename(HTTPD)


class CoreFinder:
    """Finds the cores of crashed children under a CoreSetting; each one
    found is moved to kept_dir() as core.PID (core_pattern "core" reuses
    one name) and read with gdb."""

    def __init__(self, setting, core_dir):
        self.setting = setting
        self.core_dir = core_dir
        self.cores = {}                 # pid: (kept path, gdb text, from)
        self.seen = {}                  # path: (mtime, size), not ours
        self.notes = {}                 # pid: why coredumpctl had none
        # A relative pattern writes into the server's own directory: every
        # core there is one of its children's.
        self.own_dir = setting.pattern is None \
            or not setting.pattern.startswith("/")

    def find(self, pids):
        """Looks once for the cores of `pids` not found yet."""
        pids = [p for p in pids if p not in self.cores]
        if not pids:
            return
        if self.setting.kind == "systemd":
            for pid in pids:
                self._coredumpctl(pid)
        elif self.setting.names_pid():
            for pid in pids:
                for path in sorted(glob.glob(self.setting.glob(
                        self.core_dir, pid)), key=_mtime, reverse=True):
                    if self._read(path, [pid], name_pid=pid):
                        break
        else:
            for path in sorted(glob.glob(self.setting.glob(self.core_dir)),
                               key=_mtime):
                self._read(path, pids)

    def _read(self, path, pids, name_pid=None):
        if not os.path.isfile(path):
            return False
        try:
            st = os.stat(path)
        except OSError:
            return False
        if self.seen.get(path) == (st.st_mtime, st.st_size):
            return False
        text = gdb_backtrace(path)
        pid = Backtrace(text).pid or name_pid
        mine = self.own_dir or (pid in pids and _generated_by_httpd(text))
        if pid is None or not mine:
            self.seen[path] = (st.st_mtime, st.st_size)
            return False
        self.cores[pid] = (_keep(path, pid), text, path)
        return pid in pids

    def _coredumpctl(self, pid):
        dest = os.path.join(kept_dir(), "core.%d" % pid)
        try:
            cp = subprocess.run(["coredumpctl", "dump", str(pid),
                                 "--output=" + dest], capture_output=True,
                                text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.notes[pid] = str(e)
            return
        if cp.returncode == 0 and os.path.isfile(dest) \
                and os.path.getsize(dest) > 0:
            self.cores[pid] = (dest, gdb_backtrace(dest),
                               "coredumpctl dump %d" % pid)
            return
        if os.path.isfile(dest):
            os.unlink(dest)
        err = (cp.stderr or cp.stdout).strip().splitlines()
        self.notes[pid] = "coredumpctl dump %d: %s" % (
            pid, err[-1] if err else "exit status %d" % cp.returncode)

    def missing(self, pid):
        """Why there is no core for `pid` (a sentence for the finding)."""
        if self.setting.kind == "systemd":
            where = "in systemd-coredump's journal (%s)" \
                % self.notes.get(pid, "none")
        else:
            where = "matching %s" % self.setting.glob(self.core_dir, pid)
            d = self.setting.directory()
            try:
                if d is not None and not os.stat(d).st_mode & 0o002:
                    where += " (can the children's user write in %s?)" % d
            except OSError:
                pass
        return "no core dumped: none %s; %r" % (where, self.setting)


def _mtime(path):
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0


# How long judge() waits for the cores of crash lines that say one was
# dumped (AH00051 "possible coredump"): a pipe's collector such as
# systemd-coredump stores it after the process is gone.
CORE_WAIT = float(os.environ.get("CORE_WAIT") or 5)


def judge(core_dir, lines, setting=None, wait=None):
    """For crash lines `lines` of a server whose CoreDumpDirectory is
    `core_dir`: raises AssertionError (with the backtraces) unless every
    crash is a known httpd crash, then HttpdCrash with the findings.
    The cores are looked for where `setting` (a CoreSetting; default: the
    kernel's) sends them, for up to `wait` seconds (CORE_WAIT)."""
    if GDB is None:
        raise AssertionError("crashed (no gdb to read the core: "
                             "scripts/install-deps):\n" + "\n".join(lines))
    setting = setting or CoreSetting.current()
    deadline = time.monotonic() + (CORE_WAIT if wait is None else wait)
    crashes = []                        # (line, pid or None)
    for ln in lines:
        m = CHILD_SIGNAL.search(ln)
        crashes.append((ln, int(m.group(1)) if m else None))
    cannot = setting.unreadable()
    finder = CoreFinder(setting, core_dir)
    if cannot is None:
        pids = [pid for _, pid in crashes if pid is not None]
        # The kernel said it dumped these: wait for them (bounded).
        dumped = [pid for ln, pid in crashes
                  if pid is not None and "possible coredump" in ln]
        finder.find(pids)
        while [p for p in dumped if p not in finder.cores] \
                and time.monotonic() < deadline:
            time.sleep(0.1)
            finder.find(dumped)
    findings = []
    for ln, pid in crashes:
        if pid is None:
            findings.append(Finding(None, ln, why="not a child's crash"))
        elif pid in finder.cores:
            core, text, origin = finder.cores[pid]
            kind, why = classify(text)
            findings.append(Finding(pid, ln, kind, why, core, text, origin))
        else:
            findings.append(Finding(pid, ln, why=cannot
                                    or finder.missing(pid)))
    bad = [f for f in findings if f.kind is None]
    if bad:
        raise AssertionError("a child crashed:\n" + "\n\n".join(
            "%s\n%s\n%s" % (f.line, f.describe(), f.bt) for f in bad))
    raise HttpdCrash(findings)
