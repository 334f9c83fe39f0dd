/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_url.c -- the rule for the data file's links (CONTRACT §9):
 * empty, or an absolute URL of the scheme https, http, mailto or tel.
 * APR's URI parser (apr_uri_parse, RFC 3986) reads the scheme and the
 * host; only the allow-list, the characters refused and what each
 * scheme needs are said here; what follows is the page's.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_cstr.h>
#include <apr_strings.h>
#include <apr_uri.h>

#include "profile_url.h"

static const char *const allowed[] = {"https", "http", "mailto", "tel",
                                      NULL};

/* Whether s[0..len) holds a space, a control character (NUL included)
 * or DEL. */
static int bad_char(const char *s, apr_size_t len)
{
    apr_size_t i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c <= 0x20 || c == 0x7F) {
            return 1;
        }
    }
    return 0;
}

profile_url_e profile_url_check(const char *s, apr_size_t len)
{
    apr_pool_t *p;
    apr_uri_t u;
    apr_status_t rv;
    profile_url_e why;
    int k;

    if (len == 0) {
        return PROFILE_URL_OK;
    }
    if (apr_pool_create(&p, NULL) != APR_SUCCESS) {
        return PROFILE_URL_BAD_CHAR;    /* (no memory: refused) */
    }
    /* APR's RFC 3986 parser; an embedded NUL ends its copy, and makes
     * the whole a bad character below. */
    rv = apr_uri_parse(p, apr_pstrmemdup(p, s, len), &u);
    for (k = 0; u.scheme != NULL && allowed[k]; k++) {
        if (apr_cstr_casecmp(u.scheme, allowed[k]) == 0) {
            break;
        }
    }
    why = u.scheme == NULL ? PROFILE_URL_RELATIVE
          : allowed[k] == NULL ? PROFILE_URL_SCHEME
          : bad_char(s, len) ? PROFILE_URL_BAD_CHAR
          : k >= 2 ? (len > strlen(u.scheme) + 1 ? PROFILE_URL_OK
                                                 : PROFILE_URL_NO_TARGET)
          : rv != APR_SUCCESS || u.hostname == NULL || *u.hostname == '\0'
            || strncmp(s + strlen(u.scheme), "://", 3) != 0
            ? PROFILE_URL_NO_HOST : PROFILE_URL_OK;
    apr_pool_destroy(p);
    return why;
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
