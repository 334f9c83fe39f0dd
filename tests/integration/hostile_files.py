#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Adversarial data files for the loader (CONTRACT §9, "Refusing a file
is bounded as loading one"; issue 25), each at a requested size.

    tests/integration/hostile_files.py KIND SIZE OUT
    tests/integration/hostile_files.py --list

SIZE is in bytes, with an optional K or M suffix (KiB, MiB).  Every
regular kind is written at exactly SIZE bytes (trailing whitespace pads
it), deterministically: the same arguments write the same bytes.  The
kinds (KINDS, in this order):

  valid           a realistic valid file (bench/gen-bigdata.py's records
                  derived from the sample), the yardstick for the others
  problems-line   {"skills":[{},{},...]} on one line: three problems per
                  element, every one located on the same line
  problems-pretty the same, one element per line
  tree            {"x":[{},{},...]}: a large invalid tree with 3 problems
  unknown-keys    one object of many unknown keys, on one line
  deep-array      [[[[...]]]]
  deep-object     {"a":{"a":{...}}}
  escapes-valid   a valid file whose texts are long strings of escapes
                  (\\u00e9, \\n, \\\\, surrogate pairs) on one line
  escapes-invalid the same with one more problem at the very end (an
                  unknown key), located after every escape of the line
  truncated       a large valid file cut off at SIZE bytes (a syntax
                  error at the end, after the whole tree was built)

and the paths that are not regular files (NONREGULAR; SIZE is ignored):

  fifo            a named pipe
  zero-link       a symbolic link to /dev/zero
  dir             a directory
  fifo-link       a symbolic link to a named pipe (OUT.fifo beside it)

measured() runs a command in a fresh process and gives its own CPU time
and peak RSS.  Used by tests/integration/test_hostile_files.py, bench/bench.py (the
loader's cost per byte) and for the fuzz seeds of tests/fuzz/corpus/store
(docs/fuzzing.md).  Python standard library only.
"""
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(os.path.dirname(HERE))
SAMPLE = os.path.join(SRCDIR, "data", "profile.json")
GEN_BIGDATA = os.path.join(SRCDIR, "bench", "gen-bigdata.py")

KINDS = ["valid", "problems-line", "problems-pretty", "tree",
         "unknown-keys", "deep-array", "deep-object", "escapes-valid",
         "escapes-invalid", "truncated"]
VALID_KINDS = ["valid", "escapes-valid"]
BAD_KINDS = [k for k in KINDS if k not in VALID_KINDS]
NONREGULAR = ["fifo", "zero-link", "dir", "fifo-link"]
KB = 1024
MB = 1024 * KB


def parse_size(text):
    text = text.strip().upper()
    scale = 1
    if text.endswith("K"):
        scale, text = 1024, text[:-1]
    elif text.endswith("M"):
        scale, text = 1024 * 1024, text[:-1]
    return int(text) * scale


def _sample():
    with open(SAMPLE, encoding="utf-8") as f:
        return json.load(f)


def _bigdata():
    spec = importlib.util.spec_from_file_location("gen_bigdata", GEN_BIGDATA)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _dump(data):
    return json.dumps(data, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


def _pad(body, size, kind):
    """body padded to exactly `size` bytes with trailing whitespace (JSON
    allows it after the value)."""
    if len(body) > size:
        raise ValueError("%s: %d bytes do not fit in %d" % (kind, len(body),
                                                            size))
    if len(body) == size:
        return body
    return body + b" " * (size - len(body) - 1) + b"\n"


def _repeat(head, element, sep, tail, size):
    """head + element (sep element)* + tail, as many elements as fit in
    `size` bytes."""
    room = size - len(head) - len(tail) - 1
    n = max(1, (room + len(sep)) // (len(element) + len(sep)))
    return head + sep.join([element] * n) + tail


def valid(size, variant=0):
    """A realistic valid file of exactly `size` bytes: the sample, its
    experience records and case studies repeated with unique ids and
    numbered texts (bench/gen-bigdata.py).  `variant` changes every
    record's number, so two variants differ in every record."""
    gb = _bigdata()
    data = _sample()
    exp, cases = data["experience"], data["caseStudies"]

    def build(n):
        d = dict(data)
        d["experience"] = gb.variants(exp, n, "x%d" % variant, 2)
        d["caseStudies"] = gb.variants(cases, n, "c%d" % variant, 2)
        if variant:
            for rec in d["experience"] + d["caseStudies"]:
                for k, v in rec.items():
                    if isinstance(v, dict) and set(v) == {"en", "es"}:
                        rec[k] = {lang: "%s v%d" % (t, variant)
                                  for lang, t in v.items()}
        return _dump(d)

    base = len(build(0))
    per = max(1, (len(build(20)) - base) // 20)
    n = max(0, (size - base) // per)
    body = build(n)
    while len(body) > size - 1 and n > 0:
        n = max(0, n - ((len(body) - size) // per + 1))
        body = build(n)
    return _pad(body, size, "valid")


def problems_line(size):
    return _pad(_repeat(b'{"skills":[', b"{}", b",", b"]}", size), size,
                "problems-line")


def problems_pretty(size):
    return _pad(_repeat(b'{"skills":[\n', b"  {}", b",\n", b"\n]}", size),
                size, "problems-pretty")


def tree(size):
    return _pad(_repeat(b'{"x":[', b"{}", b",", b"]}", size), size, "tree")


def unknown_keys(size):
    head = b'{"languages":["en","es"],'
    room = size - len(head) - 2
    keys, n, total = [], 0, 0
    while True:
        k = b'"u%07d":0' % n
        if total + len(k) + 1 > room:
            break
        keys.append(k)
        total += len(k) + 1
        n += 1
    return _pad(head + b",".join(keys) + b"}", size, "unknown-keys")


def deep_array(size):
    n = (size - 1) // 2
    return _pad(b"[" * n + b"]" * n, size, "deep-array")


def deep_object(size):
    n = (size - 2) // 7
    return _pad(b'{"a":' * n + b"{}" + b"}" * n, size, "deep-object")


# One unit of escapes: é as \u00e9, a newline, a backslash, a quote, 😀 as
# a surrogate pair, and a plain word.  `json.dumps(ensure_ascii=True)`
# would write the same escapes; written by hand to control their mix.
_ESCAPES = '\\u00e9\\n\\\\\\"\\ud83d\\ude00caf\\u00e9 '


def _escaped_string(nbytes):
    n = max(1, nbytes // len(_ESCAPES))
    return ('"' + _ESCAPES * n + '"').encode("ascii")


def _small_sample():
    """The sample with one record per collection and one item per list
    (about 5 KB): still valid."""
    data = _sample()
    for key, value in data.items():
        if isinstance(value, list) and key != "languages":
            data[key] = value[:1]
            for rec in data[key]:
                for k, v in rec.items():
                    if isinstance(v, list):
                        rec[k] = v[:1]
    return data


def _escapes(size, tail):
    """The sample (cut to _small_sample() below 64 KiB), on one line, its
    English and Spanish summaries each a string of escapes filling half
    of what is left of `size`."""
    data = _sample() if size >= 64 * 1024 else _small_sample()
    marker_en, marker_es = "@@EN@@", "@@ES@@"
    data["profile"]["summary"] = {"en": marker_en, "es": marker_es}
    body = _dump(data)
    if tail:
        body = body[:-1] + b"," + tail + b"}"
    room = size - len(body) + 2 * (len(marker_en) + 2) - 1
    s = _escaped_string(room // 2 - 2)
    body = body.replace(b'"' + marker_en.encode() + b'"', s) \
               .replace(b'"' + marker_es.encode() + b'"', s)
    return body


def escapes_valid(size):
    return _pad(_escapes(size, None), size, "escapes-valid")


def escapes_invalid(size):
    return _pad(_escapes(size, b'"unknownAtTheEnd":' + _escaped_string(64)),
                size, "escapes-invalid")


def truncated(size):
    whole = valid(size + size // 4 + 4096)
    return whole[:size]


GENERATORS = {
    "valid": valid, "problems-line": problems_line,
    "problems-pretty": problems_pretty, "tree": tree,
    "unknown-keys": unknown_keys, "deep-array": deep_array,
    "deep-object": deep_object, "escapes-valid": escapes_valid,
    "escapes-invalid": escapes_invalid, "truncated": truncated,
}


def generate(kind, size):
    """The bytes of `kind` (one of KINDS) at exactly `size` bytes."""
    data = GENERATORS[kind](size)
    assert len(data) == size, (kind, len(data), size)
    return data


def _remove(path):
    if os.path.islink(path) or os.path.isfile(path) or \
            (os.path.exists(path) and not os.path.isdir(path)):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


def make_nonregular(kind, path):
    """Puts a `kind` (one of NONREGULAR) at `path`, replacing whatever is
    there.  fifo-link also makes its target, `path`.fifo."""
    _remove(path)
    if kind == "fifo":
        os.mkfifo(path, 0o644)
    elif kind == "zero-link":
        os.symlink("/dev/zero", path)
    elif kind == "dir":
        os.mkdir(path, 0o755)
    elif kind == "fifo-link":
        target = path + ".fifo"
        _remove(target)
        os.mkfifo(target, 0o644)
        os.symlink(target, path)
    else:
        raise ValueError("unknown kind %r" % kind)
    return path


def write(kind, size, path):
    """Writes `kind` at `path` (atomically for regular kinds: a temporary
    file beside it renamed over it, as an editor saves)."""
    if kind in NONREGULAR:
        return make_nonregular(kind, path)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(generate(kind, size))
    os.chmod(tmp, 0o644)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    os.replace(tmp, path)
    return path


# ------------------------------------------------- measuring a loader
class Run:
    """What measured() saw: exit status, CPU seconds, peak RSS in bytes,
    wall seconds, the first 64 KiB of stdout and stderr, whether killed."""
    def __init__(self, argv, rc, cpu, maxrss, wall, out, err, killed):
        self.argv, self.rc, self.cpu, self.maxrss = argv, rc, cpu, maxrss
        self.wall, self.out, self.err, self.killed = wall, out, err, killed

    def __repr__(self):
        return "<%s: exit %s, %.3f s CPU, %.3f s wall, peak %.1f MB%s>" % (
            os.path.basename(self.argv[-1]), self.rc, self.cpu, self.wall,
            self.maxrss / MB, ", KILLED" if self.killed else "")


# Runs a command and writes its CPU time and peak RSS (KiB) to the file
# descriptor named by its first argument.  A child's ru_maxrss
# starts at the RSS of the process that forked it (Linux keeps the
# high-water mark of the memory image exec replaces), so the command must
# be forked by a small process, not by pytest: this one (about 10 MB, the
# same for every run, the sample's included).
_SPAWN = r"""
import json, os, sys
fd = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
os.write(fd, json.dumps([ru.ru_utime + ru.ru_stime, ru.ru_maxrss]).encode())
sys.exit(min(os.waitstatus_to_exitcode(status) % 256, 255))
"""


def measured(argv, limit, env=None):
    """Runs argv in a fresh process, killed after `limit` seconds, and
    measures its own CPU time (user + system) and peak RSS (os.wait4 in
    _SPAWN: not RUSAGE_CHILDREN, whose ru_maxrss is the largest of all
    the children pytest ever waited for)."""
    rfd, wfd = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen([sys.executable, "-c", _SPAWN, str(wfd)]
                             + list(argv), stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, env=env,
                             pass_fds=(wfd,), start_new_session=True)
        os.close(wfd)
        killed = False
        try:
            p.wait(limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            killed = True
        wall = time.monotonic() - t0
        with os.fdopen(rfd, "rb") as f:
            usage = f.read()
        out.seek(0)
        err.seek(0)
        o = out.read(64 * KB).decode("utf-8", "replace")
        e = err.read(64 * KB).decode("utf-8", "replace")
    cpu, maxrss = json.loads(usage) if usage else (float(limit), 0)
    return Run(argv, p.returncode, cpu, maxrss * KB, wall, o, e, killed)


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(KINDS + NONREGULAR))
        return 0
    if len(argv) != 4 or argv[1] not in KINDS + NONREGULAR:
        print("usage: %s KIND SIZE OUT   (KIND: %s)"
              % (argv[0], " ".join(KINDS + NONREGULAR)), file=sys.stderr)
        return 2
    write(argv[1], parse_size(argv[2]), argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
