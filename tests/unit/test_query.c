/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_query.c -- strict query-string decoding and validation
 * (CONTRACT §8 rules 1-4).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_query.h"

static const char *reason_name(profile_qp_reason_e r)
{
    switch (r) {
    case PROFILE_QP_BAD_ENCODING: return "BAD_ENCODING";
    case PROFILE_QP_BAD_UTF8: return "BAD_UTF8";
    case PROFILE_QP_UNKNOWN: return "UNKNOWN";
    case PROFILE_QP_REPEATED: return "REPEATED";
    case PROFILE_QP_EMPTY: return "EMPTY";
    case PROFILE_QP_TOO_LONG: return "TOO_LONG";
    case PROFILE_QP_CONTROL: return "CONTROL";
    }
    return "?";
}

static const profile_qp_problem_t *problem_at(const profile_query_t *q,
                                              int i)
{
    return &APR_ARRAY_IDX(q->problems, i, profile_qp_problem_t);
}

static void dump_problems(const char *args, const profile_query_t *q)
{
    int i;

    print_error("query \"%s\": %d problem(s)\n", args ? args : "(null)",
                q->problems ? q->problems->nelts : -1);
    for (i = 0; q->problems && i < q->problems->nelts; i++) {
        print_error("  %s: %s\n", problem_at(q, i)->name,
                    reason_name(problem_at(q, i)->reason));
    }
}

/* Parses `args` and asserts success with the given trimmed value (NULL:
 * the parameter was not given). */
static void expect_ok(apr_pool_t *p, const char *args, const char *allowed,
                      const char *value)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, args, allowed, p);

    if (rv != APR_SUCCESS) {
        dump_problems(args, &q);
    }
    assert_int_equal(rv, APR_SUCCESS);
    assert_non_null(q.problems);
    assert_int_equal(q.problems->nelts, 0);
    if (value == NULL) {
        assert_null(q.value);
    }
    else {
        assert_mem_str(q.value, q.value_len, value);
    }
}

/* Parses `args` and asserts failure with exactly one problem. */
static void expect_one(apr_pool_t *p, const char *args, const char *allowed,
                       const char *name, profile_qp_reason_e reason)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, args, allowed, p);

    if (rv != APR_EINVAL || q.problems->nelts != 1
        || strcmp(problem_at(&q, 0)->name, name) != 0
        || problem_at(&q, 0)->reason != reason) {
        print_error("want one problem %s: %s\n", name, reason_name(reason));
        dump_problems(args, &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 1);
    assert_string_equal(problem_at(&q, 0)->name, name);
    assert_int_equal(problem_at(&q, 0)->reason, reason);
}

/* A string of n copies of s. */
static const char *repeat(apr_pool_t *p, const char *s, int n)
{
    size_t l = strlen(s);
    char *out = apr_palloc(p, l * (size_t)n + 1);
    int i;

    for (i = 0; i < n; i++) {
        memcpy(out + l * (size_t)i, s, l);
    }
    out[l * (size_t)n] = '\0';
    return out;
}

/* ------------------------------------------------------- no params */

static void null_query_has_no_parameters(void **state)
{
    expect_ok(POOL(state), NULL, "q", NULL);
    expect_ok(POOL(state), NULL, NULL, NULL);
}

static void empty_query_has_no_parameters(void **state)
{
    expect_ok(POOL(state), "", "q", NULL);
    expect_ok(POOL(state), "", NULL, NULL);
}

static void lone_ampersands_are_no_parameters(void **state)
{
    expect_ok(POOL(state), "&", "q", NULL);
    expect_ok(POOL(state), "&&", "q", NULL);
    expect_ok(POOL(state), "&", NULL, NULL);
    expect_ok(POOL(state), "&&&", NULL, NULL);
}

static void empty_pieces_around_parameter_are_ignored(void **state)
{
    expect_ok(POOL(state), "&q=kubernetes&", "q", "kubernetes");
    expect_ok(POOL(state), "&&company=acme&&", "company", "acme");
}

/* ----------------------------------------------------------- names */

static void allowed_parameter_returns_value(void **state)
{
    expect_ok(POOL(state), "q=Kubernetes", "q", "Kubernetes");
    expect_ok(POOL(state), "company=Mareta", "company", "Mareta");
    expect_ok(POOL(state), "organization=Cierzo", "organization", "Cierzo");
}

static void unknown_name_is_rejected(void **state)
{
    expect_one(POOL(state), "x=1", "q", "x", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "company=a", "q", "company", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "qq=a", "q", "qq", PROFILE_QP_UNKNOWN);
}

static void unknown_name_without_value_is_rejected(void **state)
{
    expect_one(POOL(state), "debug", "q", "debug", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "debug=", "company", "debug", PROFILE_QP_UNKNOWN);
}

static void any_name_on_route_without_parameters_is_rejected(void **state)
{
    expect_one(POOL(state), "q=a", NULL, "q", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "x", NULL, "x", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "=a", NULL, "", PROFILE_QP_UNKNOWN);
}

static void names_are_case_sensitive(void **state)
{
    expect_one(POOL(state), "Q=a", "q", "Q", PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "Company=a", "company", "Company",
               PROFILE_QP_UNKNOWN);
    expect_one(POOL(state), "ORGANIZATION=a", "organization", "ORGANIZATION",
               PROFILE_QP_UNKNOWN);
}

static void names_are_percent_decoded(void **state)
{
    /* %71 is "q" */
    expect_ok(POOL(state), "%71=a", "q", "a");
    expect_ok(POOL(state), "compan%79=acme", "company", "acme");
}

static void empty_name_is_unknown(void **state)
{
    expect_one(POOL(state), "=a", "q", "", PROFILE_QP_UNKNOWN);
}

/* -------------------------------------------------------- repeated */

static void repeated_name_is_rejected(void **state)
{
    expect_one(POOL(state), "q=a&q=b", "q", "q", PROFILE_QP_REPEATED);
}

static void repeated_name_with_same_value_is_rejected(void **state)
{
    expect_one(POOL(state), "q=a&q=a", "q", "q", PROFILE_QP_REPEATED);
    expect_one(POOL(state), "company=x&&company=x", "company", "company",
               PROFILE_QP_REPEATED);
}

static void repeated_name_is_reported_once(void **state)
{
    expect_one(POOL(state), "q=a&q=b&q=c&q=d", "q", "q", PROFILE_QP_REPEATED);
}

static void repeated_empty_values_are_repeated(void **state)
{
    expect_one(POOL(state), "q&q", "q", "q", PROFILE_QP_REPEATED);
    expect_one(POOL(state), "q=&q=a", "q", "q", PROFILE_QP_REPEATED);
}

static void repeated_through_encoding_is_repeated(void **state)
{
    expect_one(POOL(state), "q=a&%71=b", "q", "q", PROFILE_QP_REPEATED);
}

/* ----------------------------------------------------------- empty */

static void empty_value_is_rejected(void **state)
{
    expect_one(POOL(state), "q=", "q", "q", PROFILE_QP_EMPTY);
}

static void name_without_equals_is_empty_value(void **state)
{
    expect_one(POOL(state), "q", "q", "q", PROFILE_QP_EMPTY);
    expect_one(POOL(state), "company&", "company", "company",
               PROFILE_QP_EMPTY);
}

static void whitespace_only_value_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%20", "q", "q", PROFILE_QP_EMPTY);
    expect_one(POOL(state), "q=+++", "q", "q", PROFILE_QP_EMPTY);
    expect_one(POOL(state), "q=%20%09%0D%0A%0C%0B", "q", "q",
               PROFILE_QP_EMPTY);
}

/* ---------------------------------------------------------- length */

static void value_of_101_code_points_is_too_long(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_one(p, apr_pstrcat(p, "q=", repeat(p, "a", 101), NULL), "q", "q",
               PROFILE_QP_TOO_LONG);
    expect_one(p, apr_pstrcat(p, "q=", repeat(p, "%C3%A9", 101), NULL), "q",
               "q", PROFILE_QP_TOO_LONG);
}

static void value_of_100_ascii_code_points_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *v = repeat(p, "a", 100);

    expect_ok(p, apr_pstrcat(p, "q=", v, NULL), "q", v);
}

static void value_of_100_multibyte_code_points_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);

    /* 100 x U+00E9 (2 bytes): 200 bytes, 100 characters. */
    expect_ok(p, apr_pstrcat(p, "q=", repeat(p, "%C3%A9", 100), NULL), "q",
              repeat(p, "\xC3\xA9", 100));
    /* 100 x U+20AC (3 bytes) and 100 x U+1F600 (4 bytes). */
    expect_ok(p, apr_pstrcat(p, "q=", repeat(p, "%E2%82%AC", 100), NULL),
              "q", repeat(p, "\xE2\x82\xAC", 100));
    expect_ok(p, apr_pstrcat(p, "q=", repeat(p, "%F0%9F%98%80", 100), NULL),
              "q", repeat(p, "\xF0\x9F\x98\x80", 100));
}

static void length_is_counted_before_normalization(void **state)
{
    apr_pool_t *p = POOL(state);

    /* "e" + U+0301 is two code points (one character after NFC): 51 of
     * them are 102 code points, too long; 50 are exactly 100. */
    expect_one(p, apr_pstrcat(p, "q=", repeat(p, "e%CC%81", 51), NULL), "q",
               "q", PROFILE_QP_TOO_LONG);
    expect_ok(p, apr_pstrcat(p, "q=", repeat(p, "e%CC%81", 50), NULL), "q",
              repeat(p, "e\xCC\x81", 50));
}

static void length_is_counted_after_trimming(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *v = repeat(p, "a", 100);

    expect_ok(p, apr_pstrcat(p, "q=++%20%09", v, "%0A+", NULL), "q", v);
}

/* --------------------------------------------------------- control */

static void control_character_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%01", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=a%01b", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=a%1Fb", "q", "q", PROFILE_QP_CONTROL);
}

static void delete_character_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%7F", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=a%7f", "q", "q", PROFILE_QP_CONTROL);
}

static void nul_character_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%00", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=a%00b", "q", "q", PROFILE_QP_CONTROL);
}

static void trimmable_white_space_inside_value_is_control(void **state)
{
    /* Trimming removes only the ends; inner TAB/LF are controls. */
    expect_one(POOL(state), "q=a%09b", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=a%0Ab", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=+a%0Db+", "q", "q", PROFILE_QP_CONTROL);
}

static void control_at_end_survives_trimming(void **state)
{
    expect_one(POOL(state), "q=abc%01%20", "q", "q", PROFILE_QP_CONTROL);
    expect_one(POOL(state), "q=%20%01abc", "q", "q", PROFILE_QP_CONTROL);
}

/* -------------------------------------------------------- encoding */

static void invalid_percent_sequence_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%zz", "q", "q", PROFILE_QP_BAD_ENCODING);
    expect_one(POOL(state), "q=a%g1", "q", "q", PROFILE_QP_BAD_ENCODING);
}

static void truncated_percent_sequence_is_rejected(void **state)
{
    expect_one(POOL(state), "q=%4", "q", "q", PROFILE_QP_BAD_ENCODING);
    expect_one(POOL(state), "q=a%4&", "q", "q", PROFILE_QP_BAD_ENCODING);
}

static void trailing_percent_is_rejected(void **state)
{
    expect_one(POOL(state), "q=abc%", "q", "q", PROFILE_QP_BAD_ENCODING);
    expect_one(POOL(state), "q=%", "q", "q", PROFILE_QP_BAD_ENCODING);
}

static void percent_at_piece_end_does_not_borrow_next_piece(void **state)
{
    /* "%" then "&41": the "&" ends the piece, so "%" is incomplete. */
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "q=a%&41", "q", POOL(state));
    int i, saw_q = 0;

    assert_int_equal(rv, APR_EINVAL);
    for (i = 0; i < q.problems->nelts; i++) {
        if (strcmp(problem_at(&q, i)->name, "q") == 0) {
            saw_q++;
            assert_int_equal(problem_at(&q, i)->reason,
                             PROFILE_QP_BAD_ENCODING);
        }
    }
    assert_int_equal(saw_q, 1);
}

static void invalid_percent_sequence_in_name_is_rejected(void **state)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "%zz=a", "q", POOL(state));

    if (rv != APR_EINVAL || q.problems->nelts != 1) {
        dump_problems("%zz=a", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 1);
    assert_int_equal(problem_at(&q, 0)->reason, PROFILE_QP_BAD_ENCODING);
    assert_non_null(problem_at(&q, 0)->name);
}

static void plus_and_valid_escapes_decode(void **state)
{
    expect_ok(POOL(state), "q=a+b", "q", "a b");
    expect_ok(POOL(state), "q=a%20b", "q", "a b");
    expect_ok(POOL(state), "q=%41%62c", "q", "Abc");
    expect_ok(POOL(state), "q=%2B", "q", "+");
    expect_ok(POOL(state), "q=a%26b%3Dc", "q", "a&b=c");
    expect_ok(POOL(state), "q=C%2B%2B", "q", "C++");
}

static void equals_sign_inside_value_is_kept(void **state)
{
    expect_ok(POOL(state), "q=a=b", "q", "a=b");
}

static void utf8_value_decodes(void **state)
{
    expect_ok(POOL(state), "company=Hafenstra%C3%9Fe", "company",
              "Hafenstra\xC3\x9F" "e");
    expect_ok(POOL(state), "q=%C3%81LVAREZ", "q", "\xC3\x81LVAREZ");
}

/* ------------------------------------------------------------ UTF-8 */

static void invalid_continuation_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%C3%28", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void byte_ff_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%FF", "q", "q", PROFILE_QP_BAD_UTF8);
    expect_one(POOL(state), "q=abc%FE", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void overlong_encoding_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%C0%AF", "q", "q", PROFILE_QP_BAD_UTF8);
    expect_one(POOL(state), "q=%E0%80%AF", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void surrogate_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%ED%A0%80", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void truncated_sequence_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%C3", "q", "q", PROFILE_QP_BAD_UTF8);
    expect_one(POOL(state), "q=%E2%82", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void above_u10ffff_is_bad_utf8(void **state)
{
    expect_one(POOL(state), "q=%F4%90%80%80", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void raw_invalid_byte_is_bad_utf8(void **state)
{
    /* Not percent-encoded at all, but still not UTF-8 once decoded. */
    expect_one(POOL(state), "q=a\xFF", "q", "q", PROFILE_QP_BAD_UTF8);
}

static void invalid_utf8_in_name_is_rejected(void **state)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "%FF=a", "q", POOL(state));

    if (rv != APR_EINVAL || q.problems->nelts != 1) {
        dump_problems("%FF=a", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 1);
    assert_int_equal(problem_at(&q, 0)->reason, PROFILE_QP_BAD_UTF8);
    assert_non_null(problem_at(&q, 0)->name);
}

/* --------------------------------------------------------- trimming */

static void value_is_returned_trimmed(void **state)
{
    expect_ok(POOL(state), "q=++kubernetes++", "q", "kubernetes");
    expect_ok(POOL(state), "q=%20%20a+b%20%20", "q", "a b");
}

static void all_six_white_space_characters_are_trimmed(void **state)
{
    expect_ok(POOL(state), "q=%20%09%0D%0A%0C%0Bgo%0B%0C%0A%0D%09%20", "q",
              "go");
}

static void nbsp_is_not_trimmed(void **state)
{
    expect_ok(POOL(state), "q=%C2%A0", "q", "\xC2\xA0");
    expect_ok(POOL(state), "q=%C2%A0go%C2%A0", "q", "\xC2\xA0go\xC2\xA0");
}

static void other_unicode_spaces_are_not_trimmed(void **state)
{
    /* U+2003 EM SPACE, U+3000 IDEOGRAPHIC SPACE */
    expect_ok(POOL(state), "q=%E2%80%83", "q", "\xE2\x80\x83");
    expect_ok(POOL(state), "q=%E3%80%80x", "q", "\xE3\x80\x80x");
}

static void inner_spaces_are_kept(void **state)
{
    expect_ok(POOL(state), "q=API+design", "q", "API design");
    expect_ok(POOL(state), "q=a++b", "q", "a  b");
}

/* --------------------------------------------------- many problems */

static void several_unknown_names_are_each_reported_once(void **state)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "x=1&y=2&x=3&y&z", "q",
                                          POOL(state));

    if (rv != APR_EINVAL || q.problems->nelts != 3) {
        dump_problems("x=1&y=2&x=3&y&z", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 3);
    assert_string_equal(problem_at(&q, 0)->name, "x");
    assert_string_equal(problem_at(&q, 1)->name, "y");
    assert_string_equal(problem_at(&q, 2)->name, "z");
    assert_int_equal(problem_at(&q, 0)->reason, PROFILE_QP_UNKNOWN);
    assert_int_equal(problem_at(&q, 1)->reason, PROFILE_QP_UNKNOWN);
    assert_int_equal(problem_at(&q, 2)->reason, PROFILE_QP_UNKNOWN);
}

static void unknown_and_repeated_are_both_reported(void **state)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "x=1&q=a&q=b&x=2", "q",
                                          POOL(state));
    int i, saw_x = 0, saw_q = 0;

    if (rv != APR_EINVAL || q.problems->nelts != 2) {
        dump_problems("x=1&q=a&q=b&x=2", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 2);
    for (i = 0; i < 2; i++) {
        const profile_qp_problem_t *pr = problem_at(&q, i);
        if (strcmp(pr->name, "x") == 0) {
            saw_x++;
            assert_int_equal(pr->reason, PROFILE_QP_UNKNOWN);
        }
        else if (strcmp(pr->name, "q") == 0) {
            saw_q++;
            assert_int_equal(pr->reason, PROFILE_QP_REPEATED);
        }
    }
    assert_int_equal(saw_x, 1);
    assert_int_equal(saw_q, 1);
}

static void unknown_and_bad_value_are_both_reported(void **state)
{
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "company=&page=2", "company",
                                          POOL(state));
    int i, saw_page = 0, saw_company = 0;

    if (rv != APR_EINVAL || q.problems->nelts != 2) {
        dump_problems("company=&page=2", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 2);
    for (i = 0; i < 2; i++) {
        const profile_qp_problem_t *pr = problem_at(&q, i);
        if (strcmp(pr->name, "page") == 0) {
            saw_page++;
            assert_int_equal(pr->reason, PROFILE_QP_UNKNOWN);
        }
        else if (strcmp(pr->name, "company") == 0) {
            saw_company++;
            assert_int_equal(pr->reason, PROFILE_QP_EMPTY);
        }
    }
    assert_int_equal(saw_page, 1);
    assert_int_equal(saw_company, 1);
}

static void problems_come_in_query_order(void **state)
{
    /* profile_query.h: "problems ... in query order".  The allowed
     * parameter comes first in the query, so its problem is first. */
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "q=&x=1", "q", POOL(state));

    if (rv != APR_EINVAL || q.problems->nelts != 2
        || strcmp(problem_at(&q, 0)->name, "q") != 0) {
        dump_problems("q=&x=1", &q);
    }
    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 2);
    assert_string_equal(problem_at(&q, 0)->name, "q");
    assert_int_equal(problem_at(&q, 0)->reason, PROFILE_QP_EMPTY);
    assert_string_equal(problem_at(&q, 1)->name, "x");
    assert_int_equal(problem_at(&q, 1)->reason, PROFILE_QP_UNKNOWN);
}

static void failure_leaves_no_value(void **state)
{
    profile_query_t q;

    assert_int_equal(profile_query_parse(&q, "q=ok&x=1", "q", POOL(state)),
                     APR_EINVAL);
    assert_null(q.value);
}

static void problem_name_is_printable(void **state)
{
    /* An unknown name holding a control character is reported in a form
     * that is safe to put in a message. */
    profile_query_t q;
    apr_status_t rv = profile_query_parse(&q, "a%0Ab=1", "q", POOL(state));
    const char *n;

    assert_int_equal(rv, APR_EINVAL);
    assert_int_equal(q.problems->nelts, 1);
    assert_int_equal(problem_at(&q, 0)->reason, PROFILE_QP_UNKNOWN);
    n = problem_at(&q, 0)->name;
    assert_null(strchr(n, '\n'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(null_query_has_no_parameters),
        UNIT_TEST(empty_query_has_no_parameters),
        UNIT_TEST(lone_ampersands_are_no_parameters),
        UNIT_TEST(empty_pieces_around_parameter_are_ignored),
        UNIT_TEST(allowed_parameter_returns_value),
        UNIT_TEST(unknown_name_is_rejected),
        UNIT_TEST(unknown_name_without_value_is_rejected),
        UNIT_TEST(any_name_on_route_without_parameters_is_rejected),
        UNIT_TEST(names_are_case_sensitive),
        UNIT_TEST(names_are_percent_decoded),
        UNIT_TEST(empty_name_is_unknown),
        UNIT_TEST(repeated_name_is_rejected),
        UNIT_TEST(repeated_name_with_same_value_is_rejected),
        UNIT_TEST(repeated_name_is_reported_once),
        UNIT_TEST(repeated_empty_values_are_repeated),
        UNIT_TEST(repeated_through_encoding_is_repeated),
        UNIT_TEST(empty_value_is_rejected),
        UNIT_TEST(name_without_equals_is_empty_value),
        UNIT_TEST(whitespace_only_value_is_rejected),
        UNIT_TEST(value_of_101_code_points_is_too_long),
        UNIT_TEST(value_of_100_ascii_code_points_is_accepted),
        UNIT_TEST(value_of_100_multibyte_code_points_is_accepted),
        UNIT_TEST(length_is_counted_before_normalization),
        UNIT_TEST(length_is_counted_after_trimming),
        UNIT_TEST(control_character_is_rejected),
        UNIT_TEST(delete_character_is_rejected),
        UNIT_TEST(nul_character_is_rejected),
        UNIT_TEST(trimmable_white_space_inside_value_is_control),
        UNIT_TEST(control_at_end_survives_trimming),
        UNIT_TEST(invalid_percent_sequence_is_rejected),
        UNIT_TEST(truncated_percent_sequence_is_rejected),
        UNIT_TEST(trailing_percent_is_rejected),
        UNIT_TEST(percent_at_piece_end_does_not_borrow_next_piece),
        UNIT_TEST(invalid_percent_sequence_in_name_is_rejected),
        UNIT_TEST(plus_and_valid_escapes_decode),
        UNIT_TEST(equals_sign_inside_value_is_kept),
        UNIT_TEST(utf8_value_decodes),
        UNIT_TEST(invalid_continuation_is_bad_utf8),
        UNIT_TEST(byte_ff_is_bad_utf8),
        UNIT_TEST(overlong_encoding_is_bad_utf8),
        UNIT_TEST(surrogate_is_bad_utf8),
        UNIT_TEST(truncated_sequence_is_bad_utf8),
        UNIT_TEST(above_u10ffff_is_bad_utf8),
        UNIT_TEST(raw_invalid_byte_is_bad_utf8),
        UNIT_TEST(invalid_utf8_in_name_is_rejected),
        UNIT_TEST(value_is_returned_trimmed),
        UNIT_TEST(all_six_white_space_characters_are_trimmed),
        UNIT_TEST(nbsp_is_not_trimmed),
        UNIT_TEST(other_unicode_spaces_are_not_trimmed),
        UNIT_TEST(inner_spaces_are_kept),
        UNIT_TEST(several_unknown_names_are_each_reported_once),
        UNIT_TEST(unknown_and_repeated_are_both_reported),
        UNIT_TEST(unknown_and_bad_value_are_both_reported),
        UNIT_TEST(problems_come_in_query_order),
        UNIT_TEST(failure_leaves_no_value),
        UNIT_TEST(problem_name_is_printable),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
