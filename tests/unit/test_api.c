/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_api.c -- profile_api_answer end to end on the sample data
 * (CONTRACT §2-§8): status, body, ETag, media type and header fields.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <apr_lib.h>
#include <jansson.h>

#include "unit.h"
#include "profile_api.h"
#include "profile_etag.h"

#define JSON "application/json"
#define PROBLEM "application/problem+json"
#define ALLOW "GET, HEAD, OPTIONS"

static profile_store_t *store;

static int group_setup(void **state)
{
    const char *err = NULL;
    profile_load_opts_t opts = {.render = 1, .compress = 1,
                                .max_size = 0};

    if (unit_group_setup(state) != 0) {
        return -1;
    }
    if (profile_store_load(&store, &err, SAMPLE_PATH, &opts, unit_root)
        != APR_SUCCESS) {
        print_error("cannot load the sample: %s\n", err);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ helpers */

static profile_site_t site_star(void)
{
    profile_site_t s;

    memset(&s, 0, sizeof(s));
    s.store = store;
    s.origins = NULL;
    s.max_age = 300;
    return s;
}

static profile_site_t site_list(apr_pool_t *p)
{
    profile_site_t s = site_star();
    apr_array_header_t *o = apr_array_make(p, 2, sizeof(const char *));

    APR_ARRAY_PUSH(o, const char *) = "https://a.example";
    APR_ARRAY_PUSH(o, const char *) = "https://b.example";
    s.origins = o;
    return s;
}

/* A request for `target` ("/path" or "/path?query") below /api/v1. */
static profile_request_t request(apr_pool_t *p, profile_method_e m,
                                 const char *method_name, const char *target)
{
    profile_request_t r;
    const char *q = target ? strchr(target, '?') : NULL;

    memset(&r, 0, sizeof(r));
    r.method = m;
    r.method_name = method_name;
    r.path = q ? apr_pstrmemdup(p, target, (apr_size_t)(q - target)) : target;
    r.args = q ? q + 1 : NULL;
    r.uri = apr_pstrcat(p, "/api/v1", r.path ? r.path : "", NULL);
    return r;
}

static profile_request_t get(apr_pool_t *p, const char *target)
{
    return request(p, PROFILE_M_GET, "GET", target);
}

static profile_response_t answer(apr_pool_t *p, const profile_site_t *site,
                                 const profile_request_t *req)
{
    profile_response_t resp;

    memset(&resp, 0, sizeof(resp));
    profile_api_answer(&resp, site, req, p);
    assert_non_null(resp.headers);
    return resp;
}

static profile_response_t answer_star(apr_pool_t *p,
                                      const profile_request_t *req)
{
    profile_site_t s = site_star();

    return answer(p, &s, req);
}

static profile_response_t get_star(apr_pool_t *p, const char *target)
{
    profile_request_t r = get(p, target);

    return answer_star(p, &r);
}

static const char *hdr(const profile_response_t *r, const char *name)
{
    return apr_table_get(r->headers, name);
}

#define assert_hdr(r, name, want) do {                                     \
        const char *v_ = hdr((r), (name));                                 \
        if (v_ == NULL || strcmp(v_, (want)) != 0) {                       \
            print_error("%s: got \"%s\", want \"%s\"\n", (name),           \
                        v_ ? v_ : "(none)", (want));                       \
        }                                                                  \
        assert_non_null(v_);                                               \
        assert_string_equal(v_, (want));                                   \
    } while (0)

#define assert_no_hdr(r, name) do {                                        \
        const char *v_ = hdr((r), (name));                                 \
        if (v_ != NULL) {                                                  \
            print_error("%s: unexpected \"%s\"\n", (name), v_);            \
        }                                                                  \
        assert_null(v_);                                                   \
    } while (0)

/* The Vary tokens of r, over every Vary field, lower-cased, each between
 * "|" ("|accept-language|accept-encoding|origin|"), in order. */
typedef struct {
    apr_pool_t *p;
    const char *acc;
} vary_ctx_t;

static int collect_vary(void *ctx, const char *key, const char *value)
{
    vary_ctx_t *c = ctx;

    (void)key;
    c->acc = apr_pstrcat(c->p, c->acc, value, ",", NULL);
    return 1;
}

static const char *vary_tokens(const profile_response_t *r, apr_pool_t *p)
{
    vary_ctx_t c = {.p = p, .acc = ""};
    char *all, *tok, *last;
    const char *out = "|";

    apr_table_do(collect_vary, &c, r->headers, "Vary", NULL);
    all = apr_pstrdup(p, c.acc);
    for (tok = apr_strtok(all, ", \t", &last); tok;
         tok = apr_strtok(NULL, ", \t", &last)) {
        char *ch;
        for (ch = tok; *ch; ch++) {
            *ch = (char)apr_tolower(*ch);
        }
        out = apr_pstrcat(p, out, tok, "|", NULL);
    }
    return out;
}

static int vary_has(const profile_response_t *r, const char *token,
                    apr_pool_t *p)
{
    char *t = apr_pstrcat(p, "|", token, "|", NULL), *c;

    for (c = t; *c; c++) {
        *c = (char)apr_tolower(*c);
    }
    return strstr(vary_tokens(r, p), t) != NULL;
}

#define assert_vary(r, token, p) do {                                      \
        if (!vary_has((r), (token), (p))) {                                \
            print_error("Vary %s lacks %s\n", vary_tokens((r), (p)),       \
                        (token));                                          \
        }                                                                  \
        assert_true(vary_has((r), (token), (p)));                          \
    } while (0)

#define assert_no_vary(r, token, p) do {                                   \
        if (vary_has((r), (token), (p))) {                                 \
            print_error("Vary %s has %s\n", vary_tokens((r), (p)),         \
                        (token));                                          \
        }                                                                  \
        assert_false(vary_has((r), (token), (p)));                         \
    } while (0)

static void assert_body(const profile_response_t *r, const profile_body_t *b)
{
    assert_int_equal(r->len, b->len);
    assert_memory_equal(r->body, b->data, b->len);
    assert_non_null(r->etag);
    assert_string_equal(r->etag, b->etag);
}

/* A 200 with a JSON body. */
static void assert_ok_json(const profile_response_t *r)
{
    if (r->status != 200) {
        print_error("status %d: %.*s\n", r->status, (int)r->len,
                    r->body ? r->body : "");
    }
    assert_int_equal(r->status, 200);
    assert_non_null(r->content_type);
    assert_string_equal(r->content_type, JSON);
    assert_non_null(r->body);
    assert_non_null(r->etag);
    assert_true(r->conditional);
}

/* Checks the problem body of an error answer and returns it parsed
 * (the caller drops it). */
static json_t *assert_problem(const profile_response_t *r, int status)
{
    json_error_t jerr;
    json_t *v;
    const char *key;
    json_t *member;

    if (r->status != status) {
        print_error("status %d, want %d: %.*s\n", r->status, status,
                    (int)r->len, r->body ? r->body : "");
    }
    assert_int_equal(r->status, status);
    assert_non_null(r->body);
    assert_non_null(r->content_type);
    assert_null(r->etag);
    assert_false(r->conditional);
    assert_hdr(r, "Cache-Control", "no-store");
    v = json_loadb(r->body, r->len, JSON_REJECT_DUPLICATES, &jerr);
    if (v == NULL) {
        print_error("problem is not JSON (%s): %.*s\n", jerr.text,
                    (int)r->len, r->body);
    }
    assert_non_null(v);
    assert_true(json_is_object(v));
    assert_string_equal(json_string_value(json_object_get(v, "type")),
                        "about:blank");
    assert_true(json_is_string(json_object_get(v, "title")));
    assert_true(strlen(json_string_value(json_object_get(v, "title"))) > 0);
    assert_true(json_is_integer(json_object_get(v, "status")));
    assert_int_equal(json_integer_value(json_object_get(v, "status")),
                     status);
    assert_true(json_is_string(json_object_get(v, "detail")));
    assert_true(strlen(json_string_value(json_object_get(v, "detail"))) > 0);
    json_object_foreach(v, key, member) {
        if (strcmp(key, "type") && strcmp(key, "title")
            && strcmp(key, "status") && strcmp(key, "detail")
            && strcmp(key, "invalid-params")) {
            print_error("unexpected member \"%s\"\n", key);
            fail();
        }
    }
    /* invalid-params appears on 400 (only) */
    if (status == 400) {
        assert_true(json_is_array(json_object_get(v, "invalid-params")));
    }
    else {
        assert_null(json_object_get(v, "invalid-params"));
    }
    (void)member;
    return v;
}

static const char *title_of(json_t *v)
{
    return json_string_value(json_object_get(v, "title"));
}

static const char *detail_of(json_t *v)
{
    return json_string_value(json_object_get(v, "detail"));
}

static json_t *invalid_params(json_t *v)
{
    return json_object_get(v, "invalid-params");
}

static const char *param_name(json_t *v, size_t i)
{
    return json_string_value(json_object_get(
        json_array_get(invalid_params(v), i), "name"));
}

/* The filtered collection "[" + the given items + "]" in language l. */
static const char *joined(apr_pool_t *p, int coll, int l, const int *idx,
                          int n)
{
    const char *s = "[";
    int i;

    for (i = 0; i < n; i++) {
        const profile_body_t *b = &store->coll[coll].items[idx[i]].body[l];

        s = apr_pstrcat(p, s, i ? "," : "",
                        apr_pstrmemdup(p, b->data, b->len), NULL);
    }
    return apr_pstrcat(p, s, "]", NULL);
}

static void assert_filtered(apr_pool_t *p, const profile_response_t *r,
                            const char *want)
{
    assert_ok_json(r);
    assert_mem_str(r->body, r->len, want);
    /* From the elements' hashes (see
     * filtered_etag_comes_from_the_chosen_elements). */
    assert_non_null(r->etag);
    assert_int_equal(strlen(r->etag), 21);
    assert_memory_equal(r->etag, "\"p1-", 4);
    if (strcmp(want, "[]") == 0) {
        assert_string_equal(r->etag, profile_etag_joined(NULL, 0, p));
    }
    assert_hdr(r, "Cache-Control", "public, max-age=300");
}

static profile_response_t get_lang(apr_pool_t *p, const char *target,
                                   const char *accept_language)
{
    profile_request_t r = get(p, target);

    r.accept_language = accept_language;
    return answer_star(p, &r);
}

/* ----------------------------------------------------------- GET 200 */

static void get_of_each_route_serves_its_stored_body(void **state)
{
    apr_pool_t *p = POOL(state);
    const struct {
        const char *path;
        const profile_body_t *body;
    } routes[] = {
        {"/profile", &store->profile[0]},
        {"/skills", &store->coll[PROFILE_COLL_SKILLS].all[0]},
        {"/experience", &store->coll[PROFILE_COLL_EXPERIENCE].all[0]},
        {"/education", &store->coll[PROFILE_COLL_EDUCATION].all[0]},
        {"/contact", &store->contact[0]},
        {"/case-studies", &store->coll[PROFILE_COLL_CASE_STUDIES].all[0]},
        {"/metrics", &store->coll[PROFILE_COLL_METRICS].all[0]},
    };
    size_t i;

    for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        profile_response_t r = get_star(p, routes[i].path);
        assert_ok_json(&r);
        assert_int_equal(r.lang, 0);
        assert_body(&r, routes[i].body);
    }
}

static void get_of_each_experience_id_serves_the_record(void **state)
{
    apr_pool_t *p = POOL(state);
    const profile_coll_t *c = &store->coll[PROFILE_COLL_EXPERIENCE];
    int i;

    for (i = 0; i < c->nitems; i++) {
        profile_response_t r = get_star(p, apr_pstrcat(p, "/experience/",
                                                        c->items[i].id,
                                                        NULL));
        assert_ok_json(&r);
        assert_body(&r, &c->items[i].body[0]);
    }
}

static void get_of_each_case_study_id_serves_the_record(void **state)
{
    apr_pool_t *p = POOL(state);
    const profile_coll_t *c = &store->coll[PROFILE_COLL_CASE_STUDIES];
    int i;

    for (i = 0; i < c->nitems; i++) {
        profile_response_t r = get_star(p, apr_pstrcat(p, "/case-studies/",
                                                        c->items[i].id,
                                                        NULL));
        assert_ok_json(&r);
        assert_body(&r, &c->items[i].body[0]);
    }
}

static void get_carries_the_contract_header_fields(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/profile");

    assert_ok_json(&r);
    assert_hdr(&r, "Content-Language", "en");
    assert_hdr(&r, "Cache-Control", "public, max-age=300");
    assert_hdr(&r, "X-Content-Type-Options", "nosniff");
    assert_hdr(&r, "Access-Control-Allow-Origin", "*");
    assert_hdr(&r, "Access-Control-Expose-Headers", "ETag");
    assert_no_hdr(&r, "Access-Control-Allow-Credentials");
    assert_string_equal(vary_tokens(&r, p),
                        "|accept-language|accept-encoding|");
}

static void max_age_comes_from_the_site(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_site_t s = site_star();
    profile_request_t req = get(p, "/metrics");
    profile_response_t r;

    s.max_age = 60;
    r = answer(p, &s, &req);
    assert_ok_json(&r);
    assert_hdr(&r, "Cache-Control", "public, max-age=60");
}

static void head_gets_the_same_answer_as_get(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_GET, "HEAD", "/contact");
    profile_response_t r = answer_star(p, &req);

    assert_ok_json(&r);
    assert_body(&r, &store->contact[0]);
}

static void spanish_is_served_for_es_mx(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_lang(p, "/profile", "es-MX, en;q=0.5");

    assert_ok_json(&r);
    assert_int_equal(r.lang, 1);
    assert_hdr(&r, "Content-Language", "es");
    assert_body(&r, &store->profile[1]);
    assert_string_not_equal(r.etag, store->profile[0].etag);
}

static void spanish_item_is_served(void **state)
{
    apr_pool_t *p = POOL(state);
    const profile_coll_t *c = &store->coll[PROFILE_COLL_CASE_STUDIES];
    profile_response_t r = get_lang(p, apr_pstrcat(p, "/case-studies/",
                                                   c->items[1].id, NULL),
                                    "es");

    assert_ok_json(&r);
    assert_body(&r, &c->items[1].body[1]);
}

static void unacceptable_language_falls_back_to_default(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_lang(p, "/skills", "de, fr;q=0.5");

    assert_ok_json(&r);
    assert_int_equal(r.lang, 0);
    assert_hdr(&r, "Content-Language", "en");
}

static void empty_query_is_no_parameters(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r;

    r = get_star(p, "/profile?");
    assert_ok_json(&r);
    r = get_star(p, "/profile?&&");
    assert_ok_json(&r);
    r = get_star(p, "/skills?&");
    assert_ok_json(&r);
    assert_body(&r, &store->coll[PROFILE_COLL_SKILLS].all[0]);
}

/* ----------------------------------------------------------- OPTIONS */

static void options_anywhere_is_200_with_allow_and_no_body(void **state)
{
    static const char *const targets[] = {
        "/profile", "/skills?q=x", "/experience/no-such-id", "/nope", "/",
        "", "/skills/", "/skills?x=1&x=2", "/experience/nope?company=%zz"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                        targets[i]);
        profile_response_t r = answer_star(p, &req);

        if (r.status != 200) {
            print_error("OPTIONS %s: %d\n", targets[i], r.status);
        }
        assert_int_equal(r.status, 200);
        assert_hdr(&r, "Allow", ALLOW);
        assert_null(r.content_type);
        assert_int_equal(r.len, 0);
        assert_null(r.etag);
        assert_false(r.conditional);
        assert_hdr(&r, "Content-Language", "en");
        assert_hdr(&r, "Access-Control-Allow-Origin", "*");
        assert_hdr(&r, "X-Content-Type-Options", "nosniff");
        assert_vary(&r, "Accept-Language", p);
        assert_no_hdr(&r, "Access-Control-Allow-Credentials");
    }
}

static void options_answers_in_the_chosen_language(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                    "/profile");
    profile_response_t r;

    req.accept_language = "es";
    r = answer_star(p, &req);
    assert_int_equal(r.status, 200);
    assert_hdr(&r, "Content-Language", "es");
}

static void preflight_gets_methods_headers_and_max_age(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                    "/experience/no-such-id");
    profile_response_t r;

    req.origin = "https://app.example";
    req.acr_method = "GET";
    r = answer_star(p, &req);
    assert_int_equal(r.status, 200);
    assert_hdr(&r, "Allow", ALLOW);
    assert_hdr(&r, "Access-Control-Allow-Origin", "*");
    assert_hdr(&r, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    assert_hdr(&r, "Access-Control-Allow-Headers",
               "Accept-Language, If-None-Match, If-Modified-Since");
    assert_hdr(&r, "Access-Control-Max-Age", "7200");
    assert_no_hdr(&r, "Access-Control-Allow-Credentials");
}

static void options_without_request_method_is_not_a_preflight(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                    "/profile");
    profile_response_t r;

    req.origin = "https://app.example";
    r = answer_star(p, &req);
    assert_int_equal(r.status, 200);
    assert_no_hdr(&r, "Access-Control-Allow-Methods");
    assert_no_hdr(&r, "Access-Control-Max-Age");
    assert_hdr(&r, "Access-Control-Expose-Headers", "ETag");
}

static void options_without_origin_is_not_a_preflight(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                    "/profile");
    profile_response_t r;

    req.acr_method = "GET";
    r = answer_star(p, &req);
    assert_int_equal(r.status, 200);
    assert_no_hdr(&r, "Access-Control-Allow-Methods");
}

/* ---------------------------------------------------------- 404, 405 */

static void unknown_paths_are_404(void **state)
{
    static const char *const paths[] = {
        "/skills/", "/Skills", "/skills/x", "/", "", "/experience/",
        "/experience/a/b", "/profile/x", "/nope", "/case-studies/"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        profile_response_t r = get_star(p, paths[i]);
        json_t *v = assert_problem(&r, 404);
        assert_string_equal(title_of(v), "Not Found");
        json_decref(v);
    }
}

static void path_outside_the_base_is_404(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = get(p, NULL);
    profile_response_t r;
    json_t *v;

    req.uri = "/elsewhere";
    r = answer_star(p, &req);
    v = assert_problem(&r, 404);
    json_decref(v);
}

static void unknown_id_is_404_naming_it(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/experience/no-such-id");
    json_t *v = assert_problem(&r, 404);

    assert_has(detail_of(v), "no-such-id");
    json_decref(v);
    r = get_star(p, "/case-studies/no-such-study");
    v = assert_problem(&r, 404);
    assert_has(detail_of(v), "no-such-study");
    json_decref(v);
}

/* The route's template (the access log's profile-route): on every
 * answer of a route, none where no route matches. */
static void answers_name_their_route_template(void **state)
{
    static const struct {
        profile_method_e m;
        const char *name, *target, *route;
    } cases[] = {
        {PROFILE_M_GET, "GET", "/skills", "/skills"},
        {PROFILE_M_GET, "GET", "/skills?q=kube", "/skills"},
        {PROFILE_M_GET, "GET", "/skills?x=1", "/skills"},
        {PROFILE_M_GET, "GET", "/experience/no-such-id", "/experience/{id}"},
        {PROFILE_M_GET, "GET", "/case-studies/billing-api-apache-module",
         "/case-studies/{id}"},
        {PROFILE_M_OTHER, "POST", "/metrics", "/metrics"},
        {PROFILE_M_OPTIONS, "OPTIONS", "/contact", "/contact"},
        {PROFILE_M_GET, "GET", "/nope", NULL},
        {PROFILE_M_OPTIONS, "OPTIONS", "/skills/", NULL}
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        profile_request_t req = request(p, cases[i].m, cases[i].name,
                                        cases[i].target);
        profile_response_t r = answer_star(p, &req);

        if (cases[i].route == NULL) {
            assert_null(r.route);
        }
        else {
            assert_non_null(r.route);
            assert_string_equal(r.route, cases[i].route);
        }
    }
}

static void ids_are_case_sensitive(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/experience/Norteverde-platform-lead");
    json_t *v = assert_problem(&r, 404);

    json_decref(v);
    r = get_star(p, "/experience/norteverde-platform-lead");
    assert_ok_json(&r);
}

static void unknown_path_detail_names_the_path(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/nope");
    json_t *v = assert_problem(&r, 404);

    assert_has(detail_of(v), "/nope");
    json_decref(v);
}

static void other_method_on_existing_route_is_405(void **state)
{
    static const char *const paths[] = {
        "/profile", "/skills", "/experience", "/experience/no-such-id",
        "/case-studies/billing-api-apache-module", "/metrics"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        profile_request_t req = request(p, PROFILE_M_OTHER, "DELETE",
                                        paths[i]);
        profile_response_t r = answer_star(p, &req);
        json_t *v = assert_problem(&r, 405);

        assert_hdr(&r, "Allow", ALLOW);
        assert_string_equal(title_of(v), "Method Not Allowed");
        assert_has(detail_of(v), "DELETE");
        json_decref(v);
    }
}

static void other_method_on_unknown_path_is_404(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OTHER, "POST", "/nope");
    profile_response_t r = answer_star(p, &req);
    json_t *v = assert_problem(&r, 404);

    json_decref(v);
}

/* ------------------------------------------------------ check order */

/* Path (404) before method (405) before query (400) before id (404). */
static void checks_run_in_contract_order(void **state)
{
    static const struct {
        const char *method, *target;
        int want;
    } cases[] = {
        {"PUT", "/skills/x?bad=1", 404},
        {"PUT", "/skills?x=1&q=", 405},
        {"PATCH", "/case-studies/no-such-id?x=1", 405},
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        profile_request_t req = request(p, PROFILE_M_OTHER, cases[i].method,
                                        cases[i].target);
        profile_response_t r = answer_star(p, &req);

        if (r.status != cases[i].want) {
            print_error("%s %s\n", cases[i].method, cases[i].target);
        }
        assert_int_equal(r.status, cases[i].want);
    }
}

static void query_is_checked_before_id(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/experience/no-such-id?x=1");
    json_t *v = assert_problem(&r, 400);

    json_decref(v);
    /* An item route takes no parameters, not even its collection's. */
    r = get_star(p, "/experience/no-such-id?company=x");
    v = assert_problem(&r, 400);
    assert_string_equal(param_name(v, 0), "company");
    json_decref(v);
    r = get_star(p, "/experience/no-such-id");
    v = assert_problem(&r, 404);
    json_decref(v);
}

/* --------------------------------------------------------------- 400 */

static void unknown_parameter_is_400_with_invalid_params(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/skills?x=1");
    json_t *v = assert_problem(&r, 400);
    json_t *ip = invalid_params(v);

    assert_string_equal(title_of(v), "Bad Request");
    assert_int_equal(json_array_size(ip), 1);
    assert_string_equal(param_name(v, 0), "x");
    assert_true(json_is_string(json_object_get(json_array_get(ip, 0),
                                               "reason")));
    assert_true(strlen(json_string_value(json_object_get(
                    json_array_get(ip, 0), "reason"))) > 0);
    assert_has(detail_of(v), "x");
    json_decref(v);
}

static void parameter_on_route_without_parameters_is_400(void **state)
{
    static const char *const targets[] = {
        "/profile?q=a", "/education?q=a", "/contact?x", "/metrics?company=a",
        "/case-studies/billing-api-apache-module?organization=a"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        profile_response_t r = get_star(p, targets[i]);
        json_t *v = assert_problem(&r, 400);
        assert_int_equal(json_array_size(invalid_params(v)), 1);
        json_decref(v);
    }
}

static void each_bad_value_is_400_naming_the_parameter(void **state)
{
    static const char *const targets[] = {
        "/skills?q=", "/skills?q", "/skills?q=+%09+", "/skills?q=a&q=a",
        "/experience?company=%01", "/experience?company=%zz",
        "/case-studies?organization=%C3%28",
        "/case-studies?organization=%ED%A0%80"
    };
    static const char *const names[] = {
        "q", "q", "q", "q", "company", "company", "organization",
        "organization"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        profile_response_t r = get_star(p, targets[i]);
        json_t *v = assert_problem(&r, 400);
        assert_int_equal(json_array_size(invalid_params(v)), 1);
        assert_string_equal(param_name(v, 0), names[i]);
        json_decref(v);
    }
}

static void too_long_value_is_400(void **state)
{
    apr_pool_t *p = POOL(state);
    char v101[102];
    profile_response_t r;
    json_t *v;

    memset(v101, 'a', 101);
    v101[101] = '\0';
    r = get_star(p, apr_pstrcat(p, "/skills?q=", v101, NULL));
    v = assert_problem(&r, 400);
    json_decref(v);
    r = get_star(p, apr_pstrcat(p, "/skills?q=", v101 + 1, NULL));
    assert_ok_json(&r);
    assert_mem_str(r.body, r.len, "[]");
}

static void several_bad_parameters_are_each_listed_once(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/skills?x=1&y=2&x=3");
    json_t *v = assert_problem(&r, 400);

    assert_int_equal(json_array_size(invalid_params(v)), 2);
    assert_string_equal(param_name(v, 0), "x");
    assert_string_equal(param_name(v, 1), "y");
    json_decref(v);
}

static void undecodable_names_give_a_valid_problem(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/skills?%FF%01=1&a%0Ab=2");
    json_t *v = assert_problem(&r, 400);

    assert_int_equal(json_array_size(invalid_params(v)), 2);
    assert_non_null(param_name(v, 0));
    assert_non_null(param_name(v, 1));
    json_decref(v);
}

static void undecodable_id_gives_a_valid_problem(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/experience/\xFF\x01x");
    json_t *v = assert_problem(&r, 404);

    json_decref(v);
}

static void undecodable_method_gives_a_valid_problem(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OTHER, "X\xFF\x01",
                                    "/profile");
    profile_response_t r = answer_star(p, &req);
    json_t *v = assert_problem(&r, 405);

    json_decref(v);
}

/* ---------------------------------------------------- problem bodies */

static void problem_titles_are_spanish_for_es(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req;
    profile_response_t r, en;
    json_t *v, *ve;

    r = get_lang(p, "/skills?x=1", "es");
    en = get_lang(p, "/skills?x=1", "en");
    v = assert_problem(&r, 400);
    ve = assert_problem(&en, 400);
    assert_hdr(&r, "Content-Language", "es");
    assert_string_equal(title_of(v), "Solicitud incorrecta");
    assert_string_not_equal(detail_of(v), detail_of(ve));
    assert_string_not_equal(
        json_string_value(json_object_get(json_array_get(
            invalid_params(v), 0), "reason")),
        json_string_value(json_object_get(json_array_get(
            invalid_params(ve), 0), "reason")));
    json_decref(v);
    json_decref(ve);

    r = get_lang(p, "/nope", "es-ES");
    v = assert_problem(&r, 404);
    assert_string_equal(title_of(v), "No encontrado");
    json_decref(v);

    req = request(p, PROFILE_M_OTHER, "POST", "/skills");
    req.accept_language = "es";
    r = answer_star(p, &req);
    v = assert_problem(&r, 405);
    assert_string_equal(title_of(v), "M\xC3\xA9todo no permitido");
    assert_hdr(&r, "Content-Language", "es");
    json_decref(v);
}

static void problem_is_application_json_by_default(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/nope");

    assert_string_equal(r.content_type, JSON);
}

static profile_response_t get_accept(apr_pool_t *p, const char *target,
                                     const char *accept)
{
    profile_request_t req = get(p, target);

    req.accept = accept;
    return answer_star(p, &req);
}

static void accept_naming_problem_json_selects_it(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r;

    r = get_accept(p, "/nope", "application/problem+json");
    assert_string_equal(r.content_type, PROBLEM);
    r = get_accept(p, "/skills?x=1",
                   "application/json, application/problem+json;q=0.5");
    assert_int_equal(r.status, 400);
    assert_string_equal(r.content_type, PROBLEM);
    r = get_accept(p, "/nope", "Application/Problem+JSON");
    assert_string_equal(r.content_type, PROBLEM);
    r = get_accept(p, "/nope", "text/html, application/problem+json;q=0.001");
    assert_string_equal(r.content_type, PROBLEM);
    r = get_accept(p, "/nope", "application/problem+json;charset=utf-8");
    assert_string_equal(r.content_type, PROBLEM);
}

static void accept_problem_json_with_q0_keeps_application_json(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r;

    r = get_accept(p, "/nope", "application/problem+json;q=0");
    assert_string_equal(r.content_type, JSON);
    r = get_accept(p, "/nope", "application/problem+json;q=0.000, */*");
    assert_string_equal(r.content_type, JSON);
    r = get_accept(p, "/nope", "*/*");
    assert_string_equal(r.content_type, JSON);
    r = get_accept(p, "/nope", "application/*");
    assert_string_equal(r.content_type, JSON);
    r = get_accept(p, "/nope", "");
    assert_string_equal(r.content_type, JSON);
}

static void accept_does_not_change_a_200(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_accept(p, "/profile",
                                      "application/problem+json");

    assert_ok_json(&r);
    assert_no_vary(&r, "Accept", p);
}

static void errors_vary_on_accept_and_language(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = request(p, PROFILE_M_OTHER, "POST", "/skills");
    profile_response_t rs[3];
    int i;

    rs[0] = get_star(p, "/nope");
    rs[1] = get_star(p, "/skills?x=1");
    rs[2] = answer_star(p, &req);
    for (i = 0; i < 3; i++) {
        assert_vary(&rs[i], "Accept", p);
        assert_vary(&rs[i], "Accept-Language", p);
        assert_hdr(&rs[i], "Cache-Control", "no-store");
        assert_hdr(&rs[i], "X-Content-Type-Options", "nosniff");
        assert_hdr(&rs[i], "Access-Control-Allow-Origin", "*");
        assert_hdr(&rs[i], "Access-Control-Expose-Headers", "ETag");
        assert_hdr(&rs[i], "Content-Language", "en");
        assert_no_vary(&rs[i], "Origin", p);
    }
}

static void allow_is_only_on_405_and_options(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r;

    r = get_star(p, "/nope");
    assert_no_hdr(&r, "Allow");
    r = get_star(p, "/skills?x=1");
    assert_no_hdr(&r, "Allow");
}

static void precondition_failure_keeps_the_language(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_site_t s = site_star();
    profile_request_t req = get(p, "/profile");
    profile_response_t r;
    json_t *v;

    req.accept_language = "es";
    r = answer(p, &s, &req);
    assert_ok_json(&r);
    profile_api_error(&r, &s, &req, 412, p);
    v = assert_problem(&r, 412);
    assert_int_equal(r.lang, 1);
    assert_hdr(&r, "Content-Language", "es");
    assert_string_equal(r.content_type, JSON);
    json_decref(v);
}

/* -------------------------------------------------------------- CORS */

static profile_response_t list_get(apr_pool_t *p, const char *target,
                                   const char *origin)
{
    profile_site_t s = site_list(p);
    profile_request_t req = get(p, target);

    req.origin = origin;
    return answer(p, &s, &req);
}

static void listed_origin_is_echoed(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = list_get(p, "/profile", "https://b.example");

    assert_ok_json(&r);
    assert_hdr(&r, "Access-Control-Allow-Origin", "https://b.example");
    assert_hdr(&r, "Access-Control-Expose-Headers", "ETag");
    assert_string_equal(vary_tokens(&r, p), "|accept-language|accept-encoding|origin|");
    assert_no_hdr(&r, "Access-Control-Allow-Credentials");
}

static void unlisted_origin_is_not_echoed(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = list_get(p, "/profile", "https://c.example");

    assert_ok_json(&r);
    assert_no_hdr(&r, "Access-Control-Allow-Origin");
    assert_string_equal(vary_tokens(&r, p), "|accept-language|accept-encoding|origin|");
    /* a prefix or a different scheme is another origin */
    r = list_get(p, "/profile", "https://a.example.evil");
    assert_no_hdr(&r, "Access-Control-Allow-Origin");
    r = list_get(p, "/profile", "http://a.example");
    assert_no_hdr(&r, "Access-Control-Allow-Origin");
}

static void list_mode_without_origin_varies_on_origin(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = list_get(p, "/profile", NULL);

    assert_ok_json(&r);
    assert_no_hdr(&r, "Access-Control-Allow-Origin");
    assert_string_equal(vary_tokens(&r, p), "|accept-language|accept-encoding|origin|");
}

static void list_mode_errors_carry_cors_and_vary(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = list_get(p, "/experience/no-such-id",
                                    "https://a.example");
    json_t *v = assert_problem(&r, 404);

    assert_hdr(&r, "Access-Control-Allow-Origin", "https://a.example");
    assert_vary(&r, "Origin", p);
    assert_vary(&r, "Accept-Language", p);
    assert_vary(&r, "Accept", p);
    json_decref(v);
}

static void list_mode_preflight(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_site_t s = site_list(p);
    profile_request_t req = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                    "/skills");
    profile_response_t r;

    req.origin = "https://a.example";
    req.acr_method = "GET";
    r = answer(p, &s, &req);
    assert_int_equal(r.status, 200);
    assert_hdr(&r, "Access-Control-Allow-Origin", "https://a.example");
    assert_hdr(&r, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    assert_hdr(&r, "Access-Control-Max-Age", "7200");
    assert_vary(&r, "Origin", p);

    req.origin = "https://c.example";
    r = answer(p, &s, &req);
    assert_int_equal(r.status, 200);
    assert_no_hdr(&r, "Access-Control-Allow-Origin");
    assert_vary(&r, "Origin", p);
}

static void star_mode_ignores_origin(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_request_t req = get(p, "/profile");
    profile_response_t r;

    req.origin = "https://anything.example";
    r = answer_star(p, &req);
    assert_hdr(&r, "Access-Control-Allow-Origin", "*");
    assert_no_vary(&r, "Origin", p);
}

/* ----------------------------------------------------------- filters */

enum { EN = 0, ES = 1 };

static void company_strasse_finds_hafenstrasse(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int hafen[] = {1};
    const char *want = joined(p, PROFILE_COLL_EXPERIENCE, EN, hafen, 1);
    profile_response_t r;

    assert_has(want, "Hafenstra\xC3\x9F" "e");
    r = get_star(p, "/experience?company=STRASSE");
    assert_filtered(p, &r, want);
    assert_string_not_equal(r.etag,
                            store->coll[PROFILE_COLL_EXPERIENCE].all[0].etag);
    r = get_star(p, "/experience?company=hafenstra%C3%9Fe");
    assert_filtered(p, &r, want);
    r = get_star(p, "/experience?company=+%20STRASSE%09");
    assert_filtered(p, &r, want);
}

static void organization_matches_case_insensitively(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int cierzo[] = {2};
    const char *want = joined(p, PROFILE_COLL_CASE_STUDIES, EN, cierzo, 1);
    profile_response_t r;

    r = get_star(p, "/case-studies?organization=cierzo");
    assert_filtered(p, &r, want);
    r = get_star(p, "/case-studies?organization=INGENIER%C3%8DA");
    assert_filtered(p, &r, want);
    r = get_star(p, "/case-studies?organization=Ingenier%C3%ADa+Cierzo");
    assert_filtered(p, &r, want);
}

static void organization_matches_decomposed_value(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int cierzo[] = {2};
    profile_response_t r = get_star(p,
        "/case-studies?organization=Ingenieri%CC%81a");

    assert_filtered(p, &r, joined(p, PROFILE_COLL_CASE_STUDIES, EN, cierzo,
                                  1));
}

static void accents_are_significant_in_filters(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/case-studies?organization=ingenieria");

    assert_filtered(p, &r, "[]");
}

static void q_matching_a_skill_returns_the_whole_group(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int platform[] = {0};
    profile_response_t r = get_star(p, "/skills?q=kubernetes");

    assert_filtered(p, &r, joined(p, PROFILE_COLL_SKILLS, EN, platform, 1));
    /* the whole group: all six skills, not only the match */
    assert_has(r.body, "Terraform");
}

static void q_matching_a_title_returns_the_group(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int leadership[] = {4};
    profile_response_t r = get_star(p, "/skills?q=LEADER");

    assert_filtered(p, &r, joined(p, PROFILE_COLL_SKILLS, EN, leadership, 1));
}

static void q_matching_several_groups_keeps_data_order(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int design[] = {1, 2};
    profile_response_t r = get_star(p, "/skills?q=design");

    assert_filtered(p, &r, joined(p, PROFILE_COLL_SKILLS, EN, design, 2));
}

static void q_does_not_search_the_summary(void **state)
{
    apr_pool_t *p = POOL(state);
    /* "feedback" only occurs in a group's summary. */
    profile_response_t r = get_star(p, "/skills?q=feedback");

    assert_filtered(p, &r, "[]");
}

static void company_does_not_search_other_fields(void **state)
{
    apr_pool_t *p = POOL(state);
    /* "Hamburg" is in a context, "Kubernetes" in highlights. */
    profile_response_t r = get_star(p, "/experience?company=Hamburg");

    assert_filtered(p, &r, "[]");
    r = get_star(p, "/experience?company=kubernetes");
    assert_filtered(p, &r, "[]");
}

static void filters_use_the_chosen_language(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int delivery[] = {3};
    profile_response_t r;

    r = get_lang(p, "/skills?q=pruebas", "es");
    assert_filtered(p, &r, joined(p, PROFILE_COLL_SKILLS, ES, delivery, 1));
    assert_hdr(&r, "Content-Language", "es");
    r = get_lang(p, "/skills?q=pruebas", "en");
    assert_filtered(p, &r, "[]");
    r = get_lang(p, "/skills?q=testing", "es");
    assert_filtered(p, &r, "[]");
    r = get_lang(p, "/skills?q=testing", "en");
    assert_filtered(p, &r, joined(p, PROFILE_COLL_SKILLS, EN, delivery, 1));
}

/* Two skill groups whose skills are given per language (CONTRACT §9):
 * "Terraform" only in English, "Pruebas" and "Revisión" only in
 * Spanish, "Kubernetes" in both. */
static const char PER_LANGUAGE_SKILLS[] =
    "{\"languages\": [\"en\", \"es\"],"
    " \"profile\": {\"name\": \"N\", \"headline\": \"H\", \"summary\": \"S\"},"
    " \"skills\": ["
    "  {\"title\": {\"en\": \"Platform\", \"es\": \"Plataforma\"},"
    "   \"summary\": \"S\","
    "   \"skills\": {\"en\": [\"Kubernetes\", \"Terraform\"],"
    "                \"es\": [\"Kubernetes\"]}},"
    "  {\"title\": {\"en\": \"Delivery\", \"es\": \"Entrega\"},"
    "   \"summary\": \"S\","
    "   \"skills\": {\"en\": [\"Testing\"],"
    "                \"es\": [\"Pruebas\","
    "                       \"Revisi\xC3\xB3n de c\xC3\xB3" "digo\"]}}],"
    " \"experience\": [], \"education\": [],"
    " \"contact\": {\"contacts\": [], \"links\": []},"
    " \"caseStudies\": [], \"metrics\": []}";

static void q_matches_the_chosen_languages_own_list(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = NULL;
    const char *err = NULL;
    profile_site_t site = site_star();
    const profile_coll_t *sk;
    static const struct {
        const char *q, *lang;
        int group;                  /* the one group returned; -1: none */
    } cases[] = {
        {"terraform", "en", 0}, {"terraform", "es", -1},
        {"kubernetes", "en", 0}, {"kubernetes", "es", 0},
        {"pruebas", "es", 1}, {"pruebas", "en", -1},
        {"REVISI%C3%93N", "es", 1}, {"revisi%C3%B3n", "en", -1},
        {"testing", "en", 1}, {"testing", "es", -1},
        {"entrega", "es", 1}, {"entrega", "en", -1},
    };
    size_t i;

    assert_int_equal(profile_store_parse(&st, &err, PER_LANGUAGE_SKILLS,
                                         sizeof(PER_LANGUAGE_SKILLS) - 1,
                                         "mem.json", 0, p), APR_SUCCESS);
    sk = &st->coll[PROFILE_COLL_SKILLS];
    site.store = st;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        profile_request_t r = get(p, apr_pstrcat(p, "/skills?q=", cases[i].q,
                                                 NULL));
        profile_response_t resp;
        int l = strcmp(cases[i].lang, "en") == 0 ? 0 : 1;

        r.accept_language = cases[i].lang;
        resp = answer(p, &site, &r);
        assert_hdr(&resp, "Content-Language", cases[i].lang);
        if (cases[i].group < 0) {
            assert_filtered(p, &resp, "[]");
        }
        else {
            const profile_body_t *b = &sk->items[cases[i].group].body[l];

            /* The whole group, with that language's list. */
            assert_filtered(p, &resp, apr_pstrcat(p, "[",
                                apr_pstrmemdup(p, b->data, b->len), "]",
                                NULL));
        }
    }
    /* The Spanish group carries only its Spanish skills. */
    assert_mem_str(sk->items[0].body[1].data, sk->items[0].body[1].len,
                   "{\"title\":\"Plataforma\",\"summary\":\"S\","
                   "\"skills\":[\"Kubernetes\"]}");
}

static void filtered_body_is_in_the_chosen_language(void **state)
{
    apr_pool_t *p = POOL(state);
    static const int mareta[] = {3};
    profile_response_t r = get_lang(p, "/experience?company=mareta", "es");

    assert_filtered(p, &r, joined(p, PROFILE_COLL_EXPERIENCE, ES, mareta, 1));
}

static void no_match_is_an_empty_array_with_its_own_etag(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/metrics");
    const char *etag_all = r.etag;

    r = get_star(p, "/experience?company=zzz-no-such-company");
    assert_ok_json(&r);
    assert_int_equal(r.len, 2);
    assert_memory_equal(r.body, "[]", 2);
    assert_string_equal(r.etag, profile_etag_joined(NULL, 0, p));
    assert_string_not_equal(r.etag, etag_all);
    assert_hdr(&r, "Content-Language", "en");
    assert_string_equal(vary_tokens(&r, p),
                        "|accept-language|accept-encoding|");
}

static void filter_matching_everything_equals_the_collection(void **state)
{
    apr_pool_t *p = POOL(state);
    /* Every company name holds an "e": same bytes, so the same ETag. */
    profile_response_t r = get_star(p, "/experience?company=e");

    assert_body(&r, &store->coll[PROFILE_COLL_EXPERIENCE].all[0]);
}

static void empty_filter_value_is_400_not_everything(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_star(p, "/experience?company=++");
    json_t *v = assert_problem(&r, 400);

    json_decref(v);
}

/* ------------------------------------------------- content codings */

static profile_response_t get_coded(apr_pool_t *p, const char *target,
                                    const char *ae, int compress)
{
    profile_site_t s = site_star();
    profile_request_t r = get(p, target);

    s.compress = compress;
    r.accept_encoding = ae;
    return answer(p, &s, &r);
}

static void unfiltered_answers_come_in_the_accepted_coding(void **state)
{
    apr_pool_t *p = POOL(state);
    static const char *const targets[] = {
        "/profile", "/contact", "/skills", "/experience", "/education",
        "/case-studies", "/metrics", "/experience/norteverde-platform-lead"
    };
    static const struct {
        const char *ae;
        profile_enc_e enc;
    } cases[] = {
        {NULL, PROFILE_ENC_IDENTITY},
        {"identity", PROFILE_ENC_IDENTITY},
        {"gzip", PROFILE_ENC_GZIP},
        {"gzip, deflate, br", PROFILE_ENC_BR},
        {"br;q=0, gzip", PROFILE_ENC_GZIP},
    };
    size_t t, c;

    for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
        profile_response_t plain = get_coded(p, targets[t], NULL, 1);

        for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            profile_response_t r = get_coded(p, targets[t], cases[c].ae, 1);

            assert_ok_json(&r);
            assert_vary(&r, "Accept-Encoding", p);
            assert_true(r.stored);
            if (cases[c].enc == PROFILE_ENC_IDENTITY) {
                assert_null(r.content_encoding);
                assert_int_equal(r.len, plain.len);
                assert_string_equal(r.etag, plain.etag);
                continue;
            }
            assert_non_null(r.content_encoding);
            assert_string_equal(r.content_encoding,
                                profile_enc_names[cases[c].enc]);
            /* Its own bytes, its own strong ETag. */
            assert_true(r.len < plain.len);
            assert_string_not_equal(r.etag, plain.etag);
            assert_string_equal(r.etag, profile_etag(r.body, r.len, p));
        }
    }
}

static void each_language_has_its_own_coded_forms(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_site_t s = site_star();
    profile_request_t en = get(p, "/profile"), es = get(p, "/profile");
    profile_response_t a, b;

    s.compress = 1;
    en.accept_encoding = es.accept_encoding = "br";
    es.accept_language = "es";
    a = answer(p, &s, &en);
    b = answer(p, &s, &es);
    assert_string_equal(a.content_encoding, "br");
    assert_string_equal(b.content_encoding, "br");
    assert_string_equal(hdr(&b, "Content-Language"), "es");
    assert_string_not_equal(a.etag, b.etag);
}

static void filtered_answers_stay_identity(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_coded(p, "/skills?q=linux", "gzip, br", 1);

    assert_ok_json(&r);
    assert_null(r.content_encoding);
    assert_false(r.stored);
    assert_vary(&r, "Accept-Encoding", p);
}

static void compression_off_serves_identity_and_still_varies(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_response_t r = get_coded(p, "/case-studies", "gzip, br", 0);

    assert_ok_json(&r);
    assert_null(r.content_encoding);
    /* mod_deflate may compress the 200 but never marks the 304. */
    assert_vary(&r, "Accept-Encoding", p);
}

static void filtered_etag_comes_from_the_chosen_elements(void **state)
{
    apr_pool_t *p = POOL(state);
    const profile_coll_t *c = &store->coll[PROFILE_COLL_SKILLS];
    const profile_body_t *want[1];
    profile_response_t a = get_star(p, "/skills?q=kube");
    profile_response_t b = get_star(p, "/skills?q=KUBERNETES");
    profile_response_t all = get_star(p, "/skills");
    profile_response_t other = get_star(p, "/skills?q=rust");

    /* The same elements, whichever value chose them: same bytes, same
     * ETag. */
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.body, b.body, a.len);
    assert_string_equal(a.etag, b.etag);
    want[0] = &c->items[0].body[0];
    assert_mem_str(a.body, a.len,
                   apr_pstrcat(p, "[", apr_pstrmemdup(p, want[0]->data,
                                                      want[0]->len),
                               "]", NULL));
    assert_string_equal(a.etag, profile_etag_joined(want, 1, p));
    assert_string_not_equal(a.etag, other.etag);
    assert_string_not_equal(a.etag, all.etag);
    assert_string_not_equal(a.etag, c->items[0].body[0].etag);
}

static void errors_and_options_vary_by_encoding_too(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_site_t s = site_star();
    profile_request_t o = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                  "/profile");
    profile_response_t r;

    r = get_coded(p, "/nope", "gzip", 1);
    assert_int_equal(r.status, 404);
    assert_null(r.content_encoding);
    assert_vary(&r, "Accept-Encoding", p);
    s.compress = 1;
    r = answer(p, &s, &o);
    assert_vary(&r, "Accept-Encoding", p);
}

/* ------------------------------------------------- validators (§5) */

static profile_response_t conditional(apr_pool_t *p, profile_conds_t c)
{
    profile_site_t s = site_star();
    profile_request_t r = get(p, "/profile");
    profile_response_t resp = answer(p, &s, &r);

    assert_int_equal(resp.status, 200);
    assert_true(resp.conditional);
    profile_api_conditions(&resp, &s, &r, &c, p);
    return resp;
}

static profile_conds_t no_conds(void)
{
    profile_conds_t c;

    memset(&c, 0, sizeof(c));
    c.last_modified = apr_time_from_sec(1614834367);   /* 2021-03-04 */
    return c;
}

static void matching_if_none_match_is_304(void **state)
{
    profile_conds_t c = no_conds();

    c.if_none_match = PROFILE_COND_WEAK;
    assert_int_equal(conditional(*state, c).status, 304);
    assert_int_equal(conditional(*state, no_conds()).status, 200);
}

static void failed_if_match_or_if_unmodified_since_is_412(void **state)
{
    profile_conds_t c = no_conds();
    profile_response_t r;

    c.if_match = PROFILE_COND_NOMATCH;
    r = conditional(*state, c);
    assert_int_equal(r.status, 412);
    assert_hdr(&r, "Cache-Control", "no-store");
    c = no_conds();
    c.if_unmodified_since = PROFILE_COND_STRONG;
    assert_int_equal(conditional(*state, c).status, 412);
}

static void if_modified_since_is_ignored_beside_if_none_match(void **state)
{
    profile_conds_t c = no_conds();

    c.if_none_match = PROFILE_COND_NOMATCH;
    c.if_modified_since = "Fri, 01 Jan 2100 00:00:00 GMT";
    assert_int_equal(conditional(*state, c).status, 200);
}

static void if_modified_since_at_or_after_last_modified_is_304(void **state)
{
    profile_conds_t c = no_conds();

    c.if_modified_since = "Thu, 04 Mar 2021 05:06:07 GMT";
    assert_int_equal(conditional(*state, c).status, 304);
    c.if_modified_since = "Fri, 01 Jan 2100 00:00:00 GMT";    /* future */
    assert_int_equal(conditional(*state, c).status, 304);
    c.if_modified_since = "Thu, 04 Mar 2021 05:06:06 GMT";
    assert_int_equal(conditional(*state, c).status, 200);
    c.if_modified_since = "not a date";
    assert_int_equal(conditional(*state, c).status, 200);
}

static void satisfied_if_unmodified_since_rules_out_inm_304(void **state)
{
    /* httpd's ap_meets_conditions() quirk, kept. */
    profile_conds_t c = no_conds();

    c.if_unmodified_since = PROFILE_COND_NOMATCH;
    c.if_none_match = PROFILE_COND_STRONG;
    assert_int_equal(conditional(*state, c).status, 200);
}

/* ------------------------------------------ data not loaded (§9) */

static void unavailable_is_503_with_cors_and_retry_after(void **state)
{
    apr_pool_t *p = *state;
    profile_site_t s = site_star();
    profile_request_t r = get(p, "/profile");
    profile_response_t resp;
    json_t *body;

    r.accept_language = "es-MX, en;q=0.5";
    memset(&resp, 0, sizeof(resp));
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_int_equal(resp.status, 503);
    assert_hdr(&resp, "Retry-After", "60");
    assert_hdr(&resp, "Cache-Control", "no-store");
    assert_hdr(&resp, "Access-Control-Allow-Origin", "*");
    assert_hdr(&resp, "Content-Language", "es");
    body = json_loadb(resp.body, resp.len, 0, NULL);
    assert_non_null(body);
    assert_int_equal(json_integer_value(json_object_get(body, "status")),
                     503);
    assert_string_equal(json_string_value(json_object_get(body, "title")),
                        "Servicio no disponible");
    /* For the visitor, not the administrator: no log is named. */
    assert_string_equal(json_string_value(json_object_get(body, "detail")),
                        "El perfil no está disponible en este momento; "
                        "vuelva a intentarlo en un minuto.");
    json_decref(body);
}

/* Every field of `want` is in `got` with the same value, and `got` has
 * no other: the same header table, field by field. */
typedef struct {
    const apr_table_t *other;
    const char *diff;
    apr_pool_t *p;
} same_ctx_t;

static int same_field(void *ctx, const char *key, const char *value)
{
    same_ctx_t *c = ctx;
    const char *v = apr_table_get(c->other, key);

    if (v == NULL || strcmp(v, value) != 0) {
        c->diff = apr_psprintf(c->p, "%s: \"%s\" against \"%s\"", key,
                               value, v ? v : "(none)");
        return 0;
    }
    return 1;
}

#define assert_same_headers(a, b, p) do {                                  \
        same_ctx_t c1_ = {(b)->headers, NULL, (p)};                        \
        same_ctx_t c2_ = {(a)->headers, NULL, (p)};                        \
        apr_table_do(same_field, &c1_, (a)->headers, NULL);                \
        apr_table_do(same_field, &c2_, (b)->headers, NULL);                \
        if (c1_.diff || c2_.diff) {                                        \
            print_error("%s\n", c1_.diff ? c1_.diff : c2_.diff);          \
        }                                                                  \
        assert_null(c1_.diff);                                             \
        assert_null(c2_.diff);                                             \
        assert_int_equal(apr_table_elts((a)->headers)->nelts,             \
                         apr_table_elts((b)->headers)->nelts);            \
    } while (0)

static void unavailable_503_exposes_retry_after_to_pages(void **state)
{
    apr_pool_t *p = *state;
    profile_site_t s = site_list(p);
    profile_request_t r = get(p, "/nope");
    profile_response_t resp;

    r.origin = "https://a.example";
    memset(&resp, 0, sizeof(resp));
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_int_equal(resp.status, 503);
    assert_hdr(&resp, "Access-Control-Allow-Origin", "https://a.example");
    assert_hdr(&resp, "Access-Control-Expose-Headers", "ETag, Retry-After");
    assert_vary(&resp, "Origin", p);
    /* Not a preflight: no preflight fields. */
    r.method = PROFILE_M_OTHER;
    r.method_name = "POST";
    r.acr_method = "POST";
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_int_equal(resp.status, 503);
    assert_hdr(&resp, "Access-Control-Expose-Headers", "ETag, Retry-After");
    assert_no_hdr(&resp, "Access-Control-Allow-Methods");
}

/* CONTRACT §9 (revised 2026-11-24): a preflight to a section whose data
 * never loaded is the preflight of a loaded section, so a page gets to
 * read the real request's 503. */
static void unavailable_options_is_the_200_a_loaded_api_gives(void **state)
{
    static const char *const targets[] = {
        "/profile", "/experience/no-such-id", "/nope", "/skills?q=",
    };
    static const char *const langs[] = {"es-MX", "en", NULL, "de, es;q=0.2"};
    apr_pool_t *p = *state;
    size_t i, l;
    int kind, list;

    for (list = 0; list < 2; list++) {
        profile_site_t s = list ? site_list(p) : site_star();

        for (kind = 0; kind < 3; kind++) {
            for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
                for (l = 0; l < sizeof(langs) / sizeof(langs[0]); l++) {
                    profile_request_t r = request(p, PROFILE_M_OPTIONS,
                                                  "OPTIONS", targets[i]);
                    profile_response_t loaded, unloaded;

                    r.accept_language = langs[l];
                    r.origin = kind > 0 ? "https://b.example" : NULL;
                    r.acr_method = kind > 1 ? "GET" : NULL;
                    r.now = apr_time_from_sec(1614834367);
                    loaded = answer(p, &s, &r);
                    memset(&unloaded, 0, sizeof(unloaded));
                    profile_api_unavailable(&unloaded, &s, &r, 60, p);
                    assert_int_equal(unloaded.status, 200);
                    assert_int_equal(unloaded.len, 0);
                    assert_null(unloaded.content_type);
                    assert_string_equal(unloaded.route ? unloaded.route : "",
                                        loaded.route ? loaded.route : "");
                    assert_no_hdr(&unloaded, "Retry-After");
                    /* The sample's languages are the problem texts'. */
                    assert_same_headers(&loaded, &unloaded, p);
                }
            }
        }
    }
}

/* Without data the default language is unknown: the problem texts'
 * first, English, unless the request accepts Spanish. */
static void unavailable_options_language_is_the_problem_texts(void **state)
{
    apr_pool_t *p = *state;
    profile_site_t s = site_star();
    profile_request_t r = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                  "/profile");
    profile_response_t resp;

    r.origin = "https://app.example";
    r.acr_method = "GET";
    memset(&resp, 0, sizeof(resp));
    r.accept_language = "de, fr;q=0.5";
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_int_equal(resp.status, 200);
    assert_hdr(&resp, "Content-Language", "en");
    assert_hdr(&resp, "Access-Control-Max-Age", "7200");
    r.accept_language = "de, es;q=0.1";
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_hdr(&resp, "Content-Language", "es");
    /* A store of other languages is not looked at: there is none. */
    r.accept_language = "en;q=0, *";
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_hdr(&resp, "Content-Language", "es");
}

/* ------------------------------------------- Expires and languages */

static void expires_is_request_time_plus_max_age(void **state)
{
    apr_pool_t *p = *state;
    profile_request_t r = get(p, "/profile");
    profile_response_t resp;

    r.now = apr_time_from_sec(1614834367);      /* 05:06:07 */
    resp = answer_star(p, &r);
    assert_hdr(&resp, "Expires", "Thu, 04 Mar 2021 05:11:07 GMT");
    r = get(p, "/nope");
    resp = answer_star(p, &r);
    assert_int_equal(resp.status, 404);
    assert_no_hdr(&resp, "Expires");
}

/* CONTRACT §5 (revised 2026-11-24): HTTP/1.0 caches ignore Vary. */
static void http10_expires_is_the_request_time(void **state)
{
    static const char *const targets[] = {"/profile", "/skills?q=linux"};
    apr_pool_t *p = *state;
    size_t i;

    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        profile_request_t r = get(p, targets[i]);
        profile_response_t resp;

        r.now = apr_time_from_sec(1614834367) + 250000;  /* 05:06:07.25 */
        r.http10 = 1;
        resp = answer_star(p, &r);
        assert_int_equal(resp.status, 200);
        assert_hdr(&resp, "Expires", "Thu, 04 Mar 2021 05:06:07 GMT");
        assert_hdr(&resp, "Cache-Control", "public, max-age=300");
        r.http10 = 0;
        resp = answer_star(p, &r);
        assert_hdr(&resp, "Expires", "Thu, 04 Mar 2021 05:11:07 GMT");
    }
}

static void http10_options_expires_is_the_request_time(void **state)
{
    apr_pool_t *p = *state;
    profile_request_t r = request(p, PROFILE_M_OPTIONS, "OPTIONS",
                                  "/nope");
    profile_site_t s = site_star();
    profile_response_t resp;

    r.now = apr_time_from_sec(1614834367);
    r.http10 = 1;
    resp = answer_star(p, &r);
    assert_hdr(&resp, "Expires", "Thu, 04 Mar 2021 05:06:07 GMT");
    assert_hdr(&resp, "Cache-Control", "public, max-age=300");
    memset(&resp, 0, sizeof(resp));
    profile_api_unavailable(&resp, &s, &r, 60, p);
    assert_hdr(&resp, "Expires", "Thu, 04 Mar 2021 05:06:07 GMT");
    /* Errors stay no-store, without Expires. */
    r = get(p, "/nope");
    r.http10 = 1;
    resp = answer_star(p, &r);
    assert_int_equal(resp.status, 404);
    assert_no_hdr(&resp, "Expires");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(matching_if_none_match_is_304),
        UNIT_TEST(failed_if_match_or_if_unmodified_since_is_412),
        UNIT_TEST(if_modified_since_is_ignored_beside_if_none_match),
        UNIT_TEST(if_modified_since_at_or_after_last_modified_is_304),
        UNIT_TEST(satisfied_if_unmodified_since_rules_out_inm_304),
        UNIT_TEST(unavailable_is_503_with_cors_and_retry_after),
        UNIT_TEST(unavailable_503_exposes_retry_after_to_pages),
        UNIT_TEST(unavailable_options_is_the_200_a_loaded_api_gives),
        UNIT_TEST(unavailable_options_language_is_the_problem_texts),
        UNIT_TEST(expires_is_request_time_plus_max_age),
        UNIT_TEST(http10_expires_is_the_request_time),
        UNIT_TEST(http10_options_expires_is_the_request_time),
        UNIT_TEST(get_of_each_route_serves_its_stored_body),
        UNIT_TEST(unfiltered_answers_come_in_the_accepted_coding),
        UNIT_TEST(each_language_has_its_own_coded_forms),
        UNIT_TEST(filtered_answers_stay_identity),
        UNIT_TEST(compression_off_serves_identity_and_still_varies),
        UNIT_TEST(filtered_etag_comes_from_the_chosen_elements),
        UNIT_TEST(errors_and_options_vary_by_encoding_too),
        UNIT_TEST(get_of_each_experience_id_serves_the_record),
        UNIT_TEST(get_of_each_case_study_id_serves_the_record),
        UNIT_TEST(get_carries_the_contract_header_fields),
        UNIT_TEST(max_age_comes_from_the_site),
        UNIT_TEST(head_gets_the_same_answer_as_get),
        UNIT_TEST(spanish_is_served_for_es_mx),
        UNIT_TEST(spanish_item_is_served),
        UNIT_TEST(unacceptable_language_falls_back_to_default),
        UNIT_TEST(empty_query_is_no_parameters),
        UNIT_TEST(options_anywhere_is_200_with_allow_and_no_body),
        UNIT_TEST(options_answers_in_the_chosen_language),
        UNIT_TEST(preflight_gets_methods_headers_and_max_age),
        UNIT_TEST(options_without_request_method_is_not_a_preflight),
        UNIT_TEST(options_without_origin_is_not_a_preflight),
        UNIT_TEST(unknown_paths_are_404),
        UNIT_TEST(answers_name_their_route_template),
        UNIT_TEST(path_outside_the_base_is_404),
        UNIT_TEST(unknown_id_is_404_naming_it),
        UNIT_TEST(ids_are_case_sensitive),
        UNIT_TEST(unknown_path_detail_names_the_path),
        UNIT_TEST(other_method_on_existing_route_is_405),
        UNIT_TEST(other_method_on_unknown_path_is_404),
        UNIT_TEST(checks_run_in_contract_order),
        UNIT_TEST(query_is_checked_before_id),
        UNIT_TEST(unknown_parameter_is_400_with_invalid_params),
        UNIT_TEST(parameter_on_route_without_parameters_is_400),
        UNIT_TEST(each_bad_value_is_400_naming_the_parameter),
        UNIT_TEST(too_long_value_is_400),
        UNIT_TEST(several_bad_parameters_are_each_listed_once),
        UNIT_TEST(undecodable_names_give_a_valid_problem),
        UNIT_TEST(undecodable_id_gives_a_valid_problem),
        UNIT_TEST(undecodable_method_gives_a_valid_problem),
        UNIT_TEST(problem_titles_are_spanish_for_es),
        UNIT_TEST(problem_is_application_json_by_default),
        UNIT_TEST(accept_naming_problem_json_selects_it),
        UNIT_TEST(accept_problem_json_with_q0_keeps_application_json),
        UNIT_TEST(accept_does_not_change_a_200),
        UNIT_TEST(errors_vary_on_accept_and_language),
        UNIT_TEST(allow_is_only_on_405_and_options),
        UNIT_TEST(precondition_failure_keeps_the_language),
        UNIT_TEST(listed_origin_is_echoed),
        UNIT_TEST(unlisted_origin_is_not_echoed),
        UNIT_TEST(list_mode_without_origin_varies_on_origin),
        UNIT_TEST(list_mode_errors_carry_cors_and_vary),
        UNIT_TEST(list_mode_preflight),
        UNIT_TEST(star_mode_ignores_origin),
        UNIT_TEST(company_strasse_finds_hafenstrasse),
        UNIT_TEST(organization_matches_case_insensitively),
        UNIT_TEST(organization_matches_decomposed_value),
        UNIT_TEST(accents_are_significant_in_filters),
        UNIT_TEST(q_matching_a_skill_returns_the_whole_group),
        UNIT_TEST(q_matching_a_title_returns_the_group),
        UNIT_TEST(q_matching_several_groups_keeps_data_order),
        UNIT_TEST(q_does_not_search_the_summary),
        UNIT_TEST(q_matches_the_chosen_languages_own_list),
        UNIT_TEST(company_does_not_search_other_fields),
        UNIT_TEST(filters_use_the_chosen_language),
        UNIT_TEST(filtered_body_is_in_the_chosen_language),
        UNIT_TEST(no_match_is_an_empty_array_with_its_own_etag),
        UNIT_TEST(filter_matching_everything_equals_the_collection),
        UNIT_TEST(empty_filter_value_is_400_not_everything),
    };

    return cmocka_run_group_tests(tests, group_setup, unit_group_teardown);
}
