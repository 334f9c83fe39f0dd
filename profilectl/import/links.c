/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/links.c -- a link as the data file holds it (CONTRACT §9,
 * profile_url.h): what every import writes of a URL, and why it leaves
 * one out.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>

#include "profile_text.h"
#include "import/import.h"

/* Whether u begins with a scheme, "NAME:" (RFC 3986 §3.1).  A name with
 * a dot is a host before its port ("example.com:8080/x"), not a
 * scheme. */
static int has_scheme(const char *u)
{
    const char *s = u;

    if (!apr_isalpha(*s)) {
        return 0;
    }
    while (apr_isalnum(*s) || *s == '+' || *s == '-') {
        s++;
    }
    return *s == ':';
}

const char *pc_jr_link(const char *u, int bare, profile_url_e *why,
                       apr_pool_t *p)
{
    apr_size_t n = strlen(u), host;

    profile_text_trim(&u, &n);
    u = apr_pstrmemdup(p, u, n);
    if (n > 0 && !has_scheme(u)) {
        host = strcspn(u, "/?#");
        if (u[0] == '/' && u[1] == '/') {
            u = apr_pstrcat(p, "https:", u, NULL);
        }
        else if (bare || (apr_isalnum(*u) && memchr(u, '.', host)
                          && !strpbrk(u, " \t"))) {
            u = apr_pstrcat(p, "https://", u, NULL);
        }
    }
    *why = profile_url_check(u, strlen(u));
    return *why == PROFILE_URL_OK ? u : NULL;
}

const char *pc_jr_link_dropped(profile_url_e why)
{
    return why == PROFILE_URL_RELATIVE
           ? "relative" : "not an " PROFILE_URL_SCHEMES " URL";
}
