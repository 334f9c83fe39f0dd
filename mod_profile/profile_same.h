/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_same.h -- whether a data file still holds the very bytes a
 * store was loaded from, so that a restart may keep the store rather
 * than parse, render and compress it all again (CONTRACT §9).  The bytes are compared by their size
 * and MD5, never by the file's times (a same-size edit whose
 * modification time was reset by cp -p, rsync -t, tar or touch -r must
 * still be loaded).  MD5 is there to notice change, not to resist an
 * attacker: whoever can write the data file can publish anything at the
 * next restart anyway.
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
 * (size and MD5) and the options that shape a store match.  Sets *mtime
 * to the file's modification time. */
int profile_same_file(const profile_store_t *st, const char *st_build,
                      const char *path, const char *build,
                      const profile_load_opts_t *opts, apr_time_t *mtime,
                      apr_pool_t *ptemp);


#endif
