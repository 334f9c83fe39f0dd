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

#endif
