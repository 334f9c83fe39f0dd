/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_estimate.h -- the memory a load takes (profile_estimate.c);
 * the estimate's type and its problem are in profile_store.h, which the
 * module and profilectl see.  Pure core: no httpd headers.
 */
#ifndef PROFILE_ESTIMATE_H
#define PROFILE_ESTIMATE_H

#include <jansson.h>

#include "profile_store.h"

/* The estimate (out) for the validated tree `root` of a file of `len`
 * bytes declaring `nlangs` languages `langs`, coded forms counted. */
void profile_estimate(profile_estimate_t *out, json_t *root,
                      const char **langs, int nlangs, apr_size_t len);

/* What parsing buf[0..len) would take (CONTRACT §9, refusing is bounded
 * as loading is), from one pass over the text before it is parsed,
 * whatever the text holds: an upper estimate of the peak of the buffer
 * and of jansson's tree, and the values counted. */
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
