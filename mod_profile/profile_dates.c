/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_dates.c -- dates in the data file (CONTRACT §9, revised
 * 2026-11-28): an experience or education record's `start` and `end`
 * (YYYY or YYYY-MM; no end: ongoing), and the period people of each
 * language write from them ("Mar 2021 – present", "mar. 2021 –
 * actualidad").  The one table of date words, used by the module (the
 * periods it writes where a record gives none) and by profilectl (its
 * imports' periods, common/period.c).
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>

#include "profile_dates.h"
#include "profile_schema.h"

#define DASH "\xe2\x80\x93"             /* "–" */

/* How a period reads in each language: the usual abbreviations of the
 * months, and the word for an open end. */
static const profile_date_words_t words[] = {
    {"en", {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
            "Oct", "Nov", "Dec"}, "present"},
    {"es", {"ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.",
            "sept.", "oct.", "nov.", "dic."}, "actualidad"},
    {"de", {"Jan.", "Feb.", "M\xc3\xa4rz", "Apr.", "Mai", "Juni", "Juli",
            "Aug.", "Sept.", "Okt.", "Nov.", "Dez."}, "heute"},
    {"fr", {"janv.", "f\xc3\xa9vr.", "mars", "avr.", "mai", "juin",
            "juil.", "ao\xc3\xbbt", "sept.", "oct.", "nov.",
            "d\xc3\xa9" "c."},        /* split: \xa9c would be one escape */
     "aujourd\xe2\x80\x99hui"},
    {"pt", {"jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.",
            "set.", "out.", "nov.", "dez."}, "presente"},
};

const profile_date_words_t *profile_date_words(const char *lang)
{
    apr_size_t i;

    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strcasecmp(words[i].lang, lang) == 0) {
            return &words[i];
        }
    }
    return NULL;
}

int profile_date_valid(const char *s)
{
    apr_size_t n = strlen(s), i;

    if (n != 4 && n != 7) {
        return 0;
    }
    for (i = 0; i < 4; i++) {
        if (!apr_isdigit(s[i])) {
            return 0;
        }
    }
    if (n == 7) {
        int m;

        if (s[4] != '-' || !apr_isdigit(s[5]) || !apr_isdigit(s[6])) {
            return 0;
        }
        m = (s[5] - '0') * 10 + (s[6] - '0');
        return m >= 1 && m <= 12;
    }
    return 1;
}

int profile_date_cmp(const char *a, const char *b)
{
    int c = strncmp(a, b, 4);

    /* A year alone stands for the whole year: it is neither before nor
     * after a month of it. */
    if (c != 0 || strlen(a) == 4 || strlen(b) == 4) {
        return c;
    }
    return strcmp(a + 5, b + 5);
}

/* A valid date as `w` writes it: "Mar 2021", "2021". */
static const char *format_date(const char *date,
                               const profile_date_words_t *w, apr_pool_t *p)
{
    if (strlen(date) == 4) {
        return date;
    }
    return apr_psprintf(p, "%s %.4s", w->months[atoi(date + 5) - 1], date);
}

const char *profile_date_period(const char *start, const char *end,
                                const char *lang, apr_pool_t *p)
{
    const profile_date_words_t *w = profile_date_words(lang);
    const char *s;

    if (w == NULL) {
        return NULL;
    }
    s = format_date(start, w, p);
    if (end == NULL) {
        return apr_pstrcat(p, s, " " DASH " ", w->present, NULL);
    }
    if (strcmp(start, end) == 0) {
        return s;
    }
    return apr_pstrcat(p, s, " " DASH " ", format_date(end, w, p), NULL);
}

void profile_date_periods(json_t *root, const char *const *langs,
                          int nlangs)
{
    apr_pool_t *p;
    json_t *rec;
    size_t i;
    int l;

    if (apr_pool_create(&p, NULL) != APR_SUCCESS) {
        return;
    }
    json_array_foreach(json_object_get(root, "experience"), i, rec) {
        const char *start = json_string_value(json_object_get(rec, "start"));
        const char *end = json_string_value(json_object_get(rec, "end"));
        json_t *period;

        if (start == NULL || json_object_get(rec, "period") != NULL) {
            continue;
        }
        period = json_object();
        for (l = 0; l < nlangs; l++) {
            const char *text = profile_date_period(start, end, langs[l], p);

            if (text != NULL) {
                json_object_set_new(period, langs[l], json_string(text));
            }
        }
        json_object_set_new(rec, "period", period);
        apr_pool_clear(p);
    }
    apr_pool_destroy(p);
}
