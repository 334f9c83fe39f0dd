#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shape of profilectl/ and the size of every source file (run by
`make check`; issue 34, deliverable 7).

Fails when:
  * a C source or header of mod_profile/ or profilectl/ has LIMIT lines
    or more (the project's size limit; a file is cut along its ideas
    well before it, never squeezed to it);
  * profilectl/'s include graph has a cycle between folders, or a folder
    includes another that is not below it in LAYERS (calls run one way:
    the top's commands -> the formats -> the import's common stages and
    the texts -> common/ -> the module's core);
  * a file includes another folder's private header: a folder's interface
    is the header named after it (import/import.h, po/po.h...);
  * with the objects built (BUILDDIR), its call graph (`nm` of each
    profilectl/**/profilectl-*.o: which file defines the symbols another
    file uses) has a cycle between two files or between folders, or a
    call upwards in LAYERS.

Usage: check-shape.py [SRCDIR [BUILDDIR]] (default: the environment's
SRCDIR and BUILDDIR, else this file's repository).  Exit status 0 or 1.
"""
import os
import re
import shutil
import subprocess
import sys

LIMIT = 500

# profilectl/'s folders, each above the ones with a lower number: a file
# may include or call only its own folder's files and lower folders'
# interfaces.  The top ("") is profilectl.c and the commands of no
# format.
LAYERS = {
    "": 5,
    "import/jsonresume": 4,
    "import/linkedin": 4,
    "export": 4,
    "po": 4,
    "import": 3,
    "texts": 2,
    "common": 1,
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(d, f)


def folder(rel):
    return os.path.dirname(rel)


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan),
    and the nodes with an edge to themselves."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(edges) | {m for ms in edges.values() for m in ms}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges.get(v, ()):
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check_layers(kind, edges, why, problems):
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a == b:
                continue
            for f in (a, b):
                if f not in LAYERS:
                    problems.append("profilectl/%s: a folder LAYERS in "
                                    "tests/check-shape.py does not list"
                                    % f)
            if a in LAYERS and b in LAYERS and LAYERS[b] >= LAYERS[a]:
                problems.append("%s: %s/ -> %s/ goes up or sideways (%s)"
                                % (kind, a or "profilectl", b, why[(a, b)]))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    srcdir = (sys.argv[1] if len(sys.argv) > 1
              else os.environ.get("SRCDIR") or os.path.dirname(here))
    builddir = (sys.argv[2] if len(sys.argv) > 2
                else os.environ.get("BUILDDIR") or srcdir)
    pc = os.path.join(srcdir, "profilectl")
    problems = []

    # ------------------------------------------------------------ sizes
    largest = []
    for top in ("mod_profile", "profilectl"):
        for path in sources(os.path.join(srcdir, top)):
            with open(path, encoding="utf-8", errors="replace") as f:
                n = sum(1 for _ in f)
            rel = os.path.relpath(path, srcdir)
            largest.append((n, rel))
            if n >= LIMIT:
                problems.append("%s: %d lines, at or above the limit of %d: "
                                "cut it along its ideas" % (rel, n, LIMIT))
    largest.sort(reverse=True)

    # ------------------------------------------------------------ includes
    files = {os.path.relpath(p, pc): p for p in sources(pc)}
    inc_files, inc_folders, why = {}, {}, {}
    for rel, path in sorted(files.items()):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name in INCLUDE.findall(text):
            if name not in files:
                continue            # the core's (mod_profile/) or a system's
            inc_files.setdefault(rel, set()).add(name)
            a, b = folder(rel), folder(name)
            if a == b:
                continue
            inc_folders.setdefault(a, set()).add(b)
            why.setdefault((a, b), "%s includes %s" % (rel, name))
            interface = os.path.join(b, os.path.basename(b) + ".h")
            if name != interface:
                problems.append("profilectl/%s includes %s, private to %s/ "
                                "(its interface is %s)"
                                % (rel, name, b or "profilectl",
                                   interface if b else "none: it is the "
                                   "top"))
    for c in cycles(inc_files):
        problems.append("include cycle between files: " + " -> ".join(c))
    for c in cycles(inc_folders):
        problems.append("include cycle between folders: "
                        + " -> ".join(x or "profilectl" for x in c))
    check_layers("include", inc_folders, why, problems)
    nedges = sum(len(v) for v in inc_files.values())
    summary = ["%d files in profilectl/, %d includes between them, "
               "%d folders" % (len(files), nedges,
                               len({folder(f) for f in files}))]

    # ------------------------------------------------------------ calls
    objs = []
    for d, _, fs in os.walk(os.path.join(builddir, "profilectl")):
        objs += [os.path.join(d, f) for f in fs
                 if f.startswith("profilectl-") and f.endswith(".o")]
    nm = shutil.which("nm")
    if objs and nm:
        defs, uses, nobj = {}, {}, 0
        bdir = os.path.join(builddir, "profilectl")
        for o in sorted(objs):
            rel = os.path.relpath(o, bdir)
            unit = os.path.join(os.path.dirname(rel),
                                os.path.basename(rel)[len("profilectl-"):-2])
            if unit + ".c" not in files:
                continue            # an object of a file since moved away
            nobj += 1
            out = subprocess.run([nm, o], capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in "TDRBC":
                    defs[p[2]] = unit
                elif len(p) == 2 and p[0] == "U":
                    uses.setdefault(unit, set()).add(p[1])
        call_files, call_folders, cwhy = {}, {}, {}
        for unit, syms in uses.items():
            for s in sorted(syms):
                to = defs.get(s)
                if to is None or to == unit:
                    continue
                call_files.setdefault(unit, set()).add(to)
                a, b = folder(unit), folder(to)
                if a != b:
                    call_folders.setdefault(a, set()).add(b)
                    cwhy.setdefault((a, b), "%s calls %s (%s)"
                                    % (unit, s, to))
        for c in cycles(call_files):
            problems.append("call cycle between files: " + " -> ".join(c))
        for c in cycles(call_folders):
            problems.append("call cycle between folders: "
                            + " -> ".join(x or "profilectl" for x in c))
        check_layers("call", call_folders, cwhy, problems)
        summary.append("%d objects, %d calls between files"
                       % (nobj, sum(len(v) for v in call_files.values())))
    else:
        summary.append("calls not checked (%s)"
                       % ("no nm" if objs else "profilectl not built in "
                          + builddir))

    for s in summary:
        print(s)
    print("largest: " + ", ".join("%s %d" % (r, n) for n, r in largest[:5]))
    if problems:
        for p in problems:
            print("FAIL: " + p)
        print("0 passed, %d failed" % len(problems))
        return 1
    print("no file at or above %d lines, no cycle, calls one way" % LIMIT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
