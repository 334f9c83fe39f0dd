/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_validate.c -- the data file's validation (CONTRACT §9): the
 * languages it declares and its fallback, every value against the
 * schema tables of profile_schema.c (kinds, required and unknown keys,
 * translations, lists given per language, id and kind patterns, no
 * nulls), and unique ids per collection.  Every problem is counted, and
 * the first ones are kept with their JSON paths, in the order of the
 * file (jansson keeps members in file order, and the walk follows it);
 * a value of the wrong type is one problem and is not descended into.
 * A rule is changed here (the languages, the fallback and a record's
 * dates in profile_validate_parts.c); which fields exist is changed in
 * profile_schema.c.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "profile_dates.h"
#include "profile_schema.h"
#include "profile_text.h"
#include "profile_url.h"
#include "profile_validate.h"
#include "profile_validate_int.h"

static int check_object(vctx_t *c, const profile_field_t *fields, json_t *v,
                        const path_t *at);

/* Whether a text or a list given per language that lacks language i is
 * a problem (CONTRACT §9): always without a fallback; with one, only
 * when i is the fallback. */
static int needs(vctx_t *c, int i)
{
    return c->langs_ok && (c->fallback == -1 || c->fallback == i);
}

static int check_text(vctx_t *c, json_t *v, const path_t *at)
{
    const char *key;
    json_t *tr;
    int i, rv = 0;

    if (json_is_string(v)) {
        return 0;
    }
    if (!json_is_object(v)) {
        return pv_fail(c, at, "expected a text value (a string, or an object "
                    "with one string per language), found %s",
                    type_name(v));
    }
    json_object_foreach(v, key, tr) {
        path_t here = {.up = at, .key = key};
        if (c->langs_ok && pv_lang_index(c, key) < 0) {
            rv = pv_fail(c, at, "unknown language %s (the file declares %s)",
                      pv_quoted(c, key), pv_declared(c));
        }
        else if (!json_is_string(tr)) {
            rv = pv_fail(c, &here, "expected a string, found %s",
                      type_name(tr));
        }
    }
    for (i = 0; c->langs_ok && i < c->nlangs; i++) {
        if (needs(c, i) && json_object_get(v, c->langs[i]) == NULL) {
            rv = pv_fail(c, at, "missing translation \"%s\"%s", c->langs[i],
                      c->fallback == i ? " (the fallback language, which "
                      "every text has)" : "");
        }
    }
    return rv;
}

/* A list of text values: an array of text values, or an object with
 * exactly one array per declared language whose items are plain strings
 * (CONTRACT §9).  Each language's array is judged even when another's
 * is wrong. */
static int check_textlist(vctx_t *c, json_t *v, const path_t *at)
{
    const char *key;
    json_t *list, *el;
    size_t i;
    int l, rv = 0;

    if (json_is_array(v)) {
        json_array_foreach(v, i, el) {
            path_t here = {.up = at, .key = NULL, .index = i};

            if (json_is_null(el)) {
                rv = pv_fail(c, &here, "null is not allowed (expected a text "
                          "value)");
            }
            else if (check_text(c, el, &here)) {
                rv = -1;
            }
        }
        return rv;
    }
    if (!json_is_object(v)) {
        return pv_fail(c, at, "expected an array of text values, or an object "
                    "with one array per language, found %s", type_name(v));
    }
    json_object_foreach(v, key, list) {
        path_t here = {.up = at, .key = key};

        if (c->langs_ok && pv_lang_index(c, key) < 0) {
            rv = pv_fail(c, at, "unknown language %s (the file declares %s)",
                      pv_quoted(c, key), pv_declared(c));
            continue;
        }
        if (!json_is_array(list)) {
            rv = pv_fail(c, &here, "expected an array of plain strings (the "
                      "list in %s), found %s", pv_quoted(c, key),
                      type_name(list));
            continue;
        }
        json_array_foreach(list, i, el) {
            path_t item = {.up = &here, .key = NULL, .index = i};

            if (!json_is_string(el)) {
                rv = pv_fail(c, &item, "expected a plain string (the items of "
                          "a list given per language are not translated "
                          "again), found %s", type_name(el));
            }
        }
    }
    for (l = 0; c->langs_ok && l < c->nlangs; l++) {
        if (needs(c, l) && json_object_get(v, c->langs[l]) == NULL) {
            rv = pv_fail(c, at, "missing the list in \"%s\" (%s)", c->langs[l],
                      c->fallback == l ? "the fallback language, whose "
                      "array every list given per language has"
                      : "a list given per language has one array per "
                      "declared language");
        }
    }
    return rv;
}

/* An id is unique within its collection: `at` is the id of an element
 * of the collection being walked. */
static int check_unique_id(vctx_t *c, const char *id, const path_t *at)
{
    const size_t *first;

    if (c->ids == NULL || at->up == NULL || at->up->key != NULL) {
        return 0;
    }
    first = apr_hash_get(c->ids, id, APR_HASH_KEY_STRING);
    if (first != NULL) {
        return pv_fail(c, at, "duplicate id %s (also at $.%s[%" APR_SIZE_T_FMT
                    "])", pv_quoted(c, id), c->coll, *first);
    }
    apr_hash_set(c->ids, id, APR_HASH_KEY_STRING,
                 apr_pmemdup(c->p, &at->up->index, sizeof(size_t)));
    return 0;
}

/* A link (CONTRACT §9, profile_url.h): empty, or an absolute https,
 * http, mailto or tel URL.  The message quotes at most 64 code points
 * of the value, and reads no more of it than that needs. */
static int check_url(vctx_t *c, json_t *v, const path_t *at)
{
    const char *s = json_string_value(v);
    apr_size_t len = json_string_length(v);
    profile_url_e why = profile_url_check(s, len);

    if (why == PROFILE_URL_OK) {
        return 0;
    }
    return pv_fail(c, at, "\"%s\" is not an " PROFILE_URL_SCHEMES " URL%s",
                profile_text_printable(s, len < 4 * 65 ? len : 4 * 65, 64,
                                       c->p),
                profile_url_why(why));
}

static int check_value(vctx_t *c, const profile_field_t *f, json_t *v,
                       const path_t *at)
{
    size_t i;
    json_t *el;
    int rv = 0;

    if (json_is_null(v)) {
        static const char *const expected[] = {
            "a text value",
            ("an array of text values, or an object with one array per "
             "language"),
            "an id",
            "a kind", "a string", "an object", "an array of objects",
            "an array of language tags", "a string (the schema's URL)",
            "a language tag (one of the file's languages)",
            "a date, YYYY or YYYY-MM"
        };
        return pv_fail(c, at, "null is not allowed (expected %s)",
                    expected[f->kind]);
    }
    switch (f->kind) {
    case PROFILE_K_TEXT:
        return check_text(c, v, at);
    case PROFILE_K_SCHEMA:
        if (!json_is_string(v)) {
            return pv_fail(c, at, "expected a string (the schema's URL), found "
                        "%s", type_name(v));
        }
        return 0;
    case PROFILE_K_ID:
    case PROFILE_K_KIND:
    case PROFILE_K_URL:
        if (!json_is_string(v)) {
            return pv_fail(c, at, "expected a plain string (%s is the same in "
                        "every language), found %s", f->name, type_name(v));
        }
        if (f->kind == PROFILE_K_ID
            && !profile_schema_pattern(json_string_value(v), f->kind)) {
            return pv_fail(c, at, "bad id %s: ids match "
                        "[A-Za-z0-9][A-Za-z0-9._~-]*",
                        pv_quoted(c, json_string_value(v)));
        }
        if (f->kind == PROFILE_K_KIND
            && !profile_schema_pattern(json_string_value(v), f->kind)) {
            return pv_fail(c, at, "bad kind %s: kinds match [a-z][a-z0-9-]*",
                        pv_quoted(c, json_string_value(v)));
        }
        if (f->kind == PROFILE_K_ID) {
            return check_unique_id(c, json_string_value(v), at);
        }
        if (f->kind == PROFILE_K_URL) {
            return check_url(c, v, at);
        }
        return 0;
    case PROFILE_K_OBJECT:
        return check_object(c, f->sub, v, at);
    case PROFILE_K_TEXTLIST:
        return check_textlist(c, v, at);
    case PROFILE_K_OBJLIST:
        if (!json_is_array(v)) {
            return pv_fail(c, at, "expected an array, found %s", type_name(v));
        }
        if (at->up == NULL) {
            /* A collection: its ids are unique (check_unique_id). */
            c->ids = apr_hash_make(c->p);
            c->coll = f->name;
        }
        json_array_foreach(v, i, el) {
            path_t here = {.up = at, .key = NULL, .index = i};
            if (json_is_null(el)) {
                rv = pv_fail(c, &here, "null is not allowed (expected an "
                          "object)");
            }
            else if (check_object(c, f->sub, el, &here)) {
                rv = -1;
            }
        }
        if (at->up == NULL) {
            c->ids = NULL;
        }
        return rv;
    case PROFILE_K_LANGS:
        /* Checked first, by pv_check_languages(); its problems are listed
         * here, where the declaration stands in the file. */
        profile_problems_cat(c->problems, c->lang_problems);
        return c->lang_problems->total ? -1 : 0;
    case PROFILE_K_DATE:
        if (!json_is_string(v)) {
            return pv_fail(c, at, "expected a date, YYYY or YYYY-MM (a plain "
                        "string), found %s", type_name(v));
        }
        if (!profile_date_valid(json_string_value(v))) {
            return pv_fail(c, at, "bad date %s: dates are YYYY or YYYY-MM "
                        "(2021, 2021-03)", pv_quoted(c, json_string_value(v)));
        }
        return 0;
    case PROFILE_K_FALLBACK:
        /* Found first, by pv_find_fallback(), and judged here. */
        if (!json_is_string(v)) {
            return pv_fail(c, at, "expected a language tag (one of the "
                        "file's languages), found %s", type_name(v));
        }
        if (c->langs_ok && c->fallback < 0) {
            return pv_fail(c, at, "the fallback %s is not one of the file's "
                        "languages (%s)", pv_quoted(c, json_string_value(v)),
                        pv_declared(c));
        }
        return 0;
    }
    return 0;
}

static int check_object(vctx_t *c, const profile_field_t *fields, json_t *v,
                        const path_t *at)
{
    const char *key;
    const profile_field_t *f;
    json_t *member;
    int rv = 0;

    if (!json_is_object(v)) {
        return pv_fail(c, at, "expected an object, found %s", type_name(v));
    }
    json_object_foreach(v, key, member) {
        path_t here = {.up = at, .key = key};
        for (f = fields; f->name && strcmp(f->name, key) != 0; f++) {
        }
        if (f->name == NULL) {
            rv = pv_fail(c, &here, "unknown key %s", pv_quoted(c, key));
        }
        else if (check_value(c, f, member, &here)) {
            rv = -1;
        }
    }
    for (f = fields; f->name; f++) {
        path_t here = {.up = at, .key = f->name};
        if (f->kind != PROFILE_K_LANGS && f->kind != PROFILE_K_SCHEMA
            && f->kind != PROFILE_K_FALLBACK && f->kind != PROFILE_K_DATE
            && json_object_get(v, f->name) == NULL
            && !pv_written_from_dates(c, fields, v, f, &here, &rv)) {
            rv = pv_fail(c, &here, "missing required field \"%s\"", f->name);
        }
    }
    if (rv == 0 && pv_check_dates(c, v, at) != 0) {
        rv = -1;
    }
    return rv;
}

apr_size_t profile_validate(json_t *root, const char ***langs, int *nlangs,
                            profile_problems_t *problems, apr_pool_t *p)
{
    vctx_t c = {.p = p, .problems = problems};
    apr_size_t before = problems->total;

    if (!json_is_object(root)) {
        pv_fail(&c, NULL, "expected an object, found %s", type_name(root));
        return 1;
    }
    /* The languages first: a text value is judged by them. */
    c.lang_problems = profile_problems_make(p, problems->keep);
    c.problems = c.lang_problems;
    c.langs_ok = pv_check_languages(&c, root) == 0;
    c.problems = problems;
    c.fallback = pv_find_fallback(&c, root);
    check_object(&c, profile_schema_top, root, NULL);
    if (problems->total > before) {
        return problems->total - before;
    }
    *langs = c.langs;
    *nlangs = c.nlangs;
    return 0;
}
