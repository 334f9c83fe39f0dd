/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_same.h -- whether a data file still holds the very bytes a
 * store was loaded from, so that a restart may keep the store rather
 * than parse, render and compress it all again (CONTRACT §9), or map
 * its compiled form (profile_compiled.h).
 *
 * A file is the same when its device, inode, size, modification time
 * and change time are those the store recorded when it read the file,
 * and both times were more than two seconds older than that reading
 * ("settled"): a later write moves the change time, which no tool sets
 * back (cp -p, rsync -t, tar and touch -r set the modification time
 * only), and a write within the same tick of the file system's clock as
 * the recorded times is ruled out by the two seconds.  Otherwise the
 * bytes are read and compared by their size and MD5, never by the
 * times.  MD5 is there to notice change, not to resist an attacker:
 * whoever can write the data file can publish anything at the next
 * restart anyway.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_SAME_H
#define PROFILE_SAME_H

#include <apr_pools.h>
#include <apr_time.h>

#include "profile_store.h"

/* Non-zero when loading the file at `path` again, as `opts` say, with
 * build `build`, would give `st`, which build `st_build` loaded: the
 * builds are the same and known (not ""), the file holds the same bytes
 * (profile_same_bytes()) and the options that shape a store match.
 * Sets *mtime to the file's modification time. */
int profile_same_file(const profile_store_t *st, const char *st_build,
                      const char *path, const char *build,
                      const profile_load_opts_t *opts, apr_time_t *mtime,
                      apr_pool_t *ptemp);


/* Non-zero when the file at `path` holds the bytes st was loaded from:
 * settled and unchanged, or the same size and MD5 (above).  Sets *mtime
 * to the file's modification time. */
int profile_same_bytes(const profile_store_t *st, const char *path,
                       apr_time_t *mtime, apr_pool_t *ptemp);

/* What st records of the file it was loaded from, as a read. */
void profile_same_read_of(profile_read_t *r, const profile_store_t *st);

/* The same for the bytes `r` describes (profile_load_opts_t's read),
 * whether or not they made a store. */
int profile_same_read(const profile_read_t *r, const char *path,
                      apr_time_t *mtime, apr_pool_t *ptemp);

#endif
