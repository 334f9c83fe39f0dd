/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_etag.c -- strong ETags: "p1-" and the first 16 hex digits
 * of the SHA-1 of a body's bytes; a collection's, whole or
 * filtered, from its elements' SHA-1s (profile_etag_joined).  Changing
 * this changes every ETag a client holds.
 *
 * Pure core: no httpd headers.
 */
#include <limits.h>
#include <string.h>

#include <apr_sha1.h>

#include "profile_etag.h"

/* "\"p1-" + the first 16 hex digits of a digest + "\"" into
 * etag[PROFILE_ETAG_SIZE]. */
static void etag_of_digest(char *etag, const unsigned char *digest)
{
    static const char hex[] = "0123456789abcdef";
    int i;

    memcpy(etag, "\"p1-", 4);
    for (i = 0; i < 8; i++) {
        etag[4 + 2 * i] = hex[digest[i] >> 4];
        etag[5 + 2 * i] = hex[digest[i] & 0xF];
    }
    etag[20] = '"';
    etag[21] = '\0';
}

void profile_etag_into(char *etag, unsigned char *sha1, const char *s,
                       apr_size_t len)
{
    unsigned char digest[APR_SHA1_DIGESTSIZE];
    apr_sha1_ctx_t ctx;

    apr_sha1_init(&ctx);
    /* APR takes an unsigned length: larger bodies go in chunks. */
    while (len > 0) {
        unsigned n = len > UINT_MAX ? UINT_MAX : (unsigned)len;

        apr_sha1_update_binary(&ctx, (const unsigned char *)s, n);
        s += n;
        len -= n;
    }
    apr_sha1_final(digest, &ctx);
    etag_of_digest(etag, digest);
    if (sha1 != NULL) {
        memcpy(sha1, digest, APR_SHA1_DIGESTSIZE);
    }
}

const char *profile_etag_joined(const profile_body_t *const *bodies, int n,
                                apr_pool_t *p)
{
    unsigned char digest[APR_SHA1_DIGESTSIZE];
    apr_sha1_ctx_t ctx;
    char *etag = apr_palloc(p, PROFILE_ETAG_SIZE);
    int i;

    apr_sha1_init(&ctx);
    apr_sha1_update(&ctx, "[", 1);
    for (i = 0; i < n; i++) {
        apr_sha1_update_binary(&ctx, bodies[i]->sha1, APR_SHA1_DIGESTSIZE);
    }
    apr_sha1_final(digest, &ctx);
    etag_of_digest(etag, digest);
    return etag;
}

const char *profile_etag(const char *s, apr_size_t len, apr_pool_t *p)
{
    char *etag = apr_palloc(p, PROFILE_ETAG_SIZE);

    profile_etag_into(etag, NULL, s, len);
    return etag;
}
