/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_lang.c -- Accept-Language negotiation (RFC 9110 §12.5.4 with
 * RFC 4647 basic-filtering prefix matching), as CONTRACT §4 decides:
 *
 *  - a range matches a language when equal to it, or when it starts with
 *    it followed by "-", case-insensitively ("es-MX" -> "es"); a range
 *    equal to the language outranks the longer ones, which otherwise give
 *    the language the highest weight among them;
 *  - "*" gives its weight to every language no other range names;
 *  - the highest weight wins; ties go to the range listed first, then to
 *    the data file's order; q=0 means "not this one";
 *  - malformed ranges or weights are skipped whole, never an error.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_cstr.h>
#include <apr_strings.h>

#include "profile_hdr.h"
#include "profile_lang.h"

/* A language-range: 1*8ALPHA *("-" 1*8alphanum), or "*". */
static int range_valid(const char *s, apr_size_t len)
{
    apr_size_t i = 0, sub = 0;
    int first = 1;

    if (len == 1 && s[0] == '*') {
        return 1;
    }
    if (len == 0) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        if (s[i] == '-') {
            if (sub == 0) {
                return 0;
            }
            sub = 0;
            first = 0;
            continue;
        }
        if (!(first ? apr_isalpha(s[i]) : apr_isalnum(s[i])) || ++sub > 8) {
            return 0;
        }
    }
    return sub > 0;
}

/* How closely a range names a language: 2 when equal to it ("es"), 1
 * when it starts with it followed by "-" ("es-MX"), 0 when not at all. */
static int range_matches(const char *range, apr_size_t len, const char *lang)
{
    apr_size_t n = strlen(lang);

    if (len < n || apr_cstr_casecmpn(range, lang, n) != 0) {
        return 0;
    }
    return len == n ? 2 : range[n] == '-' ? 1 : 0;
}

int profile_lang_choose(const char *header, const char *const *langs,
                        int nlangs)
{
    /* Per language: the weight the closest naming ranges give it (the
     * highest of them), where that range stands, and how close it is. */
    int weight[PROFILE_LANG_MAX], order[PROFILE_LANG_MAX];
    int named[PROFILE_LANG_MAX];
    int star_q = -1, star_order = 0;
    int i, best = 0, pos = 0;
    profile_hdr_elem_t e;
    const char *cursor = header;

    if (header == NULL || nlangs <= 0) {
        return 0;
    }
    if (nlangs > PROFILE_LANG_MAX) {
        nlangs = PROFILE_LANG_MAX;
    }
    /* The usual header of an API client, one primary language ("es"):
     * without "-" no range can only start with a language, so that
     * language, as the rules below would decide. */
    if (strpbrk(header, "-,; \t") == NULL) {
        for (i = 0; i < nlangs; i++) {
            if (strcasecmp(header, langs[i]) == 0) {
                return i;
            }
        }
    }
    for (i = 0; i < nlangs; i++) {
        weight[i] = -1;
        order[i] = 0;
        named[i] = 0;
    }
    while (profile_hdr_next(&cursor, &e)) {
        pos++;
        if (e.malformed || e.has_params
            || !range_valid(e.token, e.token_len)) {
            continue;
        }
        if (e.token_len == 1 && e.token[0] == '*') {
            if (e.q > star_q) {
                star_q = e.q;
                star_order = pos;
            }
            continue;
        }
        for (i = 0; i < nlangs; i++) {
            int how = range_matches(e.token, e.token_len, langs[i]);

            /* A range naming the language itself outranks ranges that
             * only start with it: "es;q=0, es-MX" does not serve es. */
            if (how > named[i] || (how == named[i] && how > 0
                                   && e.q > weight[i])) {
                named[i] = how;
                weight[i] = e.q;
                order[i] = pos;
            }
        }
    }
    for (i = 0; i < nlangs; i++) {
        if (!named[i] && star_q >= 0) {
            weight[i] = star_q;
            order[i] = star_order;
        }
    }
    best = -1;
    for (i = 0; i < nlangs; i++) {
        if (weight[i] <= 0) {
            continue;
        }
        if (best < 0 || weight[i] > weight[best]
            || (weight[i] == weight[best] && order[i] < order[best])) {
            best = i;
        }
    }
    return best < 0 ? 0 : best;
}
