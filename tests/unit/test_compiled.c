/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_compiled.c -- a store written to a compiled file and mapped back
 * (profile_compiled.c, profile_compiled_tape.c): the same answers, used
 * only while fresh and for its own key, and a damaged file refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <apr_file_io.h>
#include <apr_file_info.h>
#include <unistd.h>

#include "unit.h"
#include "profile_compiled.h"
#include "profile_page.h"
#include "profile_problems.h"

static const profile_page_where_t where[] = {
    {"https://example.org/ana/", "/profile-assets/"},
};

/* A copy of the sample in a temporary directory: its path; *dir the
 * directory (for compiled files). */
static const char *copy_sample(const char **dir, char **text,
                               apr_size_t *len, apr_pool_t *p)
{
    char *d = apr_pstrdup(p, "/tmp/test_compiled_XXXXXX");
    const char *path;
    apr_file_t *f;
    apr_size_t n = 1 << 20;

    assert_non_null(mkdtemp(d));
    *dir = d;
    path = apr_pstrcat(p, d, "/profile.json", NULL);
    assert_int_equal(apr_file_open(&f, SAMPLE_PATH, APR_FOPEN_READ,
                                   APR_OS_DEFAULT, p), APR_SUCCESS);
    *text = apr_palloc(p, n);
    assert_int_equal(apr_file_read_full(f, *text, n, &n), APR_EOF);
    apr_file_close(f);
    *len = n;
    assert_int_equal(apr_file_open(&f, path, APR_FOPEN_CREATE
                                   | APR_FOPEN_WRITE, APR_FPROT_OS_DEFAULT,
                                   p), APR_SUCCESS);
    assert_int_equal(apr_file_write_full(f, *text, n, NULL), APR_SUCCESS);
    apr_file_close(f);
    return path;
}

static void remove_dir(const char *dir, apr_pool_t *p)
{
    apr_dir_t *d;
    apr_finfo_t fi;

    assert_int_equal(apr_dir_open(&d, dir, p), APR_SUCCESS);
    while (apr_dir_read(&fi, APR_FINFO_NAME, d) == APR_SUCCESS) {
        if (fi.name[0] != '.') {
            apr_file_remove(apr_pstrcat(p, dir, "/", fi.name, NULL), p);
        }
    }
    apr_dir_close(d);
    apr_dir_remove(dir, p);
}

static void same_bytes(const char *a, apr_size_t alen, const char *b,
                       apr_size_t blen)
{
    assert_int_equal(alen, blen);
    assert_true((a == NULL) == (b == NULL));
    if (a != NULL) {
        assert_memory_equal(a, b, alen);
    }
}

static void same_str(const char *a, const char *b)
{
    assert_true((a == NULL) == (b == NULL));
    if (a != NULL) {
        assert_string_equal(a, b);
    }
}

static void same_bodies(const profile_body_t *a, const profile_body_t *b,
                        apr_size_t n)
{
    apr_size_t i;
    int e;

    assert_true((a == NULL) == (b == NULL));
    for (i = 0; a != NULL && i < n; i++) {
        same_bytes(a[i].data, a[i].len, b[i].data, b[i].len);
        same_str(a[i].etag, b[i].etag);
        assert_memory_equal(a[i].sha1, b[i].sha1, sizeof(a[i].sha1));
        assert_int_equal(a[i].fell_back, b[i].fell_back);
        for (e = 1; e < PROFILE_ENC_COUNT; e++) {
            same_bytes(a[i].coded[e].data, a[i].coded[e].len,
                       b[i].coded[e].data, b[i].coded[e].len);
            same_str(a[i].coded[e].etag, b[i].coded[e].etag);
        }
    }
}

/* Everything a request reads of a store. */
static void same_store(const profile_store_t *a, const profile_store_t *b)
{
    apr_size_t nl = (apr_size_t)a->nlangs;
    int l, k, i, j;

    assert_int_equal(a->nlangs, b->nlangs);
    assert_int_equal(a->fallback, b->fallback);
    assert_int_equal(a->compressed, b->compressed);
    assert_int_equal(a->size, b->size);
    assert_memory_equal(a->md5, b->md5, sizeof(a->md5));
    assert_true(a->mtime == b->mtime);
    for (l = 0; l < a->nlangs; l++) {
        same_str(a->langs[l], b->langs[l]);
        same_str(a->fell_back_language[l], b->fell_back_language[l]);
        assert_int_equal(a->untranslated[l], b->untranslated[l]);
    }
    same_bodies(a->profile, b->profile, nl);
    same_bodies(a->contact, b->contact, nl);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *ca = &a->coll[k], *cb = &b->coll[k];

        assert_int_equal(ca->nitems, cb->nitems);
        same_bodies(ca->all, cb->all, nl);
        assert_true((ca->by_id == NULL) == (cb->by_id == NULL));
        for (i = 0; i < ca->nitems; i++) {
            same_str(ca->items[i].id, cb->items[i].id);
            same_bodies(ca->items[i].body, cb->items[i].body, nl);
            if (cb->by_id != NULL) {
                assert_ptr_equal(apr_hash_get(cb->by_id, cb->items[i].id,
                                              APR_HASH_KEY_STRING),
                                 &cb->items[i]);
            }
            assert_true((ca->items[i].keys == NULL)
                        == (cb->items[i].keys == NULL));
            for (l = 0; ca->items[i].keys && l < a->nlangs; l++) {
                for (j = 0; ca->items[i].keys[l][j]; j++) {
                    same_str(ca->items[i].keys[l][j],
                             cb->items[i].keys[l][j]);
                }
                assert_null(cb->items[i].keys[l][j]);
            }
        }
    }
    assert_int_equal(a->npages, b->npages);
    for (i = 0; i < a->npages; i++) {
        same_str(a->pages[i].where.url, b->pages[i].where.url);
        same_str(a->pages[i].where.assets, b->pages[i].where.assets);
        same_bodies(a->pages[i].home, b->pages[i].home, nl);
        same_bodies(a->pages[i].missing, b->pages[i].missing, nl);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            same_bodies(a->pages[i].detail[k], b->pages[i].detail[k],
                        (apr_size_t)a->coll[k].nitems * nl);
        }
    }
}

static void a_mapped_store_answers_as_the_loaded_one(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 1, .pages = where,
                             .npages = 1};
    profile_store_t *st = NULL;
    profile_compiled_form_t form;
    const char *err = NULL, *why = NULL, *dir, *path, *file, *bytes = NULL;
    apr_size_t len, klen = 0;
    char *text;

    path = copy_sample(&dir, &text, &len, p);
    o.bytes = &bytes;
    o.len = &klen;
    assert_int_equal(profile_store_load(&st, &err, path, &o, p),
                     APR_SUCCESS);
    file = profile_compiled_name(dir, path, "build 1", p);
    assert_int_equal(profile_compiled_write(st, bytes, klen, file, path,
                                            "build 1", &why, p),
                     APR_SUCCESS);
    assert_int_equal(profile_compiled_map(&form, file, path, "build 1", &why,
                                          p), APR_SUCCESS);
    same_store(st, form.store);
    /* The data file's bytes, kept for another build. */
    same_bytes(text, len, form.bytes, form.len);
    /* Another key (a build, options) never reads it. */
    assert_int_not_equal(profile_compiled_map(&form, file, path, "build 2",
                                              &why, p), APR_SUCCESS);
    assert_string_equal(why, "compiled for another build or other options");
    assert_int_not_equal(profile_compiled_map(&form, file, "/elsewhere.json",
                                              "build 1", &why, p),
                         APR_SUCCESS);
    remove_dir(dir, p);
}


static void only_a_fresh_compiled_file_is_used(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 0};
    profile_load_opts_t check = {.render = 0, .compress = 0};
    profile_compiled_how_e how;
    profile_store_t *st = NULL;
    const char *err = NULL, *why = NULL, *dir, *path;
    apr_size_t len;
    char *text, *at;

    path = copy_sample(&dir, &text, &len, p);
    /* Validating (configtest) compiles. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL, p),
                     APR_SUCCESS);
    assert_null(st);
    assert_int_equal(how, PROFILE_COMPILED_WRITTEN);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 1, NULL,
                                           NULL, p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_MAPPED);
    assert_non_null(strstr(st->profile[0].data, "Lucía"));
    /* Edited since, the same size, at once (its times not settled):
     * loaded from the new bytes, and compiled again. */
    at = strstr(text, "Lucía");
    assert_non_null(at);
    memcpy(at, "Lucio", 5);
    unit_write_file(path, text, len, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 1, NULL,
                                           NULL, p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_WRITTEN);
    assert_non_null(strstr(st->profile[0].data, "Lucio"));
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 1, NULL,
                                           NULL, p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_MAPPED);
    assert_non_null(strstr(st->profile[0].data, "Lucio"));
    /* Another key: loaded. */
    o.compress = 1;
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k compress", 1, NULL,
                                           NULL, p),
                     APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_WRITTEN);
    /* Not to be compiled (a load after the signal): loaded, nothing
     * written. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k after", 0, NULL, NULL, p),
                     APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    assert_non_null(st);
    assert_int_not_equal(access(profile_compiled_name(dir, path, "k after",
                                                      p), F_OK), 0);
    /* A bad file: refused as a load refuses it, whatever was compiled. */
    unit_write_file(path, "{", 1, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 1, NULL,
                                           NULL, p), APR_EINVAL);
    assert_non_null(strstr(err, "invalid JSON"));
    /* No directory: a plain load. */
    unit_write_file(path, text, len, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           NULL, "k", 1, NULL,
                                           NULL, p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    /* A directory it cannot write to: loaded, and said why. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           "/nonexistent/dir", "k", 1, NULL,
                                           NULL, p),
                     APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    assert_non_null(strstr(why, "cannot write"));
    remove_dir(dir, p);
}


/* Reads `file` whole. */
static char *slurp(const char *file, apr_size_t *len, apr_pool_t *p)
{
    apr_finfo_t fi;
    apr_file_t *f;
    char *b;

    assert_int_equal(apr_stat(&fi, file, APR_FINFO_SIZE, p), APR_SUCCESS);
    b = apr_palloc(p, (apr_size_t)fi.size);
    assert_int_equal(apr_file_open(&f, file, APR_FOPEN_READ, APR_OS_DEFAULT,
                                   p), APR_SUCCESS);
    assert_int_equal(apr_file_read_full(f, b, (apr_size_t)fi.size, len),
                     APR_SUCCESS);
    apr_file_close(f);
    return b;
}

/* Every cut and many changed words: refused, or (a byte of a body
 * changed) mapped with every body inside the file; never followed out
 * of it (the sanitized build reads this test too). */
static void a_damaged_compiled_file_is_refused(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 1, .pages = where,
                             .npages = 1};
    profile_store_t *st = NULL;
    profile_compiled_form_t form;
    const char *err = NULL, *why = NULL, *dir, *path, *file, *bytes;
    apr_size_t len, n, at;
    char *text, *good, *bad;
    apr_pool_t *sub;
    int refused = 0, taken = 0;

    path = copy_sample(&dir, &text, &len, p);
    o.bytes = &bytes;
    o.len = &len;
    assert_int_equal(profile_store_load(&st, &err, path, &o, p),
                     APR_SUCCESS);
    file = profile_compiled_name(dir, path, "k", p);
    assert_int_equal(profile_compiled_write(st, bytes, len, file, path, "k",
                                            &why, p), APR_SUCCESS);
    good = slurp(file, &n, p);
    bad = apr_pstrcat(p, dir, "/bad.pcs", NULL);
    for (at = 0; at < n; at += at < 4096 ? 8 : 997) {
        apr_uint64_t word;
        int cut;

        for (cut = 0; cut < 3; cut++) {
            apr_pool_create(&sub, p);
            if (cut == 0) {
                unit_write_file(bad, good, at, sub);
            }
            else {
                char *copy = apr_pmemdup(sub, good, n);

                word = cut == 1 ? ~(apr_uint64_t)0 : (apr_uint64_t)n / 2;
                if (at + sizeof(word) <= n) {
                    memcpy(copy + at, &word, sizeof(word));
                }
                unit_write_file(bad, copy, n, sub);
            }
            if (profile_compiled_map(&form, bad, path, "k", &why, sub)
                == APR_SUCCESS) {
                taken++;
                assert_int_equal(form.store->nlangs, 2);
            }
            else {
                refused++;
            }
            apr_pool_destroy(sub);
        }
    }
    assert_true(refused > 0);
    remove_dir(dir, p);
}

/* What the parent maps ahead of a restart (profile_compiled_ahead) is
 * what the restart serves while it is still the compiled file and the
 * data file still holds its bytes (profile_compiled_still); never a
 * file it has mapped already or the bytes it serves. */
static void a_form_mapped_ahead_is_used_only_while_fresh(void **state)
{
    apr_pool_t *p = POOL(state), *mp = p, *other = p;
    profile_load_opts_t check = {.render = 0, .compress = 0};
    profile_compiled_form_t form, again;
    profile_compiled_how_e how;
    profile_store_t *st = NULL;
    const char *err = NULL, *why = NULL, *dir, *path;
    apr_size_t len;
    char *text, *at;

    path = copy_sample(&dir, &text, &len, p);
    /* Nothing compiled yet: nothing mapped, no pool left. */
    assert_int_not_equal(profile_compiled_ahead(&form, &mp, dir, path, "k",
                                                0, NULL, NULL, p, p),
                         APR_SUCCESS);
    assert_null(form.store);
    assert_null(mp);
    /* Compiled (configtest): mapped ahead, in a pool of its own; the same
     * file again is not. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL,
                                           p), APR_SUCCESS);
    assert_int_equal(profile_compiled_ahead(&form, &mp, dir, path, "k", 0,
                                            NULL, NULL, p, p), APR_SUCCESS);
    assert_non_null(mp);
    assert_ptr_not_equal(mp, p);
    assert_non_null(strstr(form.store->profile[0].data, "Lucía"));
    assert_int_equal(form.len, len);
    assert_int_equal(profile_compiled_ahead(&again, &other, dir, path, "k",
                                            0, &form, NULL, p, p),
                     APR_EEXIST);
    assert_null(other);
    /* The bytes already served: a restart keeps those. */
    assert_int_equal(profile_compiled_ahead(&again, &other, dir, path, "k",
                                            0, NULL, form.store, p, p),
                     APR_EEXIST);
    assert_null(other);
    /* Another key, or over ProfileMaxDataSize: not this form. */
    assert_int_not_equal(profile_compiled_still(&form, dir, path, "k2", 0,
                                                p), APR_SUCCESS);
    assert_int_not_equal(profile_compiled_still(&form, dir, path, "k",
                                                (apr_off_t)len - 1, p),
                         APR_SUCCESS);
    assert_int_equal(profile_compiled_still(&form, dir, path, "k", 0, p),
                     APR_SUCCESS);
    /* The data file edited since, the same size, at once: not fresh. */
    at = strstr(text, "Lucía");
    memcpy(at, "Lucio", 5);
    unit_write_file(path, text, len, p);
    assert_int_not_equal(profile_compiled_still(&form, dir, path, "k", 0,
                                                p), APR_SUCCESS);
    assert_int_not_equal(profile_compiled_ahead(&again, &other, dir, path,
                                                "k", 0, NULL, NULL, p, p),
                         APR_SUCCESS);
    assert_null(other);
    /* Compiled again: the form mapped before is no longer the file, the
     * new one is mapped ahead. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL,
                                           p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_WRITTEN);
    assert_int_not_equal(profile_compiled_still(&form, dir, path, "k", 0,
                                                p), APR_SUCCESS);
    assert_int_equal(profile_compiled_ahead(&again, &other, dir, path, "k",
                                            0, &form, NULL, p, p),
                     APR_SUCCESS);
    assert_non_null(other);
    assert_non_null(strstr(again.store->profile[0].data, "Lucio"));
    assert_int_equal(profile_compiled_still(&again, dir, path, "k", 0, p),
                     APR_SUCCESS);
    apr_pool_destroy(other);
    apr_pool_destroy(mp);
    remove_dir(dir, p);
}

/* A bad file's verdict (profile_compiled_write_bad): the reading before
 * the signal writes it where the compiled file goes, and a reading after
 * it gives the same message without parsing, only while the data file
 * holds the very bytes judged, for the same key and within the limit. */
static void a_bad_file_is_judged_again_only_while_it_holds_its_bytes(
    void **state)
{
    static const char bad[] = "{\"skills\":[{},{}]}";
    static const char other[] = "{\"skills\":[{},[]]}";
    apr_pool_t *p = POOL(state);
    profile_load_opts_t check = {.render = 0, .compress = 0};
    profile_load_opts_t o = {.render = 1, .compress = 0};
    profile_compiled_how_e how;
    profile_store_t *st = NULL;
    const char *err = NULL, *why = NULL, *dir, *path, *summary, *file;
    apr_size_t len, flen;
    char *text, *damaged;

    path = copy_sample(&dir, &text, &len, p);
    file = profile_compiled_name(dir, path, "k", p);
    unit_write_file(path, bad, sizeof(bad) - 1, p);
    /* Before the signal (compile): refused, and the verdict written. */
    check.problems = profile_problems_make(p, PROFILE_PROBLEMS_SHOWN);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL,
                                           p), APR_EINVAL);
    assert_true(check.problems->total > 1);
    summary = profile_data_problems_summary(check.problems, err, path, p);
    assert_non_null(strstr(summary, "apachectl configtest lists them"));
    assert_int_equal(access(file, F_OK), 0);
    /* After it: the same message, the file not parsed. */
    o.problems = profile_problems_make(p, 1);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_JUDGED);
    assert_string_equal(err, summary);
    assert_int_equal(o.problems->total, 0);
    assert_null(st);
    /* Another key, or a limit the file is over: parsed (or refused
     * unread), not judged. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k2", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    assert_true(o.problems->total > 1);
    o.max_size = (apr_off_t)sizeof(bad) - 2;
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    assert_non_null(strstr(err, "ProfileMaxDataSize"));
    o.max_size = 0;
    /* A damaged verdict: not one. */
    damaged = slurp(file, &flen, p);
    unit_write_file(file, damaged, flen - 1, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    damaged[16] ^= 1;                       /* (the format's version) */
    unit_write_file(file, damaged, flen, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    /* Other bytes of the same size, at once (times not settled): parsed
     * again. */
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL,
                                           p), APR_EINVAL);
    unit_write_file(path, other, sizeof(other) - 1, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_EINVAL);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    /* Good again: loaded, never judged; compiled, the verdict replaced. */
    unit_write_file(path, text, len, p);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_LOADED);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path,
                                           &check, dir, "k", 1, NULL, NULL,
                                           p), APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_WRITTEN);
    assert_int_equal(profile_compiled_load(&st, &err, &how, &why, path, &o,
                                           dir, "k", 0, NULL, NULL, p),
                     APR_SUCCESS);
    assert_int_equal(how, PROFILE_COMPILED_MAPPED);
    assert_non_null(strstr(st->profile[0].data, "Lucía"));
    remove_dir(dir, p);
}

/* Every cut and every changed byte of a verdict: refused, or read with
 * its message inside the bytes (a changed byte of the message, or of
 * what the file was); a compiled store is not one, nor a verdict of
 * another key, and the store's reader refuses a verdict. */
static void a_damaged_verdict_is_refused(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_read_t r = {.size = 3, .dev = 1, .ino = 2, .mtime = 3,
                        .ctime = 4, .read_at = 5}, got;
    profile_store_t *st = NULL;
    const char *dir, *path, *file, *message, *why = NULL, *bytes;
    apr_size_t len, n, at, klen;
    char *text, *good, *copy;
    int refused = 0, read = 0;

    path = copy_sample(&dir, &text, &len, p);
    file = profile_compiled_name(dir, path, "k", p);
    assert_int_equal(profile_compiled_write_bad(&r, "bad: and 2 more", file,
                                                path, "k", &why, p),
                     APR_SUCCESS);
    good = slurp(file, &n, p);
    assert_true(n <= profile_compiled_bad_max(path, "k"));
    assert_int_equal(profile_compiled_read_bad(&message, &got, good, n, path,
                                               "k", p), APR_SUCCESS);
    assert_string_equal(message, "bad: and 2 more");
    assert_int_equal(got.size, 3);
    assert_int_equal(got.ino, 2);
    assert_int_equal(got.read_at, 5);
    assert_int_not_equal(profile_compiled_read_bad(&message, &got, good, n,
                                                   path, "k2", p),
                         APR_SUCCESS);
    assert_int_not_equal(profile_compiled_read(&st, &bytes, &klen, good, n,
                                               path, "k", &why, p),
                         APR_SUCCESS);
    assert_non_null(strstr(why, "bad"));
    for (at = 0; at <= n; at++) {
        /* (Cut at `at`: a copy of exactly that size, so that a read past
         * it is the sanitizer's to see.) */
        copy = malloc(at ? at : 1);
        memcpy(copy, good, at);
        if (profile_compiled_read_bad(&message, &got, copy, at, path, "k",
                                      p) == APR_SUCCESS) {
            assert_int_equal(at, n);
        }
        free(copy);
        if (at == n) {
            break;
        }
        copy = malloc(n);
        memcpy(copy, good, n);
        copy[at] ^= 0x41;
        if (profile_compiled_read_bad(&message, &got, copy, n, path, "k", p)
            == APR_SUCCESS) {
            read++;
            assert_true(message >= copy && message < copy + n);
            assert_true(strlen(message) < (apr_size_t)(copy + n - message));
        }
        else {
            refused++;
        }
        free(copy);
    }
    assert_true(refused > 0 && read > 0);
    remove_dir(dir, p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(a_mapped_store_answers_as_the_loaded_one),
        UNIT_TEST(only_a_fresh_compiled_file_is_used),
        UNIT_TEST(a_damaged_compiled_file_is_refused),
        UNIT_TEST(a_form_mapped_ahead_is_used_only_while_fresh),
        UNIT_TEST(a_bad_file_is_judged_again_only_while_it_holds_its_bytes),
        UNIT_TEST(a_damaged_verdict_is_refused),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
