/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_url.c -- the rule for the data file's links (CONTRACT §9):
 * empty, or an absolute URL of the scheme https, http, mailto or tel.
 * Only the parts the rule needs are read (RFC 3986: the scheme, and for
 * https and http the authority's host); what follows is the page's.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_cstr.h>

#include "profile_url.h"

static const char *const allowed[] = {"https", "http", "mailto", "tel",
                                      NULL};

/* Non-zero when the authority a[0..n) (after "//") has a host: what is
 * left without the userinfo ("user@") and the port (":443"). */
static int has_host(const char *a, apr_size_t n)
{
    const char *at = NULL, *q;

    for (q = a; q < a + n; q++) {
        if (*q == '@') {
            at = q;
        }
    }
    if (at != NULL) {
        n -= (apr_size_t)(at + 1 - a);
        a = at + 1;
    }
    if (n > 0 && *a == '[') {
        /* An IP literal: "[::1]" has a host, "[]" none. */
        q = memchr(a, ']', n);
        return q != NULL && q > a + 1;
    }
    q = memchr(a, ':', n);
    return (q != NULL ? (apr_size_t)(q - a) : n) > 0;
}

profile_url_e profile_url_check(const char *s, apr_size_t len)
{
    apr_size_t i, k, slen;
    const char *rest;
    apr_size_t rlen;

    if (len == 0) {
        return PROFILE_URL_OK;
    }
    /* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
    if (!apr_isalpha(s[0])) {
        return PROFILE_URL_RELATIVE;
    }
    for (slen = 1; slen < len && (apr_isalnum(s[slen]) || s[slen] == '+'
                                  || s[slen] == '-' || s[slen] == '.');
         slen++) {
    }
    if (slen == len || s[slen] != ':') {
        return PROFILE_URL_RELATIVE;
    }
    for (k = 0; allowed[k]; k++) {
        if (strlen(allowed[k]) == slen
            && apr_cstr_casecmpn(s, allowed[k], slen) == 0) {
            break;
        }
    }
    if (allowed[k] == NULL) {
        return PROFILE_URL_SCHEME;
    }
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c <= 0x20 || c == 0x7F) {
            return PROFILE_URL_BAD_CHAR;
        }
    }
    rest = s + slen + 1;
    rlen = len - slen - 1;
    if (k >= 2) {
        /* mailto:, tel: */
        return rlen > 0 ? PROFILE_URL_OK : PROFILE_URL_NO_TARGET;
    }
    if (rlen < 2 || rest[0] != '/' || rest[1] != '/') {
        return PROFILE_URL_NO_HOST;
    }
    rest += 2;
    rlen -= 2;
    for (i = 0; i < rlen && !strchr("/?#", rest[i]); i++) {
    }
    return has_host(rest, i) ? PROFILE_URL_OK : PROFILE_URL_NO_HOST;
}

const char *profile_url_why(profile_url_e why)
{
    switch (why) {
    case PROFILE_URL_NO_HOST:
        return " (https and http need \"//\" and a host)";
    case PROFILE_URL_NO_TARGET:
        return " (nothing after the colon)";
    case PROFILE_URL_BAD_CHAR:
        return " (it holds a space or a control character)";
    default:
        return "";
    }
}
