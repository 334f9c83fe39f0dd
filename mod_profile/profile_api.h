/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_api.h -- the whole answer to one request, decided without
 * httpd: route, method, query, record, language, CORS and the header
 * fields of CONTRACT §2-§8.  Only the evaluation of validators
 * (If-None-Match and friends) is left to the glue, which uses httpd's
 * own ap_meets_conditions().
 *
 * Pure core: libc, APR, jansson and utf8proc only; never an httpd header.
 */
#ifndef PROFILE_API_H
#define PROFILE_API_H

#include <apr_pools.h>
#include <apr_tables.h>

#include "profile_store.h"

/* ProfileMaxAge's default (CONTRACT §1). */
#define PROFILE_DEFAULT_MAX_AGE 300

/* What one <Location> serves. */
typedef struct {
    const profile_store_t *store;
    const apr_array_header_t *origins; /* allowed origins; NULL means "*" */
    int max_age;                       /* Cache-Control max-age, seconds */
    const char *cache_control;         /* "public, max-age=N"; NULL: made
                                        * from max_age per request */
    int compress;                      /* serve the gzip/br forms (when the
                                        * store has them) */
} profile_site_t;

typedef enum {
    PROFILE_M_GET,              /* GET, and HEAD: the same answer */
    PROFILE_M_OPTIONS,
    PROFILE_M_OTHER
} profile_method_e;

typedef struct {
    profile_method_e method;
    const char *method_name;
    const char *uri;            /* the decoded request path, for messages */
    const char *path;           /* the decoded path below the base, or
                                 * NULL when the URL is not below it */
    const char *args;           /* the raw query; NULL without "?" */
    const char *accept_language;
    const char *accept;         /* NULL: read from `fields`, if given */
    const char *accept_encoding;
    const char *origin;
    const char *acr_method;     /* Access-Control-Request-Method */
    apr_time_t now;             /* when the request arrived (Expires) */
    int http10;                 /* an HTTP/1.0 request: its caches ignore
                                 * Vary, so Expires is `now` (§5) */
    const apr_table_t *fields;  /* the request's header fields, for those
                                 * read only by some answers (Accept, by
                                 * errors); NULL: none */
    apr_table_t *headers;       /* the table the answer's fields go to;
                                 * it must hold none of them (an empty
                                 * table).  NULL: a new one */
    apr_status_t (*date)(char *out, apr_time_t t);
                                /* writes an HTTP date (Expires), as
                                 * apr_rfc822_date(); NULL: that one */
} profile_request_t;

typedef struct {
    int status;
    int lang;                   /* index into store->langs */
    const char *content_type;   /* NULL when there is no body (OPTIONS) */
    const char *body;
    apr_size_t len;
    int stored;                 /* body lives as long as the store */
    const char *content_encoding; /* "gzip", "br"; NULL: identity */
    const char *language;       /* the Content-Language field's value */
    const char *route;          /* the route's template ("/skills",
                                 * "/experience/{id}"); NULL: no route */
    const char *etag;           /* set on 200 GET/HEAD */
    int conditional;            /* validators apply: a 200 GET/HEAD */
    apr_table_t *headers;       /* every other field; "Vary" to be merged */
} profile_response_t;

/* Adds Cache-Control (public, max-age) and Expires to a cacheable
 * answer (CONTRACT §5). */
void profile_api_cacheable(profile_response_t *resp,
                           const profile_site_t *site,
                           const profile_request_t *req, apr_pool_t *p);

/* Makes `body`, rendered at load, the answer's body, in the coding the
 * request prefers among those kept (ETag of that coding). */
void profile_api_stored(profile_response_t *resp, const profile_site_t *site,
                        const profile_request_t *req,
                        const profile_body_t *body);

/* Decides the answer to `req` for `site`. */
void profile_api_answer(profile_response_t *resp, const profile_site_t *site,
                        const profile_request_t *req, apr_pool_t *p);

/* The answer of a section whose data file could not be loaded (CONTRACT
 * §9, ProfileBadData keep): a 503 problem, with CORS, no-store and
 * Retry-After (exposed to pages beside ETag), in the language the
 * request prefers among those of the problem texts (English when it
 * accepts none of them).  OPTIONS, a CORS preflight or not, gets the
 * 200 it gets with data (the CORS policy is the configuration's), its
 * Content-Language chosen the same way. */
void profile_api_unavailable(profile_response_t *resp,
                             const profile_site_t *site,
                             const profile_request_t *req, int retry_after,
                             apr_pool_t *p);

/* A validator field as httpd's ap_condition_if_*() judged it (the same
 * values as ap_condition_e). */
typedef enum {
    PROFILE_COND_NONE,          /* no such field */
    PROFILE_COND_NOMATCH,
    PROFILE_COND_WEAK,
    PROFILE_COND_STRONG
} profile_cond_e;

/* The validators of a request (CONTRACT §5). */
typedef struct {
    profile_cond_e if_match;
    profile_cond_e if_unmodified_since;
    profile_cond_e if_none_match;   /* httpd's weak comparison on GET */
    const char *if_modified_since;  /* the field, or NULL */
    apr_time_t last_modified;       /* as sent in Last-Modified */
} profile_conds_t;

/* Applies the validators to a conditional answer (resp->conditional):
 * a failed If-Match or If-Unmodified-Since gives a 412 problem; a
 * matching If-None-Match, or without one an If-Modified-Since at or
 * after Last-Modified (RFC 9110 §13.1.3: ignored beside If-None-Match;
 * any valid date, including one in the future), gives a 304.  Otherwise
 * resp is unchanged. */
void profile_api_conditions(profile_response_t *resp,
                            const profile_site_t *site,
                            const profile_request_t *req,
                            const profile_conds_t *c, apr_pool_t *p);

/* Turns `resp` into an error answer (412 from a failed precondition,
 * 500 for a missing configuration), keeping its language. */
void profile_api_error(profile_response_t *resp, const profile_site_t *site,
                       const profile_request_t *req, int status,
                       apr_pool_t *p);

#endif
