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
#include <jansson.h>

/* Checks the parsed file `root` against every rule: its languages, the
 * schema tables (profile_schema.h) and unique ids.  Returns 0 and sets
 * *langs and *nlangs to the declared languages (allocated in p; [0] is
 * the default), or -1 and sets *err to "NAME: $.json.path: problem",
 * `name` standing for the file. */
int profile_validate(json_t *root, const char *name, const char ***langs,
                     int *nlangs, const char **err, apr_pool_t *p);

#endif
