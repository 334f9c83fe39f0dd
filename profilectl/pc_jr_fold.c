/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jr_fold.c -- text folded for comparison by the JSON Resume import:
 * the one use of utf8proc in profilectl, shared by the date reader
 * (month names with or without accents) and the ids it makes (slugs).
 * Linked alone beside pc_jr_dates.c into the date fuzzer.
 */
#include <stdlib.h>

#include <apr_pools.h>
#include <apr_strings.h>
#include <utf8proc.h>

#include "pc_jr.h"

const char *pc_jr_unaccent(const char *s, apr_pool_t *p)
{
    utf8proc_uint8_t *folded = NULL;
    const char *out = s;

    if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &folded,
                     UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPAT
                     | UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK
                     | UTF8PROC_CASEFOLD) >= 0) {
        out = apr_pstrdup(p, (const char *)folded);
    }
    free(folded);
    return out;
}
