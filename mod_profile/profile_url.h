/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_url.h -- which strings the data file's links may hold
 * (CONTRACT §9): `url`, `companyUrl` and `institutionUrl` are empty or
 * absolute URLs of the schemes https, http, mailto or tel, because a
 * page renders them as links.  The one owner of that rule: the
 * validator (profile_validate.c) refuses a file by it, and profilectl's
 * imports leave out what it refuses.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_URL_H
#define PROFILE_URL_H

#include <apr.h>

/* The schemes, as messages name them. */
#define PROFILE_URL_SCHEMES "https, http, mailto or tel"

typedef enum {
    PROFILE_URL_OK,             /* empty, or an allowed absolute URL */
    PROFILE_URL_RELATIVE,       /* no scheme: "/about", "//host/x",
                                 * "example.com" */
    PROFILE_URL_SCHEME,         /* another scheme: "javascript:",
                                 * "data:", "ftp:" */
    PROFILE_URL_NO_HOST,        /* https or http without "//" and a
                                 * host: "https:/x", "https://" */
    PROFILE_URL_NO_TARGET,      /* "mailto:" or "tel:" with nothing
                                 * after the colon */
    PROFILE_URL_BAD_CHAR        /* a space or an ASCII control
                                 * character (NUL included) */
} profile_url_e;

/* Judges s[0..len).  The scheme is compared case-insensitively (RFC
 * 3986 §3.1); nothing is decoded or rewritten. */
profile_url_e profile_url_check(const char *s, apr_size_t len);

/* Why `why` (not PROFILE_URL_OK) is refused, for the end of a message:
 * "" for a relative URL or another scheme (the message's list of
 * schemes says it), else " (no host after \"//\")" and the like. */
const char *profile_url_why(profile_url_e why);

#endif
