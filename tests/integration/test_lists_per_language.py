# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 (revised 2026-11-24): a list of text values (`skills`,
`highlights`, `resultItems`) given as one array per language.

The sample data with some of its lists given per language, each language
with items of its own and a different number of them, served by a server
of its own: every language gets its own list on every route that shows
it, with an ETag of those bytes, and `?q=` on /skills searches the chosen
language's items only (§8 rule 5).
"""
import copy
import json
import os
import re
import subprocess

import pytest

import httpd_harness as h

B = "/api/v1"

SKILLS_0 = {
    "en": ["Kubernetes", "Linux", "Terraform", "Capacity planning"],
    "es": ["Kubernetes", "Linux", "Guardias nocturnas"],
}
HIGHLIGHTS_0 = {
    "en": ["Led the migration of the telemetry pipeline to Kubernetes.",
           "Introduced service-level objectives for every API.",
           "Built a paved-road deployment template."],
    "es": ["Dirigí la migración de la telemetría a Kubernetes."],
}
HIGHLIGHTS_1 = {"en": [], "es": ["Solo en la versión española."]}
RESULT_ITEMS_0 = {
    "en": ["p95 ingestion latency down 42%", "Zero readings lost"],
    "es": ["Latencia p95 de ingesta un 42 % menor"],
}


def per_language_data(sample):
    d = copy.deepcopy(sample)
    d["skills"][0]["skills"] = SKILLS_0
    d["experience"][0]["highlights"] = HIGHLIGHTS_0
    d["experience"][1]["highlights"] = HIGHLIGHTS_1
    d["caseStudies"][0]["resultItems"] = RESULT_ITEMS_0
    return d


@pytest.fixture(scope="module")
def lists(make_httpd, workdir, sample):
    """(server, data): the data with lists given per language."""
    data = per_language_data(sample)
    path = h.write_json(os.path.join(workdir, "lists-per-language.json"),
                        data)
    server = make_httpd("lists", h.location(B, path))
    server.data_path = path
    yield server.start_checked(), data
    server.stop()


def get(server, target, lang, **more):
    hdrs = {"Accept-Language": lang}
    hdrs.update(more)
    return server.get(B + target, hdrs)


def routes(data):
    return ["/skills", "/experience", "/case-studies"] + \
        ["/experience/" + r["id"] for r in data["experience"][:3]] + \
        ["/case-studies/" + r["id"] for r in data["caseStudies"][:2]]


class TestEachLanguageItsOwnList:
    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_every_route_serves_the_languages_own_lists(self, lists, lang):
        server, data = lists
        for route in routes(data):
            r = get(server, route, lang)
            assert r.status == 200, (route, r)
            assert r.header("Content-Language") == lang
            assert r.pairs() == h.expected(data, route, lang), route

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_lists_have_that_languages_items_and_length(self, lists, lang):
        server, data = lists
        exp = data["experience"]
        r = get(server, "/experience/" + exp[0]["id"], lang)
        assert r.json()["highlights"] == HIGHLIGHTS_0[lang]
        r = get(server, "/experience/" + exp[1]["id"], lang)
        assert r.json()["highlights"] == HIGHLIGHTS_1[lang]
        r = get(server, "/experience", lang)
        assert [x["highlights"] for x in r.json()[:2]] == \
            [HIGHLIGHTS_0[lang], HIGHLIGHTS_1[lang]]
        r = get(server, "/skills", lang)
        assert r.json()[0]["skills"] == SKILLS_0[lang]
        r = get(server, "/case-studies", lang)
        assert r.json()[0]["resultItems"] == RESULT_ITEMS_0[lang]
        r = get(server, "/case-studies/" + data["caseStudies"][0]["id"], lang)
        assert r.json()["resultItems"] == RESULT_ITEMS_0[lang]

    def test_records_without_the_form_are_served_as_before(self, lists, api,
                                                           sample):
        """A record whose lists are arrays: the same bytes and ETag as the
        sample's own server sends."""
        server, _ = lists
        rid = sample["experience"][2]["id"]
        for lang in ["en", "es"]:
            a = get(server, "/experience/" + rid, lang)
            b = get(api, "/experience/" + rid, lang)
            assert a.status == b.status == 200
            assert a.body == b.body
            assert a.etag == b.etag


class TestETags:
    def test_etags_differ_per_language(self, lists):
        server, data = lists
        for route in routes(data):
            en = get(server, route, "en")
            es = get(server, route, "es")
            assert en.body != es.body, route
            assert en.etag and es.etag and en.etag != es.etag, route

    def test_revalidation_is_per_language(self, lists):
        server, data = lists
        route = "/experience/" + data["experience"][1]["id"]
        en = get(server, route, "en")
        es = get(server, route, "es")
        # The English ETag does not validate the Spanish list.
        r = get(server, route, "es", **{"If-None-Match": en.etag})
        assert r.status == 200 and r.body == es.body
        r = get(server, route, "es", **{"If-None-Match": es.etag})
        assert r.status == 304 and r.etag == es.etag


class TestQueryMatchesTheChosenLanguage:
    @pytest.mark.parametrize("value,lang,found", [
        # Only in the English list.
        ("capacity", "en", True), ("capacity", "es", False),
        ("TERRAFORM", "en", True), ("TERRAFORM", "es", False),
        # Only in the Spanish list.
        ("guardias", "es", True), ("guardias", "en", False),
        ("Guardias nocturnas", "es", True),
        # In both.
        ("kubernetes", "en", True), ("kubernetes", "es", True),
    ])
    def test_q_matches_only_the_chosen_languages_items(self, lists, value,
                                                       lang, found):
        server, data = lists
        r = get(server, "/skills?q=" + value.replace(" ", "+"), lang)
        assert r.status == 200, r
        assert r.header("Content-Language") == lang
        assert r.pairs() == h.expected_filtered(data, "/skills", "q", value,
                                                lang)
        titles = [g["title"] for g in r.json()]
        group = h.expected(data, "/skills", lang)[0]
        if found:
            # The group whose list holds it, whole, with that list.
            assert dict(group)["title"] in titles
            assert r.json()[titles.index(dict(group)["title"])]["skills"] \
                == SKILLS_0[lang]
        else:
            assert dict(group)["title"] not in titles

    def test_filtered_answers_have_etags_of_their_own_bytes(self, lists):
        server, _ = lists
        en = get(server, "/skills?q=kubernetes", "en")
        es = get(server, "/skills?q=kubernetes", "es")
        assert en.status == es.status == 200
        assert en.body != es.body and en.etag != es.etag
        again = get(server, "/skills?q=KUBERNETES", "es")
        assert again.body == es.body and again.etag == es.etag


# ------------------------------------------------------------ profilectl
PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
# Fields httpd itself adds, or that carry the clock.
HTTPD_FIELDS = {"date", "server", "connection", "keep-alive", "expires"}


def ctl(*args):
    return subprocess.run([PROFILECTL] + [str(a) for a in args],
                          capture_output=True, timeout=60)


def fields(resp):
    return {k.lower(): v for k, v in resp.headers
            if k.lower() not in HTTPD_FIELDS}


def misused(sample):
    d = per_language_data(sample)
    d["skills"][1]["skills"] = {"en": ["Go"]}
    d["experience"][0]["highlights"] = {"en": "Led X", "es": ["Dirigí X"]}
    d["experience"][1]["highlights"] = {"en": [], "es": [7], "fr": []}
    d["caseStudies"][0]["resultItems"] = {}
    return d


MISUSED_EXPECTED = [
    ("$.skills[1].skills", 'missing the list in "es"'),
    ("$.experience[0].highlights.en", "expected an array of plain strings"),
    ("$.experience[1].highlights.es[0]",
     "expected a plain string (the items of a list given per language are "
     "not translated again), found a number"),
    ("$.experience[1].highlights", 'unknown language "fr"'),
    ("$.caseStudies[0].resultItems", 'missing the list in "en"'),
    ("$.caseStudies[0].resultItems", 'missing the list in "es"'),
]


class TestProfilectl:
    def test_check_accepts_lists_given_per_language(self, workdir, sample):
        path = h.write_json(os.path.join(workdir, "lists-check.json"),
                            per_language_data(sample))
        cp = ctl("check", path)
        # experience[1]'s English list is empty where the Spanish is
        # not: the module counts it untranslated in en, and so does check
        # (one rule, profile_untranslated.h).
        assert (cp.returncode, cp.stdout) == (0, b"")
        lines = [line.split(" of ")[0]
                 for line in cp.stderr.decode().splitlines()]
        assert lines == ["%s: en: 1" % path, "%s: es: 0" % path]

    def test_check_names_every_misuse_in_file_order(self, workdir, sample):
        path = h.write_json(os.path.join(workdir, "lists-misused.json"),
                            misused(sample))
        cp = ctl("check", path)
        assert cp.returncode == 1, cp
        got = cp.stdout.decode("utf-8").splitlines()
        assert len(got) == len(MISUSED_EXPECTED), got
        for line, (jpath, text) in zip(got, MISUSED_EXPECTED):
            assert re.match(re.escape(path) + r":\d+:\d+: "
                            + re.escape(jpath) + ": ", line), line
            assert text in line, line

    def test_configtest_refuses_a_misuse_naming_its_path(self, make_httpd,
                                                         workdir, sample):
        d = per_language_data(sample)
        d["experience"][2]["highlights"] = {"en": ["a"]}
        path = h.write_json(os.path.join(workdir, "lists-refused.json"), d)
        server = make_httpd("lists-refused",
                            h.REFUSE + h.location(B, path))
        cp = server.configtest()
        assert cp.returncode != 0
        assert re.search(re.escape(path) + r":\d+:\d+: \$\.experience\[2\]"
                         r'\.highlights: missing the list in "es"',
                         cp.stdout + cp.stderr), cp.stderr

    def test_show_sends_the_modules_answers(self, lists):
        server, data = lists
        path = server.data_path
        targets = [(r, None) for r in routes(data)] + \
            [("/skills", "q=guardias"), ("/skills", "q=capacity")]
        for route, query in targets:
            for lang in ["en", "es"]:
                for coding in ["identity", "gzip", "br"]:
                    module = get(server, route + ("?" + query if query
                                                  else ""), lang,
                                 **{"Accept-Encoding": coding})
                    opts = ["--lang", lang, "--coding", coding]
                    if query:
                        opts += ["--query", query]
                    cp = ctl("show", "-i", path, route, *opts)
                    assert cp.returncode == 0, cp
                    mine = h.parse_response(cp.stdout, dechunk=False)
                    what = (route, query, lang, coding)
                    assert mine.status == module.status == 200, what
                    assert mine.body == module.body, what
                    assert mine.etag == module.etag, what
                    assert fields(mine) == fields(module), what

    def test_diff_of_one_languages_list_names_only_that_language(
            self, workdir, sample):
        old = per_language_data(sample)
        new = copy.deepcopy(old)
        new["experience"][0]["highlights"]["es"].append("Otro logro.")
        a = h.write_json(os.path.join(workdir, "lists-diff-old.json"), old)
        b = h.write_json(os.path.join(workdir, "lists-diff-new.json"), new)
        cp = ctl("diff", a, b)
        assert cp.returncode == 1, cp
        got = [ln.split(" ") for ln in cp.stdout.decode().splitlines()]
        rid = old["experience"][0]["id"]
        assert {(kind, route, lang) for kind, route, lang, *_ in got} == {
            ("changed", "/experience", "es"),
            ("changed", "/experience/" + rid, "es")}
        assert len(got) == 2 * 3        # two routes, three codings

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_export_takes_the_languages_own_lists(self, workdir, sample,
                                                  lang):
        data = per_language_data(sample)
        path = h.write_json(os.path.join(workdir, "lists-export.json"), data)
        cp = ctl("export-jsonresume", path, "--lang", lang)
        assert cp.returncode == 0, cp.stderr
        doc = json.loads(cp.stdout)
        assert doc["skills"][0]["keywords"] == SKILLS_0[lang]
        assert doc["work"][0]["highlights"] == HIGHLIGHTS_0[lang]
        assert doc["work"][1]["highlights"] == HIGHLIGHTS_1[lang]
        assert doc["projects"][0]["highlights"] == RESULT_ITEMS_0[lang]
        # Lists given as arrays are exported as before.
        assert doc["work"][2]["highlights"] == \
            [h._text(x, lang) for x in data["experience"][2]["highlights"]]
