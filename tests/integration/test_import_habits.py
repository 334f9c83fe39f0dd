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

from test_jsonresume import (JR_DATA, export_ok, import_error,  # noqa: F401
                             load, profilectl, write)


def _one(tmp_path, doc, *extra, name="cv.en.json"):
    path = write(tmp_path / name, doc)
    cp = profilectl("import-jsonresume", path, *extra)
    assert cp.returncode == 0, cp.stderr
    notes = [line for line in cp.stderr.splitlines() if ": note: " in line]
    return json.loads(cp.stdout), notes, cp.stderr, path


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
    assert notes == ['profilectl import-jsonresume: note: %s: '
                     '$.work[0].endDate: "%s": that month has no such day; '
                     'read as the month, %s' % (path, value, iso)], err
    assert "; 1 assumption (noted above); " in _summary(err)
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
    d = json.loads(cp.stdout)
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
    assert r["records"]["experience"] == 1 and r["records"]["skills"] == 2
    assert len(r["assumptions"]) == 1 and "2022-02-30" in r["assumptions"][0]
    assert {"member": "volunteer", "count": 1} in r["notImported"]
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
