/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_text.h -- UTF-8 text helpers of the pure core: validation,
 * code point counting, trimming and caseless matching (NFC + full case
 * folding through utf8proc).
 *
 * Pure core: libc, APR and utf8proc only; never an httpd header.
 */
#ifndef PROFILE_TEXT_H
#define PROFILE_TEXT_H

#include <apr_pools.h>

/* Non-zero when s[0..len) is well-formed UTF-8 (no surrogates, no
 * overlong forms, nothing above U+10FFFF). */
int profile_utf8_valid(const char *s, apr_size_t len);

/* Number of code points in well-formed UTF-8 s[0..len). */
apr_size_t profile_utf8_count(const char *s, apr_size_t len);

/* Narrows [*s, *s + *len) to exclude leading and trailing SP, HTAB, CR,
 * LF, FF and VT (nothing else). */
void profile_text_trim(const char **s, apr_size_t *len);

/* Non-zero when s[0..len) holds U+0000-U+001F or U+007F. */
int profile_text_has_control(const char *s, apr_size_t len);

/* The matching key of well-formed UTF-8 s[0..len): canonically composed
 * (NFC) and fully case folded, allocated from p.  NULL when the text
 * cannot be mapped (it is not valid UTF-8 or holds NUL). */
const char *profile_text_fold(const char *s, apr_size_t len, apr_pool_t *p);

/* Non-zero when folded key `needle` occurs in folded key `hay`. */
int profile_text_contains(const char *hay, const char *needle);

/* A copy of s[0..len) that is safe to put in a message: invalid UTF-8
 * bytes and control characters become %XX, and anything longer than
 * max code points is cut and ends in "...". */
const char *profile_text_printable(const char *s, apr_size_t len,
                                   apr_size_t max, apr_pool_t *p);

#endif
