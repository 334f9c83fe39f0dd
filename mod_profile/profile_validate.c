/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_validate.c -- the data file's validation (CONTRACT §9): the
 * languages it declares, every value against the schema tables of
 * profile_schema.c (kinds, required and unknown keys, translations, id
 * and kind patterns, no nulls), and unique ids per collection.  The
 * first problem found is the message, with its JSON path.  A rule is
 * changed here; which fields exist is changed in profile_schema.c.
 *
 * Pure core: no httpd headers.
 */
#include <stdarg.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "profile_lang.h"
#include "profile_schema.h"
#include "profile_text.h"
#include "profile_validate.h"

/* A JSON path, built on the stack as validation descends. */
typedef struct path {
    const struct path *up;
    const char *key;            /* member name, or NULL for an index */
    size_t index;
} path_t;

typedef struct {
    apr_pool_t *p;
    const char *name;           /* the file, for messages */
    int nlangs;
    const char **langs;
    const char *err;
} vctx_t;

static const char *path_str(const path_t *at, apr_pool_t *p)
{
    const char *up;

    if (at == NULL) {
        return "$";
    }
    up = path_str(at->up, p);
    if (at->key == NULL) {
        return apr_psprintf(p, "%s[%" APR_SIZE_T_FMT "]", up, at->index);
    }
    return apr_pstrcat(p, up, ".", profile_text_printable(at->key,
                                                          strlen(at->key),
                                                          64, p), NULL);
}

static int fail(vctx_t *c, const path_t *at, const char *fmt, ...)
{
    va_list ap;
    const char *msg;

    va_start(ap, fmt);
    msg = apr_pvsprintf(c->p, fmt, ap);
    va_end(ap);
    c->err = apr_psprintf(c->p, "%s: %s: %s", c->name, path_str(at, c->p),
                          msg);
    return -1;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

static const char *quoted(vctx_t *c, const char *s)
{
    return apr_psprintf(c->p, "\"%s\"",
                        profile_text_printable(s, strlen(s), 64, c->p));
}

static int matches_pattern(const char *s, int kind_pattern)
{
    const char *q;

    if (kind_pattern ? !apr_islower(*s) : !apr_isalnum(*s)) {
        return 0;
    }
    for (q = s + 1; *q; q++) {
        if (kind_pattern) {
            if (!apr_islower(*q) && !apr_isdigit(*q) && *q != '-') {
                return 0;
            }
        }
        else if (!apr_isalnum(*q) && !strchr("._~-", *q)) {
            return 0;
        }
    }
    return 1;
}

static int lang_index(vctx_t *c, const char *tag)
{
    int i;

    for (i = 0; i < c->nlangs; i++) {
        if (strcmp(c->langs[i], tag) == 0) {
            return i;
        }
    }
    return -1;
}

static int check_object(vctx_t *c, const profile_field_t *fields, json_t *v,
                        const path_t *at);

static int check_text(vctx_t *c, json_t *v, const path_t *at)
{
    const char *key;
    json_t *tr;
    int i;

    if (json_is_string(v)) {
        return 0;
    }
    if (!json_is_object(v)) {
        return fail(c, at, "expected a text value (a string, or an object "
                    "with one string per language), found %s",
                    type_name(v));
    }
    json_object_foreach(v, key, tr) {
        path_t here = {.up = at, .key = key};
        if (lang_index(c, key) < 0) {
            return fail(c, at, "unknown language %s (the file declares %s)",
                        quoted(c, key),
                        apr_array_pstrcat(c->p, &(apr_array_header_t){
                            .pool = c->p, .elt_size = sizeof(char *),
                            .nelts = c->nlangs, .nalloc = c->nlangs,
                            .elts = (char *)c->langs}, ','));
        }
        if (!json_is_string(tr)) {
            return fail(c, &here, "expected a string, found %s",
                        type_name(tr));
        }
    }
    for (i = 0; i < c->nlangs; i++) {
        if (json_object_get(v, c->langs[i]) == NULL) {
            return fail(c, at, "missing translation \"%s\"", c->langs[i]);
        }
    }
    return 0;
}

static int check_value(vctx_t *c, const profile_field_t *f, json_t *v,
                       const path_t *at)
{
    size_t i;
    json_t *el;

    if (json_is_null(v)) {
        static const char *const expected[] = {
            "a text value", "an array of text values", "an id",
            "a kind", "a string", "an object", "an array of objects",
            "an array of language tags", "a string (the schema's URL)"
        };
        return fail(c, at, "null is not allowed (expected %s)",
                    expected[f->kind]);
    }
    switch (f->kind) {
    case PROFILE_K_TEXT:
        return check_text(c, v, at);
    case PROFILE_K_SCHEMA:
        if (!json_is_string(v)) {
            return fail(c, at, "expected a string (the schema's URL), found "
                        "%s", type_name(v));
        }
        return 0;
    case PROFILE_K_ID:
    case PROFILE_K_KIND:
    case PROFILE_K_PLAIN:
        if (!json_is_string(v)) {
            return fail(c, at, "expected a plain string (%s is the same in "
                        "every language), found %s", f->name, type_name(v));
        }
        if (f->kind == PROFILE_K_ID
            && !matches_pattern(json_string_value(v), 0)) {
            return fail(c, at, "bad id %s: ids match "
                        "[A-Za-z0-9][A-Za-z0-9._~-]*",
                        quoted(c, json_string_value(v)));
        }
        if (f->kind == PROFILE_K_KIND
            && !matches_pattern(json_string_value(v), 1)) {
            return fail(c, at, "bad kind %s: kinds match [a-z][a-z0-9-]*",
                        quoted(c, json_string_value(v)));
        }
        return 0;
    case PROFILE_K_OBJECT:
        return check_object(c, f->sub, v, at);
    case PROFILE_K_TEXTLIST:
    case PROFILE_K_OBJLIST:
        if (!json_is_array(v)) {
            return fail(c, at, "expected an array, found %s", type_name(v));
        }
        json_array_foreach(v, i, el) {
            path_t here = {.up = at, .key = NULL, .index = i};
            if (json_is_null(el)) {
                return fail(c, &here, "null is not allowed (expected %s)",
                            f->kind == PROFILE_K_TEXTLIST ? "a text value"
                                                  : "an object");
            }
            if (f->kind == PROFILE_K_TEXTLIST ? check_text(c, el, &here)
                                      : check_object(c, f->sub, el, &here)) {
                return -1;
            }
        }
        return 0;
    case PROFILE_K_LANGS:
        return 0;               /* checked first, by check_languages() */
    }
    return 0;
}

static int check_object(vctx_t *c, const profile_field_t *fields, json_t *v,
                        const path_t *at)
{
    const char *key;
    const profile_field_t *f;
    json_t *member;

    if (!json_is_object(v)) {
        return fail(c, at, "expected an object, found %s", type_name(v));
    }
    json_object_foreach(v, key, member) {
        path_t here = {.up = at, .key = key};
        for (f = fields; f->name && strcmp(f->name, key) != 0; f++) {
        }
        if (f->name == NULL) {
            return fail(c, &here, "unknown key %s", quoted(c, key));
        }
        if (check_value(c, f, member, &here)) {
            return -1;
        }
    }
    for (f = fields; f->name; f++) {
        path_t here = {.up = at, .key = f->name};
        if (f->kind != PROFILE_K_LANGS && f->kind != PROFILE_K_SCHEMA
            && json_object_get(v, f->name) == NULL) {
            return fail(c, &here, "missing required field \"%s\"", f->name);
        }
    }
    return 0;
}

static int check_languages(vctx_t *c, json_t *root)
{
    static const char *const defaults[] = {"en", "es"};
    json_t *v = json_object_get(root, "languages");
    path_t at = {.up = NULL, .key = "languages"};
    size_t i;
    json_t *el;

    if (v == NULL) {
        c->nlangs = 2;
        c->langs = apr_pmemdup(c->p, defaults, sizeof(defaults));
        c->langs[0] = apr_pstrdup(c->p, defaults[0]);
        c->langs[1] = apr_pstrdup(c->p, defaults[1]);
        return 0;
    }
    if (!json_is_array(v) || json_array_size(v) == 0
        || json_array_size(v) > PROFILE_LANG_MAX) {
        return fail(c, &at, "expected an array of 1 to %d language tags",
                    PROFILE_LANG_MAX);
    }
    c->nlangs = (int)json_array_size(v);
    c->langs = apr_pcalloc(c->p, sizeof(char *) * (size_t)c->nlangs);
    json_array_foreach(v, i, el) {
        path_t here = {.up = &at, .key = NULL, .index = i};
        const char *tag = json_string_value(el);
        size_t n, k;

        if (tag == NULL) {
            return fail(c, &here, "expected a language tag, found %s",
                        type_name(el));
        }
        n = strlen(tag);
        for (k = 0; k < n && apr_isalpha(tag[k]) && !(tag[k] & 0x80); k++) {
        }
        if (n < 2 || n > 8 || k != n) {
            return fail(c, &here, "bad language tag %s: tags are 2 to 8 "
                        "ASCII letters", quoted(c, tag));
        }
        for (k = 0; k < i; k++) {
            if (apr_cstr_casecmp(c->langs[k], tag) == 0) {
                return fail(c, &here, "language %s is declared twice",
                            quoted(c, tag));
            }
        }
        c->langs[i] = apr_pstrdup(c->p, tag);
    }
    return 0;
}

/* Ids are unique within their collection. */
static int check_unique_ids(vctx_t *c, json_t *root)
{
    int k;

    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        apr_hash_t *seen = apr_hash_make(c->p);
        json_t *list = json_object_get(root, profile_schema_colls[k].key);
        path_t coll = {.up = NULL, .key = profile_schema_colls[k].key};
        size_t i;
        json_t *el;

        json_array_foreach(list, i, el) {
            const char *id = json_string_value(json_object_get(el, "id"));
            path_t item = {.up = &coll, .key = NULL, .index = i};
            path_t at = {.up = &item, .key = "id"};
            const size_t *first;

            if (id == NULL) {
                break;
            }
            first = apr_hash_get(seen, id, APR_HASH_KEY_STRING);
            if (first != NULL) {
                return fail(c, &at, "duplicate id %s (also at $.%s[%"
                            APR_SIZE_T_FMT "])", quoted(c, id),
                            profile_schema_colls[k].key, *first);
            }
            apr_hash_set(seen, id, APR_HASH_KEY_STRING,
                         apr_pmemdup(c->p, &i, sizeof(i)));
        }
    }
    return 0;
}

int profile_validate(json_t *root, const char *name, const char ***langs,
                     int *nlangs, const char **err, apr_pool_t *p)
{
    vctx_t c = {.p = p, .name = name};

    if (!json_is_object(root)) {
        fail(&c, NULL, "expected an object, found %s", type_name(root));
        *err = c.err;
        return -1;
    }
    if (check_languages(&c, root)
        || check_object(&c, profile_schema_top, root, NULL)
        || check_unique_ids(&c, root)) {
        *err = c.err;
        return -1;
    }
    *langs = c.langs;
    *nlangs = c.nlangs;
    return 0;
}
