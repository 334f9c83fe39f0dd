/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/dates.c -- dates as people write them, read into JSON Resume's
 * (YYYY, YYYY-MM, YYYY-MM-DD) for every import, the habits a reader
 * understands included (a day its month does not have is the month;
 * "Present (part-time)" is now, with a remark; 02-06-2025 is read in the
 * order of day and month the caller gives, pc_jr_read_date_in).  Month
 * names are compared folded (common/fold.c); periods are
 * common/period.c's.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <utf8proc.h>

#include "common/common.h"

#define JR_DASH "\xe2\x80\x93"          /* "–" in a period */

/* Month names, folded (lowercase, accents removed; a final dot is
 * dropped before the look-up), in English, Spanish, Portuguese, French
 * and German, full and abbreviated.  No name means two months. */
static const struct {
    const char *name;
    int month;
} month_names[] = {
    {"jan", 1}, {"january", 1}, {"ene", 1}, {"enero", 1}, {"janeiro", 1},
    {"janv", 1}, {"janvier", 1}, {"januar", 1}, {"janner", 1}, {"feb", 2},
    {"february", 2}, {"febrero", 2}, {"fev", 2}, {"fevereiro", 2},
    {"fevr", 2}, {"fevrier", 2}, {"februar", 2}, {"febr", 2}, {"mar", 3},
    {"march", 3}, {"marzo", 3}, {"marco", 3}, {"mars", 3}, {"marz", 3},
    {"mrz", 3}, {"apr", 4}, {"april", 4}, {"abr", 4}, {"abril", 4},
    {"avr", 4}, {"avril", 4}, {"may", 5}, {"mayo", 5}, {"mai", 5},
    {"maio", 5}, {"jun", 6}, {"june", 6}, {"junio", 6}, {"junho", 6},
    {"juin", 6}, {"juni", 6}, {"jul", 7}, {"july", 7}, {"julio", 7},
    {"julho", 7}, {"juil", 7}, {"juill", 7}, {"juillet", 7}, {"juli", 7},
    {"aug", 8}, {"august", 8}, {"ago", 8}, {"agosto", 8}, {"aout", 8},
    {"sep", 9}, {"sept", 9}, {"september", 9}, {"set", 9},
    {"septiembre", 9}, {"setiembre", 9}, {"setembro", 9}, {"septembre", 9},
    {"oct", 10}, {"october", 10}, {"octubre", 10}, {"out", 10},
    {"outubro", 10}, {"octobre", 10}, {"okt", 10}, {"oktober", 10},
    {"nov", 11}, {"november", 11}, {"noviembre", 11}, {"novembro", 11},
    {"novembre", 11}, {"dec", 12}, {"december", 12}, {"dic", 12},
    {"diciembre", 12}, {"dez", 12}, {"dezembro", 12}, {"decembre", 12},
    {"dezember", 12},
};

/* Words for an ongoing role (an end date that is none), folded. */
static const char *const present_words[] = {
    "present", "the present", "now", "today", "current", "currently",
    "ongoing", "to date", "till date", "till now", "until now",
    "actualidad", "la actualidad", "presente", "el presente", "hoy",
    "actual", "actualmente", "hasta la fecha", "en curso",
    "atual", "atualmente", "o momento", "momento", "hoje", "ate o momento",
    "aujourd'hui", "aujourd\xe2\x80\x99hui", "en cours",
    "maintenant", "heute", "bis heute", "jetzt", "aktuell", "laufend",
    "present day", "the present day", "to present", "to the present",
    "up to now", "up to date", "till today", "until today", "to now",
    "hasta hoy", "hasta ahora", "hasta el presente", "a la fecha",
    "hasta la actualidad", "la fecha", "ate hoje", "ate o presente",
    "o presente", "presente momento", "jusqu'a aujourd'hui",
    "jusqu'a present", "a ce jour", "ce jour", "present jour",
    "gegenwart", "bis jetzt", "bis dato", "derzeit", "seitdem",
    "\xe8\x87\xb3\xe4\xbb\x8a", "\xe7\x8e\xb0\xe5\x9c\xa8",
    "\xe7\x8f\xbe\xe5\x9c\xa8", "\xe4\xbb\x8a",
    /* Italian, Catalan, Dutch, Polish (folded: no accents). */
    "oggi", "ad oggi", "fino ad oggi", "attuale", "attualmente", "in corso",
    "actualitat", "avui", "heden", "tot heden", "nu", "huidig",
    "obecnie", "teraz", "do teraz", "do dzis", "nadal", "do chwili obecnej",
    "present time", "till present", "until present", "til now", NULL
};

/* Words before a start date that say the role goes on ("Since 2020",
 * "Depuis 2023"), folded, each with the space after it; a longer one
 * before a shorter one it begins with. */
static const char *const since_words[] = {
    "since ", "from ", "starting from ", "starting ", "desde ",
    "a partir del ", "a partir de ", "depuis ", "des ", "seit ", "ab ",
    "dal ", "dall'", "dalla ", "od ", "vanaf ", "sinds ", NULL
};

const char *const pc_jr_date_forms =
    "YYYY-MM-DD, YYYY-MM, YYYY (also unpadded: 2023-9-28, 2023-9), "
    "MM/YYYY, YYYY/MM, DD.MM.YYYY, and DD/MM/YYYY, MM/DD/YYYY, "
    "YYYY/MM/DD or YYYY/DD/MM when the day is over 12, a month name "
    "and a year in English, "
    "Spanish, Portuguese, French or German (April 2017, abr. 2017, "
    "M\xc3\xa4rz 2019, 1 f\xc3\xa9vr. 2018, March 3, 2020), for a "
    "start also after a word for since (Since 2020, Depuis 2023); for an "
    "end only, a word for now (Present, Current, actualidad, Atual, "
    "aujourd'hui, heute, oggi, obecnie, \xe8\x87\xb3\xe4\xbb\x8a...), "
    "with or without a remark in parentheses (Present (part-time))";

/* Days in month m of year y. */
static int month_days(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                               31};

    if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) {
        return 29;
    }
    return days[m - 1];
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
    return d >= 1 && d <= month_days(atoi(s), m);
}

/* The month of a folded word ("abr.", "marz"), or 0. */
static int month_of(const char *word)
{
    size_t i, n = strlen(word);

    if (n > 0 && word[n - 1] == '.') {
        n--;
    }
    for (i = 0; i < sizeof(month_names) / sizeof(month_names[0]); i++) {
        if (strlen(month_names[i].name) == n
            && strncmp(month_names[i].name, word, n) == 0) {
            return month_names[i].month;
        }
    }
    return 0;
}

/* Digits at *s (at most max of them, at least one) as a number; -1 if
 * none.  Advances *s. */
static int number(const char **s, int max, int *ndigits)
{
    int v = 0, n = 0;

    while (apr_isdigit(**s) && n < max) {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    if (apr_isdigit(**s)) {
        return -1;
    }
    *ndigits = n;
    return n ? v : -1;
}

/* "YYYY", "YYYY-MM" or "YYYY-MM-DD" (m, d: -1 for none); NULL for a
 * day the month does not have (2022-02-30). */
static const char *iso(int y, int m, int d, apr_pool_t *p)
{
    if (y < 1000 || y > 2999 || m > 12 || (m < 1 && m != -1)
        || (d < 1 && d != -1) || (d > 0 && (m < 1 || d > month_days(y, m)))) {
        return NULL;
    }
    if (m < 0) {
        return apr_psprintf(p, "%04d", y);
    }
    if (d < 0) {
        return apr_psprintf(p, "%04d-%02d", y, m);
    }
    return apr_psprintf(p, "%04d-%02d-%02d", y, m, d);
}

/* The day d of month m of year y, as iso() makes it; a day that month
 * does not have (2022-02-30, 1996-06-31) is read as the month, as a
 * reader takes it: JR_DATE_MONTH.  -1 when it is no date. */
static int day_or_month(const char **out, int y, int m, int d,
                        apr_pool_t *p)
{
    if ((*out = iso(y, m, d, p)) != NULL) {
        return 0;
    }
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31
        && (*out = iso(y, m, -1, p)) != NULL) {
        return JR_DATE_MONTH;
    }
    return -1;
}

/* Day and month that cannot be told apart (a before b, both 1-12, not
 * equal), in `order`, the order of the file's other dates (JR_ORDER_DAY:
 * a is the day): JR_DATE_ORDER; -2 when it says neither, or both. */
static int by_order(const char **out, int y, int a, int b, int order,
                    apr_pool_t *p)
{
    order &= JR_ORDER_DAY | JR_ORDER_MONTH;
    if (order != JR_ORDER_DAY && order != JR_ORDER_MONTH) {
        return -2;
    }
    *out = order == JR_ORDER_DAY ? iso(y, b, a, p) : iso(y, a, b, p);
    return *out ? JR_DATE_ORDER : -1;
}

/* The numeric forms: up to three numbers split by one of "-/.".  Returns
 * 0 or JR_DATE_MONTH (day_or_month) and *out, -1 when it is not one of
 * them, -2 when day and month cannot be told apart (3/4/2020; 1/1/2023
 * is the same day either way) and `order` does not say (by_order).
 * *told: the order a number over 12 tells (JR_ORDER_*). */
static int numeric_date(const char **out, const char *s, int order,
                        int *told, apr_pool_t *p)
{
    int v[3], len[3], n = 0;
    char sep = 0;

    for (;;) {
        if (n == 3 || (v[n] = number(&s, 4, &len[n])) < 0) {
            return -1;
        }
        n++;
        if (*s == '\0' || ((*s == 't' || (*s == ' ' && apr_isdigit(s[1])))
                           && n == 3 && sep == '-' && len[0] == 4)) {
            break;              /* 2019-04-01t00:00:00z, 2019-04-01 00:00 */
        }
        if ((*s != '-' && *s != '/' && *s != '.') || (sep && *s != sep)) {
            return -1;
        }
        sep = *s++;
    }
    if (len[0] == 4) {
        /* YYYY, YYYY-M(M)[-D(D)], YYYY/M(M)[/D(D)] */
        if (sep == '.' || (n > 1 && len[1] > 2) || (n > 2 && len[2] > 2)) {
            return -1;
        }
        if (n == 3 && sep == '/') {
            /* People write YYYY/DD/MM too: only a day over 12 says
             * which is which. */
            *told = JR_ORDER_AFTER_YEAR(v[1] > 12 ? JR_ORDER_DAY
                                        : v[2] > 12 ? JR_ORDER_MONTH : 0);
            if (v[1] > 12 && v[2] >= 1 && v[2] <= 12) {
                *out = iso(v[0], v[2], v[1], p);
                return *out ? 0 : -1;
            }
            if (v[1] >= 1 && v[1] <= 12 && v[2] >= 1 && v[2] <= 12
                && v[1] != v[2]) {
                return by_order(out, v[0], v[2], v[1], order >> 2, p);
            }
        }
        if (n == 3) {
            return day_or_month(out, v[0], v[1], v[2], p);
        }
        *out = iso(v[0], n > 1 ? v[1] : -1, -1, p);
        return *out ? 0 : -1;
    }
    if (len[0] > 2 || len[n - 1] != 4 || (n == 3 && len[1] > 2)) {
        return -1;
    }
    if (n == 2) {               /* MM/YYYY, MM-YYYY, MM.YYYY */
        *out = iso(v[1], v[0], -1, p);
        return *out ? 0 : -1;
    }
    *told = v[0] > 12 ? JR_ORDER_DAY : v[1] > 12 ? JR_ORDER_MONTH : 0;
    if (sep == '.') {           /* DD.MM.YYYY: never month first */
        return day_or_month(out, v[2], v[1], v[0], p);
    }
    if (v[0] > 12 && v[1] >= 1 && v[1] <= 12) {
        return day_or_month(out, v[2], v[1], v[0], p);
    }
    if (v[1] > 12 && v[0] >= 1 && v[0] <= 12) {
        return day_or_month(out, v[2], v[0], v[1], p);
    }
    if (v[0] >= 1 && v[0] <= 12 && v[0] == v[1]) {
        *out = iso(v[2], v[0], v[1], p);
        return *out ? 0 : -1;
    }
    return v[0] >= 1 && v[0] <= 12 && v[1] >= 1 && v[1] <= 12
           ? by_order(out, v[2], v[0], v[1], order, p) : -1;
}

/* Month names: a year, a month name, perhaps a day, in any order, with
 * "de", "del", "of", "the" and commas left out ("1 dic. 2013",
 * "diciembre de 2013", "March 3rd, 2020", "1. April 2017").  `s` is
 * folded. */
static int named_date(const char **out, const char *s, apr_pool_t *p)
{
    char *copy = apr_pstrdup(p, s), *last, *w, *e;
    int year = -1, month = -1, day = -1, nd, v;
    const char *d;

    for (w = apr_strtok(copy, " ,-/", &last); w;
         w = apr_strtok(NULL, " ,-/", &last)) {
        if (strcmp(w, "de") == 0 || strcmp(w, "del") == 0
            || strcmp(w, "of") == 0 || strcmp(w, "the") == 0) {
            continue;
        }
        if (apr_isdigit(*w)) {
            d = w;
            if ((v = number(&d, 4, &nd)) < 0) {
                return -1;
            }
            e = (char *)d;
            if (nd == 4 && *e == '\0' && year < 0) {
                year = v;
            }
            else if (nd <= 2 && day < 0
                     && (strcmp(e, "") == 0 || strcmp(e, ".") == 0
                         || strcmp(e, "st") == 0 || strcmp(e, "nd") == 0
                         || strcmp(e, "rd") == 0 || strcmp(e, "th") == 0
                         || strcmp(e, "er") == 0)) {
                day = v;
            }
            else {
                return -1;
            }
        }
        else if (month < 0 && (v = month_of(w)) > 0) {
            month = v;
        }
        else {
            return -1;
        }
    }
    if (year < 0 || month < 0 || day == 0) {
        return -1;
    }
    return day_or_month(out, year, month, day, p);
}

static int is_present(const char *folded)
{
    int i;

    for (i = 0; present_words[i]; i++) {
        if (strcmp(present_words[i], folded) == 0) {
            return 1;
        }
    }
    return 0;
}

int pc_jr_is_now(const char *text, apr_pool_t *p)
{
    return is_present(pc_jr_fold(text, p));
}

/* The length of s without a final remark in parentheses ("Present
 * (part-time)", "2019 (approx.)"), its spaces trimmed; 0 when it has
 * none. */
static size_t before_remark(const char *s)
{
    size_t n = strlen(s);
    const char *open;

    if (n < 3 || s[n - 1] != ')' || (open = strrchr(s, '(')) == NULL) {
        return 0;
    }
    n = (size_t)(open - s);
    while (n > 0 && s[n - 1] == ' ') {
        n--;
    }
    return n;
}

static int read_folded(const char **iso_out, const char *f, int end,
                       int order, int *told, apr_pool_t *p)
{
    int rv;

    if (is_present(f)) {
        return end ? 0 : -3;
    }
    if (!apr_isdigit(*f)
        || (rv = numeric_date(iso_out, f, order, told, p)) == -1) {
        rv = named_date(iso_out, f, p);
    }
    if (rv < 0 || *iso_out == NULL) {
        *iso_out = "";
        return rv < 0 ? rv : -1;
    }
    return rv;
}

int pc_jr_read_date(const char **iso_out, const char *text, int end,
                    apr_pool_t *p)
{
    int told;

    return pc_jr_read_date_in(iso_out, text, end, 0, &told, p);
}

int pc_jr_read_date_in(const char **iso_out, const char *text, int end,
                       int order, int *told, apr_pool_t *p)
{
    const char *f = pc_jr_fold(text, p);
    size_t n;
    int rv;

    *iso_out = "";
    *told = 0;
    if (!*f) {
        /* Blank is no date; what folds to nothing (a lone accent) is
         * not one. */
        while (apr_isspace(*text)) {
            text++;
        }
        return *text ? -1 : 0;
    }
    rv = read_folded(iso_out, f, end, order, told, p);
    if (rv == -1 && !end) {
        /* "Depuis 2023": a start, the role ongoing (its end says so). */
        for (n = 0; since_words[n]; n++) {
            size_t w = strlen(since_words[n]);

            if (strncmp(f, since_words[n], w) == 0 && f[w]) {
                rv = read_folded(iso_out, f + w, end, order, told, p);
                rv = rv >= 0 ? rv | JR_DATE_SINCE : rv;
                break;
            }
        }
    }
    if (rv == -1 && (n = before_remark(f)) > 0) {
        /* "Present (part-time)": the date, and a remark a reader
         * takes as one. */
        rv = read_folded(iso_out, apr_pstrmemdup(p, f, n), end, order,
                         told, p);
        if (rv >= 0) {
            rv |= JR_DATE_REMARK;
        }
    }
    return rv;
}
