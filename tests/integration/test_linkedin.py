# SPDX-License-Identifier: Apache-2.0
"""profilectl import-linkedin and merge (issue 22).

Every export under data/linkedin (two real ones under the MIT licence,
constructed ones for the other layouts, derived broken ones; SOURCES.md)
imports from its folder and from a ZIP made of it (flat, and with the
files in a subfolder as LinkedIn delivers them) to the same bytes, passes
`profilectl check`, and has one record per non-empty CSV row (counted
here with Python's csv module).  Broken files name the file and the line
(or the columns expected); a LinkedIn import merged with a JSON Resume
import in another language is served in both by the module.
"""
import csv
import glob
import io
import json
import os
import shutil
import zipfile

import pytest

import httpd_harness as h
import proc_util as pu
from test_jsonresume import PROFILECTL, profilectl, served_periods, write

LI_DATA = os.path.join(h.SRCDIR, "tests", "integration", "data", "linkedin")
GOOD = sorted(os.path.basename(d) for d in glob.glob(os.path.join(
    LI_DATA, "[0-8]*")))
MAPPED = {"Profile.csv", "Positions.csv", "Education.csv", "Skills.csv",
          "Projects.csv", "Certifications.csv", "Languages.csv"}
# The words the import writes in English (import/write_extras.c).
SPOKEN = {"en": "Spoken languages"}


def _rows(folder, name):
    """The non-empty data rows of a CSV file, as Python's csv reads it."""
    path = os.path.join(LI_DATA, folder, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    return [r for r in rows[1:] if any(v.strip() for v in r)]


def _header(folder, name):
    with open(os.path.join(LI_DATA, folder, name), encoding="utf-8-sig",
              newline="") as f:
        return next(csv.reader(f))


def _zip(folder, path, prefix=""):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(os.path.join(LI_DATA, folder))):
            z.write(os.path.join(LI_DATA, folder, f), prefix + f)
    return str(path)


def _import(export, *extra):
    return profilectl("import-linkedin", export, *extra)


def _name_args(folder):
    has_profile = os.path.exists(os.path.join(LI_DATA, folder, "Profile.csv"))
    return [] if has_profile else ["--name", "Alex Example"]


def test_corpus_is_there():
    assert {"04-2026-partial-no-profile", "07-2026-german-cyrillic-partial",
            "80-constructed-2016-layout", "85-constructed-pair-en"} \
        <= set(GOOD)


@pytest.mark.parametrize("folder", GOOD)
def test_export_imports_from_folder_and_zip_alike_and_passes_check(
        folder, tmp_path):
    args = _name_args(folder)
    cp = _import(os.path.join(LI_DATA, folder), *args)
    assert cp.returncode == 0, cp.stderr
    for z in (_zip(folder, tmp_path / "flat.zip"),
              _zip(folder, tmp_path / "sub.zip",
                   "Complete_LinkedInDataExport_01-01-2026/")):
        cz = _import(z, *args)
        assert cz.returncode == 0, cz.stderr
        assert cz.stdout == cp.stdout, z
    out = tmp_path / "profile.json"
    out.write_text(cp.stdout, encoding="utf-8")
    ck = profilectl("check", out)
    assert ck.returncode == 0, ck.stdout + ck.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["languages"] == ["en"]
    assert len(d["experience"]) == len(_rows(folder, "Positions.csv"))
    # Certifications are education records (CONTRACT §9), after the
    # schools; the spoken languages a skill group of their own.
    assert len(d["education"]) == len(_rows(folder, "Education.csv")) + \
        len(_rows(folder, "Certifications.csv"))
    assert len(d["caseStudies"]) == len(_rows(folder, "Projects.csv"))
    groups = [g for g in d["skills"] if g["title"] != SPOKEN]
    assert sum(len(g["skills"]) for g in groups) == \
        len(_rows(folder, "Skills.csv"))
    assert sum(len(g["skills"]) for g in d["skills"]
               if g["title"] == SPOKEN) == len(_rows(folder,
                                                     "Languages.csv"))
    # A project's Url is a link of kind project.
    projects = _rows(folder, "Projects.csv")
    url = next((i for i, c in enumerate(_header(folder, "Projects.csv"))
                if c == "Url"), None) if projects else None
    assert len([k for k in d["contact"]["links"]
                if k["kind"] == "project"]) == \
        len([r for r in projects if url is not None and r[url].strip()])
    # Every other profile file is named with its row count.
    for f in sorted(os.listdir(os.path.join(LI_DATA, folder))):
        n = len(_rows(folder, f)) if f.endswith(".csv") else 0
        if f in MAPPED or not n or f == "messages.csv":
            continue
        assert "%d × %s rows" % (n, f) in cp.stderr, (f, cp.stderr)


def test_profile_csv_gives_name_headline_summary_and_links():
    d = json.loads(_import(os.path.join(LI_DATA,
                                        "81-constructed-2018-profile")).stdout)
    # One language: what people read is tagged with it, the name is not
    # (CONTRACT §9, issue 27).
    assert d["profile"] == {
        "name": "Tomás Reyes", "headline": {"en": "Backend developer"},
        "summary": {"en": "Builds payment APIs; likes boring, reliable "
                          "systems."}}
    assert [(k["kind"], k["url"]) for k in d["contact"]["links"]] == [
        ("website", "http://example.com"),
        ("github", "https://github.com/example-user"),
        ("website", "https://example.org/blog"),     # no scheme: https
        ("project", "http://example.com/ledger")]    # Projects.csv Url
    # Geo Location and the 2018 Country: a contact of kind location.
    assert d["contact"]["contacts"] == [
        {"kind": "location", "label": {"en": "Location"},
         "text": "Madrid Area, ES", "url": ""}]


def test_websites_the_module_would_refuse_are_counted_not_imported(
        tmp_path):
    # CONTRACT §9: links are https, http, mailto or tel URLs.  A site
    # without a scheme is https; a script or another scheme is left out
    # and named in the summary.
    src = os.path.join(LI_DATA, "81-constructed-2018-profile")
    export = tmp_path / "export"
    shutil.copytree(src, export)
    profile = export / "Profile.csv"
    text = profile.read_text(encoding="utf-8")
    old = ("PORTFOLIO:http://example.com, PORTFOLIO:https://github.com/"
           "example-user, BLOG:example.org/blog")
    assert old in text
    profile.write_text(text.replace(old, (
        "PORTFOLIO:javascript:alert(1), javascript:alert(2), "
        "OTHER:ftp://files.example/cv.pdf, PORTFOLIO:example.com:8080/x, "
        "OTHER:https://github.com/example-user")), encoding="utf-8")
    cp = _import(str(export))
    assert cp.returncode == 0, cp.stderr
    assert "javascript:" not in cp.stdout and "ftp:" not in cp.stdout
    d = served_periods(json.loads(cp.stdout))
    assert [(k["kind"], k["url"]) for k in d["contact"]["links"]] == [
        ("website", "https://example.com:8080/x"),
        ("github", "https://github.com/example-user"),
        ("project", "http://example.com/ledger")]
    assert "3 × Profile.csv Websites (not an https, http, mailto or tel " \
        "URL)" in cp.stderr, cp.stderr
    out = tmp_path / "profile.json"
    out.write_text(cp.stdout, encoding="utf-8")
    assert profilectl("check", out).returncode == 0


def test_descriptions_give_context_and_bullet_highlights():
    d = served_periods(json.loads(_import(os.path.join(
        LI_DATA, "80-constructed-2016-layout")).stdout))
    e = d["experience"][0]
    assert e["role"] == {"en": "Manager, Technical Publications"}  # Title
    assert e["context"] == {"en": "Leads a team of four writers. · Portland"}
    assert e["highlights"] == [
        {"en": "Moved the manuals to a docs-as-code pipeline"},
        {"en": "Cut the support tickets about setup by half"}]
    assert e["period"] == {"en": "Oct 2014 – present"}  # M/YYYY, empty end
    assert d["experience"][2]["period"] == {"en": "Aug 2004 – Feb 2010"}
    d = json.loads(_import(os.path.join(LI_DATA,
                                        "81-constructed-2018-profile")).stdout)
    e = d["experience"][0]
    assert e["context"] == {"en": "Payments API in Go. · "
                                  "Madrid, Comunidad de Madrid, España"}
    assert e["highlights"] == [{"en": "Designed the refunds service"},
                               {"en": "On call for the ledger"}]
    assert d["caseStudies"][0]["context"] == {"en": "3 Mar 2019 – Jan 2020"}


def test_periods_and_skill_group_in_the_chosen_language():
    cp = _import(os.path.join(LI_DATA, "85-constructed-pair-en"),
                 "--lang", "es")
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(cp.stdout))
    assert d["languages"] == ["es"]
    assert d["experience"][0]["period"] == {"es": "mar. 2021 – actualidad"}
    assert d["skills"][0]["title"] == {"es": "Aptitudes"}


def test_the_import_ends_with_one_summary_line():
    cp = _import(os.path.join(LI_DATA, "81-constructed-2018-profile"))
    assert cp.returncode == 0, cp.stderr
    last = cp.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith("profilectl import-linkedin: imported "), last
    assert " experience, " in last and "; not imported: " in last, last


def test_bom_crlf_blank_line_and_fffc_change_nothing():
    a = json.loads(_import(os.path.join(LI_DATA, "92-derived-bom-crlf"),
                           "--name", "A").stdout)
    b = json.loads(_import(os.path.join(
        LI_DATA, "07-2026-german-cyrillic-partial"), "--name", "A").stdout)
    assert a["experience"] == b["experience"]
    # 92 has 07's Skills.csv, not its Languages.csv.
    assert a["skills"] == [g for g in b["skills"] if g["title"] != SPOKEN]


def test_no_profile_csv_needs_name(tmp_path):
    out = tmp_path / "p.json"
    cp = _import(os.path.join(LI_DATA, "04-2026-partial-no-profile"),
                 "-o", out)
    assert cp.returncode == 1
    assert "has no Profile.csv: give the person's name with --name NAME" \
        in cp.stderr
    assert not out.exists()


def test_unclosed_quote_names_file_and_line(tmp_path):
    out = tmp_path / "p.json"
    cp = _import(os.path.join(LI_DATA, "90-derived-unclosed-quote"),
                 "--name", "A", "-o", out)
    assert cp.returncode == 2
    assert "90-derived-unclosed-quote/Positions.csv:9: not CSV: the quoted " \
        "field of the row that starts there is never closed" in cp.stderr
    assert not out.exists()
    cz = _import(_zip("90-derived-unclosed-quote", tmp_path / "x.zip", "d/"),
                 "--name", "A")
    assert cz.returncode == 2
    assert "x.zip:d/Positions.csv:9: not CSV" in cz.stderr


def test_unknown_header_names_the_columns_expected():
    cp = _import(os.path.join(LI_DATA, "91-derived-unknown-header"),
                 "--name", "A")
    assert cp.returncode == 1
    assert "Positions.csv:1: a layout LinkedIn does not write (columns " \
        "Organisation, Role, Summary, Place, From, Until): expected the " \
        "columns Company Name, Title, Description, Location, Started On " \
        "(or Start Date), Finished On (or End Date)" in cp.stderr


def _export(tmp_path, files):
    d = tmp_path / "export"
    d.mkdir()
    for name, data in files.items():
        (d / name).write_bytes(data)
    return str(d)


POS = b"Company Name,Title,Description,Location,Started On,Finished On\n"


def test_invalid_utf8_names_file_and_line(tmp_path):
    cp = _import(_export(tmp_path, {
        "Positions.csv": POS + b"Acme,Dev,ok,Here,Jan 2020,\n"
                         b"Acme,Dev,caf\xe9,Here,Jan 2019,Dec 2019\n"}),
        "--name", "A")
    assert cp.returncode == 2
    assert "Positions.csv:3: not UTF-8 text" in cp.stderr


def test_a_date_linkedin_does_not_write_names_file_and_line(tmp_path):
    cp = _import(_export(tmp_path, {
        "Positions.csv": POS + b"Acme,Dev,\"multi\nline\",Here,Jan 2020,\n"
                         b"Acme,Dev,x,Here,Spring 2019,Dec 2019\n"}),
        "--name", "A")
    assert cp.returncode == 1
    assert "Positions.csv:4: Started On \"Spring 2019\" is not a date" \
        in cp.stderr


def test_row_with_other_field_count_names_line(tmp_path):
    cp = _import(_export(tmp_path, {"Skills.csv": b"Name\nC\n\"a\",b\n"}),
                 "--name", "A")
    assert cp.returncode == 2
    assert "Skills.csv:3: 2 fields where the header has 1" in cp.stderr


def test_strict_refuses_what_is_not_imported():
    cp = _import(os.path.join(LI_DATA, "07-2026-german-cyrillic-partial"),
                 "--name", "A", "--strict")
    assert cp.returncode == 1
    assert "--strict: not imported: 3 × Education.csv Notes" in cp.stderr
    # Languages and certifications have their homes (CONTRACT §9).
    assert "Languages.csv" not in cp.stderr
    assert "Certifications.csv" not in cp.stderr


def test_zip_bomb_is_refused_before_reading(tmp_path):
    z = tmp_path / "bomb.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as f:
        f.writestr("Skills.csv", b"Name\n" + b"a" * (65 * 1024 * 1024))
    assert os.path.getsize(z) < 1024 * 1024
    cp = _import(str(z), "--name", "A")
    assert cp.returncode == 2
    assert "bomb.zip:Skills.csv: larger than the 64 MB" in cp.stderr


def test_zip_paths_are_never_extracted(tmp_path):
    z = tmp_path / "a" / "trick.zip"
    z.parent.mkdir()
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("../../evil/Skills.csv", b"Name\nC\n")
        f.writestr("/etc/messages.csv", b"not read")
    cp = _import(str(z), "--name", "A")
    assert cp.returncode == 0, cp.stderr
    assert json.loads(cp.stdout)["skills"][0]["skills"] == ["C"]
    assert not (tmp_path / "evil").exists()


def test_two_copies_of_a_file_in_a_zip_are_refused(tmp_path):
    z = tmp_path / "two.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("a/Skills.csv", b"Name\nC\n")
        f.writestr("b/Skills.csv", b"Name\nGo\n")
    cp = _import(str(z), "--name", "A")
    assert cp.returncode == 2
    assert "a second Skills.csv" in cp.stderr


def test_not_an_export_is_refused(tmp_path):
    p = tmp_path / "x.zip"
    p.write_bytes(b"PK not really")
    cp = _import(str(p), "--name", "A")
    assert cp.returncode == 2
    assert "neither a folder nor a ZIP archive" in cp.stderr


def test_commas_zip_is_refused_quickly_with_little_memory(tmp_path):
    """The review's D5: 61 KB of ZIP whose Profile.csv is a header and
    two rows of 20 M commas each (1.6 GB of memory before)."""
    n = 20 * 1024 * 1024
    z = tmp_path / "commas.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as f:
        f.writestr("Profile.csv",
                   "First Name,Last Name,Headline,Summary" + "," * n + "\n"
                   + ("A,B,C,D" + "," * n + "\n") * 2)
    assert os.path.getsize(z) < 100 * 1024
    out = tmp_path / "li.json"
    rc, _, err, peak = pu.run_peak([PROFILECTL, "import-linkedin", "-o", out,
                                    z], timeout=60)
    assert rc == 2, err
    assert b"commas.zip:Profile.csv:1: more than 256 fields in a row" in err
    # The entry's 60 MB are read (within PC_LI_MAX_BYTES); its fields
    # are not kept.
    assert pu.SANITIZED or peak < 100 * 1024, peak
    assert not out.exists()


def test_rows_of_a_file_are_bounded(tmp_path):
    cp = _import(_export(tmp_path, {"Skills.csv": b"Name\n"
                                    + b"a\n" * 100001}), "--name", "A")
    assert cp.returncode == 2
    # The header is a row: the 100,001st starts on line 100001.
    assert "Skills.csv:100001: more than 100000 rows" in cp.stderr
    (tmp_path / "fewer").mkdir()
    cp = _import(_export(tmp_path / "fewer", {"Skills.csv": b"Name\n"
                                              + b"a\n" * 99999}),
                 "--name", "A")
    assert cp.returncode == 0, cp.stderr


def test_fields_of_all_files_together_are_bounded(tmp_path):
    """600,000 fields in each of two files: each alone is within the
    bound of 1,048,576, together they are not."""
    row = b"," * 19 + b"\n"
    cp = _import(_export(tmp_path, {"Positions.csv": row * 30000,
                                    "Education.csv": row * 30000}),
                 "--name", "A")
    assert cp.returncode == 2
    assert "Education.csv:" in cp.stderr and "more than 1048576 fields in " \
        "the export's profile files together" in cp.stderr, cp.stderr


def test_a_row_of_256_fields_is_read(tmp_path):
    """The bound is on what no LinkedIn file has, not near it."""
    head = b"Name" + b",x" * 255 + b"\n"
    cp = _import(_export(tmp_path, {"Skills.csv": head + b"C" + b"," * 255
                                    + b"\n"}), "--name", "A")
    assert cp.returncode == 0, cp.stderr
    assert json.loads(cp.stdout)["skills"][0]["skills"] == ["C"]


def test_a_fifo_in_the_export_folder_is_refused_at_once(tmp_path):
    d = tmp_path / "export"
    d.mkdir()
    os.mkfifo(d / "Positions.csv")
    cp = _import(str(d), "--name", "A")
    assert cp.returncode == 2
    assert "Positions.csv: cannot read it: a FIFO, not a regular file" \
        in cp.stderr


# ------------------------------------------------------------- merge
def _pair(tmp_path):
    folder = os.path.join(LI_DATA, "85-constructed-pair-en")
    en = tmp_path / "en.json"
    es = tmp_path / "es.json"
    cp = _import(folder, "-o", en)
    assert cp.returncode == 0, cp.stderr
    cp = profilectl("import-jsonresume", "--lang-order", "es",
                    os.path.join(folder, "resume.es.json"), "-o", es)
    assert cp.returncode == 0, cp.stderr
    return en, es


def test_merge_of_linkedin_and_jsonresume_is_served_in_both(
        make_httpd, tmp_path):
    en, es = _pair(tmp_path)
    out = tmp_path / "profile.json"
    cp = profilectl("merge", en, es, "-o", out)
    assert cp.returncode == 0, cp.stderr
    d = served_periods(json.loads(out.read_text(encoding="utf-8")))
    assert d["languages"] == ["en", "es"]
    assert d["profile"]["headline"] == {"en": "Data engineer",
                                        "es": "Ingeniera de datos"}
    assert d["experience"][0]["id"] == "datos-del-mar-2021"
    assert d["experience"][0]["period"] == {"en": "Mar 2021 – present",
                                            "es": "mar. 2021 – actualidad"}
    assert profilectl("check", out).returncode == 0
    server = make_httpd("li-merge", h.location("/api/v1", str(out)))
    try:
        assert server.start().returncode == 0
        for lang, role, hl in (
                ("en", "Data Engineer", "Moved the reports to the cloud"),
                ("es", "Ingeniera de datos", "Llevó los informes a la nube")):
            hdr = {"Accept-Language": lang}
            r = server.get("/api/v1/experience/datos-del-mar-2021", hdr)
            assert r.status == 200
            assert r.header("Content-Language") == lang
            assert r.json()["role"] == role
            assert r.json()["highlights"][0] == hl
    finally:
        server.stop()


def test_merge_pairs_as_the_jsonresume_pair_import(tmp_path):
    """merge of two one-language imports = the pair import of the two
    documents: the same code path."""
    folder = os.path.join(LI_DATA, "85-constructed-pair-en")
    en, es = _pair(tmp_path)
    en_doc = tmp_path / "cv.en.json"
    cp = profilectl("export-jsonresume", en, "-o", en_doc)
    assert cp.returncode == 0, cp.stderr
    es_doc = tmp_path / "cv.es.json"
    cp = profilectl("export-jsonresume", es, "-o", es_doc)
    assert cp.returncode == 0, cp.stderr
    pair = profilectl("import-jsonresume", en_doc, es_doc)
    merged = profilectl("merge", en, es)
    assert merged.returncode == 0, merged.stderr
    assert merged.stdout == pair.stdout
    assert os.path.isdir(folder)


def test_merge_refuses_two_files_of_one_language(tmp_path):
    en, _ = _pair(tmp_path)
    cp = profilectl("merge", en, en, "-o", tmp_path / "o.json")
    assert cp.returncode == 2
    assert "both have language en" in cp.stderr
    assert not (tmp_path / "o.json").exists()


def test_merge_of_a_json_resume_document_says_how_to_import(tmp_path):
    folder = os.path.join(LI_DATA, "85-constructed-pair-en")
    en, _ = _pair(tmp_path)
    cp = profilectl("merge", en, os.path.join(folder, "resume.es.json"))
    assert cp.returncode == 2
    assert "import-jsonresume" in cp.stderr


def test_merge_names_what_the_mapping_does_not_carry(tmp_path):
    """The sample data file split into its two languages and merged back:
    a valid file, and the metrics and case-study prose it cannot carry
    are named, not lost silently; --strict refuses."""
    with open(os.path.join(h.SRCDIR, "data", "profile.json"),
              encoding="utf-8") as f:
        sample = json.load(f)

    def pick(v, lang):
        if isinstance(v, dict):
            if set(v) == {"en", "es"}:
                return v[lang]
            return {k: pick(x, lang) for k, x in v.items()}
        if isinstance(v, list):
            return [pick(x, lang) for x in v]
        return v

    halves = []
    for lang in ("en", "es"):
        one = pick(sample, lang)
        one["languages"] = [lang]
        halves.append(write(tmp_path / ("%s.json" % lang), one))
    out = tmp_path / "merged.json"
    cp = profilectl("merge", *halves, "-o", out)
    assert cp.returncode == 0, cp.stderr
    n = len(sample["metrics"])
    assert "not imported: %d × metrics" % (2 * n) in cp.stderr
    assert "× caseStudies[].problem" in cp.stderr
    assert profilectl("check", out).returncode == 0
    merged = json.loads(out.read_text(encoding="utf-8"))
    assert merged["languages"] == ["en", "es"]
    assert merged["profile"] == sample["profile"]
    assert merged["skills"] == sample["skills"]
    cp = profilectl("merge", *halves, "--strict")
    assert cp.returncode == 1
    assert "--strict: not imported" in cp.stderr
