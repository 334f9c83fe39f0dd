/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_finish.h -- finishing the rendered bodies at load time: their
 * ETags and their gzip and br forms, on a pool of threads for large data
 * (see profile_finish.c for its fork-safety invariant).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_FINISH_H
#define PROFILE_FINISH_H

#include <apr_pools.h>

#include "profile_store.h"

typedef struct profile_finish profile_finish_t;

/* Prepares for `cap` bodies.  `size` (the data file's) sets the
 * compression level and whether threads pay off; `compress` whether the
 * gzip and br forms are made.  The caller must call profile_finish_all()
 * on the result before it returns. */
profile_finish_t *profile_finish_start(apr_size_t cap, apr_size_t size,
                                       int compress, apr_pool_t *p);

/* Queues `body` (whose data and len are final) for its SHA-1 and ETag
 * (unless `hash` is 0: a collection, whose ETag comes from its elements)
 * and, if it is `served` unfiltered, its compressed forms. */
void profile_finish_later(profile_finish_t *w, profile_body_t *body,
                          int hash, int served);

/* Runs what is left, joins every thread, copies the results into the
 * bodies (allocating in p) and frees everything else `w` held. */
void profile_finish_all(profile_finish_t *w, apr_pool_t *p);

#endif
