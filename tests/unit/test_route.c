/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_route.c -- the routes of CONTRACT §2, relative to the base path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit.h"
#include "profile_route.h"

/* Matches `sub` and checks route, param and collection. */
static void expect_route(apr_pool_t *p, const char *sub,
                         profile_route_e route, const char *param, int coll)
{
    profile_route_t rt;
    int rc;

    memset(&rt, 0xAB, sizeof(rt));
    rc = profile_route_match(&rt, sub, p);
    if (rc != 0) {
        print_error("\"%s\" did not match\n", sub);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(rt.route, route);
    assert_string_equal(rt.path, sub);      /* the template is the path */
    assert_int_equal(rt.coll, coll);
    if (param == NULL) {
        assert_null(rt.param);
    }
    else {
        assert_non_null(rt.param);
        assert_string_equal(rt.param, param);
    }
}

static void expect_item(apr_pool_t *p, const char *sub,
                        profile_route_e route, int coll, const char *id)
{
    profile_route_t rt;

    memset(&rt, 0xAB, sizeof(rt));
    assert_int_equal(profile_route_match(&rt, sub, p), 0);
    assert_int_equal(rt.route, route);
    assert_string_equal(rt.path, route == PROFILE_R_CASE_STUDY
                                 ? "/case-studies/{id}"
                                 : "/experience/{id}");
    assert_int_equal(rt.coll, coll);
    assert_null(rt.param);                  /* item routes take none */
    assert_non_null(rt.id);
    assert_string_equal(rt.id, id);
}

static void expect_none(apr_pool_t *p, const char *sub)
{
    profile_route_t rt;
    int rc = profile_route_match(&rt, sub, p);

    if (rc != -1) {
        print_error("\"%s\" matched route %d\n", sub ? sub : "(null)",
                    (int)rt.route);
    }
    assert_int_equal(rc, -1);
}

/* ------------------------------------------------------------ routes */

static void profile_route_has_no_parameter(void **state)
{
    expect_route(POOL(state), "/profile", PROFILE_R_PROFILE, NULL, -1);
}

static void skills_route_takes_q(void **state)
{
    expect_route(POOL(state), "/skills", PROFILE_R_SKILLS, "q",
                 PROFILE_COLL_SKILLS);
}

static void experience_route_takes_company(void **state)
{
    expect_route(POOL(state), "/experience", PROFILE_R_EXPERIENCE, "company",
                 PROFILE_COLL_EXPERIENCE);
}

static void education_route_has_no_parameter(void **state)
{
    expect_route(POOL(state), "/education", PROFILE_R_EDUCATION, NULL,
                 PROFILE_COLL_EDUCATION);
}

static void contact_route_has_no_parameter(void **state)
{
    expect_route(POOL(state), "/contact", PROFILE_R_CONTACT, NULL, -1);
}

static void case_studies_route_takes_organization(void **state)
{
    expect_route(POOL(state), "/case-studies", PROFILE_R_CASE_STUDIES,
                 "organization", PROFILE_COLL_CASE_STUDIES);
}

static void metrics_route_has_no_parameter(void **state)
{
    expect_route(POOL(state), "/metrics", PROFILE_R_METRICS, NULL,
                 PROFILE_COLL_METRICS);
}

/* ------------------------------------------------------ item routes */

static void experience_item_route_carries_id(void **state)
{
    expect_item(POOL(state), "/experience/norteverde-platform-lead",
                PROFILE_R_EXPERIENCE_ITEM, PROFILE_COLL_EXPERIENCE,
                "norteverde-platform-lead");
}

static void case_study_item_route_carries_id(void **state)
{
    expect_item(POOL(state), "/case-studies/billing-api-apache-module",
                PROFILE_R_CASE_STUDY, PROFILE_COLL_CASE_STUDIES,
                "billing-api-apache-module");
}

static void item_id_is_kept_verbatim(void **state)
{
    apr_pool_t *p = POOL(state);

    /* The path is already percent-decoded; the id is whatever the one
     * segment holds, case preserved (unknown ids are the store's 404). */
    expect_item(p, "/experience/Norteverde-Platform-Lead",
                PROFILE_R_EXPERIENCE_ITEM, PROFILE_COLL_EXPERIENCE,
                "Norteverde-Platform-Lead");
    expect_item(p, "/experience/a.b_c~d-1", PROFILE_R_EXPERIENCE_ITEM,
                PROFILE_COLL_EXPERIENCE, "a.b_c~d-1");
    expect_item(p, "/case-studies/x y", PROFILE_R_CASE_STUDY,
                PROFILE_COLL_CASE_STUDIES, "x y");
    expect_item(p, "/case-studies/caf\xC3\xA9", PROFILE_R_CASE_STUDY,
                PROFILE_COLL_CASE_STUDIES, "caf\xC3\xA9");
}

/* -------------------------------------------------------------- 404 */

static void trailing_slash_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/skills/");
    expect_none(p, "/profile/");
    expect_none(p, "/metrics/");
}

static void route_names_are_case_sensitive(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/Skills");
    expect_none(p, "/PROFILE");
    expect_none(p, "/Experience/norteverde-platform-lead");
    expect_none(p, "/case-Studies");
}

static void segment_below_collection_without_items_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/skills/x");
    expect_none(p, "/education/x");
    expect_none(p, "/metrics/platform-availability");
}

static void segment_below_object_route_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/profile/x");
    expect_none(p, "/contact/x");
}

static void base_itself_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/");
    expect_none(p, "");
}

static void null_path_is_not_found(void **state)
{
    expect_none(POOL(state), NULL);
}

static void item_route_without_id_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/experience/");
    expect_none(p, "/case-studies/");
}

static void item_route_with_two_segments_is_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/experience/a/b");
    expect_none(p, "/case-studies/a/");
    expect_none(p, "/experience//a");
}

static void unknown_and_near_names_are_not_found(void **state)
{
    apr_pool_t *p = POOL(state);

    expect_none(p, "/nope");
    expect_none(p, "/skill");
    expect_none(p, "/skillsx");
    expect_none(p, "/case_studies");
    expect_none(p, "/caseStudies");
    expect_none(p, "//skills");
    expect_none(p, "skills");
    expect_none(p, "/skills ");
    expect_none(p, "/api/v1/skills");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(profile_route_has_no_parameter),
        UNIT_TEST(skills_route_takes_q),
        UNIT_TEST(experience_route_takes_company),
        UNIT_TEST(education_route_has_no_parameter),
        UNIT_TEST(contact_route_has_no_parameter),
        UNIT_TEST(case_studies_route_takes_organization),
        UNIT_TEST(metrics_route_has_no_parameter),
        UNIT_TEST(experience_item_route_carries_id),
        UNIT_TEST(case_study_item_route_carries_id),
        UNIT_TEST(item_id_is_kept_verbatim),
        UNIT_TEST(trailing_slash_is_not_found),
        UNIT_TEST(route_names_are_case_sensitive),
        UNIT_TEST(segment_below_collection_without_items_is_not_found),
        UNIT_TEST(segment_below_object_route_is_not_found),
        UNIT_TEST(base_itself_is_not_found),
        UNIT_TEST(null_path_is_not_found),
        UNIT_TEST(item_route_without_id_is_not_found),
        UNIT_TEST(item_route_with_two_segments_is_not_found),
        UNIT_TEST(unknown_and_near_names_are_not_found),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
