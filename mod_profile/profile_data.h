/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_data.h -- the data file opened as CONTRACT §9 says (only a
 * regular file, never blocking), and the pools a load goes into, whose
 * memory goes back to malloc when they are destroyed (profile_data.c).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_DATA_H
#define PROFILE_DATA_H

#include <apr_pools.h>
#include <apr_file_io.h>
#include <apr_file_info.h>

/* Opens the data file at `path` for reading, only if it is a regular
 * file (CONTRACT §9): its type is looked at first, through any link, it
 * is opened without blocking and must be the file looked at.  Sets *fi
 * (type, size, mtime, device, inode).  On failure, *why says it in one
 * line and *f is NULL: APR_EBADF for a file that is not regular (or
 * was replaced by one meanwhile), else the system's error.  Reading a
 * FIFO, a device or a directory never blocks, as it would with a plain
 * open. */
apr_status_t profile_data_open(apr_file_t **f, apr_finfo_t *fi,
                               const char **why, const char *path,
                               apr_pool_t *p);

/* A pool under `parent` with an allocator of its own, destroyed with
 * it: what it freed goes back to malloc, where the allocator of a
 * long-lived parent would keep it on its free list for good.  Only one
 * thread at a time may allocate from it (the allocator has no mutex). */
apr_status_t profile_pool_create_own(apr_pool_t **out, apr_pool_t *parent);

#endif
