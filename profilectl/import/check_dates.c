/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/check_dates.c -- the dates of each entry import-jsonresume reads,
 * checked and rewritten as ISO dates (common/dates.c reads them): a day
 * its month lacks read as the month, a remark after "Present" left out,
 * a word for since before a start, each noted.  A numeric date whose day
 * and month cannot be told apart (02-06-2025) is read as its file writes
 * the others: before the first date of a document is checked, one pass
 * over its dates finds the orders that a number over 12 tells
 * (31-03-2025: the day first); when they all tell one, it reads the
 * ambiguous ones, with a note naming the date that says so.  When they
 * tell both or none, the same member of the entry at the same place in
 * another language's document may give the date (a pair written
 * 2023-06-03 and 03-06-2023); else the date is refused as ambiguous.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

/* The bit of each order in date_told: day, month, and each after a
 * year. */
static int order_index(int order)
{
    int i;

    for (i = 0; i < 4; i++) {
        if (order == 1 << i) {
            return i;
        }
    }
    return -1;
}

/* The orders the dates of entry e (its members `keys`) tell, added to
 * document l's.  A member under another name (start_date) counts when
 * the check will read it (import/check_entry.c's rename_members). */
static void orders_of_entry(jr_import_t *im, int l, json_t *e,
                            const jr_key_t *keys)
{
    const jr_key_t *key;
    const char *k, *to, *iso;
    json_t *v;
    int told, i;

    json_object_foreach(e, k, v) {
        key = pc_jr_find_key(keys, k);
        if (key == NULL && (to = pc_jr_member_meant(keys, k)) != NULL
            && !pc_jr_has_content(json_object_get(e, to))) {
            key = pc_jr_find_key(keys, to);
        }
        if (key == NULL || key->type != 'd' || !json_is_string(v)
            || pc_jr_read_date_in(&iso, json_string_value(v),
                                  strcmp(key->key, "endDate") == 0, 0,
                                  &told, im->c.p) < 0
            || (i = order_index(told)) < 0) {
            continue;
        }
        im->date_order[l] |= told;
        if (im->date_told[l][i] == NULL) {
            im->date_told[l][i] = apr_pstrdup(im->c.p,
                                              json_string_value(v));
        }
    }
}

/* The orders every date of document l tells: one pass over the entries
 * of each array the import reads, before any is rewritten. */
static void find_orders(jr_import_t *im, int l)
{
    const jr_array_t *arrays[] = {
        &pc_jr_work_array, &pc_jr_education_array, &pc_jr_projects_array,
        &pc_jr_skills_array, &pc_jr_profiles_array
    };
    json_t *doc = im->docs[l], *basics = json_object_get(doc, "basics");
    json_t *arr, *e;
    size_t a, i;

    im->dates_seen[l] = 1;
    if (json_is_object(basics)) {
        orders_of_entry(im, l, basics, pc_jr_basics_keys);
    }
    for (a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++) {
        arr = json_object_get(arrays[a] == &pc_jr_profiles_array ? basics
                              : doc, arrays[a]->key);
        json_array_foreach(arr, i, e) {
            if (json_is_object(e)) {
                orders_of_entry(im, l, e, arrays[a]->keys);
            }
        }
    }
}

/* Where the orders of a date like text are among JR_ORDER_* bits: 2
 * after a year (its first number has four digits), else 0. */
static int order_shift(const char *text)
{
    size_t skip = strcspn(text, "0123456789");

    return strspn(text + skip, "0123456789") == 4 ? 2 : 0;
}

/* The order of day and month (JR_ORDER_* bits, both classes) that reads
 * text (of document l) as the date member k of the entry `at`
 * ("$.work[2]") has in another language's document, when that reads as
 * a full date and the other languages that have one agree (*from: the
 * first's file); else 0. */
static int other_language(jr_import_t *im, int l, const char *at,
                          const char *k, const char *text, int end,
                          const char **from)
{
    static const int orders[2] = {
        JR_ORDER_DAY | JR_ORDER_AFTER_YEAR(JR_ORDER_DAY),
        JR_ORDER_MONTH | JR_ORDER_AFTER_YEAR(JR_ORDER_MONTH)
    };
    const char *bracket = strchr(at, '['), *name, *iso, *read[2];
    char *stop;
    apr_int64_t i;
    json_t *e;
    int o, r, told, found = 0;

    if (strncmp(at, "$.", 2) != 0 || bracket == NULL
        || (i = apr_strtoi64(bracket + 1, &stop, 10)) < 0
        || strcmp(stop, "]") != 0) {
        return 0;
    }
    name = apr_pstrmemdup(im->c.p, at + 2, (size_t)(bracket - at - 2));
    for (r = 0; r < 2; r++) {
        if (pc_jr_read_date_in(&read[r], text, end, orders[r], &told,
                               im->c.p) < 0) {
            return 0;
        }
    }
    for (o = 0; o < im->n; o++) {
        e = json_array_get(json_object_get(im->docs[o], name), (size_t)i);
        if (o == l || !json_is_string(json_object_get(e, k))
            || pc_jr_read_date(&iso, pc_jr_str(e, k), end, im->c.p) < 0
            || strlen(iso) != 10) {
            continue;
        }
        for (r = 0; r < 2 && strcmp(iso, read[r]) != 0; r++) {
        }
        if (r == 2 || (found && found != orders[r])) {
            return 0;           /* another date, or they disagree */
        }
        if (!found) {
            *from = im->files[o];
        }
        found = orders[r];
    }
    return found;
}

/* The remark in parentheses that ends text ("(part-time)"), or NULL. */
static const char *date_remark(const char *text, apr_pool_t *p)
{
    const char *open = strrchr(text, '(');
    size_t n = strlen(text);

    while (n > 0 && apr_isspace(text[n - 1])) {
        n--;
    }
    if (open == NULL || n == 0 || text[n - 1] != ')') {
        return NULL;
    }
    return apr_pstrmemdup(p, open, (size_t)(text + n - open));
}

/* Why a date of document l stays ambiguous, when its dates tell both
 * orders: " (the file writes both ...)"; else "". */
static const char *both_orders(jr_import_t *im, int l, const char *text)
{
    int shift = order_shift(text);

    if ((im->date_order[l] >> shift & 3) != 3) {
        return "";
    }
    return apr_psprintf(im->c.p, " (the file writes both the day first, "
                        "%s, and the month first, %s)",
                        im->date_told[l][shift], im->date_told[l][shift + 1]);
}

json_t *pc_jr_check_date(jr_import_t *im, int l, json_t *v, const char *at,
                         const char *path, const char *k, int *bad)
{
    const char *text, *iso, *remark, *from = NULL;
    int rv, told, end = strcmp(k, "endDate") == 0, shift, day, order;

    if (json_is_integer(v)) {
        /* APR's formatter knows APR_INT64_T_FMT, not jansson's "lld". */
        text = apr_psprintf(im->c.p, "%" APR_INT64_T_FMT,
                            (apr_int64_t)json_integer_value(v));
    }
    else if (json_is_string(v)) {
        text = json_string_value(v);
    }
    else {
        pc_jr_fail(&im->c, "%s: %s.%s: not a string (a date)", im->files[l],
                   at, k);
        *bad = 1;
        return v;
    }
    if (!im->dates_seen[l]) {
        find_orders(im, l);
    }
    rv = pc_jr_read_date_in(&iso, text, end, im->date_order[l], &told,
                            im->c.p);
    if (rv == -2 && (order = other_language(im, l, at, k, text, end,
                                            &from)) != 0) {
        rv = pc_jr_read_date_in(&iso, text, end, order, &told, im->c.p);
    }
    if (rv >= 0) {
        if ((rv & JR_DATE_ORDER) && from != NULL) {
            pc_jr_assume(im, l, "%s.%s: \"%s\" read as %s: %s gives that "
                         "date for the same entry", at, k, text, iso, from);
        }
        else if (rv & JR_DATE_ORDER) {
            shift = order_shift(text);
            day = (im->date_order[l] >> shift & 3) == JR_ORDER_DAY;
            pc_jr_assume(im, l, "%s.%s: \"%s\" read as %s: the file writes "
                         "the %s first (%s)", at, k, text, iso,
                         day ? "day" : "month",
                         im->date_told[l][shift + !day]);
        }
        if (rv & JR_DATE_MONTH) {
            pc_jr_assume(im, l, "%s.%s: \"%s\": that month has no such "
                         "day; read as the month, %s", at, k, text, iso);
        }
        if (rv & JR_DATE_SINCE) {
            pc_jr_assume(im, l, "%s.%s: \"%s\" read as the start, %s",
                         at, k, text, iso);
        }
        if (rv & JR_DATE_REMARK) {
            remark = date_remark(text, im->c.p);
            pc_jr_assume(im, l, "%s.%s: \"%s\" read as %s; the remark "
                         "%s is not imported", at, k, text,
                         *iso ? iso : "present", remark);
            pc_jr_drop(im, apr_pstrcat(im->c.p, path, ".", k, " (remark)",
                                       NULL), 1);
        }
        return *iso ? json_string(iso) : NULL;
    }
    *bad = 1;
    if (rv == -2) {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" is ambiguous: day and month "
                   "cannot be told apart%s; write YYYY-MM-DD. Accepted: %s",
                   im->files[l], at, k, text, both_orders(im, l, text),
                   pc_jr_date_forms);
    }
    else if (rv == -3) {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" means now, which ends a role "
                   "but cannot start one", im->files[l], at, k, text);
    }
    else {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" is not a date. Accepted: %s",
                   im->files[l], at, k, text, pc_jr_date_forms);
    }
    return v;
}
