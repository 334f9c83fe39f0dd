/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/fold.c -- text folded for comparison, the one use of utf8proc
 * in profilectl, shared by the date reader (month names with or without
 * accents, common/dates.c), the ids the import makes (slugs) and the
 * texts' keys.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <utf8proc.h>

#include "common/common.h"

/* s folded for comparison: lowercase, accents removed, runs of spaces
 * one space, none at either end. */
const char *pc_jr_fold(const char *s, apr_pool_t *p)
{
    const char *src = pc_jr_unaccent(s, p);
    char *out, *o;

    out = o = apr_palloc(p, strlen(src) + 1);
    for (; *src; src++) {
        if (apr_isspace(*src)) {
            if (o != out && o[-1] != ' ') {
                *o++ = ' ';
            }
        }
        else {
            *o++ = *src;
        }
    }
    if (o != out && o[-1] == ' ') {
        o--;
    }
    *o = '\0';
    return out;
}

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
