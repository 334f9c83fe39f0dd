/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.h -- shared scaffolding of the libFuzzer targets of the pure core.
 *
 * Every target defines FUZZ_NAME, LLVMFuzzerInitialize() and
 * LLVMFuzzerTestOneInput().  Built with clang -fsanitize=fuzzer each is
 * a fuzzer; built with any compiler, all of them and replay.c make one
 * program that replays the corpora.
 * A broken invariant aborts, which libFuzzer reports as a crash.
 */
#ifndef PROFILE_FUZZ_H
#define PROFILE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <brotli/decode.h>
#include <zlib.h>

#include "profile_etag.h"
#include "profile_store.h"

#ifndef PROFILE_SRCDIR
#define PROFILE_SRCDIR "."
#endif

/* The replay program links every target (replay.c): there each target's
 * entry points are fuzz_NAME_initialize() and fuzz_NAME_one_input(), NAME
 * being the FUZZ_NAME the target defines before including this file. */
#ifdef FUZZ_REPLAY
#ifndef FUZZ_NAME
#error "define FUZZ_NAME (the target's name) before including fuzz.h"
#endif
#define FUZZ_JOIN_(a, b, c) a##b##c
#define FUZZ_JOIN(a, b, c) FUZZ_JOIN_(a, b, c)
#define LLVMFuzzerInitialize FUZZ_JOIN(fuzz_, FUZZ_NAME, _initialize)
#define LLVMFuzzerTestOneInput FUZZ_JOIN(fuzz_, FUZZ_NAME, _one_input)
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* pool_malloc.c: non-zero when pool allocations are visible to ASan. */
int fuzz_pool_malloc_active(void);

/* Aborts with a message when `cond` is false. */
#define FUZZ_CHECK(cond, ...) do {                                         \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: invariant broken: %s\n  ", __FILE__,   \
                    __LINE__, #cond);                                      \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
            abort();                                                       \
        }                                                                  \
    } while (0)

/* The process's root pool; each input gets a subpool of it. */
static apr_pool_t *fuzz_root;

static inline void fuzz_init(void)
{
    if (fuzz_root != NULL) {
        return;
    }
    if (apr_initialize() != APR_SUCCESS
        || apr_pool_create(&fuzz_root, NULL) != APR_SUCCESS) {
        fprintf(stderr, "cannot initialise APR\n");
        exit(1);
    }
    atexit(apr_terminate);
    /* Without pool_malloc.c, ASan would not see overflows inside pool
     * blocks. */
    if (!fuzz_pool_malloc_active()) {
        fprintf(stderr, "pool_malloc.c is not interposing apr_palloc\n");
        exit(1);
    }
}

/* data[0..size) as a NUL-terminated string: cut at the first NUL, as
 * httpd's strings would be. */
static inline const char *fuzz_cstr(const uint8_t *data, size_t size,
                                    apr_pool_t *p)
{
    return apr_pstrndup(p, (const char *)data, size);
}

/* The sample data, loaded once as the module loads it: rendered, with
 * its gzip and br forms (FUZZ_DATA overrides the file). */
static inline const profile_store_t *fuzz_sample(void)
{
    static profile_store_t *store;
    const profile_load_opts_t opts = {.render = 1, .compress = 1,
                                      .max_size = 0};
    const char *err = NULL;
    const char *path = getenv("FUZZ_DATA");

    if (store == NULL) {
        fuzz_init();
        if (path == NULL) {
            path = PROFILE_SRCDIR "/data/profile.json";
        }
        if (profile_store_load(&store, &err, path, &opts, fuzz_root)
            != APR_SUCCESS) {
            fprintf(stderr, "cannot load %s: %s\n", path, err);
            exit(1);
        }
    }
    return store;
}

/* Whether body[0..len) is "[" + some of coll's elements in `lang`, in
 * order, joined by "," + "]" (what a filtered answer must be): their
 * number, or -1.  A rendered element is a whole JSON object, never a
 * prefix of another, so taking each one that fits is right.  The
 * elements found are stored in hits[] when it is not NULL (room for
 * coll->nitems). */
static inline int fuzz_walk(const char *body, size_t len,
                            const profile_coll_t *coll, int lang,
                            const profile_body_t **hits)
{
    size_t at = 1;
    int i, n = 0;

    if (len < 2 || body[0] != '[' || body[len - 1] != ']') {
        return -1;
    }
    for (i = 0; i < coll->nitems && at < len - 1; i++) {
        const profile_body_t *b = &coll->items[i].body[lang];
        size_t sep = n > 0;

        if (at + sep + b->len <= len - 1
            && (!sep || body[at] == ',')
            && memcmp(body + at + sep, b->data, b->len) == 0) {
            at += sep + b->len;
            if (hits != NULL) {
                hits[n] = b;
            }
            n++;
        }
    }
    return at == len - 1 ? n : -1;
}

static inline int fuzz_selection(const char *body, size_t len,
                                 const profile_coll_t *coll, int lang)
{
    return fuzz_walk(body, len, coll, lang, NULL);
}

/* The ETag the module gives body[0..len) (CONTRACT §5, README
 * "Validators"): the hash of an object's bytes; for a collection of
 * `coll`, whole or filtered, the hash of its elements' hashes.  NULL when
 * an array body is not a selection of coll's elements in `lang`. */
static inline const char *fuzz_body_etag(const char *body, size_t len,
                                         const profile_coll_t *coll,
                                         int lang, apr_pool_t *p)
{
    const profile_body_t **hits;
    int n;

    if (coll == NULL || len < 2 || body[0] != '[') {
        return profile_etag(body, len, p);
    }
    hits = apr_palloc(p, sizeof(*hits) * (size_t)(coll->nitems + 1));
    n = fuzz_walk(body, len, coll, lang, hits);
    return n >= 0 ? profile_etag_joined(hits, n, p) : NULL;
}

/* The same for a body of any route: an array is matched against every
 * collection of the store. */
static inline int fuzz_etag_ok(const char *etag, const char *body,
                               size_t len, const profile_store_t *st,
                               int lang, apr_pool_t *p)
{
    int k;

    if (len == 0 || body[0] != '[') {
        return strcmp(etag, profile_etag(body, len, p)) == 0;
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const char *want = fuzz_body_etag(body, len, &st->coll[k], lang, p);

        if (want != NULL && strcmp(etag, want) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Non-zero when data[0..len), in content coding `enc` ("gzip" or "br"),
 * decodes to exactly want[0..want_len). */
static inline int fuzz_decodes_to(const char *enc, const char *data,
                                  size_t len, const char *want,
                                  size_t want_len)
{
    unsigned char *out = malloc(want_len + 1);
    size_t out_len = want_len + 1;
    int ok = 0;

    if (out == NULL) {
        abort();
    }
    if (strcmp(enc, "gzip") == 0) {
        z_stream zs;

        memset(&zs, 0, sizeof(zs));
        if (inflateInit2(&zs, 15 + 16) == Z_OK) {
            zs.next_in = (Bytef *)(uintptr_t)data;
            zs.avail_in = (uInt)len;
            zs.next_out = out;
            zs.avail_out = (uInt)out_len;
            ok = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.avail_in == 0;
            out_len = zs.total_out;
            inflateEnd(&zs);
        }
    }
    else if (strcmp(enc, "br") == 0) {
        ok = BrotliDecoderDecompress(len, (const uint8_t *)data, &out_len,
                                     out) == BROTLI_DECODER_RESULT_SUCCESS;
    }
    ok = ok && out_len == want_len && memcmp(out, want, want_len) == 0;
    free(out);
    return ok;
}

#endif
