/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fallback.c -- a data file's fallback language (CONTRACT §9) and
 * how answers say it (§4): the validator's verdicts with and without
 * "fallback", the bodies rendered from the fallback and marked so,
 * Content-Language per body (filtered ones included, and the 304), and
 * the untranslated counts (profile_untranslated.h).
 *
 * Documents are the sample data with edits made through jansson.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>

#include "unit.h"
#include "profile_api.h"
#include "profile_store.h"
#include "profile_untranslated.h"

#define DOC_NAME "mem.json"

static json_t *sample(void)
{
    json_error_t jerr;
    json_t *d = json_load_file(SAMPLE_PATH, JSON_REJECT_DUPLICATES, &jerr);

    assert_non_null(d);
    return d;
}

/* The value at a path of keys and indexes: "experience", "#1", "role". */
static json_t *at(json_t *v, const char *const *path)
{
    for (; *path; path++) {
        v = **path == '#' ? json_array_get(v, (size_t)atoi(*path + 1))
                          : json_object_get(v, *path);
        assert_non_null(v);
    }
    return v;
}

#define AT(d, ...) at((d), (const char *[]){__VA_ARGS__, NULL})

typedef struct {
    apr_status_t rv;
    const char *err;
    profile_store_t *st;
    apr_array_header_t *problems;
} result_t;

/* Parses (and, with `render`, loads) `doc`, which it releases. */
static result_t load(apr_pool_t *p, json_t *doc, int render)
{
    profile_load_opts_t opts = {.render = render, .compress = 0,
                                .max_size = 0, .problems = NULL};
    char *text = json_dumps(doc, JSON_INDENT(2));
    result_t r;

    opts.problems = profile_problems_make(p, 100);
    r.st = NULL;
    r.err = NULL;
    r.rv = profile_store_parse_opts(&r.st, &r.err, apr_pstrdup(p, text),
                                    strlen(text), DOC_NAME, 0, &opts, p);
    r.problems = opts.problems->list;
    free(text);
    json_decref(doc);
    return r;
}

static void assert_problem(const result_t *r, int i, const char *path,
                           const char *text)
{
    const profile_data_problem_t *pr;

    assert_true(i < r->problems->nelts);
    pr = &APR_ARRAY_IDX(r->problems, i, profile_data_problem_t);
    if (pr->path == NULL || strcmp(pr->path, path) != 0
        || strcmp(pr->text, text) != 0) {
        print_error("problem %d: %s: %s; expected %s: %s\n", i,
                    pr->path ? pr->path : "(no path)", pr->text, path, text);
    }
    assert_non_null(pr->path);
    assert_string_equal(pr->path, path);
    assert_string_equal(pr->text, text);
}

/* The sample lacking Spanish in four places: the profile's headline,
 * the second record's role and its highlights (given per language),
 * and the last skill group's title. */
static json_t *untranslated_sample(void)
{
    json_t *d = sample();
    json_t *hl = json_object_get(AT(d, "experience", "#1"), "highlights");

    json_object_del(AT(d, "profile", "headline"), "es");
    json_object_del(AT(d, "experience", "#1", "role"), "es");
    json_object_set_new(AT(d, "experience", "#1"), "highlights",
                        json_pack("{s:o}", "en",
                                  json_pack("[s]", json_string_value(
                                      AT(hl, "#0", "en")))));
    json_object_del(AT(d, "skills", "#4", "title"), "es");
    return d;
}

static json_t *with_fallback(json_t *d, const char *tag)
{
    json_object_set_new(d, "fallback", json_string(tag));
    return d;
}

/* ----------------------------------------------------- the validator */

static void fallback_lets_texts_and_lists_lack_other_languages(void **state)
{
    result_t r = load(POOL(state), with_fallback(untranslated_sample(), "en"),
                      0);

    if (r.rv != APR_SUCCESS) {
        print_error("%s\n", r.err);
    }
    assert_int_equal(r.rv, APR_SUCCESS);
    assert_int_equal(r.problems->nelts, 0);
}

static void without_fallback_a_missing_translation_is_a_problem(void **state)
{
    result_t r = load(POOL(state), untranslated_sample(), 0);

    assert_int_equal(r.rv, APR_EINVAL);
    assert_int_equal(r.problems->nelts, 4);
    assert_problem(&r, 0, "$.profile.headline",
                   "missing translation \"es\"");
    assert_problem(&r, 1, "$.skills[4].title", "missing translation \"es\"");
    assert_problem(&r, 2, "$.experience[1].role",
                   "missing translation \"es\"");
    assert_problem(&r, 3, "$.experience[1].highlights",
                   "missing the list in \"es\" (a list given per language "
                   "has one array per declared language)");
}

static void fallback_must_be_a_declared_language(void **state)
{
    apr_pool_t *p = POOL(state);
    result_t r = load(p, with_fallback(untranslated_sample(), "de"), 0);

    /* Which translations may be missing is unknown: only the fallback
     * is a problem. */
    assert_int_equal(r.rv, APR_EINVAL);
    assert_int_equal(r.problems->nelts, 1);
    assert_problem(&r, 0, "$.fallback", "the fallback \"de\" is not one of "
                   "the file's languages (en,es)");
    assert_has(r.err, "mem.json:");
    assert_has(r.err, "$.fallback: the fallback \"de\"");

    /* Tags are matched exactly, as translations are. */
    r = load(p, with_fallback(sample(), "EN"), 0);
    assert_int_equal(r.problems->nelts, 1);
    assert_problem(&r, 0, "$.fallback", "the fallback \"EN\" is not one of "
                   "the file's languages (en,es)");

    r = load(p, json_pack("{s:i}", "fallback", 5), 0);
    assert_int_equal(r.rv, APR_EINVAL);
    assert_problem(&r, 0, "$.fallback", "expected a language tag (one of "
                   "the file's languages), found a number");

    {
        json_t *d = sample();

        json_object_set_new(d, "fallback", json_null());
        r = load(p, d, 0);
        assert_int_equal(r.problems->nelts, 1);
        assert_problem(&r, 0, "$.fallback", "null is not allowed (expected "
                       "a language tag (one of the file's languages))");
    }
}

static void the_fallback_itself_is_never_missing(void **state)
{
    json_t *d = with_fallback(sample(), "es");
    result_t r;

    json_object_del(AT(d, "profile", "headline"), "es");
    json_object_set_new(AT(d, "experience", "#0"), "highlights",
                        json_pack("{s:[s]}", "en", "Only English"));
    r = load(POOL(state), d, 0);
    assert_int_equal(r.problems->nelts, 2);
    assert_problem(&r, 0, "$.profile.headline", "missing translation \"es\" "
                   "(the fallback language, which every text has)");
    assert_problem(&r, 1, "$.experience[0].highlights",
                   "missing the list in \"es\" (the fallback language, "
                   "whose array every list given per language has)");
}

/* ----------------------------------------------------------- rendering */

static int contains(const profile_body_t *b, const char *s)
{
    char *text = apr_pstrmemdup(unit_root, b->data, b->len);

    return strstr(text, s) != NULL;
}

static void render_serves_the_fallback_and_marks_the_body(void **state)
{
    result_t r = load(POOL(state), with_fallback(untranslated_sample(), "en"),
                      1);
    const profile_store_t *st = r.st;
    const profile_coll_t *exp, *skills;

    assert_int_equal(r.rv, APR_SUCCESS);
    assert_int_equal(st->fallback, 0);
    assert_string_equal(st->fell_back_language[1], "es, en");
    assert_string_equal(st->fell_back_language[0], "en");

    assert_true(st->profile[1].fell_back);
    assert_true(contains(&st->profile[1], "\"headline\":\"Senior Platform "
                         "Engineer"));
    assert_true(contains(&st->profile[1], "\"summary\":\"Ingeniera"));
    assert_false(st->profile[0].fell_back);
    assert_false(st->contact[1].fell_back);

    exp = &st->coll[PROFILE_COLL_EXPERIENCE];
    assert_true(exp->all[1].fell_back);
    assert_false(exp->all[0].fell_back);
    assert_false(exp->items[0].body[1].fell_back);
    assert_true(exp->items[1].body[1].fell_back);
    assert_false(exp->items[2].body[1].fell_back);
    assert_true(contains(&exp->items[1].body[1],
                         "\"role\":\"Senior Site Reliability Engineer\""));
    /* The list given in English only is served whole. */
    assert_true(contains(&exp->items[1].body[1], "\"highlights\":[\""));

    skills = &st->coll[PROFILE_COLL_SKILLS];
    assert_true(skills->items[4].body[1].fell_back);
    assert_false(skills->items[3].body[1].fell_back);
    assert_true(contains(&skills->items[4].body[1], "\"title\":\"Leadership"
                         "\""));
}

static void a_fallback_never_used_marks_nothing(void **state)
{
    result_t r = load(POOL(state), with_fallback(sample(), "en"), 1);
    const profile_store_t *st = r.st;
    int l, k, i;

    assert_int_equal(r.rv, APR_SUCCESS);
    for (l = 0; l < st->nlangs; l++) {
        assert_false(st->profile[l].fell_back);
        assert_false(st->contact[l].fell_back);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            assert_false(st->coll[k].all[l].fell_back);
            for (i = 0; i < st->coll[k].nitems; i++) {
                assert_false(st->coll[k].items[i].body[l].fell_back);
            }
        }
    }
}

/* ------------------------------------------------------------- answers */

static profile_response_t ask(apr_pool_t *p, const profile_store_t *st,
                              profile_method_e m, const char *target,
                              const char *lang)
{
    profile_site_t site = {.store = st, .max_age = 300};
    profile_request_t req;
    profile_response_t resp;
    const char *q = strchr(target, '?');

    memset(&req, 0, sizeof(req));
    req.method = m;
    req.method_name = m == PROFILE_M_OPTIONS ? "OPTIONS" : "GET";
    req.path = q ? apr_pstrmemdup(p, target, (apr_size_t)(q - target))
                 : target;
    req.args = q ? q + 1 : NULL;
    req.uri = apr_pstrcat(p, "/api/v1", req.path, NULL);
    req.accept_language = lang;
    memset(&resp, 0, sizeof(resp));
    profile_api_answer(&resp, &site, &req, p);
    if (resp.conditional) {
        /* If-None-Match with the answer's own ETag: a 304. */
        profile_conds_t c = {.if_none_match = PROFILE_COND_STRONG};

        profile_api_conditions(&resp, &site, &req, &c, p);
        assert_int_equal(resp.status, 304);
    }
    return resp;
}

#define assert_language(p, st, m, target, lang, want) do {                 \
        profile_response_t r_ = ask((p), (st), (m), (target), (lang));     \
        const char *v_ = apr_table_get(r_.headers, "Content-Language");    \
        if (v_ == NULL || strcmp(v_, (want)) != 0) {                       \
            print_error("%s in %s: Content-Language \"%s\", want \"%s\"\n",\
                        (target), (lang), v_ ? v_ : "(none)", (want));     \
        }                                                                  \
        assert_non_null(v_);                                               \
        assert_string_equal(v_, (want));                                   \
        assert_string_equal(r_.language, (want));                          \
    } while (0)

static void content_language_names_the_fallback_per_body(void **state)
{
    apr_pool_t *p = POOL(state);
    result_t r = load(p, with_fallback(untranslated_sample(), "en"), 1);
    const profile_store_t *st = r.st;
    const profile_method_e GET = PROFILE_M_GET;

    assert_int_equal(r.rv, APR_SUCCESS);
    /* Each answer is a 304 here (ask()): it says what its 200 says. */
    assert_language(p, st, GET, "/profile", "es", "es, en");
    assert_language(p, st, GET, "/profile", "en", "en");
    assert_language(p, st, GET, "/contact", "es", "es");
    assert_language(p, st, GET, "/experience", "es", "es, en");
    assert_language(p, st, GET, "/experience/norteverde-platform-lead", "es",
                    "es");
    assert_language(p, st, GET, "/experience/hafen-logistik-senior-sre",
                    "es", "es, en");
    assert_language(p, st, GET, "/education", "es", "es");
    /* Filtered: only what the body holds counts. */
    assert_language(p, st, GET, "/experience?company=Norteverde", "es",
                    "es");
    assert_language(p, st, GET, "/experience?company=Hafen", "es", "es, en");
    assert_language(p, st, GET, "/experience?company=nothing", "es", "es");
    assert_language(p, st, GET, "/experience?company=e", "es", "es, en");
    /* The fallback's text is what es searches where es has none. */
    assert_language(p, st, GET, "/skills?q=leadership", "es", "es, en");
    assert_language(p, st, GET, "/skills?q=Plataforma", "es", "es");
    assert_language(p, st, GET, "/skills?q=leadership", "en", "en");
    /* No body of data: the chosen language. */
    assert_language(p, st, GET, "/experience/nope", "es", "es");
    assert_language(p, st, GET, "/profile?x=1", "es", "es");
    assert_language(p, st, PROFILE_M_OPTIONS, "/profile", "es", "es");
}

static void a_filtered_body_holds_the_fallback_text(void **state)
{
    apr_pool_t *p = POOL(state);
    result_t r = load(p, with_fallback(untranslated_sample(), "en"), 1);
    profile_site_t site = {.store = r.st, .max_age = 300};
    profile_request_t req;
    profile_response_t resp;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.path = "/skills";
    req.uri = "/api/v1/skills";
    req.args = "q=leadership";
    req.accept_language = "es";
    memset(&resp, 0, sizeof(resp));
    profile_api_answer(&resp, &site, &req, p);
    assert_int_equal(resp.status, 200);
    assert_has(apr_pstrmemdup(p, resp.body, resp.len),
               "[{\"title\":\"Leadership\"");
}

/* ------------------------------------------------- untranslated counts */

static void untranslated_texts_are_counted_per_language(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *d = with_fallback(untranslated_sample(), "en");
    result_t r;

    /* Empty where another language is not: untranslated, in either. */
    json_object_set_new(AT(d, "profile", "summary"), "es", json_string(""));
    json_object_set_new(AT(d, "experience", "#2", "context"), "en",
                        json_string(""));
    /* Empty in every language, or a plain string: not. */
    json_object_set_new(AT(d, "experience", "#3"), "context",
                        json_pack("{s:s,s:s}", "en", "", "es", ""));
    json_object_set_new(AT(d, "experience", "#3"), "role",
                        json_string("Developer"));
    /* A list given per language, empty in one. */
    json_object_set_new(AT(d, "experience", "#0"), "highlights",
                        json_pack("{s:[s],s:[]}", "en", "One", "es"));
    r = load(p, d, 1);
    assert_int_equal(r.rv, APR_SUCCESS);
    assert_int_equal(r.st->untranslated[0], 1);
    assert_int_equal(r.st->untranslated[1], 6);

    r = load(p, sample(), 1);
    assert_int_equal(r.st->untranslated[0], 0);
    assert_int_equal(r.st->untranslated[1], 0);
}

static void counting_needs_no_store(void **state)
{
    apr_pool_t *p = POOL(state);
    static const char *const langs[] = {"en", "es", "de"};
    json_t *d = with_fallback(untranslated_sample(), "en");
    apr_size_t *n = profile_untranslated_count(d, langs, 3, p);

    /* German is declared nowhere in the texts: each text object lacks
     * it; plain strings do not. */
    assert_int_equal(n[0], 0);
    assert_int_equal(n[1], 4);
    assert_true(n[2] > n[1]);
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(fallback_lets_texts_and_lists_lack_other_languages),
        UNIT_TEST(without_fallback_a_missing_translation_is_a_problem),
        UNIT_TEST(fallback_must_be_a_declared_language),
        UNIT_TEST(the_fallback_itself_is_never_missing),
        UNIT_TEST(render_serves_the_fallback_and_marks_the_body),
        UNIT_TEST(a_fallback_never_used_marks_nothing),
        UNIT_TEST(content_language_names_the_fallback_per_body),
        UNIT_TEST(a_filtered_body_holds_the_fallback_text),
        UNIT_TEST(untranslated_texts_are_counted_per_language),
        UNIT_TEST(counting_needs_no_store),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
