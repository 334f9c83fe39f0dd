/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_same.c -- whether a data file still holds the bytes a store was
 * loaded from, and the copy of them (profile_same.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <apr_file_io.h>

#include "unit.h"
#include "profile_same.h"

/* A copy of the sample in a temporary file, its path; *text its bytes. */
static const char *copy_sample(char **text, apr_size_t *len, apr_pool_t *p)
{
    apr_file_t *f;
    char *tmpl = apr_pstrdup(p, "/tmp/test_same_XXXXXX");
    apr_size_t n;

    assert_int_equal(apr_file_open(&f, SAMPLE_PATH, APR_FOPEN_READ,
                                   APR_OS_DEFAULT, p), APR_SUCCESS);
    *text = apr_palloc(p, 1 << 20);
    n = 1 << 20;
    assert_int_equal(apr_file_read_full(f, *text, n, &n), APR_EOF);
    apr_file_close(f);
    *len = n;
    assert_int_equal(apr_file_mktemp(&f, tmpl, APR_FOPEN_CREATE
                                     | APR_FOPEN_WRITE | APR_FOPEN_EXCL, p),
                     APR_SUCCESS);
    assert_int_equal(apr_file_write_full(f, *text, n, NULL), APR_SUCCESS);
    apr_file_close(f);
    apr_file_perms_set(tmpl, APR_FPROT_UREAD | APR_FPROT_UWRITE
                             | APR_FPROT_GREAD | APR_FPROT_WREAD);
    return tmpl;
}


static void same_bytes_same_build_same_options_is_the_same(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 0};
    profile_load_opts_t gz = {.render = 1, .compress = 1};
    profile_store_t *st = NULL;
    const char *err = NULL, *path;
    apr_time_t mtime = 0;
    apr_size_t len;
    char *text;

    path = copy_sample(&text, &len, p);
    assert_int_equal(profile_store_load(&st, &err, path, &o, p),
                     APR_SUCCESS);
    assert_true(profile_same_file(st, "b1", path, "b1", &o, &mtime, p));
    assert_true(mtime == st->mtime);
    assert_false(profile_same_file(st, "b1", path, "b2", &o, &mtime, p));
    assert_false(profile_same_file(st, "", path, "", &o, &mtime, p));
    assert_false(profile_same_file(st, "b1", path, "b1", &gz, &mtime, p));
    o.max_size = 16;
    assert_false(profile_same_file(st, "b1", path, "b1", &o, &mtime, p));
    o.max_size = 0;
    /* One byte changed, the size and (here) the time kept. */
    text[len - 2] = text[len - 2] == ' ' ? '\t' : ' ';
    unit_write_file(path, text, len, p);
    assert_false(profile_same_file(st, "b1", path, "b1", &o, &mtime, p));
    unit_write_file(path, text, len - 1, p);
    assert_false(profile_same_file(st, "b1", path, "b1", &o, &mtime, p));
    apr_file_remove(path, p);
    assert_false(profile_same_file(st, "b1", path, "b1", &o, &mtime, p));
}

/* The loader hands over the bytes it loaded (CONTRACT §9: what another
 * build loads after an upgrade), read once: what the file held when it
 * was parsed, whatever it holds now. */
static void the_kept_bytes_are_those_loaded(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *bytes = "x";
    apr_size_t got = 7;
    profile_load_opts_t o = {.render = 1, .compress = 0, .bytes = &bytes,
                             .len = &got};
    profile_store_t *st = NULL;
    const char *err = NULL, *path;
    apr_size_t len;
    char *text;

    path = copy_sample(&text, &len, p);
    assert_int_equal(profile_store_load(&st, &err, path, &o, p),
                     APR_SUCCESS);
    assert_int_equal(got, len);
    assert_memory_equal(bytes, text, len);
    assert_int_equal(bytes[len], '\0');
    text[0] = ' ';
    unit_write_file(path, text, len, p);
    assert_int_equal(bytes[0], '{');
    /* A refusal hands over nothing. */
    bytes = NULL;
    got = 0;
    unit_write_file(path, "{", 1, p);
    assert_int_not_equal(profile_store_load(&st, &err, path, &o, p),
                         APR_SUCCESS);
    assert_null(bytes);
    assert_int_equal(got, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(same_bytes_same_build_same_options_is_the_same),
        UNIT_TEST(the_kept_bytes_are_those_loaded),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
