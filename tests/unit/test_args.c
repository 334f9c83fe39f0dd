/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_args.c -- the module's directive values, the API base of a URL
 * and httpd's command line, parsed (profile_args.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_args.h"

static void origin_is_scheme_host_and_port_only(void **state)
{
    (void)state;
    assert_true(profile_args_origin("https://app.example.com"));
    assert_true(profile_args_origin("http://localhost:3000"));
    assert_true(profile_args_origin("chrome-extension://abc"));
    assert_false(profile_args_origin("https://example.com/"));
    assert_false(profile_args_origin("https://example.com?x"));
    assert_false(profile_args_origin("https://*.example.com"));
    assert_false(profile_args_origin("https://"));
    assert_false(profile_args_origin("example.com"));
    assert_false(profile_args_origin("1http://example.com"));
    assert_false(profile_args_origin("https://exa mple.com"));
    assert_false(profile_args_origin("*"));
}

static void seconds_are_digits_up_to_int_max(void **state)
{
    int v = -5;

    (void)state;
    assert_int_equal(profile_args_seconds(&v, "0"), 0);
    assert_int_equal(v, 0);
    assert_int_equal(profile_args_seconds(&v, "2147483647"), 0);
    assert_int_equal(v, 2147483647);
    assert_int_equal(profile_args_seconds(&v, "2147483648"), -1);
    assert_int_equal(profile_args_seconds(&v, "-1"), -1);
    assert_int_equal(profile_args_seconds(&v, "+5"), -1);
    assert_int_equal(profile_args_seconds(&v, "5s"), -1);
    assert_int_equal(profile_args_seconds(&v, ""), -1);
    assert_int_equal(v, 2147483647);        /* untouched on error */
}

static void size_takes_binary_suffixes_up_to_one_gigabyte(void **state)
{
    apr_off_t v = 0;

    (void)state;
    assert_int_equal(profile_args_size(&v, "1"), 0);
    assert_int_equal(v, 1);
    assert_int_equal(profile_args_size(&v, "64M"), 0);
    assert_int_equal(v, 64 * 1024 * 1024);
    assert_int_equal(profile_args_size(&v, "3k"), 0);
    assert_int_equal(v, 3 * 1024);
    assert_int_equal(profile_args_size(&v, "1G"), 0);
    assert_int_equal(v, PROFILE_MAX_DATA_SIZE_CAP);
    assert_int_equal(profile_args_size(&v, "2G"), -1);
    assert_int_equal(profile_args_size(&v, "1025M"), -1);
    assert_int_equal(profile_args_size(&v, "0"), -1);
    assert_int_equal(profile_args_size(&v, "0K"), -1);
    assert_int_equal(profile_args_size(&v, "64MB"), -1);
    assert_int_equal(profile_args_size(&v, "M"), -1);
    assert_int_equal(profile_args_size(&v, "12T"), -1);
}

static void data_options_are_each_said_once(void **state)
{
    int bad = -1, compress = -1;

    (void)state;
    assert_int_equal(profile_args_data_option(&bad, &compress,
                                              "bad=Refuse"), 0);
    assert_int_equal(bad, 1);
    assert_int_equal(profile_args_data_option(&bad, &compress,
                                              "compress=off"), 0);
    assert_int_equal(compress, 0);
    assert_int_equal(profile_args_data_option(&bad, &compress,
                                              "bad=keep"), -1);
    assert_int_equal(bad, 1);
    bad = compress = -1;
    assert_int_equal(profile_args_data_option(&bad, &compress,
                                              "compress=maybe"), -2);
    assert_int_equal(compress, -1);
    assert_int_equal(profile_args_data_option(&bad, &compress, "refuse"),
                     -1);
    assert_int_equal(profile_args_data_option(&bad, &compress, "bad="), -2);
    assert_int_equal(profile_args_data_option(&bad, &compress,
                                              "BAD=KEEP"), 0);
    assert_int_equal(bad, 0);
}

static void below_is_the_base_or_a_path_under_it(void **state)
{
    (void)state;
    assert_string_equal(profile_args_below("/api/v1", "/api/v1"), "");
    assert_string_equal(profile_args_below("/api/v1/skills", "/api/v1"),
                        "/skills");
    assert_null(profile_args_below("/api/v10", "/api/v1"));
    assert_null(profile_args_below("/api", "/api/v1"));
    assert_string_equal(profile_args_below("/x", ""), "/x");
}

static void base_loses_trailing_slashes(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(profile_args_base("/api/v1/", p), "/api/v1");
    assert_string_equal(profile_args_base("/api//", p), "/api");
    assert_string_equal(profile_args_base("/", p), "");
    assert_string_equal(profile_args_base("/a", p), "/a");
}

static int stops(const char *argv, apr_size_t n)
{
    return profile_args_stop(argv, n);
}

#define ARGV(s) (s), sizeof(s) - 1

static void stop_is_k_stop_or_graceful_stop(void **state)
{
    (void)state;
    assert_true(stops(ARGV("apache2\0-k\0stop\0")));
    assert_true(stops(ARGV("apache2\0-kgraceful-stop\0")));
    assert_true(stops(ARGV("httpd\0-d\0/r\0-k\0graceful-stop\0")));
    assert_false(stops(ARGV("apache2\0-k\0graceful\0")));
    assert_false(stops(ARGV("apache2\0-k\0start\0")));
    assert_false(stops(ARGV("apache2\0stop\0")));
    assert_false(stops(ARGV("apache2\0-d\0-k\0")));
    assert_false(stops("", 0));
}

static void page_options_are_page_urls_said_once(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *url = NULL, *assets = NULL;

    assert_null(profile_args_page_option(&url, "url",
                                         "https://ana.example/cv", p));
    assert_string_equal(url, "https://ana.example/cv/");
    assert_non_null(strstr(profile_args_page_option(&url, "url",
                                                    "https://b.example/",
                                                    p), "given twice"));
    assert_null(profile_args_page_option(&assets, "assets", "/static/", p));
    assert_string_equal(assets, "/static/");
    assets = NULL;
    /* A path is no public URL; quotes, other schemes, queries and users
     * are refused. */
    url = NULL;
    assert_non_null(profile_args_page_option(&url, "url", "/cv", p));
    assert_non_null(profile_args_page_option(&assets, "assets",
                                             "/a\"b", p));
    assert_non_null(profile_args_page_option(&url, "url",
                                             "ftp://ana.example/", p));
    assert_non_null(profile_args_page_option(&url, "url",
                                             "https://ana.example/?x", p));
    assert_non_null(profile_args_page_option(&url, "url",
                                             "https://u@ana.example/", p));
    assert_non_null(profile_args_page_option(&assets, "assets",
                                             "//cdn.example/x", p));
    assert_null(url);
    assert_null(assets);
}

static void page_base_is_the_servers_name_and_the_base(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(profile_args_page_base("https", "ana.example", 443,
                                               "/cv", p),
                        "https://ana.example/cv/");
    assert_string_equal(profile_args_page_base("http", "127.0.0.1", 8080,
                                               "", p),
                        "http://127.0.0.1:8080/");
    assert_string_equal(profile_args_page_base("http", "::1", 0, NULL, p),
                        "http://[::1]/");
}

static void sections_apply_where_httpd_may_merge_them(void **state)
{
    (void)state;
    assert_string_equal(profile_args_section_applies(NULL, NULL, "/a/api"),
                        "server");
    assert_string_equal(profile_args_section_applies("<Location /a>", "/a",
                                                     "/a/api"), "encloses");
    assert_string_equal(profile_args_section_applies(
                            "<Location /a/api/x>", "/a/api/x", "/a/api"),
                        "nested");
    assert_null(profile_args_section_applies("<Location /b>", "/b",
                                             "/a/api"));
    assert_null(profile_args_section_applies("<Directory /srv>", NULL,
                                             "/a/api"));
    assert_string_equal(profile_args_section_applies(
                            "<LocationMatch ^/a>", NULL, "/a/api"),
                        "regex or <If>");
    assert_string_equal(profile_args_section_applies(
                            "<Location /a/api> <If \"true\">", "/a/api",
                            "/a/api"), "regex or <If>");
    assert_string_equal(profile_args_section_applies("<Location /b>", "/b",
                                                     NULL), "may apply");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(origin_is_scheme_host_and_port_only),
        cmocka_unit_test(seconds_are_digits_up_to_int_max),
        cmocka_unit_test(size_takes_binary_suffixes_up_to_one_gigabyte),
        cmocka_unit_test(data_options_are_each_said_once),
        cmocka_unit_test(below_is_the_base_or_a_path_under_it),
        UNIT_TEST(base_loses_trailing_slashes),
        cmocka_unit_test(stop_is_k_stop_or_graceful_stop),
        UNIT_TEST(page_options_are_page_urls_said_once),
        UNIT_TEST(page_base_is_the_servers_name_and_the_base),
        cmocka_unit_test(sections_apply_where_httpd_may_merge_them),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
