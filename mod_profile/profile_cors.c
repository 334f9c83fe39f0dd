/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_cors.c -- CORS response fields (CONTRACT §6).  The API takes no
 * credentials, so Access-Control-Allow-Credentials is never sent.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include "profile_cors.h"

int profile_cors_apply(apr_table_t *headers,
                       const apr_array_header_t *origins,
                       const char *origin, int preflight)
{
    const char *allow = NULL;
    int i;

    if (origins == NULL) {
        allow = "*";
    }
    else if (origin != NULL) {
        for (i = 0; i < origins->nelts; i++) {
            if (strcmp(APR_ARRAY_IDX(origins, i, const char *), origin) == 0) {
                allow = APR_ARRAY_IDX(origins, i, const char *);
                break;
            }
        }
    }
    if (allow != NULL) {
        apr_table_addn(headers, "Access-Control-Allow-Origin", allow);
    }
    /* The rest does not depend on the origin (CONTRACT §6 lists it for
     * every preflight and every other response); without
     * Access-Control-Allow-Origin a browser ignores it. */
    if (preflight) {
        apr_table_addn(headers, "Access-Control-Allow-Methods",
                       "GET, HEAD, OPTIONS");
        apr_table_addn(headers, "Access-Control-Allow-Headers",
                       "Accept-Language, If-None-Match, If-Modified-Since");
        apr_table_addn(headers, "Access-Control-Max-Age", "7200");
    }
    else {
        apr_table_addn(headers, "Access-Control-Expose-Headers", "ETag");
    }
    return origins != NULL;
}
