/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lang.c -- choosing the response language from Accept-Language
 * (CONTRACT §4).
 *
 * Many cases use the data order {"es","en"} so that a correct answer of
 * "en" cannot be mistaken for the default (index 0).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_lang.h"

static const char *const EN_ES[] = {"en", "es"};
static const char *const ES_EN[] = {"es", "en"};
static const char *const EN_ES_FR[] = {"en", "es", "fr"};

enum { EN = 0, ES = 1 };        /* indexes in EN_ES */
enum { ES_ = 0, EN_ = 1 };      /* indexes in ES_EN */

static int choose(const char *h)
{
    return profile_lang_choose(h, EN_ES, 2);
}

static int choose_es_en(const char *h)
{
    return profile_lang_choose(h, ES_EN, 2);
}

#define assert_chooses(expr, want) do {                                    \
        int got_ = (expr);                                                 \
        if (got_ != (want)) {                                              \
            print_error("%s: got %d, want %d\n", #expr, got_, (want));     \
        }                                                                  \
        assert_int_equal(got_, (want));                                    \
    } while (0)

/* ------------------------------------- several ranges, one language */

static void exact_range_q0_outranks_longer_range(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=0, es-MX, en;q=0.1"), EN_);
    assert_chooses(choose_es_en("es-MX, es;q=0, en;q=0.1"), EN_);
}

static void exact_range_weight_outranks_longer_range(void **state)
{
    (void)state;
    assert_chooses(choose("es;q=0.2, es-MX;q=0.9, en;q=0.5"), EN);
}

static void longer_range_q0_does_not_veto_exact_range(void **state)
{
    (void)state;
    assert_chooses(choose("en-GB;q=0, en;q=0.5, es;q=0.4"), EN);
}

static void longer_ranges_give_their_highest_weight(void **state)
{
    (void)state;
    assert_chooses(choose("es-MX;q=0.3, en;q=0.5, es-AR;q=0.8"), ES);
}

/* ------------------------------------------------ contract examples */

static void en_q0_then_star_selects_es(void **state)
{
    (void)state;
    assert_chooses(choose("en;q=0, *"), ES);
}

static void de_then_star_half_selects_en(void **state)
{
    (void)state;
    assert_chooses(choose("de, *;q=0.5"), EN);
}

static void es_and_en_both_q0_selects_default_en(void **state)
{
    (void)state;
    assert_chooses(choose("es;q=0, en;q=0"), EN);
}

/* ------------------------------------------------------- matching */

static void es_mx_range_selects_es(void **state)
{
    (void)state;
    assert_chooses(choose("es-MX"), ES);
}

static void es_419_range_selects_es(void **state)
{
    (void)state;
    assert_chooses(choose("es-419"), ES);
}

static void uppercase_es_selects_es(void **state)
{
    (void)state;
    assert_chooses(choose("ES"), ES);
    assert_chooses(choose("Es-mX"), ES);
}

/* A header naming one language exactly is answered without parsing;
 * a range with a subtag is not, so it gives the language it only
 * starts with the data file's order ("es-MX" names es first). */
static void one_exact_language_as_the_rules_decide(void **state)
{
    static const char *const ES_ESMX[] = {"es", "es-MX"};
    static const char *const ESMX_ES[] = {"es-MX", "es"};

    (void)state;
    assert_chooses(choose_es_en("en"), EN_);
    assert_chooses(choose_es_en("EN"), EN_);
    assert_chooses(choose_es_en("en;q=0"), ES_);
    assert_chooses(choose_es_en("e"), ES_);
    assert_chooses(choose_es_en("enx"), ES_);
    assert_chooses(profile_lang_choose("es-MX", ES_ESMX, 2), 0);
    assert_chooses(profile_lang_choose("es-MX", ESMX_ES, 2), 0);
    assert_chooses(profile_lang_choose("es", ESMX_ES, 2), 1);
}

static void en_gb_range_selects_en(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("en-GB"), EN_);
    assert_chooses(choose_es_en("EN-gb"), EN_);
}

static void exact_tag_selects_it(void **state)
{
    (void)state;
    assert_chooses(choose("es"), ES);
    assert_chooses(choose_es_en("en"), EN_);
}

static void longer_range_with_several_subtags_matches(void **state)
{
    (void)state;
    assert_chooses(choose("es-Latn-MX"), ES);
}

static void prefix_must_be_followed_by_hyphen(void **state)
{
    (void)state;
    /* "esx" is not "es" nor "es-..." */
    assert_chooses(choose_es_en("esx, en;q=0.5"), EN_);
    assert_chooses(choose("esx"), EN);
    /* nor does a range shorter than the tag match it */
    assert_chooses(choose_es_en("e, en;q=0.5"), EN_);
}

static void unsupported_language_gives_default(void **state)
{
    (void)state;
    assert_chooses(choose("de"), EN);
    assert_chooses(choose("fr-CA, de;q=0.5"), EN);
    assert_chooses(choose_es_en("de"), ES_);
}

/* --------------------------------------------------------- absence */

static void null_header_gives_default(void **state)
{
    (void)state;
    assert_chooses(choose(NULL), EN);
    assert_chooses(choose_es_en(NULL), ES_);
}

static void empty_header_gives_default(void **state)
{
    (void)state;
    assert_chooses(choose(""), EN);
    assert_chooses(choose_es_en(""), ES_);
    assert_chooses(choose(" "), EN);
    assert_chooses(choose(" , ,"), EN);
}

static void data_order_es_en_makes_es_default(void **state)
{
    (void)state;
    assert_chooses(choose_es_en(NULL), ES_);
    assert_chooses(choose_es_en("de"), ES_);
    assert_chooses(choose_es_en("*"), ES_);
    assert_chooses(choose_es_en("es;q=0, en;q=0"), ES_);
}

/* --------------------------------------------------------- weights */

static void higher_weight_wins(void **state)
{
    (void)state;
    assert_chooses(choose("en;q=0.5, es;q=0.8"), ES);
    assert_chooses(choose("es;q=0.5, en"), EN);
    assert_chooses(choose_es_en("es;q=0.5, en;q=0.501"), EN_);
    assert_chooses(choose("en-US;q=0.4, es-ES;q=0.6"), ES);
}

static void missing_weight_is_one(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=0.999, en"), EN_);
    assert_chooses(choose("en;q=0.999, es"), ES);
}

static void equal_weights_go_to_range_listed_first(void **state)
{
    (void)state;
    assert_chooses(choose("es;q=0.8, en;q=0.8"), ES);
    assert_chooses(choose("es, en"), ES);
    assert_chooses(choose_es_en("en, es"), EN_);
    assert_chooses(choose_es_en("en;q=1, es;q=1.000"), EN_);
}

static void named_range_listed_before_star_wins_tie(void **state)
{
    (void)state;
    assert_chooses(choose("es;q=0.5, *;q=0.5"), ES);
}

static void star_listed_first_wins_tie_for_unnamed_language(void **state)
{
    (void)state;
    /* "*" (first) gives 0.5 to en; es is named later with 0.5. */
    assert_chooses(choose("*;q=0.5, es;q=0.5"), EN);
}

static void star_alone_follows_data_order(void **state)
{
    (void)state;
    assert_chooses(choose("*"), EN);
    assert_chooses(choose_es_en("*"), ES_);
    /* Among the languages the star covers, the first in data order. */
    assert_chooses(profile_lang_choose("en;q=0, *", EN_ES_FR, 3), 1);
    assert_chooses(profile_lang_choose("es;q=0, en;q=0, *", EN_ES_FR, 3), 2);
}

static void star_applies_only_to_languages_not_named(void **state)
{
    (void)state;
    /* es is named with 0.5, so the star's 0.9 goes to en only. */
    assert_chooses(choose("*;q=0.9, es;q=0.5"), EN);
    /* en is named with 0.1; es takes the star's 0.2. */
    assert_chooses(choose("en;q=0.1, *;q=0.2"), ES);
}

static void q0_excludes_language(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=0, *;q=0.1"), EN_);
    assert_chooses(choose("en;q=0, es;q=0.001"), ES);
    assert_chooses(choose_es_en("es-MX;q=0, en;q=0.1"), EN_);
}

static void star_q0_excludes_unnamed_languages(void **state)
{
    (void)state;
    assert_chooses(choose("*;q=0, es"), ES);
    assert_chooses(choose_es_en("*;q=0"), ES_);     /* nothing: default */
}

static void nothing_acceptable_gives_default(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=0"), ES_);
    assert_chooses(choose("en;q=0"), EN);
    assert_chooses(choose("de;q=1, fr;q=0.5"), EN);
}

/* ------------------------------------------------------- malformed */

static void non_numeric_weight_skips_range(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=abc, en;q=0.5"), EN_);
    assert_chooses(choose("es;q=abc"), EN);
}

static void weight_above_one_skips_range(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=1.5, en;q=0.5"), EN_);
    assert_chooses(choose_es_en("es;q=1.001, en;q=0.5"), EN_);
}

static void weight_with_four_decimals_skips_range(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=0.1234, en;q=0.1"), EN_);
}

static void other_malformed_weights_skip_range(void **state)
{
    (void)state;
    assert_chooses(choose_es_en("es;q=, en;q=0.5"), EN_);
    assert_chooses(choose_es_en("es;q=.5, en;q=0.5"), EN_);
    assert_chooses(choose_es_en("es;q=-1, en;q=0.5"), EN_);
    /* A malformed weight on en;q=0 must not turn into "not en". */
    assert_chooses(choose("en;q=x, es;q=0.5"), ES);
}

static void malformed_star_weight_skips_star(void **state)
{
    (void)state;
    /* If "*;q=abc" counted as q=1, en would win. */
    assert_chooses(choose("*;q=abc, es;q=0.5"), ES);
}

static void invalid_range_characters_skip_range(void **state)
{
    (void)state;
    assert_chooses(choose("e$s, es;q=0.5"), ES);
    assert_chooses(choose_es_en("es$, en;q=0.5"), EN_);
    assert_chooses(choose_es_en("es_MX, en;q=0.5"), EN_);
}

static void trailing_hyphen_skips_range(void **state)
{
    (void)state;
    /* "es-" would match es by prefix were it not skipped. */
    assert_chooses(choose("es-, en;q=0.5"), EN);
    assert_chooses(choose_es_en("en-, es-MX;q=0.5"), ES_);
}

static void other_malformed_ranges_skip_range(void **state)
{
    (void)state;
    assert_chooses(choose("-es, en;q=0.5"), EN);
    assert_chooses(choose("es--MX, en;q=0.5"), EN);
    assert_chooses(choose("es-abcdefghi, en;q=0.5"), EN);    /* 9 chars */
    assert_chooses(choose_es_en("abcdefghi, es;q=0.5, en;q=0.4"), ES_);
}

static void parameter_other_than_q_skips_range(void **state)
{
    (void)state;
    /* language-range [ weight ]: no other parameter exists. */
    assert_chooses(choose("es;x=1, en;q=0.5"), EN);
}

static void malformed_range_does_not_hide_later_ranges(void **state)
{
    (void)state;
    assert_chooses(choose("es;q=abc, e$s, es-, es;q=0.2"), ES);
}

/* ----------------------------------------------------------- syntax */

static void white_space_around_semicolon_is_allowed(void **state)
{
    (void)state;
    /* If these were skipped, the answer would be the other language. */
    assert_chooses(choose("es ; q=0.9, en;q=0.5"), ES);
    assert_chooses(choose("es\t;\tq=0.9, en;q=0.5"), ES);
    assert_chooses(choose("es ;q=0.9 , en;q=0.5"), ES);
    assert_chooses(choose_es_en("  en;q=0.9  ,  es;q=0.5  "), EN_);
}

static void uppercase_q_is_a_weight(void **state)
{
    (void)state;
    assert_chooses(choose("es;Q=0.9, en;q=0.5"), ES);
    assert_chooses(choose("en;Q=0, *"), ES);
}

static void empty_list_elements_are_ignored(void **state)
{
    (void)state;
    assert_chooses(choose(",,es,,"), ES);
    assert_chooses(choose_es_en(", ,en;q=0.5,"), EN_);
}

static void many_ranges_are_all_considered(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *h = "";
    int i;

    /* 60 unsupported ranges before the one that matters. */
    for (i = 0; i < 60; i++) {
        h = apr_psprintf(p, "%sx%c%c;q=0.9, ", h, 'a' + i / 26, 'a' + i % 26);
    }
    assert_chooses(choose_es_en(apr_pstrcat(p, h, "en;q=0.1", NULL)), EN_);
    /* And many ranges naming the same language: the best weight counts. */
    h = "";
    for (i = 1; i <= 40; i++) {
        h = apr_psprintf(p, "%ses-X%d;q=0.%03d, ", h, i, i);
    }
    assert_chooses(choose(apr_pstrcat(p, h, "en;q=0.039", NULL)), ES);
    assert_chooses(choose(apr_pstrcat(p, h, "en;q=0.041", NULL)), EN);
}

static void three_languages_pick_the_third(void **state)
{
    (void)state;
    assert_chooses(profile_lang_choose("fr-FR, es;q=0.5", EN_ES_FR, 3), 2);
    assert_chooses(profile_lang_choose("de", EN_ES_FR, 3), 0);
}

static void sixteen_languages_choose_the_last(void **state)
{
    static const char *const many[PROFILE_LANG_MAX] = {
        "aa", "ab", "ac", "ad", "ae", "af", "ag", "ah",
        "ai", "aj", "ak", "al", "am", "an", "ao", "ap"
    };

    (void)state;
    assert_chooses(profile_lang_choose("ap-XX, aa;q=0.9", many,
                                       PROFILE_LANG_MAX), PROFILE_LANG_MAX - 1);
    assert_chooses(profile_lang_choose("aa;q=0, *", many, PROFILE_LANG_MAX),
                   1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(en_q0_then_star_selects_es),
        cmocka_unit_test(de_then_star_half_selects_en),
        cmocka_unit_test(es_and_en_both_q0_selects_default_en),
        cmocka_unit_test(es_mx_range_selects_es),
        cmocka_unit_test(es_419_range_selects_es),
        cmocka_unit_test(uppercase_es_selects_es),
        cmocka_unit_test(one_exact_language_as_the_rules_decide),
        cmocka_unit_test(en_gb_range_selects_en),
        cmocka_unit_test(exact_tag_selects_it),
        cmocka_unit_test(longer_range_with_several_subtags_matches),
        cmocka_unit_test(prefix_must_be_followed_by_hyphen),
        cmocka_unit_test(unsupported_language_gives_default),
        cmocka_unit_test(null_header_gives_default),
        cmocka_unit_test(empty_header_gives_default),
        cmocka_unit_test(data_order_es_en_makes_es_default),
        cmocka_unit_test(higher_weight_wins),
        cmocka_unit_test(missing_weight_is_one),
        cmocka_unit_test(equal_weights_go_to_range_listed_first),
        cmocka_unit_test(named_range_listed_before_star_wins_tie),
        cmocka_unit_test(star_listed_first_wins_tie_for_unnamed_language),
        cmocka_unit_test(star_alone_follows_data_order),
        cmocka_unit_test(star_applies_only_to_languages_not_named),
        cmocka_unit_test(q0_excludes_language),
        cmocka_unit_test(star_q0_excludes_unnamed_languages),
        cmocka_unit_test(nothing_acceptable_gives_default),
        cmocka_unit_test(non_numeric_weight_skips_range),
        cmocka_unit_test(weight_above_one_skips_range),
        cmocka_unit_test(weight_with_four_decimals_skips_range),
        cmocka_unit_test(other_malformed_weights_skip_range),
        cmocka_unit_test(malformed_star_weight_skips_star),
        cmocka_unit_test(invalid_range_characters_skip_range),
        cmocka_unit_test(trailing_hyphen_skips_range),
        cmocka_unit_test(other_malformed_ranges_skip_range),
        cmocka_unit_test(parameter_other_than_q_skips_range),
        cmocka_unit_test(malformed_range_does_not_hide_later_ranges),
        cmocka_unit_test(white_space_around_semicolon_is_allowed),
        cmocka_unit_test(uppercase_q_is_a_weight),
        cmocka_unit_test(empty_list_elements_are_ignored),
        UNIT_TEST(many_ranges_are_all_considered),
        cmocka_unit_test(three_languages_pick_the_third),
        cmocka_unit_test(sixteen_languages_choose_the_last),
        cmocka_unit_test(exact_range_q0_outranks_longer_range),
        cmocka_unit_test(exact_range_weight_outranks_longer_range),
        cmocka_unit_test(longer_range_q0_does_not_veto_exact_range),
        cmocka_unit_test(longer_ranges_give_their_highest_weight),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
