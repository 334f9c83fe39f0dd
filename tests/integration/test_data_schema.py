# SPDX-License-Identifier: Apache-2.0
"""data/profile.schema.json against the module's loader.

Every data file below, the repository's own test files and mutations of
the sample data, is judged twice: by the schema (as an editor would: the
JSON parsed, then validated with Draft 2020-12) and by the module's loader
(`apache2 -t` with a <Location> serving the file).  The two verdicts must
agree, and agree with what the case is meant to show.

A few rules are beyond what a JSON Schema can say; those cases are listed
in BEYOND_THE_SCHEMA with the reason, and the test holds that the loader
refuses them while the schema lets them through (so the list stays true).
"""
import copy
import json
import os
import sys

import pytest

import httpd_harness as h

pytest.importorskip("jsonschema")
sys.path.insert(0, os.path.join(h.SRCDIR, "tests", "schemas"))
import schemacheck as sc  # noqa: E402

UNIT_DATA = os.path.join(h.SRCDIR, "tests", "unit", "data")


# ----------------------------------------------------------- mutations
def _dump(data):
    return json.dumps(data, ensure_ascii=False, indent=2)


def _set(path, value):
    def make(sample):
        d = copy.deepcopy(sample)
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        return _dump(d)
    return make


def _del(path):
    def make(sample):
        d = copy.deepcopy(sample)
        node = d
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
        return _dump(d)
    return make


def _map_texts(fn):
    """Applies fn to every per-language text object of the data."""
    def walk(node):
        if isinstance(node, dict):
            if node and all(isinstance(v, str) for v in node.values()) and \
                    all(len(k) == 2 for k in node):
                return fn(node)
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node
    return walk


def _languages(langs, fn):
    def make(sample):
        d = copy.deepcopy(sample)
        rest = _map_texts(fn)({k: v for k, v in d.items()
                               if k != "languages"})
        out = {"languages": langs} if langs is not None else {}
        out.update(rest)
        return _dump(out)
    return make


_DELETE = object()


def _then(first, second_path, second_value):
    """first(sample), then one more change."""
    def make(sample):
        d = json.loads(first(sample))
        node = d
        for k in second_path[:-1]:
            node = node[k]
        if second_value is _DELETE:
            del node[second_path[-1]]
        else:
            node[second_path[-1]] = second_value
        return _dump(d)
    return make


def _file(*parts):
    def make(sample):
        with open(os.path.join(*parts), encoding="utf-8") as f:
            return f.read()
    return make


def _text(s):
    return lambda sample: s


def _sample(sample):
    return _dump(sample)


def _empty_collections(sample):
    d = copy.deepcopy(sample)
    for k in ["skills", "experience", "education", "caseStudies",
              "metrics"]:
        d[k] = []
    d["contact"] = {"contacts": [], "links": []}
    return _dump(d)


def _plain_texts(langs):
    def make(sample):
        d = _map_texts(lambda t: t["en"])(
            {k: v for k, v in sample.items() if k != "languages"})
        return _dump(dict({"languages": langs}, **d))
    return make


def _duplicate_id(sample):
    d = copy.deepcopy(sample)
    d["metrics"][3]["id"] = d["metrics"][1]["id"]
    return _dump(d)


def _duplicate_key(sample):
    text = _dump(sample)
    return text.replace('"name": "Lucía Álvarez Romero"',
                        '"name": "Lucía Álvarez Romero", "name": "Otra"', 1)


TAGS16 = ["en", "es", "fr", "de", "it", "pt", "nl", "sv", "da", "fi", "pl",
          "cs", "sk", "hu", "ro", "el"]

# name: (maker(sample) -> file text, the loader accepts it[, what the
#        loader's message names])
CASES = {
    # -- accepted
    "sample": (_sample, True),
    "integration_minimal": (_file(h.TEST_DATA, "minimal.json"), True),
    "no_languages_means_en_es": (_del(["languages"]), True),
    "languages_in_other_order": (_set(["languages"], ["es", "en"]), True),
    "plain_string_text": (_set(["profile", "headline"], "Engineer"), True),
    "plain_string_in_text_list": (_set(["experience", 0, "highlights"],
                                       ["One", {"en": "a", "es": "b"}]),
                                  True),
    "empty_collections": (_empty_collections, True),
    "empty_strings": (_set(["profile", "name"], ""), True),
    "empty_translation_strings": (_set(["profile", "headline"],
                                       {"en": "", "es": ""}), True),
    "id_with_every_allowed_character": (_set(["experience", 0, "id"],
                                             "9a.B_c~d-e"), True),
    "kind_with_digit_and_dash": (_set(["contact", "links", 0, "kind"],
                                      "x-2"), True),
    "one_language": (_languages(["en"], lambda t: {"en": t["en"]}), True),
    "three_languages": (_languages(["en", "es", "fr"],
                                   lambda t: dict(t, fr=t["en"])), True),
    "upper_case_tag": (_languages(["EN", "es"], lambda t: {
        "EN": t["en"], "es": t["es"]}), True),
    "sixteen_languages": (_plain_texts(TAGS16), True),
    # -- refused: JSON syntax (the editor's parser says so, not the schema)
    "unit_bad_empty": (_file(UNIT_DATA, "bad-empty.json"), False),
    "unit_bad_syntax": (_file(UNIT_DATA, "bad-syntax.json"), False),
    "integration_syntax_error": (_file(h.TEST_DATA, "syntax-error.json"),
                                 False),
    "trailing_comma": (lambda s: _dump(s)[:-2] + ",\n}", False),
    # -- refused: shape
    "unit_bad_not_object": (_file(UNIT_DATA, "bad-not-object.json"), False),
    "unit_bad_missing_translation": (
        _file(UNIT_DATA, "bad-missing-translation.json"), False),
    "top_level_string": (_text('"profile"'), False),
    "missing_translation": (_del(["experience", 2, "period", "es"]), False),
    "missing_translation_in_list": (
        _del(["caseStudies", 0, "resultItems", 0, "en"]), False),
    "missing_translation_without_languages": (
        _then(_del(["languages"]), ["profile", "headline"], {"en": "x"}),
        False),
    "missing_translation_languages_in_other_order": (
        _then(_set(["languages"], ["es", "en"]), ["metrics", 0, "label"],
              {"es": "x"}), False),
    "undeclared_language": (_set(["profile", "headline"],
                                 {"en": "a", "es": "b", "fr": "c"}), False),
    "translation_not_a_string": (_set(["profile", "summary"],
                                      {"en": "a", "es": 5}), False),
    "translations_empty": (_set(["education", 0, "degree"], {}), False),
    "unknown_top_level_key": (_set(["colour"], "red"), False),
    "dollar_schema_key": (_set(["$schema"], "./profile.schema.json"), True),
    "dollar_schema_not_a_string": (_set(["$schema"], 1), False),
    "dollar_schema_nested": (_set(["profile", "$schema"], "x"), False),
    "unknown_nested_key": (_set(["metrics", 0, "colour"], "red"), False),
    "unknown_key_in_contact": (_set(["contact", "phones"], []), False),
    "wrong_type_text": (_set(["profile", "name"], 42), False),
    "wrong_type_boolean": (_set(["metrics", 1, "value"], True), False),
    "wrong_type_collection": (_set(["skills"], {}), False),
    "wrong_type_profile": (_set(["profile"], []), False),
    "wrong_type_contact": (_set(["contact"], "mail me"), False),
    "wrong_type_list_item": (_set(["experience", 0, "highlights"], [1]),
                             False),
    "wrong_type_record": (_set(["education", 0], "MSc"), False),
    "null_url": (_set(["experience", 1, "companyUrl"], None), False),
    "null_list_item": (_set(["caseStudies", 0, "resultItems"], [None]),
                       False),
    "null_profile": (_set(["profile"], None), False),
    "null_languages": (_set(["languages"], None), False),
    "null_translation": (_set(["profile", "headline"],
                              {"en": "a", "es": None}), False),
    "missing_field": (_del(["caseStudies", 1, "mobileTitle"]), False),
    "missing_id": (_del(["metrics", 0, "id"]), False),
    "missing_collection": (_del(["metrics"]), False),
    "missing_links": (_del(["contact", "links"]), False),
    "per_language_url": (_set(["experience", 0, "companyUrl"],
                              {"en": "https://a", "es": "https://b"}),
                         False),
    "per_language_id": (_set(["metrics", 0, "id"],
                             {"en": "a", "es": "b"}), False),
    "per_language_kind": (_set(["contact", "contacts", 0, "kind"],
                               {"en": "email", "es": "correo"}), False),
    "id_with_space": (_set(["experience", 0, "id"], "bad id!"), False),
    "id_leading_dash": (_set(["caseStudies", 1, "id"], "-x"), False),
    "id_non_ascii": (_set(["caseStudies", 1, "id"], "año"), False),
    "id_empty": (_set(["metrics", 2, "id"], ""), False),
    "id_with_slash": (_set(["experience", 3, "id"], "a/b"), False),
    "id_trailing_newline": (_set(["experience", 3, "id"], "abc\n"), False),
    "kind_upper_case": (_set(["contact", "contacts", 0, "kind"], "Email"),
                        False),
    "kind_with_space": (_set(["contact", "links", 0, "kind"], "Linked In"),
                        False),
    "kind_leading_digit": (_set(["contact", "links", 1, "kind"], "9x"),
                           False),
    "kind_underscore": (_set(["contact", "links", 1, "kind"], "e_mail"),
                        False),
    "kind_empty": (_set(["contact", "links", 1, "kind"], ""), False),
    "languages_empty": (_set(["languages"], []), False),
    "languages_not_a_list": (_set(["languages"], "en"), False),
    "language_tag_too_short": (_set(["languages"], ["en", "e"]), False),
    "language_tag_with_region": (_set(["languages"], ["en", "es-MX"]),
                                 False),
    "language_tag_with_digit": (_set(["languages"], ["en", "es1"]), False),
    "language_tag_not_a_string": (_set(["languages"], ["en", 5]), False),
    "language_declared_twice": (_set(["languages"], ["en", "es", "en"]),
                                False),
    "seventeen_languages": (_plain_texts(TAGS16 + ["ga"]), False),
    # -- lists of text values given per language (CONTRACT §9)
    "per_language_list": (_set(["experience", 0, "highlights"],
                               {"en": ["Led X", "Built Y"],
                                "es": ["Dirigí X"]}), True),
    "per_language_list_empty_arrays": (
        _set(["caseStudies", 0, "resultItems"], {"en": [], "es": []}), True),
    "per_language_list_languages_in_other_order": (
        _then(_set(["languages"], ["es", "en"]), ["skills", 0, "skills"],
              {"es": ["Uno"], "en": ["One", "Two"]}), True),
    "per_language_list_one_language": (
        _then(_languages(["en"], lambda t: {"en": t["en"]}),
              ["experience", 0, "highlights"], {"en": ["a", "b"]}), True),
    "per_language_list_missing_language": (
        _set(["experience", 1, "highlights"], {"en": ["a"]}), False,
        "$.experience[1].highlights:"),
    "per_language_list_undeclared_language": (
        _set(["skills", 1, "skills"], {"en": [], "es": [], "fr": []}), False,
        "$.skills[1].skills:"),
    "per_language_list_empty_object": (
        _set(["caseStudies", 1, "resultItems"], {}), False,
        "$.caseStudies[1].resultItems:"),
    "per_language_list_empty_object_one_language": (
        _then(_languages(["en"], lambda t: {"en": t["en"]}),
              ["caseStudies", 1, "resultItems"], {}), False,
        "$.caseStudies[1].resultItems:"),
    "per_language_list_of_texts_not_arrays": (
        _set(["experience", 0, "highlights"], {"en": "a", "es": "b"}), False,
        "$.experience[0].highlights.en:", "$.experience[0].highlights.es:"),
    "per_language_list_translated_item": (
        _set(["experience", 0, "highlights"],
             {"en": [{"en": "a", "es": "b"}], "es": []}), False,
        "$.experience[0].highlights.en[0]:"),
    "per_language_list_number_item": (
        _set(["skills", 0, "skills"], {"en": ["a", 1], "es": []}), False,
        "$.skills[0].skills.en[1]:"),
    "per_language_list_null_item": (
        _set(["skills", 0, "skills"], {"en": [], "es": [None]}), False,
        "$.skills[0].skills.es[0]:"),
    "per_language_list_null_array": (
        _set(["caseStudies", 0, "resultItems"], {"en": None, "es": []}),
        False, "$.caseStudies[0].resultItems.en:"),
    "per_language_list_key_not_a_tag_one_language": (
        _then(_languages(["en"], lambda t: {"en": t["en"]}),
              ["experience", 0, "highlights"], {"en": [], "en-GB": []}),
        False, "$.experience[0].highlights:"),
    # -- dates (CONTRACT §9, revised 2026-11-28)
    "dates_with_a_period": (
        _then(_set(["experience", 0, "start"], "2021-03"),
              ["experience", 0, "end"], "2022"), True),
    "dates_instead_of_a_period": (
        _then(_set(["experience", 0, "start"], "2021-03"),
              ["experience", 0, "period"], _DELETE), True),
    "dates_of_studies": (
        _then(_set(["education", 1, "start"], "2009"),
              ["education", 1, "end"], "2013-06"), True),
    "neither_dates_nor_period": (_del(["experience", 0, "period"]), False,
                                 "$.experience[0].period:"),
    "an_end_without_a_start": (_set(["experience", 2, "end"], "2020"),
                               False, "$.experience[2].end:"),
    "a_day_in_a_date": (_set(["experience", 1, "start"], "2021-03-04"),
                        False, "$.experience[1].start:"),
    "month_13": (_set(["education", 0, "start"], "2021-13"), False,
                 "$.education[0].start:"),
    "a_date_as_a_number": (_set(["experience", 1, "start"], 2021), False,
                           "$.experience[1].start:"),
    "a_date_per_language": (_set(["experience", 1, "start"],
                                 {"en": "2021", "es": "2021"}), False,
                            "$.experience[1].start:"),
    # -- a fallback language (CONTRACT §9, revised 2026-11-26)
    "fallback_en": (_set(["fallback"], "en"), True),
    "fallback_en_texts_lack_es": (
        _then(_then(_set(["fallback"], "en"), ["profile", "headline"],
                    {"en": "x"}),
              ["experience", 1, "highlights"], {"en": ["a"]}), True),
    "fallback_es_texts_lack_en": (
        _then(_set(["fallback"], "es"), ["metrics", 0, "label"],
              {"es": "x"}), True),
    "fallback_other_languages": (
        _then(_then(_languages(["en", "fr"], lambda t: {"en": t["en"]}),
                    ["fallback"], "en"), ["profile", "headline"],
              {"en": "x", "fr": "y"}), True),
    "fallback_undeclared": (_set(["fallback"], "de"), False,
                            "$.fallback:"),
    "fallback_with_region": (_set(["fallback"], "en-GB"), False,
                             "$.fallback:"),
    "fallback_not_a_string": (_set(["fallback"], ["en"]), False,
                              "$.fallback:"),
    "fallback_null": (_set(["fallback"], None), False, "$.fallback:"),
    "fallback_missing_translation_without_it": (
        _set(["profile", "headline"], {"en": "x"}), False,
        "$.profile.headline:"),
    # -- links (CONTRACT §9, revised 2026-11-26)
    "url_empty": (_set(["experience", 0, "companyUrl"], ""), True),
    "url_scheme_in_capitals": (_set(["contact", "links", 0, "url"],
                                    "HTTPS://Example.com/x?y#z"), True),
    "url_ip_literal_and_port": (_set(["education", 0, "institutionUrl"],
                                     "http://[2001:db8::1]:8080/"), True),
    "url_mailto_and_tel": (_then(_set(["contact", "links", 0, "url"],
                                      "tel:+34600000000"),
                                 ["contact", "links", 1, "url"],
                                 "MAILTO:a@b.example"), True),
    "url_javascript": (_set(["contact", "links", 0, "url"],
                            "javascript:alert(document.cookie)"), False,
                       "$.contact.links[0].url:"),
    "url_javascript_mixed_case": (_set(["experience", 1, "companyUrl"],
                                       "JaVaScRiPt:alert(1)"), False,
                                  "$.experience[1].companyUrl:"),
    "url_data": (_set(["education", 0, "institutionUrl"],
                      "data:text/html,<script>alert(1)</script>"), False),
    "url_ftp": (_set(["contact", "links", 1, "url"], "ftp://x.example/"),
                False),
    "url_relative": (_set(["experience", 0, "companyUrl"], "/about"),
                     False),
    "url_scheme_relative": (_set(["experience", 0, "companyUrl"],
                                 "//x.example/"), False),
    "url_no_host": (_set(["contact", "links", 0, "url"], "https://"),
                    False),
    "url_one_slash": (_set(["contact", "links", 0, "url"], "https:/x"),
                      False),
    "url_only_userinfo": (_set(["contact", "links", 0, "url"],
                               "https://user@/x"), False),
    "url_empty_mailto": (_set(["contact", "contacts", 0, "url"],
                              "mailto:"), False),
    "url_space": (_set(["contact", "links", 0, "url"],
                       "https://x.example/a b"), False),
    "url_trailing_newline": (_set(["contact", "links", 0, "url"],
                                  "https://x.example/\n"), False),
}



def _field_paths(sample):
    """Every member of the data file's objects, from the sample: the
    top-level ones, and those of the first record of each kind."""
    paths = [[k] for k in sample if k != "languages"]
    paths += [["profile", k] for k in sample["profile"]]
    paths += [["contact", k] for k in sample["contact"]]
    for coll in ["skills", "experience", "education", "caseStudies",
                 "metrics"]:
        paths += [[coll, 0, k] for k in sample[coll][0]]
    for coll in ["contacts", "links"]:
        paths += [["contact", coll, 0, k]
                  for k in sample["contact"][coll][0]]
    return paths


def _json_path(path):
    """The loader's way of naming a place: $.experience[0].role"""
    return "$" + "".join("[%d]" % p if isinstance(p, int) else "." + p
                         for p in path) + ":"


def _generated(sample):
    """For every member: missing, null, and a number instead.  In a file
    declaring only "en", where the schema's English/Spanish rules do not
    apply, so the structure alone must refuse them."""
    base = _languages(["en"], lambda t: {"en": t["en"]})
    out = {}
    for path in _field_paths(sample):
        name = ".".join(str(p) for p in path)
        where = _json_path(path)
        out["missing " + name] = (_then(base, path, _DELETE), False, where)
        out["null " + name] = (_then(base, path, None), False, where)
        out["number " + name] = (_then(base, path, 7), False, where)
    # And the items of the lists of text values.
    for path in [["skills", 0, "skills", 0],
                 ["experience", 0, "highlights", 0],
                 ["caseStudies", 0, "resultItems", 0]]:
        name = ".".join(str(p) for p in path)
        where = _json_path(path)
        out["null " + name] = (_then(base, path, None), False, where)
        out["number " + name] = (_then(base, path, 7), False, where)
        out["list " + name] = (_then(base, path, ["a"]), False, where)
    return out


CASES.update(_generated(h.load_data(h.SAMPLE_DATA)))
CASES["translations_empty_one_language"] = (
    _then(_languages(["en"], lambda t: {"en": t["en"]}),
          ["profile", "headline"], {}), False)
CASES["translation_key_not_a_tag_one_language"] = (
    _then(_languages(["en"], lambda t: {"en": t["en"]}),
          ["profile", "headline"], {"en": "a", "en-GB": "b"}), False)

# name: (maker, why a JSON Schema cannot refuse it)
BEYOND_THE_SCHEMA = {
    "duplicate_id": (
        _duplicate_id,
        "uniqueness of one member across the items of an array cannot be "
        "expressed (uniqueItems compares whole items)"),
    "duplicate_json_key": (
        _duplicate_key,
        "a schema validates the parsed value, in which one of two equal "
        "member names is already gone (editors flag duplicate keys "
        "themselves)"),
    "language_declared_twice_in_other_case": (
        _set(["languages"], ["en", "es", "EN"]),
        "uniqueItems compares strings exactly; the loader compares "
        "language tags case-insensitively"),
    "other_languages_missing_translation": (
        _then(_languages(["en", "fr"], lambda t: {"en": t["en"],
                                                  "fr": t["es"]}),
              ["profile", "headline"], {"en": "x"}),
        "which translations a text value needs depends on the file's own "
        "`languages`; the schema knows only the default en/es"),
    "other_languages_undeclared_language": (
        _then(_languages(["en", "fr"], lambda t: {"en": t["en"],
                                                  "fr": t["es"]}),
              ["profile", "headline"], {"en": "x", "fr": "y", "de": "z"}),
        "as above: the allowed keys depend on the file's `languages`"),
    "other_languages_per_language_list_missing_language": (
        _then(_languages(["en", "fr"], lambda t: {"en": t["en"],
                                                  "fr": t["es"]}),
              ["experience", 0, "highlights"], {"en": ["x"]}),
        "which arrays a list given per language needs depends on the "
        "file's own `languages`; the schema knows only the default en/es"),
    "fallback_text_lacks_the_fallback": (
        _then(_set(["fallback"], "es"), ["profile", "headline"],
              {"en": "x"}),
        "with a fallback, the translations a text value needs depend on "
        "which language `fallback` names"),
    "fallback_undeclared_language_in_text": (
        _then(_set(["fallback"], "en"), ["profile", "headline"],
              {"en": "x", "fr": "y"}),
        "as above: with a fallback the schema checks no translations"),
    "fallback_not_one_of_other_languages": (
        _then(_languages(["en", "fr"], lambda t: {"en": t["en"],
                                                  "fr": t["es"]}),
              ["fallback"], "de"),
        "the allowed values depend on the file's own `languages`; the "
        "schema knows only the default en/es"),
    "nul_in_string": (
        _set(["profile", "name"], "Ana\u0000Ruiz"),
        "JSON allows \\u0000 in strings; the loader (jansson) refuses it"),
}


# ------------------------------------------------------------- verdicts
@pytest.fixture(scope="module")
def checker(make_httpd, workdir):
    """loader_accepts(text): `apache2 -t` on a <Location> serving it."""
    d = os.path.join(workdir, "schema-cases")
    os.makedirs(d)
    os.chmod(d, 0o755)
    server = make_httpd("schema-cases", "")
    counter = [0]

    def loader_accepts(text):
        counter[0] += 1
        path = os.path.join(d, "case-%d.json" % counter[0])
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        server.write_conf(h.REFUSE + h.location("/api/v1", path))
        cp = server.configtest()
        out = cp.stdout + cp.stderr
        if cp.returncode == 0:
            assert "Syntax OK" in out, out
            return True, out
        assert "ProfileData: " + path in out, out
        return False, out
    return loader_accepts


@pytest.fixture(scope="module")
def schema_accepts():
    v = sc.validator(sc.load_data_schema())

    def accepts(text):
        """As an editor: JSON syntax first, then the schema."""
        try:
            data = json.loads(text)
        except ValueError as e:
            return False, ["not JSON: %s" % e]
        errs = sc.errors(v, data)
        return not errs, errs
    return accepts


@pytest.mark.parametrize("name", sorted(CASES))
def test_schema_and_loader_agree(checker, schema_accepts, sample, name):
    maker, valid = CASES[name][:2]
    text = maker(sample)
    loader, message = checker(text)
    schema, errors = schema_accepts(text)
    assert loader == valid, "%s: the loader says %s\n%s" % (
        name, "yes" if loader else "no", message)
    for where in CASES[name][2:]:
        assert where in message, message
    assert schema == valid, "%s: the schema says %s\n%s" % (
        name, "yes" if schema else "no", "\n".join(errors))


@pytest.mark.parametrize("name", sorted(BEYOND_THE_SCHEMA))
def test_beyond_the_schema(checker, schema_accepts, sample, name):
    maker, why = BEYOND_THE_SCHEMA[name]
    text = maker(sample)
    loader, message = checker(text)
    schema, errors = schema_accepts(text)
    assert not loader, "%s: the loader accepts it now\n%s" % (name, message)
    assert schema, "%s: the schema refuses it now (move it to CASES):\n%s" \
        % (name, "\n".join(errors))
