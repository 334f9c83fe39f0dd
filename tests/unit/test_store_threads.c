/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_store_threads.c -- the threaded loader of profile_finish.c: data
 * larger than 256 KiB, with two or more usable CPUs, is finished (SHA-1,
 * ETag, gzip and br forms with their ETags) by one thread per usable CPU.
 * A load on threads must give exactly what a load on one CPU gives.
 *
 * The data is generated here from the sample (several MB, bilingual,
 * non-ASCII and escaped text), never kept in the tree.  The program is
 * linked with -Wl,--wrap=apr_thread_create, so that it can count the
 * threads the loader starts.  tests/sanitize/tsan.sh runs it again under
 * ThreadSanitizer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <time.h>
#if defined(__linux__)
#include <sched.h>
#endif
#if defined(__linux__) && defined(CPU_COUNT)
#define HAVE_AFFINITY 1         /* as usable_cpus() in profile_finish.c */
#endif

#include <apr_thread_proc.h>
#include <jansson.h>

#include "unit.h"
#include "profile_store.h"

/* profile_finish_start(): threads only above this size. */
#define THREADS_ABOVE (256 * 1024)

/* Records per collection in the generated data (about 4.5 MB). */
static const struct {
    const char *key;
    int count;
} big[] = {
    {"skills", 300},
    {"experience", 1200},
    {"education", 300},
    {"caseStudies", 1000},
    {"metrics", 600},
};

/* Set when a test skips, so that the program exits 77 (SKIP for
 * automake) rather than 0. */
static int skipped;

/* ------------------------------------------------- counting threads */

/* Each thread the loader starts, with the CPU time it used. */
typedef struct {
    apr_thread_start_t func;
    void *data;
    double cpu;                 /* seconds, written by the thread */
} started_t;

#define MAX_STARTED 64
static started_t started[MAX_STARTED];
static int nstarted;

apr_status_t __real_apr_thread_create(apr_thread_t **t,
                                      apr_threadattr_t *attr,
                                      apr_thread_start_t func, void *data,
                                      apr_pool_t *p);
apr_status_t __wrap_apr_thread_create(apr_thread_t **t,
                                      apr_threadattr_t *attr,
                                      apr_thread_start_t func, void *data,
                                      apr_pool_t *p);

static void *APR_THREAD_FUNC counted(apr_thread_t *t, void *data)
{
    started_t *s = data;
    void *r = s->func(t, s->data);
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) {
        s->cpu = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    }
    return r;
}

/* Every apr_thread_create of the core comes here (the linker's --wrap);
 * called by the loading thread only, and the loader joins its threads
 * before it returns. */
apr_status_t __wrap_apr_thread_create(apr_thread_t **t,
                                      apr_threadattr_t *attr,
                                      apr_thread_start_t func, void *data,
                                      apr_pool_t *p)
{
    started_t *s;
    apr_status_t rv;

    if (nstarted >= MAX_STARTED) {
        return __real_apr_thread_create(t, attr, func, data, p);
    }
    s = &started[nstarted];
    s->func = func;
    s->data = data;
    s->cpu = 0;
    rv = __real_apr_thread_create(t, attr, counted, s, p);
    if (rv == APR_SUCCESS) {
        nstarted++;
    }
    return rv;
}

/* ------------------------------------------------- the big data */

/* Tags every text of `v` (the value of member `key`) with record number
 * n, so that every record differs in both languages; ids are made
 * unique, urls and kinds kept.  Some records carry quotes, backslashes
 * and control characters, which the serializer escapes. */
static json_t *tagged(json_t *v, const char *key, int n, apr_pool_t *p)
{
    if (strcmp(key, "id") == 0) {
        return json_string(apr_psprintf(p, "%s-%05d", json_string_value(v),
                                        n));
    }
    if (strcmp(key, "kind") == 0 || strstr(key, "Url") != NULL
        || strcmp(key, "url") == 0) {
        return json_incref(v);
    }
    if (json_is_string(v)) {
        return json_string(apr_psprintf(p, "%s · %d%s", json_string_value(v),
                                        n, n % 7 == 0 ? " \"q\" \\ \t\x01"
                                                      : ""));
    }
    if (json_is_array(v)) {
        json_t *out = json_array();
        size_t i;
        json_t *el;

        json_array_foreach(v, i, el) {
            json_array_append_new(out, tagged(el, key, n, p));
        }
        return out;
    }
    if (json_is_object(v) && json_object_get(v, "en") != NULL) {
        const char *en = json_string_value(json_object_get(v, "en"));
        const char *es = json_string_value(json_object_get(v, "es"));

        return json_pack("{s:s, s:s}",
            "en", apr_psprintf(p, "%s (#%d)", en, n),
            "es", apr_psprintf(p, "%s (n.º %d — «año» ñ 日本 "
                               "\xF0\x9F\x9A\x80)", es, n));
    }
    if (json_is_object(v)) {            /* a record */
        json_t *out = json_object();
        const char *k;
        json_t *m;

        json_object_foreach(v, k, m) {
            json_object_set_new(out, k, tagged(m, k, n, p));
        }
        return out;
    }
    return json_incref(v);
}

/* The sample with each collection grown to big[].count records; the
 * bytes are the same at every run. */
static const char *big_document(apr_size_t *len, apr_pool_t *p)
{
    json_error_t jerr;
    json_t *root = json_load_file(SAMPLE_PATH, JSON_REJECT_DUPLICATES,
                                  &jerr);
    char *s;
    const char *doc;
    size_t i;

    if (root == NULL) {
        print_error("%s:%d: %s\n", SAMPLE_PATH, jerr.line, jerr.text);
    }
    assert_non_null(root);
    for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        json_t *src = json_object_get(root, big[i].key);
        json_t *list = json_array();
        int n;

        assert_true(json_array_size(src) > 0);
        for (n = 0; n < big[i].count; n++) {
            json_array_append_new(list, tagged(json_array_get(src,
                                  (size_t)n % json_array_size(src)), "", n,
                                  p));
        }
        json_object_set_new(root, big[i].key, list);
    }
    s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    assert_non_null(s);
    *len = strlen(s);
    doc = apr_pstrmemdup(p, s, *len);
    free(s);
    return doc;
}

/* ------------------------------------------------- loading */

/* The CPUs this thread may run on: what the loader counts. */
static long usable_cpus(void)
{
#ifdef HAVE_AFFINITY
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        return CPU_COUNT(&set);
    }
#endif
    return 0;
}

static apr_status_t load(profile_store_t **st, const char **err,
                         const char *doc, apr_size_t len, apr_pool_t *p)
{
    profile_load_opts_t o = {.render = 1, .compress = 1, .max_size = 0};

    return profile_store_parse_opts(st, err, doc, len, "big.json", 0, &o, p);
}

#ifdef HAVE_AFFINITY
/* Loads with this thread's affinity narrowed to its first usable CPU
 * (the loader counts the CPUs of that mask), then restores the mask;
 * asserts only once it is restored. */
static profile_store_t *load_on_one_cpu(const char *doc, apr_size_t len,
                                        apr_pool_t *p)
{
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_status_t rv = APR_EGENERAL;
    int narrowed = -1, restored = -1, cpu;
    cpu_set_t saved, one;

    assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
    for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &saved); cpu++) {
    }
    assert_true(cpu < CPU_SETSIZE);
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    narrowed = sched_setaffinity(0, sizeof(one), &one);
    if (narrowed == 0) {
        rv = load(&st, &err, doc, len, p);
        restored = sched_setaffinity(0, sizeof(saved), &saved);
    }
    if (narrowed != 0) {
        print_error("sched_setaffinity to CPU %d: %s\n", cpu,
                    strerror(errno));
    }
    assert_int_equal(narrowed, 0);
    assert_int_equal(restored, 0);
    assert_int_equal(usable_cpus(), CPU_COUNT(&saved));
    if (rv != APR_SUCCESS) {
        print_error("refused: %s\n", err ? err : "(no message)");
    }
    assert_int_equal(rv, APR_SUCCESS);
    return st;
}
#else
static profile_store_t *load_on_one_cpu(const char *doc, apr_size_t len,
                                        apr_pool_t *p)
{
    (void)doc, (void)len, (void)p;
    return NULL;                /* not reached: usable_cpus() is 0 */
}
#endif

/* ------------------------------------------------- comparing */

static void same_bytes(const char *a, apr_size_t alen, const char *b,
                       apr_size_t blen, const char *what, apr_pool_t *p)
{
    if ((a == NULL) != (b == NULL) || alen != blen
        || (a != NULL && memcmp(a, b, alen) != 0)) {
        print_error("%s: %s on threads, %s on one CPU\n", what,
                    a ? apr_psprintf(p, "%" APR_SIZE_T_FMT " bytes",
                                     alen) : "none",
                    b ? apr_psprintf(p, "%" APR_SIZE_T_FMT " bytes",
                                     blen) : "none");
        fail();
    }
}

static void same_string(const char *a, const char *b, const char *what)
{
    if (a == NULL || b == NULL || strcmp(a, b) != 0) {
        print_error("%s: %s on threads, %s on one CPU\n", what,
                    a ? a : "(null)", b ? b : "(null)");
        fail();
    }
}

/* Every representation of one body: bytes, ETag, SHA-1, and each coded
 * form's bytes and ETag.  Returns the number of coded forms. */
static int same_body(const profile_body_t *a, const profile_body_t *b,
                     const char *what, apr_pool_t *p)
{
    int enc, ncoded = 0;

    same_bytes(a->data, a->len, b->data, b->len, what, p);
    same_string(a->etag, b->etag, apr_pstrcat(p, what, " ETag", NULL));
    if (memcmp(a->sha1, b->sha1, sizeof(a->sha1)) != 0) {
        print_error("%s: SHA-1 differs\n", what);
        fail();
    }
    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        const char *w = apr_pstrcat(p, what, " ", profile_enc_names[enc],
                                    NULL);

        same_bytes(a->coded[enc].data, a->coded[enc].len,
                   b->coded[enc].data, b->coded[enc].len, w, p);
        if (a->coded[enc].data != NULL) {
            same_string(a->coded[enc].etag, b->coded[enc].etag,
                        apr_pstrcat(p, w, " ETag", NULL));
            ncoded++;
        }
    }
    return ncoded;
}

/* ------------------------------------------------- the tests */

static void threaded_load_gives_what_a_load_on_one_cpu_gives(void **state)
{
    apr_pool_t *p = POOL(state);
    long ncpu = usable_cpus();
    apr_size_t len;
    const char *doc, *err = NULL;
    profile_store_t *a = NULL, *b;
    apr_status_t rv;
    int l, k, i, threads, nbodies = 0, ncoded = 0, want_coded = 0;
    double cpu = 0;
    apr_time_t t0;

    if (ncpu < 2) {
        print_message("SKIP: %ld usable CPU(s) (or no affinity mask to "
                      "narrow): the loader starts no threads, there is "
                      "nothing to compare\n", ncpu);
        skipped = 1;
        skip();
    }
    doc = big_document(&len, p);
    /* The preconditions of the threaded path. */
    assert_true(len > THREADS_ABOVE);

    nstarted = 0;
    t0 = apr_time_now();
    rv = load(&a, &err, doc, len, p);
    if (rv != APR_SUCCESS) {
        print_error("refused: %s\n", err ? err : "(no message)");
    }
    assert_int_equal(rv, APR_SUCCESS);
    threads = nstarted;
    for (i = 0; i < nstarted; i++) {
        cpu += started[i].cpu;
    }
    print_message("%" APR_SIZE_T_FMT " bytes, %ld usable CPUs: %d loader "
                  "thread(s) (%.2f s of CPU) besides the loading thread, "
                  "%.2f s\n", len, ncpu, threads, cpu,
                  (double)(apr_time_now() - t0) / APR_USEC_PER_SEC);
    /* One thread per usable CPU besides the loading one. */
    assert_true(threads >= 1);
    assert_true(threads <= ncpu - 1);

    nstarted = 0;
    t0 = apr_time_now();
    b = load_on_one_cpu(doc, len, p);
    print_message("one CPU: %d loader thread(s), %.2f s\n", nstarted,
                  (double)(apr_time_now() - t0) / APR_USEC_PER_SEC);
    assert_int_equal(nstarted, 0);

    assert_true(a->compressed && b->compressed);
    assert_int_equal(a->nlangs, 2);
    assert_int_equal(a->nlangs, b->nlangs);
    for (l = 0; l < a->nlangs; l++) {
        const char *lang = a->langs[l];

        assert_string_equal(lang, b->langs[l]);
        ncoded += same_body(&a->profile[l], &b->profile[l],
                            apr_psprintf(p, "profile/%s", lang), p);
        ncoded += same_body(&a->contact[l], &b->contact[l],
                            apr_psprintf(p, "contact/%s", lang), p);
        want_coded += 4;
        nbodies += 2;
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            const profile_coll_t *ca = &a->coll[k], *cb = &b->coll[k];

            assert_int_equal(ca->nitems, big[k].count);
            assert_int_equal(ca->nitems, cb->nitems);
            ncoded += same_body(&ca->all[l], &cb->all[l],
                                apr_psprintf(p, "%s/%s", big[k].key, lang),
                                p);
            want_coded += 2;
            nbodies++;
            for (i = 0; i < ca->nitems; i++) {
                const profile_item_t *ia = &ca->items[i], *ib = &cb->items[i];

                if (ia->id != NULL || ib->id != NULL) {
                    same_string(ia->id, ib->id, "id");
                    want_coded += 2 * (k == PROFILE_COLL_EXPERIENCE
                                       || k == PROFILE_COLL_CASE_STUDIES);
                }
                ncoded += same_body(&ia->body[l], &ib->body[l],
                                    apr_psprintf(p, "%s[%d]/%s",
                                                 big[k].key, i, lang), p);
                nbodies++;
            }
        }
    }
    print_message("%d bodies and %d coded forms compared\n", nbodies,
                  ncoded);
    /* Every representation served unfiltered has its gzip and br forms:
     * the comparison was not between two empty sets. */
    assert_int_equal(ncoded, want_coded);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(threaded_load_gives_what_a_load_on_one_cpu_gives),
    };
    int failed = cmocka_run_group_tests(tests, unit_group_setup,
                                        unit_group_teardown);

    return failed == 0 && skipped ? 77 : failed;
}
