/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_validate_int.h -- what the validator's files share
 * (profile_validate.c, profile_validate_parts.c): the walk's context and
 * path, how a problem is recorded, and the checks of the file's
 * languages and of a record's dates.  Internal to them.
 *
 * Pure core: no httpd headers.
 */
#ifndef PROFILE_VALIDATE_INT_H
#define PROFILE_VALIDATE_INT_H

#include <apr_hash.h>
#include <apr_pools.h>
#include <jansson.h>

#include "profile_schema.h"
#include "profile_validate.h"

/* What a value is, for messages: "an object", "a string", ... */
#define type_name(v) profile_schema_type_name(v)

/* A JSON path, built on the stack as validation descends. */
typedef struct path {
    const struct path *up;
    const char *key;            /* member name, or NULL for an index */
    size_t index;
} path_t;

typedef struct {
    apr_pool_t *p;
    int nlangs;
    const char **langs;
    int langs_ok;               /* 0: the declaration is bad, so which
                                 * translations a text needs is unknown */
    int fallback;               /* the fallback's index; -1: none; -2: a
                                 * bad one, so which translations a text
                                 * may lack is unknown */
    profile_problems_t *problems;
    profile_problems_t *lang_problems;  /* the declaration's, listed where
                                         * "languages" stands in the file */
    apr_hash_t *ids;            /* ids seen in the collection being
                                 * walked (id -> its index), or NULL */
    const char *coll;           /* that collection's key */
} vctx_t;

/* Records a problem of the value at `at`; returns -1.  A macro, so
 * that a problem past the first `keep` costs its count only: its
 * message's arguments (pv_quoted(), pv_declared(), ...) are evaluated,
 * and its text and path made, only when it is kept.  c is evaluated
 * more than once. */
#define pv_fail(c, at, ...)                                             \
    (profile_problems_full((c)->problems) ? pv_fail_counted(c)          \
     : pv_fail_kept((c), (at), __VA_ARGS__))
int pv_fail_kept(vctx_t *c, const path_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int pv_fail_counted(vctx_t *c);
/* s in quotes, printable, for a message. */
const char *pv_quoted(vctx_t *c, const char *s);
/* The index of declared language `tag`, or -1. */
int pv_lang_index(vctx_t *c, const char *tag);
/* The declared languages, for messages: "en,es". */
const char *pv_declared(vctx_t *c);
/* The "languages" declaration, into c (problems into c->problems). */
int pv_check_languages(vctx_t *c, json_t *root);
/* The fallback's index; -1: none; -2: a bad one. */
int pv_find_fallback(vctx_t *c, json_t *root);
/* A record's dates: an end needs a start and is not before it. */
int pv_check_dates(vctx_t *c, json_t *v, const path_t *at);
/* Whether missing field f of record v is written from its dates (a
 * period), or said why not (*rv). */
int pv_written_from_dates(vctx_t *c, const profile_field_t *fields,
                          json_t *v, const profile_field_t *f,
                          const path_t *at, int *rv);

#endif
