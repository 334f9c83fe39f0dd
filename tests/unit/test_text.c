/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_text.c -- UTF-8 helpers and caseless matching (CONTRACT §8 rules
 * 4 and 5).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_text.h"

static const char *fold(apr_pool_t *p, const char *s)
{
    return profile_text_fold(s, strlen(s), p);
}

static int valid(const char *s)
{
    return profile_utf8_valid(s, strlen(s));
}

/* Does fold(hay) contain fold(needle)? */
static int finds(apr_pool_t *p, const char *hay, const char *needle)
{
    const char *h = fold(p, hay), *n = fold(p, needle);

    assert_non_null(h);
    assert_non_null(n);
    return profile_text_contains(h, n);
}

static const char *trimmed(apr_pool_t *p, const char *s)
{
    const char *b = s;
    apr_size_t n = strlen(s);

    profile_text_trim(&b, &n);
    assert_true(b >= s && b + n <= s + strlen(s));
    return apr_pstrmemdup(p, b, n);
}

static const char *printable(apr_pool_t *p, const char *s, apr_size_t len,
                             apr_size_t max)
{
    return profile_text_printable(s, len, max, p);
}

/* ------------------------------------------------------------ fold */

static void fold_equates_upper_and_lower_case_with_accents(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(fold(p, "\xC3\x81LVAREZ"),       /* ÁLVAREZ */
                        fold(p, "\xC3\x81lvarez"));      /* Álvarez */
    assert_string_equal(fold(p, "\xC3\x81lvarez"), "\xC3\xA1lvarez");
}

static void fold_equates_strasse_and_sharp_s(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(fold(p, "STRASSE"), fold(p, "Stra\xC3\x9F" "e"));
    assert_string_equal(fold(p, "Stra\xC3\x9F" "e"), "strasse");
}

static void fold_composes_decomposed_input(void **state)
{
    apr_pool_t *p = POOL(state);

    /* "A" + U+0301 (NFD) and U+00C1 (NFC) are the same text. */
    assert_string_equal(fold(p, "A\xCC\x81"), fold(p, "\xC3\x81"));
    assert_string_equal(fold(p, "a\xCC\x81"), "\xC3\xA1");
    assert_string_equal(fold(p, "Ingenieri\xCC\x81" "a"),
                        fold(p, "INGENIER\xC3\x8D" "A"));
}

static void fold_keeps_accents_distinct(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_not_equal(fold(p, "ingenieria"),
                            fold(p, "Ingenier\xC3\xAD" "a"));
    assert_string_not_equal(fold(p, "alvarez"), fold(p, "\xC3\x81lvarez"));
}

static void fold_of_ascii_is_lower_case(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(fold(p, "Kubernetes API"), "kubernetes api");
    assert_string_equal(fold(p, ""), "");
}

static void fold_of_invalid_utf8_is_null(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_null(fold(p, "a\xFF"));
    assert_null(fold(p, "\xC3\x28"));
    assert_null(fold(p, "\xED\xA0\x80"));
}

static void fold_of_text_with_nul_is_null(void **state)
{
    assert_null(profile_text_fold("a\0b", 3, POOL(state)));
}

static void fold_reads_only_the_given_length(void **state)
{
    assert_string_equal(profile_text_fold("ABCDEF", 3, POOL(state)), "abc");
}

/* -------------------------------------------------------- contains */

static void contains_finds_substring(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_true(finds(p, "Hafenstra\xC3\x9F" "e Logistik GmbH", "STRASSE"));
    assert_true(finds(p, "Luc\xC3\xAD" "a \xC3\x81lvarez Romero",
                      "\xC3\x81LVAREZ"));
    assert_true(finds(p, "Norteverde Energ\xC3\xAD" "a", "energ\xC3\xAD"));
    assert_true(finds(p, "Kubernetes", "BERN"));
}

static void contains_is_true_for_whole_and_empty_needle(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_true(finds(p, "Go", "go"));
    assert_true(profile_text_contains("abc", ""));
}

static void contains_is_false_for_absent_substring(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_false(finds(p, "Kubernetes", "kubernetez"));
    assert_false(finds(p, "Go", "Golang"));
    assert_false(profile_text_contains("", "a"));
}

static void contains_respects_accents(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_false(finds(p, "Ingenier\xC3\xAD" "a", "ingenieria"));
    assert_false(finds(p, "Ingenier\xC3\xAD" "a Cierzo Sistemas",
                       "ingenieria"));
    assert_true(finds(p, "Ingenier\xC3\xAD" "a Cierzo Sistemas",
                      "INGENIER\xC3\x8D" "A"));
}

static void contains_matches_decomposed_needle(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_true(finds(p, "Ingenier\xC3\xAD" "a Cierzo Sistemas",
                      "ingeni" "eri\xCC\x81" "a"));
}

/* ------------------------------------------------------ utf8_valid */

static void valid_utf8_is_accepted(void **state)
{
    (void)state;
    assert_true(valid(""));
    assert_true(valid("plain ascii"));
    assert_true(valid("Stra\xC3\x9F" "e"));                  /* 2 bytes */
    assert_true(valid("\xE2\x82\xAC"));                      /* 3 bytes */
    assert_true(valid("\xF0\x9F\x98\x80"));                  /* 4 bytes */
    assert_true(valid("\xF4\x8F\xBF\xBF"));                  /* U+10FFFF */
    assert_true(valid("\xEF\xBF\xBD"));                      /* U+FFFD */
    assert_true(profile_utf8_valid("a\0b", 3));              /* NUL is UTF-8 */
}

static void invalid_utf8_is_rejected(void **state)
{
    (void)state;
    assert_false(valid("\xFF"));
    assert_false(valid("\xFE"));
    assert_false(valid("a\x80"));                /* lone continuation */
    assert_false(valid("\xC3\x28"));             /* bad continuation */
    assert_false(valid("\xC3"));                 /* truncated */
    assert_false(valid("\xE2\x82"));             /* truncated */
    assert_false(valid("\xC0\xAF"));             /* overlong */
    assert_false(valid("\xC1\xBF"));             /* overlong */
    assert_false(valid("\xE0\x80\xAF"));         /* overlong */
    assert_false(valid("\xF0\x80\x80\xAF"));     /* overlong */
    assert_false(valid("\xED\xA0\x80"));         /* surrogate D800 */
    assert_false(valid("\xED\xBF\xBF"));         /* surrogate DFFF */
    assert_false(valid("\xF4\x90\x80\x80"));     /* U+110000 */
    assert_false(valid("\xF5\x80\x80\x80"));
}

static void valid_checks_only_the_given_length(void **state)
{
    (void)state;
    assert_true(profile_utf8_valid("ab\xFF", 2));
    assert_false(profile_utf8_valid("\xC3\xA9", 1));
}

/* ------------------------------------------------------ utf8_count */

static void count_counts_code_points_not_bytes(void **state)
{
    (void)state;
    assert_int_equal(profile_utf8_count("", 0), 0);
    assert_int_equal(profile_utf8_count("abc", 3), 3);
    assert_int_equal(profile_utf8_count("Stra\xC3\x9F" "e", 7), 6);
    assert_int_equal(profile_utf8_count("\xE2\x82\xAC\xE2\x82\xAC", 6), 2);
    assert_int_equal(profile_utf8_count("\xF0\x9F\x98\x80", 4), 1);
    /* Decomposed: "e" + U+0301 is two code points. */
    assert_int_equal(profile_utf8_count("e\xCC\x81", 3), 2);
}

/* ------------------------------------------------------------ trim */

static void trim_removes_the_six_white_space_characters(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(trimmed(p, " \t\r\n\f\va b\v\f\n\r\t "), "a b");
}

static void trim_of_blank_text_is_empty(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(trimmed(p, " \t\r\n\f\v"), "");
    assert_string_equal(trimmed(p, ""), "");
}

static void trim_keeps_other_characters(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(trimmed(p, "\xC2\xA0x\xC2\xA0"), "\xC2\xA0x\xC2\xA0");
    assert_string_equal(trimmed(p, "\x01x\x1F"), "\x01x\x1F");
    assert_string_equal(trimmed(p, "\xE2\x80\x83x"), "\xE2\x80\x83x");
    assert_string_equal(trimmed(p, "x"), "x");
}

static void trim_narrows_without_copying(void **state)
{
    const char *s = "  go  ";
    const char *b = s;
    apr_size_t n = 6;

    (void)state;
    profile_text_trim(&b, &n);
    assert_ptr_equal(b, s + 2);
    assert_int_equal(n, 2);
}

/* ----------------------------------------------------- has_control */

static void control_characters_are_detected(void **state)
{
    (void)state;
    assert_true(profile_text_has_control("a\x01", 2));
    assert_true(profile_text_has_control("\x1F", 1));
    assert_true(profile_text_has_control("a\x7F" "b", 3));
    assert_true(profile_text_has_control("a\0b", 3));
    assert_true(profile_text_has_control("a\tb", 3));
    assert_true(profile_text_has_control("a\nb", 3));
}

static void text_without_controls_passes(void **state)
{
    (void)state;
    assert_false(profile_text_has_control("", 0));
    assert_false(profile_text_has_control("plain text ~", 12));
    assert_false(profile_text_has_control("\xC2\xA0\xC3\xA9", 4));
    /* U+0085 (C1) is outside U+0000-U+001F and U+007F. */
    assert_false(profile_text_has_control("\xC2\x85", 2));
}

static void has_control_checks_only_the_given_length(void **state)
{
    (void)state;
    assert_false(profile_text_has_control("ab\x01", 2));
}

/* ------------------------------------------------------- printable */

static void printable_keeps_ordinary_text(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(printable(p, "abc", 3, 10), "abc");
    assert_string_equal(printable(p, "Stra\xC3\x9F" "e", 7, 10),
                        "Stra\xC3\x9F" "e");
}

static void printable_escapes_invalid_bytes(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(printable(p, "a\xFF" "b", 3, 10), "a%FFb");
    assert_string_equal(printable(p, "\xC3\x28", 2, 10), "%C3(");
    assert_string_equal(printable(p, "\xED\xA0\x80", 3, 10), "%ED%A0%80");
}

static void printable_escapes_controls(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(printable(p, "a\nb", 3, 10), "a%0Ab");
    assert_string_equal(printable(p, "\x7F", 1, 10), "%7F");
    assert_string_equal(printable(p, "a\0b", 3, 10), "a%00b");
    assert_string_equal(printable(p, "\x1B[31m", 5, 10), "%1B[31m");
}

static void printable_truncates_with_ellipsis(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(printable(p, "abcdef", 6, 3), "abc...");
    /* The limit counts code points, not bytes. */
    assert_string_equal(printable(p, "\xC3\xA9\xC3\xA9\xC3\xA9", 6, 2),
                        "\xC3\xA9\xC3\xA9...");
}

static void printable_at_exact_limit_is_not_truncated(void **state)
{
    apr_pool_t *p = POOL(state);

    assert_string_equal(printable(p, "abc", 3, 3), "abc");
    assert_string_equal(printable(p, "", 0, 3), "");
}

static void printable_result_is_valid_utf8_without_controls(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *s = printable(p, "\x01\xFF\xC3\xA9\x7F\xC0\xAF\n", 8, 100);

    assert_true(valid(s));
    assert_false(profile_text_has_control(s, strlen(s)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(fold_equates_upper_and_lower_case_with_accents),
        UNIT_TEST(fold_equates_strasse_and_sharp_s),
        UNIT_TEST(fold_composes_decomposed_input),
        UNIT_TEST(fold_keeps_accents_distinct),
        UNIT_TEST(fold_of_ascii_is_lower_case),
        UNIT_TEST(fold_of_invalid_utf8_is_null),
        UNIT_TEST(fold_of_text_with_nul_is_null),
        UNIT_TEST(fold_reads_only_the_given_length),
        UNIT_TEST(contains_finds_substring),
        UNIT_TEST(contains_is_true_for_whole_and_empty_needle),
        UNIT_TEST(contains_is_false_for_absent_substring),
        UNIT_TEST(contains_respects_accents),
        UNIT_TEST(contains_matches_decomposed_needle),
        UNIT_TEST(valid_utf8_is_accepted),
        UNIT_TEST(invalid_utf8_is_rejected),
        UNIT_TEST(valid_checks_only_the_given_length),
        UNIT_TEST(count_counts_code_points_not_bytes),
        UNIT_TEST(trim_removes_the_six_white_space_characters),
        UNIT_TEST(trim_of_blank_text_is_empty),
        UNIT_TEST(trim_keeps_other_characters),
        UNIT_TEST(trim_narrows_without_copying),
        UNIT_TEST(control_characters_are_detected),
        UNIT_TEST(text_without_controls_passes),
        UNIT_TEST(has_control_checks_only_the_given_length),
        UNIT_TEST(printable_keeps_ordinary_text),
        UNIT_TEST(printable_escapes_invalid_bytes),
        UNIT_TEST(printable_escapes_controls),
        UNIT_TEST(printable_truncates_with_ellipsis),
        UNIT_TEST(printable_at_exact_limit_is_not_truncated),
        UNIT_TEST(printable_result_is_valid_utf8_without_controls),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
