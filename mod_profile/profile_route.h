/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_route.h -- the routes of CONTRACT §2, relative to the base
 * path of the <Location>.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_ROUTE_H
#define PROFILE_ROUTE_H

#include "profile_store.h"

typedef enum {
    PROFILE_R_NONE = -1,
    PROFILE_R_PROFILE,
    PROFILE_R_SKILLS,
    PROFILE_R_EXPERIENCE,
    PROFILE_R_EXPERIENCE_ITEM,
    PROFILE_R_EDUCATION,
    PROFILE_R_CONTACT,
    PROFILE_R_CASE_STUDIES,
    PROFILE_R_CASE_STUDY,
    PROFILE_R_METRICS
} profile_route_e;

typedef struct {
    profile_route_e route;
    const char *path;           /* its template: "/skills",
                                 * "/experience/{id}" */
    const char *id;             /* the {id} segment of an item route */
    const char *param;          /* the route's query parameter, or NULL */
    int coll;                   /* profile_coll_e, or -1 (object routes) */
} profile_route_t;

/* Matches `sub`, the decoded request path below the base ("" or "/..."),
 * exactly and case-sensitively.  Returns 0 and fills *out, or -1 when
 * no route matches (404). */
int profile_route_match(profile_route_t *out, const char *sub,
                        apr_pool_t *p);

#endif
