/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/pair.c -- how every import lines up the entries of an array
 * across languages (write_array.c makes one data file entry of each
 * row).  Entries
 * pair by position, those with dates (work, education, projects) by
 * dates too: a translated name is the same entry; entries without dates
 * (skills) pair by name where the counts differ.  Where the languages
 * disagree, each choice noted: the longest common sequence of agreeing
 * entries; then, in any order (a place partner first), the same dates,
 * the same name (folded) and years, the same name, the same years; then
 * between two paired entries, runs of equal length by place (each
 * language keeps its own period); an entry left without a partner is an
 * entry of its own whose texts lack the languages that lack it, served
 * from the fallback, the first language ("" in the first when it is the
 * one that lacks it; profilectl untranslated lists them).
 *
 * The common sequence takes a table of n0 x n1: at most JR_MAX_PAIRED
 * entries per language; past that, entries pair by position (noted).
 * Pairing by position alone is linear.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

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

/* What pairing compares of an entry, read once: its name folded (no
 * case, accents, spaces or punctuation but `#` and `+`: "SQL Server" and
 * "SqlServer" alike, "C#" and "C++" not), whether it has dates, its
 * years (dates are read: "2019-04"; 0: none, `to` 0 also for present). */
typedef struct {
    const char *name;
    int dated;
    int from, to;
} pkey_t;

static pkey_t *keys_of(json_t *arr, const jr_array_t *a, apr_pool_t *p)
{
    size_t n = json_array_size(arr), i;
    pkey_t *k = apr_pcalloc(p, (n + 1) * sizeof(*k));
    const char *f;
    char *o;

    for (i = 0; i < n; i++) {
        json_t *e = json_array_get(arr, i);

        f = pc_jr_unaccent(pc_jr_str(e, a->name), p);
        k[i].name = o = apr_palloc(p, strlen(f) + 1);
        for (; *f; f++) {
            if ((unsigned char)*f >= 0x80 || apr_isalnum(*f) || *f == '#'
                || *f == '+') {
                *o++ = *f;
            }
        }
        *o = '\0';
        k[i].dated = *pc_jr_str(e, "startDate") || *pc_jr_str(e, "endDate");
        k[i].from = atoi(pc_jr_str(e, "startDate"));
        k[i].to = atoi(pc_jr_str(e, "endDate"));
    }
    return k;
}

/* Whether x and y are one entry: their dates agree (dates only one of
 * them gives agree), or without dates, their names fold alike. */
static int same_entry(json_t *x, json_t *y, const pkey_t *kx,
                      const pkey_t *ky, const jr_array_t *a)
{
    if (!a->by_dates) {
        return strcmp(kx->name, ky->name) == 0;
    }
    return !kx->dated || !ky->dated || same_dates(x, y);
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

/* Pairs entries x[i] and y[j] (n0 and n1 of them, at most
 * JR_MAX_PAIRED each) by the longest common sequence of same_entry():
 * m0[i] = j and m1[j] = i, -1 for none. */
static void common(json_t *x, json_t *y, size_t n0, size_t n1, long *m0,
                   long *m1, const pkey_t *k0, const pkey_t *k1,
                   const jr_array_t *a, apr_pool_t *p)
{
    size_t i, j, w = n1 + 1;
    unsigned *t = apr_pcalloc(p, (n0 + 1) * w * sizeof(*t));
    char *eq = apr_pcalloc(p, n0 * n1 + 1);

    for (i = n0; i-- > 0;) {
        for (j = n1; j-- > 0;) {
            eq[i * n1 + j] = (char)same_entry(json_array_get(x, i),
                                              json_array_get(y, j), k0 + i,
                                              k1 + j, a);
            if (eq[i * n1 + j]) {
                t[i * w + j] = t[(i + 1) * w + j + 1] + 1;
            }
            else {
                t[i * w + j] = t[(i + 1) * w + j] > t[i * w + j + 1]
                               ? t[(i + 1) * w + j] : t[i * w + j + 1];
            }
        }
    }
    for (i = j = 0; i < n0 && j < n1;) {
        if (eq[i * n1 + j] && t[i * w + j] == t[(i + 1) * w + j + 1] + 1) {
            m0[i] = (long)j;
            m1[j++] = (long)i++;
        }
        else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) {
            i++;
        }
        else {
            j++;
        }
    }
}

/* Ways to pair what common() left, in any order, strongest first. */
enum { BY_DATES, BY_NAME_YEARS, BY_NAME, BY_YEARS, N_WAYS };

static const char *const why[N_WAYS] = {
    "the same dates in another order; paired by their dates",
    "the same name and years, the dates differ; paired by their name",
    "the same name, the dates differ; paired by their name",
    "the same years, the dates differ; paired by their years",
};

/* Names: folded alike, not empty; years: both have dates, the same
 * start year and the same end year, and the languages as many entries
 * (same_count: else other entries, not these in another order). */
static int pairs_by(int way, json_t *x, json_t *y, const pkey_t *kx,
                    const pkey_t *ky, const jr_array_t *a, int same_count)
{
    int name = *kx->name && strcmp(kx->name, ky->name) == 0;
    int years = kx->dated && ky->dated && kx->from && kx->from == ky->from
                && kx->to == ky->to;

    if (!a->by_dates) {
        return way == BY_NAME && name;
    }
    return way == BY_DATES ? same_entry(x, y, kx, ky, a)
           : way == BY_NAME_YEARS ? name && years
           : way == BY_NAME ? name : years && same_count;
}

/* The partners by place (pl[i], -1 for none) of the entries m0, m1
 * leave unpaired: between two paired entries, runs of as many on each
 * side pair by place; without dates, as many as the shorter run has. */
static void by_place(const long *m0, const long *m1, size_t n0, size_t n1,
                     int by_dates, long *pl)
{
    size_t i, j, gi, gj;

    for (i = 0; i < n0; i++) {
        pl[i] = -1;
    }
    for (i = j = 0; i <= n0 && j <= n1;) {
        for (gi = i; gi < n0 && m0[gi] < 0; gi++) {
        }
        for (gj = j; gj < n1 && m1[gj] < 0; gj++) {
        }
        for (; (gi - i == gj - j || !by_dates) && i < gi && j < gj;
             i++, j++) {
            pl[i] = (long)j;
        }
        i = gi + 1;
        j = gj + 1;
    }
}

/* Pairs x[i] and y[j], noted: by place (a place partner), or `how`. */
static void join(jr_import_t *im, int l, json_t *x, json_t *y,
                 const jr_array_t *a, long *m0, long *m1, size_t i,
                 size_t j, const char *how)
{
    apr_pool_t *p = im->c.p;

    m0[i] = (long)j;
    m1[j] = (long)i;
    pc_jr_assume(im, -1, "%s: $.%s[" SZ "]%s and %s: $.%s[" SZ "]%s: %s",
                 im->files[0], a->path, i,
                 pc_jr_entry_label(json_array_get(x, i), a, p),
                 im->files[l], a->path, j,
                 pc_jr_entry_label(json_array_get(y, j), a, p),
                 how ? how : a->by_dates ? "the dates differ; paired by "
                 "their place between entries that agree, each language "
                 "keeps its own period" : "the names differ; paired by "
                 "their place between entries that agree");
}

/* Pairs, each way in turn, every entry x[i] left unpaired with an entry
 * y[j] left unpaired that it pairs with that way: its place partner
 * (pl) first, else the first; noted. */
static void reorder(jr_import_t *im, int l, json_t *x, json_t *y,
                    const jr_array_t *a, long *m0, long *m1,
                    const pkey_t *k0, const pkey_t *k1, const long *pl)
{
    apr_pool_t *p = im->c.p;
    size_t n0 = json_array_size(x), n1 = json_array_size(y), i, j;
    int way, any;

    for (way = 0; way < N_WAYS * 2; way++) {
        any = way % 2;
        for (i = 0; i < n0; i++) {
            if (!any && pl[i] < 0) {
                continue;
            }
            for (j = any ? 0 : (size_t)pl[i]; m0[i] < 0 && j < n1
                 && (any || j == (size_t)pl[i]); j++) {
                if (m1[j] >= 0 || !pairs_by(way / 2, json_array_get(x, i),
                                            json_array_get(y, j), k0 + i,
                                            k1 + j, a, n0 == n1)) {
                    continue;
                }
                join(im, l, x, y, a, m0, m1, i, j, j == (size_t)pl[i] ? NULL
                     : apr_psprintf(p, "%s, in %s's order%s", a->by_dates
                                    ? why[way / 2] : "the same name in "
                                    "another order; paired by their name",
                                    im->files[0], a->by_dates && way > 1
                                    ? ", each language keeps its own "
                                      "period" : ""));
            }
        }
    }
}

/* Pairs entries of arrays x (language 0) and y (language l): m0, m1 as
 * common() makes them; every choice that is not "they agree" noted. */
static void pair(jr_import_t *im, int l, json_t *x, json_t *y,
                 const jr_array_t *a, long *m0, long *m1)
{
    apr_pool_t *p = im->c.p;
    size_t n0 = json_array_size(x), n1 = json_array_size(y), i, j;
    int agree = n0 == n1;
    pkey_t *k0, *k1;
    long *pl;

    for (i = 0; i < n0; i++) {
        m0[i] = -1;
    }
    for (j = 0; j < n1; j++) {
        m1[j] = -1;
    }
    for (i = 0; agree && a->by_dates && i < n0; i++) {
        agree = same_dates(json_array_get(x, i), json_array_get(y, i))
                || !*dates_of(json_array_get(x, i), p)
                || !*dates_of(json_array_get(y, i), p);
    }
    if (agree || n0 > JR_MAX_PAIRED || n1 > JR_MAX_PAIRED) {
        if (!agree) {
            pc_jr_assume(im, -1, "%s and %s: $.%s: " SZ " and " SZ " entries "
                         "that do not agree, too many to pair by %s (at most "
                         "%d): paired by position", im->files[0],
                         im->files[l], a->path, n0, n1,
                         a->by_dates ? "dates" : "names", JR_MAX_PAIRED);
        }
        for (i = 0; i < n0 && i < n1; i++) {
            m0[i] = (long)i;
            m1[i] = (long)i;
        }
        return;
    }
    k0 = keys_of(x, a, p);
    k1 = keys_of(y, a, p);
    pl = apr_palloc(p, (n0 + 1) * sizeof(*pl));
    common(x, y, n0, n1, m0, m1, k0, k1, a, p);
    by_place(m0, m1, n0, n1, a->by_dates, pl);
    reorder(im, l, x, y, a, m0, m1, k0, k1, pl);
    by_place(m0, m1, n0, n1, a->by_dates, pl);
    for (i = 0; i < n0; i++) {
        if (m0[i] < 0 && pl[i] >= 0) {
            join(im, l, x, y, a, m0, m1, i, (size_t)pl[i], NULL);
        }
    }
}
/* The entries of every language in rows (im->n indexes each, -1 where a
 * language has none), in the first language's order, with another
 * language's unpaired entries after the row of the entry before them. */
long *pc_jr_line_up(jr_import_t *im, json_t **arrs, const jr_array_t *a,
                    size_t *nrows)
{
    apr_pool_t *p = im->c.p;
    size_t n0 = json_array_size(arrs[0]), rows = n0, nl, r, k, j, total;
    long *row, *next, *m0, *ml;
    int l, c;

    total = n0;
    for (l = 1; l < im->n; l++) {
        total += json_array_size(arrs[l]);
    }
    row = apr_palloc(p, (total + 1) * JR_MAX_LANGS * sizeof(*row));
    for (r = 0; r < n0; r++) {
        for (c = 0; c < JR_MAX_LANGS; c++) {
            row[r * JR_MAX_LANGS + c] = c == 0 ? (long)r : -1;
        }
    }
    for (l = 1; l < im->n; l++) {
        nl = json_array_size(arrs[l]);
        m0 = apr_palloc(p, (n0 + 1) * sizeof(*m0));
        ml = apr_palloc(p, (nl + 1) * sizeof(*ml));
        pair(im, l, arrs[0], arrs[l], a, m0, ml);
        next = apr_palloc(p, (total + 1) * JR_MAX_LANGS * sizeof(*next));
        k = 0;
        j = 0;
        for (r = 0; r <= rows; r++) {
            long i0 = r < rows ? row[r * JR_MAX_LANGS] : -1;
            long upto = r == rows ? (long)nl : i0 >= 0 && m0[i0] >= 0
                                                ? m0[i0] : -1;

            /* l's own entries before this row's partner. */
            for (; upto >= 0 && (long)j < upto; j++) {
                if (ml[j] >= 0) {
                    continue;
                }
                for (c = 0; c < JR_MAX_LANGS; c++) {
                    next[k * JR_MAX_LANGS + c] = c == l ? (long)j : -1;
                }
                k++;
            }
            if (r == rows) {
                break;
            }
            memcpy(next + k * JR_MAX_LANGS, row + r * JR_MAX_LANGS,
                   JR_MAX_LANGS * sizeof(*row));
            if (i0 >= 0 && m0[i0] >= 0) {
                next[k * JR_MAX_LANGS + l] = m0[i0];
                if ((size_t)m0[i0] + 1 > j) {
                    j = (size_t)m0[i0] + 1;
                }
            }
            k++;
        }
        row = next;
        rows = k;
    }
    *nrows = rows;
    return row;
}

/* Notes an entry that some languages lack, and copies the dates of
 * paired entries where only one gives them. */
void pc_jr_note_row(jr_import_t *im, json_t **entries, const jr_array_t *a,
                    const long *idx)
{
    apr_pool_t *p = im->c.p;
    const char *lacking = NULL;
    int l, from = -1;

    for (l = 0; l < im->n; l++) {
        if (entries[l] == NULL) {
            lacking = lacking ? apr_pstrcat(p, lacking, ", ", im->langs[l],
                                            NULL) : im->langs[l];
        }
        else if (from < 0) {
            from = l;
        }
        else if (a->by_dates && !*dates_of(entries[l], p)) {
            copy_dates(entries[l], entries[from]);
        }
        else if (a->by_dates && !*dates_of(entries[from], p)) {
            copy_dates(entries[from], entries[l]);
        }
    }
    if (lacking) {
        /* The first language, the fallback, keeps "" (import/write_text.c). */
        const char *how = entries[0] ? "" : apr_psprintf(p, "empty in %s",
                                                         im->langs[0]);
        const char *missing = entries[0] ? lacking
                              : strchr(lacking, ',') ? lacking + strlen(
                                  im->langs[0]) + 2 : NULL;

        if (missing) {
            how = apr_psprintf(p, "%s%smissing in %s (served from %s)", how,
                               *how ? ", " : "", missing, im->langs[0]);
        }
        pc_jr_assume(im, from, "$.%s[%ld]%s: no entry in %s: an entry of its "
                     "own, its texts %s (to translate)", a->path,
                     idx[from], pc_jr_entry_label(entries[from], a, p),
                     lacking, how);
    }
}
