/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_enc.h -- content codings: choosing one from Accept-Encoding
 * (RFC 9110 §12.5.3) and producing gzip (zlib) and br (libbrotli) forms
 * of a representation at load time.
 *
 * Pure core: libc, APR, zlib and libbrotli only; never an httpd header.
 */
#ifndef PROFILE_ENC_H
#define PROFILE_ENC_H

#include <apr_pools.h>

typedef enum {
    PROFILE_ENC_IDENTITY = 0,
    PROFILE_ENC_GZIP,
    PROFILE_ENC_BR,
    PROFILE_ENC_COUNT
} profile_enc_e;

/* The coding names used in Content-Encoding, by profile_enc_e. */
extern const char *const profile_enc_names[PROFILE_ENC_COUNT];

/* The best coding of those in `available` (a bit mask of 1 << enc;
 * identity is always available) that the Accept-Encoding field value
 * `ae` allows: the highest weight wins, and on equal weights br before
 * gzip before identity.  No field means identity.  When the field rules
 * out every coding, identity is still chosen (RFC 9110 lets a server
 * send it rather than 406).  "x-gzip" counts as gzip; malformed
 * elements are skipped. */
profile_enc_e profile_enc_choose(const char *ae, unsigned available);

/* Compression levels for profile_enc_compress. */
#define PROFILE_ENC_LEVEL_BEST 0    /* gzip 9, br 10 without literal
                                     * context modelling */
#define PROFILE_ENC_LEVEL_FAST 1    /* gzip 6, br 5 (1 below 64 KB) */
/* Data files up to this size are compressed at the strongest level. */
#define PROFILE_ENC_BEST_LIMIT (128 * 1024)

/* Compresses src[0..len) with `enc` (gzip or br) at `level` into a
 * malloc'd buffer the caller frees.  Returns NULL (and *out_len 0) when
 * the result would not be smaller than the input or the compressor
 * failed.  The bytes depend only on the input, enc and level (no time
 * or name in the gzip header), so the same data gives the same ETags. */
char *profile_enc_compress(apr_size_t *out_len, profile_enc_e enc,
                           int level, const char *src, apr_size_t len);

#endif
