# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 and §4 (revised 2026-11-26): a data file's fallback
language.

The sample data naming `"fallback": "en"`, with Spanish missing in a few
texts and in one list given per language, and one Spanish text empty,
served by a server of its own: where Spanish is missing the English
value is served, and `Content-Language` says `es, en` for exactly the
bodies that hold such a value (filtered ones included, and their 304s);
an empty translation is served as it is.  Without `fallback` the same
file is refused as before.  The untranslated texts are counted per
language in the JSON status, server-status, `-D DUMP_PROFILES` and the
`profile_data_untranslated_texts` gauge, with an alerting rule.
"""
import copy
import json
import os
import re
import subprocess

import pytest

import httpd_harness as h
from test_metrics import METRICS, RULES, need, parse, metrics
from test_status import STATUS, status_json

B = "/api/v1"
LANGS = ["en", "es"]
# headline, a role, a list given per language, a skill group's title
# (missing in Spanish) and the summary (empty in Spanish).
UNTRANSLATED = {"en": 0, "es": 5}


def fallback_data(sample, fallback="en"):
    d = copy.deepcopy(sample)
    if fallback is not None:
        d["fallback"] = fallback
    del d["profile"]["headline"]["es"]
    d["profile"]["summary"]["es"] = ""
    hafen = d["experience"][1]
    del hafen["role"]["es"]
    hafen["highlights"] = {"en": [h._text(x, "en")
                                  for x in hafen["highlights"]]}
    del d["skills"][4]["title"]["es"]
    return d


def served(data, fallback="en"):
    """The data as the API serves it: each missing translation and list
    filled in from the fallback (the oracle of the bodies)."""
    def fill(node):
        if isinstance(node, dict):
            if node and set(node) <= set(LANGS):
                return {lang: fill(node.get(lang, node[fallback]))
                        for lang in LANGS}
            return {k: fill(v) for k, v in node.items()}
        if isinstance(node, list):
            return [fill(v) for v in node]
        return node
    return fill(data)


def lacks(node, lang):
    """Whether a record holds a text or a list given per language that
    lacks `lang` (the body then holds a value of the fallback)."""
    if isinstance(node, dict):
        if node and set(node) <= set(LANGS):
            return lang not in node
        return any(lacks(v, lang) for v in node.values())
    if isinstance(node, list):
        return any(lacks(v, lang) for v in node)
    return False


COLL_OF = {"/skills": "skills", "/experience": "experience",
           "/education": "education", "/case-studies": "caseStudies",
           "/metrics": "metrics"}


def records(data, route):
    if route in ("/profile", "/contact"):
        return [data[route[1:]]]
    if route in COLL_OF:
        return data[COLL_OF[route]]
    coll, rid = route.rsplit("/", 1)
    return [r for r in data[COLL_OF[coll]] if r["id"] == rid]


def language(recs, lang):
    return "%s, en" % lang if any(lacks(r, lang) for r in recs) else lang


@pytest.fixture(scope="module")
def fb(make_httpd, workdir, sample):
    """(server, data): the data with a fallback, and the two status
    handlers and the metrics beside it."""
    data = fallback_data(sample)
    path = h.write_json(os.path.join(workdir, "fallback.json"), data)
    os.chmod(path, 0o644)
    server = make_httpd("fallback", "")
    server.write_conf(h.load_modules("status") + STATUS + METRICS
                      + h.location(B, path))
    server.data_path = path
    yield server.start_checked(), data
    server.stop()


def get(server, target, lang, **more):
    hdrs = {"Accept-Language": lang}
    hdrs.update(more)
    return server.get(B + target, hdrs)


def routes(data):
    return ["/profile", "/contact", "/skills", "/experience", "/education",
            "/case-studies", "/metrics"] + \
        ["/experience/" + r["id"] for r in data["experience"]] + \
        ["/case-studies/" + r["id"] for r in data["caseStudies"]]


class TestServing:
    @pytest.mark.parametrize("lang", LANGS)
    def test_every_route_serves_the_fallback_where_a_language_lacks(
            self, fb, lang):
        server, data = fb
        full = served(data)
        for route in routes(data):
            r = get(server, route, lang)
            assert r.status == 200, (route, r)
            assert r.pairs() == h.expected(full, route, lang), route
            assert r.header("Content-Language") == \
                language(records(data, route), lang), route

    def test_spanish_says_it_holds_english(self, fb):
        server, data = fb
        r = get(server, "/profile", "es-MX")
        assert r.header("Content-Language") == "es, en"
        assert r.json()["headline"] == data["profile"]["headline"]["en"]
        # An empty translation is served as it is.
        assert r.json()["summary"] == ""
        r = get(server, "/experience/" + data["experience"][1]["id"], "es")
        assert r.header("Content-Language") == "es, en"
        assert r.json()["role"] == data["experience"][1]["role"]["en"]
        assert r.json()["highlights"] == \
            data["experience"][1]["highlights"]["en"]
        # A body with no value of the fallback says Spanish alone.
        r = get(server, "/experience/" + data["experience"][0]["id"], "es")
        assert r.header("Content-Language") == "es"
        assert r.json()["role"] == data["experience"][0]["role"]["es"]

    def test_english_is_english(self, fb):
        server, data = fb
        for route in routes(data):
            assert get(server, route, "en").header("Content-Language") \
                == "en", route

    @pytest.mark.parametrize("route,param,value", [
        ("/skills", "q", "leadership"),        # the English title
        ("/skills", "q", "kubernetes"),
        ("/skills", "q", "liderazgo"),         # not served in Spanish
        ("/skills", "q", "a"),
        ("/experience", "company", "Hafen"),
        ("/experience", "company", "Norteverde"),
        ("/experience", "company", "e"),       # every record
        ("/experience", "company", "nothing"),
    ])
    def test_a_filtered_body_says_what_it_holds(self, fb, route, param,
                                                value):
        server, data = fb
        full = served(data)
        for lang in LANGS:
            r = get(server, "%s?%s=%s" % (route, param, value), lang)
            assert r.status == 200, r
            want = h.expected_filtered(full, route, param, value, lang)
            assert r.pairs() == want
            # The records matched, as the file has them.
            recs = [raw for raw, shown in zip(data[COLL_OF[route]],
                                              h.expected(full, route, lang))
                    if shown in want]
            assert r.header("Content-Language") == language(recs, lang), \
                (route, value, lang)

    def test_a_filter_that_drops_the_fallback_items_says_spanish(self, fb):
        server, _ = fb
        whole = get(server, "/skills", "es")
        assert whole.header("Content-Language") == "es, en"
        r = get(server, "/skills?q=kubernetes", "es")
        assert r.status == 200 and r.json()
        assert "Leadership" not in r.body.decode("utf-8")
        assert r.header("Content-Language") == "es"

    @pytest.mark.parametrize("target,lang,want", [
        ("/profile", "es", "es, en"),
        ("/contact", "es", "es"),
        ("/skills?q=leadership", "es", "es, en"),
        ("/skills?q=kubernetes", "es", "es"),
        ("/profile", "en", "en"),
    ])
    def test_a_304_says_what_its_200_says(self, fb, target, lang, want):
        server, _ = fb
        for coding in ["identity", "gzip", "br"]:
            first = get(server, target, lang, **{"Accept-Encoding": coding})
            assert first.status == 200
            assert first.header("Content-Language") == want
            r = get(server, target, lang, **{"Accept-Encoding": coding,
                                             "If-None-Match": first.etag})
            assert r.status == 304, (target, coding, r)
            assert r.header("Content-Language") == want, (target, coding)
            head = server.request("HEAD", B + target,
                                  headers={"Accept-Language": lang,
                                           "Accept-Encoding": coding})
            assert head.header("Content-Language") == want

    def test_answers_without_data_say_the_chosen_language(self, fb):
        server, _ = fb
        for target in ["/experience/nope", "/profile?x=1", "/nothing"]:
            r = get(server, target, "es")
            assert r.status in (400, 404), r
            assert r.header("Content-Language") == "es", target
        r = server.request("OPTIONS", B + "/profile",
                           headers={"Accept-Language": "es"})
        assert r.status == 200
        assert r.header("Content-Language") == "es"

    def test_languages_have_etags_of_their_own_bytes(self, fb):
        server, data = fb
        for route in routes(data):
            en, es = get(server, route, "en"), get(server, route, "es")
            assert (en.body == es.body) == (en.etag == es.etag), route


class TestRefused:
    def test_without_fallback_a_missing_translation_is_refused(
            self, make_httpd, workdir, sample):
        path = h.write_json(os.path.join(workdir, "no-fallback.json"),
                            fallback_data(sample, None))
        server = make_httpd("no-fallback", h.REFUSE + h.location(B, path))
        cp = server.configtest()
        out = cp.stdout + cp.stderr
        assert cp.returncode != 0, out
        for where, text in [
                ("$.profile.headline", 'missing translation "es"'),
                ("$.skills[4].title", 'missing translation "es"'),
                ("$.experience[1].role", 'missing translation "es"'),
                ("$.experience[1].highlights", 'missing the list in "es" '
                 "(a list given per language has one array per declared "
                 "language)")]:
            assert "%s: %s" % (where, text) in out, (where, out)

    def test_the_fallback_must_be_a_declared_language(self, make_httpd,
                                                      workdir, sample):
        path = h.write_json(os.path.join(workdir, "fallback-de.json"),
                            fallback_data(sample, "de"))
        server = make_httpd("fallback-de", h.REFUSE + h.location(B, path))
        cp = server.configtest()
        out = cp.stdout + cp.stderr
        assert cp.returncode != 0, out
        assert '$.fallback: the fallback "de" is not one of the file\'s ' \
            "languages (en,es)" in out
        assert "missing translation" not in out


class TestUntranslated:
    def test_json_status_counts_them_per_language(self, fb):
        server, _ = fb
        f, = status_json(server)["data"]
        assert f["fallback"] == "en"
        assert f["untranslated"] == UNTRANSLATED

    def test_server_status_page_shows_them(self, fb):
        server, _ = fb
        page = server.get("/server-status").body.decode("utf-8")
        assert "<th align=\"left\" valign=\"top\">Untranslated texts</th>" \
            "<td>en 0, es 5</td>" in page
        assert "<th align=\"left\" valign=\"top\">Fallback language</th>" \
            "<td>en</td>" in page

    def test_metrics_have_a_gauge_per_language(self, fb):
        server, _ = fb
        samples = parse(metrics(server))
        for lang, n in UNTRANSLATED.items():
            assert samples[("profile_data_untranslated_texts",
                            (("file", server.data_path),
                             ("language", lang)))] == n

    def test_promtool_accepts_them(self, fb):
        promtool = need("promtool")
        server, _ = fb
        cp = subprocess.run([promtool, "check", "metrics"],
                            input=metrics(server), capture_output=True,
                            text=True, timeout=60)
        assert cp.returncode == 0, (cp.stdout, cp.stderr)

    def test_dump_profiles_says_them(self, fb):
        server, _ = fb
        cp = server.ctl("-t", "-D", "DUMP_PROFILES")
        assert cp.returncode == 0, cp.stderr
        lines = cp.stdout.splitlines()
        assert lines[2].startswith("    languages: en es, fallback en; "
                                   "records: skills 6,"), lines
        assert lines[3] == "    untranslated texts: en 0, es 5"

    def test_the_alert_fires_after_a_day(self, workdir):
        promtool = need("promtool")
        test = os.path.join(workdir, "untranslated-rule-test.yml")
        with open(test, "w") as f:
            f.write(RULE_TEST.format(rules=RULES))
        cp = subprocess.run([promtool, "test", "rules", test],
                            capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0, (cp.stdout, cp.stderr)


RULE_TEST = """rule_files:
  - {rules}
evaluation_interval: 1h
tests:
  - interval: 1h
    input_series:
      - series: 'profile_data_untranslated_texts{{file="/srv/a.json", language="es", instance="web1:80", job="profile"}}'
        values: '5x30 0x10'
      - series: 'profile_data_untranslated_texts{{file="/srv/a.json", language="en", instance="web1:80", job="profile"}}'
        values: '0x40'
    alert_rule_test:
      - eval_time: 12h
        alertname: ProfileUntranslatedTexts
        exp_alerts: []
      - eval_time: 26h
        alertname: ProfileUntranslatedTexts
        exp_alerts:
          - exp_labels:
              severity: info
              file: /srv/a.json
              language: es
              instance: web1:80
              job: profile
            exp_annotations:
              summary: "5 texts of /srv/a.json are untranslated in es on web1:80"
              description: "/srv/a.json serves 5 texts in es from its fallback language or empty. List them with `profilectl untranslated --lang es /srv/a.json`."
      - eval_time: 35h
        alertname: ProfileUntranslatedTexts
        exp_alerts: []
"""


class TestProfilectl:
    def test_show_says_what_the_module_says(self, fb):
        server, _ = fb
        ctl = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
        for target, lang in [("/profile", "es"), ("/contact", "es"),
                             ("/profile", "en")]:
            module = get(server, target, lang)
            cp = subprocess.run([ctl, "show", "-i", server.data_path,
                                 target, "--lang", lang],
                                capture_output=True, timeout=60)
            assert cp.returncode == 0, cp
            mine = h.parse_response(cp.stdout, dechunk=False)
            assert mine.body == module.body
            assert mine.header("Content-Language") == \
                module.header("Content-Language")

    def test_export_takes_the_fallback_where_spanish_lacks(self, fb):
        server, data = fb
        ctl = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
        cp = subprocess.run([ctl, "export-jsonresume", server.data_path,
                             "--lang", "es"], capture_output=True,
                            timeout=60)
        assert cp.returncode == 0, cp.stderr
        doc = json.loads(cp.stdout)
        assert doc["basics"]["label"] == data["profile"]["headline"]["en"]
        assert doc["work"][1]["position"] == \
            data["experience"][1]["role"]["en"]
        assert doc["work"][1]["highlights"] == \
            data["experience"][1]["highlights"]["en"]

    def test_merge_keeps_missing_translations_missing(self, fb, tmp_path):
        # merge reads each language as export does, but a missing
        # translation stays missing: filled from the fallback it would be
        # written as the translation, hidden from untranslated and from
        # Content-Language.
        server, _ = fb
        ctl = os.path.join(h.BUILDDIR, "profilectl", "profilectl")

        def run(*args, rc=0):
            cp = subprocess.run([ctl] + [str(a) for a in args],
                                capture_output=True, text=True, timeout=60)
            assert cp.returncode == rc, cp
            return cp

        def missing(path):
            return sorted((t["lang"], t["field"], t["source"]) for t in
                          json.loads(run("untranslated", "--json", path,
                                         rc=1).stdout))

        # A French file with the same entries (English text, as a start).
        en = tmp_path / "cv.en.json"
        en.write_text(run("export-jsonresume", server.data_path, "--lang",
                          "en").stdout)
        fr = tmp_path / "fr.json"
        run("import-jsonresume", en, "--lang-order", "fr", "-o", fr)
        out = tmp_path / "merged.json"
        cp = run("merge", server.data_path, fr, "-o", out)
        assert "missing translation: in en but not in es" in cp.stderr
        merged = json.loads(out.read_text())
        assert merged["languages"] == ["en", "es", "fr"]
        assert merged["fallback"] == "en"
        before = missing(server.data_path)
        assert before and [m for m in missing(out) if m[0] == "es"] == \
            before
        assert run("check", out).returncode == 0


@pytest.fixture(scope="module")
def uneven(make_httpd, workdir, sample):
    """(server, path): the fallback data with the cases where a second
    definition of "untranslated" would count differently: the source
    (fallback) language empty where Spanish has text, and a text missing
    in Spanish whose English is empty."""
    data = fallback_data(sample)
    data["experience"][0]["role"]["en"] = ""
    data["skills"][0]["title"] = {"en": ""}
    path = h.write_json(os.path.join(workdir, "uneven.json"), data)
    os.chmod(path, 0o644)
    server = make_httpd("uneven", "")
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location(B, path))
    yield server.start_checked(), path
    server.stop()


class TestCountsAgree:
    """profilectl check and untranslated count by the module's rule
    (profile_untranslated.h): one definition, the same numbers."""

    def test_check_and_untranslated_count_what_the_module_counts(
            self, uneven):
        server, path = uneven
        f, = status_json(server)["data"]
        module = f["untranslated"]
        assert module == {"en": 1, "es": 6}
        ctl = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
        cp = subprocess.run([ctl, "check", path], capture_output=True,
                            text=True, timeout=60)
        assert cp.returncode == 0, cp.stderr
        counts = {}
        for line in cp.stderr.splitlines():
            m = re.match(re.escape(path) + r": (\w+): (\d+) of \d+ texts "
                         r"untranslated", line)
            if m:
                counts[m.group(1)] = int(m.group(2))
        assert counts == module, cp.stderr
        cp = subprocess.run([ctl, "untranslated", "--lang", "es", "--json",
                             path], capture_output=True, text=True,
                            timeout=60)
        assert cp.returncode == 1, cp.stderr
        assert len(json.loads(cp.stdout)) == module["es"]
        assert "%s: es: %d of " % (path, module["es"]) in cp.stderr
