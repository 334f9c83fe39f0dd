/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_query.c -- the query string (CONTRACT §8): strict decoding and
 * validation (profile_query), the UTF-8 and matching helpers
 * (profile_text), and filtering through profile_api_answer() on the
 * sample data.
 *
 * Input: one byte choosing the route, then the raw query (what follows
 * "?").  Invariants: an accepted value is trimmed, well-formed UTF-8
 * without controls, 1-100 code points; problems are printable, unique
 * and at most 20; profile_utf8_valid agrees with RFC 3629;
 * profile_text_printable output is printable and leaves printable text
 * alone; the answer is 200 or 400, its ETag is the hash of its body, a
 * filtered body is a subsequence of the collection, a 400 body lists
 * every reported problem.
 */
#include <jansson.h>

#define FUZZ_NAME query
#include "fuzz.h"
#include "profile_api.h"
#include "profile_query.h"
#include "profile_text.h"

static const struct {
    const char *path;
    const char *param;
    int coll;
} routes[] = {
    {"/skills", "q", PROFILE_COLL_SKILLS},
    {"/experience", "company", PROFILE_COLL_EXPERIENCE},
    {"/case-studies", "organization", PROFILE_COLL_CASE_STUDIES},
    {"/education", NULL, PROFILE_COLL_EDUCATION},
    {"/profile", NULL, -1}
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_sample();
    return 0;
}

/* RFC 3629 well-formed UTF-8. */
static int oracle_utf8(const unsigned char *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        unsigned char c = s[i];
        size_t n, k;
        unsigned long cp;

        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        }
        else {
            return 0;
        }
        if (len - i <= n) {
            return 0;
        }
        for (k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)
            || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        i += n + 1;
    }
    return 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'
           || c == '\v';
}

static int printable(const char *s)
{
    return oracle_utf8((const unsigned char *)s, strlen(s))
           && !profile_text_has_control(s, strlen(s));
}

static void check_text(const char *raw, size_t len, apr_pool_t *p)
{
    int valid = profile_utf8_valid(raw, len);
    const char *t = raw, *out;
    size_t tlen = len, i;
    int control = 0;

    FUZZ_CHECK(valid == oracle_utf8((const unsigned char *)raw, len),
               "profile_utf8_valid says %d", valid);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)raw[i];
        control |= c < 0x20 || c == 0x7F;
    }
    FUZZ_CHECK(profile_text_has_control(raw, len) == control,
               "has_control disagrees");

    profile_text_trim(&t, &tlen);
    FUZZ_CHECK(t >= raw && t + tlen <= raw + len, "trim left the text");
    FUZZ_CHECK(tlen == 0 || (!is_space(t[0]) && !is_space(t[tlen - 1])),
               "trim kept white space");

    out = profile_text_printable(raw, len, 64, p);
    FUZZ_CHECK(printable(out), "printable() gave \"%s\"", out);
    if (valid && !control && profile_utf8_count(raw, len) <= 64) {
        FUZZ_CHECK(strlen(out) == len && memcmp(out, raw, len) == 0,
                   "printable() changed printable text into \"%s\"", out);
    }

    if (valid) {
        const char *key = profile_text_fold(raw, len, p);

        FUZZ_CHECK(profile_utf8_count(raw, len) <= len, "count > bytes");
        FUZZ_CHECK((key == NULL) == (memchr(raw, '\0', len) != NULL),
                   "fold gave %s", key ? key : "NULL");
        if (key != NULL) {
            FUZZ_CHECK(oracle_utf8((const unsigned char *)key, strlen(key)),
                       "fold gave invalid UTF-8");
            FUZZ_CHECK(profile_text_contains(key, key), "contains(k, k)");
            FUZZ_CHECK(profile_text_contains(key, ""), "contains(k, \"\")");
        }
    }
}

static void check_query(const profile_query_t *q, apr_status_t rv,
                        const char *allowed)
{
    int i, j;

    FUZZ_CHECK((rv == APR_SUCCESS) == (q->nproblems == 0),
               "rv %d with %d problems", rv, q->nproblems);
    FUZZ_CHECK(q->problems->nelts <= PROFILE_QUERY_MAX_PROBLEMS
               && q->problems->nelts <= q->nproblems
               && (q->nproblems == 0 || q->problems->nelts > 0),
               "%d problems listed of %d", q->problems->nelts,
               q->nproblems);
    for (i = 0; i < q->problems->nelts; i++) {
        const profile_qp_problem_t *a =
            &APR_ARRAY_IDX(q->problems, i, profile_qp_problem_t);

        FUZZ_CHECK(a->name != NULL && printable(a->name),
                   "problem name \"%s\"", a->name ? a->name : "(null)");
        FUZZ_CHECK(a->reason >= PROFILE_QP_BAD_ENCODING
                   && a->reason <= PROFILE_QP_CONTROL, "reason %d",
                   (int)a->reason);
        for (j = 0; j < i; j++) {
            FUZZ_CHECK(strcmp(a->name, APR_ARRAY_IDX(q->problems, j,
                                         profile_qp_problem_t).name) != 0,
                       "\"%s\" reported twice", a->name);
        }
    }
    if (rv != APR_SUCCESS || q->value == NULL) {
        return;
    }
    FUZZ_CHECK(allowed != NULL, "a value for a route without parameter");
    FUZZ_CHECK(strlen(q->value) == q->value_len, "value holds NUL");
    FUZZ_CHECK(q->value_len > 0 && !is_space(q->value[0])
               && !is_space(q->value[q->value_len - 1]),
               "untrimmed value \"%s\"", q->value);
    FUZZ_CHECK(printable(q->value), "value \"%s\"", q->value);
    FUZZ_CHECK(profile_utf8_count(q->value, q->value_len)
               <= PROFILE_QUERY_MAX_CHARS, "value of %zu code points",
               (size_t)profile_utf8_count(q->value, q->value_len));
}

/* The answer to GET /api/v1<path>?<args>. */
static void check_answer(const profile_store_t *st, int r, const char *args,
                         const profile_query_t *q, apr_status_t rv,
                         int lang_pick, apr_pool_t *p)
{
    profile_site_t site = {.store = st, .origins = NULL, .max_age = 300,
                           .cache_control = "public, max-age=300",
                           .compress = 0};
    profile_request_t req;
    profile_response_t resp;
    json_t *body;
    json_error_t jerr;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.path = routes[r].path;
    req.uri = apr_pstrcat(p, "/api/v1", req.path, NULL);
    req.args = args;
    req.accept_language = lang_pick ? "es" : NULL;
    profile_api_answer(&resp, &site, &req, p);

    FUZZ_CHECK(resp.status == (rv == APR_SUCCESS ? 200 : 400),
               "status %d for ?%s", resp.status, args);
    FUZZ_CHECK(resp.lang == lang_pick, "language %d", resp.lang);
    FUZZ_CHECK(resp.body != NULL && resp.len == strlen(resp.body),
               "body of %zu bytes", (size_t)resp.len);

    if (resp.status == 200) {
        FUZZ_CHECK(resp.conditional && resp.etag != NULL
                   && (resp.content_encoding != NULL
                       ? strcmp(resp.etag,
                                profile_etag(resp.body, resp.len, p)) == 0
                       : fuzz_etag_ok(resp.etag, resp.body, resp.len, st,
                                      resp.lang, p)),
                   "ETag %s is not the body's", resp.etag);
        if (q->value != NULL && routes[r].coll >= 0) {
            FUZZ_CHECK(fuzz_selection(resp.body, resp.len,
                                      &st->coll[routes[r].coll],
                                      resp.lang) >= 0,
                       "filtered body is not a selection of items: %.*s",
                       (int)resp.len, resp.body);
        }
        return;
    }
    body = json_loadb(resp.body, resp.len, JSON_REJECT_DUPLICATES, &jerr);
    FUZZ_CHECK(body != NULL, "body is not JSON (%s): %.*s", jerr.text,
               (int)resp.len, resp.body);
    {
        json_t *list = json_object_get(body, "invalid-params");
        size_t i;

        FUZZ_CHECK(json_integer_value(json_object_get(body, "status"))
                   == 400 && json_is_string(json_object_get(body, "detail"))
                   && json_is_array(list)
                   && json_array_size(list) == (size_t)q->problems->nelts,
                   "400 body for %d problems: %.*s", q->problems->nelts,
                   (int)resp.len, resp.body);
        for (i = 0; i < json_array_size(list); i++) {
            const char *name = json_string_value(
                json_object_get(json_array_get(list, i), "name"));

            FUZZ_CHECK(name != NULL
                       && strcmp(name, APR_ARRAY_IDX(q->problems, i,
                                       profile_qp_problem_t).name) == 0,
                       "invalid-params[%zu] is %s", i, name);
        }
    }
    json_decref(body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    const profile_store_t *st = fuzz_sample();
    profile_query_t q;
    apr_status_t rv;
    const char *args;
    int r;

    if (size < 1) {
        return 0;
    }
    apr_pool_create(&p, fuzz_root);
    r = data[0] % (sizeof(routes) / sizeof(routes[0]));
    args = fuzz_cstr(data + 1, size - 1, p);

    rv = profile_query_parse(&q, args, routes[r].param, p);
    check_query(&q, rv, routes[r].param);
    check_text((const char *)data + 1, size - 1, p);
    check_answer(st, r, args, &q, rv, (data[0] >> 4) & 1, p);

    apr_pool_destroy(p);
    return 0;
}
