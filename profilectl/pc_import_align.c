/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_align.c -- how import-jsonresume lines up the entries of an
 * array across languages (the same entries in the same order, with the
 * same language-neutral values) and makes one data file entry of each.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>
#include <jansson.h>

#include "pc_jr.h"

/* " (Pied Piper, 2013-12)": how messages name an entry. */
static const char *entry_label(json_t *e, const jr_array_t *a,
                               apr_pool_t *p)
{
    const char *name = pc_jr_str(e, a->name);
    const char *date = pc_jr_str(e, "startDate");

    if (!*name && !*date) {
        return "";
    }
    return apr_psprintf(p, " (%s%s%.7s)", name, *name && *date ? ", " : "",
                        date);
}

static int same_ident(json_t *x, json_t *y, const jr_array_t *a)
{
    int i;

    for (i = 0; a->ident[i]; i++) {
        if (strcmp(pc_jr_str(x, a->ident[i]),
                   pc_jr_str(y, a->ident[i])) != 0) {
            return 0;
        }
    }
    return 1;
}

static int has_ident(json_t *e, const jr_array_t *a)
{
    int i;

    for (i = 0; a->ident[i]; i++) {
        if (*pc_jr_str(e, a->ident[i])) {
            return 1;
        }
    }
    return 0;
}

static int find_ident(json_t *arr, json_t *e, const jr_array_t *a)
{
    size_t i;
    json_t *x;

    if (!has_ident(e, a)) {
        return 0;
    }
    json_array_foreach(arr, i, x) {
        if (same_ident(x, e, a)) {
            return 1;
        }
    }
    return 0;
}

static const char *only_in(jr_import_t *im, int in, int not_in)
{
    if (im->n == 2) {
        return apr_psprintf(im->c.p, "present in %s only", im->langs[in]);
    }
    return apr_psprintf(im->c.p, "present in %s but not in %s",
                        im->langs[in], im->langs[not_in]);
}

/* Checks that the arrays of every language hold the same entries, in the
 * same order, with the same language-neutral values; names the first
 * entry that does not line up. */
static int align(jr_import_t *im, json_t **arrs, const jr_array_t *a)
{
    apr_pool_t *p = im->c.p;
    json_t *x, *y;
    size_t i, nx, ny;
    int l, k;

    nx = json_array_size(arrs[0]);
    for (l = 1; l < im->n; l++) {
        ny = json_array_size(arrs[l]);
        for (i = 0; i < nx || i < ny; i++) {
            x = json_array_get(arrs[0], i);
            y = json_array_get(arrs[l], i);
            if (x && y && same_ident(x, y, a)) {
                continue;
            }
            if (x && (!y || (has_ident(x, a)
                             && !find_ident(arrs[l], x, a)))) {
                return pc_jr_fail(&im->c, "%s[" SZ "]%s: %s", a->path, i,
                                  entry_label(x, a, p), only_in(im, 0, l));
            }
            if (y && (!x || (has_ident(y, a)
                             && !find_ident(arrs[0], y, a)))) {
                return pc_jr_fail(&im->c, "%s[" SZ "]%s: %s", a->path, i,
                                  entry_label(y, a, p), only_in(im, l, 0));
            }
            return pc_jr_fail(&im->c, "%s[" SZ "]: the entries are in a "
                              "different order:%s in %s,%s in %s", a->path, i,
                              entry_label(x, a, p), im->langs[0],
                              entry_label(y, a, p), im->langs[l]);
        }
        for (i = 0; i < nx; i++) {
            x = json_array_get(arrs[0], i);
            y = json_array_get(arrs[l], i);
            for (k = 0; a->neutral[k]; k++) {
                const char *vx = pc_jr_str(x, a->neutral[k]);
                const char *vy = pc_jr_str(y, a->neutral[k]);

                if (strcmp(vx, vy) != 0) {
                    return pc_jr_fail(&im->c, "%s[" SZ "]%s: %s differs: "
                                      "\"%s\" in %s, \"%s\" in %s (it must "
                                      "be the same in every language)",
                                      a->path, i, entry_label(x, a, p),
                                      a->neutral[k], vx, im->langs[0], vy,
                                      im->langs[l]);
                }
            }
        }
    }
    return 0;
}

/* Lines up the arrays a->key of parents (one per language) and appends
 * to array `to` of out (made when absent) one entry per position, filled
 * by fill; with id_fallback, each gets an id first (pc_jr_make_id). */
int pc_jr_import_array(jr_import_t *im, json_t **parents,
                       const jr_array_t *a, json_t *out, const char *to,
                       const char *id_fallback, jr_fill_fn fill)
{
    json_t *all = json_object_get(out, to), *e;
    json_t *arrs[JR_MAX_LANGS], *entries[JR_MAX_LANGS];
    apr_hash_t *ids = apr_hash_make(im->c.p);
    size_t i;
    int l;

    if (all == NULL) {
        all = json_array();
        json_object_set_new(out, to, all);
    }
    for (l = 0; l < im->n; l++) {
        arrs[l] = json_object_get(parents[l], a->key);
        if (!json_is_array(arrs[l])) {
            arrs[l] = NULL;     /* json_array_size(NULL) == 0 */
        }
    }
    if (align(im, arrs, a) < 0) {
        return -1;
    }
    for (i = 0; i < json_array_size(arrs[0]); i++) {
        for (l = 0; l < im->n; l++) {
            entries[l] = json_array_get(arrs[l], i);
        }
        e = json_object();
        json_array_append_new(all, e);
        if (id_fallback) {
            json_object_set_new(e, "id", json_string(
                pc_jr_make_id(ids, pc_jr_str(entries[0], "name"),
                              pc_jr_str(entries[0], "startDate"), id_fallback,
                              im->c.p)));
        }
        if (fill(im, entries, apr_psprintf(im->c.p, "%s[" SZ "]%s", a->path,
                                           i, entry_label(entries[0], a,
                                                          im->c.p)),
                 e) < 0) {
            return -1;
        }
    }
    return 0;
}
