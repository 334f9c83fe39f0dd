/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_query.h -- strict query-string decoding and validation
 * (CONTRACT §8 rules 1-4).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_QUERY_H
#define PROFILE_QUERY_H

#include <apr_pools.h>
#include <apr_tables.h>

/* Longest filter value, in code points after trimming. */
#define PROFILE_QUERY_MAX_CHARS 100

/* The most problems reported (a hostile query may hold thousands). */
#define PROFILE_QUERY_MAX_PROBLEMS 20

typedef enum {
    PROFILE_QP_BAD_ENCODING,    /* invalid %-sequence in name or value */
    PROFILE_QP_BAD_UTF8,        /* decoded bytes are not UTF-8 */
    PROFILE_QP_UNKNOWN,         /* the route does not define this name */
    PROFILE_QP_REPEATED,        /* the name was given more than once */
    PROFILE_QP_EMPTY,           /* nothing left after trimming */
    PROFILE_QP_TOO_LONG,        /* more than 100 code points */
    PROFILE_QP_CONTROL          /* a control character remains */
} profile_qp_reason_e;

typedef struct {
    const char *name;           /* printable form of the name */
    profile_qp_reason_e reason;
} profile_qp_problem_t;

typedef struct {
    const char *value;          /* trimmed value of `allowed`, or NULL */
    apr_size_t value_len;
    apr_array_header_t *problems; /* profile_qp_problem_t, in query order,
                                   * at most PROFILE_QUERY_MAX_PROBLEMS */
    int nproblems;              /* how many there were in all */
} profile_query_t;

/* Parses the raw query `args` (NULL when the URL had no "?") for a route
 * whose only parameter is `allowed` (NULL: the route takes none).
 * Returns APR_SUCCESS, or APR_EINVAL with out->problems naming each
 * offending parameter once (the first PROFILE_QUERY_MAX_PROBLEMS). */
apr_status_t profile_query_parse(profile_query_t *out, const char *args,
                                 const char *allowed, apr_pool_t *p);

#endif
