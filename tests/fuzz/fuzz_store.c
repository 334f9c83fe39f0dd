/* SPDX-License-Identifier: Apache-2.0 */
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

#define FUZZ_NAME store
#include "fuzz.h"
#include "profile_api.h"
#include "profile_page.h"
#include "profile_problem.h"
#include "profile_validate.h"

#define NAME "fuzz.json"
#define PAGE_URL "https://ana.example/cv/"

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

/* Parses a rendered body, which must be compact JSON of type `type`;
 * `slice`: it is an element's slice of its collection, not a string of
 * its own.  Its ETag must be the hash of its bytes, and each compressed
 * form smaller than it, with the hash of its own bytes as ETag, and
 * decode to it. */
static json_t *check_body(const profile_body_t *b, json_type type,
                          int with_etag, int slice, const char *what,
                          apr_pool_t *p)
{
    json_error_t jerr;
    json_t *v;
    char *again;
    int e;

    FUZZ_CHECK(b->data != NULL && (slice || b->data[b->len] == '\0'),
               "%s: %zu bytes", what, (size_t)b->len);
    FUZZ_CHECK(memchr(b->data, '\0', b->len) == NULL, "%s holds NUL", what);
    v = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES, &jerr);
    FUZZ_CHECK(v != NULL && json_typeof(v) == type,
               "%s is not the JSON expected (%s): %.*s", what, jerr.text,
               (int)b->len, b->data);
    again = json_dumps(v, JSON_COMPACT);
    FUZZ_CHECK(strlen(again) == b->len
               && memcmp(again, b->data, b->len) == 0,
               "%s is not compact: %.*s", what, (int)b->len, b->data);
    free(again);
    if (with_etag) {
        /* A collection's ETag comes from its elements (checked by the
         * caller); any other body's is the hash of its bytes. */
        FUZZ_CHECK(b->etag != NULL
                   && (type == JSON_ARRAY
                       || strcmp(b->etag, profile_etag(b->data, b->len, p))
                          == 0),
                   "%s: ETag %s is not its hash", what, b->etag);
    }
    for (e = PROFILE_ENC_GZIP; e < PROFILE_ENC_COUNT; e++) {
        const profile_bytes_t *c = &b->coded[e];

        if (c->data == NULL) {
            continue;
        }
        FUZZ_CHECK(with_etag && c->len > 0 && c->len < b->len,
                   "%s: %s form of %zu bytes for %zu", what,
                   profile_enc_names[e], (size_t)c->len, (size_t)b->len);
        FUZZ_CHECK(c->etag != NULL && strcmp(c->etag, b->etag) != 0
                   && strcmp(c->etag, profile_etag(c->data, c->len, p))
                      == 0, "%s: %s ETag %s", what, profile_enc_names[e],
                   c->etag);
        FUZZ_CHECK(fuzz_decodes_to(profile_enc_names[e], c->data, c->len,
                                   b->data, b->len),
                   "%s: the %s form does not decode to the body", what,
                   profile_enc_names[e]);
    }
    return v;
}

/* Number of keys the filters search in one element of collection k in
 * language `lang`: a list given per language (CONTRACT §9) counts that
 * language's items, or the fallback's where it has none. */
static size_t expected_keys(int k, json_t *el, const char *lang,
                            const char *fallback)
{
    json_t *skills, *own;

    switch (k) {
    case PROFILE_COLL_SKILLS:
        skills = json_object_get(el, "skills");
        own = json_object_get(skills, lang);
        return 1 + json_array_size(json_is_array(skills) ? skills
                                   : own != NULL ? own
                                   : json_object_get(skills, fallback));
    case PROFILE_COLL_EXPERIENCE:
    case PROFILE_COLL_CASE_STUDIES:
        return 1;
    default:
        return 0;
    }
}

/* GET path in language `lang` with "Accept-Encoding: br;q=0.5, gzip":
 * the rendered body `want` (NULL: a 404 is fine too), in gzip when it has
 * that form, else in br when it has that one. */
static void check_answer(const profile_store_t *st, const char *path,
                         int lang, const profile_body_t *want, apr_pool_t *p)
{
    profile_site_t site = {.store = st, .origins = NULL, .max_age = 60,
                           .cache_control = NULL, .compress = 1};
    profile_request_t req;
    profile_response_t resp;
    const char *cl;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.path = path;
    req.uri = apr_pstrcat(p, "/api/v1", path, NULL);
    req.accept_language = st->langs[lang];
    req.accept_encoding = "br;q=0.5, gzip";
    profile_api_answer(&resp, &site, &req, p);
    FUZZ_CHECK(resp.lang == lang, "%s: language %d, not %d", path,
               resp.lang, lang);
    /* An error's text is English or Spanish: its label says which
     * (CONTRACT §7); a body holding a value of the fallback names it
     * after the language (§4). */
    cl = apr_table_get(resp.headers, "Content-Language");
    FUZZ_CHECK(strcmp(cl, resp.status >= 400
                          ? profile_problem_lang(st->langs[lang])
                          : want != NULL && want->fell_back
                          ? st->fell_back_language[lang]
                          : want != NULL ? st->langs[lang] : cl) == 0
               && (resp.status >= 400 || strcmp(cl, st->langs[lang]) == 0
                   || strcmp(cl, st->fell_back_language[lang]) == 0),
               "%s: Content-Language %s", path, cl);
    FUZZ_CHECK(st->fallback < 0 || lang == st->fallback
               ? strcmp(st->fell_back_language[lang], st->langs[lang]) == 0
               : strcmp(st->fell_back_language[lang],
                        apr_pstrcat(p, st->langs[lang], ", ",
                                    st->langs[st->fallback], NULL)) == 0,
               "fell back language %s", st->fell_back_language[lang]);
    if (want != NULL) {
        int e = want->coded[PROFILE_ENC_GZIP].data ? PROFILE_ENC_GZIP
                : want->coded[PROFILE_ENC_BR].data ? PROFILE_ENC_BR
                : PROFILE_ENC_IDENTITY;
        const char *data = e ? want->coded[e].data : want->data;
        const char *etag = e ? want->coded[e].etag : want->etag;

        FUZZ_CHECK(resp.status == 200 && resp.body == data
                   && resp.etag == etag
                   && (e ? resp.content_encoding != NULL
                           && strcmp(resp.content_encoding,
                                     profile_enc_names[e]) == 0
                         : resp.content_encoding == NULL),
                   "%s: status %d, coding %s", path, resp.status,
                   resp.content_encoding ? resp.content_encoding : "none");
    }
    else {
        FUZZ_CHECK(resp.status == 404 || resp.status == 200,
                   "%s: status %d", path, resp.status);
    }
}

static void check_store(const profile_store_t *st, const uint8_t *data,
                        size_t size, int compressed, apr_pool_t *p)
{
    json_t *src = json_loadb((const char *)data, size, 0, NULL);
    const char *fb = st->fallback >= 0 ? st->langs[st->fallback] : NULL;
    int l, k, i, j;

    FUZZ_CHECK(src != NULL, "accepted a file jansson cannot read");
    FUZZ_CHECK(st->nlangs >= 1 && st->nlangs <= 16, "%d languages",
               st->nlangs);
    /* A fallback is one of the languages, named by the file; without one
     * no body holds a value of another language (below). */
    FUZZ_CHECK(st->fallback < st->nlangs
               && (fb == NULL) == (json_object_get(src, "fallback") == NULL),
               "fallback %d", st->fallback);
    FUZZ_CHECK(strcmp(st->path, NAME) == 0, "path %s", st->path);
    FUZZ_CHECK(st->compressed == compressed, "compressed %d",
               st->compressed);
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
        FUZZ_CHECK(fb != NULL || (!st->profile[l].fell_back
                                  && !st->contact[l].fell_back),
                   "a body fell back without a fallback");
        json_decref(check_body(&st->profile[l], JSON_OBJECT, 1, 0,
                               "profile", p));
        json_decref(check_body(&st->contact[l], JSON_OBJECT, 1, 0,
                               "contact", p));
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];
        json_t *list = json_object_get(src, coll_keys[k]);

        FUZZ_CHECK(c->nitems >= 0 && (size_t)c->nitems
                   == json_array_size(list), "%s: %d items", coll_keys[k],
                   c->nitems);
        for (l = 0; l < st->nlangs; l++) {
            json_t *all = check_body(&c->all[l], JSON_ARRAY, 1, 0,
                                     coll_keys[k], p);

            FUZZ_CHECK(fb != NULL || !c->all[l].fell_back,
                       "%s fell back without a fallback", coll_keys[k]);

            FUZZ_CHECK(json_array_size(all) == (size_t)c->nitems,
                       "%s: %zu rendered of %d", coll_keys[k],
                       json_array_size(all), c->nitems);
            json_decref(all);
            /* The whole is its elements joined, each as rendered alone,
             * and its ETag the hash of theirs. */
            FUZZ_CHECK(fuzz_selection(c->all[l].data, c->all[l].len, c, l)
                       == c->nitems, "%s: the whole is not its elements",
                       coll_keys[k]);
            FUZZ_CHECK(strcmp(c->all[l].etag,
                              fuzz_body_etag(c->all[l].data, c->all[l].len,
                                             c, l, p)) == 0,
                       "%s: ETag %s is not its elements'", coll_keys[k],
                       c->all[l].etag);
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
                                       it->id != NULL, 1, coll_keys[k], p));
                if (expected_keys(k, el, st->langs[l], fb) > 0) {
                    size_t n = 0;

                    while (it->keys[l][n] != NULL) {
                        n++;
                    }
                    FUZZ_CHECK(n == expected_keys(k, el, st->langs[l], fb),
                               "%s[%d]: %zu search keys, not %zu",
                               coll_keys[k], i, n,
                               expected_keys(k, el, st->langs[l], fb));
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

/* Compressing at the strongest levels takes about a hundred times as long
 * as the rest: the fuzzer does it for one input in COMPRESS_EVERY (by a
 * hash of its bytes), the replay for every input. */
#ifdef FUZZ_REPLAY
#define COMPRESS_EVERY 1
#else
#define COMPRESS_EVERY 2048
#endif

static uint32_t fnv1a(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < size; i++) {
        h = (h ^ data[i]) * 16777619u;
    }
    return h;
}

/* Occurrences of `needle` in body b. */
static int occurrences(const profile_body_t *b, const char *needle)
{
    apr_size_t n = strlen(needle), i;
    int count = 0;

    for (i = 0; i + n <= b->len; i++) {
        count += memcmp(b->data + i, needle, n) == 0;
    }
    return count;
}

/* Whatever the data, its pages hold only the page's own markup where
 * it can act: a whole-profile page has two <script> elements (the
 * module and the JSON-LD), a record's page one, and no data value
 * closes the JSON-LD early or opens a comment. */
static void check_pages(const profile_store_t *st)
{
    const profile_page_t *pg = profile_page_find(st, PAGE_URL);
    int l, k, i;

    FUZZ_CHECK(pg != NULL, "no page rendered");
    for (l = 0; l < st->nlangs; l++) {
        FUZZ_CHECK(occurrences(&pg->home[l], "<script") == 2
                   && occurrences(&pg->home[l], "</script") == 2
                   && occurrences(&pg->home[l], "<!--") == 0,
                   "page markup from the data in language %d", l);
        FUZZ_CHECK(occurrences(&pg->missing[l], "<script") == 0,
                   "script in the 404 page");
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            for (i = 0; pg->detail[k] != NULL && i < st->coll[k].nitems;
                 i++) {
                const profile_body_t *b =
                    &pg->detail[k][i * st->nlangs + l];

                FUZZ_CHECK(occurrences(b, "<script") == 1
                           && occurrences(b, "<!--") == 0,
                           "page markup from the data in a record's page");
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    profile_store_t *st = NULL;
    const char *err = NULL;
    static const profile_page_where_t where = {PAGE_URL, "/static/"};
    profile_load_opts_t opts = {.render = 1, .compress = 0,
                                .max_size = 0, .pages = &where,
                                .npages = 1};
    apr_status_t rv;

    apr_pool_create(&p, fuzz_root);
    opts.compress = fnv1a(data, size) % COMPRESS_EVERY == 0;
    rv = profile_store_parse_opts(&st, &err, (const char *)data, size, NAME,
                                  0, &opts, p);
    if (rv != APR_SUCCESS) {
        FUZZ_CHECK(st == NULL, "a refusal with a store");
        FUZZ_CHECK(err != NULL && strncmp(err, NAME ":", strlen(NAME) + 1)
                   == 0 && strlen(err) > strlen(NAME) + 2,
                   "refusal without a message: %s", err ? err : "(null)");
    }
    else {
        FUZZ_CHECK(st != NULL, "success without a store");
        check_store(st, data, size, opts.compress, p);
        check_pages(st);
    }

    /* Validating only (configtest) decides as rendering does. */
    {
        const char *first = err;

        opts.render = 0;
        opts.compress = 0;
        st = (profile_store_t *)p;
        err = NULL;
        FUZZ_CHECK(profile_store_parse_opts(&st, &err, (const char *)data,
                                            size, NAME, 0, &opts, p) == rv
                   && st == NULL
                   && (rv == APR_SUCCESS ? err == NULL
                                         : err != NULL
                                           && strcmp(err, first) == 0),
                   "validating only said \"%s\", loading \"%s\"",
                   err ? err : "(nothing)", first ? first : "(nothing)");
    }

    /* The list of problems: none for a good file; a syntax error alone;
     * the message is its first ten, one line each. */
    {
        const profile_data_problem_t *pr;
        int i, nlines = 1;
        size_t k;

        for (k = 0; k < size; k++) {
            nlines += data[k] == '\n';
        }

        opts.problems = profile_problems_make(p, PROFILE_PROBLEMS_SHOWN);
        err = NULL;
        profile_store_parse_opts(&st, &err, (const char *)data, size, NAME,
                                 0, &opts, p);
        FUZZ_CHECK((rv == APR_SUCCESS) == (opts.problems->total == 0),
                   "%zu problems counted", (size_t)opts.problems->total);
        /* The first ones kept, the rest counted (CONTRACT §9). */
        FUZZ_CHECK(opts.problems->list->nelts
                   == (opts.problems->total < PROFILE_PROBLEMS_SHOWN
                       ? (int)opts.problems->total : PROFILE_PROBLEMS_SHOWN),
                   "%d problems kept of %zu", opts.problems->list->nelts,
                   (size_t)opts.problems->total);
        for (i = 0; i < opts.problems->list->nelts; i++) {
            pr = &APR_ARRAY_IDX(opts.problems->list, i,
                                profile_data_problem_t);
            /* Syntax: a line, alone; shape: a path, located within the
             * text's lines; else (size, memory): neither. */
            FUZZ_CHECK(pr->text != NULL
                       && (pr->path != NULL
                           ? pr->path[0] == '$' && pr->line >= 0
                             && pr->line <= nlines
                             && (pr->line == 0) == (pr->column == 0)
                           : pr->line == 0 || opts.problems->total == 1),
                       "problem %d of %zu is neither syntax nor shape", i,
                       (size_t)opts.problems->total);
        }
        FUZZ_CHECK(rv == APR_SUCCESS || strcmp(err,
                   profile_data_problems_message(opts.problems,
                       PROFILE_PROBLEMS_SHOWN, NAME, p)) == 0,
                   "the message is not the list's: %s", err);
    }
    apr_pool_destroy(p);
    return 0;
}
