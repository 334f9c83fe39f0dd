/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_validate_parts.c -- the validator's shared parts
 * (profile_validate_int.h): JSON paths and problems, the "languages"
 * declaration and the fallback, and a record's dates (CONTRACT §9).
 *
 * Pure core: no httpd headers.
 */
#include <stdarg.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <apr_tables.h>

#include "profile_dates.h"
#include "profile_lang.h"
#include "profile_text.h"
#include "profile_validate_int.h"

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
/* A problem that is kept (pv_fail()): its text and path. */
int pv_fail_kept(vctx_t *c, const path_t *at, const char *fmt, ...)
{
    profile_data_problem_t *pr = profile_problems_add(c->problems);
    va_list ap;

    if (pr == NULL) {
        return -1;
    }
    va_start(ap, fmt);
    pr->text = apr_pvsprintf(c->p, fmt, ap);
    va_end(ap);
    pr->line = pr->column = 0;
    pr->path = path_str(at, c->p);
    return -1;
}
/* A problem past the first `keep` (pv_fail()): counted only. */
int pv_fail_counted(vctx_t *c)
{
    profile_problems_add(c->problems);
    return -1;
}
const char *pv_quoted(vctx_t *c, const char *s)
{
    return apr_psprintf(c->p, "\"%s\"",
                        profile_text_printable(s, strlen(s), 64, c->p));
}
int pv_lang_index(vctx_t *c, const char *tag)
{
    int i;

    for (i = 0; i < c->nlangs; i++) {
        if (strcmp(c->langs[i], tag) == 0) {
            return i;
        }
    }
    return -1;
}
/* The declared languages, for messages: "en,es". */
const char *pv_declared(vctx_t *c)
{
    apr_array_header_t a = {.pool = c->p, .elt_size = sizeof(char *),
                            .nelts = c->nlangs, .nalloc = c->nlangs,
                            .elts = (char *)c->langs};

    return apr_array_pstrcat(c->p, &a, ',');
}
/* A record's dates (CONTRACT §9): an end needs a start, and is not
 * before it. */
int pv_check_dates(vctx_t *c, json_t *v, const path_t *at)
{
    const char *start = json_string_value(json_object_get(v, "start"));
    const char *end = json_string_value(json_object_get(v, "end"));
    path_t here = {.up = at, .key = "end"};

    if (end == NULL) {
        return 0;
    }
    if (start == NULL) {
        return pv_fail(c, &here, "an end without a start (give \"start\" "
                    "too, or neither)");
    }
    if (profile_date_cmp(end, start) < 0) {
        return pv_fail(c, &here, "the end %s is before the start %s",
                    pv_quoted(c, end), pv_quoted(c, start));
    }
    return 0;
}
/* Whether missing field f (a period) of record v is written from its
 * start (CONTRACT §9): in every language the module has date words for;
 * a language without them needs the period given, unless the fallback,
 * which has them, stands in for it.  Else a problem is said (*rv). */
int pv_written_from_dates(vctx_t *c, const profile_field_t *fields,
                              json_t *v, const profile_field_t *f,
                              const path_t *at, int *rv)
{
    int i;

    if (strcmp(f->name, "period") != 0
        || profile_schema_field(fields, "start") == NULL
        || json_object_get(v, "start") == NULL) {
        return 0;
    }
    for (i = 0; c->langs_ok && i < c->nlangs; i++) {
        if (profile_date_words(c->langs[i]) == NULL
            && (c->fallback < 0
                || profile_date_words(c->langs[c->fallback]) == NULL)) {
            *rv = pv_fail(c, at, "missing \"period\" in %s: the module writes "
                       "periods from start and end in en, es, de, fr and "
                       "pt; give \"period\" (or a fallback language)",
                       pv_quoted(c, c->langs[i]));
        }
    }
    return 1;                   /* written, or said why not */
}
int pv_check_languages(vctx_t *c, json_t *root)
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
        return pv_fail(c, &at, "expected an array of 1 to %d language tags",
                    PROFILE_LANG_MAX);
    }
    c->nlangs = (int)json_array_size(v);
    c->langs = apr_pcalloc(c->p, sizeof(char *) * (size_t)c->nlangs);
    json_array_foreach(v, i, el) {
        path_t here = {.up = &at, .key = NULL, .index = i};
        const char *tag = json_string_value(el);
        size_t n, k;

        if (tag == NULL) {
            return pv_fail(c, &here, "expected a language tag, found %s",
                        type_name(el));
        }
        n = strlen(tag);
        for (k = 0; k < n && apr_isalpha(tag[k]) && !(tag[k] & 0x80); k++) {
        }
        if (n < 2 || n > 8 || k != n) {
            return pv_fail(c, &here, "bad language tag %s: tags are 2 to 8 "
                        "ASCII letters", pv_quoted(c, tag));
        }
        for (k = 0; k < i; k++) {
            if (apr_cstr_casecmp(c->langs[k], tag) == 0) {
                return pv_fail(c, &here, "language %s is declared twice",
                            pv_quoted(c, tag));
            }
        }
        c->langs[i] = apr_pstrdup(c->p, tag);
    }
    return 0;
}
/* The fallback's index (vctx_t.fallback), before any text is judged by
 * it; its problems are said where it stands (check_value). */
int pv_find_fallback(vctx_t *c, json_t *root)
{
    json_t *v = json_object_get(root, "fallback");
    int i;

    if (v == NULL) {
        return -1;
    }
    i = json_is_string(v) && c->langs_ok
        ? pv_lang_index(c, json_string_value(v)) : -1;
    return i >= 0 ? i : -2;
}
