/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_problems.h -- the problems of a refused data file (CONTRACT
 * §9): one problem, the bounded list of them, and their one-line form.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_PROBLEMS_H
#define PROFILE_PROBLEMS_H

#include <apr_pools.h>
#include <apr_tables.h>

/* One problem of a data file.  A JSON syntax error has its line and
 * column (and is the file's only problem); a problem of shape has the
 * JSON path of the value at fault; a file that cannot be read has
 * neither. */
typedef struct {
    int line;                   /* 1-based; 0: not a syntax error */
    int column;
    const char *path;           /* "$.experience[2].period", or NULL */
    const char *text;           /* what is wrong, one line */
} profile_data_problem_t;

/* How many problems the one message of a refused file lists before
 * "and N more" (CONTRACT §9). */
#define PROFILE_PROBLEMS_SHOWN 10

/* The problems of a refused file: the first `keep`, in the order of the
 * file, and how many there are in all.  A refusal keeps no more (CONTRACT
 * §9: refusing a file is bounded as loading one), so that a file of a
 * million problems costs what a file of `keep` does, beside the count. */
typedef struct {
    apr_array_header_t *list;   /* profile_data_problem_t, at most keep */
    int keep;                   /* >= 1 */
    apr_size_t total;           /* all the problems found */
} profile_problems_t;

/* An empty list that keeps the first `keep` problems (at least one). */
profile_problems_t *profile_problems_make(apr_pool_t *p, int keep);

/* Counts one more problem: the slot to fill in, or NULL when `keep` are
 * kept already. */
profile_data_problem_t *profile_problems_add(profile_problems_t *to);

/* Whether `to` keeps `keep` problems already: one more would be
 * counted only (profile_problems_add() returns NULL), so nothing of it
 * needs to be made. */
int profile_problems_full(const profile_problems_t *to);

/* Appends `from`'s problems to `to`: kept as far as `to` keeps, all
 * counted. */
void profile_problems_cat(profile_problems_t *to,
                          const profile_problems_t *from);

/* One problem as one line naming the file `name`: "NAME:LINE:COL: TEXT"
 * (syntax), "NAME:LINE:COL: $.path: TEXT" (shape, located),
 * "NAME: $.path: TEXT" (shape) or "NAME: TEXT". */
const char *profile_data_problem_line(const profile_data_problem_t *pr,
                                      const char *name, apr_pool_t *p);

/* The first `shown` problems, one line each (no final newline), then,
 * when there are more (kept or only counted), a line "and N more". */
const char *profile_data_problems_message(const profile_problems_t *problems,
                                          int shown, const char *name,
                                          apr_pool_t *p);

/* The one line a restart logs for a refused file: the first problem
 * and how many more, or `err` (the load's message) for a file of one
 * problem or none listed. */
const char *profile_data_problems_summary(const profile_problems_t *problems,
                                          const char *err, const char *name,
                                          apr_pool_t *p);

#endif
