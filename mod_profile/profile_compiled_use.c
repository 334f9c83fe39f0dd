/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_compiled_use.c -- when a compiled file is used (profile_compiled.h
 * says why): fresh for the data file, loading through it and compiling,
 * mapping ahead of a restart and knowing that file again, and the
 * directory compiled files are kept in.  The file itself (its format,
 * writing, reading and mapping) is profile_compiled.c's.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <string.h>
#include <sys/statvfs.h>

#include <apr_file_io.h>
#include <apr_sha1.h>
#include <apr_strings.h>
#include <apr_user.h>

#include "profile_compiled.h"
#include "profile_compiled_int.h"
#include "profile_problems.h"
#include "profile_same.h"

/* Whether the form was mapped from the file fi describes. */
static int is_form_file(const profile_compiled_form_t *form,
                        const apr_finfo_t *fi)
{
    return form != NULL && form->store != NULL && fi->filetype == APR_REG
           && form->dev == (apr_uint64_t)fi->device
           && form->ino == (apr_uint64_t)fi->inode
           && form->size == fi->size && form->mtime == fi->mtime
           && form->ctime == fi->ctime;
}

/* Whether a compiled form of a file of len bytes fits in dir's file
 * system with a tenth of it left free (on a tmpfs such as /run, whose
 * other users must not run out of room): its bound is that of the load's
 * memory, 16 times the file plus 8 MB (CONTRACT §9). */
static int room_for(const char *dir, apr_size_t len)
{
    struct statvfs v;

    if (statvfs(dir, &v) != 0) {
        return 1;                   /* (writing will say) */
    }
    return (apr_uint64_t)v.f_bavail * v.f_frsize
           >= 16 * (apr_uint64_t)len + (8u << 20)
              + (apr_uint64_t)v.f_blocks * v.f_frsize / 10;
}

/* profile_same_bytes() (st) or profile_same_read() (r) with its buffer
 * given back at once. */
static int same_bytes(const profile_store_t *st, const profile_read_t *r,
                      const char *path, apr_time_t *mtime, apr_pool_t *p)
{
    apr_pool_t *tmp;
    int same;

    if (apr_pool_create(&tmp, p) != APR_SUCCESS) {
        return 0;
    }
    same = st != NULL ? profile_same_bytes(st, path, mtime, tmp)
                      : profile_same_read(r, path, mtime, tmp);
    apr_pool_destroy(tmp);
    return same;
}

/* The message of the verdict in `file` while the data file still holds
 * the bytes it was given on (and they are within max_size), else NULL. */
static const char *judged(const char *file, const char *path,
                          const char *key, apr_off_t max_size, apr_pool_t *p)
{
    profile_read_t r;
    const char *message;
    apr_time_t mtime;
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t got = 0;
    char *buf = NULL;

    if (apr_file_open(&f, file, APR_FOPEN_READ | APR_FOPEN_BINARY,
                      APR_OS_DEFAULT, p) != APR_SUCCESS) {
        return NULL;
    }
    if (apr_file_info_get(&fi, APR_FINFO_SIZE | APR_FINFO_TYPE, f)
        == APR_SUCCESS && fi.filetype == APR_REG && fi.size > 0
        && (apr_uint64_t)fi.size <= profile_compiled_bad_max(path, key)) {
        buf = apr_palloc(p, (apr_size_t)fi.size);
        if (apr_file_read_full(f, buf, (apr_size_t)fi.size, &got)
            != APR_SUCCESS) {
            buf = NULL;
        }
    }
    apr_file_close(f);
    if (buf == NULL
        || profile_compiled_read_bad(&message, &r, buf, got, path, key, p)
           != APR_SUCCESS
        || (max_size > 0 && (apr_off_t)r.size > max_size)
        || !same_bytes(NULL, &r, path, &mtime, p)) {
        return NULL;
    }
    return message;
}

/* The store of the compiled file `file` mapped into *form (in mp);
 * APR_SUCCESS when it is fresh for the data file at `path`, else why
 * not in *why. */
static apr_status_t fresh(const profile_compiled_form_t *form,
                          const char *path, apr_off_t max_size,
                          apr_time_t *mtime, const char **why, apr_pool_t *p)
{
    if (max_size > 0 && (apr_off_t)form->store->size > max_size) {
        *why = "over ProfileMaxDataSize";
    }
    else if (!same_bytes(form->store, NULL, path, mtime, p)) {
        *why = "stale: the data file changed since";
    }
    else {
        return APR_SUCCESS;
    }
    return APR_EINVAL;
}

apr_status_t profile_compiled_still(profile_compiled_form_t *form,
                                    const char *dir, const char *path,
                                    const char *key, apr_off_t max_size,
                                    apr_pool_t *p)
{
    const char *file = profile_compiled_name(dir, path, key, p), *why;
    apr_finfo_t fi;
    apr_time_t mtime;

    if (apr_stat(&fi, file, PC_FORM_FINFO, p) != APR_SUCCESS
        || !is_form_file(form, &fi)
        || fresh(form, path, max_size, &mtime, &why, p) != APR_SUCCESS) {
        return APR_EINVAL;
    }
    /* Last-Modified is the file's (a touch moves it). */
    form->store->mtime = mtime;
    return APR_SUCCESS;
}

apr_status_t profile_compiled_load(profile_store_t **out,
                                   const char **errmsg,
                                   profile_compiled_how_e *how,
                                   const char **why, const char *path,
                                   const profile_load_opts_t *opts,
                                   const char *dir, const char *key,
                                   int compile, profile_compiled_form_t *form,
                                   apr_pool_t *mpool, apr_pool_t *p)
{
    profile_load_opts_t o = *opts;
    profile_compiled_form_t mine;
    profile_read_t r;
    const char *verdict;
    profile_store_t *st = NULL;
    const char *file, *bytes = NULL, *werr = NULL;
    apr_size_t len = 0;
    apr_time_t mtime;
    apr_pool_t *mp;
    apr_status_t rv;

    *out = NULL;
    *how = PROFILE_COMPILED_LOADED;
    *why = NULL;
    if (form == NULL) {
        form = &mine;
    }
    if (dir == NULL) {
        form->store = NULL;
        return profile_store_load(out, errmsg, path, opts, p);
    }
    file = profile_compiled_name(dir, path, key, p);
    /* The mapping goes with mp unless it is used: mpool itself, cleared
     * then (the caller made it for this), or a subpool of p. */
    if (mpool != NULL) {
        mp = mpool;
    }
    else if (apr_pool_create(&mp, p) != APR_SUCCESS) {
        form->store = NULL;
        return profile_store_load(out, errmsg, path, opts, p);
    }
    if (profile_compiled_map(form, file, path, key, why, mp) == APR_SUCCESS
        && fresh(form, path, opts->max_size, &mtime, why, p)
           == APR_SUCCESS) {
        *how = PROFILE_COMPILED_MAPPED;
        if (!opts->render) {
            mpool ? apr_pool_clear(mp) : apr_pool_destroy(mp);
            form->store = NULL;
            return APR_SUCCESS;
        }
        /* Last-Modified is the file's (a touch moves it). */
        form->store->mtime = mtime;
        if (opts->bytes != NULL) {
            *opts->bytes = form->bytes;
            *opts->len = form->len;
        }
        *out = form->store;
        return APR_SUCCESS;
    }
    form->store = NULL;
    mpool ? apr_pool_clear(mp) : apr_pool_destroy(mp);
    if (!compile) {
        /* The very bytes a reading before the signal found bad: bad
         * again, for the message it gave. */
        if ((verdict = judged(file, path, key, opts->max_size, p)) != NULL) {
            *errmsg = verdict;
            *how = PROFILE_COMPILED_JUDGED;
            return APR_EINVAL;
        }
        return profile_store_load(out, errmsg, path, opts, p);
    }
    /* Loaded, and rendered to be compiled even when only validating. */
    o.render = 1;
    o.bytes = &bytes;
    o.len = &len;
    o.read = &r;
    rv = profile_store_load(&st, errmsg, path, &o, p);
    if (opts->read != NULL) {
        *opts->read = r;
    }
    if (rv != APR_SUCCESS) {
        /* (Only a file read whole has bytes to know again.) */
        if (r.ino != 0 && room_for(dir, 0)
            && profile_compiled_write_bad(&r, profile_data_problems_summary(
                                              o.problems, *errmsg, path, p),
                                          file, path, key, &werr, p)
               != APR_SUCCESS) {
            *why = werr;
        }
        return rv;
    }
    if (!room_for(dir, len)) {
        werr = apr_pstrcat(p, "not written: ", dir, " has less than 10 % "
                           "of its file system free beside it", NULL);
    }
    else if (profile_compiled_write(st, bytes, len, file, path, key, &werr,
                                    p) == APR_SUCCESS) {
        *how = PROFILE_COMPILED_WRITTEN;
    }
    *why = werr;
    if (opts->bytes != NULL) {
        *opts->bytes = bytes;
        *opts->len = len;
    }
    *out = opts->render ? st : NULL;
    return APR_SUCCESS;
}

const char *profile_compiled_key(const char *build, int compress,
                                 const apr_array_header_t *pages,
                                 apr_pool_t *p)
{
    const char *k = apr_psprintf(p, "build %s\ncompress %d\n", build,
                                 compress);
    int i;

    for (i = 0; i < pages->nelts; i++) {
        const profile_page_where_t *w =
            &APR_ARRAY_IDX(pages, i, profile_page_where_t);

        k = apr_pstrcat(p, k, "page ", w->url, " ", w->assets, "\n", NULL);
    }
    return k;
}

apr_status_t profile_compiled_ahead(profile_compiled_form_t *form,
                                    apr_pool_t **mpool,
                                    const char *dir, const char *path,
                                    const char *key, apr_off_t max_size,
                                    const profile_compiled_form_t *seen,
                                    const profile_store_t *served,
                                    apr_pool_t *parent, apr_pool_t *p)
{
    const char *file = profile_compiled_name(dir, path, key, p), *why;
    apr_finfo_t fi;
    apr_time_t mtime;
    apr_status_t rv;

    memset(form, 0, sizeof(*form));
    *mpool = NULL;
    rv = apr_stat(&fi, file, PC_FORM_FINFO, p);
    if (rv != APR_SUCCESS) {
        return rv;
    }
    if (is_form_file(seen, &fi)) {
        return APR_EEXIST;
    }
    rv = apr_pool_create(mpool, parent);
    if (rv == APR_SUCCESS) {
        rv = profile_compiled_map(form, file, path, key, &why, *mpool);
    }
    if (rv == APR_SUCCESS) {
        rv = fresh(form, path, max_size, &mtime, &why, p);
    }
    if (rv == APR_SUCCESS && served != NULL
        && served->size == form->store->size
        && memcmp(served->md5, form->store->md5, sizeof(served->md5)) == 0) {
        rv = APR_EEXIST;            /* the bytes served: a restart keeps */
    }
    if (rv != APR_SUCCESS) {
        form->store = NULL;
        if (*mpool != NULL) {
            apr_pool_destroy(*mpool);
            *mpool = NULL;
        }
    }
    return rv;
}

const char *profile_compiled_dir(const char *dir, apr_pool_t *p)
{
    apr_finfo_t fi;
    apr_uid_t uid;
    apr_gid_t gid;
    apr_status_t rv;
    char ebuf[256];

    rv = apr_dir_make_recursive(dir, APR_FPROT_UREAD | APR_FPROT_UWRITE
                                | APR_FPROT_UEXECUTE, p);
    if (rv == APR_SUCCESS) {
        rv = apr_stat(&fi, dir, APR_FINFO_TYPE | APR_FINFO_USER
                      | APR_FINFO_PROT, p);
    }
    if (rv == APR_SUCCESS) {
        rv = apr_uid_current(&uid, &gid, p);
    }
    if (rv != APR_SUCCESS) {
        return apr_psprintf(p, "%s: %s", dir,
                            apr_strerror(rv, ebuf, sizeof(ebuf)));
    }
    /* What is mapped from it is served: only its owner may write it, as
     * sshd wants of a home directory. */
    if (fi.filetype != APR_DIR || fi.user != uid
        || (fi.protection & (APR_FPROT_GWRITE | APR_FPROT_WWRITE))) {
        return apr_psprintf(p, "%s is not a directory that only this "
                            "user (uid %lu) may write", dir,
                            (unsigned long)uid);
    }
    return NULL;
}

void profile_compiled_prune(const char *dir, apr_hash_t *keep,
                            apr_time_t before, apr_pool_t *p)
{
    apr_dir_t *d;
    apr_finfo_t fi;

    if (apr_dir_open(&d, dir, p) != APR_SUCCESS) {
        return;
    }
    while (apr_dir_read(&fi, APR_FINFO_NAME | APR_FINFO_TYPE
                        | APR_FINFO_MTIME, d) == APR_SUCCESS) {
        /* Compiled files ("HEX.pcs") and temporary ones ("HEX.pcs.XXXXXX")
         * only, of nothing in use, written before `before`. */
        const char *pcs = strstr(fi.name, ".pcs");
        const char *full;

        if (pcs == NULL || pcs - fi.name != 2 * APR_SHA1_DIGESTSIZE
            || fi.filetype != APR_REG || fi.mtime >= before) {
            continue;
        }
        full = apr_pstrcat(p, dir, "/", fi.name, NULL);
        if (apr_hash_get(keep, full, APR_HASH_KEY_STRING) == NULL) {
            apr_file_remove(full, p);
        }
    }
    apr_dir_close(d);
}
