/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_hdr.c -- the RFC 9110 list tokenizer and qvalue parser shared by
 * Accept and Accept-Language (CONTRACT §4, §7).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_hdr.h"

static int qv(const char *s)
{
    return profile_hdr_qvalue(s, strlen(s));
}

/* ---------------------------------------------------------- qvalue */

static void qvalue_accepts_zero_forms(void **state)
{
    (void)state;
    assert_int_equal(qv("0"), 0);
    assert_int_equal(qv("0."), 0);
    assert_int_equal(qv("0.0"), 0);
    assert_int_equal(qv("0.000"), 0);
}

static void qvalue_accepts_fractions_up_to_three_decimals(void **state)
{
    (void)state;
    assert_int_equal(qv("0.5"), 500);
    assert_int_equal(qv("0.05"), 50);
    assert_int_equal(qv("0.123"), 123);
    assert_int_equal(qv("0.001"), 1);
    assert_int_equal(qv("0.999"), 999);
}

static void qvalue_accepts_one_forms(void **state)
{
    (void)state;
    assert_int_equal(qv("1"), 1000);
    assert_int_equal(qv("1."), 1000);
    assert_int_equal(qv("1.0"), 1000);
    assert_int_equal(qv("1.00"), 1000);
    assert_int_equal(qv("1.000"), 1000);
}

static void qvalue_rejects_above_one(void **state)
{
    (void)state;
    assert_int_equal(qv("1.5"), -1);
    assert_int_equal(qv("1.001"), -1);
    assert_int_equal(qv("1.1"), -1);
    assert_int_equal(qv("2"), -1);
    assert_int_equal(qv("10"), -1);
}

static void qvalue_rejects_four_decimals(void **state)
{
    (void)state;
    assert_int_equal(qv("0.1234"), -1);
    assert_int_equal(qv("0.0000"), -1);
    assert_int_equal(qv("1.0000"), -1);
}

static void qvalue_rejects_malformed_forms(void **state)
{
    (void)state;
    assert_int_equal(qv(".5"), -1);
    assert_int_equal(qv("-1"), -1);
    assert_int_equal(qv("-0"), -1);
    assert_int_equal(qv("abc"), -1);
    assert_int_equal(qv(""), -1);
    assert_int_equal(qv("01"), -1);
    assert_int_equal(qv("0,5"), -1);
    assert_int_equal(qv(" 0.5"), -1);
    assert_int_equal(qv("0.5 "), -1);
    assert_int_equal(qv("0.a"), -1);
    assert_int_equal(qv("+1"), -1);
    assert_int_equal(qv("1e0"), -1);
}

static void qvalue_reads_only_the_given_length(void **state)
{
    (void)state;
    assert_int_equal(profile_hdr_qvalue("0.5;x", 3), 500);
    assert_int_equal(profile_hdr_qvalue("1.5", 1), 1000);
    assert_int_equal(profile_hdr_qvalue("0.5", 0), -1);
}

/* ------------------------------------------------------------ next */

/* Reads the next element and checks its token. */
static void expect_token(const char **cur, profile_hdr_elem_t *e,
                         const char *token)
{
    assert_int_equal(profile_hdr_next(cur, e), 1);
    assert_mem_str(e->token, e->token_len, token);
}

static void next_on_null_or_empty_list_gives_nothing(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = NULL;

    (void)state;
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
    cur = "";
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
    cur = " , ,,\t, ";
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_skips_empty_elements(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = ", a, ,b,,\t,c ,";

    (void)state;
    expect_token(&cur, &e, "a");
    assert_int_equal(e.q, 1000);
    assert_false(e.malformed);
    assert_false(e.has_params);
    expect_token(&cur, &e, "b");
    expect_token(&cur, &e, "c");
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
    /* Once exhausted it stays exhausted. */
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_excludes_surrounding_white_space_from_token(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "  en-GB \t ,\tes\t";

    (void)state;
    expect_token(&cur, &e, "en-GB");
    expect_token(&cur, &e, "es");
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_reads_weight(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "en;q=0.8, es;q=0, fr;q=1";

    (void)state;
    expect_token(&cur, &e, "en");
    assert_int_equal(e.q, 800);
    assert_false(e.malformed);
    assert_false(e.has_params);
    expect_token(&cur, &e, "es");
    assert_int_equal(e.q, 0);
    assert_false(e.malformed);
    expect_token(&cur, &e, "fr");
    assert_int_equal(e.q, 1000);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_accepts_uppercase_q(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "en;Q=0.25";

    (void)state;
    expect_token(&cur, &e, "en");
    assert_int_equal(e.q, 250);
    assert_false(e.malformed);
    assert_false(e.has_params);
}

static void next_allows_white_space_around_semicolon(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "en ; q=0.3,es\t;\tq=0.4 , fr ;q=0.5";

    (void)state;
    expect_token(&cur, &e, "en");
    assert_int_equal(e.q, 300);
    assert_false(e.malformed);
    expect_token(&cur, &e, "es");
    assert_int_equal(e.q, 400);
    assert_false(e.malformed);
    expect_token(&cur, &e, "fr");
    assert_int_equal(e.q, 500);
    assert_false(e.malformed);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_reports_other_parameters(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "text/html;level=1;q=0.5, */*";

    (void)state;
    expect_token(&cur, &e, "text/html");
    assert_true(e.has_params);
    assert_false(e.malformed);
    assert_int_equal(e.q, 500);
    expect_token(&cur, &e, "*/*");
    assert_false(e.has_params);
    assert_int_equal(e.q, 1000);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_keeps_commas_inside_quoted_strings(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "a;x=\"1,2, 3\";q=0.3, b";

    (void)state;
    expect_token(&cur, &e, "a");
    assert_true(e.has_params);
    assert_false(e.malformed);
    assert_int_equal(e.q, 300);
    expect_token(&cur, &e, "b");
    assert_int_equal(e.q, 1000);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_honours_escaped_quote_in_quoted_string(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "a;x=\"p\\\",q\", b";

    (void)state;
    expect_token(&cur, &e, "a");
    assert_true(e.has_params);
    assert_false(e.malformed);
    expect_token(&cur, &e, "b");
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

/* Each of bad[0..n) is one element "es" flagged malformed. */
static void assert_all_malformed(const char *const *bad, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        profile_hdr_elem_t e;
        const char *cur = bad[i];

        assert_int_equal(profile_hdr_next(&cur, &e), 1);
        assert_mem_str(e.token, e.token_len, "es");
        if (!e.malformed) {
            print_error("\"%s\" not flagged malformed\n", bad[i]);
        }
        assert_true(e.malformed);
    }
}

static void next_flags_bad_weight_as_malformed(void **state)
{
    static const char *const bad[] = {
        "es;q=abc", "es;q=1.5", "es;q=0.1234", "es;q=", "es;q=.5",
        "es;q=-1", "es;q=0.5x", "es;q=0;q=1", "es;q=0.5;Q=0.9"
    };

    (void)state;
    assert_all_malformed(bad, sizeof(bad) / sizeof(bad[0]));
}

static void next_flags_broken_parameter_syntax(void **state)
{
    static const char *const bad[] = {
        "es;q", "es;=1", "es;x", "es; q =0.5", "es;q =0.5",
        "es;x=1 y", "es;x=\"unterminated"
    };

    (void)state;
    assert_all_malformed(bad, sizeof(bad) / sizeof(bad[0]));
}

static void next_resynchronises_after_malformed_element(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "es;q=abc, en;q=0.5, fr; q =1 , de";

    (void)state;
    expect_token(&cur, &e, "es");
    assert_true(e.malformed);
    expect_token(&cur, &e, "en");
    assert_false(e.malformed);
    assert_int_equal(e.q, 500);
    expect_token(&cur, &e, "fr");
    assert_true(e.malformed);
    expect_token(&cur, &e, "de");
    assert_false(e.malformed);
    assert_int_equal(e.q, 1000);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_empty_parameter_is_malformed(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "es;, en;q=0.5;, fr;;q=1, de";

    (void)state;
    expect_token(&cur, &e, "es");
    assert_true(e.malformed);
    expect_token(&cur, &e, "en");
    assert_true(e.malformed);
    expect_token(&cur, &e, "fr");
    assert_true(e.malformed);
    expect_token(&cur, &e, "de");
    assert_false(e.malformed);
    assert_int_equal(profile_hdr_next(&cur, &e), 0);
}

static void next_element_starts_from_default_weight(void **state)
{
    profile_hdr_elem_t e;
    const char *cur = "a;q=0.2, b";

    (void)state;
    expect_token(&cur, &e, "a");
    assert_int_equal(e.q, 200);
    /* The next element starts from fresh defaults. */
    expect_token(&cur, &e, "b");
    assert_int_equal(e.q, 1000);
    assert_false(e.has_params);
    assert_false(e.malformed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(qvalue_accepts_zero_forms),
        cmocka_unit_test(qvalue_accepts_fractions_up_to_three_decimals),
        cmocka_unit_test(qvalue_accepts_one_forms),
        cmocka_unit_test(qvalue_rejects_above_one),
        cmocka_unit_test(qvalue_rejects_four_decimals),
        cmocka_unit_test(qvalue_rejects_malformed_forms),
        cmocka_unit_test(qvalue_reads_only_the_given_length),
        cmocka_unit_test(next_on_null_or_empty_list_gives_nothing),
        cmocka_unit_test(next_skips_empty_elements),
        cmocka_unit_test(next_excludes_surrounding_white_space_from_token),
        cmocka_unit_test(next_reads_weight),
        cmocka_unit_test(next_accepts_uppercase_q),
        cmocka_unit_test(next_allows_white_space_around_semicolon),
        cmocka_unit_test(next_reports_other_parameters),
        cmocka_unit_test(next_keeps_commas_inside_quoted_strings),
        cmocka_unit_test(next_honours_escaped_quote_in_quoted_string),
        cmocka_unit_test(next_flags_bad_weight_as_malformed),
        cmocka_unit_test(next_flags_broken_parameter_syntax),
        cmocka_unit_test(next_resynchronises_after_malformed_element),
        cmocka_unit_test(next_empty_parameter_is_malformed),
        cmocka_unit_test(next_element_starts_from_default_weight),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
