/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_hdr.h -- the RFC 9110 list syntax shared by Accept and
 * Accept-Language: comma-separated elements, each a token with optional
 * ";name=value" parameters, one of which may be the weight "q".
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_HDR_H
#define PROFILE_HDR_H

#include <apr.h>

typedef struct {
    const char *token;      /* start of the element's token */
    apr_size_t token_len;   /* its length, trailing white space excluded */
    int q;                  /* weight in thousandths (0-1000); 1000 if absent */
    int has_params;         /* a parameter other than q was present */
    int malformed;          /* bad q value or broken parameter syntax */
} profile_hdr_elem_t;

/* Reads the next non-empty element of the list at *cursor and advances
 * *cursor past it.  Returns 0 when the list holds no more elements. */
int profile_hdr_next(const char **cursor, profile_hdr_elem_t *elem);

/* Parses an RFC 9110 qvalue ("0", "0.5", "1.000"...) from s[0..len).
 * Returns the weight in thousandths, or -1 when malformed. */
int profile_hdr_qvalue(const char *s, apr_size_t len);

#endif
