# SPDX-License-Identifier: Apache-2.0
"""Translators' tools (docs/translating.md, profilectl.1): untranslated
lists each missing or empty translation by record and field, check
counts them per language, export-po and import-po carry the texts
through a gettext PO file (libgettextpo) and back: a round trip through
msgen and msgfilter, "source changed" not applied, re-exports marking
stale translations fuzzy with the old source as #| msgid, msgfmt --check
clean, and bad PO files refused with a message, never a crash."""
import copy
import json
import os
import random
import re
import resource
import shutil
import subprocess
import tempfile

import pytest

import httpd_harness as h

PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
GETTEXT = all(shutil.which(t) for t in ("msgfmt", "msgen", "msgfilter",
                                         "msgattrib"))
needs_gettext = pytest.mark.skipif(not GETTEXT, reason="no gettext tools "
                                   "(scripts/install-deps installs gettext)")


def ctl(*args, rc=None):
    cp = subprocess.run([PROFILECTL] + [str(a) for a in args],
                        capture_output=True, timeout=60)
    assert cp.returncode >= 0, cp           # never a signal
    if rc is not None:
        assert cp.returncode == rc, (args, cp.returncode, cp.stdout,
                                     cp.stderr)
    return cp


def gettext(*args):
    cp = subprocess.run([str(a) for a in args], capture_output=True,
                        timeout=60)
    assert cp.returncode == 0, cp
    return cp


def msgfmt_check(po):
    cp = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)],
                        capture_output=True, timeout=60)
    assert cp.returncode == 0 and cp.stderr == b"", cp.stderr


def sample():
    with open(h.SAMPLE_DATA, encoding="utf-8") as f:
        return json.load(f)


def write(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
    return str(path)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def gaps(d):
    """Empty translations of non-empty texts, which the module's
    validator accepts: the shape `profilectl new` used to write."""
    d = copy.deepcopy(d)
    d["experience"][0]["role"]["es"] = ""
    d["experience"][0]["highlights"][1]["es"] = ""
    d["skills"][0]["title"]["es"] = ""
    d["contact"]["contacts"][0]["label"]["es"] = ""
    return d


def fallback_lands():
    """The module's part of issue 27 (a file naming a fallback loads)."""
    d = sample()
    d["fallback"] = "en"
    with tempfile.TemporaryDirectory() as tmp:
        return ctl("check", write(os.path.join(tmp, "fb.json"),
                                  d)).returncode == 0


def without_es(v):
    """v with every Spanish translation left out."""
    if isinstance(v, dict):
        return {k: without_es(x) for k, x in v.items()
                if not (k == "es" and "en" in v)}
    if isinstance(v, list):
        return [without_es(x) for x in v]
    return v


def key(d, coll, i):
    return "%s/%s" % (coll, d[coll][i]["id"])


# ---------------------------------------------------------- untranslated

def test_sample_has_nothing_untranslated():
    cp = ctl("untranslated", h.SAMPLE_DATA, rc=0)
    assert cp.stdout == b""
    assert re.search(rb": es: 0 of \d+ texts untranslated\n$", cp.stderr)
    # A good file with every translation: check prints nothing at all.
    cp = ctl("check", h.SAMPLE_DATA, rc=0)
    assert (cp.stdout, cp.stderr) == (b"", b"")


def test_untranslated_lists_by_record_id_and_field(tmp_path):
    d = gaps(sample())
    path = write(tmp_path / "gaps.json", d)
    exp = key(d, "experience", 0)
    src = d["experience"][0]
    title = d["skills"][0]["title"]["en"]
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    cp = ctl("untranslated", path, rc=1)
    got = cp.stdout.decode().splitlines()
    assert got == [
        "es skills/%s title: empty: %s" % (slug, json.dumps(
            title, ensure_ascii=False)),
        "es %s role: empty: %s" % (exp, json.dumps(
            src["role"]["en"], ensure_ascii=False, separators=(",", ":"))),
        "es %s highlights[1]: empty: %s" % (exp, json.dumps(
            src["highlights"][1]["en"], ensure_ascii=False)),
        "es contacts/%s label: empty: %s" % (
            d["contact"]["contacts"][0]["kind"],
            json.dumps(d["contact"]["contacts"][0]["label"]["en"],
                       ensure_ascii=False)),
    ], got
    assert b"es: 4 of " in cp.stderr
    js = json.loads(ctl("untranslated", "--json", "--lang", "es", path,
                        rc=1).stdout)
    assert [j["key"] for j in js] == [g.split(":")[0][3:] for g in got]
    role = js[1]
    assert role == {"lang": "es", "key": exp + " role", "record": exp,
                    "field": "role", "path": "$.experience[0].role",
                    "state": "empty", "source": src["role"]["en"]}


def test_untranslated_reads_a_file_whose_only_problems_are_missing(
        tmp_path):
    """Without fallback the module refuses a missing translation; the
    tool that lists them must still read the file."""
    d = sample()
    del d["experience"][1]["context"]["es"]
    d["experience"][1]["highlights"] = {"en": ["One", "Two"]}
    path = write(tmp_path / "missing.json", d)
    assert ctl("check", path).returncode == 1
    got = ctl("untranslated", path, rc=1).stdout.decode().splitlines()
    exp = key(d, "experience", 1)
    assert got == ["es %s context: missing: %s" % (
        exp, json.dumps(d["experience"][1]["context"]["en"],
                        ensure_ascii=False)),
        'es %s highlights: missing: ["One","Two"]' % exp], got


def test_untranslated_with_a_fallback_takes_its_source_from_it(tmp_path):
    d = sample()
    d["languages"] = ["es", "en"]
    d["fallback"] = "en"
    del d["profile"]["headline"]["es"]
    path = write(tmp_path / "fallback.json", d)
    got = ctl("untranslated", path, rc=1).stdout.decode().splitlines()
    assert got == ["es profile headline: missing: %s" % json.dumps(
        d["profile"]["headline"]["en"], ensure_ascii=False)]
    cp = ctl("untranslated", "--lang", "en", path, rc=2)
    assert b"source language" in cp.stderr and b"fallback" in cp.stderr


def test_untranslated_refuses_other_problems_and_bad_languages(tmp_path):
    d = sample()
    d["experience"][0]["colour"] = "red"
    cp = ctl("untranslated", write(tmp_path / "bad.json", d), rc=2)
    assert b'unknown key "colour"' in cp.stderr
    cp = ctl("untranslated", "--lang", "fr", h.SAMPLE_DATA, rc=2)
    assert b'no language "fr" (it has en, es)' in cp.stderr
    d = sample()
    d["fallback"] = "fr"
    cp = ctl("untranslated", write(tmp_path / "fb.json", d), rc=2)
    assert b"$.fallback" in cp.stderr


def test_records_without_id_get_unique_keys(tmp_path):
    d = sample()
    d["skills"].append(copy.deepcopy(d["skills"][0]))
    d["skills"][-1]["summary"]["es"] = ""
    title = d["skills"][0]["title"]["en"]
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    got = ctl("untranslated", write(tmp_path / "dup.json", d),
              rc=1).stdout.decode()
    assert got.startswith("es skills/%s-2 summary: empty: " % slug), got


# ------------------------------------------------------------------ check

def test_check_counts_untranslated_per_language(tmp_path):
    """One line per language but the source, when any is untranslated
    (here fr: every text but the lists, whose arrays are copied)."""
    d = gaps(sample())
    d["languages"] = ["en", "es", "fr"]

    def add_fr(v):
        if isinstance(v, dict):
            if "en" in v and "es" in v and isinstance(v["en"], (str, list)):
                v["fr"] = v["en"] if isinstance(v["en"], list) else ""
            for x in list(v.values()):
                add_fr(x)
        elif isinstance(v, list):
            for x in v:
                add_fr(x)
    add_fr(d)
    path = write(tmp_path / "three.json", d)
    cp = ctl("check", path, rc=0)
    assert cp.stdout == b""
    err = cp.stderr.decode().splitlines()
    total = int(re.search(r"of (\d+) texts", err[0]).group(1))
    lists = sum(1 for line in ctl("export-po", "--lang", "fr", path,
                                  rc=0).stdout.decode().split("\n")
                if line.startswith("#. A list"))
    assert err == [
        "%s: es: 4 of %d texts untranslated (profilectl untranslated "
        "--lang es %s lists them)" % (path, total, path),
        "%s: fr: %d of %d texts untranslated (profilectl untranslated "
        "--lang fr %s lists them)" % (path, total - lists, total, path)]


# ------------------------------------------------------------- PO files

@needs_gettext
def test_round_trip_through_msgen_and_msgfilter(tmp_path):
    d = gaps(sample())
    path = write(tmp_path / "gaps.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    msgfmt_check(po)
    text = po.read_text(encoding="utf-8")
    assert '"Language: es\\n"' in text and "charset=UTF-8" in text
    assert text.count("msgctxt ") == len(set(re.findall(r'msgctxt "(.*)"',
                                                        text)))
    # A translator: msgen fills the empty ones, msgfilter marks all.
    filled = tmp_path / "filled.po"
    gettext("msgen", "-o", filled, po)
    done = tmp_path / "done.po"
    gettext("msgfilter", "--keep-header", "-i", filled, "-o", done,
            "sed", "-e",
            "s/^/[es] /")
    msgfmt_check(done)
    out = tmp_path / "out.json"
    cp = ctl("import-po", done, path, "-o", out, rc=0)
    assert re.search(rb"\d+ applied \(\d+ changed\), 0 not applied",
                     cp.stderr), cp.stderr
    ctl("check", out, rc=0)
    ctl("untranslated", out, rc=0)
    got = load(out)
    exp = got["experience"][0]
    assert exp["role"]["es"] == "[es] " + exp["role"]["en"]
    assert exp["highlights"][1]["es"] == "[es] " + \
        exp["highlights"][1]["en"]
    assert got["profile"]["headline"]["es"] == "[es] " + \
        d["profile"]["headline"]["es"]
    # Only the translations changed.
    assert without_es(got) == without_es(d)


@needs_gettext
def test_source_changed_is_not_applied_and_reexport_marks_fuzzy(tmp_path):
    d = sample()
    path = write(tmp_path / "p.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    old_role = d["experience"][0]["role"]["en"]
    d["experience"][0]["role"]["en"] = "Head of Platform"
    changed = write(tmp_path / "changed.json", d)
    out = tmp_path / "out.json"
    # Not applied (exit 1), and the stale Spanish withdrawn: the file had
    # no fallback, so its source language becomes one.
    cp = ctl("import-po", po, changed, "-o", out, rc=1)
    k = key(d, "experience", 0) + " role"
    assert ("%s: %s ($.experience[0].role): source changed" % (po, k)
            ).encode() in cp.stderr
    assert b"1 source changed" in cp.stderr
    assert b"1 stale withdrawn" in cp.stderr
    assert b'the result has "fallback": "en"' in cp.stderr
    assert load(out)["experience"][0]["role"] == {"en": "Head of Platform"}
    assert load(out)["fallback"] == "en"
    # Re-exported over the old file (read as the previous translation),
    # and to another with --previous: the same fuzzy entry.
    other = tmp_path / "other.po"
    ctl("export-po", "--lang", "es", "--previous", po, "-o", other, changed,
        rc=0)
    ctl("export-po", "--lang", "es", "-o", po, changed, rc=0)
    assert po.read_bytes() == other.read_bytes()
    msgfmt_check(po)
    fuzzy = gettext("msgattrib", "--only-fuzzy", po).stdout.decode()
    assert fuzzy.count("msgctxt ") == 1
    assert '#| msgid "%s"\nmsgctxt "%s"\nmsgid "Head of Platform"\n' \
        'msgstr "%s"' % (old_role, k, d["experience"][0]["role"]["es"]) \
        in fuzzy, fuzzy
    # Fuzzy stays fuzzy, and is not applied.
    ctl("export-po", "--lang", "es", "-o", po, changed, rc=0)
    assert gettext("msgattrib", "--only-fuzzy", po).stdout.decode() == fuzzy
    cp = ctl("import-po", po, changed, "-o", out, rc=1)
    assert b"1 fuzzy" in cp.stderr and b"0 source changed" in cp.stderr
    assert ("%s: %s ($.experience[0].role): fuzzy: translated from" % (
        po, k)).encode() in cp.stderr


@needs_gettext
def test_removed_text_keeps_its_translation_as_obsolete(tmp_path):
    d = sample()
    path = write(tmp_path / "p.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    gone = key(d, "experience", 0)
    del d["experience"][0]
    ctl("export-po", "--lang", "es", "-o", po, write(tmp_path / "q.json", d),
        rc=0)
    text = po.read_text(encoding="utf-8")
    assert '#~ msgctxt "%s role"' % gone in text
    assert '\nmsgctxt "%s role"' % gone not in text
    msgfmt_check(po)
    # Unknown keys are reported on import, not applied.
    old = tmp_path / "old.po"
    ctl("export-po", "--lang", "es", "-o", old, path, rc=0)
    cp = ctl("import-po", old, tmp_path / "q.json", "-o",
             tmp_path / "o.json", rc=1)
    assert ("%s role: no such text" % gone).encode() in cp.stderr
    ctl("check", tmp_path / "o.json", rc=0)


@needs_gettext
def test_list_given_per_language_is_one_entry_of_lines(tmp_path):
    d = sample()
    d["experience"][0]["highlights"] = {"en": ["Led A", "Built B"],
                                        "es": []}
    path = write(tmp_path / "l.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    text = po.read_text(encoding="utf-8")
    k = key(d, "experience", 0) + " highlights"
    assert ('#. The highlights of this role: achievements, bullet points.\n'
            '#. A list: one item per line. The translation may have more '
            'or fewer lines.\n#: $.experience[0].highlights\n'
            'msgctxt "%s"\nmsgid ""\n"Led A\\n"\n'
            '"Built B"\nmsgstr ""\n' % k) in text, text
    done = tmp_path / "done.po"
    text = text.replace('"Built B"\nmsgstr ""',
                        '"Built B"\nmsgstr "Dirigí A\\nConstruí B\\nY C"')
    done.write_text(text, encoding="utf-8")
    msgfmt_check(done)
    out = tmp_path / "o.json"
    ctl("import-po", done, path, "-o", out, rc=0)
    assert load(out)["experience"][0]["highlights"] == {
        "en": ["Led A", "Built B"], "es": ["Dirigí A", "Construí B", "Y C"]}
    ctl("check", out, rc=0)


@needs_gettext
def test_newline_mismatch_is_exported_fuzzy_so_msgfmt_accepts(tmp_path):
    d = sample()
    d["profile"]["summary"]["en"] += "\n"
    path = write(tmp_path / "nl.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    msgfmt_check(po)
    assert 'msgctxt "profile summary"' in gettext(
        "msgattrib", "--only-fuzzy", po).stdout.decode()


def test_import_keeps_the_file_valid(tmp_path):
    """Two missing translations without a fallback, one translated: the
    result would not load, so nothing is written (exit 1)."""
    d = sample()
    del d["profile"]["headline"]["es"]
    del d["profile"]["summary"]["es"]
    path = write(tmp_path / "m.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    text = po.read_text(encoding="utf-8")
    text = re.sub(r'(msgctxt "profile headline"\nmsgid .*\nmsgstr )""',
                  r'\1"Titular"', text)
    po.write_text(text, encoding="utf-8")
    out = tmp_path / "o.json"
    cp = ctl("import-po", po, path, "-o", out, rc=1)
    assert b'$.profile.summary: missing translation "es"' in cp.stderr
    assert b"nothing written" in cp.stderr and not out.exists()
    text = re.sub(r'(msgctxt "profile summary"\nmsgid (?:".*"\n)+msgstr )'
                  r'""', r'\1"Resumen"', text)
    po.write_text(text, encoding="utf-8")
    ctl("import-po", po, path, "-o", out, rc=0)
    assert load(out)["profile"]["summary"]["es"] == "Resumen"


@pytest.mark.skipif(not fallback_lands(), reason="the module's fallback "
                    "(issue 27, branch fallback) has not landed: its "
                    "validator refuses \"fallback\"")
def test_import_into_a_file_with_a_fallback(tmp_path):
    d = sample()
    d["fallback"] = "en"
    del d["profile"]["headline"]["es"]
    del d["profile"]["summary"]["es"]
    path = write(tmp_path / "fb.json", d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    text = re.sub(r'(msgctxt "profile headline"\nmsgid .*\nmsgstr )""',
                  r'\1"Titular"', po.read_text(encoding="utf-8"))
    po.write_text(text, encoding="utf-8")
    out = tmp_path / "o.json"
    ctl("import-po", po, path, "-o", out, rc=0)
    got = load(out)
    assert got["profile"]["headline"]["es"] == "Titular"
    assert "es" not in got["profile"]["summary"]
    ctl("untranslated", out, rc=1)


# --------------------------------------------------------- bad PO files

HEADER = 'msgid ""\nmsgstr ""\n"Language: es\\n"\n' \
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.mark.parametrize("name,body,said", [
    ("syntax", HEADER + 'msgctxt "profile name"\nmsgid "x\n',
     b"bad.po:8: end-of-line within string"),
    ("random", None, b"is not a PO file libgettextpo can read"),
    ("latin1", ('msgid ""\nmsgstr "Language: es\\nContent-Type: text/plain;'
                ' charset=ISO-8859-1\\n"\n\nmsgctxt "profile headline"\n'
                'msgid "a"\nmsgstr "\xe9"\n').encode("latin-1"),
     b"charset is not UTF-8"),
    ("bad utf-8", HEADER.encode() + b'msgctxt "profile headline"\n'
     b'msgid "a"\nmsgstr "\xff\xfe"\n', b"bad.po:8: invalid multibyte sequence"),
    ("plural", HEADER + 'msgctxt "profile headline"\nmsgid "a"\n'
     'msgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\n',
     b"plural forms"),
    ("duplicate", HEADER + 'msgctxt "a"\nmsgid "x"\nmsgstr "y"\n\n'
     'msgctxt "a"\nmsgid "x"\nmsgstr "z"\n', b"duplicate message"),
    ("no language", 'msgid ""\nmsgstr "Content-Type: text/plain; '
     'charset=UTF-8\\n"\n', b"no Language in its header"),
    ("other language", HEADER.replace("es", "fr"),
     b'has no language "fr"'),
    ("source language", HEADER.replace("es", "en_GB"),
     b'"en" is the source language'),
    ("empty", b"", b"no Language in its header"),
])
def test_bad_po_file_is_a_clear_error(tmp_path, name, body, said):
    if body is None:
        body = random.Random(27).randbytes(4000)
    po = tmp_path / "bad.po"
    po.write_bytes(body if isinstance(body, bytes) else body.encode())
    out = tmp_path / "out.json"
    cp = ctl("import-po", po, h.SAMPLE_DATA, "-o", out, rc=2)
    assert said in cp.stderr, cp.stderr
    assert cp.stderr.splitlines()[-1].startswith(b"profilectl import-po: ")
    assert not out.exists()


def test_po_larger_than_the_bound_is_refused(tmp_path):
    po = tmp_path / "big.po"
    with open(po, "wb") as f:
        f.truncate(32 * 1024 * 1024 + 1)
    cp = ctl("import-po", po, h.SAMPLE_DATA, rc=2)
    assert b"larger than 32 MB" in cp.stderr


def test_po_that_is_not_a_regular_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "in.po"
    os.mkfifo(fifo)
    for args in (["import-po", fifo, h.SAMPLE_DATA],
                 ["export-po", "--lang", "es", "--previous", fifo,
                  h.SAMPLE_DATA]):
        cp = ctl(*args, rc=2)
        assert b"a FIFO, not a regular file" in cp.stderr


def test_existing_output_that_is_not_a_po_file_is_left_alone(tmp_path):
    out = tmp_path / "notes.po"
    out.write_bytes(b"my notes\n")
    cp = ctl("export-po", "--lang", "es", "-o", out, h.SAMPLE_DATA, rc=2)
    assert b"read as the previous translation" in cp.stderr
    assert out.read_bytes() == b"my notes\n"


def test_export_over_the_data_file_is_refused(tmp_path):
    path = write(tmp_path / "p.json", sample())
    before = open(path, "rb").read()
    cp = ctl("export-po", "--lang", "es", "-o", path, path, rc=2)
    assert b"it is an input of this command" in cp.stderr
    assert open(path, "rb").read() == before


def test_mutated_po_files_never_crash(tmp_path):
    """Hostile input, fuzz-style: a valid PO file mutated at random
    (bytes flipped, inserted, cut, lines repeated), each imported: exit
    0, 1 or 2 with a message, never a signal or a hang; what is written
    loads (exit 1 may have written it: entries were not applied)."""
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, h.SAMPLE_DATA, rc=0)
    good = po.read_bytes()
    rnd = random.Random(2027)
    bad = tmp_path / "m.po"
    out = tmp_path / "m.json"
    noise = [b'"', b"\\", b"\n", b"msgctxt ", b"msgid ", b"msgstr ",
             b"#, fuzzy\n", b"#~ ", b"\xff", b"\x00", b"\\u", b"%s"]
    for i in range(150):
        b = bytearray(good)
        for _ in range(rnd.randint(1, 6)):
            at = rnd.randrange(len(b))
            op = rnd.randrange(4)
            if op == 0:
                b[at] = rnd.randrange(256)
            elif op == 1:
                b[at:at] = rnd.choice(noise)
            elif op == 2:
                del b[at:at + rnd.randint(1, 200)]
            else:
                lines = bytes(b).split(b"\n")
                j = rnd.randrange(len(lines))
                lines.insert(j, lines[j])
                b = bytearray(b"\n".join(lines))
        bad.write_bytes(bytes(b))
        if out.exists():
            out.unlink()
        cp = ctl("import-po", bad, h.SAMPLE_DATA, "-o", out)
        assert cp.returncode in (0, 1, 2), (i, cp)
        assert cp.stderr.strip(), i
        if cp.returncode == 2:
            assert not out.exists()
        elif out.exists():
            ctl("check", out, rc=0)


def _cpu(args):
    """CPU seconds (user + system) of one run of profilectl."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cp = subprocess.run([PROFILECTL] + [str(a) for a in args],
                        capture_output=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert cp.returncode in (0, 1), cp.stderr[-2000:]
    return (after.ru_utime - before.ru_utime
            + after.ru_stime - before.ru_stime)


@needs_gettext
def test_cost_grows_linearly_with_the_file(tmp_path):
    """300 and 3000 experience records (0.5 and 4.6 MB), a translation
    empty in each: untranslated, export-po and import-po cost at most 3
    times the size ratio (the hostile-file tests' rule)."""
    d = sample()
    base = d["experience"][0]
    cpu = {}
    for n in (300, 3000):
        e = copy.deepcopy(d)
        e["experience"] = []
        for i in range(n):
            r = copy.deepcopy(base)
            r["id"] = "r%d" % i
            r["role"]["es"] = ""
            e["experience"].append(r)
        path = write(tmp_path / ("%d.json" % n), e)
        po = tmp_path / ("%d.po" % n)
        filled = tmp_path / ("%d.en.po" % n)
        cpu[n] = [_cpu(["untranslated", path]),
                  _cpu(["export-po", "--lang", "es", "-o", po, path])]
        gettext("msgen", "-o", filled, po)
        cpu[n].append(_cpu(["import-po", filled, path, "-o",
                            tmp_path / ("%d.out.json" % n)]))
    for small, big, what in zip(cpu[300], cpu[3000],
                                ("untranslated", "export-po", "import-po")):
        assert big <= 3 * 10 * max(small, 0.05), (what, small, big)


# ------------------------------------------------- what a translator gets

def entries(text):
    """msgctxt -> (#. lines, #: references) of each entry of a PO file
    as gettext's tools write one (strings wrapped or not)."""
    out = {}
    for block in text.split("\n\n"):
        lines = block.strip("\n").split("\n")
        ctx, cur = None, None
        for line in lines:
            m = re.match(r'(msgctxt|msgid|msgstr) (".*")$', line)
            if m:
                cur = m.group(1)
                if cur == "msgctxt":
                    ctx = json.loads(m.group(2))
            elif line.startswith('"') and cur == "msgctxt":
                ctx += json.loads(line)
        if ctx is not None:
            out[ctx] = ([x[3:] for x in lines if x.startswith("#. ")],
                        [r for x in lines if x.startswith("#: ")
                         for r in x[3:].split()])
    return out


def header(text):
    """The header's fields, by name."""
    block = text.split("\n\n")[0]
    body = "".join(json.loads(x) for x in block.split("\n")
                   if x.startswith('"'))
    return dict(f.split(": ", 1) if ": " in f else (f.rstrip(":"), "")
                for f in body.split("\n") if f)


def export(tmp_path, d, *args, name="es.po"):
    path = write(tmp_path / "profile.json", d)
    po = tmp_path / name
    ctl("export-po", *args, "-o", po, path, rc=0)
    return path, po, po.read_text(encoding="utf-8")


@needs_gettext
def test_po_and_pot_pass_msgfmt_check(tmp_path):
    _, po, _ = export(tmp_path, gaps(sample()), "--lang", "es")
    msgfmt_check(po)
    _, pot, _ = export(tmp_path, gaps(sample()), "--template",
                       name="profile.pot")
    cp = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", pot],
                        capture_output=True, timeout=60)
    # A template has no Language: msgfmt's one warning, as for xgettext's.
    assert cp.returncode == 0, cp.stderr
    assert re.fullmatch(rb"(\S+: warning: header field 'Language' still "
                        rb"has the initial default value\n)?", cp.stderr), \
        cp.stderr


def test_each_entry_has_its_json_path_and_what_it_is(tmp_path):
    d = sample()
    path, _, text = export(tmp_path, d, "--lang", "es")
    got = entries(text)
    cp = ctl("untranslated", "--json", write(tmp_path / "w.json",
                                             without_es(d)))
    paths = {x["key"]: x["path"] for x in json.loads(cp.stdout)}
    assert set(got) == set(paths)
    for k, (ext, refs) in got.items():
        assert refs == [paths[k]], (k, refs)
        assert ext and all(ext), k
    e = key(d, "experience", 0)
    assert got["profile headline"][0][0].startswith("Headline: ")
    assert got["profile summary"][0][0].startswith("Summary: ")
    assert got[e + " role"][0][0].startswith("Role: ")
    assert "a city or an address" in got[e + " context"][0][0]
    assert got[e + " period"][0][0].startswith("Period: ")
    assert got[e + " period"][1] == ["$.experience[0].period"]


def test_mobile_title_comment_names_its_length(tmp_path):
    d = sample()
    _, _, text = export(tmp_path, d, "--lang", "es")
    k = key(d, "caseStudies", 0) + " mobileTitle"
    ext = entries(text)[k][0]
    src = d["caseStudies"][0]["mobileTitle"]["en"]
    assert "narrow screens" in ext[0], ext
    assert ext[1] == "At most about 30 characters (the source has %d)." \
        % len(src), ext


def test_period_written_from_dates_is_not_exported(tmp_path):
    d = sample()
    d["experience"][0]["start"] = "2021-03"
    del d["experience"][0]["period"]
    d["experience"][1]["start"] = "2018-06"
    d["experience"][1]["end"] = "2021-02"
    _, po, text = export(tmp_path, d, "--lang", "es")
    got = entries(text)
    assert key(d, "experience", 0) + " period" not in got
    assert key(d, "experience", 0) + " role" in got
    # A period given beside dates is served as given: translated, and
    # the comment says the module could write it.
    assert got[key(d, "experience", 1) + " period"][0][1] == (
        "The record also has dates (2018-06 to 2021-02): left out of the "
        "data file, the period is written from them.")
    _, pot, text = export(tmp_path, d, "--template", name="p.pot")
    assert key(d, "experience", 0) + " period" not in entries(text)


@pytest.mark.parametrize("lang,team,plural", [
    ("es", "Spanish", "nplurals=2; plural=(n != 1);"),
    ("fr", "French", "nplurals=2; plural=(n > 1);"),
    ("pt", "Portuguese", "nplurals=2; plural=(n != 1);"),
    ("eo", "", "nplurals=2; plural=(n != 1);"),
])
def test_header_names_language_team_and_plural_forms(tmp_path, lang, team,
                                                     plural):
    d = sample()
    if lang != "es":
        d["languages"].append(lang)
        d["fallback"] = "en"
    _, po, text = export(tmp_path, d, "--lang", lang)
    hd = header(text)
    assert hd["Project-Id-Version"] == "profile.json"
    assert hd["Language"] == lang
    assert hd["Language-Team"] == team
    assert hd["Plural-Forms"] == plural
    assert hd["Content-Type"] == "text/plain; charset=UTF-8"
    assert hd["Content-Transfer-Encoding"] == "8bit"
    assert hd["X-Source-Language"] == "en"


def test_header_of_a_regional_translation_follows_its_tag(tmp_path):
    d = sample()
    d["languages"].append("pt")
    d["fallback"] = "en"
    path, po, text = export(tmp_path, d, "--lang", "pt")
    po.write_text(re.sub(r'"(Language-Team|Plural-Forms): .*\n', "",
                         text.replace('"Language: pt\\n"',
                                      '"Language: pt_BR\\n"')),
                  encoding="utf-8")
    ctl("export-po", "--lang", "pt", "-o", po, path, rc=0)
    hd = header(po.read_text(encoding="utf-8"))
    assert hd["Language"] == "pt_BR"
    assert hd["Language-Team"] == "Portuguese (Brazil)"
    assert hd["Plural-Forms"] == "nplurals=2; plural=(n > 1);"


@needs_gettext
def test_reexport_keeps_a_translators_header_fields_and_comments(tmp_path):
    d = sample()
    path, po, text = export(tmp_path, d, "--lang", "es")
    k = key(d, "experience", 0) + " role"
    text = text.replace(
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\\n"\n'
        '"X-Poedit-Basepath: ..\\n"').replace(
        '"Last-Translator: \\n"', '"Last-Translator: Ana <ana@ex.org>\\n"'
    ).replace('"Language-Team: Spanish\\n"', '"Language-Team: Weblate\\n"'
    ).replace('msgctxt "%s"' % k, '# Ana: ask about the title\n'
              'msgctxt "%s"' % k)
    po.write_text(text, encoding="utf-8")
    msgfmt_check(po)
    ctl("export-po", "--lang", "es", "-o", po, path, rc=0)
    again = po.read_text(encoding="utf-8")
    hd = header(again)
    assert hd["Plural-Forms"] == "nplurals=3; plural=(n==1 ? 0 : 1);"
    assert hd["X-Poedit-Basepath"] == ".."
    assert hd["Last-Translator"] == "Ana <ana@ex.org>"
    assert hd["Language-Team"] == "Weblate"
    assert "# Ana: ask about the title\n#. Role: " in again
    msgfmt_check(po)


@needs_gettext
def test_template_has_no_translations_and_a_header(tmp_path):
    d = sample()
    path, po, text = export(tmp_path, d, "--lang", "es")
    _, pot, ptext = export(tmp_path, d, "--template", name="profile.pot")
    hd = header(ptext)
    assert hd["Language"] == "" and "Plural-Forms" not in hd
    assert hd["Project-Id-Version"] == "profile.json"
    assert hd["Content-Type"] == "text/plain; charset=UTF-8"
    assert hd["X-Source-Language"] == "en"
    assert re.findall(r'^msgstr (".*")', ptext, re.M)[1:] == \
        ['""'] * len(entries(ptext))
    assert entries(ptext) == entries(text)
    # msgmerge of the PO with the template changes nothing.
    merged = tmp_path / "merged.po"
    gettext("msgmerge", "--quiet", "-o", merged, po, pot)
    assert merged.read_text(encoding="utf-8") == text
    # A new language from it, as msginit (or Weblate) makes one.
    new = tmp_path / "new.po"
    gettext("msginit", "--no-translator", "-l", "es", "-i", pot, "-o", new)
    cp = ctl("import-po", new, path, "-o", tmp_path / "o.json", rc=0)
    assert b"0 applied" in cp.stderr and b"untranslated" in cp.stderr
    for bad in (["--template", "--lang", "es"],
                ["--template", "--previous", po]):
        ctl("export-po", *bad, path, rc=2)


@needs_gettext
@pytest.mark.parametrize("tool", [
    ["msgcat"], ["msgcat", "--width=79"], ["msgcat", "--no-wrap"],
    ["msgattrib"], ["msgattrib", "--translated"], ["msgmerge"],
])
def test_gettext_tools_keep_comments_and_references(tmp_path, tool):
    d = gaps(sample())
    path, po, text = export(tmp_path, d, "--lang", "es")
    _, pot, _ = export(tmp_path, d, "--template", name="profile.pot")
    out = tmp_path / "out.po"
    if tool == ["msgmerge"]:
        gettext("msgmerge", "--quiet", "-o", out, po, pot)
    else:
        gettext(*tool, "-o", out, po)
    got, exp = entries(out.read_text(encoding="utf-8")), entries(text)
    if tool[-1] == "--translated":
        exp = {k: v for k, v in exp.items() if k in got}
        assert len(got) < len(entries(text))
    assert got == exp


@needs_gettext
@pytest.mark.parametrize("tool", [
    ["msgcat", "--width=79"], ["msgcat", "--no-wrap"],
    ["msgcat", "--width=30"], ["msgattrib", "--no-location"],
])
def test_rewrapped_po_imports_to_identical_bytes(tmp_path, tool):
    path, po, text = export(tmp_path, sample(), "--lang", "es")
    mine = tmp_path / "mine.json"
    ctl("import-po", po, path, "-o", mine, rc=0)
    # Poedit's save: its header fields added, the lines rewrapped.
    po.write_text(text.replace(
        '"X-Generator: profilectl', '"X-Poedit-Basepath: .\\n"\n'
        '"X-Generator: profilectl'), encoding="utf-8")
    saved = tmp_path / "saved.po"
    gettext(*tool, "-o", saved, po)
    assert saved.read_text(encoding="utf-8") != text
    theirs = tmp_path / "theirs.json"
    ctl("import-po", saved, path, "-o", theirs, rc=0)
    assert theirs.read_bytes() == mine.read_bytes()
