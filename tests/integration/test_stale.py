# SPDX-License-Identifier: Apache-2.0
"""Never a stale translation, and the second language in one step
(docs/translating.md, profilectl.1).

A headline changed after it was translated: export-po marks its entry
fuzzy, import-po exits 1 naming it and withdraws the Spanish (the file
had no fallback: its source language becomes one), and a throwaway httpd
serving the result answers `Content-Language: es, en` with the English
headline until a translator confirms the entry; `untranslated --po`
counts it as stale before that.  `add-language es FILE` declares a
language with a fallback, safely and once; the importers' `--languages`
do the same at import; every refusal a missing language causes names
add-language."""
import json
import os
import re
import shutil
import stat
import subprocess

import pytest

import httpd_harness as h

PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
B = "/api/v1"
JR_DATA = os.path.join(h.SRCDIR, "tests", "integration", "data",
                       "jsonresume")
LI_DATA = os.path.join(h.SRCDIR, "tests", "integration", "data",
                       "linkedin")
needs_gettext = pytest.mark.skipif(not shutil.which("msgattrib"),
                                   reason="no gettext tools")


def ctl(*args, rc=None):
    cp = subprocess.run([PROFILECTL] + [str(a) for a in args],
                        capture_output=True, timeout=60)
    assert cp.returncode >= 0, cp
    if rc is not None:
        assert cp.returncode == rc, (args, cp.returncode, cp.stderr)
    return cp


def sample():
    return h.load_data(h.SAMPLE_DATA)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def english_only(v):
    """v with every language but English left out."""
    if isinstance(v, dict):
        if v and set(v) <= {"en", "es"}:
            return {"en": v["en"]}
        return {k: english_only(x) for k, x in v.items()}
    if isinstance(v, list):
        return [english_only(x) for x in v]
    return v


def entry(po, ctx):
    """The lines of the PO entry of msgctxt ctx (its comments too)."""
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        if '\nmsgctxt "%s"\n' % ctx in "\n" + block + "\n":
            return block
    raise AssertionError("no entry %s" % ctx)


def serve(make_httpd, name, path):
    os.chmod(path, 0o644)
    server = make_httpd(name, "")
    server.write_conf(h.location(B, path))
    return server.start_checked()


def headline(server, lang):
    r = server.get(B + "/profile", {"Accept-Language": lang})
    assert r.status == 200, r
    return r.header("Content-Language"), r.json()["headline"]


# ------------------------------------------------------ stale translations

@needs_gettext
def test_a_changed_headline_is_served_in_english_until_confirmed(
        tmp_path, make_httpd):
    """The issue's acceptance, step by step."""
    d = sample()
    assert "fallback" not in d
    data = h.write_json(str(tmp_path / "profile.json"), d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, data, rc=0)
    old_en, old_es = d["profile"]["headline"]["en"], \
        d["profile"]["headline"]["es"]
    new_en = "Principal Platform Engineer – reliability at scale"
    d["profile"]["headline"]["en"] = new_en
    h.write_json(data, d)
    # Before anyone exports again, the PO file tells: stale.
    cp = ctl("untranslated", "--po", po, data, rc=1)
    assert cp.stdout.decode().splitlines() == [
        "es profile headline: stale: %s" % json.dumps(new_en,
                                                      ensure_ascii=False)]
    assert re.search(rb": es: 0 of \d+ texts untranslated, 1 stale \(",
                     cp.stderr), cp.stderr
    # export-po marks it fuzzy, the old source as #| msgid.
    ctl("export-po", "--lang", "es", "-o", po, data, rc=0)
    e = entry(po, "profile headline")
    assert "#, fuzzy" in e and '#| msgid "%s"' % old_en in e, e
    assert 'msgstr "%s"' % old_es in e
    # import-po: exit 1, the entry named with its JSON path, the Spanish
    # withdrawn, the source language named the fallback.
    out = tmp_path / "profile.new.json"
    cp = ctl("import-po", po, data, "-o", out, rc=1)
    err = cp.stderr.decode()
    assert "%s: profile headline ($.profile.headline): fuzzy: translated " \
        "from %s" % (po, json.dumps(old_en, ensure_ascii=False)) in err, err
    assert "the es translation is withdrawn" in err
    assert 'names no "fallback": the result has "fallback": "en"' in err
    assert "1 not applied: 0 source changed, 1 fuzzy" in err
    got = load(out)
    assert got["profile"]["headline"] == {"en": new_en}
    assert got["fallback"] == "en" and list(got)[:2] == ["languages",
                                                         "fallback"]
    ctl("check", out, rc=0)
    assert ctl("untranslated", out, rc=1).stdout.decode() == \
        "es profile headline: missing: %s\n" % json.dumps(
            new_en, ensure_ascii=False)
    # The API: English, and it says so.
    server = serve(make_httpd, "stale", str(out))
    assert headline(server, "es") == ("es, en", new_en)
    assert headline(server, "en") == ("en", new_en)
    r = server.get(B + "/skills", {"Accept-Language": "es"})
    assert r.header("Content-Language") == "es"
    server.stop()
    # A translator confirms: the entry translated again, fuzzy cleared.
    text = po.read_text(encoding="utf-8")
    new_es = "Ingeniera de plataforma principal – fiabilidad a escala"
    text = text.replace(e, "\n".join(
        ln for ln in e.split("\n") if not ln.startswith(("#,", "#|"))
    ).replace('msgstr "%s"' % old_es, 'msgstr "%s"' % new_es))
    po.write_text(text, encoding="utf-8")
    final = tmp_path / "profile.final.json"
    cp = ctl("import-po", po, out, "-o", final, rc=0)
    assert b"0 not applied" in cp.stderr, cp.stderr
    assert load(final)["profile"]["headline"] == {"en": new_en,
                                                  "es": new_es}
    ctl("untranslated", final, rc=0)
    ctl("untranslated", "--po", po, final, rc=0)
    server = serve(make_httpd, "confirmed", str(final))
    assert headline(server, "es") == ("es", new_es)


def test_an_older_po_file_withdraws_what_it_shows_stale(tmp_path):
    """No re-export: the PO file's msgid is the source it was translated
    from.  A translation made anew in the data file is kept."""
    d = sample()
    data = h.write_json(str(tmp_path / "p.json"), d)
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, data, rc=0)
    d["profile"]["headline"]["en"] = "New headline"
    d["profile"]["summary"]["en"] = "New summary"
    d["profile"]["summary"]["es"] = "Resumen nuevo"
    d["fallback"] = "en"
    h.write_json(data, d)
    cp = ctl("untranslated", "--po", po, "--json", data, rc=1)
    assert [(j["key"], j["state"]) for j in json.loads(cp.stdout)] == [
        ("profile headline", "stale")]
    out = tmp_path / "o.json"
    cp = ctl("import-po", po, data, "-o", out, rc=1)
    err = cp.stderr.decode()
    assert "profile headline ($.profile.headline): source changed" in err
    assert "profile summary ($.profile.summary): source changed" in err
    assert "2 source changed" in err and "1 stale withdrawn" in err
    assert "note" not in err            # it had a fallback
    got = load(out)
    assert got["profile"]["headline"] == {"en": "New headline"}
    assert got["profile"]["summary"]["es"] == "Resumen nuevo"


def test_untranslated_po_must_be_of_a_language_to_translate(tmp_path):
    po = tmp_path / "es.po"
    ctl("export-po", "--lang", "es", "-o", po, h.SAMPLE_DATA, rc=0)
    cp = ctl("untranslated", "--po", po, "--lang", "en", h.SAMPLE_DATA,
             rc=2)
    assert b"source language" in cp.stderr
    cp = ctl("untranslated", "--po", tmp_path / "none.po", h.SAMPLE_DATA,
             rc=2)
    assert b"none.po" in cp.stderr
    cp = ctl("untranslated", "--po", po, h.SAMPLE_DATA, rc=0)
    assert cp.stdout == b"" and b", 0 stale (" in cp.stderr


# ------------------------------------------------------------ add-language

def one_language(tmp_path, name="one.json"):
    d = english_only(sample())
    d["languages"] = ["en"]
    return h.write_json(str(tmp_path / name), d)


def test_add_language_declares_it_with_a_fallback(tmp_path, make_httpd):
    path = one_language(tmp_path)
    os.chmod(path, 0o640)
    cp = ctl("untranslated", "--lang", "es", path, rc=2)
    assert ('has no language "es" (it has en): profilectl add-language es '
            '%s declares it' % path).encode() in cp.stderr
    cp = ctl("export-po", "--lang", "es", path, rc=2)
    assert b"profilectl add-language es " in cp.stderr
    before = load(path)
    cp = ctl("add-language", "es", path, rc=0)
    assert b'declares "es", and "fallback": "en" is set' in cp.stderr
    got = load(path)
    assert list(got)[:2] == ["languages", "fallback"]
    assert got["languages"] == ["en", "es"] and got["fallback"] == "en"
    del got["fallback"]
    got["languages"] = ["en"]
    assert got == before                    # nothing else changed
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".")]
    ctl("check", path, rc=0)
    n = len(ctl("untranslated", "--lang", "es", path,
                rc=1).stdout.splitlines())
    assert n > 40
    assert ("%d of %d texts to translate" % (n, n)).encode() in cp.stderr
    ctl("export-po", "--lang", "es", "-o", tmp_path / "es.po", path, rc=0)
    # Served in English, saying so, until translated.
    server = serve(make_httpd, "added", path)
    assert headline(server, "es") == ("es, en", before["profile"][
        "headline"]["en"])
    # Again: nothing to change, nothing written.
    mtime = os.stat(path).st_mtime_ns
    cp = ctl("add-language", "es", path, rc=0)
    assert b"already declares" in cp.stderr and b"nothing to change" in \
        cp.stderr
    assert os.stat(path).st_mtime_ns == mtime


def test_add_language_to_a_file_without_languages(tmp_path):
    """No "languages" means en and es: adding es changes no language,
    only the fallback is set; adding fr writes the three."""
    d = sample()
    del d["languages"]
    path = h.write_json(str(tmp_path / "d.json"), d)
    cp = ctl("add-language", "ES", path, rc=0)
    assert b'already declares "es" (a file without "languages" declares ' \
        b'en and es); "fallback": "en" is set' in cp.stderr, cp.stderr
    got = load(path)
    assert "languages" not in got and got["fallback"] == "en"
    ctl("add-language", "fr", path, rc=0)
    got = load(path)
    assert got["languages"] == ["en", "es", "fr"]
    assert list(got)[:2] == ["languages", "fallback"]
    ctl("check", path, rc=0)


def test_add_language_refuses_bad_input_and_changes_nothing(tmp_path):
    path = one_language(tmp_path)
    before = open(path, "rb").read()
    for args, said in ((["e1", path], b'"e1" is not a language tag'),
                       (["es"], b"usage: profilectl add-language L FILE"),
                       (["es", tmp_path / "none.json"], b"none.json"),
                       (["es", path, path], b"usage:")):
        cp = ctl("add-language", *args, rc=2)
        assert said in cp.stderr, cp.stderr
        assert cp.stderr.startswith(b"profilectl add-language: ")
    d = load(path)
    d["experience"][0]["colour"] = "red"
    bad = h.write_json(str(tmp_path / "bad.json"), d)
    bad_before = open(bad, "rb").read()
    cp = ctl("add-language", "es", bad, rc=2)
    assert b'unknown key "colour"' in cp.stderr
    assert open(bad, "rb").read() == bad_before
    assert open(path, "rb").read() == before
    assert ctl("add-language", "--help", rc=0).stdout.startswith(
        b"usage: profilectl add-language")


def test_check_of_a_file_refused_for_missing_translations_names_it(
        tmp_path):
    d = sample()
    del d["profile"]["headline"]["es"]
    path = h.write_json(str(tmp_path / "nofb.json"), d)
    cp = ctl("check", path, rc=1)
    assert ("its only problems are missing translations: with a "
            "\"fallback\" the module serves en there (profilectl "
            "add-language es %s sets \"fallback\": \"en\")" % path
            ).encode() in cp.stderr, cp.stderr
    ctl("add-language", "es", path, rc=0)
    ctl("check", path, rc=0)


# --------------------------------------------------- importers' --languages

def test_import_jsonresume_languages_declares_them(tmp_path):
    out = tmp_path / "p.json"
    cp = ctl("import-jsonresume", "--languages", "en,es", "-o", out,
             os.path.join(JR_DATA, "sample.en.json"), rc=0)
    got = load(out)
    assert got["languages"] == ["en", "es"] and got["fallback"] == "en"
    assert list(got)[:2] == ["languages", "fallback"]
    assert b'"es" (--languages) has no text yet' in cp.stderr
    ctl("check", out, rc=0)
    assert ctl("untranslated", "--lang", "es", out, rc=1).stdout
    # Only the languages imported: as without the option.
    cp = ctl("import-jsonresume", "--languages", "en", "-o", out,
             os.path.join(JR_DATA, "sample.en.json"), rc=0)
    assert load(out)["languages"] == ["en"] and "fallback" not in load(out)


@pytest.mark.parametrize("langs,said", [
    ("es,fr", b'--languages es,fr does not name "en"'),
    ("en,e1", b'"e1" is not a language tag'),
    ("en,es,en", b'"en" twice'),
])
def test_import_jsonresume_bad_languages_write_nothing(tmp_path, langs,
                                                       said):
    out = tmp_path / "p.json"
    cp = ctl("import-jsonresume", "--languages", langs, "-o", out,
             os.path.join(JR_DATA, "sample.en.json"), rc=2)
    assert said in cp.stderr, cp.stderr
    assert not out.exists()


def test_import_linkedin_languages_declares_them(tmp_path):
    out = tmp_path / "p.json"
    export = os.path.join(LI_DATA, "81-constructed-2018-profile")
    ctl("import-linkedin", "--languages", "es,en", "-o", out, export, rc=0)
    got = load(out)
    assert got["languages"] == ["es", "en"] and got["fallback"] == "en"
    ctl("check", out, rc=0)
    cp = ctl("import-linkedin", "--lang", "de", "--languages", "en,es",
             "-o", tmp_path / "q.json", export, rc=2)
    assert b'does not name "de"' in cp.stderr
    assert not (tmp_path / "q.json").exists()
