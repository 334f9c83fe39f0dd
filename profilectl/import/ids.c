/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/ids.c -- the names import-jsonresume makes for the data
 * file: the ids of entries and the kinds of links, from slugs of names.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "import/stages.h"

#define JR_ID_MAX 40                    /* bytes of an id's name part */

/* s folded to lowercase ASCII letters and digits, every other run of
 * characters one '-', none at either end: "Hafenstraße Logistik" ->
 * "hafenstrasse-logistik".  At most max bytes, cut at a '-'. */
static const char *slug(const char *s, size_t max, apr_pool_t *p)
{
    const char *src = pc_jr_unaccent(s, p);
    char *out, *o;
    int dash = 0;

    out = o = apr_palloc(p, strlen(src) + 1);
    for (; *src; src++) {
        if (apr_isalnum(*src) && !(*src & 0x80)) {
            if (dash && o != out) {
                *o++ = '-';
            }
            *o++ = apr_tolower(*src);
            dash = 0;
        }
        else {
            dash = 1;
        }
    }
    *o = '\0';
    if ((size_t)(o - out) > max) {
        out[max] = '\0';
        if ((o = strrchr(out, '-')) != NULL && o - out > (long)max / 2) {
            *o = '\0';
        }
    }
    return out;
}

/* A new id in `taken`: the slug of name (or `fallback`) and the year of
 * date, made unique with -2, -3, ... */
const char *pc_jr_make_id(apr_hash_t *taken, const char *name,
                          const char *date, const char *fallback,
                          apr_pool_t *p)
{
    const char *base = slug(name, JR_ID_MAX, p), *id;
    int n = 2;

    if (!*base) {
        base = fallback;
    }
    if (*date) {
        base = apr_psprintf(p, "%s-%.4s", base, date);
    }
    for (id = base; apr_hash_get(taken, id, APR_HASH_KEY_STRING);
         id = apr_psprintf(p, "%s-%d", base, n++)) {
    }
    apr_hash_set(taken, id, APR_HASH_KEY_STRING, id);
    return id;
}

/* A contact or link kind from a network's name: "Stack Overflow" ->
 * "stack-overflow" ([a-z][a-z0-9-]*). */
const char *pc_jr_kind_of(const char *network, apr_pool_t *p)
{
    const char *k = slug(network, 64, p);

    if (!*k) {
        return "link";
    }
    return apr_isalpha(*k) ? k : apr_pstrcat(p, "net-", k, NULL);
}
