/*
 * fuzz_store.c -- the data-file loader and validator (CONTRACT §9):
 * profile_store_parse() on any bytes, then profile_api_answer() on what
 * it accepted.
 *
 * Input: the data file.  Invariants: a refusal comes with one message
 * naming the file; an accepted file declares 1-16 distinct languages of
 * 2-8 ASCII letters, every rendered representation is compact JSON of
 * the right shape whose ETag is the hash of its bytes, every id is found
 * again, each searchable field has its folded key, and the API serves
 * the rendered bodies on their routes.
 */
#include <strings.h>

#include <apr_lib.h>
#include <jansson.h>

#include "fuzz.h"
#include "profile_api.h"

#define NAME "fuzz.json"

static const char *const coll_keys[PROFILE_COLL_COUNT] = {
    "skills", "experience", "education", "caseStudies", "metrics"
};
static const char *const coll_paths[PROFILE_COLL_COUNT] = {
    "/skills", "/experience", "/education", "/case-studies", "/metrics"
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

/* Parses a rendered body, which must be compact JSON of type `type`. */
static json_t *check_body(const profile_body_t *b, json_type type,
                          int with_etag, const char *what, apr_pool_t *p)
{
    json_error_t jerr;
    json_t *v;
    char *again;

    FUZZ_CHECK(b->data != NULL && b->len == strlen(b->data),
               "%s: %zu bytes", what, (size_t)b->len);
    v = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES, &jerr);
    FUZZ_CHECK(v != NULL && json_typeof(v) == type,
               "%s is not the JSON expected (%s): %s", what, jerr.text,
               b->data);
    again = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
    FUZZ_CHECK(strcmp(again, b->data) == 0, "%s is not compact: %s", what,
               b->data);
    free(again);
    if (with_etag) {
        FUZZ_CHECK(b->etag != NULL
                   && strcmp(b->etag, profile_etag(b->data, b->len, p)) == 0,
                   "%s: ETag %s is not its hash", what, b->etag);
    }
    return v;
}

/* Number of keys the filters search in one element of collection k. */
static size_t expected_keys(int k, json_t *el)
{
    switch (k) {
    case PROFILE_COLL_SKILLS:
        return 1 + json_array_size(json_object_get(el, "skills"));
    case PROFILE_COLL_EXPERIENCE:
    case PROFILE_COLL_CASE_STUDIES:
        return 1;
    default:
        return 0;
    }
}

static void check_answer(const profile_store_t *st, const char *path,
                         int lang, const profile_body_t *want, apr_pool_t *p)
{
    profile_site_t site = {st, NULL, 60};
    profile_request_t req;
    profile_response_t resp;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.path = path;
    req.uri = apr_pstrcat(p, "/api/v1", path, NULL);
    req.accept_language = st->langs[lang];
    profile_api_answer(&resp, &site, &req, p);
    FUZZ_CHECK(resp.lang == lang, "%s: language %d, not %d", path,
               resp.lang, lang);
    FUZZ_CHECK(strcmp(apr_table_get(resp.headers, "Content-Language"),
                      st->langs[lang]) == 0, "%s: Content-Language", path);
    if (want != NULL) {
        FUZZ_CHECK(resp.status == 200 && resp.body == want->data
                   && resp.etag == want->etag, "%s: status %d", path,
                   resp.status);
    }
    else {
        FUZZ_CHECK(resp.status == 404 || resp.status == 200,
                   "%s: status %d", path, resp.status);
    }
}

static void check_store(const profile_store_t *st, const uint8_t *data,
                        size_t size, apr_pool_t *p)
{
    json_t *src = json_loadb((const char *)data, size, 0, NULL);
    int l, k, i, j;

    FUZZ_CHECK(src != NULL, "accepted a file jansson cannot read");
    FUZZ_CHECK(st->nlangs >= 1 && st->nlangs <= 16, "%d languages",
               st->nlangs);
    FUZZ_CHECK(strcmp(st->path, NAME) == 0, "path %s", st->path);
    for (l = 0; l < st->nlangs; l++) {
        size_t n = strlen(st->langs[l]);

        FUZZ_CHECK(n >= 2 && n <= 8, "language \"%s\"", st->langs[l]);
        for (j = 0; j < (int)n; j++) {
            FUZZ_CHECK(apr_isalpha(st->langs[l][j])
                       && !(st->langs[l][j] & 0x80),
                       "language \"%s\"", st->langs[l]);
        }
        for (j = 0; j < l; j++) {
            FUZZ_CHECK(strcasecmp(st->langs[j], st->langs[l]) != 0,
                       "language %s twice", st->langs[l]);
        }
    }
    for (l = 0; l < st->nlangs; l++) {
        json_decref(check_body(&st->profile[l], JSON_OBJECT, 1, "profile",
                               p));
        json_decref(check_body(&st->contact[l], JSON_OBJECT, 1, "contact",
                               p));
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];
        json_t *list = json_object_get(src, coll_keys[k]);

        FUZZ_CHECK(c->nitems >= 0 && (size_t)c->nitems
                   == json_array_size(list), "%s: %d items", coll_keys[k],
                   c->nitems);
        for (l = 0; l < st->nlangs; l++) {
            json_t *all = check_body(&c->all[l], JSON_ARRAY, 1,
                                     coll_keys[k], p);

            FUZZ_CHECK(json_array_size(all) == (size_t)c->nitems,
                       "%s: %zu rendered of %d", coll_keys[k],
                       json_array_size(all), c->nitems);
            json_decref(all);
        }
        for (i = 0; i < c->nitems; i++) {
            const profile_item_t *it = &c->items[i];
            json_t *el = json_array_get(list, (size_t)i);

            FUZZ_CHECK((it->id != NULL) == (c->by_id != NULL),
                       "%s[%d]: id", coll_keys[k], i);
            if (it->id != NULL) {
                FUZZ_CHECK(apr_hash_get(c->by_id, it->id,
                                        APR_HASH_KEY_STRING) == it,
                           "%s[%d]: id %s not found", coll_keys[k], i,
                           it->id);
            }
            for (l = 0; l < st->nlangs; l++) {
                json_decref(check_body(&it->body[l], JSON_OBJECT,
                                       it->id != NULL, coll_keys[k], p));
                if (expected_keys(k, el) > 0) {
                    size_t n = 0;

                    while (it->keys[l][n] != NULL) {
                        n++;
                    }
                    FUZZ_CHECK(n == expected_keys(k, el),
                               "%s[%d]: %zu search keys, not %zu",
                               coll_keys[k], i, n, expected_keys(k, el));
                }
            }
        }
    }
    json_decref(src);

    /* The API serves what was rendered, in the language asked for. */
    l = (int)(size % (size_t)st->nlangs);
    check_answer(st, "/profile", l, &st->profile[l], p);
    check_answer(st, "/contact", l, &st->contact[l], p);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];

        check_answer(st, coll_paths[k], l, &c->all[l], p);
        /* Item routes: experience and case studies (CONTRACT §2). */
        if ((k == PROFILE_COLL_EXPERIENCE || k == PROFILE_COLL_CASE_STUDIES)
            && c->nitems > 0) {
            const profile_item_t *it = &c->items[c->nitems - 1];

            check_answer(st, apr_pstrcat(p, coll_paths[k], "/", it->id,
                                         NULL), l,
                         strchr(it->id, '/') ? NULL : &it->body[l], p);
        }
    }
    check_answer(st, "/nothing", l, NULL, p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_status_t rv;

    apr_pool_create(&p, fuzz_root);
    rv = profile_store_parse(&st, &err, (const char *)data, size, NAME, 0,
                             p);
    if (rv != APR_SUCCESS) {
        FUZZ_CHECK(err != NULL && strncmp(err, NAME ":", strlen(NAME) + 1)
                   == 0 && strlen(err) > strlen(NAME) + 2,
                   "refusal without a message: %s", err ? err : "(null)");
    }
    else {
        FUZZ_CHECK(st != NULL, "success without a store");
        check_store(st, data, size, p);
    }
    apr_pool_destroy(p);
    return 0;
}
