/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_locate.h -- where in a data file's text each problem stands:
 * the line and column of the value a problem's JSON path names
 * (profile_locate.c).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_LOCATE_H
#define PROFILE_LOCATE_H

#include <apr_pools.h>

#include "profile_problems.h"

/* Sets the line and column of each kept problem of `problems` that has
 * a path, to where that path's value begins in buf[0..len), the text
 * profile_validate() judged (parsed): one pass over the text. */
void profile_data_problems_locate(profile_problems_t *problems,
                                  const char *buf, apr_size_t len,
                                  apr_pool_t *p);

#endif
