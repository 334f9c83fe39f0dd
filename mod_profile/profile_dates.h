/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_dates.h -- a record's dates (CONTRACT §9: `start`, `end`, YYYY
 * or YYYY-MM) and the period each language writes from them
 * (profile_dates.c), for the module and profilectl alike.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_DATES_H
#define PROFILE_DATES_H

#include <apr_pools.h>
#include <jansson.h>

/* A language's date words. */
typedef struct {
    const char *lang;
    const char *months[12];     /* abbreviated, as a period writes them */
    const char *present;        /* the open end: "present", "actualidad" */
} profile_date_words_t;

/* The date words of `lang` (a primary tag, any case), or NULL: the module
 * writes periods in en, es, de, fr and pt. */
const profile_date_words_t *profile_date_words(const char *lang);

/* Non-zero when `s` is YYYY or YYYY-MM (month 01 to 12). */
int profile_date_valid(const char *s);

/* Compares two valid dates: < 0, 0 or > 0 as a is before, within or
 * after b (a year alone is within each of its months). */
int profile_date_cmp(const char *a, const char *b);

/* The period from valid dates `start` and `end` (NULL: ongoing) as
 * language `lang` writes it ("Mar 2021 – present", "2019 – 2021",
 * "Mar 2021" when both are the same), or NULL when the module has no
 * date words in `lang`. */
const char *profile_date_period(const char *start, const char *end,
                                const char *lang, apr_pool_t *p);

/* Writes, into the validated tree `root` declaring `langs`, the period
 * of each experience record that gives a start and no period: one text
 * per language the module has date words for (the validator made sure
 * the others have a fallback that has them). */
void profile_date_periods(json_t *root, const char *const *langs,
                          int nlangs);

#endif
