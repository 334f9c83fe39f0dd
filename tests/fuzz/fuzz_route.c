/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_route.c -- profile_route_match() on any path below the base.
 *
 * Input: the decoded path below the base, as bytes ("" or "/...").
 * Invariants: a match names a known route, item routes carry a non-empty
 * id without "/", and the route's query parameter is the contract's.
 */
#define FUZZ_NAME route
#include "fuzz.h"
#include "profile_route.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

static const char *param_of(profile_route_e r)
{
    switch (r) {
    case PROFILE_R_SKILLS:
        return "q";
    case PROFILE_R_EXPERIENCE:
        return "company";
    case PROFILE_R_CASE_STUDIES:
        return "organization";
    default:
        return NULL;
    }
}

/* The first segment each route answers to (CONTRACT §2). */
static const char *segment_of(profile_route_e r)
{
    static const char *const names[] = {
        "profile", "skills", "experience", "experience", "education",
        "contact", "case-studies", "case-studies", "metrics"
    };

    return r >= PROFILE_R_PROFILE && r <= PROFILE_R_METRICS
           ? names[r] : "";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    profile_route_t rt;
    const char *path;
    int rc;

    apr_pool_create(&p, fuzz_root);
    path = fuzz_cstr(data, size, p);
    memset(&rt, 0xA5, sizeof(rt));
    rc = profile_route_match(&rt, path, p);
    FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
    if (rc == 0) {
        const char *name = path + 1;
        size_t n = strcspn(name, "/");

        FUZZ_CHECK(path[0] == '/', "matched \"%s\"", path);
        FUZZ_CHECK(rt.route >= PROFILE_R_PROFILE
                   && rt.route <= PROFILE_R_METRICS, "route %d", rt.route);
        FUZZ_CHECK(strlen(segment_of(rt.route)) == n
                   && memcmp(segment_of(rt.route), name, n) == 0,
                   "path \"%s\" gave route %d", path, rt.route);
        if (rt.route == PROFILE_R_EXPERIENCE_ITEM
            || rt.route == PROFILE_R_CASE_STUDY) {
            FUZZ_CHECK(rt.id != NULL && rt.id[0] != '\0'
                       && strchr(rt.id, '/') == NULL
                       && strcmp(rt.id, name + n + 1) == 0,
                       "path \"%s\" id \"%s\"", path, rt.id);
            FUZZ_CHECK(rt.param == NULL, "item route with a parameter");
            FUZZ_CHECK(rt.coll == (rt.route == PROFILE_R_CASE_STUDY
                                   ? PROFILE_COLL_CASE_STUDIES
                                   : PROFILE_COLL_EXPERIENCE),
                       "coll %d", rt.coll);
        }
        else {
            FUZZ_CHECK(name[n] == '\0' && rt.id == NULL,
                       "path \"%s\"", path);
            FUZZ_CHECK(rt.param == param_of(rt.route)
                       || (rt.param && param_of(rt.route)
                           && strcmp(rt.param, param_of(rt.route)) == 0),
                       "route %d param %s", rt.route,
                       rt.param ? rt.param : "(none)");
            FUZZ_CHECK((rt.coll == -1) == (rt.route == PROFILE_R_PROFILE
                                           || rt.route
                                              == PROFILE_R_CONTACT),
                       "route %d coll %d", rt.route, rt.coll);
        }
    }
    apr_pool_destroy(p);
    return 0;
}
