/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_validate.h -- the data file's validation (CONTRACT §9): every
 * rule a file must meet before anything is rendered from it.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_VALIDATE_H
#define PROFILE_VALIDATE_H

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_problems.h"

/* Checks the parsed file `root` against every rule: its languages, the
 * schema tables (profile_schema.h) and unique ids, and adds every
 * problem found to `problems`, in the order of the file (kept as far as
 * it keeps; a problem past that costs its count only).  It goes on after
 * a problem wherever the rest can still be judged: a value of the wrong
 * type is one problem, and what it holds is not looked at.  Returns how many problems it appended; with none, sets
 * *langs and *nlangs to the declared languages (allocated in p; [0] is
 * the default). */
apr_size_t profile_validate(json_t *root, const char ***langs, int *nlangs,
                            profile_problems_t *problems, apr_pool_t *p);

#endif
