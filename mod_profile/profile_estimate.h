/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_estimate.h -- the memory a load takes and what parsing a
 * file would take (profile_estimate.c).  Pure core: no httpd
 * headers.
 */
#ifndef PROFILE_ESTIMATE_H
#define PROFILE_ESTIMATE_H

#include <apr_pools.h>
#include <jansson.h>

/* The memory a load takes (CONTRACT §9): what a file's counts make it
 * cost, estimated after validation and before rendering, against the
 * bound: 16 times the file's size plus 8 MB.  A file whose estimate
 * exceeds its bound is refused as a data problem. */
#define PROFILE_MEMORY_FACTOR 16
#define PROFILE_MEMORY_SLACK (8 * 1024 * 1024)

typedef struct {
    apr_uint64_t reps;          /* representations: bodies x languages */
    apr_uint64_t values;        /* JSON values of the parsed tree */
    apr_uint64_t text;          /* rendered bytes, all languages */
    apr_uint64_t bytes;         /* the estimate of the peak */
    apr_uint64_t bound;         /* PROFILE_MEMORY_FACTOR x size + SLACK */
} profile_estimate_t;

/* The estimate for the valid file in buf[0..len); APR_EINVAL (and
 * *errmsg) when it is not valid. */
apr_status_t profile_store_estimate(profile_estimate_t *out,
                                    const char **errmsg,
                                    const char *buf, apr_size_t len,
                                    apr_pool_t *p);

/* The refusal's text when est->bytes > est->bound, else NULL. */
const char *profile_estimate_problem(const profile_estimate_t *est,
                                     apr_size_t size, apr_pool_t *p);

/* The estimate (out) for the validated tree `root` of a file of `len`
 * bytes declaring `nlangs` languages `langs`, coded forms counted, and
 * the pages of `npages` places (profile_page.h). */
void profile_estimate(profile_estimate_t *out, json_t *root,
                      const char **langs, int nlangs, apr_size_t len,
                      int npages);

/* What parsing buf[0..len) would take (CONTRACT §9, refusing is bounded
 * as loading is), from one pass over the text before it is parsed,
 * whatever the text holds: the buffer plus an upper bound of the peak of
 * what jansson 2.14 allocates while it parses (its tree, the lexer's
 * buffer, the tables that grow), counted in glibc's chunks, and the
 * values counted.  tests/unit/test_estimate.c checks the bound against
 * the jansson that is linked; what malloc itself keeps is the fixed
 * part's margin, not a bound. */
typedef struct {
    apr_uint64_t values;        /* objects, arrays, strings, numbers */
    apr_uint64_t bytes;         /* the estimate of the parse's peak */
    apr_uint64_t bound;         /* PROFILE_MEMORY_FACTOR x len + SLACK */
} profile_parse_estimate_t;

void profile_estimate_parse(profile_parse_estimate_t *out, const char *buf,
                            apr_size_t len);

/* The refusal's text when out->bytes > out->bound, else NULL. */
const char *profile_estimate_parse_problem(
    const profile_parse_estimate_t *est, apr_size_t len, apr_pool_t *p);

#endif
