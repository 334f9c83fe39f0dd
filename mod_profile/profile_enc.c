/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_enc.c -- Accept-Encoding negotiation and the compressed forms
 * of representations (rendered once, at load time).
 *
 * Pure core: no httpd headers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_strings.h>
#include <brotli/encode.h>
#include <zlib.h>

#include "profile_enc.h"
#include "profile_hdr.h"

const char *const profile_enc_names[PROFILE_ENC_COUNT] = {
    "identity", "gzip", "br"
};

static int token_is(const profile_hdr_elem_t *e, const char *name)
{
    apr_size_t n = strlen(name);

    return e->token_len == n && apr_cstr_casecmpn(e->token, name, n) == 0;
}

profile_enc_e profile_enc_choose(const char *ae, unsigned available)
{
    /* Explicit weights in thousandths; -1: not named. */
    int q[PROFILE_ENC_COUNT] = {-1, -1, -1};
    int star = -1, best = PROFILE_ENC_IDENTITY, best_q = 0, enc;
    profile_hdr_elem_t e;
    const char *cursor = ae;

    if (ae == NULL) {
        return PROFILE_ENC_IDENTITY;
    }
    while (profile_hdr_next(&cursor, &e)) {
        int *slot;

        if (e.malformed) {
            continue;
        }
        slot = token_is(&e, "br") ? &q[PROFILE_ENC_BR]
               : token_is(&e, "gzip") || token_is(&e, "x-gzip")
                 ? &q[PROFILE_ENC_GZIP]
               : token_is(&e, "identity") ? &q[PROFILE_ENC_IDENTITY]
               : token_is(&e, "*") ? &star : NULL;
        if (slot != NULL && e.q > *slot) {
            *slot = e.q;
        }
    }
    /* br before gzip on equal weights: the smaller body. */
    for (enc = PROFILE_ENC_BR; enc > PROFILE_ENC_IDENTITY; enc--) {
        int w = q[enc] >= 0 ? q[enc] : star >= 0 ? star : 0;

        if ((available & (1u << enc)) && w > best_q) {
            best = enc;
            best_q = w;
        }
    }
    /* identity wins only when it is named (or "*" stands for it) with a
     * higher weight than every coding on offer. */
    if (best != PROFILE_ENC_IDENTITY) {
        int w = q[PROFILE_ENC_IDENTITY] >= 0 ? q[PROFILE_ENC_IDENTITY]
                : star >= 0 ? star : -1;

        if (w > best_q) {
            best = PROFILE_ENC_IDENTITY;
        }
    }
    return (profile_enc_e)best;
}

#define BR_SMALL (64 * 1024)

/* The base-2 logarithm of the smallest power of two >= n, within
 * [lo, hi]. */
static int bits_for(apr_size_t n, int lo, int hi)
{
    int bits = lo;

    while (bits < hi && ((apr_size_t)1 << bits) < n) {
        bits++;
    }
    return bits;
}

/* gzip (RFC 1952) through zlib: window bits + 16 selects the gzip
 * wrapper, whose header holds no file name or time.  Window and hash
 * sizes follow the input, so a small body does not pay for setting up
 * (and clearing) the tables of a large one. */
static int gzip_compress(char *out, apr_size_t *out_len, int level,
                         const char *src, apr_size_t len)
{
    z_stream zs;
    int rc, wbits = bits_for(len, 9, 15);
    int mem = bits_for(len, 7, 16) - 7;

    /* zlib counts in uInt: a larger body is not compressed (and is
     * served as it is) rather than cut short. */
    if (len > UINT_MAX || *out_len > UINT_MAX) {
        return 0;
    }
    memset(&zs, 0, sizeof(zs));
    if (deflateInit2(&zs, level == PROFILE_ENC_LEVEL_BEST ? 9 : 6,
                     Z_DEFLATED, wbits + 16, mem < 1 ? 1 : mem,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        return 0;
    }
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)len;
    zs.next_out = (Bytef *)out;
    zs.avail_out = (uInt)*out_len;
    rc = deflate(&zs, Z_FINISH);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return rc == Z_STREAM_END;
}

/* brotli's best level for a body: quality 10 with literal context
 * modelling off.  Measured on the sample's bodies (0.3-3.7 KB,
 * docs/performance.md): quality 11 costs 7-38 M instructions a body
 * (most of it fixed cost of the context modelling and block splitting),
 * quality 10 without context modelling 1-8 M, for bytes within 2 % of
 * quality 11's, while qualities 5-9 lose 13 %.  The size hint and a
 * window no larger than the body keep the tables small. */
static int br_best(char *out, size_t *out_len, const char *src,
                   apr_size_t len, int lgwin)
{
    BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    const uint8_t *next_in = (const uint8_t *)src;
    uint8_t *next_out = (uint8_t *)out;
    size_t avail_in = len, avail_out = *out_len;
    int ok;

    if (s == NULL) {
        return 0;
    }
    ok = BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, 10)
         && BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, (uint32_t)lgwin)
         && BrotliEncoderSetParameter(s, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT)
         && BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT,
                                      (uint32_t)len)
         && BrotliEncoderSetParameter(s,
                            BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING, 1)
         && BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH,
                                        &avail_in, &next_in, &avail_out,
                                        &next_out, NULL)
         && BrotliEncoderIsFinished(s);
    BrotliEncoderDestroyInstance(s);
    if (ok) {
        *out_len -= avail_out;
    }
    return ok;
}

static int br_compress(char *out, apr_size_t *out_len, int level,
                       const char *src, apr_size_t len)
{
    size_t n = *out_len;
    /* A window no larger than the input keeps the encoder's tables (and
     * its time) small for small bodies. */
    int lgwin = bits_for(len, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS);

    if (len > UINT32_MAX) {
        return 0;
    }
    if (level == PROFILE_ENC_LEVEL_BEST) {
        if (!br_best(out, &n, src, len, lgwin)) {
            return 0;
        }
    }
    /* Beyond the best level, the quality follows the size: on small
     * bodies brotli's fixed cost per call dominates, and quality 1 costs
     * a quarter of quality 5 for a few percent of size. */
    else if (!BrotliEncoderCompress(len < BR_SMALL ? 1 : 5, lgwin,
                                    BROTLI_MODE_TEXT, len,
                                    (const uint8_t *)src, &n,
                                    (uint8_t *)out)) {
        return 0;
    }
    *out_len = n;
    return 1;
}

char *profile_enc_compress(apr_size_t *out_len, profile_enc_e enc,
                           int level, const char *src, apr_size_t len)
{
    /* Only a result smaller than the input is worth keeping, so the
     * buffer needs no more room than the input. */
    apr_size_t n = len;
    char *out = len > 0 ? malloc(len) : NULL;
    int ok = 0;

    if (out != NULL) {
        ok = enc == PROFILE_ENC_GZIP ? gzip_compress(out, &n, level, src, len)
             : enc == PROFILE_ENC_BR ? br_compress(out, &n, level, src, len)
             : 0;
    }
    if (!ok || n >= len) {
        free(out);
        *out_len = 0;
        return NULL;
    }
    *out_len = n;
    return out;
}
