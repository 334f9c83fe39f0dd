/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_args.c -- the module's directive values, the API base of a
 * URL and httpd's command line, parsed (profile_args.h).
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <apr_uri.h>

#include "profile_args.h"

int profile_args_origin(const char *s)
{
    apr_pool_t *p;
    apr_uri_t u;
    const char *c;
    int ok;

    /* No white space, control character or wildcard anywhere. */
    for (c = s; *c; c++) {
        if (apr_isspace(*c) || apr_iscntrl(*c) || *c == '*') {
            return 0;
        }
    }
    if (apr_pool_create(&p, NULL) != APR_SUCCESS) {
        return 0;
    }
    /* scheme "://" host [":" port] and nothing else (RFC 6454). */
    ok = apr_uri_parse(p, s, &u) == APR_SUCCESS && u.scheme != NULL
         && strncmp(s + strlen(u.scheme), "://", 3) == 0
         && u.hostname != NULL && *u.hostname != '\0' && u.user == NULL
         && u.password == NULL && (u.path == NULL || *u.path == '\0')
         && u.query == NULL && u.fragment == NULL;
    apr_pool_destroy(p);
    return ok;
}

int profile_args_seconds(int *out, const char *s)
{
    char *end;
    apr_int64_t v;

    if (!apr_isdigit(s[0])) {
        return -1;
    }
    v = apr_strtoi64(s, &end, 10);
    if (*end != '\0' || v < 0 || v > 2147483647) {
        return -1;
    }
    *out = (int)v;
    return 0;
}

int profile_args_size(apr_off_t *out, const char *s)
{
    apr_int64_t v, unit = 1;
    char *end;

    v = apr_isdigit(s[0]) ? apr_strtoi64(s, &end, 10) : -1;
    if (v > 0 && *end != '\0' && end[1] == '\0') {
        switch (apr_toupper(*end)) {
        case 'K': unit = 1024; end++; break;
        case 'M': unit = 1024 * 1024; end++; break;
        case 'G': unit = 1024 * 1024 * 1024; end++; break;
        }
    }
    if (v <= 0 || *end != '\0' || v > PROFILE_MAX_DATA_SIZE_CAP / unit) {
        return -1;
    }
    *out = (apr_off_t)(v * unit);
    return 0;
}

int profile_args_data_option(int *bad, int *compress, const char *s)
{
    int *opt = strncasecmp(s, "bad=", 4) == 0 ? bad
               : strncasecmp(s, "compress=", 9) == 0 ? compress : NULL;
    const char *v = opt ? strchr(s, '=') + 1 : "";

    if (opt == NULL || *opt != -1) {
        return -1;
    }
    *opt = opt == bad
           ? (!strcasecmp(v, "refuse") ? 1 : !strcasecmp(v, "keep") ? 0 : -2)
           : (!strcasecmp(v, "on") ? 1 : !strcasecmp(v, "off") ? 0 : -2);
    if (*opt == -2) {
        *opt = -1;
        return -2;
    }
    return 0;
}

const char *profile_args_below(const char *uri, const char *base)
{
    apr_size_t n = strlen(base);

    return strncmp(uri, base, n) == 0 && (uri[n] == '/' || uri[n] == '\0')
           ? uri + n : NULL;
}

const char *profile_args_base(const char *path, apr_pool_t *p)
{
    apr_size_t n = strlen(path);

    while (n > 0 && path[n - 1] == '/') {
        n--;
    }
    return apr_pstrmemdup(p, path, n);
}

int profile_args_stop(const char *argv, apr_size_t n)
{
    const char *prev = "";
    apr_size_t i;

    for (i = 0; i < n; i += strlen(argv + i) + 1) {
        const char *a = argv + i;
        const char *k = strcmp(prev, "-k") == 0 ? a
                        : strncmp(a, "-k", 2) == 0 && a[2] ? a + 2 : NULL;

        if (k != NULL && (strcmp(k, "stop") == 0
                          || strcmp(k, "graceful-stop") == 0)) {
            return 1;
        }
        prev = a;
    }
    return 0;
}

/* Whether `s` is a page's public URL, or with path_ok a URL path too. */
static int page_url(const char *s, int path_ok)
{
    apr_pool_t *p;
    apr_uri_t u;
    int ok;

    if (*s == '\0' || strpbrk(s, " \t\"'<>\\`") != NULL
        || (s[0] == '/' && s[1] == '/')) {
        return 0;
    }
    if (apr_pool_create(&p, NULL) != APR_SUCCESS) {
        return 0;
    }
    ok = apr_uri_parse(p, s, &u) == APR_SUCCESS && u.query == NULL
         && u.fragment == NULL && u.user == NULL && u.password == NULL
         && (u.scheme == NULL
             ? path_ok && s[0] == '/'
             : (strcasecmp(u.scheme, "https") == 0
                || strcasecmp(u.scheme, "http") == 0)
               && u.hostname != NULL && *u.hostname != '\0'
               && (u.path == NULL || u.path[0] == '/'));
    apr_pool_destroy(p);
    return ok;
}

const char *profile_args_page_option(const char **out, const char *name,
                                     const char *value, apr_pool_t *p)
{
    int assets = strcmp(name, "assets") == 0;

    if (*out != NULL) {
        return apr_psprintf(p, "ProfileData: %s= given twice", name);
    }
    if (!page_url(value, assets)) {
        return apr_psprintf(p, "ProfileData: %s=%s: expected %s", name,
                            value, assets
                            ? "a URL path or an absolute http or https URL "
                              "of the page's static files "
                              "(assets=/profile-assets/)"
                            : "the page's absolute http or https URL "
                              "(url=https://example.org/profile/)");
    }
    *out = value[strlen(value) - 1] == '/' ? value
           : apr_pstrcat(p, value, "/", NULL);
    return NULL;
}

const char *profile_args_page_base(const char *scheme, const char *host,
                                   unsigned port, const char *base,
                                   apr_pool_t *p)
{
    unsigned dflt = strcasecmp(scheme, "https") == 0 ? 443 : 80;

    if (strchr(host, ':') != NULL && host[0] != '[') {
        host = apr_pstrcat(p, "[", host, "]", NULL);     /* IPv6 */
    }
    /* (A base never ends in "/": no "//".) */
    return apr_psprintf(p, "%s://%s%s%s/", scheme, host,
                        port && port != dflt ? apr_psprintf(p, ":%u", port)
                        : "", base ? base : "");
}

const char *profile_args_section_applies(const char *section,
                                         const char *location,
                                         const char *base)
{
    apr_size_t n;

    if (section == NULL) {
        return "server";
    }
    /* The module's URLs name no file: no <Directory> or <Files> section
     * applies to them (mod_profile.c, translate_name). */
    if (strstr(section, "<Directory") != NULL
        || strstr(section, "<Files") != NULL) {
        return NULL;
    }
    if (location == NULL || strstr(section, "<If") != NULL
        || strstr(section, "<Else") != NULL) {
        return "regex or <If>";
    }
    if (base == NULL) {
        return "may apply";
    }
    n = strlen(location);
    if (strncmp(base, location, n) == 0) {
        return "encloses";
    }
    return strncmp(location, base, strlen(base)) == 0 ? "nested" : NULL;
}
