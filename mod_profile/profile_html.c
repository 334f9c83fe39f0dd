/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_html.c -- a growing buffer of markup, and the one place a value
 * is escaped for HTML (APR's apr_escape_entity(); characters HTML forbids
 * replaced), for the pages (profile_page.h).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <apr_escape.h>
#include <apr_strings.h>

#include "profile_page.h"
#include "profile_render.h"

/* Room for n more bytes (and a NUL) at b->buf + b->len. */
static void reserve(profile_html_t *b, apr_size_t n)
{
    apr_size_t cap = b->cap ? b->cap : 4096;
    char *nb;

    if (b->len + n + 1 <= b->cap) {
        return;
    }
    while (cap < b->len + n + 1) {
        cap *= 2;
    }
    if ((nb = realloc(b->buf, cap)) == NULL) {
        profile_out_of_memory(b->pool);
    }
    b->buf = nb;
    b->cap = cap;
}

void profile_html_put(profile_html_t *b, const char *s, apr_size_t n)
{
    reserve(b, n);
    memcpy(b->buf + b->len, s, n);
    b->len += n;
}

void profile_html_raw(profile_html_t *b, const char *s)
{
    profile_html_put(b, s, strlen(s));
}

void profile_html_cat(profile_html_t *b, ...)
{
    va_list ap;
    const char *s;

    va_start(ap, b);
    while ((s = va_arg(ap, const char *)) != NULL) {
        profile_html_raw(b, s);
    }
    va_end(ap);
}

/* The characters HTML forbids in text (controls other than white space,
 * DEL): U+FFFD in their place.  Returns s itself when it has none. */
static const char *without_controls(const char *s, apr_pool_t *p)
{
    const unsigned char *c;
    apr_size_t bad = 0;
    char *out, *o;

    for (c = (const unsigned char *)s; *c; c++) {
        bad += (*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r')
               || *c == 0x7f;
    }
    if (bad == 0) {
        return s;
    }
    o = out = apr_palloc(p, strlen(s) + 2 * bad + 1);
    for (c = (const unsigned char *)s; *c; c++) {
        if ((*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r')
            || *c == 0x7f) {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
        }
        else {
            *o++ = (char)*c;
        }
    }
    *o = '\0';
    return out;
}

void profile_html_esc(profile_html_t *b, const char *s)
{
    apr_size_t len = 0;

    s = without_controls(s, b->pool);
    /* &, <, > and " as entities: safe in text and in an attribute,
     * which this file always quotes with ". */
    if (apr_escape_entity(NULL, s, APR_ESCAPE_STRING, 0, &len)
        == APR_NOTFOUND) {
        profile_html_raw(b, s);
        return;
    }
    reserve(b, len);
    apr_escape_entity(b->buf + b->len, s, APR_ESCAPE_STRING, 0, &len);
    b->len += len - 1;                  /* len counts the NUL */
}
