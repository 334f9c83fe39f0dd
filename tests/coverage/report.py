# SPDX-License-Identifier: Apache-2.0
"""What tests/coverage/run.sh makes of gcovr's JSON.

    report.py project CODE_DIR ROOT IN.json OUT.json
    report.py table TOP PART...

project: the sanitize part is measured in a build with --enable-sanitizers,
whose instrumentation adds code of its own to the source lines: ASan's
marks at local declarations (lines the plain build has no code on) and
UBSan's checks (branches the plain build does not have).  OUT keeps IN's
counts on the lines that are code in the plain build (CODE_DIR: gcov's JSON
of each of its objects, `gcov --json-format`; ROOT: the source root that
the paths are relative to) and no branches, so that its lines compare with
the other parts' and its branches are not counted.

table: Markdown on stdout.  Reads TOP/parts/PART.json (gcovr's JSON of each
part; PART.time, its seconds; PART.failed, when its tests failed) and
TOP/all.json (their union, merged by gcovr --add-tracefile).  For each part
and the union: line and branch coverage of mod_profile/ and profilectl/,
counted as gcovr counts them (a line is code unless gcovr marks it
noncode, and a line holding only a brace is code only where it ran; a
branch is covered when taken at least once), and the lines that this part
covers and no other part does ("adds"), also with the sanitize part left
out (it runs the other parts' tests again)."""
import glob
import gzip
import json
import os
import sys

DIRS = ("mod_profile/", "profilectl/")
NOT_MEASURED = [
    ("fuzzing (`make check-fuzz`)",
     "not measured (built outside this tree: clang, libFuzzer)"),
    ("packages, distcheck (`make check-package`)",
     "not measured (built outside this tree)"),
]


def project(code_dir, root, src, out):
    code = set()
    for path in glob.glob(os.path.join(code_dir, "*.gcov.json.gz")):
        with gzip.open(path, "rt") as f:
            g = json.load(f)
        cwd = g["current_working_directory"]
        for fc in g["files"]:
            name = os.path.relpath(
                os.path.normpath(os.path.join(cwd, fc["file"])), root)
            code.update((name, ln["line_number"]) for ln in fc["lines"])
    if not code:
        sys.exit("report.py: no gcov JSON in %s" % code_dir)
    with open(src) as f:
        data = json.load(f)
    for fc in data["files"]:
        for ln in fc["lines"]:
            ln["branches"] = []
            if (fc["file"], ln["line_number"]) not in code:
                ln["gcovr/noncode"] = True
                ln["count"] = 0
    with open(out, "w") as f:
        json.dump(data, f, sort_keys=True)


def load(path):
    """{dir: [covered lines, lines, covered branches, branches]} and the
    set of covered (file, line)."""
    with open(path) as f:
        data = json.load(f)
    stats = {d: [0, 0, 0, 0] for d in DIRS}
    covered = set()
    for fc in data["files"]:
        name = fc["file"]
        d = next((d for d in DIRS if name.startswith(d)), None)
        if d is None:
            continue
        s = stats[d]
        for ln in fc["lines"]:
            if ln["gcovr/noncode"]:
                continue
            s[1] += 1
            if ln["count"] > 0:
                s[0] += 1
                covered.add((name, ln["line_number"]))
            s[3] += len(ln["branches"])
            s[2] += sum(1 for b in ln["branches"] if b["count"] > 0)
    return stats, covered


def pct(c, t):
    if t == 0:
        return "-"
    return "%.1f %% (%s/%s)" % (100.0 * c / t, "{:,}".format(c),
                                "{:,}".format(t))


def by_dir(lines):
    return " + ".join("{:,}".format(sum(1 for f, _ in lines
                                        if f.startswith(d)))
                      for d in DIRS)


def read(top, part, ext):
    try:
        with open(os.path.join(top, "parts", part + ext)) as f:
            return f.read().strip()
    except FileNotFoundError:
        return None


def table(top, parts):
    data = {p: load(os.path.join(top, "parts", p + ".json")) for p in parts}
    total_stats, total_cov = load(os.path.join(top, "all.json"))
    union = set().union(*(c for _, c in data.values()))
    if union != total_cov:
        sys.exit("report.py: gcovr's merge (all.json) and the parts' union "
                 "differ by %d lines" % len(union ^ total_cov))
    plain = [p for p in parts if p != "sanitize"]
    header = ["part", "time", "mod_profile/ lines", "mod_profile/ branches",
              "profilectl/ lines", "profilectl/ branches", "adds"]
    if "sanitize" in parts and len(parts) > 1:
        header.append("adds, sanitize left out")
    rows = []
    secs = 0
    for p in parts:
        stats, cov = data[p]
        others = set().union(*(data[q][1] for q in parts if q != p))
        t = read(top, p, ".time")
        secs += int(t or 0)
        row = [p + (" (FAILED)" if read(top, p, ".failed") else ""),
               (t + " s") if t else "-"]
        for d in DIRS:
            c, n, bc, bn = stats[d]
            row += [pct(c, n), pct(bc, bn)]
        row.append(by_dir(cov - others))
        if len(header) > len(row):
            if p == "sanitize":
                row.append("")
            else:
                rest = set().union(*(data[q][1] for q in plain if q != p))
                row.append(by_dir(cov - rest))
        rows.append(row)
    row = ["check-all (%s)" % ("all parts" if len(parts) == 5
                               else ", ".join(parts)),
           "%d s" % secs]
    for d in DIRS:
        c, n, bc, bn = total_stats[d]
        row += [pct(c, n), pct(bc, bn)]
    rows.append(row + [""] * (len(header) - len(row)))

    widths = [max(len(r[i]) for r in rows + [header])
              for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in
                                 zip(cells, widths)) + " |"

    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print()
    print("Lines: covered/code lines; branches: taken/all.  adds: the "
          "lines of mod_profile/ + profilectl/ that this part covers and no "
          "other part does.")
    if "sanitize" in parts:
        print("sanitize: measured in a build with --enable-sanitizers and "
              "counted on the plain build's lines; its branches are not "
              "counted (UBSan's checks add branches of their own).")
    for name, what in NOT_MEASURED:
        print("%s: %s." % (name, what))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "project":
        project(*sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "table":
        table(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
