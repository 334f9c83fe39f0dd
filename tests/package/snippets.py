#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The configuration snippets the docs show an administrator, for
# tests/package/run.sh: every code block of README.md, docs/*.md and
# debian/README.Debian (indented or fenced) and every file of httpd-conf/
# that names the module -- one of its directives (`Profile...`), its
# handlers (`SetHandler profile...`) or its log level (`LogLevel ...
# profile:...`).  The lines naming a directive or the log level must be
# inside <IfModule profile_module>: outside it, httpd refuses its whole
# configuration once the module is disabled or its package removed
# ("Invalid command 'ProfileData'", "Cannot find module profile").
# (`SetHandler profile...` is httpd's own directive: without the module it
# parses, and the URL answers 404.)  Shell sessions ("$ ...") are not
# snippets.
#
#     snippets.py SRCDIR OUTDIR DATA
#
# Prints each unguarded line and exits 1 if there is one.  Otherwise
# writes each snippet of the docs (not the package's own httpd-conf files,
# which run.sh enables with a2enmod/a2enconf/a2ensite; but
# profile-compression.conf, which administrators include) to
# OUTDIR/zz-snippet-N.conf as an administrator would apply it on
# Debian, with its URLs moved below /snippet-N (so that each is told apart
# and none replaces the package's example at /api/v1), its ProfileData
# naming DATA, and no LoadModule line (a2enmod loads the module); and
# the same without the <IfModule profile_module> lines to OUTDIR/bare/;
# and OUTDIR/manifest, one line per URL to check: "api URL" (the API's
# base), "status URL" (a JSON status) or "none SOURCE" (a snippet that
# publishes nothing, e.g. a LogLevel), and "lang URL LANG" for an API base
# whose section sets Accept-Language (its answers are in LANG).
import glob
import os
import re
import sys

MODULE_LINE = re.compile(r"^\s*(Profile[A-Z][A-Za-z]*\s|LogLevel\s.*\bprofile:)")
OPEN_GUARD = re.compile(r"^\s*<IfModule\s+!?(profile_module|mod_profile\.c)\s*>",
                        re.I)
OPEN_OTHER = re.compile(r"^\s*<IfModule\b", re.I)
CLOSE = re.compile(r"^\s*</IfModule\s*>", re.I)
HANDLER = re.compile(r"^\s*SetHandler\s+\"?profile")


def names_module(lines):
    return any(MODULE_LINE.match(l) or HANDLER.match(l) for l in lines)


def md_blocks(path):
    """(line number, lines) of each code block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield i + 2, lines[i + 1:j]
            i = j + 1
            continue
        if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            block = []
            while j < len(lines) and (lines[j].startswith("    ")
                                      or not lines[j].strip()):
                block.append(lines[j][4:])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            yield i + 1, block
            i = j
            continue
        i += 1


def unguarded(lines):
    """The module's lines outside <IfModule profile_module>."""
    stack, bad = [], []
    for n, line in enumerate(lines):
        if OPEN_GUARD.match(line):
            stack.append(True)
        elif OPEN_OTHER.match(line):
            stack.append(False)
        elif CLOSE.match(line):
            if stack:
                stack.pop()
        elif MODULE_LINE.match(line) and not line.lstrip().startswith("#") \
                and True not in stack:
            bad.append((n, line.strip()))
    return bad


def unwrap(lines):
    """lines without their <IfModule profile_module> and its </IfModule>."""
    stack, kept = [], []
    for line in lines:
        if OPEN_GUARD.match(line):
            stack.append(True)
            continue
        if OPEN_OTHER.match(line):
            stack.append(False)
        elif CLOSE.match(line) and stack and stack.pop():
            continue
        kept.append(line)
    return kept


def main():
    src, out, data = sys.argv[1:]
    sources = [os.path.join(src, "README.md")]
    sources += sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    sources.append(os.path.join(src, "debian", "README.Debian"))
    snippets = []       # (source:line, lines, apply?)
    for path in sources:
        rel = os.path.relpath(path, src)
        blocks = (md_blocks(path) if path.endswith(".md")
                  else md_blocks_plain(path))
        for start, block in blocks:
            # A shell session ("$ command" and its output) is no snippet.
            if block and block[0].startswith("$ "):
                continue
            if names_module(block):
                snippets.append(("%s:%d" % (rel, start), block, True))
    for path in sorted(glob.glob(os.path.join(src, "httpd-conf", "*.conf"))):
        rel = os.path.relpath(path, src)
        lines = open(path, encoding="utf-8").read().split("\n")
        snippets.append((rel + ":1", lines,
                         os.path.basename(path) == "profile-compression.conf"))
    bad = 0
    for where, lines, _ in snippets:
        for n, line in unguarded(lines):
            print("%s: not inside <IfModule profile_module>: %s"
                  % (where, line))
            bad += 1
    if bad:
        return 1
    os.makedirs(os.path.join(out, "bare"), exist_ok=True)
    manifest = []
    n = 0
    for where, lines, apply in snippets:
        if not apply:
            continue
        n += 1
        prefix = "/snippet-%d" % n
        body = []
        urls = []
        for line in lines:
            if re.match(r"^\s*LoadModule\s+profile_module\b", line):
                continue
            line = re.sub(r"^(\s*ProfileData\s+)\S+", r'\1"%s"' % data, line)
            m = re.match(r"^(\s*<Location\s+)(/\S*)>", line)
            if m:
                line = "%s%s%s>" % (m.group(1), prefix, m.group(2))
                urls.append(prefix + m.group(2))
            body.append(line)
        text = "\n".join(body)
        kinds = []
        for url in urls:
            loc = text.split("<Location %s>" % url, 1)[1].split("</Location>")[0]
            if re.search(r"SetHandler\s+profile\s*$", loc, re.M):
                kinds.append("api " + url)
                # One base per language (docs/page.md): its answers are
                # in the language the section sets.
                lang = re.search(r"^\s*RequestHeader\s+set\s+Accept-Language"
                                 r"\s+([a-z]+)\s*$", loc, re.M)
                if lang:
                    kinds.append("lang %s %s" % (url, lang.group(1)))
            elif re.search(r"SetHandler\s+profile-status\b", loc):
                kinds.append("status " + url)
        if not kinds:
            kinds.append("none " + where)
        with open(os.path.join(out, "zz-snippet-%d.conf" % n), "w",
                  encoding="utf-8") as f:
            f.write("# tests/package/run.sh: applied from %s\n%s\n"
                    % (where, text))
        with open(os.path.join(out, "bare", "zz-snippet-%d.conf" % n), "w",
                  encoding="utf-8") as f:
            f.write("# tests/package/run.sh: %s without its guards\n%s\n"
                    % (where, "\n".join(unwrap(body))))
        manifest += kinds
    with open(os.path.join(out, "manifest"), "w", encoding="utf-8") as f:
        f.write("".join(k + "\n" for k in manifest))
    print("%d snippets checked, %d applied" % (len(snippets), n))
    return 0


def md_blocks_plain(path):
    """Indented blocks of a plain-text file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            block = []
            while j < len(lines) and (lines[j].startswith("    ")
                                      or not lines[j].strip()):
                block.append(lines[j][4:])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            yield i + 1, block
            i = j
            continue
        i += 1


if __name__ == "__main__":
    sys.exit(main())
