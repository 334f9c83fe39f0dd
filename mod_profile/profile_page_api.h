/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_api.h -- the answer to one request for a page of the
 * profile (CONTRACT §11), decided without httpd (profile_page_api.c);
 * the glue evaluates the validators with ap_meets_conditions() as for
 * the API.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_PAGE_API_H
#define PROFILE_PAGE_API_H

#include "profile_api.h"
#include "profile_page.h"

/* The Content-Security-Policy of every page answer. */
extern const char profile_page_csp[];

/* The answer to `req` (req->path: the decoded path below the page's
 * base, "" for the base itself) for the pages `page` of site->store. */
void profile_page_answer(profile_response_t *resp, const profile_site_t *site,
                         const profile_page_t *page,
                         const profile_request_t *req, apr_pool_t *p);

/* The answer while the data file has no good load (CONTRACT §9, §11): a
 * 503 page in the language the request prefers among the page's own,
 * styled from `assets` (NULL: unstyled), with Retry-After; OPTIONS gets
 * its 200. */
void profile_page_unavailable(profile_response_t *resp,
                              const profile_request_t *req,
                              const char *assets, int retry_after,
                              apr_pool_t *p);

#endif
