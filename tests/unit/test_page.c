/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page.c -- the profile's pages (CONTRACT §11) from the pure core:
 * what a URL below the base answers (profile_page_answer()), the bodies
 * rendered at load (one per language and record, sharing nothing with the
 * API's bodies), escaping for each place a value lands, and the memory
 * estimate that counts them; and a record's dates (CONTRACT §9): the
 * periods written from them, worksFor, their checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>

#include "unit.h"
#include "profile_estimate.h"
#include "profile_page.h"
#include "profile_page_api.h"
#include "profile_store.h"

#define URL "https://ana.example/cv/"

static const profile_page_where_t where = {URL, "/static/"};

static json_t *sample(void)
{
    json_error_t jerr;
    json_t *d = json_load_file(SAMPLE_PATH, JSON_REJECT_DUPLICATES, &jerr);

    assert_non_null(d);
    return d;
}

/* Loads `doc` (released) with the page published at URL. */
static profile_store_t *load(apr_pool_t *p, json_t *doc)
{
    profile_load_opts_t opts = {.render = 1, .compress = 1,
                                .pages = &where, .npages = 1};
    char *text = json_dumps(doc, JSON_INDENT(2));
    profile_store_t *st = NULL;
    const char *err = NULL;

    json_decref(doc);
    assert_int_equal(profile_store_parse_opts(&st, &err, text, strlen(text),
                                              "mem.json", 0, &opts, p),
                     APR_SUCCESS);
    free(text);
    return st;
}

static profile_response_t answer(apr_pool_t *p, const profile_store_t *st,
                                 const char *path, const char *al)
{
    profile_site_t site = {.store = st, .max_age = 300, .compress = 1};
    profile_request_t req;
    profile_response_t resp;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.uri = apr_pstrcat(p, "/cv", path, NULL);
    req.path = path;
    req.accept_language = al;
    profile_page_answer(&resp, &site, profile_page_find(st, URL), &req, p);
    return resp;
}

static const char *body(apr_pool_t *p, const profile_response_t *r)
{
    return apr_pstrmemdup(p, r->body, r->len);
}

static void each_language_has_its_url_and_the_base_negotiates(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, sample());
    profile_response_t en = answer(p, st, "/en/", "es"),
                       es = answer(p, st, "/es/", NULL),
                       base = answer(p, st, "/", "es-MX, en;q=0.5");

    assert_int_equal(en.status, 200);
    assert_string_equal(en.language, "en");
    assert_string_equal(es.language, "es");
    assert_string_equal(base.language, "es");
    assert_string_equal(base.etag, es.etag);
    assert_string_not_equal(en.etag, es.etag);
    assert_non_null(strstr(apr_table_get(base.headers, "Vary"),
                           "Accept-Language"));
    assert_null(strstr(apr_table_get(es.headers, "Vary"),
                       "Accept-Language"));
    assert_non_null(strstr(body(p, &es), "<html lang=\"es\">"));
}

static void urls_without_a_page_are_redirected_or_missing(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, sample());
    profile_response_t r = answer(p, st, "", NULL);

    assert_int_equal(r.status, 301);
    assert_string_equal(apr_table_get(r.headers, "Location"), "/cv/");
    r = answer(p, st, "/es", NULL);
    assert_int_equal(r.status, 301);
    assert_string_equal(apr_table_get(r.headers, "Location"), "/cv/es/");
    r = answer(p, st, "/es/experience/no-such-role", "en");
    assert_int_equal(r.status, 404);
    assert_string_equal(r.language, "es");
    r = answer(p, st, "/de/", "es");
    assert_int_equal(r.status, 404);
    assert_string_equal(r.language, "es");
    assert_string_equal(apr_table_get(r.headers, "Cache-Control"),
                        "no-store");
    r = answer(p, st, "/en/case-studies/", NULL);
    assert_int_equal(r.status, 404);
}

static void a_record_has_a_page_per_language(void **state)
{
    apr_pool_t *p = *state;
    json_t *d = sample();
    const char *id = json_string_value(json_object_get(json_array_get(
        json_object_get(d, "caseStudies"), 0), "id"));
    char *path = apr_pstrcat(p, "/es/case-studies/", id, NULL);
    const char *problem = apr_pstrdup(p, json_string_value(json_object_get(
        json_object_get(json_array_get(json_object_get(d, "caseStudies"), 0),
                        "problem"), "es")));
    profile_store_t *st = load(p, d);
    profile_response_t r = answer(p, st, path, NULL);

    assert_int_equal(r.status, 200);
    assert_non_null(strstr(body(p, &r), problem));
    assert_non_null(strstr(body(p, &r), "<link rel=\"canonical\" href=\""
                                        URL "es/case-studies/"));
}

static void head_names_every_language_and_the_static_files(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, sample());
    profile_response_t r = answer(p, st, "/en/", NULL);
    const char *b = body(p, &r);

    assert_non_null(strstr(b, "<link rel=\"alternate\" hreflang=\"es\" "
                              "href=\"" URL "es/\">"));
    assert_non_null(strstr(b, "<link rel=\"alternate\" "
                              "hreflang=\"x-default\" href=\"" URL "\">"));
    assert_non_null(strstr(b, "<meta property=\"og:locale:alternate\" "
                              "content=\"es_ES\">"));
    assert_non_null(strstr(b, "href=\"/static/page.css\""));
    assert_non_null(strstr(b, "\"@type\":\"ProfilePage\""));
}

/* The sample, its name set to `s`. */
static json_t *with_name(const char *s)
{
    json_t *d = sample();

    json_object_set_new(json_object_get(d, "profile"), "name",
                        json_string(s));
    return d;
}

static void values_are_escaped_where_they_land(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, with_name(
        "A</script><!--<b onmouseover=\"x\">'&\xe2\x80\xa8\x01"));
    profile_response_t r = answer(p, st, "/en/", NULL);
    const char *b = body(p, &r), *ld = strstr(b, "application/ld+json");

    /* Element text and attributes: entities; a control: U+FFFD. */
    assert_non_null(strstr(b, "A&lt;/script&gt;&lt;!--&lt;b onmouseover="
                              "&quot;x&quot;&gt;'&amp;\xe2\x80\xa8"
                              "\xef\xbf\xbd</a>"));
    assert_null(strstr(b, "<b "));
    /* The JSON-LD: no "<", ">", "&" or U+2028 of the data. */
    assert_non_null(ld);
    assert_non_null(strstr(ld, "\"name\":\"A\\u003c\\/script\\u003e"
                               "\\u003c!--\\u003cb onmouseover=\\\"x\\\""
                               "\\u003e'\\u0026\\u2028\\u0001\""));
    assert_int_equal(strstr(ld, "</script>") - ld,
                     strstr(ld, "}}</script>") + 2 - ld);
}

static void fallback_text_is_marked_and_said(void **state)
{
    apr_pool_t *p = *state;
    json_t *d = sample();
    profile_store_t *st;
    profile_response_t r;

    json_object_set_new(d, "fallback", json_string("en"));
    json_object_del(json_object_get(json_object_get(d, "profile"),
                                    "headline"), "es");
    st = load(p, d);
    r = answer(p, st, "/es/", NULL);
    assert_string_equal(r.language, "es, en");
    assert_string_equal(apr_table_get(r.headers, "Content-Language"),
                        "es, en");
    assert_non_null(strstr(body(p, &r), "<p class=\"headline p-job-title\" "
                                        "lang=\"en\">"));
    assert_non_null(strstr(body(p, &r), "<html lang=\"es\">"));
    r = answer(p, st, "/en/", NULL);
    assert_string_equal(r.language, "en");
}

static void empty_sections_are_absent(void **state)
{
    apr_pool_t *p = *state;
    json_t *d = sample();
    const char *keys[] = {"skills", "experience", "education", "caseStudies",
                          "metrics"};
    profile_store_t *st;
    profile_response_t r;
    const char *b;
    size_t i;

    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        json_object_set_new(d, keys[i], json_array());
    }
    st = load(p, d);
    r = answer(p, st, "/en/", NULL);
    b = body(p, &r);
    assert_null(strstr(b, "<section id="));
    assert_null(strstr(b, "href=\"#experience\""));
    assert_non_null(strstr(b, "href=\"#contact\""));
    assert_non_null(strstr(b, "<ul class=\"contact\""));
}

static void validators_methods_and_coded_forms(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, sample());
    profile_site_t site = {.store = st, .max_age = 300, .compress = 1};
    profile_request_t req;
    profile_response_t r;
    const profile_page_t *pg = profile_page_find(st, URL);

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.uri = "/cv/en/";
    req.path = "/en/";
    req.accept_encoding = "br, gzip";
    profile_page_answer(&r, &site, pg, &req, p);
    assert_string_equal(r.content_encoding, "br");
    assert_true(r.conditional);
    assert_string_equal(r.etag, pg->home[0].coded[PROFILE_ENC_BR].etag);
    req.method = PROFILE_M_OPTIONS;
    profile_page_answer(&r, &site, pg, &req, p);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 0);
    req.method = PROFILE_M_OTHER;
    req.method_name = "POST";
    profile_page_answer(&r, &site, pg, &req, p);
    assert_int_equal(r.status, 405);
    assert_string_equal(apr_table_get(r.headers, "Allow"),
                        "GET, HEAD, OPTIONS");
    assert_non_null(strstr(apr_table_get(r.headers,
                                         "Content-Security-Policy"),
                           "default-src 'self'"));
}

static void the_estimate_counts_the_pages(void **state)
{
    apr_pool_t *p = *state;
    json_t *d = sample();
    const char *langs[] = {"en", "es"};
    profile_estimate_t none, one, two;

    profile_estimate(&none, d, langs, 2, 22000, 0);
    profile_estimate(&one, d, langs, 2, 22000, 1);
    profile_estimate(&two, d, langs, 2, 22000, 2);
    assert_true(one.bytes > none.bytes);
    assert_int_equal(two.bytes - one.bytes, one.bytes - none.bytes);
    assert_true(one.bytes <= one.bound);
    json_decref(d);
    (void)p;
}

static void unavailable_is_a_page_in_the_visitors_language(void **state)
{
    apr_pool_t *p = *state;
    profile_request_t req;
    profile_response_t r;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.accept_language = "es-ES";
    profile_page_unavailable(&r, &req, "/static/", 60, p);
    assert_int_equal(r.status, 503);
    assert_string_equal(r.language, "es");
    assert_string_equal(apr_table_get(r.headers, "Retry-After"), "60");
    assert_non_null(strstr(body(p, &r), "<html lang=\"es\">"));
    assert_non_null(strstr(body(p, &r), "href=\"/static/page.css\""));
}

/* The sample, experience[0] ongoing since 2021-03 and [1] from 2018-05
 * to 2021-02, both without a period. */
static json_t *dated(void)
{
    json_t *d = sample(), *exp = json_object_get(d, "experience");
    json_t *a = json_array_get(exp, 0), *b = json_array_get(exp, 1);

    json_object_del(a, "period");
    json_object_set_new(a, "start", json_string("2021-03"));
    json_object_del(b, "period");
    json_object_set_new(b, "start", json_string("2018-05"));
    json_object_set_new(b, "end", json_string("2021-02"));
    return d;
}

static const char *refusal(apr_pool_t *p, json_t *doc)
{
    char *text = json_dumps(doc, JSON_INDENT(2));
    profile_store_t *st = NULL;
    const char *err = NULL;

    json_decref(doc);
    assert_int_not_equal(profile_store_parse(&st, &err, text, strlen(text),
                                             "mem.json", 0, p),
                         APR_SUCCESS);
    free(text);
    return err;
}

static void periods_are_written_from_dates(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, dated());
    const profile_coll_t *c = &st->coll[PROFILE_COLL_EXPERIENCE];
    const char *en = apr_pstrmemdup(p, c->items[0].body[0].data,
                                    c->items[0].body[0].len);
    const char *es = apr_pstrmemdup(p, c->items[1].body[1].data,
                                    c->items[1].body[1].len);

    assert_non_null(strstr(en, "\"period\":\"Mar 2021 \xe2\x80\x93 "
                               "present\""));
    assert_non_null(strstr(es, "\"period\":\"may. 2018 \xe2\x80\x93 "
                               "feb. 2021\""));
    /* The dates are no API field. */
    assert_null(strstr(en, "\"start\""));
    assert_null(strstr(es, "\"end\""));
}

static void an_ongoing_role_is_where_the_person_works(void **state)
{
    apr_pool_t *p = *state;
    profile_store_t *st = load(p, dated());
    profile_response_t r = answer(p, st, "/en/", NULL);
    const char *b = body(p, &r);

    assert_non_null(strstr(b, "\"worksFor\":[{\"@type\":\"Organization\","
                              "\"name\":\"Norteverde Energ\xc3\xad" "a\""));
    /* The role that ended is not. */
    assert_null(strstr(b, "\"name\":\"Hafenstra"));
    r = answer(p, load(p, sample()), "/en/", NULL);
    assert_null(strstr(body(p, &r), "worksFor"));
}

static void dates_are_checked(void **state)
{
    apr_pool_t *p = *state;
    json_t *d = dated();
    json_t *rec = json_array_get(json_object_get(d, "experience"), 1);

    json_object_set_new(rec, "end", json_string("2017"));
    assert_non_null(strstr(refusal(p, d), "$.experience[1].end: the end "
                                          "\"2017\" is before the start"));
    d = dated();
    rec = json_array_get(json_object_get(d, "experience"), 2);
    json_object_set_new(rec, "end", json_string("2016"));
    assert_non_null(strstr(refusal(p, d), "$.experience[2].end: an end "
                                          "without a start"));
    d = dated();
    rec = json_array_get(json_object_get(d, "education"), 0);
    json_object_set_new(rec, "start", json_string("2021-1"));
    assert_non_null(strstr(refusal(p, d), "$.education[0].start: bad "
                                          "date"));
}

static void a_language_without_date_words_needs_its_period(void **state)
{
    apr_pool_t *p = *state;
    const char *err;
    json_t *d = json_pack("{s:[s,s],s:{s:s,s:s,s:s},s:[],s:[{s:s,s:s,s:s,s:s,"
                  "s:s,s:[],s:s}],s:[],s:{s:[],s:[]},s:[],s:[]}",
                  "languages", "en", "nl",
                  "profile", "name", "A", "headline", "B", "summary", "C",
                  "skills",
                  "experience", "id", "x", "role", "R", "company", "C",
                  "companyUrl", "", "context", "", "highlights",
                  "start", "2020",
                  "education", "contact", "contacts", "links",
                  "caseStudies", "metrics");
    err = refusal(p, json_deep_copy(d));
    assert_non_null(strstr(err, "$.experience[0].period: missing "
                                "\"period\" in \"nl\""));
    /* With a fallback that has them, it stands in. */
    json_object_set_new(d, "fallback", json_string("en"));
    {
        profile_store_t *st = load(p, d);
        const profile_body_t *nl =
            &st->coll[PROFILE_COLL_EXPERIENCE].items[0].body[1];

        assert_non_null(strstr(apr_pstrmemdup(p, nl->data, nl->len),
                               "\"period\":\"2020 \xe2\x80\x93 present\""));
        assert_true(nl->fell_back);
    }
}

/* What the imports place where CONTRACT §9 (revised 2026-11-28) has a
 * home for it is where a reader looks (§11): a certification with
 * education, the spoken languages with skills, the location and a
 * project's link in contact; that link is no profile of the owner's
 * (no rel="me", not in sameAs).  The sample has all but the
 * certification as the imports write it (data/profile.json: "Spoken
 * languages", Madrid, a link named as its first case study); that one
 * is added. */
static void imported_extras_are_shown_where_a_reader_expects_them(
    void **state)
{
    apr_pool_t *p = *state;
    json_t *d = sample(), *c = json_object_get(d, "contact"), *ld, *same;
    json_t *v;
    profile_store_t *st;
    const char *b, *sec, *project = NULL;
    size_t i, n = 0;

    json_array_append_new(json_object_get(d, "education"), json_pack(
        "{s:s,s:{s:s,s:s},s:s,s:s}", "degree", "Kubernetes Administrator",
        "credential", "en", "Certification \xc2\xb7 Mar 2023", "es",
        "Certificaci\xc3\xb3n \xc2\xb7 mar. 2023", "institution", "CNCF",
        "institutionUrl", "https://cert.example/42"));
    json_array_foreach(json_object_get(c, "links"), i, v) {
        if (strcmp(json_string_value(json_object_get(v, "kind")),
                   "project") == 0) {
            project = json_string_value(json_object_get(v, "url"));
        }
        else {
            n++;
        }
    }
    assert_string_equal(project,
                        "https://github.com/lar-platform/shadow-compare");
    project = apr_pstrdup(p, project);
    st = load(p, d);
    b = body(p, (profile_response_t[]){answer(p, st, "/en/", NULL)});
    sec = strstr(b, "<section id=\"education\"");
    assert_non_null(sec);
    assert_non_null(strstr(sec, "<p class=\"credential\">Certification "
                                "\xc2\xb7 Mar 2023</p>"));
    sec = strstr(b, "<section id=\"skills\"");
    assert_non_null(strstr(sec, ">Spoken languages</h3>\n<ul class=\"chips\">"
                                "\n<li>Spanish (native)</li>"));
    assert_true(strstr(sec, "Spanish (native)") < strstr(b, "<section id="
                                                  "\"education\""));
    sec = strstr(b, "<ul class=\"contact\"");
    assert_non_null(strstr(sec, "<li class=\"contact-location\"><span "
                                "class=\"contact-label\">Location</span> "
                                "<span class=\"contact-text p-locality\">"
                                "Madrid, Spain</span></li>"));
    assert_non_null(strstr(sec, "<li class=\"link link-project\"><a "
                                "class=\"u-url\" href=\"https://github.com/"
                                "lar-platform/shadow-compare\">"
                                "shadow-compare</a></li>"));
    /* The structured data's sameAs lists the other links, not it. */
    sec = strstr(b, "<script type=\"application/ld+json\">");
    assert_non_null(sec);
    sec += strlen("<script type=\"application/ld+json\">");
    ld = json_loadb(sec, strstr(sec, "</script>") - sec, 0, NULL);
    same = json_object_get(json_object_get(ld, "mainEntity"), "sameAs");
    assert_true(n > 0);
    assert_int_equal(json_array_size(same), n);
    json_array_foreach(same, i, v) {
        assert_string_not_equal(json_string_value(v), project);
    }
    json_decref(ld);
    /* In Spanish, the group's and the location's words are Spanish. */
    b = body(p, (profile_response_t[]){answer(p, st, "/es/", NULL)});
    assert_non_null(strstr(b, ">Idiomas</h3>\n<ul class=\"chips\">\n"
                              "<li>Espa\xc3\xb1ol (nativo)</li>"));
    assert_non_null(strstr(b, "<span class=\"contact-label\">Ubicaci"
                              "\xc3\xb3n</span> <span class=\"contact-text "
                              "p-locality\">Madrid, Espa\xc3\xb1" "a</span>"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(each_language_has_its_url_and_the_base_negotiates),
        UNIT_TEST(urls_without_a_page_are_redirected_or_missing),
        UNIT_TEST(a_record_has_a_page_per_language),
        UNIT_TEST(head_names_every_language_and_the_static_files),
        UNIT_TEST(values_are_escaped_where_they_land),
        UNIT_TEST(fallback_text_is_marked_and_said),
        UNIT_TEST(empty_sections_are_absent),
        UNIT_TEST(validators_methods_and_coded_forms),
        UNIT_TEST(the_estimate_counts_the_pages),
        UNIT_TEST(unavailable_is_a_page_in_the_visitors_language),
        UNIT_TEST(periods_are_written_from_dates),
        UNIT_TEST(an_ongoing_role_is_where_the_person_works),
        UNIT_TEST(dates_are_checked),
        UNIT_TEST(a_language_without_date_words_needs_its_period),
        UNIT_TEST(imported_extras_are_shown_where_a_reader_expects_them),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
