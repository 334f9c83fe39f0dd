/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_text.c -- UTF-8 validation, trimming and caseless matching.
 *
 * Unicode data (composition, case folding) comes from utf8proc; this file
 * holds no Unicode tables of its own.  Pure core: no httpd headers.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <utf8proc.h>

#include "profile_text.h"

int profile_utf8_valid(const char *s, apr_size_t len)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    utf8proc_ssize_t left = (utf8proc_ssize_t)len;
    utf8proc_int32_t cp;

    while (left > 0) {
        utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
        if (n <= 0 || cp < 0) {
            return 0;
        }
        p += n;
        left -= n;
    }
    return 1;
}

apr_size_t profile_utf8_count(const char *s, apr_size_t len)
{
    apr_size_t i, n = 0;

    for (i = 0; i < len; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            n++;
        }
    }
    return n;
}

static int is_trim_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'
           || c == '\v';
}

void profile_text_trim(const char **s, apr_size_t *len)
{
    const char *b = *s;
    apr_size_t n = *len;

    while (n > 0 && is_trim_space(b[0])) {
        b++;
        n--;
    }
    while (n > 0 && is_trim_space(b[n - 1])) {
        n--;
    }
    *s = b;
    *len = n;
}

int profile_text_has_control(const char *s, apr_size_t len)
{
    apr_size_t i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F) {
            return 1;
        }
    }
    return 0;
}

const char *profile_text_fold(const char *s, apr_size_t len, apr_pool_t *p)
{
    utf8proc_uint8_t *mapped = NULL;
    utf8proc_ssize_t n;
    const char *key;

    if (memchr(s, '\0', len) != NULL) {
        return NULL;
    }
    n = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len,
                     &mapped,
                     UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
    if (n < 0) {
        return NULL;
    }
    key = apr_pstrmemdup(p, (const char *)mapped, (apr_size_t)n);
    free(mapped);
    return key;
}

int profile_text_contains(const char *hay, const char *needle)
{
    /* Both keys are UTF-8, which is self-synchronising: a byte match is a
     * code point match. */
    return strstr(hay, needle) != NULL;
}

const char *profile_text_printable(const char *s, apr_size_t len,
                                   apr_size_t max, apr_pool_t *p)
{
    char *out = apr_palloc(p, len * 3 + 4);
    char *o = out;
    apr_size_t i = 0, count = 0;
    static const char hex[] = "0123456789ABCDEF";

    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        utf8proc_int32_t cp;
        utf8proc_ssize_t n;

        if (count == max) {
            memcpy(o, "...", 3);
            o += 3;
            break;
        }
        n = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                             (utf8proc_ssize_t)(len - i), &cp);
        if (n <= 0 || cp < 0x20 || cp == 0x7F) {
            *o++ = '%';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 0xF];
            i++;
        }
        else {
            memcpy(o, s + i, (apr_size_t)n);
            o += n;
            i += (apr_size_t)n;
        }
        count++;
    }
    *o = '\0';
    return out;
}
