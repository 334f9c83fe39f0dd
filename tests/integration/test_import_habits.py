# SPDX-License-Identifier: Apache-2.0
"""profilectl's imports read people's habits as a reader does, each with
one note (issue 27): impossible days, words for now with a remark,
misnamed members, duplicate keys, per-language text, lists of
non-strings, texts given as arrays, and end with one summary line
(--json: the same as one JSON object).  What is truly ambiguous is still
refused."""
import json
import os

import pytest

from test_jsonresume import (served_periods,  # noqa: F401
                             JR_DATA, export_ok, import_error,  # noqa: F401
                             load, profilectl, write)


def _one(tmp_path, doc, *extra, name="cv.en.json"):
    path = write(tmp_path / name, doc)
    cp = profilectl("import-jsonresume", path, *extra)
    assert cp.returncode == 0, cp.stderr
    notes = [line for line in cp.stderr.splitlines() if ": note: " in line]
    return served_periods(json.loads(cp.stdout)), notes, cp.stderr, path


def _summary(stderr):
    last = stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith("profilectl import-jsonresume: imported "), last
    return last


@pytest.mark.parametrize("value,iso", [("2022-02-30", "2022-02"),
                                       ("1996-06-31", "1996-06"),
                                       ("2024-09-31", "2024-09"),
                                       ("31/09/2024", "2024-09"),
                                       ("February 30, 2022", "2022-02")])
def test_a_day_its_month_lacks_is_the_month(tmp_path, value, iso):
    en = load("sample.en.json")
    en["work"][0]["endDate"] = value
    d, notes, err, path = _one(tmp_path, en)
    want = ['profilectl import-jsonresume: note: %s: $.work[0].endDate: '
            '"%s": that month has no such day; read as the month, %s'
            % (path, value, iso)]
    if iso < "2013-12":
        # An end before the start is no dates the module may write a
        # period from (CONTRACT §9): the period written stays.
        want.append('profilectl import-jsonresume: note: the end %s is '
                    'before the start 2013-12 (Pied Piper, 2013-12-01 – '
                    '%s): no start and end written, the period kept'
                    % (iso, iso))
    assert notes == want, err
    assert "; %d assumption%s (noted above); " % (
        len(want), "s" if len(want) > 1 else "") in _summary(err)
    exp = export_ok(write(tmp_path / "p.json", d), "en")
    assert exp["work"][0]["endDate"] == iso


@pytest.mark.parametrize("word", ["Present", "present day", "Present Day",
                                  "Current", "Now", "Actual", "Actualidad",
                                  "Presente", "Hoy", "Atual",
                                  "Aujourd'hui", "Heute", "Gegenwart",
                                  "bis heute", "PRESENT"])
def test_words_for_now_end_a_role(tmp_path, word):
    en = load("sample.en.json")
    en["work"][0]["endDate"] = word
    d, notes, err, _ = _one(tmp_path, en)
    assert d["experience"][0]["period"] == {"en": "1 Dec 2013 – present"}
    assert notes == [], err


def test_a_remark_after_now_is_noted_and_counted(tmp_path):
    en = load("sample.en.json")
    en["work"][0]["endDate"] = "Present (part-time)"
    d, notes, err, path = _one(tmp_path, en)
    assert d["experience"][0]["period"] == {"en": "1 Dec 2013 – present"}
    assert notes == ['profilectl import-jsonresume: note: %s: '
                     '$.work[0].endDate: "Present (part-time)" read as '
                     'present; the remark (part-time) is not imported'
                     % path], err
    assert "1 × work[].endDate (remark)" in _summary(err)


def test_truly_ambiguous_dates_are_still_refused(tmp_path):
    en = load("sample.en.json")
    en["work"][0]["startDate"] = "3/4/2020"
    err = import_error(write(tmp_path / "cv.en.json", en))
    assert '$.work[0].startDate: "3/4/2020" is ambiguous' in err


def _dated(work, education=()):
    """A small document: roles and studies with these (start, end)."""
    return {"basics": {"name": "Ana"},
            "work": [{"name": "Co %d" % i, "position": "Dev",
                      "startDate": s, "endDate": e}
                     for i, (s, e) in enumerate(work)],
            "education": [{"institution": "Uni %d" % i, "area": "CS",
                           "startDate": s, "endDate": e}
                          for i, (s, e) in enumerate(education)]}


def test_ambiguous_dates_follow_the_files_day_first(tmp_path):
    # MrPotatoXx/portafolio's habit: 02-06-2025 beside 31-03-2025.
    doc = _dated([("02-06-2025", ""), ("01-03-2025", "31-03-2025")])
    d, notes, err, path = _one(tmp_path, doc)
    assert [e["period"]["en"] for e in d["experience"]] == [
        "2 Jun 2025 – present", "1 Mar 2025 – 31 Mar 2025"]
    assert notes == ['profilectl import-jsonresume: note: %s: '
                     '$.work[%d].startDate: "%s" read as %s: the file '
                     'writes the day first (31-03-2025)' % (path, i, t, iso)
                     for i, t, iso in [(0, "02-06-2025", "2025-06-02"),
                                       (1, "01-03-2025", "2025-03-01")]], err
    assert "; 2 assumptions (noted above); " in _summary(err)


def test_ambiguous_dates_follow_the_files_month_first(tmp_path):
    # Judged over the whole file: another section, another separator.
    doc = _dated([("03/04/2020", "2021-05")],
                 education=[("09-01-2015", "12-20-2019")])
    d, notes, err, path = _one(tmp_path, doc)
    assert d["experience"][0]["period"]["en"] == "4 Mar 2020 – May 2021"
    assert ('$.work[0].startDate: "03/04/2020" read as 2020-03-04: the file '
            'writes the month first (12-20-2019)') in err
    assert ('$.education[0].startDate: "09-01-2015" read as 2015-09-01: '
            'the file writes the month first (12-20-2019)') in err


def test_dates_that_tell_both_orders_leave_the_others_ambiguous(tmp_path):
    doc = _dated([("02-06-2025", ""), ("31-03-2024", ""),
                  ("03-31-2023", "")])
    err = import_error(write(tmp_path / "cv.en.json", doc))
    assert ('$.work[0].startDate: "02-06-2025" is ambiguous: day and month '
            'cannot be told apart (the file writes both the day first, '
            '31-03-2024, and the month first, 03-31-2023); write '
            'YYYY-MM-DD.') in err
    assert err.count("is ambiguous") == 1, err


def test_a_year_first_date_does_not_decide_a_year_last_one(tmp_path):
    # 2019/25/12 writes the day first after the year: it says nothing of
    # how 02-06-2025 is written.
    doc = _dated([("02-06-2025", ""), ("2019/25/12", "")])
    err = import_error(write(tmp_path / "cv.en.json", doc))
    assert '"02-06-2025" is ambiguous: day and month cannot be told apart;' \
        in err


def test_the_other_language_gives_an_ambiguous_date(tmp_path):
    # herwingx/cv-json: en 2023-06-03, es 03-06-2023 (nothing else in the
    # es file says which comes first).
    en = _dated([("2023-06-03", "")])
    es = _dated([("03-06-2023", "")])
    es["work"][0]["position"] = "Desarrolladora"
    cp = profilectl("import-jsonresume", write(tmp_path / "r.en.json", en),
                    write(tmp_path / "r.es.json", es))
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["experience"][0]["period"]["es"].startswith("3 jun. 2023")
    assert ('r.es.json: $.work[0].startDate: "03-06-2023" read as '
            '2023-06-03: %s gives that date for the same entry'
            % (tmp_path / "r.en.json")) in cp.stderr
    # With a remark, both are noted, the remark counted.
    es["work"][0]["startDate"] = "03-06-2023 (aprox.)"
    cp = profilectl("import-jsonresume", write(tmp_path / "r.en.json", en),
                    write(tmp_path / "r.es.json", es))
    assert cp.returncode == 0, cp.stderr
    assert '"03-06-2023 (aprox.)" read as 2023-06-03: ' in cp.stderr
    assert ('"03-06-2023 (aprox.)" read as 2023-06-03; the remark (aprox.) '
            'is not imported') in cp.stderr
    assert "1 × work[].startDate (remark)" in _summary(cp.stderr)
    # Neither language says: still refused.
    en["work"][0]["startDate"] = "06-03-2023"
    es["work"][0]["startDate"] = "03-06-2023"
    err = import_error(write(tmp_path / "r.en.json", en),
                       write(tmp_path / "r.es.json", es))
    assert '"03-06-2023" is ambiguous' in err


def test_category_and_names_are_a_skill_group(tmp_path):
    """The owner's file (issue 27): 57 skills written as category/names
    became empty groups."""
    en = load("sample.en.json")
    en["skills"] = [{"category": "Languages", "names": ["C", "Go", 3]},
                    {"Name": "Tools", "Keywords": ["git"]}]
    d, notes, err, path = _one(tmp_path, en)
    assert d["skills"][0]["title"] == {"en": "Languages"}
    assert d["skills"][0]["skills"] == ["C", "Go", "3"]
    assert d["skills"][1]["title"] == {"en": "Tools"}
    assert d["skills"][1]["skills"] == ["git"]
    for member, to in (("skills[0].category", "name"),
                       ("skills[0].names", "keywords"),
                       ("skills[1].Name", "name"),
                       ("skills[1].Keywords", "keywords")):
        assert 'note: %s: $.%s: read as "%s"' % (path, member, to) in err
    assert "$.skills[0].keywords: 1 item that is not text read as text" \
        in err


def test_gpa_and_other_cases_are_the_members_meant(tmp_path):
    en = load("sample.en.json")
    e = en["education"][0]
    e["GPA"] = e.pop("score")
    e["StartDate"] = e.pop("startDate")
    en["Basics"] = en.pop("basics")
    d, notes, err, path = _one(tmp_path, en)
    assert 'note: %s: $.Basics: read as "basics"' % path in err
    assert 'note: %s: $.education[0].GPA: read as "gpa"' % path in err
    assert d["education"][0]["credential"] == {
        "en": "Bachelor · 1 Jun 2011 – 1 Jan 2014"}
    assert "1 × education[].gpa" in _summary(err)


def test_a_description_given_as_paragraphs_is_read(tmp_path):
    en = load("sample.en.json")
    w = en["work"][0]
    del w["description"]
    w["summary"] = ["First paragraph.", "Second paragraph."]
    d, notes, err, path = _one(tmp_path, en)
    assert d["experience"][0]["context"] == {
        "en": "First paragraph.\n\nSecond paragraph. · Palo Alto, CA"}
    assert "$.work[0].description: an array of 2 texts, read as one text " \
        "(paragraphs, a blank line between)" in err


def test_highlights_that_are_not_strings_are_flattened(tmp_path):
    en = load("sample.en.json")
    en["work"][0]["highlights"] = [
        {"content": "Won Disrupt", "date": "2014"}, 42,
        ["Nested one", "Nested two"], {"what": "a", "why": "b"}]
    d, notes, err, path = _one(tmp_path, en)
    assert d["experience"][0]["highlights"] == [
        {"en": "Won Disrupt"}, {"en": "42"}, {"en": "Nested one"},
        {"en": "Nested two"}, {"en": "a · b"}]
    assert "1 × work[].highlights[].date" in _summary(err)


def test_a_duplicate_key_keeps_the_last_value(tmp_path):
    text = json.dumps(load("sample.en.json"), indent=1)
    text = text.replace('"label": "Programmer"',
                        '"label": "Coder", "label": "Programmer"', 1)
    path = tmp_path / "cv.en.json"
    path.write_text(text, encoding="utf-8")
    cp = profilectl("import-jsonresume", str(path))
    assert cp.returncode == 0, cp.stderr
    assert json.loads(cp.stdout)["profile"]["headline"] == \
        {"en": "Programmer"}
    assert 'the key "label" is given twice in one object: the last value ' \
        'is kept, as browsers\' JSON.parse does' in cp.stderr, cp.stderr


def test_many_duplicate_keys_stay_bounded(tmp_path):
    body = ", ".join('"k": %d' % i for i in range(5000))
    doc = '{"basics": {"name": "A"}, "x": {%s}}' % body
    path = tmp_path / "cv.en.json"
    path.write_text(doc)
    cp = profilectl("import-jsonresume", str(path))
    assert cp.returncode == 0, cp.stderr
    assert cp.stderr.count("given twice") == 20
    assert "and more keys repeated in one object" in cp.stderr


def test_a_label_per_language_gives_the_file_language(tmp_path):
    en = load("sample.en.json")
    en["basics"]["label"] = {"en": "Programmer", "es": "Programador"}
    d, notes, err, path = _one(tmp_path, en)
    assert d["profile"]["headline"] == {"en": "Programmer"}
    assert "$.basics.label: a text per language: the en one read; es not " \
        "imported" in err
    assert "1 × basics.label (other languages)" in _summary(err)


def test_a_pair_with_labels_per_language(tmp_path):
    en, es = load("sample.en.json"), load("sample.es.json")
    both = {"en": "Programmer", "es": "Programador"}
    en["basics"]["label"] = es["basics"]["label"] = both
    cp = profilectl("import-jsonresume", write(tmp_path / "r.en.json", en),
                    write(tmp_path / "r.es.json", es))
    assert cp.returncode == 0, cp.stderr
    assert json.loads(cp.stdout)["profile"]["headline"] == both


def test_a_list_given_as_null_in_one_language_is_an_empty_list(tmp_path):
    """A pair whose lists differ (one language writes null, as people
    write "no list") gives each language its own list; found by
    mutating the corpus: the import wrote null and refused its own
    result as "a bug in profilectl"."""
    en, es = load("sample.en.json"), load("sample.es.json")
    es["skills"][0]["keywords"] = None
    es["work"][0]["highlights"] = None
    cp = profilectl("import-jsonresume", write(tmp_path / "r.en.json", en),
                    write(tmp_path / "r.es.json", es))
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["skills"][0]["skills"] == {"en": en["skills"][0]["keywords"],
                                        "es": []}
    assert d["experience"][0]["highlights"] == {
        "en": en["work"][0]["highlights"], "es": []}


def test_a_text_per_language_without_the_file_language_is_refused(tmp_path):
    en = load("sample.en.json")
    en["basics"]["label"] = {"fr": "Programmeur"}
    err = import_error(write(tmp_path / "cv.en.json", en))
    assert "$.basics.label: a text per language without en (it has fr)" \
        in err


def test_json_report(tmp_path):
    en = load("sample.en.json")
    en["work"][0]["endDate"] = "2022-02-30"
    out = tmp_path / "p.json"
    cp = profilectl("import-jsonresume", write(tmp_path / "cv.en.json", en),
                    "--json", "-o", out)
    assert cp.returncode == 0, cp.stderr
    assert cp.stderr == ""
    r = json.loads(cp.stdout)
    assert r["status"] == "written" and r["exit"] == 0
    assert r["output"] == str(out)
    # The sample's skill groups and its spoken languages (CONTRACT §9).
    assert r["records"]["experience"] == 1 and r["records"]["skills"] == 3
    assert len(r["assumptions"]) == 1 and "2022-02-30" in r["assumptions"][0]
    assert {"member": "volunteer", "count": 1,
            "reason": "the data file has no place for it (CONTRACT §9)"} \
        in r["notImported"]
    assert {"member": "education[].courses", "count": 1,
            "reason": "an education record has no courses (a certification "
                      "is one of its own)"} in r["notImported"]
    assert all(m["reason"] for m in r["notImported"])
    assert not any(m["member"] in ("languages", "basics.location",
                                   "projects[].url")
                   for m in r["notImported"])
    assert r["problems"] == []
    assert out.exists()


def test_json_report_of_a_refusal(tmp_path):
    en = load("sample.en.json")
    en["work"][0]["startDate"] = "3/4/2020"
    out = tmp_path / "p.json"
    cp = profilectl("import-jsonresume", write(tmp_path / "cv.en.json", en),
                    "--json", "-o", out)
    assert cp.returncode == 1
    r = json.loads(cp.stdout)
    assert r["status"] == "refused" and len(r["problems"]) == 1
    assert not out.exists()


def test_json_needs_an_output_file(tmp_path):
    cp = profilectl("import-jsonresume", "--json",
                    os.path.join(JR_DATA, "sample.en.json"))
    assert cp.returncode == 2 and "-o FILE" in cp.stderr


def test_strict_still_refuses_what_is_not_imported(tmp_path):
    en = load("sample.en.json")
    out = tmp_path / "p.json"
    cp = profilectl("import-jsonresume", write(tmp_path / "cv.en.json", en),
                    "--strict", "-o", out)
    assert cp.returncode == 1 and not out.exists()
    assert "--strict: not imported: 1 × volunteer" in cp.stderr


def test_a_year_written_as_a_number_is_the_year(tmp_path):
    """"startDate": 2019 (a JSON number): the year.  The message for a
    number that is no date quotes it (it printed "%ld": APR's formatter
    does not know jansson's integer format)."""
    doc = load("sample.en.json")
    doc["work"][0]["startDate"] = 2012
    d, _, _, _ = _one(tmp_path, doc)
    assert d["experience"][0]["period"]["en"].startswith("2012 – ")
    doc["work"][0]["startDate"] = 20120
    err = import_error(write(tmp_path / "cv.en.json", doc))
    assert '$.work[0].startDate: "20120" is not a date' in err, err


@pytest.mark.parametrize("start,iso", [("Depuis 2023", "2023"),
                                       ("Since March 2020", "2020-03"),
                                       ("desde 2019", "2019"),
                                       ("seit 2018", "2018"),
                                       ("à partir de septembre 2021",
                                        "2021-09")])
def test_a_start_after_a_word_for_since_is_the_start(tmp_path, start, iso):
    doc = load("sample.en.json")
    doc["work"][0]["startDate"] = start
    del doc["work"][0]["endDate"]
    d, notes, _, _ = _one(tmp_path, doc)
    assert any('$.work[0].startDate: "%s" read as the start, %s'
               % (start, iso) in n for n in notes), notes
    assert d["experience"][0]["period"]["en"].endswith(" – present")
    # A word for since is no end.
    doc["work"][0]["endDate"] = "Since 2020"
    assert "is not a date" in import_error(write(tmp_path / "cv.en.json",
                                                 doc))


@pytest.mark.parametrize("word", ["Obecnie", "oggi", "Attualmente", "heden",
                                  "Actualitat"])
def test_words_for_now_in_more_languages(tmp_path, word):
    doc = load("sample.en.json")
    doc["work"][0]["endDate"] = word
    d, _, _, _ = _one(tmp_path, doc)
    assert d["experience"][0]["period"]["en"].endswith(" – present")


def test_a_section_in_the_plural_or_singular_is_that_section(tmp_path):
    """"volunteers" is not a typo of "volunteer": not imported, counted
    under its own name, never refused."""
    doc = load("sample.en.json")
    doc["volunteers"] = doc.pop("volunteer")
    doc["award"] = doc.pop("awards")
    _, _, err, _ = _one(tmp_path, doc)
    summary = _summary(err)
    assert "1 × volunteers" in summary and "1 × award" in summary, summary


def test_a_project_described_in_summary(tmp_path):
    doc = load("sample.en.json")
    p = doc["projects"][0]
    p["summary"] = p.pop("description")
    d, _, err, _ = _one(tmp_path, doc)
    assert d["caseStudies"][0]["summary"] == {"en": p["summary"]}
    assert "projects[].summary" not in _summary(err)


def test_from_and_to_are_the_dates(tmp_path):
    doc = load("sample.en.json")
    w = doc["work"][0]
    w["from"], w["to"] = w.pop("startDate"), "2015-02"
    del w["endDate"]
    d, notes, _, _ = _one(tmp_path, doc)
    assert '$.work[0].from: read as "startDate"' in " ".join(notes)
    assert d["experience"][0]["period"]["en"] == "1 Dec 2013 – Feb 2015"


def test_skills_given_as_an_object_of_groups(tmp_path):
    doc = load("sample.en.json")
    doc["skills"] = {"backend": ["Kotlin", "Java"], "devops": ["Docker"],
                     "spoken": {"English": "native"}}
    d, notes, err, _ = _one(tmp_path, doc)
    assert "1 × skills.spoken" in _summary(err)
    assert [(s["title"], s["skills"]) for s in d["skills"]] == [
        ({"en": "backend"}, ["Kotlin", "Java"]),
        ({"en": "devops"}, ["Docker"]),
        ({"en": "Spoken languages"}, [{"en": "English (Native speaker)"}])]
    assert any("$.skills: an object of 2 groups by name" in n
               for n in notes), notes


def test_reactive_resume_is_refused_as_what_it_is(tmp_path):
    doc = {"basics": {"name": "Ana", "email": "ana@example.com",
                      "url": {"label": "", "href": "https://example.com"}},
           "sections": {"experience": {"items": [{"company": "Acme"}]}},
           "metadata": {"template": "rhyhorn"}}
    err = import_error(write(tmp_path / "cv.en.json", doc))
    assert "$.sections: Reactive Resume's format" in err, err


def test_an_entry_with_nothing_the_import_reads_is_refused(tmp_path):
    """Written, it would be an empty record `check` accepts."""
    doc = load("sample.en.json")
    doc["education"] = [{"what": "BSc Physics", "where": "Uni",
                         "when": "2010"}]
    err = import_error(write(tmp_path / "cv.en.json", doc))
    assert "$.education[0]: none of its members is one JSON Resume has " \
        "(what, where, when): nothing of it would be imported" in err, err


def test_contact_labels_in_the_file_language(tmp_path):
    doc = load("sample.en.json")
    d, _, _, _ = _one(tmp_path, doc, "--lang-order", "fr",
                      name="cv.fr.json")
    labels = [c["label"] for c in d["contact"]["contacts"]]
    assert labels == [{"fr": "E-mail"}, {"fr": "Téléphone"},
                      {"fr": "Localisation"}], labels
    # And the other words the import writes (CONTRACT §9's homes).
    assert d["skills"][-1]["title"] == {"fr": "Langues"}


def test_the_same_link_under_another_name_is_counted(tmp_path):
    doc = load("sample.en.json")
    url = doc["basics"]["profiles"][0]["url"]
    doc["basics"]["profiles"].append({"network": "Mastodon", "url": url})
    d, _, err, _ = _one(tmp_path, doc)
    assert "1 × basics.profiles[] (same URL as another)" in _summary(err)
    assert [link["url"] for link in d["contact"]["links"]].count(url) == 1


def _bilingual_file():
    doc = load("sample.en.json")
    doc["basics"]["label"] = {"en": "Programmer", "de": "Programmierer"}
    doc["basics"]["summary"] = {"en": "I build", "de": "Ich baue"}
    doc["work"][0]["position"] = {"en": "CEO", "de": "Geschäftsführer"}
    return doc


def test_one_file_with_every_language_is_read_once_per_language(tmp_path):
    """A file whose texts are {"en": ..., "de": ...}: with --lang-order
    naming both, both are imported (not the first only, the other
    counted as not imported)."""
    path = write(tmp_path / "cv.json", _bilingual_file())
    cp = profilectl("import-jsonresume", path, "--lang-order", "en,de")
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["languages"] == ["en", "de"]
    assert d["profile"]["headline"] == {"en": "Programmer",
                                        "de": "Programmierer"}
    assert d["experience"][0]["role"] == {"en": "CEO",
                                          "de": "Geschäftsführer"}
    assert "(other languages)" not in _summary(cp.stderr)
    # Given once, its other language is counted, and the note says how
    # to import it.
    d, notes, err, _ = _one(tmp_path, _bilingual_file())
    assert "1 × basics.label (other languages)" in _summary(err)
    assert any("de not imported (to import every language of one file: "
               "--lang-order en,de)" in n for n in notes), notes


def test_one_file_read_for_a_language_it_lacks_is_untranslated(tmp_path):
    path = write(tmp_path / "cv.json", _bilingual_file())
    out = tmp_path / "p.json"
    cp = profilectl("import-jsonresume", path, "--lang-order", "en,de,fr",
                    "-o", out)
    assert cp.returncode == 0, cp.stderr
    d = json.loads(out.read_text())
    assert d["fallback"] == "en"
    assert d["profile"]["headline"] == {"en": "Programmer",
                                        "de": "Programmierer"}
    cp = profilectl("untranslated", "--lang", "fr", "--json", out)
    assert {(t["record"], t["field"]) for t in json.loads(cp.stdout)} >= {
        ("profile", "headline"), ("profile", "summary")}, cp.stdout


def test_a_list_item_one_language_lacks_is_left_out_of_its_list(tmp_path):
    """One file read once per language, a highlight given in English
    only: the German list holds what German has (never an empty item,
    which the API would serve as a German highlight), and a note says
    so."""
    doc = _bilingual_file()
    doc["work"][0]["highlights"] = [{"en": "Shipped it", "de": "Geliefert"},
                                    {"en": "Only English"}]
    path = write(tmp_path / "cv.json", doc)
    cp = profilectl("import-jsonresume", path, "--lang-order", "en,de")
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["experience"][0]["highlights"] == {
        "en": ["Shipped it", "Only English"], "de": ["Geliefert"]}
    assert "$.work[0].highlights: 1 item without de text left out of the " \
        "de list" in cp.stderr, cp.stderr
    assert "$.work[0].highlights: 1 item that is not text read as text" \
        in cp.stderr, cp.stderr


def test_spaces_around_a_text_or_a_section_name(tmp_path):
    """A name with a trailing space in one language is the same name; a
    section written " education " is education."""
    en, es = load("sample.en.json"), load("sample.es.json")
    es["basics"]["name"] = en["basics"]["name"] + " "
    es[" education "] = es.pop("education")
    cp = profilectl("import-jsonresume", write(tmp_path / "r.en.json", en),
                    write(tmp_path / "r.es.json", es))
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["profile"]["name"] == en["basics"]["name"]
    assert '$. education : read as "education"' in cp.stderr, cp.stderr


def test_a_resume_inside_one_member_is_read(tmp_path):
    doc = {"cv": load("sample.en.json")}
    d, notes, _, _ = _one(tmp_path, doc)
    assert d["profile"]["name"] == doc["cv"]["basics"]["name"]
    assert any("$.cv: the JSON Resume document inside it read" in n
               for n in notes), notes


def test_a_section_given_as_a_sentence_is_counted(tmp_path):
    doc = load("sample.en.json")
    doc["work"] = "No experience yet, but I keep building my own projects"
    d, notes, err, _ = _one(tmp_path, doc)
    assert d["experience"] == []
    assert "1 × work (a text)" in _summary(err)
    assert any("$.work: a text, not a list of entries: not imported" in n
               for n in notes), notes


def test_a_skill_given_as_a_text_is_its_name(tmp_path):
    doc = load("sample.en.json")
    doc["skills"].append("Docker, Kubernetes")
    d, notes, _, _ = _one(tmp_path, doc)
    # Before the spoken languages, the import's last group.
    assert d["skills"][-2]["title"] == {"en": "Docker, Kubernetes"}
    assert any("a text, read as a skill's name" in n for n in notes), notes


def test_a_time_after_a_space_is_the_day(tmp_path):
    doc = load("sample.en.json")
    doc["work"][0]["startDate"] = "2025-07-01 00:00:00"
    doc["work"][0]["endDate"] = "2025-08-01 12:30"
    d, _, _, _ = _one(tmp_path, doc)
    assert d["experience"][0]["period"]["en"] == "1 Jul 2025 – 1 Aug 2025"


def test_a_result_too_large_for_the_module_says_so(tmp_path):
    """The module's memory bound (CONTRACT §9) refusing the data file made
    is the documents' size, not a fault of profilectl (review E13: 50,000
    entries ended "not a valid data file (a bug in profilectl)").  Here
    20,000 jobs in two languages: 40,014 representations, past the limit
    of a file of their size; the refusal names the limit and writes
    nothing."""
    def jobs(position):
        return {"basics": {"name": "A"},
                "work": [{"name": "C%d" % i, "position": position,
                          "startDate": "2020-01"} for i in range(20000)]}
    out = tmp_path / "p.json"
    err = import_error(write(tmp_path / "cv.en.json", jobs("P")),
                       write(tmp_path / "cv.es.json", jobs("Q")),
                       "-o", out)
    assert "a bug in profilectl" not in err, err
    first, last = err.rstrip("\n").split("\n")
    assert first.startswith(
        "profilectl import-jsonresume: the data file made of these "
        "documents is too large for the module, which would refuse it: "
        "loading the data file would take about "), err
    assert "(40014 representations: records x languages)" in first, err
    assert " more than its memory limit of " in first, err
    assert first.endswith("; fewer records or languages make it fit"), err
    assert last == "profilectl import-jsonresume: 1 problem; nothing written"
    assert not out.exists()
