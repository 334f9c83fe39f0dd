/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_etag.h -- strong ETags: "p1-" and the first 16 hex digits of
 * a SHA-1, of a body's bytes or, for a collection, of its elements'
 * SHA-1s.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_ETAG_H
#define PROFILE_ETAG_H

#include <apr_pools.h>

#include "profile_store.h"

/* Bytes of a quoted ETag with its NUL: "\"p1-" + 16 hex digits + "\"". */
#define PROFILE_ETAG_SIZE 22

/* The strong ETag of s[0..len): a quoted hash of the bytes. */
const char *profile_etag(const char *s, apr_size_t len, apr_pool_t *p);

/* The strong ETag of "[" + the n bodies joined by "," + "]" (a
 * collection, whole or filtered), computed from the elements' SHA-1s,
 * which stand for their bytes: the same elements give the same ETag,
 * whichever filter chose them, and no request hashes whole bodies. */
const char *profile_etag_joined(const profile_body_t *const *bodies, int n,
                                apr_pool_t *p);

/* profile_etag() into etag[PROFILE_ETAG_SIZE], and the SHA-1 into
 * sha1[20] unless it is NULL; allocates nothing (the loader's threads
 * call it). */
void profile_etag_into(char *etag, unsigned char *sha1, const char *s,
                       apr_size_t len);

#endif
