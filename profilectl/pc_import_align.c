/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_align.c -- how import-jsonresume lines up the entries of an
 * array across languages and makes one data file entry of each.  Entries
 * pair by position, and where they have dates (work, education,
 * projects), by dates too: a translated name is the same entry
 * ("University of Valparaíso" / "Universidad de Valparaíso").  Entries
 * that do not line up are named on both sides, every one of them.
 *
 * When the counts differ, pairing by dates takes a table of n0 x n1
 * (the longest common sequence): at most JR_MAX_PAIRED entries per
 * language, more is a problem said so.  Pairing by position alone is
 * linear.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>
#include <jansson.h>

#include "pc_jr.h"

/* "2019-04 – 2020-01", "2019-04 – present", "" */
static const char *dates_of(json_t *e, apr_pool_t *p)
{
    const char *s = pc_jr_str(e, "startDate"), *t = pc_jr_str(e, "endDate");

    if (!*s && !*t) {
        return "";
    }
    if (strcmp(s, t) == 0) {
        return s;
    }
    return apr_pstrcat(p, s, " \xe2\x80\x93 ", *t ? t : "present", NULL);
}

/* " (Pied Piper, 2013-12 – 2014-12)": how messages name an entry. */
const char *pc_jr_entry_label(json_t *e, const jr_array_t *a,
                              apr_pool_t *p)
{
    const char *name = pc_jr_str(e, a->name);
    const char *dates = dates_of(e, p);

    if (!*name && !*dates) {
        return "";
    }
    return apr_psprintf(p, " (%s%s%s)", name, *name && *dates ? ", " : "",
                        dates);
}

/* Dates agree when equal, or when one is the other at a finer precision
 * (2019-04 and 2019-04-01). */
static int same_date(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);

    if (nx == ny) {
        return strcmp(x, y) == 0;
    }
    if (nx > ny) {
        const char *t = x;

        x = y;
        y = t;
        nx = ny;
    }
    return nx > 0 && strncmp(x, y, nx) == 0 && y[nx] == '-';
}

static int same_dates(json_t *x, json_t *y)
{
    return same_date(pc_jr_str(x, "startDate"), pc_jr_str(y, "startDate"))
           && same_date(pc_jr_str(x, "endDate"), pc_jr_str(y, "endDate"));
}

static void copy_dates(json_t *to, json_t *from)
{
    if (*pc_jr_str(from, "startDate")) {
        json_object_set(to, "startDate", json_object_get(from, "startDate"));
    }
    if (*pc_jr_str(from, "endDate")) {
        json_object_set(to, "endDate", json_object_get(from, "endDate"));
    }
}

/* Marks in u0 and u1 the entries of x and y (n0 and n1 of them) that the
 * longest common sequence of agreeing dates leaves without a partner
 * (n0 and n1 at most JR_MAX_PAIRED); by position, those past the
 * shorter array's end. */
static void unpaired(json_t *x, json_t *y, size_t n0, size_t n1,
                     char *u0, char *u1, const jr_array_t *a, apr_pool_t *p)
{
    size_t i, j, w = n1 + 1;
    unsigned *t;

    if (!a->by_dates) {
        for (i = 0; i < n0; i++) {
            u0[i] = i >= n1;
        }
        for (j = 0; j < n1; j++) {
            u1[j] = j >= n0;
        }
        return;
    }
    t = apr_pcalloc(p, (n0 + 1) * w * sizeof(*t));
    for (i = n0; i-- > 0;) {
        for (j = n1; j-- > 0;) {
            if (same_dates(json_array_get(x, i), json_array_get(y, j))) {
                t[i * w + j] = t[(i + 1) * w + j + 1] + 1;
            }
            else {
                t[i * w + j] = t[(i + 1) * w + j] > t[i * w + j + 1]
                               ? t[(i + 1) * w + j] : t[i * w + j + 1];
            }
        }
    }
    memset(u0, 1, n0);
    memset(u1, 1, n1);
    for (i = j = 0; i < n0 && j < n1;) {
        if (same_dates(json_array_get(x, i), json_array_get(y, j))
            && t[i * w + j] == t[(i + 1) * w + j + 1] + 1) {
            u0[i++] = 0;
            u1[j++] = 0;
        }
        else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) {
            i++;
        }
        else {
            j++;
        }
    }
}

/* Checks that the arrays of every language line up with the first's;
 * sets a problem for every entry that does not. */
static int align(jr_import_t *im, json_t **arrs, const jr_array_t *a)
{
    apr_pool_t *p = im->c.p;
    json_t *x, *y;
    size_t i, n0 = json_array_size(arrs[0]), nl;
    char *u0, *ul;
    int l, bad = 0;

    for (l = 1; l < im->n; l++) {
        nl = json_array_size(arrs[l]);
        if (n0 == nl) {
            for (i = 0; a->by_dates && i < n0; i++) {
                x = json_array_get(arrs[0], i);
                y = json_array_get(arrs[l], i);
                if (!*dates_of(x, p) || !*dates_of(y, p)) {
                    /* Dates are not a translation: one language giving
                     * them is enough. */
                    copy_dates(*dates_of(x, p) ? y : x, *dates_of(x, p) ? x
                                                                         : y);
                }
                else if (!same_dates(x, y)) {
                    bad = pc_jr_fail(&im->c, "%s: $.%s[" SZ "]%s and %s: "
                                     "$.%s[" SZ "]%s: the dates differ "
                                     "(entries pair by position and dates)",
                                     im->files[0], a->path, i,
                                     pc_jr_entry_label(x, a, p),
                                     im->files[l], a->path, i,
                                     pc_jr_entry_label(y, a, p));
                }
            }
            continue;
        }
        if (a->by_dates && (n0 > JR_MAX_PAIRED || nl > JR_MAX_PAIRED)) {
            bad = pc_jr_fail(&im->c, "%s and %s: $.%s: " SZ " entries in "
                             "%s, " SZ " in %s: too many to pair by dates "
                             "(at most %d per language when the counts "
                             "differ; with equal counts they pair by "
                             "position)", im->files[0], im->files[l],
                             a->path, n0, im->langs[0], nl, im->langs[l],
                             JR_MAX_PAIRED);
            continue;
        }
        u0 = apr_palloc(p, n0 + 1);
        ul = apr_palloc(p, nl + 1);
        unpaired(arrs[0], arrs[l], n0, nl, u0, ul, a, p);
        for (i = 0; i < n0; i++) {
            if (u0[i]) {
                bad = pc_jr_fail(&im->c, "%s: $.%s[" SZ "]%s: no entry %sin "
                                 "%s (" SZ " entries in %s, " SZ " in %s)",
                                 im->files[0], a->path, i,
                                 pc_jr_entry_label(json_array_get(arrs[0],
                                                                  i), a, p),
                                 a->by_dates ? "with these dates " : "",
                                 im->files[l], n0, im->langs[0], nl,
                                 im->langs[l]);
            }
        }
        for (i = 0; i < nl; i++) {
            if (ul[i]) {
                bad = pc_jr_fail(&im->c, "%s: $.%s[" SZ "]%s: no entry %sin "
                                 "%s (" SZ " entries in %s, " SZ " in %s)",
                                 im->files[l], a->path, i,
                                 pc_jr_entry_label(json_array_get(arrs[l],
                                                                  i), a, p),
                                 a->by_dates ? "with these dates " : "",
                                 im->files[0], nl, im->langs[l], n0,
                                 im->langs[0]);
            }
        }
    }
    return bad;
}

/* Lines up the arrays a->key of parents (one per language) and appends
 * to array `to` of out (made when absent) one entry per position, filled
 * by fill; with id_fallback, each gets an id first (pc_jr_make_id).
 * Every problem is set; returns -1 when there is one. */
int pc_jr_import_array(jr_import_t *im, json_t **parents,
                       const jr_array_t *a, json_t *out, const char *to,
                       const char *id_fallback, jr_fill_fn fill)
{
    json_t *all = json_object_get(out, to), *e;
    json_t *arrs[JR_MAX_LANGS], *entries[JR_MAX_LANGS];
    apr_hash_t *ids = apr_hash_make(im->c.p);
    size_t i;
    int l, bad = 0;

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
        im->label = pc_jr_entry_label(entries[0], a, im->c.p);
        if (fill(im, entries, apr_psprintf(im->c.p, "$.%s[" SZ "]", a->path,
                                           i), e) < 0) {
            bad = -1;
        }
    }
    im->label = "";
    return bad;
}
