/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/period.c -- the data file's periods: JSON Resume dates written as
 * a period in a language ("Dec 2013 – present", for the
 * import), and periods read back into dates (for the export).  Dates
 * themselves are read by common/dates.c.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>

#include "common/common.h"
#include "profile_dates.h"

#define JR_DASH "\xe2\x80\x93"          /* "–" in a period */

/* How a period reads in each language: the core's date words
 * (profile_dates.c), each one common/dates.c reads back, as it reads the
 * word for now; other languages get ISO dates and an open end
 * ("2019-04 –"). */
/* A date as language `lang` writes it: "Dec 2013", "1 dic. 2013",
 * "2013"; ISO as it is for languages without a locale. */
static const char *format_date(const char *date, const char *lang,
                               apr_pool_t *p)
{
    const profile_date_words_t *l = profile_date_words(lang);
    size_t n = strlen(date);
    const char *mon;

    if (l == NULL || n == 4) {
        return date;
    }
    mon = l->months[atoi(date + 5) - 1];
    if (n == 7) {
        return apr_psprintf(p, "%s %.4s", mon, date);
    }
    return apr_psprintf(p, "%d %s %.4s", atoi(date + 8), mon, date);
}

/* The period of start and end ("" where absent) in language `lang`:
 * "S – E", "S" when both are the same, "S – present", "– E", or "". */
const char *pc_jr_format_period(const char *start, const char *end,
                                const char *lang, apr_pool_t *p)
{
    const profile_date_words_t *l = profile_date_words(lang);
    const char *s = *start ? format_date(start, lang, p) : "";
    const char *e = *end ? format_date(end, lang, p) : "";

    if (!*start && !*end) {
        return "";
    }
    if (!*end) {
        return apr_pstrcat(p, s, " " JR_DASH, l ? " " : "",
                           l ? l->present : "", NULL);
    }
    if (!*start) {
        return apr_pstrcat(p, JR_DASH " ", e, NULL);
    }
    if (strcmp(start, end) == 0) {
        return s;
    }
    return apr_pstrcat(p, s, " " JR_DASH " ", e, NULL);
}

/* Reads one date of a period back into ISO form; NULL when it is not
 * one. */
static const char *parse_date(const char *text, apr_pool_t *p)
{
    const char *d;

    return pc_jr_read_date(&d, text, 0, p) == 0 && *d ? d : NULL;
}

static const char *trimmed(const char *s, size_t n, apr_pool_t *p)
{
    while (n && *s == ' ') {
        s++, n--;
    }
    while (n && s[n - 1] == ' ') {
        n--;
    }
    return apr_pstrmemdup(p, s, n);
}

/* Reads a period back into JSON Resume dates ("" where absent): the
 * inverse of pc_jr_format_period, tolerant of " - " for the dash.  Returns -1
 * when the text is not a period (an empty text is one, with no dates). */
int pc_jr_parse_period(const char **start, const char **end,
                       const char *text, apr_pool_t *p)
{
    const char *dash = strstr(text, JR_DASH);
    size_t dlen = strlen(JR_DASH);
    const char *left, *right;

    *start = *end = "";
    if (dash == NULL && (dash = strstr(text, " - ")) != NULL) {
        dash++;
        dlen = 1;
    }
    if (dash == NULL) {
        left = trimmed(text, strlen(text), p);
        if (!*left) {
            return 0;
        }
        *start = *end = parse_date(left, p);
        return *start ? 0 : -1;
    }
    left = trimmed(text, dash - text, p);
    right = trimmed(dash + dlen, strlen(dash + dlen), p);
    if (!*left && !*right) {
        return -1;
    }
    if (*left && (*start = parse_date(left, p)) == NULL) {
        return -1;
    }
    if (*right && !pc_jr_is_now(right, p)
        && (*end = parse_date(right, p)) == NULL) {
        return -1;
    }
    return 0;
}

