/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_compiled.c -- a compiled form (profile_compiled.c): what a damaged
 * or crafted compiled file does to profile_compiled_read() and to the
 * answers of a store it accepts.
 *
 * Input: edits of a good compiled file (the sample, with gzip and br
 * forms and one page place, compiled once at start): four bytes, the
 * length the file is cut to (modulo its size plus one; 0 keeps it
 * whole), then records of 13 bytes: an operation (even: a byte; odd: a
 * 64-bit word, at an offset rounded down to 8), an offset (modulo the
 * size) and a value.  Random bytes would never pass the header; edits of
 * a real file reach the tape, the offsets and the counts.  The edited
 * file is read from a buffer of exactly its size.
 *
 * Invariants: a refusal says why; an accepted store has 1 to 64
 * languages, every body's bytes, ETag and coded forms inside the file,
 * and answers every route, every element by its id, filters, and every
 * page of its one place, in every language, reading nothing outside
 * the file (ASan).
 */
#include <stdint.h>

#define FUZZ_NAME compiled
#include "fuzz.h"
#include "profile_api.h"
#include "profile_compiled.h"
#include "profile_page.h"
#include "profile_page_api.h"

#define NAME "fuzz.json"
#define KEY "fuzz key"

static char *good;
static apr_size_t good_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const profile_page_where_t where = {
        "https://ana.example/cv/", "/profile-assets/"
    };
    profile_load_opts_t o = {.render = 1, .compress = 1, .pages = &where,
                             .npages = 1};
    profile_store_t *st;
    const char *err = NULL, *bytes = NULL, *why = NULL, *file;
    char dir[] = "/tmp/fuzz_compiled_XXXXXX";
    apr_size_t len = 0;
    apr_finfo_t fi;
    apr_file_t *f;

    (void)argc;
    (void)argv;
    fuzz_init();
    o.bytes = &bytes;
    o.len = &len;
    if (mkdtemp(dir) == NULL
        || profile_store_load(&st, &err, PROFILE_SRCDIR "/data/profile.json",
                              &o, fuzz_root) != APR_SUCCESS) {
        fprintf(stderr, "cannot load the sample: %s\n", err ? err : dir);
        exit(1);
    }
    file = profile_compiled_name(dir, NAME, KEY, fuzz_root);
    if (profile_compiled_write(st, bytes, len, file, NAME, KEY, &why,
                               fuzz_root) != APR_SUCCESS
        || apr_stat(&fi, file, APR_FINFO_SIZE, fuzz_root) != APR_SUCCESS
        || apr_file_open(&f, file, APR_FOPEN_READ, APR_OS_DEFAULT,
                         fuzz_root) != APR_SUCCESS) {
        fprintf(stderr, "cannot compile the sample: %s\n", why);
        exit(1);
    }
    good_len = (apr_size_t)fi.size;
    good = malloc(good_len);
    if (good == NULL || apr_file_read_full(f, good, good_len, NULL)
                        != APR_SUCCESS) {
        exit(1);
    }
    apr_file_close(f);
    apr_file_remove(file, fuzz_root);
    apr_dir_remove(dir, fuzz_root);
    return 0;
}

static void inside(const char *p, apr_size_t n, const char *buf,
                   apr_size_t size, const char *what)
{
    FUZZ_CHECK(p == NULL || (p >= buf && n <= size
                             && (apr_size_t)(p - buf) <= size - n),
               "%s outside the file", what);
}

static void check_bodies(const profile_body_t *b, apr_size_t n,
                         const char *buf, apr_size_t size)
{
    apr_size_t i;
    int e;

    for (i = 0; b != NULL && i < n; i++) {
        inside(b[i].data, b[i].len, buf, size, "a body");
        inside(b[i].etag, strlen(b[i].etag) + 1, buf, size, "an ETag");
        for (e = 1; e < PROFILE_ENC_COUNT; e++) {
            inside(b[i].coded[e].data, b[i].coded[e].len, buf, size,
                   "a coded body");
        }
    }
}

static void get(const profile_store_t *st, const char *path,
                const char *args, int lang, apr_pool_t *p)
{
    profile_site_t site = {.store = st, .origins = NULL, .max_age = 60,
                           .cache_control = NULL, .compress = 1};
    profile_request_t req;
    profile_response_t resp;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.path = path;
    req.args = args;
    req.uri = apr_pstrcat(p, "/api/v1", path, NULL);
    req.accept_language = st->langs[lang];
    req.accept_encoding = lang % 2 ? "br" : "gzip";
    profile_api_answer(&resp, &site, &req, p);
    FUZZ_CHECK(resp.status >= 200 && resp.status < 600, "%s: status %d",
               path, resp.status);
    if (st->npages > 0) {
        profile_page_answer(&resp, &site, &st->pages[0], &req, p);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const routes[] = {
        "/profile", "/contact", "/skills", "/experience", "/education",
        "/case-studies", "/metrics", "", "/", "/en/", "/es/", "/nope"
    };
    static const char *const colls[PROFILE_COLL_COUNT] = {
        "/skills", "/experience", "/education", "/case-studies", "/metrics"
    };
    apr_pool_t *p;
    apr_size_t len = good_len, i, klen;
    profile_store_t *st = NULL;
    const char *why = NULL, *bytes;
    char *buf;
    int l, k, j;

    if (size >= 4) {
        uint32_t cut;

        memcpy(&cut, data, 4);
        if (cut % (good_len + 1) != 0) {
            len = cut % (good_len + 1);
        }
        data += 4;
        size -= 4;
    }
    buf = malloc(len ? len : 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    memcpy(buf, good, len);
    for (; size >= 13; data += 13, size -= 13) {
        uint32_t at;
        uint64_t v;

        memcpy(&at, data + 1, 4);
        memcpy(&v, data + 5, 8);
        if (len == 0) {
            break;
        }
        at %= (uint32_t)len;
        if (data[0] % 2 && len >= 8) {
            at = at / 8 * 8 + 8 <= len ? at / 8 * 8 : (uint32_t)len - 8;
            memcpy(buf + at, &v, 8);
        }
        else {
            buf[at] = (char)v;
        }
    }
    apr_pool_create(&p, fuzz_root);
    if (profile_compiled_read(&st, &bytes, &klen, buf, len, NAME, KEY, &why,
                              p) != APR_SUCCESS) {
        FUZZ_CHECK(why != NULL && st == NULL, "a refusal says why");
        goto leave;
    }
    FUZZ_CHECK(st->nlangs >= 1 && st->nlangs <= 64, "%d languages",
               st->nlangs);
    inside(bytes, klen, buf, len, "the data file's bytes");
    check_bodies(st->profile, (apr_size_t)st->nlangs, buf, len);
    check_bodies(st->contact, (apr_size_t)st->nlangs, buf, len);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        check_bodies(st->coll[k].all, (apr_size_t)st->nlangs, buf, len);
        for (j = 0; j < st->coll[k].nitems; j++) {
            check_bodies(st->coll[k].items[j].body, (apr_size_t)st->nlangs,
                         buf, len);
        }
    }
    for (l = 0; l < st->nlangs; l++) {
        for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
            get(st, routes[i], NULL, l, p);
        }
        get(st, "/experience", "q=go", l, p);
        get(st, "/skills", "q=C", l, p);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            for (j = 0; j < st->coll[k].nitems && j < 4; j++) {
                const char *id = st->coll[k].items[j].id;

                if (id != NULL) {
                    get(st, apr_pstrcat(p, colls[k], "/", id, NULL), NULL, l,
                        p);
                    get(st, apr_pstrcat(p, "/", st->langs[l],
                                        k == PROFILE_COLL_EXPERIENCE
                                        ? "/experience/" : "/case-studies/",
                                        id, NULL), NULL, l, p);
                }
            }
        }
    }

leave:
    apr_pool_destroy(p);
    free(buf);
    return 0;
}
