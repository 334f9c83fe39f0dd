/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_unchanged.c -- whether a data file still holds the very
 * bytes its loaded store was made from, so that a restart may keep the
 * store rather than parse, render and compress it all again
 * (mod_profile_reload.c).
 *
 * The bytes are compared by their size and MD5, never by the file's
 * times: a same-size edit whose modification time was reset (cp -p,
 * rsync -t, tar, touch -r) or fell within the file system's time
 * granularity must still be loaded.  MD5 is there to notice change, not
 * to resist an attacker: whoever can write the data file can publish
 * anything at the next restart anyway.  A store is kept only by the
 * build of the module that made it, with the coded forms and within the
 * size limit the configuration now asks for.
 */
#include <string.h>
#if !defined(WIN32)
#include <dlfcn.h>              /* dladdr */
#endif

#include "httpd.h"
#include "http_config.h"

#include <apr_file_io.h>
#include <apr_md5.h>
#include <apr_strings.h>

#include "mod_profile.h"

/* How much of a data file is read at a time to compare it. */
#define COMPARE_CHUNK (128 * 1024)

/* Which build of this module runs: the device, inode, size and time of
 * its .so ("" where that cannot be known).  httpd loads the .so afresh at
 * every restart, and an upgrade may have replaced it: a store that
 * another build rendered may differ in its bytes or its layout, so it
 * is never kept as unchanged data. */
void profile_module_build(char *out, apr_size_t len, apr_pool_t *ptemp)
{
#if !defined(WIN32)
    Dl_info info;
    apr_finfo_t fi;

    if (dladdr((void *)&profile_module, &info) != 0
        && info.dli_fname != NULL
        && apr_stat(&fi, info.dli_fname, APR_FINFO_DEV | APR_FINFO_INODE
                    | APR_FINFO_SIZE | APR_FINFO_MTIME | APR_FINFO_CTIME,
                    ptemp) == APR_SUCCESS) {
        apr_snprintf(out, len, "%s %lu:%lu:%" APR_OFF_T_FMT ":%"
                     APR_TIME_T_FMT ":%" APR_TIME_T_FMT, info.dli_fname,
                     (unsigned long)fi.device, (unsigned long)fi.inode,
                     fi.size, fi.mtime, fi.ctime);
        return;
    }
#endif
    (void)ptemp;
    out[0] = '\0';
}

int profile_file_unchanged(const profile_store_t *st, const char *st_build,
                           const char *path, const char *build,
                           const profile_load_opts_t *opts,
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

    if (build[0] == '\0' || strcmp(build, st_build) != 0
        || st->compressed != opts->compress
        || (opts->max_size > 0 && (apr_off_t)st->size > opts->max_size)
        || profile_data_open(&f, &fi, &why, path, ptemp) != APR_SUCCESS) {
        return 0;                   /* (the load says why) */
    }
    if (fi.size == (apr_off_t)st->size) {
        buf = apr_palloc(ptemp, COMPARE_CHUNK);
        apr_md5_init(&ctx);
        do {
            n = COMPARE_CHUNK;
            rv = apr_file_read(f, buf, &n);
            apr_md5_update(&ctx, buf, n);
        } while (rv == APR_SUCCESS);
        apr_md5_final(md5, &ctx);
        /* (Bytes appended meanwhile change the MD5 too.) */
        same = rv == APR_EOF && memcmp(md5, st->md5, sizeof(md5)) == 0;
        *mtime = fi.mtime;
    }
    apr_file_close(f);
    return same;
}
