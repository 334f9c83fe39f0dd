/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_compiled.h -- a loaded store kept in a file, "compiled", and
 * mapped back read-only (issue 35): the work of a load done while the
 * running server still serves (configtest, `httpd -k graceful` before
 * it signals, the first of httpd's two readings at start-up), so that
 * the reading the server runs with maps what is fresh instead of
 * parsing, rendering and compressing it all again.
 *
 * One compiled file per data file and way of loading it: its name is the
 * SHA-1 of the data file's path and of `key`, which says everything
 * besides the file's bytes that a load depends on (the build of the
 * module, the store's layout, compress=, the places of the pages).  It
 * holds the key itself (checked, never trusted from the name), what the
 * data file was when it was read (device, inode, size, times, MD5 of the
 * bytes), the bytes themselves (what another build loads after an
 * upgrade: CONTRACT §9) and the store's every body.  It is written to a
 * temporary file and renamed into place, so a reader sees a whole file
 * or none.  A compiled file is fresh when the data file still holds the
 * bytes it was compiled from: by its identity and times where those were
 * settled well before it was read (a later write moves the change time,
 * which no tool sets back), else by the MD5 of its bytes.  Anything else
 * (another key, a short, corrupt or foreign file) is not used, and the
 * data file is loaded as profile_store_load() loads it.
 *
 * Reading a compiled file checks every offset and count against the
 * file's size before it is used: a damaged file is refused, never
 * followed.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_COMPILED_H
#define PROFILE_COMPILED_H

#include <apr_pools.h>
#include <apr_hash.h>
#include <apr_tables.h>
#include <apr_time.h>

#include "profile_store.h"

/* How profile_compiled_load() got its store. */
typedef enum {
    PROFILE_COMPILED_MAPPED,    /* a fresh compiled file, mapped */
    PROFILE_COMPILED_WRITTEN,   /* loaded, and compiled for next time */
    PROFILE_COMPILED_LOADED,    /* loaded; not compiled (no directory, or
                                 * it could not be written: *why says) */
    PROFILE_COMPILED_JUDGED     /* not loaded: the data file holds the
                                 * bytes a reading before found bad (its
                                 * verdict: *errmsg) */
} profile_compiled_how_e;

/* A compiled file mapped: its store, the data file's bytes it holds,
 * and what the compiled file was when mapped (to know it again: a
 * compiled file is only ever replaced, by a rename, never written in
 * place). */
typedef struct {
    profile_store_t *store;         /* NULL: none mapped */
    const char *bytes;
    apr_size_t len;
    apr_uint64_t dev, ino;
    apr_off_t size;
    apr_time_t mtime, ctime;
} profile_compiled_form_t;

/* Loads the data file at `path` as profile_store_load() does with
 * `opts`, through the compiled file of (path, key) in `dir` (NULL: none):
 * maps it when it is fresh, else loads the file and, with `compile`,
 * writes its compiled file (rendering it even when opts->render is 0,
 * validating) or, for a bad file, its verdict (profile_compiled_write_bad).
 * Without `compile`, a fresh verdict is the answer: APR_EINVAL, its
 * message in *errmsg, *how JUDGED, and the file is not parsed.  Validating, a fresh compiled file is
 * a good file, and *out is NULL.  *how says which; *why says why a
 * compiled file could not be written, or is NULL.  A mapped store and
 * its mapping live in mpool (made for it: cleared when nothing is
 * mapped), or with mpool NULL in a subpool of p.  `form` (NULL: not
 * wanted) is set to the form mapped when *how is MAPPED, else to one
 * with no store. */
apr_status_t profile_compiled_load(profile_store_t **out,
                                   const char **errmsg,
                                   profile_compiled_how_e *how,
                                   const char **why, const char *path,
                                   const profile_load_opts_t *opts,
                                   const char *dir, const char *key,
                                   int compile, profile_compiled_form_t *form,
                                   apr_pool_t *mpool, apr_pool_t *p);

/* APR_SUCCESS when `form`, mapped ahead (below), is still the compiled
 * file of (path, key) in `dir` and fresh (its store's mtime then set to
 * the data file's), which makes its store what profile_compiled_load()
 * would map now. */
apr_status_t profile_compiled_still(profile_compiled_form_t *form,
                                    const char *dir, const char *path,
                                    const char *key, apr_off_t max_size,
                                    apr_pool_t *p);

/* Ahead of the restart that will use it (the parent, while its children
 * still serve): maps the compiled file of (path, key) in `dir` into
 * *form, in a new subpool of `parent` (*mpool), when it is not the file
 * `seen` was mapped from (NULL: none), was compiled from bytes other
 * than `served`'s (NULL: none) and is fresh.  APR_SUCCESS; APR_EEXIST
 * when it is `seen`'s file or holds `served`'s bytes; else why not (no
 * such file, stale, damaged).  Only APR_SUCCESS leaves a subpool, and
 * a file already seen costs one stat. */
apr_status_t profile_compiled_ahead(profile_compiled_form_t *form,
                                    apr_pool_t **mpool,
                                    const char *dir, const char *path,
                                    const char *key, apr_off_t max_size,
                                    const profile_compiled_form_t *seen,
                                    const profile_store_t *served,
                                    apr_pool_t *parent, apr_pool_t *p);

/* The key of a data file's compiled form: what besides its bytes a load
 * depends on (the module's build, compress=, the places of its pages,
 * profile_page_where_t). */
const char *profile_compiled_key(const char *build, int compress,
                                 const apr_array_header_t *pages,
                                 apr_pool_t *p);

/* The compiled file's name in `dir` for (path, key). */
const char *profile_compiled_name(const char *dir, const char *path,
                                  const char *key, apr_pool_t *p);

/* Writes st, loaded from `bytes` (len of them), as the compiled file
 * `file` for (path, key), atomically.  APR_SUCCESS or why not (*why). */
apr_status_t profile_compiled_write(const profile_store_t *st,
                                    const char *bytes, apr_size_t len,
                                    const char *file, const char *path,
                                    const char *key, const char **why,
                                    apr_pool_t *p);

/* A verdict, written where the compiled file of (path, key) goes when
 * the reading before the signal found the data file bad: the one-line
 * `message` a restart logs, and what was read (r).  The restart then
 * keeps the last good data after a stat (or the bytes' MD5), as a load
 * of those same bytes would have, rather than parse them again while
 * every site is silent (review E3).  A message longer than 64 KB is not
 * kept.  APR_SUCCESS, or why not in *why. */
apr_status_t profile_compiled_write_bad(const profile_read_t *r,
                                        const char *message,
                                        const char *file, const char *path,
                                        const char *key, const char **why,
                                        apr_pool_t *p);

/* The verdict for (path, key) in buf[size], a file's bytes: its message
 * in *message (pointing into buf) and what was read in *r; every part
 * checked against size first.  APR_SUCCESS; else it is not one (a
 * compiled store, another key, damaged). */
apr_status_t profile_compiled_read_bad(const char **message,
                                       profile_read_t *r, const char *buf,
                                       apr_size_t size, const char *path,
                                       const char *key, apr_pool_t *p);

/* The largest a verdict for (path, key) can be (a larger file is not
 * one, and is not read). */
apr_size_t profile_compiled_bad_max(const char *path, const char *key);

/* The store a compiled file of (path, key) in buf[size] holds, in p
 * (pointing into buf), with *bytes and *len the data file's bytes it
 * holds; every part checked against size first.  APR_SUCCESS, or
 * APR_EINVAL with *why. */
apr_status_t profile_compiled_read(profile_store_t **out,
                                   const char **bytes, apr_size_t *len,
                                   const char *buf, apr_size_t size,
                                   const char *path, const char *key,
                                   const char **why, apr_pool_t *p);

/* Maps the compiled file `file` of (path, key) into form->store in p
 * (its path set to `path`), with form->bytes and len the data file's
 * bytes it holds.  APR_SUCCESS, or an error with *why. */
apr_status_t profile_compiled_map(profile_compiled_form_t *form,
                                  const char *file, const char *path,
                                  const char *key, const char **why,
                                  apr_pool_t *p);

/* NULL when compiled files may be kept in `dir` (made if missing, mode
 * 0700): a directory that only the user running may write, since what
 * is mapped from it is served; else why not. */
const char *profile_compiled_dir(const char *dir, apr_pool_t *p);

/* Removes from `dir` the compiled files (and temporary ones) not in
 * `keep` (their paths as profile_compiled_name() gives them) and last
 * written before `before`. */
void profile_compiled_prune(const char *dir, apr_hash_t *keep,
                            apr_time_t before, apr_pool_t *p);

#endif
