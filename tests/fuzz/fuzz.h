/*
 * fuzz.h -- shared scaffolding of the libFuzzer targets of the pure core.
 *
 * Every target defines LLVMFuzzerInitialize() and
 * LLVMFuzzerTestOneInput().  Built with clang -fsanitize=fuzzer they are
 * fuzzers; built with any compiler and replay.c they replay a corpus.
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

#include "profile_store.h"

#ifndef PROFILE_SRCDIR
#define PROFILE_SRCDIR "."
/* Non-zero when body[0..len) is "[" + some items of `coll`, rendered
 * alone in language `lang`, in collection order and joined by "," + "]":
 * what a filtered answer must be.  (A rendered item is a whole JSON
 * object, never a prefix of another.) */
static inline int fuzz_is_selection(const char *body, size_t len,
                                    const profile_coll_t *coll, int lang)
{
    size_t at = 1;
    int i, n = 0;

    if (len < 2 || body[0] != '[' || body[len - 1] != ']') {
        return 0;
    }
    for (i = 0; i < coll->nitems && at < len - 1; i++) {
        const profile_body_t *b = &coll->items[i].body[lang];
        size_t sep = n > 0;

        if (at + sep + b->len <= len - 1
            && (!sep || body[at] == ',')
            && memcmp(body + at + sep, b->data, b->len) == 0) {
            at += sep + b->len;
            n++;
        }
    }
    return at == len - 1;
}

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
    /* Under ASan the pool allocator must be pool_malloc.c's, or overflows
     * inside pool blocks would go unseen. */
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

/* The sample data, loaded once (FUZZ_DATA overrides the file). */
static inline const profile_store_t *fuzz_sample(void)
{
    static profile_store_t *store;
    const char *err = NULL;
    const char *path = getenv("FUZZ_DATA");

    if (store == NULL) {
        fuzz_init();
        if (path == NULL) {
            path = PROFILE_SRCDIR "/data/profile.json";
        }
        if (profile_store_load(&store, &err, path, fuzz_root)
            != APR_SUCCESS) {
            fprintf(stderr, "cannot load %s: %s\n", path, err);
            exit(1);
        }
    }
    return store;
}

/* Non-zero when body[0..len) is "[" + some items of `coll`, rendered
 * alone in language `lang`, in collection order and joined by "," + "]":
 * what a filtered answer must be.  (A rendered item is a whole JSON
 * object, never a prefix of another.) */
static inline int fuzz_is_selection(const char *body, size_t len,
                                    const profile_coll_t *coll, int lang)
{
    size_t at = 1;
    int i, n = 0;

    if (len < 2 || body[0] != '[' || body[len - 1] != ']') {
        return 0;
    }
    for (i = 0; i < coll->nitems && at < len - 1; i++) {
        const profile_body_t *b = &coll->items[i].body[lang];
        size_t sep = n > 0;

        if (at + sep + b->len <= len - 1
            && (!sep || body[at] == ',')
            && memcmp(body + at + sep, b->data, b->len) == 0) {
            at += sep + b->len;
            n++;
        }
    }
    return at == len - 1;
}

#endif
