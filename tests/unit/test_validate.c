/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_validate.c -- a refused data file's problems (CONTRACT §9): every
 * one listed, in file order, a wrong type hiding what it holds, one
 * problem for a syntax error, and the loader's one message with the
 * first ten and "and N more", a problem past them costing its count
 * only; the links' schemes (profile_url.h).
 *
 * Documents are the sample data with edits made through jansson (which
 * keeps members in file order), then parsed by profile_store_parse_opts
 * like any file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <unistd.h>

#include <jansson.h>

#include "unit.h"
#include "profile_data.h"
#include "profile_store.h"
#include "profile_url.h"
#include "profile_validate.h"

#define DOC_NAME "mem.json"

typedef struct {
    apr_array_header_t *problems;
    const char *err;
    apr_status_t rv;
} result_t;

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

static result_t parse_text(apr_pool_t *p, const char *text, apr_size_t len)
{
    profile_load_opts_t opts = {.render = 0, .compress = 0, .max_size = 0,
                                .problems = NULL};
    profile_store_t *st = NULL;
    result_t r;

    opts.problems = profile_problems_make(p, 100);
    r.err = NULL;
    r.rv = profile_store_parse_opts(&st, &r.err, text, len, DOC_NAME, 0,
                                    &opts, p);
    r.problems = opts.problems->list;
    return r;
}

static result_t parse_doc(apr_pool_t *p, json_t *doc)
{
    char *text = json_dumps(doc, JSON_INDENT(2));
    result_t r = parse_text(p, apr_pstrdup(p, text), strlen(text));

    free(text);
    json_decref(doc);
    return r;
}

static const profile_data_problem_t *nth(const result_t *r, int i)
{
    assert_true(i < r->problems->nelts);
    return &APR_ARRAY_IDX(r->problems, i, profile_data_problem_t);
}

static void assert_problem(const result_t *r, int i, const char *path,
                           const char *text_part)
{
    const profile_data_problem_t *pr = nth(r, i);

    if (pr->path == NULL || strcmp(pr->path, path) != 0
        || strstr(pr->text, text_part) == NULL) {
        print_error("problem %d: %s: %s; expected %s: ...%s...\n", i,
                    pr->path ? pr->path : "(no path)", pr->text, path,
                    text_part);
    }
    assert_non_null(pr->path);
    assert_string_equal(pr->path, path);
    assert_non_null(strstr(pr->text, text_part));
    /* Located: the line where the value of its path begins. */
    assert_true(pr->line > 0);
    assert_true(pr->column > 0);
}

/* ------------------------------------------------------------ tests */

static void sample_has_no_problems(void **state)
{
    result_t r = parse_doc(POOL(state), sample());

    assert_int_equal(r.rv, APR_SUCCESS);
    assert_int_equal(r.problems->nelts, 0);
}

static void every_problem_is_listed_in_file_order(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *d = sample();

    /* Made from the end of the file back, listed from its start. */
    json_object_set(at(d, (const char *[]){"metrics", "#3", NULL}), "id",
                    json_object_get(at(d, (const char *[]){"metrics", "#1",
                                                         NULL}), "id"));
    json_object_set_new(at(d, (const char *[]){"caseStudies", "#0", NULL}),
                        "colour", json_string("red"));
    json_object_del(at(d, (const char *[]){"experience", "#2", "period",
                                           NULL}), "es");
    json_object_set_new(at(d, (const char *[]){"experience", "#1", NULL}),
                        "company", json_integer(5));
    json_object_del(at(d, (const char *[]){"profile", NULL}), "summary");
    {
        result_t r = parse_doc(p, d);

        assert_int_not_equal(r.rv, APR_SUCCESS);
        assert_int_equal(r.problems->nelts, 5);
        assert_problem(&r, 0, "$.profile.summary", "missing required field");
        assert_problem(&r, 1, "$.experience[1].company", "found a number");
        assert_problem(&r, 2, "$.experience[2].period",
                       "missing translation \"es\"");
        assert_problem(&r, 3, "$.caseStudies[0].colour", "unknown key");
        assert_problem(&r, 4, "$.metrics[3].id",
                       "duplicate id \"ingestion-latency\" (also at "
                       "$.metrics[1])");
    }
}

static void several_problems_in_one_record_are_each_listed(void **state)
{
    json_t *d = sample();
    json_t *exp0 = at(d, (const char *[]){"experience", "#0", NULL});
    result_t r;

    json_object_set_new(exp0, "id", json_string("bad id!"));
    json_object_set_new(exp0, "companyUrl", json_null());
    json_object_set_new(exp0, "highlights",
                        json_pack("[s, i, {s:s}]", "ok", 1, "en", "x"));
    r = parse_doc(POOL(state), d);
    assert_int_equal(r.problems->nelts, 4);
    assert_problem(&r, 0, "$.experience[0].id", "bad id \"bad id!\"");
    assert_problem(&r, 1, "$.experience[0].companyUrl", "null");
    assert_problem(&r, 2, "$.experience[0].highlights[1]", "found a number");
    assert_problem(&r, 3, "$.experience[0].highlights[2]",
                   "missing translation \"es\"");
}

static void wrong_type_hides_what_it_holds(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *d = sample();
    result_t r;

    /* An object where the collection's array belongs: its bad contents
     * are not judged; the next collection is. */
    json_object_set_new(d, "skills", json_pack("{s:{s:i}}", "a", "b", 1));
    json_object_set_new(at(d, (const char *[]){"education", "#0", NULL}),
                        "degree", json_true());
    r = parse_doc(p, d);
    assert_int_equal(r.problems->nelts, 2);
    assert_problem(&r, 0, "$.skills", "expected an array, found an object");
    assert_problem(&r, 1, "$.education[0].degree", "found a boolean");
}

static void bad_languages_are_listed_where_declared(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *d = sample();
    result_t r;

    /* "languages" moved after "profile": its problem comes second; with
     * no usable declaration, translations are not judged. */
    json_object_del(d, "languages");
    json_object_del(at(d, (const char *[]){"profile", NULL}), "name");
    json_object_set_new(d, "languages", json_pack("[s, s]", "en", "e1"));
    r = parse_doc(p, d);
    assert_int_equal(r.problems->nelts, 2);
    assert_problem(&r, 0, "$.profile.name", "missing required field");
    assert_problem(&r, 1, "$.languages[1]", "bad language tag \"e1\"");
}

static void syntax_error_is_the_only_problem(void **state)
{
    apr_pool_t *p = POOL(state);
    static const char doc[] = "{\n  \"profile\": {\"name\": 1,}\n}\n";
    result_t r = parse_text(p, doc, sizeof(doc) - 1);

    assert_int_not_equal(r.rv, APR_SUCCESS);
    assert_int_equal(r.problems->nelts, 1);
    assert_int_equal(nth(&r, 0)->line, 2);
    assert_true(nth(&r, 0)->column > 0);
    assert_null(nth(&r, 0)->path);
    assert_string_equal(r.err, apr_psprintf(p, DOC_NAME ":2:%d: %s",
                                            nth(&r, 0)->column,
                                            nth(&r, 0)->text));
}

/* ------------------------------------- lists given per language (§9) */

static void per_language_lists_are_accepted(void **state)
{
    json_t *d = sample();
    result_t r;

    /* Languages with different items, and a different number of them;
     * an empty list is a list. */
    json_object_set_new(at(d, (const char *[]){"skills", "#0", NULL}),
                        "skills", json_pack("{s:[s,s], s:[s]}",
                                            "en", "Kubernetes", "Linux",
                                            "es", "Kubernetes"));
    json_object_set_new(at(d, (const char *[]){"experience", "#0", NULL}),
                        "highlights", json_pack("{s:[s], s:[s,s,s]}",
                                                "en", "Led X",
                                                "es", "A", "B", "C"));
    json_object_set_new(at(d, (const char *[]){"caseStudies", "#2", NULL}),
                        "resultItems", json_pack("{s:[], s:[s]}",
                                                 "en", "es", "Uno"));
    r = parse_doc(POOL(state), d);
    assert_int_equal(r.problems->nelts, 0);
    assert_int_equal(r.rv, APR_SUCCESS);
}

static void every_misuse_of_a_per_language_list_is_listed(void **state)
{
    json_t *d = sample();
    json_t *exp = json_object_get(d, "experience");
    result_t r;

    json_object_set_new(at(d, (const char *[]){"skills", "#1", NULL}),
                        "skills", json_string("C, Go"));
    /* A language missing; an extra one; {} misses every language. */
    json_object_set_new(json_array_get(exp, 0), "highlights",
                        json_pack("{s:[s]}", "en", "Led X"));
    json_object_set_new(json_array_get(exp, 1), "highlights",
                        json_pack("{s:[s], s:[], s:[s]}", "en", "A",
                                  "es", "fr", "Un"));
    json_object_set_new(json_array_get(exp, 2), "highlights", json_object());
    /* A text value where the list belongs; items that are not plain
     * strings (a translation inside a language's list is one). */
    json_object_set_new(json_array_get(exp, 3), "highlights",
                        json_pack("{s:s, s:[s, i, {s:s, s:s}, n, []]}",
                                  "en", "Led X", "es", "Dirigí X", 3,
                                  "en", "a", "es", "b"));
    json_object_set_new(at(d, (const char *[]){"caseStudies", "#0", NULL}),
                        "resultItems", json_pack("{s:n, s:{}}", "en", "es"));
    r = parse_doc(POOL(state), d);
    assert_int_not_equal(r.rv, APR_SUCCESS);
    assert_problem(&r, 0, "$.skills[1].skills", "expected an array of text "
                   "values, or an object with one array per language, "
                   "found a string");
    assert_problem(&r, 1, "$.experience[0].highlights",
                   "missing the list in \"es\"");
    assert_problem(&r, 2, "$.experience[1].highlights",
                   "unknown language \"fr\" (the file declares en,es)");
    assert_problem(&r, 3, "$.experience[2].highlights",
                   "missing the list in \"en\"");
    assert_problem(&r, 4, "$.experience[2].highlights",
                   "missing the list in \"es\"");
    assert_problem(&r, 5, "$.experience[3].highlights.en",
                   "expected an array of plain strings (the list in "
                   "\"en\"), found a string");
    assert_problem(&r, 6, "$.experience[3].highlights.es[1]",
                   "expected a plain string");
    assert_has(nth(&r, 6)->text, "found a number");
    assert_problem(&r, 7, "$.experience[3].highlights.es[2]",
                   "found an object");
    assert_problem(&r, 8, "$.experience[3].highlights.es[3]", "found null");
    assert_problem(&r, 9, "$.experience[3].highlights.es[4]",
                   "found an array");
    assert_problem(&r, 10, "$.caseStudies[0].resultItems.en",
                   "found null");
    assert_problem(&r, 11, "$.caseStudies[0].resultItems.es",
                   "expected an array of plain strings (the list in "
                   "\"es\"), found an object");
    assert_int_equal(r.problems->nelts, 12);
}

static void per_language_list_under_a_bad_declaration_is_still_judged(void **s)
{
    json_t *d = sample();
    result_t r;

    /* With the declaration bad, which languages a list needs is unknown;
     * what its arrays hold is still judged. */
    json_object_set_new(d, "languages", json_pack("[s, s]", "en", "e1"));
    json_object_set_new(at(d, (const char *[]){"experience", "#0", NULL}),
                        "highlights", json_pack("{s:[s], s:[i]}", "en", "A",
                                                "xx", 1));
    r = parse_doc(POOL(s), d);
    assert_int_equal(r.problems->nelts, 2);
    assert_problem(&r, 0, "$.languages[1]", "bad language tag \"e1\"");
    assert_problem(&r, 1, "$.experience[0].highlights.xx[0]",
                   "found a number");
}

static void undeclared_language_of_a_per_language_list_is_named(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *d = sample();
    json_t *exp0 = at(d, (const char *[]){"experience", "#0", NULL});
    result_t r;

    /* "es" is not declared: the file's texts are all plain strings
     * but this list, and its "es" is an extra language. */
    json_object_set_new(d, "languages", json_pack("[s]", "en"));
    json_object_set_new(exp0, "highlights",
                        json_pack("{s:[s], s:[s]}", "en", "A", "es", "B"));
    r = parse_doc(p, d);
    assert_true(r.problems->nelts > 1);
    assert_problem(&r, 0, "$.profile.headline",
                   "unknown language \"es\" (the file declares en)");
    {
        int i, found = 0;

        for (i = 0; i < r.problems->nelts; i++) {
            if (strcmp(nth(&r, i)->path, "$.experience[0].highlights") == 0) {
                assert_has(nth(&r, i)->text,
                           "unknown language \"es\" (the file declares en)");
                found++;
            }
        }
        assert_int_equal(found, 1);
    }
}

/* n metrics with bad ids: n problems. */
static result_t bad_ids(apr_pool_t *p, int n)
{
    json_t *d = sample();
    json_t *metrics = json_object_get(d, "metrics");
    json_t *first = json_incref(json_array_get(metrics, 0));
    int i;

    json_array_clear(metrics);
    for (i = 0; i < n; i++) {
        json_t *m = json_deep_copy(first);

        json_object_set_new(m, "id",
                            json_string(apr_psprintf(p, "-bad%d", i)));
        json_array_append_new(metrics, m);
    }
    json_decref(first);
    return parse_doc(p, d);
}

static void message_lists_the_first_ten_then_how_many_more(void **state)
{
    apr_pool_t *p = POOL(state);
    result_t r = bad_ids(p, 13);
    apr_array_header_t *want = apr_array_make(p, 11, sizeof(char *));
    int i;

    assert_int_equal(r.problems->nelts, 13);
    for (i = 0; i < 10; i++) {
        const profile_data_problem_t *pr = nth(&r, i);

        /* Each where its id stands, one after another in the file. */
        assert_true(pr->line > (i > 0 ? nth(&r, i - 1)->line : 0));
        APR_ARRAY_PUSH(want, const char *) = apr_psprintf(p,
            DOC_NAME ":%d:%d: $.metrics[%d].id: bad id \"-bad%d\": ids "
            "match [A-Za-z0-9][A-Za-z0-9._~-]*", pr->line, pr->column, i, i);
    }
    APR_ARRAY_PUSH(want, const char *) = "and 3 more";
    assert_string_equal(r.err, apr_array_pstrcat(p, want, '\n'));
}

static void ten_problems_need_no_more_line(void **state)
{
    result_t r = bad_ids(POOL(state), 10);

    assert_int_equal(r.problems->nelts, 10);
    assert_null(strstr(r.err, "more"));
    assert_non_null(strstr(r.err, "$.metrics[9].id"));
}

#ifdef __linux__
/* The process's resident bytes (Linux: /proc/self/statm). */
static size_t resident(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, pages = 0;

    assert_non_null(f);
    assert_int_equal(fscanf(f, "%lu %lu", &size, &pages), 2);
    fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* What validating the sample with n unknown keys of its own adds to
 * the resident bytes, in a pool of its own (profile_pool_create_own:
 * its blocks are new, not from a free list), keeping 10 problems. */
static size_t validating_takes(int n)
{
    json_t *d = sample();
    profile_problems_t *problems;
    size_t before, after;
    apr_pool_t *vp;
    const char **langs;
    int i, nlangs;

    for (i = 0; i < n; i++) {
        char key[80];

        snprintf(key, sizeof(key), "unknown-key-%06d-xxxxxxxxxxxxxxxxxxxx"
                 "xxxxxxxxxxxxxxxxxxxx", i);
        json_object_set_new(d, key, json_string("v"));
    }
    assert_int_equal(profile_pool_create_own(&vp, NULL), APR_SUCCESS);
    before = resident();
    problems = profile_problems_make(vp, 10);
    assert_int_equal(profile_validate(d, &langs, &nlangs, problems, vp),
                     (apr_size_t)n);
    after = resident();
    assert_int_equal(problems->total, (apr_size_t)n);
    assert_int_equal(problems->list->nelts, n < 10 ? n : 10);
    apr_pool_destroy(vp);
    json_decref(d);
    return after > before ? after - before : 0;
}
#endif

/* A problem past the ones kept costs its count only (CONTRACT §9:
 * refusing is bounded): its message's arguments (the key, quoted) are
 * not made.  50,000 unknown keys add to the resident bytes what 20 do,
 * within 1 MB (made for each, the quoted keys took 12.5 MB). */
static void problems_past_the_kept_are_only_counted(void **state)
{
#ifdef __linux__
    size_t few, many;

    (void)state;
    few = validating_takes(20);
    many = validating_takes(50000);
    print_message("  validating 20 unknown keys adds %zu B resident, "
                  "50,000 add %zu B\n", few, many);
    assert_true(many < few + 1024 * 1024);
#else
    (void)state;
    skip();
#endif
}

static void unreadable_file_is_one_problem_without_path(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t opts = {.render = 0, .compress = 0, .max_size = 0,
                                .problems = NULL};
    profile_store_t *st = NULL;
    const char *err = NULL;
    const char *path = UNIT_DATA "/does-not-exist.json";

    opts.problems = profile_problems_make(p, 1);
    assert_int_not_equal(profile_store_load(&st, &err, path, &opts, p),
                         APR_SUCCESS);
    assert_int_equal(opts.problems->total, 1);
    assert_null(APR_ARRAY_IDX(opts.problems->list, 0,
                              profile_data_problem_t).path);
    assert_string_equal(err, profile_data_problem_line(
        &APR_ARRAY_IDX(opts.problems->list, 0, profile_data_problem_t), path,
        p));
}


/* ----------------------------------------------- links (§9, D10) */

/* The sample with contact.links[0].url set to s[0..len). */
static result_t with_link(apr_pool_t *p, const char *s, size_t len)
{
    json_t *d = sample();

    json_object_set_new(at(d, (const char *[]){"contact", "links", "#0",
                                               NULL}),
                        "url", json_stringn(s, len));
    return parse_doc(p, d);
}

static void links_of_the_four_schemes_are_accepted(void **state)
{
    static const char *const good[] = {
        "", "https://x.example/", "HTTP://X", "Https://x.example:8443/a?b#c",
        "http://user@x.example", "https://[2001:db8::1]/",
        "https://b\xc3\xbc" "cher.example/", "mailto:a@b.example",
        "MAILTO:a@b.example?subject=Hi", "tel:+34600000000", "TeL:+1-555",
        NULL
    };
    apr_pool_t *p = POOL(state);
    int i;

    for (i = 0; good[i]; i++) {
        result_t r = with_link(p, good[i], strlen(good[i]));

        if (r.problems->nelts != 0) {
            print_error("%s: %s\n", good[i], nth(&r, 0)->text);
        }
        assert_int_equal(r.problems->nelts, 0);
        assert_int_equal(r.rv, APR_SUCCESS);
        assert_int_equal(profile_url_check(good[i], strlen(good[i])),
                         PROFILE_URL_OK);
    }
}

static void links_of_other_forms_are_data_problems(void **state)
{
    static const struct {
        const char *url;
        profile_url_e why;
        const char *quoted;     /* how the message quotes it */
    } bad[] = {
        {"javascript:alert(1)", PROFILE_URL_SCHEME, NULL},
        {"JaVaScRiPt:alert(document.cookie)", PROFILE_URL_SCHEME, NULL},
        {"data:text/html,<script>alert(1)</script>", PROFILE_URL_SCHEME,
         NULL},
        {"vbscript:msgbox", PROFILE_URL_SCHEME, NULL},
        {"ftp://files.example/cv.pdf", PROFILE_URL_SCHEME, NULL},
        {"httpx://x.example", PROFILE_URL_SCHEME, NULL},
        {"/relative", PROFILE_URL_RELATIVE, NULL},
        {"//host/path", PROFILE_URL_RELATIVE, NULL},
        {"example.com", PROFILE_URL_RELATIVE, NULL},
        {" https://x.example/", PROFILE_URL_RELATIVE, NULL},
        {"https:/x", PROFILE_URL_NO_HOST, NULL},
        {"https:x.example", PROFILE_URL_NO_HOST, NULL},
        {"https://", PROFILE_URL_NO_HOST, NULL},
        {"http://:80/", PROFILE_URL_NO_HOST, NULL},
        {"https://user@/x", PROFILE_URL_NO_HOST, NULL},
        {"https://[]/", PROFILE_URL_NO_HOST, NULL},
        {"mailto:", PROFILE_URL_NO_TARGET, NULL},
        {"tel:", PROFILE_URL_NO_TARGET, NULL},
        {"https://x.example/a b", PROFILE_URL_BAD_CHAR, NULL},
        {"https://x.example/\n", PROFILE_URL_BAD_CHAR,
         "https://x.example/%0A"},
        {"mailto:a@b.example\x7f", PROFILE_URL_BAD_CHAR,
         "mailto:a@b.example%7F"},
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t len = strlen(bad[i].url);
        result_t r = with_link(p, bad[i].url, len);

        assert_int_equal(profile_url_check(bad[i].url, len), bad[i].why);
        assert_int_not_equal(r.rv, APR_SUCCESS);
        assert_int_equal(r.problems->nelts, 1);
        assert_problem(&r, 0, "$.contact.links[0].url",
                       apr_psprintf(p, "\"%s\" is not an https, http, "
                                    "mailto or tel URL%s",
                                    bad[i].quoted ? bad[i].quoted
                                                  : bad[i].url,
                                    profile_url_why(bad[i].why)));
        assert_has(r.err, "$.contact.links[0].url: \"");
    }
    /* The loader refuses a NUL in any string; the rule itself judges
     * the whole value, not what comes before a NUL. */
    assert_int_equal(profile_url_check("https://x.example/\0javascript:",
                                       30), PROFILE_URL_BAD_CHAR);
}

static void every_link_field_is_judged(void **state)
{
    json_t *d = sample();
    result_t r;

    json_object_set_new(at(d, (const char *[]){"experience", "#1", NULL}),
                        "companyUrl", json_string("javascript:void(0)"));
    json_object_set_new(at(d, (const char *[]){"education", "#0", NULL}),
                        "institutionUrl", json_string("/campus"));
    json_object_set_new(at(d, (const char *[]){"contact", "contacts", "#0",
                                               NULL}),
                        "url", json_string("mailto:"));
    r = parse_doc(POOL(state), d);
    assert_int_equal(r.problems->nelts, 3);
    assert_problem(&r, 0, "$.experience[1].companyUrl",
                   "\"javascript:void(0)\" is not an https, http, mailto or "
                   "tel URL");
    assert_problem(&r, 1, "$.education[0].institutionUrl",
                   "\"/campus\" is not an https, http, mailto or tel URL");
    assert_problem(&r, 2, "$.contact.contacts[0].url",
                   "\"mailto:\" is not an https, http, mailto or tel URL "
                   "(nothing after the colon)");
}

static void a_long_bad_link_is_cut_in_its_message(void **state)
{
    apr_pool_t *p = POOL(state);
    size_t n = 100000, i;
    char *s = apr_palloc(p, n);
    result_t r;
    const char *text;

    memcpy(s, "javascript:", 11);
    for (i = 11; i < n; i++) {
        s[i] = 'a';
    }
    r = with_link(p, s, n);
    assert_int_equal(r.problems->nelts, 1);
    text = nth(&r, 0)->text;
    assert_has(text, "\"javascript:aaaa");
    assert_has(text, "...\" is not an https, http, mailto or tel URL");
    assert_true(strlen(text) < 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(sample_has_no_problems),
        UNIT_TEST(every_problem_is_listed_in_file_order),
        UNIT_TEST(several_problems_in_one_record_are_each_listed),
        UNIT_TEST(wrong_type_hides_what_it_holds),
        UNIT_TEST(bad_languages_are_listed_where_declared),
        UNIT_TEST(syntax_error_is_the_only_problem),
        UNIT_TEST(per_language_lists_are_accepted),
        UNIT_TEST(every_misuse_of_a_per_language_list_is_listed),
        UNIT_TEST(per_language_list_under_a_bad_declaration_is_still_judged),
        UNIT_TEST(undeclared_language_of_a_per_language_list_is_named),
        UNIT_TEST(message_lists_the_first_ten_then_how_many_more),
        UNIT_TEST(ten_problems_need_no_more_line),
        UNIT_TEST(problems_past_the_kept_are_only_counted),
        UNIT_TEST(unreadable_file_is_one_problem_without_path),
        UNIT_TEST(links_of_the_four_schemes_are_accepted),
        UNIT_TEST(links_of_other_forms_are_data_problems),
        UNIT_TEST(every_link_field_is_judged),
        UNIT_TEST(a_long_bad_link_is_cut_in_its_message),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
