/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_route.c -- exact, case-sensitive routing (CONTRACT §2):
 * "/skills/", "/Skills", "/skills/x" and "" are not routes.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_strings.h>

#include "profile_route.h"

static const struct {
    const char *path;           /* "/" name */
    profile_route_e route;
    profile_route_e item;       /* route of "/name/{id}", or NONE */
    const char *item_path;      /* "/name/{id}", or NULL */
    const char *param;
    int coll;
} routes[] = {
    {"/profile", PROFILE_R_PROFILE, PROFILE_R_NONE, NULL, NULL, -1},
    {"/skills", PROFILE_R_SKILLS, PROFILE_R_NONE, NULL, "q",
     PROFILE_COLL_SKILLS},
    {"/experience", PROFILE_R_EXPERIENCE, PROFILE_R_EXPERIENCE_ITEM,
     "/experience/{id}", "company", PROFILE_COLL_EXPERIENCE},
    {"/education", PROFILE_R_EDUCATION, PROFILE_R_NONE, NULL, NULL,
     PROFILE_COLL_EDUCATION},
    {"/contact", PROFILE_R_CONTACT, PROFILE_R_NONE, NULL, NULL, -1},
    {"/case-studies", PROFILE_R_CASE_STUDIES, PROFILE_R_CASE_STUDY,
     "/case-studies/{id}", "organization", PROFILE_COLL_CASE_STUDIES},
    {"/metrics", PROFILE_R_METRICS, PROFILE_R_NONE, NULL, NULL,
     PROFILE_COLL_METRICS}
};

int profile_route_match(profile_route_t *out, const char *sub,
                        apr_pool_t *p)
{
    const char *slash;
    apr_size_t n, i;

    if (sub == NULL || sub[0] != '/') {
        return -1;
    }
    sub++;
    slash = strchr(sub, '/');
    n = slash ? (apr_size_t)(slash - sub) : strlen(sub);
    for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        const char *name = routes[i].path + 1;

        if (strlen(name) != n || memcmp(name, sub, n)) {
            continue;
        }
        out->coll = routes[i].coll;
        if (slash == NULL) {
            out->route = routes[i].route;
            out->path = routes[i].path;
            out->id = NULL;
            out->param = routes[i].param;
            return 0;
        }
        if (routes[i].item == PROFILE_R_NONE || slash[1] == '\0'
            || strchr(slash + 1, '/') != NULL) {
            return -1;
        }
        out->route = routes[i].item;
        out->path = routes[i].item_path;
        out->id = apr_pstrdup(p, slash + 1);
        out->param = NULL;
        return 0;
    }
    return -1;
}
