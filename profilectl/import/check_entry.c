/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/check_entry.c -- the check of each entry every import reads
 * (its members are members.c's): members under the names people give
 * them moved to JSON Resume's, values read as people write them
 * (check_values.c), the types and dates (check_dates.c) checked (every
 * problem of every file), links made absolute (links.c), and what is not
 * imported counted (report.c: the summary line).
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_text.h"
#include "import/stages.h"

/* A URL as a link needs it (pc_jr_link): "example.com/x" (no scheme)
 * becomes "https://example.com/x", "//host/x" "https://host/x".  A
 * relative one ("./cv.pdf", "/about") means nothing outside its site,
 * and one of another scheme ("javascript:", "ftp:") or malformed is no
 * link a page may render: neither is imported (CONTRACT §9). */
static void check_url(jr_import_t *im, json_t *e, const char *path)
{
    profile_url_e why;
    const char *u = pc_jr_link(json_string_value(json_object_get(e, "url")),
                               0, &why, im->c.p);

    if (u != NULL) {
        json_object_set_new(e, "url", json_string(u));
        return;
    }
    pc_jr_drop(im, apr_pstrcat(im->c.p, path, ".url (",
                               pc_jr_link_dropped(why), ")", NULL), 1);
    json_object_del(e, "url");
}

/* Members of e under another name (StartDate, category, names): moved
 * to the name JSON Resume gives them, when that one is not there too
 * (then they are counted as not imported), each noted. */
static void rename_members(jr_import_t *im, int l, json_t *e,
                           const jr_key_t *keys, const char *at)
{
    apr_array_header_t *moves = apr_array_make(im->c.p, 2,
                                               sizeof(const char *));
    const char *k, *to;
    json_t *v;
    int i;

    json_object_foreach(e, k, v) {
        if (pc_jr_find_key(keys, k) == NULL
            && (to = pc_jr_member_meant(keys, k)) != NULL
            && !pc_jr_has_content(json_object_get(e, to))) {
            APR_ARRAY_PUSH(moves, const char *) = k;
            APR_ARRAY_PUSH(moves, const char *) = to;
        }
    }
    for (i = 0; i < moves->nelts; i += 2) {
        k = APR_ARRAY_IDX(moves, i, const char *);
        to = APR_ARRAY_IDX(moves, i + 1, const char *);
        if (pc_jr_has_content(json_object_get(e, to))) {
            continue;           /* two names for one member: the first */
        }
        pc_jr_assume(im, l, "%s.%s: read as \"%s\"", at, k, to);
        json_object_set(e, to, json_object_get(e, k));
        json_object_del(e, k);
    }
}

/* Whether entry e has content, none of it in a member the import reads
 * (education as "what", "where", "when"): it would be an empty record. */
static int nothing_read(json_t *e, const jr_key_t *keys)
{
    const jr_key_t *key;
    const char *k;
    json_t *v;
    int some = 0;

    json_object_foreach(e, k, v) {
        if (!pc_jr_has_content(v)) {
            continue;
        }
        key = pc_jr_find_key(keys, k);
        if (key != NULL && key->mapped) {
            return 0;
        }
        some = 1;
    }
    return some;
}

/* "what, where, when": the first members of e, for a message. */
static const char *members_of(json_t *e, apr_pool_t *p)
{
    const char *k, *out = "";
    json_t *v;
    int n = 0;

    json_object_foreach(e, k, v) {
        if (n++ == 5) {
            return apr_pstrcat(p, out, ", ...", NULL);
        }
        out = apr_pstrcat(p, out, *out ? ", " : "", k, NULL);
    }
    return out;
}

/* Checks the members of one entry (`at`: "$.work[2]") that the import
 * reads, moves older names to the current ones, rewrites dates, and
 * counts those it does not import (`path`: "work[]").  Returns -1 after
 * setting every problem. */
int pc_jr_check_entry(jr_import_t *im, int l, json_t *e,
                      const jr_key_t *keys, const char *at,
                      const char *path)
{
    apr_pool_t *p = im->c.p;
    const char *k;
    json_t *v, *nv;
    const jr_key_t *key;
    size_t i;
    int bad = 0;
    apr_array_header_t *read = apr_array_make(p, 8,
                                              sizeof(const jr_key_t *));
    apr_array_header_t *aliases = apr_array_make(p, 2,
                                                 sizeof(const jr_key_t *));

    if (!json_is_object(e)) {
        return pc_jr_fail(&im->c, "%s: %s: not an object", im->files[l], at);
    }
    rename_members(im, l, e, keys, at);
    /* Old files describe a role in "summary" only, and people a
     * project: it is the description when there is none. */
    if (pc_jr_find_key(keys, "description")
        && !pc_jr_has_content(json_object_get(e, "description"))
        && pc_jr_has_content(json_object_get(e, "summary"))) {
        json_object_set(e, "description", json_object_get(e, "summary"));
        json_object_del(e, "summary");
    }
    json_object_foreach(e, k, v) {
        key = pc_jr_find_key(keys, k);
        if (key == NULL) {
            if (pc_jr_has_content(v)) {
                pc_jr_drop(im, apr_pstrcat(p, path, ".", k, NULL), 1);
            }
            continue;
        }
        if (json_is_null(v)) {
            continue;
        }
        APR_ARRAY_PUSH(read, const jr_key_t *) = key;
    }
    /* Values are changed (and members removed) after the walk. */
    for (i = 0; i < (size_t)read->nelts; i++) {
        key = APR_ARRAY_IDX(read, i, const jr_key_t *);
        k = key->key;
        if (key->alias_of) {
            APR_ARRAY_PUSH(aliases, const jr_key_t *) = key;
        }
        if (key->type == 'l' || key->type == 's') {
            if (pc_jr_coerce(im, l, e, k, key->type, at, path) < 0) {
                bad = 1;
            }
        }
        else if (key->type == 'd') {
            v = json_object_get(e, k);
            nv = pc_jr_check_date(im, l, v, at, path, k, &bad);
            if (nv == NULL) {
                json_object_del(e, k);
            }
            else if (nv != v) {
                json_object_set_new(e, k, nv);
            }
        }
        else if (!key->mapped && !key->alias_of
                 && pc_jr_has_content(json_object_get(e, k))) {
            pc_jr_drop(im, apr_pstrcat(p, path, ".", k, NULL), 1);
        }
    }
    /* Older names: moved to the current one, unless that is there too
     * (then the older one is not imported). */
    for (i = 0; i < (size_t)aliases->nelts; i++) {
        key = APR_ARRAY_IDX(aliases, i, const jr_key_t *);
        v = json_object_get(e, key->key);
        nv = json_object_get(e, key->alias_of);
        if (pc_jr_has_content(v)
            && (!pc_jr_find_key(keys, key->alias_of)->mapped
                || (pc_jr_has_content(nv) && !json_equal(nv, v)))) {
            pc_jr_drop(im, apr_pstrcat(p, path, ".", key->key, NULL), 1);
        }
        if (!pc_jr_has_content(nv)) {
            json_object_set(e, key->alias_of, v);
        }
        json_object_del(e, key->key);
    }
    v = json_object_get(e, "url");
    key = pc_jr_find_key(keys, "url");
    if (key && key->mapped && json_is_string(v) && pc_jr_has_content(v)) {
        check_url(im, e, path);
    }
    if (!bad && strncmp(path, "basics", 6) != 0 && nothing_read(e, keys)) {
        bad = 1;
        pc_jr_fail(&im->c, "%s: %s: none of its members is one JSON Resume "
                   "has (%s): nothing of it would be imported; rename them "
                   "(docs/jsonresume.md lists the names read)",
                   im->files[l], at, members_of(e, p));
    }
    return bad ? -1 : 0;
}

int pc_jr_check_array(jr_import_t *im, int l, json_t *parent,
                      const jr_array_t *a)
{
    json_t *arr = json_object_get(parent, a->key), *e;
    size_t i;
    int bad = 0;

    if (arr == NULL || json_is_null(arr)) {
        return 0;
    }
    if (json_is_string(arr) || json_is_number(arr)) {
        /* "work": "No experience yet, but ...": a sentence where the
         * entries go; nothing to make entries of, counted. */
        if (pc_jr_has_content(arr)) {
            pc_jr_assume(im, l, "$.%s: a text, not a list of entries: not "
                         "imported", a->path);
            pc_jr_drop(im, apr_pstrcat(im->c.p, a->path, " (a text)", NULL),
                       1);
        }
        json_object_del(parent, a->key);
        return 0;
    }
    if (!json_is_array(arr)) {
        return pc_jr_fail(&im->c, "%s: $.%s: not an array", im->files[l],
                          a->path);
    }
    json_array_foreach(arr, i, e) {
        if (json_is_string(e) && strcmp(a->path, "skills") == 0) {
            /* "skills": ["Docker, Kubernetes", ...]: each a skill. */
            pc_jr_assume(im, l, "$.skills[" SZ "]: a text, read as a "
                         "skill's name", i);
            e = json_pack("{sO}", "name", e);
            json_array_set_new(arr, i, e);
        }
        if (pc_jr_check_entry(im, l, e, a->keys,
                              apr_psprintf(im->c.p, "$.%s[" SZ "]", a->path,
                                           i),
                              apr_pstrcat(im->c.p, a->path, "[]", NULL))
            < 0) {
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}
