/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unit.h -- shared scaffolding of the cmocka unit tests of the pure core:
 * one root APR pool per program, one subpool per test.
 *
 * Include after <cmocka.h> (which needs stdarg.h, stddef.h and setjmp.h).
 */
#ifndef PROFILE_UNIT_H
#define PROFILE_UNIT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <apr_file_io.h>
#include <apr_general.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <apr_tables.h>

#ifndef PROFILE_SRCDIR
#define PROFILE_SRCDIR "."
#endif

#define SAMPLE_PATH PROFILE_SRCDIR "/data/profile.json"
#define UNIT_DATA PROFILE_SRCDIR "/tests/unit/data"

/* The program's root pool; each test gets its own subpool of it. */
static apr_pool_t *unit_root;

static inline int unit_group_setup(void **state)
{
    (void)state;
    if (apr_initialize() != APR_SUCCESS) {
        return -1;
    }
    atexit(apr_terminate);
    return apr_pool_create(&unit_root, NULL) == APR_SUCCESS ? 0 : -1;
}

static inline int unit_group_teardown(void **state)
{
    (void)state;
    apr_pool_destroy(unit_root);
    unit_root = NULL;
    return 0;
}

static inline int unit_setup(void **state)
{
    apr_pool_t *p = NULL;

    if (apr_pool_create(&p, unit_root) != APR_SUCCESS) {
        return -1;
    }
    *state = p;
    return 0;
}

static inline int unit_teardown(void **state)
{
    apr_pool_destroy((apr_pool_t *)*state);
    *state = NULL;
    return 0;
}

#define POOL(state) ((apr_pool_t *)*(state))

/* A test with the per-test pool. */
#define UNIT_TEST(f) cmocka_unit_test_setup_teardown(f, unit_setup, \
                                                     unit_teardown)

/* Non-zero when `hay` contains `needle` (both NUL-terminated). */
static inline int unit_has(const char *hay, const char *needle)
{
    return hay != NULL && needle != NULL && strstr(hay, needle) != NULL;
}

/* Asserts that `hay` contains `needle`, printing both when it does not. */
#define assert_has(hay, needle) do {                                       \
        const char *h_ = (hay), *n_ = (needle);                            \
        if (!unit_has(h_, n_)) {                                           \
            print_error("expected \"%s\" to contain \"%s\"\n",             \
                        h_ ? h_ : "(null)", n_ ? n_ : "(null)");           \
        }                                                                  \
        assert_true(unit_has(h_, n_));                                     \
    } while (0)

#define assert_hasnt(hay, needle) do {                                     \
        const char *h_ = (hay), *n_ = (needle);                            \
        if (unit_has(h_, n_)) {                                            \
            print_error("expected \"%s\" not to contain \"%s\"\n",         \
                        h_ ? h_ : "(null)", n_ ? n_ : "(null)");            \
        }                                                                  \
        assert_false(unit_has(h_, n_));                                    \
    } while (0)

/* Asserts that s[0..len) is exactly the NUL-terminated `want`. */
#define assert_mem_str(s, len, want) do {                                  \
        const char *w_ = (want);                                           \
        size_t l_ = (size_t)(len);                                         \
        assert_non_null(s);                                                \
        if (l_ != strlen(w_) || memcmp((s), w_, l_) != 0) {                \
            print_error("got \"%.*s\", want \"%s\"\n", (int)l_,            \
                        (const char *)(s), w_);                            \
        }                                                                  \
        assert_int_equal(l_, strlen(w_));                                  \
        assert_memory_equal((s), w_, l_);                                  \
    } while (0)

/* Writes len bytes of text as the whole of the file at `path`, made if
 * missing, in place if not (the same inode). */
static inline void unit_write_file(const char *path, const char *text,
                                   apr_size_t len, apr_pool_t *p)
{
    apr_file_t *f;

    assert_int_equal(apr_file_open(&f, path, APR_FOPEN_CREATE
                                   | APR_FOPEN_WRITE | APR_FOPEN_TRUNCATE,
                                   APR_FPROT_OS_DEFAULT, p), APR_SUCCESS);
    assert_int_equal(apr_file_write_full(f, text, len, NULL), APR_SUCCESS);
    apr_file_close(f);
}

#endif
