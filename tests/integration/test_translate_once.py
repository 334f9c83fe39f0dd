# SPDX-License-Identifier: Apache-2.0
"""What a translator types once, or never (issue 34, deliverables 2 and
5; owner-day F4, F5, F8).

Skills like every other text: from one language, an importer writes a
skill's name that is made of the language's words (Problem-solving,
Critical Thinking, Leadership) as a language-tagged text, so that
`untranslated` counts it and `export-po` gives it to the translator; a
name that reads the same in every language (Kubernetes, Go, C, C++,
PostgreSQL, Spring Boot) stays a plain string and is never asked for.  A
name the translator gives unchanged is written once, a plain string, by
import-po, and is not asked for again.  The API and the page then serve
the Spanish skills.  A project's title is translated once (its short
title follows), and a period of dates is written in a language declared
with --languages, so no translator retypes a date.
"""
import json
import re

from test_jsonresume import profilectl  # noqa
from test_page_http import P, serve

WORDS = ["Problem-solving", "Critical Thinking", "Leadership", "Teamwork",
         "Data Analysis", "public speaking", "Machine Learning"]
NAMES = ["Kubernetes", "Go", "C", "C++", "PostgreSQL", "Node.js", "CI/CD",
         "AWS", "Terraform", "Visual Studio Code", "Ruby on Rails", "docker",
         "Spring Boot"]
SPANISH = {"Problem-solving": "Resolución de problemas",
           "Critical Thinking": "Pensamiento crítico",
           "Leadership": "Liderazgo", "Teamwork": "Trabajo en equipo",
           "Data Analysis": "Análisis de datos",
           "public speaking": "Hablar en público"}


def _resume(tmp_path):
    doc = {"basics": {"name": "Ana Vidal", "label": "Engineer",
                      "summary": "Builds things."},
           "skills": [{"name": "Platform", "keywords": NAMES},
                      {"name": "Ways of working", "keywords": WORDS}],
           "work": [{"name": "Acme", "position": "Engineer",
                     "startDate": "2020-03", "summary": "Runs a platform."}]}
    path = tmp_path / "resume.en.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _import(tmp_path):
    out = tmp_path / "profile.json"
    cp = profilectl("import-jsonresume", "--languages", "en,es",
                    _resume(tmp_path), "-o", out)
    assert cp.returncode == 0, cp.stderr
    return out


def _po_entries(po):
    """{msgctxt: (msgid, extracted comment)} of a PO file."""
    out = {}
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
        mid = re.search(r'^msgid "(.*)"$', block, re.M)
        com = " ".join(re.findall(r"^#\. (.*)$", block, re.M))
        if ctx and mid and not block.lstrip().startswith("#~"):
            out[ctx.group(1)] = (mid.group(1), com)
    return out


def test_words_are_tagged_and_names_stay_plain(tmp_path):
    d = json.loads(_import(tmp_path).read_text(encoding="utf-8"))
    platform, ways = d["skills"][0]["skills"], d["skills"][1]["skills"]
    assert platform[:len(NAMES)] == NAMES
    assert ways == [{"en": w} for w in WORDS]


def test_untranslated_and_export_po_ask_only_for_words(tmp_path):
    path = _import(tmp_path)
    cp = profilectl("untranslated", "--lang", "es", "--json", path)
    assert cp.returncode == 1, cp.stderr
    asked = {e["key"] for e in json.loads(cp.stdout)}
    skills = {k for k in asked if " skills[" in k}
    assert skills == {"skills/ways-of-working skills[%d]" % i
                      for i in range(len(WORDS))}
    po = tmp_path / "es.po"
    cp = profilectl("export-po", "--lang", "es", "-o", po, path)
    assert cp.returncode == 0, cp.stderr
    entries = _po_entries(po)
    for i, w in enumerate(WORDS):
        msgid, comment = entries["skills/ways-of-working skills[%d]" % i]
        assert msgid == w
        assert "skill" in comment and "unchanged" in comment
    assert not any(e[0] in NAMES for e in entries.values())


def test_a_name_given_unchanged_is_written_once_and_served(tmp_path,
                                                           make_httpd,
                                                           workdir):
    path = _import(tmp_path)
    po = tmp_path / "es.po"
    assert profilectl("export-po", "--lang", "es", "-o", po,
                      path).returncode == 0
    text = po.read_text(encoding="utf-8")
    # The translator: the words in Spanish, "Machine Learning" kept as
    # it is (a name in Spanish too), everything else left empty.
    for en, es in list(SPANISH.items()) + [("Machine Learning",
                                            "Machine Learning")]:
        text = text.replace('msgid "%s"\nmsgstr ""' % en,
                            'msgid "%s"\nmsgstr "%s"' % (en, es))
    po.write_text(text, encoding="utf-8")
    out = tmp_path / "profile.es.json"
    cp = profilectl("import-po", po, path, "-o", out)
    assert cp.returncode == 0, cp.stderr
    assert re.search(r"; 1 skill names the same in every language written "
                     r"once;", cp.stderr), cp.stderr
    d = json.loads(out.read_text(encoding="utf-8"))
    ways = d["skills"][1]["skills"]
    assert ways[-1] == "Machine Learning"
    assert ways[:-1] == [{"en": w, "es": SPANISH[w]} for w in WORDS[:-1]]
    # Not asked for again.
    po2 = tmp_path / "es2.po"
    assert profilectl("export-po", "--lang", "es", "-o", po2,
                      out).returncode == 0
    assert not any(m == "Machine Learning" for m, _ in
                   _po_entries(po2).values())
    server = serve(make_httpd, workdir, "skills-es", d)
    try:
        r = server.get("/api/v1/skills", {"Accept-Language": "es"})
        assert r.status == 200
        served = r.json()[1]["skills"]
        assert served == [SPANISH[w] for w in WORDS[:-1]] + \
            ["Machine Learning"]
        page = server.get("%s/es/" % P).body.decode()
        for w in WORDS[:-1]:
            assert ">%s<" % SPANISH[w] in page
            assert ">%s<" % w not in page
    finally:
        server.stop()


def test_a_project_title_is_typed_once(tmp_path):
    """Owner-day F8: a project's name is its case study's title and its
    mobileTitle.  A name ("Ledger") stays plain; a title of words is
    translated once, and its short title, the same text, follows it
    unless the translator gives one of its own."""
    doc = {"basics": {"name": "Ana Vidal", "label": "Engineer"},
           "projects": [{"name": "Ledger", "description": "Replays a day."},
                        {"name": "Payments platform migration",
                         "description": "Moved payments."},
                        {"name": "Wind-farm telemetry",
                         "description": "Moved telemetry."}]}
    src = tmp_path / "resume.en.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    path = tmp_path / "profile.json"
    assert profilectl("import-jsonresume", "--languages", "en,es", src,
                      "-o", path).returncode == 0
    cs = json.loads(path.read_text(encoding="utf-8"))["caseStudies"]
    assert (cs[0]["title"], cs[0]["mobileTitle"]) == ("Ledger", "Ledger")
    assert cs[1]["title"] == cs[1]["mobileTitle"] == \
        {"en": "Payments platform migration"}
    po = tmp_path / "es.po"
    assert profilectl("export-po", "--lang", "es", "-o", po,
                      path).returncode == 0
    entries = _po_entries(po)
    assert "leave it empty" in entries[
        "caseStudies/payments-platform-migration mobileTitle"][1]
    text = po.read_text(encoding="utf-8")
    for en, es in (("Payments platform migration", "Migración de pagos"),
                   ("Wind-farm telemetry", "Telemetría eólica")):
        # Only the title's entry: it comes first.
        text = text.replace('msgid "%s"\nmsgstr ""' % en,
                            'msgid "%s"\nmsgstr "%s"' % (en, es), 1)
    # The translator's own short title for the second.
    key = 'msgctxt "caseStudies/wind-farm-telemetry mobileTitle"\n' \
          'msgid "Wind-farm telemetry"\nmsgstr ""'
    assert key in text
    text = text.replace(key, key[:-2] + '"Telemetría"')
    po.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    cp = profilectl("import-po", po, path, "-o", out)
    assert cp.returncode == 0, cp.stderr
    assert "; 1 short titles from their titles" in cp.stderr, cp.stderr
    cs = json.loads(out.read_text(encoding="utf-8"))["caseStudies"]
    assert cs[1]["mobileTitle"] == {"en": "Payments platform migration",
                                    "es": "Migración de pagos"}
    assert cs[2]["mobileTitle"]["es"] == "Telemetría"
    cp = profilectl("untranslated", "--lang", "es", "--json", out)
    left = {e["key"] for e in json.loads(cp.stdout)}
    assert not any(k.endswith("Title") or k.endswith(" title")
                   for k in left), left


def test_no_date_reaches_the_translator(tmp_path):
    """Dates with a day keep a written period (start and end hold no
    day): with --languages en,es it is written in Spanish too, so
    neither untranslated nor export-po asks for it."""
    doc = {"basics": {"name": "Ana Vidal", "label": "Engineer"},
           "work": [{"name": "Acme", "position": "Engineer",
                     "startDate": "2013-12-01", "endDate": "2014-12-01"},
                    {"name": "Initech", "position": "Lead",
                     "startDate": "2015-01"}],
           "projects": [{"name": "Ledger", "startDate": "2016-08-24"}],
           "education": [{"institution": "Universidad de Oviedo",
                          "area": "Computer Science",
                          "studyType": "Bachelor",
                          "startDate": "2011-06-01",
                          "endDate": "2014-01-01"}]}
    src = tmp_path / "resume.en.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    path = tmp_path / "profile.json"
    cp = profilectl("import-jsonresume", "--languages", "en,es", src,
                    "-o", path)
    assert cp.returncode == 0, cp.stderr
    d = json.loads(path.read_text(encoding="utf-8"))
    assert d["experience"][0]["period"] == {
        "en": "1 Dec 2013 – 1 Dec 2014", "es": "1 dic. 2013 – 1 dic. 2014"}
    assert "period" not in d["experience"][1]     # the module writes it
    assert d["caseStudies"][0]["context"]["es"] == "24 ago. 2016 – actualidad"
    cp = profilectl("untranslated", "--lang", "es", "--json", path)
    left = json.loads(cp.stdout)
    # A credential is its words and dates: only its words are asked for.
    assert [e["field"] for e in left
            if re.search(r"\d{4}", e["source"])] == ["credential"], left
    po = tmp_path / "es.po"
    assert profilectl("export-po", "--lang", "es", "-o", po,
                      path).returncode == 0
    # Only as translated entries, for a reviewer: none to type; but for
    # a credential, whose words the translator gives without its dates.
    text = po.read_text(encoding="utf-8")
    key = "education/universidad-de-oviedo credential"
    msgid, comment = _po_entries(po)[key]
    assert msgid == "Bachelor · 1 Jun 2011 – 1 Jan 2014"
    assert "Leave out the dates" in comment
    dated = re.findall(r'msgid "([^"]*\d{4}[^"]*)"\nmsgstr "(.*)"', text)
    assert [m for m, es in dated if not es] == [msgid], dated
    text = text.replace('msgid "%s"\nmsgstr ""' % msgid,
                        'msgid "%s"\nmsgstr "Grado"' % msgid)
    po.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    cp = profilectl("import-po", po, path, "-o", out)
    assert cp.returncode == 0, cp.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["education"][0][
        "credential"]["es"] == "Grado · 1 jun. 2011 – 1 ene. 2014"
    # A translator who copied the source and translated its words: the
    # source's dates become Spanish ones too.
    copied = po.read_text(encoding="utf-8").replace(
        'msgstr "Grado"', 'msgstr "Grado · 1 Jun 2011 – 1 Jan 2014"')
    po2 = tmp_path / "copied.po"
    po2.write_text(copied, encoding="utf-8")
    out2 = tmp_path / "out2.json"
    cp = profilectl("import-po", po2, path, "-o", out2)
    assert cp.returncode == 0, cp.stderr
    assert json.loads(out2.read_text(encoding="utf-8"))["education"][0][
        "credential"]["es"] == "Grado · 1 jun. 2011 – 1 ene. 2014"
    # The same PO again changes nothing (the dates are not a change).
    again = tmp_path / "again.json"
    cp = profilectl("import-po", po, out, "-o", again)
    assert cp.returncode == 0, cp.stderr
    assert again.read_bytes() == out.read_bytes()
