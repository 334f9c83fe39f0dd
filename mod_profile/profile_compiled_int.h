/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_compiled_int.h -- what profile_compiled.c (the file),
 * profile_compiled_tape.c (the store's walk) and profile_compiled_use.c
 * (when a file is used) share.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_COMPILED_INT_H
#define PROFILE_COMPILED_INT_H

#include <apr_pools.h>
#include <apr_file_io.h>

#include "profile_store.h"

#define PC_MAX_LANGS 64

/* What a compiled file is (the fields a form keeps to know it again). */
#define PC_FORM_FINFO (APR_FINFO_SIZE | APR_FINFO_TYPE | APR_FINFO_DEV \
                       | APR_FINFO_INODE | APR_FINFO_MTIME | APR_FINFO_CTIME)

/* A tape being made (malloc'd; the writer frees it) and blobs being
 * written to the file f, at its offset `blen` from their start. */
typedef struct {
    apr_uint64_t *tape;
    apr_size_t n, cap;
    apr_file_t *f;
    apr_uint64_t blen;
    const char *slice_of[PC_MAX_LANGS]; /* the current collection's bytes */
    apr_uint64_t slice_at[PC_MAX_LANGS];
    apr_size_t slice_len[PC_MAX_LANGS];
    int nslices;
    int failed;                 /* out of memory, or a write failed */
} pc_wr_t;

/* Appends st's walk to w. */
void pc_put_store(pc_wr_t *w, const profile_store_t *st);
/* Writes len bytes and a NUL as w's next blob; their offset plus one. */
apr_uint64_t pc_blob(pc_wr_t *w, const void *data, apr_size_t len);
/* The store the tape of n words (native, maybe not aligned) and
 * blob[blen] hold, in p (pointing into blob), or NULL when they are not
 * one. */
profile_store_t *pc_get_store(const char *tape, apr_uint64_t n,
                              const char *blob, apr_uint64_t blen,
                              apr_pool_t *p);

#endif
