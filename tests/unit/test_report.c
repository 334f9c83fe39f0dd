/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_report.c -- the reports' pieces and text (profile_report.c) and
 * the metrics text (profile_metrics.c), from plain data and the sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_metrics.h"
#include "profile_report.h"

static void str_of_bytes_that_are_not_utf8_has_question_marks(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *text = NULL;
    json_t *v = profile_report_str("/srv/d\xe9j\xe0.json", &text, p);

    assert_string_equal(json_string_value(v), "/srv/d?j?.json");
    assert_string_equal(text, "/srv/d?j?.json");
    json_decref(v);
    v = profile_report_str("/srv/d\xc3\xa9j\xc3\xa0.json", &text, p);
    assert_string_equal(json_string_value(v), text);
    assert_string_equal(text, "/srv/d\xc3\xa9j\xc3\xa0.json");
    json_decref(v);
    assert_true(json_is_null(profile_report_str(NULL, &text, p)));
    assert_null(text);
}

static void text_of_each_json_type(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *v = json_pack("[s, I, f, b, b, [s, i], n]", "en", (json_int_t)42,
                          0.25, 1, 0, "es", 3);

    assert_string_equal(profile_report_text(json_array_get(v, 0), p), "en");
    assert_string_equal(profile_report_text(json_array_get(v, 1), p), "42");
    assert_string_equal(profile_report_text(json_array_get(v, 2), p),
                        "0.250000");
    assert_string_equal(profile_report_text(json_array_get(v, 3), p), "on");
    assert_string_equal(profile_report_text(json_array_get(v, 4), p), "off");
    assert_string_equal(profile_report_text(json_array_get(v, 5), p), "es 3");
    assert_null(profile_report_text(json_array_get(v, 6), p));
    assert_null(profile_report_text(NULL, p));
    json_decref(v);
}

static void time_is_rfc3339_utc_and_zero_is_null(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *v;

    assert_string_equal(profile_report_time(
        apr_time_from_sec(1795651200) + 999999, p), "2026-11-26T00:00:00Z");
    v = profile_report_jtime(apr_time_from_sec(0) + 1, p);
    assert_string_equal(json_string_value(v), "1970-01-01T00:00:00Z");
    json_decref(v);
    assert_true(json_is_null(profile_report_jtime(0, p)));
}

static const profile_store_t *sample(apr_pool_t *p, int compress)
{
    profile_load_opts_t o = {.render = 1, .compress = compress};
    profile_store_t *st = NULL;
    const char *err = NULL;

    assert_int_equal(profile_store_load(&st, &err, SAMPLE_PATH, &o, p),
                     APR_SUCCESS);
    return st;
}

static void store_counts_records_and_representations(void **state)
{
    apr_pool_t *p = POOL(state);
    const profile_store_t *st = sample(p, 1);
    json_t *o = json_object();
    json_int_t reps = 0;
    int l, k;

    profile_report_store(o, st, p);
    assert_string_equal(profile_report_text(json_object_get(o, "languages"),
                                            p), "en es");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        o, "records"), "experience")), st->coll[PROFILE_COLL_EXPERIENCE]
        .nitems);
    for (l = 0; l < st->nlangs; l++) {
        reps += 2;
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            reps += 1 + st->coll[k].nitems;
        }
    }
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        o, "representations"), "identity")), reps);
    assert_true(json_integer_value(json_object_get(json_object_get(
        o, "bytes"), "gzip")) > 0);
    assert_has(profile_report_counts(o, "records", p), "experience ");
    assert_has(profile_report_codings(o, p), "identity ");
    assert_has(profile_report_codings(o, p), " bytes); gzip ");
    json_decref(o);
    o = json_object();
    profile_report_store(o, sample(p, 0), p);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        o, "representations"), "br")), 0);
    json_decref(o);
    assert_null(profile_report_counts(NULL, "records", p));
    assert_null(profile_report_codings(NULL, p));
}

static json_t *a_line(void)
{
    return json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:s,"
                     " s:{s:s}, s:[{s:s, s:s, s:s, s:i, s:n, s:s}]}",
                     "definedIn", "/etc/a.conf", "line", 12,
                     "section", "<Location /api/v1>",
                     "server", "api.example.org:443", "base", "/api/v1",
                     "badData", "refuse", "badDataFrom", "this line",
                     "compression", 1, "compressionFrom", "default",
                     "configuredHere", "ProfileMaxAge", "60",
                     "mayChangeForSomeUrls", "directive", "ProfileMaxAge",
                     "value", "7", "definedIn", "/etc/a.conf", "line", 30,
                     "section", "server", "x");
}

static void line_says_where_options_and_what_may_change(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *u = a_line();

    assert_string_equal(profile_report_line(u, "; ", p),
        "ProfileData on line 12 of /etc/a.conf, <Location /api/v1>, "
        "api.example.org:443; API base /api/v1, bad=refuse (this line), "
        "compress=on (default); in this section: ProfileMaxAge 60, "
        "ProfileCORSOrigins not set; set in other sections, which may "
        "change it for some URLs:;   ProfileMaxAge 7 on line 30 of "
        "/etc/a.conf, server level, x");
    json_decref(u);
}

static void auto_lines_are_single_lines_without_nulls(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *m = json_pack("{s:s, s:i, s:i, s:i, s:i, s:[{s:s, s:s, s:n}]}",
                          "version", "0.3.0", "files", 1, "fresh", 0,
                          "stale", 1, "unavailable", 0, "data", "path",
                          "/a\nb.json", "state", "stale", "staleSince");

    assert_string_equal(profile_report_auto(m, p),
                        "ProfileModuleVersion: 0.3.0\nProfileFiles: 1\n"
                        "ProfileFresh: 0\nProfileStale: 1\n"
                        "ProfileUnavailable: 0\n"
                        "ProfileData[0]Path: /a b.json\n"
                        "ProfileData[0]State: stale\n");
    json_decref(m);
}

static void dump_indents_each_problem_of_a_bad_file(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *f = json_pack("{s:s, s:s, s:[o]}", "path", "/d/bad.json",
                          "error", "/d/bad.json: 2 problems\n"
                          "/d/bad.json: $.a: x\n/d/bad.json: $.b: y",
                          "lines", a_line());

    assert_string_equal(profile_report_dump(f, p),
        "  /d/bad.json\n    data: bad:\n"
        "      /d/bad.json: 2 problems\n      /d/bad.json: $.a: x\n"
        "      /d/bad.json: $.b: y\n"
        "    ProfileData on line 12 of /etc/a.conf, <Location /api/v1>, "
        "api.example.org:443\n      API base /api/v1, bad=refuse (this "
        "line), compress=on (default)\n      in this section: "
        "ProfileMaxAge 60, ProfileCORSOrigins not set\n      set in other "
        "sections, which may change it for some URLs:\n        "
        "ProfileMaxAge 7 on line 30 of /etc/a.conf, server level, x\n");
    json_decref(f);
}

static void html_escapes_every_text_and_marks_what_is_not_fresh(void **state)
{
    apr_pool_t *p = POOL(state);
    json_t *m = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:[{s:s, s:s, s:s,"
                          " s:{s:s, s:b}, s:[o]}]}", "version", "0.3.0",
                          "files", 1, "fresh", 0, "stale", 1,
                          "unavailable", 0, "generation", 2, "data",
                          "path", "/d/<a>&b.json", "state", "stale",
                          "message", "serving last good data",
                          "onDisk", "error", "No such file", "changed", 1,
                          "lines", a_line());
    const char *h = profile_report_html(m, p);

    assert_has(h, "<h2>mod_profile 0.3.0</h2>\n<p>1 data file: 0 fresh, "
                  "1 serving last good data, 0 unavailable (configuration "
                  "generation 2)</p>\n");
    assert_has(h, "<h3>/d/&lt;a&gt;&amp;b.json</h3>\n<p style=\"color:#a00\">"
                  "<b>serving last good data</b></p>\n");
    assert_has(h, "<td>No such file</td>");
    assert_has(h, "<th align=\"left\" valign=\"top\">Records</th>"
                  "<td>-</td>");
    assert_has(h, "ProfileData on line 12 of /etc/a.conf, &lt;Location "
                  "/api/v1&gt;, api.example.org:443; API base");
    assert_false(unit_has(h, "File loaded"));
    json_decref(m);
}

static void metrics_label_escapes_and_scrubs(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(profile_metrics_label("a\\b\"c\nd\xff", p),
                        "a\\\\b\\\"c\\nd?");
    assert_string_equal(profile_metrics_label("plain", p), "plain");
}

static void metrics_give_samples_only_for_what_is_known(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_report_file_t f[2] = {
        {.path = "/d/a.json"},
        {.path = "/d/b.json", .stale = 1,
         .loaded_at = apr_time_from_sec(1795651200) + 999600,
         .loaded_in = APR_USEC_PER_SEC / 4},
    };
    const char *t;

    f[1].store = sample(p, 0);
    t = profile_metrics_text(f, 2, "0.3.0", p);
    assert_has(t, "# TYPE profile_build_info gauge\n"
                  "profile_build_info{version=\"0.3.0\"} 1\n");
    assert_has(t, "profile_data_stale{file=\"/d/a.json\"} 0\n"
                  "profile_data_stale{file=\"/d/b.json\"} 1\n");
    assert_has(t, "profile_data_unavailable{file=\"/d/a.json\"} 1\n"
                  "profile_data_unavailable{file=\"/d/b.json\"} 0\n");
    assert_has(t, "profile_data_last_load_timestamp_seconds{file=\""
                  "/d/b.json\"} 1795651200.999\n");
    assert_has(t, "profile_data_load_duration_seconds{file=\"/d/b.json\"} "
                  "0.250000\n");
    assert_has(t, "profile_data_records{file=\"/d/b.json\","
                  "collection=\"skills\"} ");
    assert_false(unit_has(t, "seconds{file=\"/d/a.json\"}"));
    assert_false(unit_has(t, "records{file=\"/d/a.json\""));
    assert_has(profile_metrics_text(NULL, 0, "0.3.0", p),
               "# HELP profile_data_records ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(str_of_bytes_that_are_not_utf8_has_question_marks),
        UNIT_TEST(text_of_each_json_type),
        UNIT_TEST(time_is_rfc3339_utc_and_zero_is_null),
        UNIT_TEST(store_counts_records_and_representations),
        UNIT_TEST(line_says_where_options_and_what_may_change),
        UNIT_TEST(auto_lines_are_single_lines_without_nulls),
        UNIT_TEST(dump_indents_each_problem_of_a_bad_file),
        UNIT_TEST(html_escapes_every_text_and_marks_what_is_not_fresh),
        UNIT_TEST(metrics_label_escapes_and_scrubs),
        UNIT_TEST(metrics_give_samples_only_for_what_is_known),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
