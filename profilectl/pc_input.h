/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_input.h -- how profilectl opens a file it reads (pc_input.c): a
 * data file, a JSON Resume document, a LinkedIn export and its CSV
 * files.  Only a regular file (or a link to one) is read; anything else
 * (a FIFO, a device, a directory, a socket) is refused at once, never
 * waited on (profilectl.1, FILES READ).  Links without profilectl.c,
 * for the fuzz programs.
 */
#ifndef PC_INPUT_H
#define PC_INPUT_H

#include <apr_pools.h>

/* 0 when `path` names a regular file (after links); else -1 with *err
 * set ("PATH: cannot read it: a FIFO, not a regular file").  For the
 * files that the module's loader opens (profile_store_load): its
 * refusal of these is a data problem, profilectl's an unusable input. */
int pc_input_check(const char **err, const char *path, apr_pool_t *p);

/* Opens `path` for reading: pc_input_check, then open() with O_NONBLOCK
 * (a FIFO put there meanwhile does not block), then the file opened
 * must be the one checked (the same device and inode, still regular).
 * 0 and *fd (the caller closes it; O_NONBLOCK left set, which a regular
 * file ignores), or -1 with *err set. */
int pc_input_open(int *fd, const char **err, const char *path,
                  apr_pool_t *p);

/* Reads the whole of `path`, opened by pc_input_open, into *buf (NUL
 * terminated, *len bytes).  A file larger than `max` bytes (0: no
 * limit) is refused: *err says "larger than MAX_MB MB".  0, or -1 with
 * *err set. */
int pc_input_read(char **buf, apr_size_t *len, const char **err,
                  const char *path, apr_size_t max, apr_pool_t *p);

#endif
