/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_problem.h -- RFC 9457 problem details in the response language
 * (CONTRACT §7).  English and Spanish texts are built in; any other
 * language a data file declares gets the English texts.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_PROBLEM_H
#define PROFILE_PROBLEM_H

#include <apr_pools.h>
#include <apr_tables.h>

#include "profile_query.h"

typedef enum {
    PROFILE_MSG_NO_ROUTE,       /* arg: the request path */
    PROFILE_MSG_NO_EXPERIENCE,  /* arg: the id */
    PROFILE_MSG_NO_CASE_STUDY,  /* arg: the id */
    PROFILE_MSG_METHOD,         /* arg: the method */
    PROFILE_MSG_PRECONDITION,
    PROFILE_MSG_UNCONFIGURED,
    PROFILE_MSG_UNAVAILABLE     /* the data file could not be loaded */
} profile_msg_e;

/* The languages of the problem texts, English (the default) first:
 * what an answer without any data negotiates among (CONTRACT §9). */
#define PROFILE_PROBLEM_NLANGS 2
extern const char *const profile_problem_langs[PROFILE_PROBLEM_NLANGS];

/* The language of the problem texts sent for the response language
 * `lang`: "en" or "es" (CONTRACT §7: an error's Content-Language names
 * the language of the text actually sent). */
const char *profile_problem_lang(const char *lang);

/* The English reason phrase of an error status (a problem's "title" in
 * English): "Not Found" for 404; "Error" for a status it has no
 * problem texts for. */
const char *profile_problem_reason(int status);

/* Renders a problem body for a 404/405/412/500/503 with message `msg`, whose
 * argument `arg` may be NULL. */
const char *profile_problem_render(apr_size_t *len, int status,
                                   profile_msg_e msg, const char *arg,
                                   const char *lang, apr_pool_t *p);

/* Renders the 400 problem body for query `problems`
 * (profile_qp_problem_t) on a route whose parameter is `param` (NULL:
 * none). */
const char *profile_problem_render_query(apr_size_t *len,
                                         const apr_array_header_t *problems,
                                         const char *param,
                                         const char *lang, apr_pool_t *p);

#endif
