/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jr_dates.c -- dates for the JSON Resume commands: JSON Resume's
 * dates (YYYY, YYYY-MM, YYYY-MM-DD) written as the data file's periods
 * in a language ("Dec 2013 – present", for the import) and periods read
 * back into dates (for the export).
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>

#include "pc_jr.h"

#define JR_DASH "\xe2\x80\x93"          /* "–" in a period */

typedef struct {
    const char *lang;
    const char *months[12];
    const char *present;
} jr_locale_t;

/* How a period reads in each language; other languages get ISO dates
 * and an open end ("2019-04 –"). */
static const jr_locale_t locales[] = {
    {"en", {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
            "Oct", "Nov", "Dec"}, "present"},
    {"es", {"ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.",
            "sept.", "oct.", "nov.", "dic."}, "actualidad"},
};

/* Month names read back from a period, in any of the languages above
 * (full and abbreviated; case and a final dot ignored). */
static const struct {
    const char *name;
    int month;
} month_names[] = {
    {"jan", 1}, {"january", 1}, {"ene", 1}, {"enero", 1},
    {"feb", 2}, {"february", 2}, {"febrero", 2},
    {"mar", 3}, {"march", 3}, {"marzo", 3},
    {"apr", 4}, {"april", 4}, {"abr", 4}, {"abril", 4},
    {"may", 5}, {"mayo", 5},
    {"jun", 6}, {"june", 6}, {"junio", 6},
    {"jul", 7}, {"july", 7}, {"julio", 7},
    {"aug", 8}, {"august", 8}, {"ago", 8}, {"agosto", 8},
    {"sep", 9}, {"sept", 9}, {"september", 9}, {"set", 9},
    {"septiembre", 9}, {"setiembre", 9},
    {"oct", 10}, {"october", 10}, {"octubre", 10},
    {"nov", 11}, {"november", 11}, {"noviembre", 11},
    {"dec", 12}, {"december", 12}, {"dic", 12}, {"diciembre", 12},
};

static const char *const present_words[] = {
    "present", "now", "today", "current", "actualidad", "presente", "hoy",
    "actual", NULL
};

static const jr_locale_t *locale_of(const char *lang)
{
    size_t i;

    for (i = 0; i < sizeof(locales) / sizeof(locales[0]); i++) {
        if (strcmp(locales[i].lang, lang) == 0) {
            return &locales[i];
        }
    }
    return NULL;
}

static int all_digits(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (!apr_isdigit(s[i])) {
            return 0;
        }
    }
    return 1;
}

/* Non-zero when s is a JSON Resume date: YYYY, YYYY-MM or YYYY-MM-DD
 * (the schema's pattern, with real months and days). */
int pc_jr_is_date(const char *s)
{
    size_t n = strlen(s);
    int m, d;

    if ((n != 4 && n != 7 && n != 10) || !all_digits(s, 4)
        || (s[0] != '1' && s[0] != '2')) {
        return 0;
    }
    if (n == 4) {
        return 1;
    }
    if (s[4] != '-' || !all_digits(s + 5, 2)) {
        return 0;
    }
    m = atoi(s + 5);
    if (m < 1 || m > 12) {
        return 0;
    }
    if (n == 7) {
        return 1;
    }
    if (s[7] != '-' || !all_digits(s + 8, 2)) {
        return 0;
    }
    d = atoi(s + 8);
    return d >= 1 && d <= 31;
}

/* A date as language `lang` writes it: "Dec 2013", "1 dic. 2013",
 * "2013"; ISO as it is for languages without a locale. */
static const char *format_date(const char *date, const char *lang,
                               apr_pool_t *p)
{
    const jr_locale_t *l = locale_of(lang);
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
    const jr_locale_t *l = locale_of(lang);
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

static int month_of(const char *word)
{
    size_t i, n = strlen(word);

    if (n > 0 && word[n - 1] == '.') {
        n--;
    }
    for (i = 0; i < sizeof(month_names) / sizeof(month_names[0]); i++) {
        if (strlen(month_names[i].name) == n
            && strncasecmp(month_names[i].name, word, n) == 0) {
            return month_names[i].month;
        }
    }
    return 0;
}

/* Reads one date of a period back into ISO form: "2013", "2013-12",
 * "2013-12-01", "Dec 2013", "1 dic. 2013", "diciembre de 2013".  NULL
 * when it is not one. */
static const char *parse_date(const char *text, apr_pool_t *p)
{
    char *copy = apr_pstrdup(p, text), *last, *w;
    const char *words[4];
    int n = 0, day = 0, month = 0;

    for (w = apr_strtok(copy, " ", &last); w; w = apr_strtok(NULL, " ",
                                                             &last)) {
        if (strcasecmp(w, "de") == 0) {
            continue;
        }
        if (n == 4) {
            return NULL;
        }
        words[n++] = w;
    }
    if (n == 1) {
        return pc_jr_is_date(words[0]) ? words[0] : NULL;
    }
    if (n < 2 || n > 3 || strlen(words[n - 1]) != 4
        || !pc_jr_is_date(words[n - 1])) {
        return NULL;
    }
    month = month_of(words[n - 2]);
    if (n == 3) {
        day = all_digits(words[0], strlen(words[0])) && strlen(words[0]) <= 2
              ? atoi(words[0]) : 0;
        if (day < 1 || day > 31) {
            return NULL;
        }
    }
    if (month == 0) {
        return NULL;
    }
    return day ? apr_psprintf(p, "%s-%02d-%02d", words[n - 1], month, day)
               : apr_psprintf(p, "%s-%02d", words[n - 1], month);
}

static int is_present(const char *w)
{
    int i;

    for (i = 0; present_words[i]; i++) {
        if (strcasecmp(present_words[i], w) == 0) {
            return 1;
        }
    }
    return 0;
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
    if (*right && !is_present(right)
        && (*end = parse_date(right, p)) == NULL) {
        return -1;
    }
    return 0;
}
