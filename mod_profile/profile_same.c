/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_same.c -- whether a data file still holds the bytes a store
 * was loaded from (profile_same.h).
 */
#include <string.h>

#include <apr_file_io.h>
#include <apr_md5.h>
#include <apr_strings.h>

#include "profile_data.h"
#include "profile_page.h"
#include "profile_same.h"

/* How much of a data file is read at a time to compare it. */
#define COMPARE_CHUNK (128 * 1024)

/* Whether st's pages are published where opts says (profile_page.h):
 * their bytes name the places. */
static int same_pages(const profile_store_t *st,
                      const profile_load_opts_t *opts)
{
    int i;

    if (st->npages != opts->npages) {
        return 0;
    }
    for (i = 0; i < st->npages; i++) {
        if (strcmp(st->pages[i].where.url, opts->pages[i].url) != 0
            || strcmp(st->pages[i].where.assets, opts->pages[i].assets)
               != 0) {
            return 0;
        }
    }
    return 1;
}

/* How far before its reading a file's times must be for them alone to
 * say it is unchanged (profile_same.h). */
#define SETTLED APR_TIME_C(2000000)

void profile_same_read_of(profile_read_t *r, const profile_store_t *st)
{
    r->size = st->size;
    memcpy(r->md5, st->md5, sizeof(r->md5));
    r->dev = st->dev;
    r->ino = st->ino;
    r->mtime = st->mtime;
    r->ctime = st->ctime;
    r->read_at = st->read_at;
}

int profile_same_bytes(const profile_store_t *st, const char *path,
                       apr_time_t *mtime, apr_pool_t *ptemp)
{
    profile_read_t r;

    profile_same_read_of(&r, st);
    return profile_same_read(&r, path, mtime, ptemp);
}

int profile_same_read(const profile_read_t *r, const char *path,
                      apr_time_t *mtime, apr_pool_t *ptemp)
{
    unsigned char md5[APR_MD5_DIGESTSIZE];
    apr_md5_ctx_t ctx;
    apr_file_t *f;
    apr_finfo_t fi;
    apr_status_t rv;
    apr_size_t n;
    const char *why;
    char *buf;
    int same = 0;

    if (apr_stat(&fi, path, APR_FINFO_TYPE | APR_FINFO_SIZE
                 | APR_FINFO_MTIME | APR_FINFO_CTIME | APR_FINFO_DEV
                 | APR_FINFO_INODE, ptemp) == APR_SUCCESS
        && fi.filetype == APR_REG && r->ino != 0
        && (apr_uint64_t)fi.device == r->dev
        && (apr_uint64_t)fi.inode == r->ino
        && fi.size == (apr_off_t)r->size
        && fi.mtime == r->mtime && fi.ctime == r->ctime
        && r->ctime < r->read_at - SETTLED
        && r->mtime < r->read_at - SETTLED) {
        *mtime = fi.mtime;
        return 1;
    }
    if (profile_data_open(&f, &fi, &why, path, ptemp) != APR_SUCCESS) {
        return 0;                   /* (the load says why) */
    }
    if (fi.size == (apr_off_t)r->size) {
        buf = apr_palloc(ptemp, COMPARE_CHUNK);
        apr_md5_init(&ctx);
        do {
            n = COMPARE_CHUNK;
            rv = apr_file_read(f, buf, &n);
            apr_md5_update(&ctx, buf, n);
        } while (rv == APR_SUCCESS);
        apr_md5_final(md5, &ctx);
        /* (Bytes appended meanwhile change the MD5 too.) */
        same = rv == APR_EOF && memcmp(md5, r->md5, sizeof(md5)) == 0;
        *mtime = fi.mtime;
    }
    apr_file_close(f);
    return same;
}

int profile_same_file(const profile_store_t *st, const char *st_build,
                      const char *path, const char *build,
                      const profile_load_opts_t *opts, apr_time_t *mtime,
                      apr_pool_t *ptemp)
{
    if (build[0] == '\0' || strcmp(build, st_build) != 0
        || st->compressed != opts->compress
        || !same_pages(st, opts)
        || (opts->max_size > 0 && (apr_off_t)st->size > opts->max_size)) {
        return 0;                   /* (the load says why) */
    }
    return profile_same_bytes(st, path, mtime, ptemp);
}
