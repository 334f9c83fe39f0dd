# SPDX-License-Identifier: Apache-2.0
"""What a person has beyond the specification's fields is not lost
(issue 34; CONTRACT §9, revised 2026-11-28, names the homes): from a
JSON Resume pair and from LinkedIn exports of each vintage, every
certification is an education record whose credential says so, the
spoken languages a skill group, the location a contact of kind
`location`, a project's link a link of kind `project`, each in the
file's language(s).  Each is served by the API, shown on the page (§11:
certifications with education, languages with skills, location and
project links in contact), and returned by export-jsonresume; none is
reported "not imported", and what still is has a reason.
"""
import json
import os
import re

import pytest

import httpd_harness as h
from test_jsonresume import JR_DATA, official, profilectl, write  # noqa
from test_page_http import P, serve

LI_DATA = os.path.join(h.SRCDIR, "tests", "integration", "data", "linkedin")
SPOKEN = {"en": "Spoken languages", "es": "Idiomas"}


def _resume(lang):
    """The official sample (its languages, location and project URL)
    with two certificates, in English or in Spanish."""
    with open(os.path.join(JR_DATA, "sample.%s.json" % lang),
              encoding="utf-8") as f:
        doc = json.load(f)
    t = 0 if lang == "en" else 1
    doc["certificates"] = [
        {"name": "Google Cloud Professional Architect", "date": "2023-05-12",
         "issuer": "Google", "url": "https://cloud.example.com/cert/42"},
        {"name": ["Certified Kubernetes Administrator",
                  "Administrador certificado de Kubernetes"][t],
         "date": "2021-11", "issuer": "CNCF"}]
    doc["languages"].append({"language": ["Spanish", "Español"][t],
                             "fluency": ["Professional", "Profesional"][t]})
    return doc


def _section(page, sid):
    """The HTML of <section id="sid">, nested sections included."""
    start = page.index('<section id="%s"' % sid)
    depth, i = 0, start
    for m in re.finditer(r"<(/?)section\b", page[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            i = start + m.end()
            break
    return page[start:i]


def _api(server, route, lang):
    r = server.get("/api/v1" + route, {"Accept-Language": lang})
    assert r.status == 200, (route, r)
    assert r.header("Content-Language") == lang
    return r.json()


def _page(server, lang):
    r = server.get("%s/%s/" % (P, lang))
    assert r.status == 200
    return r.body.decode()


def _imported(out, *args):
    """(path, data file, stderr) of a profilectl import written to out."""
    cp = profilectl(*args, "-o", out)
    assert cp.returncode == 0, cp.stderr
    with open(out, encoding="utf-8") as f:
        return str(out), json.load(f), cp.stderr


@pytest.fixture(scope="module")
def jr_pair(tmp_path_factory):
    d = tmp_path_factory.mktemp("extras")
    out = d / "profile.json"
    return _imported(out, "import-jsonresume",
                     write(d / "cv.en.json", _resume("en")),
                     write(d / "cv.es.json", _resume("es")))


def test_nothing_with_a_home_is_reported_not_imported(jr_pair):
    _, _, err = jr_pair
    summary = err.splitlines()[-1]
    for member in ("certificates", "languages", "basics.location",
                   "projects[].url"):
        assert " %s" % member not in summary, summary
    # What is left out is listed with why, one line each.
    why = [ln for ln in err.splitlines()
           if ln.startswith("profilectl import-jsonresume: not imported: ")]
    assert why and all(re.match(r".*: \d+ × \S.*: \S", ln) for ln in why)
    assert "not imported: 2 × awards: the data file has no place for it " \
        "(CONTRACT §9)" in err


def test_jsonresume_extras_are_placed_in_both_languages(jr_pair):
    _, d, _ = jr_pair
    certs = d["education"][1:]
    assert [c["degree"] for c in certs] == [
        "Google Cloud Professional Architect",
        {"en": "Certified Kubernetes Administrator",
         "es": "Administrador certificado de Kubernetes"}]
    assert certs[0]["credential"] == {"en": "Certification · 12 May 2023",
                                      "es": "Certificación · 12 may. 2023"}
    assert certs[1]["credential"] == {"en": "Certification · Nov 2021",
                                      "es": "Certificación · nov. 2021"}
    assert (certs[0]["institution"], certs[0]["institutionUrl"]) == \
        ("Google", "https://cloud.example.com/cert/42")
    assert (certs[1]["start"], certs[1]["end"]) == ("2021-11", "2021-11")
    assert d["skills"][-1]["title"] == SPOKEN
    assert d["skills"][-1]["skills"] == [
        {"en": "English (Native speaker)", "es": "Inglés (Lengua materna)"},
        {"en": "Spanish (Professional)", "es": "Español (Profesional)"}]
    loc = d["contact"]["contacts"][-1]
    assert loc == {"kind": "location",
                   "label": {"en": "Location", "es": "Ubicación"},
                   "text": "2712 Broadway St, San Francisco, California, "
                           "CA 94115, US", "url": ""}
    assert d["contact"]["links"][-1] == {
        "kind": "project", "text": "Miss Direction",
        "url": "http://missdirection.example.com"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_jsonresume_extras_come_back_in_the_export(jr_pair, official, lang):
    path, _, _ = jr_pair
    cp = profilectl("export-jsonresume", "--lang", lang, path)
    assert cp.returncode == 0, cp.stderr
    doc = json.loads(cp.stdout)
    assert official(doc) == []
    src = _resume(lang)
    assert doc["certificates"] == src["certificates"]
    assert doc["languages"] == src["languages"]
    assert doc["basics"]["location"] == src["basics"]["location"]
    assert [p["url"] for p in doc["projects"]] == \
        [p["url"] for p in src["projects"]]
    # Out of education and skills, where the data file keeps them.
    assert len(doc["education"]) == len(src["education"])
    assert [s["name"] for s in doc["skills"]] == \
        [s["name"] for s in src["skills"]]
    assert all(p["network"] != "Miss Direction"
               for p in doc["basics"]["profiles"])


def test_jsonresume_extras_are_served_and_shown(jr_pair, make_httpd,
                                                workdir):
    _, d, _ = jr_pair
    server = serve(make_httpd, workdir, "extras-jr", d)
    try:
        for lang, cert, spoken, label in (
                ("en", "Certification · 12 May 2023", "Spoken languages",
                 "Location"),
                ("es", "Certificación · 12 may. 2023", "Idiomas",
                 "Ubicación")):
            edu = _api(server, "/education", lang)
            assert edu[1]["credential"] == cert
            assert edu[1]["degree"] == "Google Cloud Professional Architect"
            groups = _api(server, "/skills", lang)
            assert groups[-1]["title"] == spoken
            assert len(groups[-1]["skills"]) == 2
            contact = _api(server, "/contact", lang)
            assert contact["contacts"][-1]["label"] == label
            assert contact["contacts"][-1]["text"].startswith("2712 ")
            assert contact["links"][-1]["kind"] == "project"
            page = _page(server, lang)
            # Certifications with education, languages with skills,
            # location and project links in contact.
            assert cert in _section(page, "education")
            assert "Google Cloud Professional Architect" in \
                _section(page, "education")
            skills = _section(page, "skills")
            assert spoken in skills and groups[-1]["skills"][1] in skills
            intro = page[page.index('<ul class="contact"'):]
            intro = intro[:intro.index("</ul>")]
            assert 'class="contact-location"' in intro and label in intro
            assert "San Francisco" in intro
            assert 'class="link link-project"' in intro
            assert 'href="http://missdirection.example.com"' in intro
    finally:
        server.stop()


# ------------------------------------------------------------ LinkedIn
CERTS = ("Name,Url,Authority,Started On,Finished On,License Number\n"
         "Kubernetes Administrator,https://www.credly.com/example,CNCF,"
         "Mar 2022,Mar 2025,LF-1234\n"
         "DELF B2,,France Éducation international,Nov 2015,,\n")
LANGS = ("Name,Proficiency\n"
         "Spanish,Native or bilingual proficiency\n"
         "English,Full professional proficiency\n")
PROFILE = ("First Name,Last Name,Maiden Name,Address,Birth Date,Headline,"
           "Summary,Industry,Zip Code,Geo Location,Twitter Handles,Websites,"
           "Instant Messengers\n"
           "Ana,Vidal,,,,Engineer,Builds things.,Software Development,,"
           "\"Valencia, Comunidad Valenciana\",ana_v,,\n")
PROJECTS = ("Title,Description,Url,Started On,Finished On\n"
            "Ledger,Replays a day.,example.com/ledger,Mar 2019,Jan 2020\n")


def _li_export(tmp_path, **files):
    d = tmp_path / "export"
    d.mkdir()
    for name, text in files.items():
        (d / (name + ".csv")).write_text(text, encoding="utf-8")
    return str(d)


@pytest.fixture
def li_import(tmp_path):
    export = _li_export(tmp_path, Certifications=CERTS, Languages=LANGS,
                        Profile=PROFILE, Projects=PROJECTS)
    out = tmp_path / "li.json"
    return _imported(out, "import-linkedin", export, "--lang", "es")


def test_linkedin_extras_are_placed_in_the_export_language(li_import):
    _, d, err = li_import
    summary = err.splitlines()[-1]
    assert "Certifications.csv" not in err and "Languages.csv" not in err
    for col in ("Geo Location", "Twitter Handles", "Url"):
        assert col not in summary, summary
    # What has no home is named, with why.
    assert "not imported: 1 × Profile.csv Industry: the data file has no " \
        "place for it (CONTRACT §9)" in err
    assert d["languages"] == ["es"]
    assert d["education"] == [
        {"degree": {"es": "Kubernetes Administrator"},
         "credential": {"es": "Certificación · mar. 2022 – mar. 2025 · "
                              "ID de la credencial LF-1234"},
         "institution": "CNCF",
         "institutionUrl": "https://www.credly.com/example",
         "start": "2022-03", "end": "2025-03"},
        {"degree": {"es": "DELF B2"},
         "credential": {"es": "Certificación · nov. 2015"},
         "institution": "France Éducation international",
         "institutionUrl": "", "start": "2015-11", "end": "2015-11"}]
    assert d["skills"] == [{
        "title": {"es": "Idiomas"}, "summary": "",
        "skills": [{"es": "Spanish (Native or bilingual proficiency)"},
                   {"es": "English (Full professional proficiency)"}]}]
    assert d["contact"]["contacts"] == [
        {"kind": "location", "label": {"es": "Ubicación"},
         "text": "Valencia, Comunidad Valenciana", "url": ""}]
    assert [(k["kind"], k["text"], k["url"])
            for k in d["contact"]["links"]] == [
        ("twitter", "Twitter", "https://twitter.com/ana_v"),
        ("project", "Ledger", "https://example.com/ledger")]


def test_linkedin_extras_are_served_and_exported(li_import, make_httpd,
                                                 workdir, official):
    path, d, _ = li_import
    cp = profilectl("export-jsonresume", path)
    assert cp.returncode == 0, cp.stderr
    doc = json.loads(cp.stdout)
    assert official(doc) == []
    assert doc["certificates"] == [
        {"name": "Kubernetes Administrator", "date": "2022-03",
         "issuer": "CNCF", "url": "https://www.credly.com/example"},
        {"name": "DELF B2", "date": "2015-11",
         "issuer": "France Éducation international"}]
    assert doc["languages"] == [
        {"language": "Spanish", "fluency": "Native or bilingual proficiency"},
        {"language": "English", "fluency": "Full professional proficiency"}]
    assert doc["basics"]["location"] == {"city": "Valencia",
                                         "region": "Comunidad Valenciana"}
    assert doc["projects"][0]["url"] == "https://example.com/ledger"
    assert doc["education"] == [] and doc["skills"] == []
    server = serve(make_httpd, workdir, "extras-li", d)
    try:
        edu = _api(server, "/education", "es")
        assert [e["degree"] for e in edu] == ["Kubernetes Administrator",
                                              "DELF B2"]
        assert _api(server, "/skills", "es")[0]["title"] == "Idiomas"
        assert _api(server, "/contact", "es")["contacts"][0]["text"] == \
            "Valencia, Comunidad Valenciana"
        page = _page(server, "es")
        assert "ID de la credencial LF-1234" in _section(page, "education")
        assert "English (Full professional proficiency)" in \
            _section(page, "skills")
    finally:
        server.stop()


@pytest.mark.parametrize("folder,location,projects", [
    # 2016: no location column; Projects with Url last.
    ("80-constructed-2016-layout", None, ["https://example.com/style"]),
    # 2018: Geo Location and a Country code.
    ("81-constructed-2018-profile", "Madrid Area, ES",
     ["http://example.com/ledger"]),
    ("83-constructed-cyrillic", "Москва", []),
    ("07-2026-german-cyrillic-partial", None, ["https://example.com/"]),
])
def test_each_vintage_places_location_and_project_links(folder, location,
                                                        projects):
    args = [] if os.path.exists(os.path.join(LI_DATA, folder,
                                             "Profile.csv")) \
        else ["--name", "A"]
    cp = profilectl("import-linkedin", os.path.join(LI_DATA, folder), *args)
    assert cp.returncode == 0, cp.stderr
    d = json.loads(cp.stdout)
    assert [c["text"] for c in d["contact"]["contacts"]
            if c["kind"] == "location"] == ([location] if location else [])
    assert [k["url"] for k in d["contact"]["links"]
            if k["kind"] == "project"] == projects


def test_a_merge_keeps_what_each_language_placed(tmp_path, jr_pair):
    """merge reads each data file through JSON Resume: the extras come
    back and are placed again, paired across the languages."""
    path, d, _ = jr_pair
    halves = []
    for lang in ("en", "es"):
        cp = profilectl("export-jsonresume", "--lang", lang, path)
        assert cp.returncode == 0, cp.stderr
        one = tmp_path / ("one.%s.json" % lang)
        cp = profilectl("import-jsonresume", "--lang-order", lang,
                        write(tmp_path / ("cv.%s.json" % lang),
                              json.loads(cp.stdout)), "-o", one)
        assert cp.returncode == 0, cp.stderr
        halves.append(str(one))
    out = tmp_path / "merged.json"
    cp = profilectl("merge", *halves, "-o", out)
    assert cp.returncode == 0, cp.stderr
    with open(out, encoding="utf-8") as f:
        m = json.load(f)
    assert m["education"] == d["education"]
    assert m["skills"][-1] == d["skills"][-1]
    assert m["contact"] == d["contact"]


def test_what_says_nothing_is_left_out_and_texts_are_entries(tmp_path):
    """An empty language, a location's placeholder part ("-"), and
    entries given as texts, as people write them."""
    doc = {"basics": {"name": "Ana", "label": "Engineer",
                      "location": {"address": "-", "city": "Bilbao",
                                   "postalCode": "-", "countryCode": "ES"}},
           "languages": [{"language": ""}, "Basque",
                         {"name": "Spanish", "level": "Native"}],
           "certifications": ["Scrum Master"]}
    cp = profilectl("import-jsonresume", write(tmp_path / "cv.en.json", doc))
    assert cp.returncode == 0, cp.stderr
    d = json.loads(cp.stdout)
    assert d["skills"] == [{"title": {"en": "Spoken languages"},
                            "summary": "",
                            "skills": [{"en": "Basque"},
                                       {"en": "Spanish (Native)"}]}]
    assert d["contact"]["contacts"][0]["text"] == "Bilbao, ES"
    assert [(e["degree"], e["credential"]) for e in d["education"]] == [
        ({"en": "Scrum Master"}, {"en": "Certification"})]
    assert '$.certifications: read as "certificates"' in cp.stderr
    assert cp.stderr.endswith("; not imported: nothing\n"), cp.stderr
