/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_compiled.c -- a store written to a compiled file and mapped
 * back (profile_compiled.h says when and why).
 *
 * The file: a header (head_t: what it is, where its parts are, what the
 * data file was when it was read), the key and a NUL, then the blob
 * area (every string and body, and the data file's bytes), written as
 * the walk meets them so that writing takes no copy of the store, then
 * the tape of 64-bit words that walks the store
 * (profile_compiled_tape.c), read once when mapped.  Only the build
 * that wrote a file reads it (the key says the build), so words are
 * native; every part is checked against the file's size before use.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>

#include <apr_file_io.h>
#include <apr_mmap.h>
#include <apr_sha1.h>
#include <apr_strings.h>
#include <apr_user.h>

#include "profile_compiled.h"
#include "profile_compiled_int.h"
#include "profile_data.h"
#include "profile_same.h"

#define MAGIC "mod_profile/pcs\n"   /* 16 bytes */
#define VERSION 1

typedef struct {
    char magic[16];
    apr_uint32_t version, layout;
    apr_uint64_t total;             /* the file's size */
    apr_uint64_t key_len;           /* the key follows, then a NUL */
    apr_uint64_t tape_off, tape_n;  /* words */
    apr_uint64_t blob_off, blob_len;
    apr_uint64_t bytes_off, bytes_len; /* the data file's, in the blobs
                                     * (offset plus one) */
    apr_uint64_t size, dev, ino;    /* the data file when read */
    apr_int64_t mtime, ctime, read_at;
    unsigned char md5[APR_MD5_DIGESTSIZE];
} head_t;

const char *profile_compiled_name(const char *dir, const char *path,
                                  const char *key, apr_pool_t *p)
{
    unsigned char d[APR_SHA1_DIGESTSIZE];
    char hex[2 * APR_SHA1_DIGESTSIZE + 1];
    apr_sha1_ctx_t c;
    int i;

    apr_sha1_init(&c);
    apr_sha1_update_binary(&c, (const unsigned char *)path, strlen(path) + 1);
    apr_sha1_update_binary(&c, (const unsigned char *)key, strlen(key));
    apr_sha1_final(d, &c);
    for (i = 0; i < APR_SHA1_DIGESTSIZE; i++) {
        hex[2 * i] = "0123456789abcdef"[d[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
    }
    hex[2 * APR_SHA1_DIGESTSIZE] = '\0';
    return apr_pstrcat(p, dir, "/", hex, ".pcs", NULL);
}

/* The key as the file holds it: the data file's path, a NUL, the key. */
static char *full_key(const char *path, const char *key, apr_size_t *len,
                      apr_pool_t *p)
{
    apr_size_t pl = strlen(path), kl = strlen(key);
    char *s = apr_palloc(p, pl + kl + 2);

    memcpy(s, path, pl + 1);
    memcpy(s + pl + 1, key, kl + 1);
    *len = pl + 1 + kl;
    return s;
}

apr_status_t profile_compiled_write(const profile_store_t *st,
                                    const char *bytes, apr_size_t len,
                                    const char *file, const char *path,
                                    const char *key, const char **why,
                                    apr_pool_t *p)
{
    static const char zeros[8] = {0};
    pc_wr_t w;
    head_t h;
    apr_status_t rv;
    apr_size_t klen;
    apr_off_t zero = 0;
    char *tmp, *fk = full_key(path, key, &klen, p), ebuf[256];

    memset(&w, 0, sizeof(w));
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, MAGIC, sizeof(h.magic));
    h.version = VERSION;
    h.layout = PROFILE_STORE_LAYOUT;
    h.key_len = klen;
    h.blob_off = (sizeof(h) + klen + 1 + 7) & ~(apr_uint64_t)7;
    h.bytes_len = len;
    h.size = st->size;
    h.dev = st->dev;
    h.ino = st->ino;
    h.mtime = st->mtime;
    h.ctime = st->ctime;
    h.read_at = st->read_at;
    memcpy(h.md5, st->md5, sizeof(h.md5));
    tmp = apr_pstrcat(p, file, ".XXXXXX", NULL);
    rv = apr_file_mktemp(&w.f, tmp, APR_FOPEN_CREATE | APR_FOPEN_WRITE
                         | APR_FOPEN_EXCL | APR_FOPEN_BINARY
                         | APR_FOPEN_BUFFERED, p);
    if (rv != APR_SUCCESS) {
        *why = apr_psprintf(p, "cannot write in %s: %s", file,
                            apr_strerror(rv, ebuf, sizeof(ebuf)));
        return rv;
    }
    /* The header last, once the parts' places are known: the blobs are
     * written as the walk meets them, the tape (in memory) after them. */
    w.failed = apr_file_write_full(w.f, &h, sizeof(h), NULL) != APR_SUCCESS
               || apr_file_write_full(w.f, fk, klen + 1, NULL) != APR_SUCCESS
               || apr_file_write_full(w.f, zeros, (apr_size_t)(h.blob_off
                                      - sizeof(h) - klen - 1), NULL)
                  != APR_SUCCESS;
    pc_put_store(&w, st);
    h.bytes_off = pc_blob(&w, bytes, len);
    h.blob_len = w.blen;
    h.tape_off = h.blob_off + ((w.blen + 7) & ~(apr_uint64_t)7);
    h.tape_n = w.n;
    h.total = h.tape_off + w.n * sizeof(apr_uint64_t);
    if (!w.failed
        && (apr_file_write_full(w.f, zeros, (apr_size_t)(h.tape_off
                                - h.blob_off - w.blen), NULL) != APR_SUCCESS
            || apr_file_write_full(w.f, w.tape, w.n * sizeof(apr_uint64_t),
                                   NULL) != APR_SUCCESS
            || apr_file_seek(w.f, APR_SET, &zero) != APR_SUCCESS
            || apr_file_write_full(w.f, &h, sizeof(h), NULL)
               != APR_SUCCESS)) {
        w.failed = 1;
    }
    rv = apr_file_close(w.f);
    if (w.failed && rv == APR_SUCCESS) {
        rv = APR_EGENERAL;          /* (a write failed, or memory) */
    }
    if (rv == APR_SUCCESS) {
        rv = apr_file_rename(tmp, file, p);
    }
    if (rv != APR_SUCCESS) {
        apr_file_remove(tmp, p);
        *why = apr_psprintf(p, "cannot write %s: %s", file,
                            apr_strerror(rv, ebuf, sizeof(ebuf)));
    }
    free(w.tape);
    return rv;
}

apr_status_t profile_compiled_read(profile_store_t **out,
                                   const char **bytes, apr_size_t *len,
                                   const char *base, apr_size_t size,
                                   const char *path, const char *key,
                                   const char **why, apr_pool_t *p)
{
    head_t h;
    apr_size_t klen;
    const char *fk = full_key(path, key, &klen, p);
    profile_store_t *st;

    *out = NULL;
    /* Every part inside the buffer, in order, before anything is read
     * (the header copied: the buffer may not be aligned). */
    if (size < sizeof(h)) {
        *why = "another format, or cut short";
        return APR_EINVAL;
    }
    memcpy(&h, base, sizeof(h));
    if (memcmp(h.magic, MAGIC, sizeof(h.magic)) != 0
        || h.version != VERSION || h.layout != PROFILE_STORE_LAYOUT
        || h.total != (apr_uint64_t)size) {
        *why = "another format, or cut short";
        return APR_EINVAL;
    }
    if (h.key_len != klen || h.key_len > h.total - sizeof(h) - 1
        || memcmp(base + sizeof(h), fk, klen + 1) != 0) {
        *why = "compiled for another build or other options";
        return APR_EINVAL;
    }
    if (h.blob_off != ((sizeof(h) + klen + 1 + 7) & ~(apr_uint64_t)7)
        || h.blob_off > h.total || h.blob_len > h.total - h.blob_off
        || h.tape_off != h.blob_off + ((h.blob_len + 7) & ~(apr_uint64_t)7)
        || h.tape_off > h.total
        || h.tape_n != (h.total - h.tape_off) / 8
        || h.total != h.tape_off + h.tape_n * 8
        || h.bytes_off == 0 || h.bytes_off - 1 > h.blob_len
        || h.bytes_len >= h.blob_len - (h.bytes_off - 1)
        || h.bytes_len != h.size) {
        *why = "damaged";
        return APR_EINVAL;
    }
    st = pc_get_store(base + h.tape_off, h.tape_n, base + h.blob_off,
                      h.blob_len, p);
    if (st == NULL) {
        *why = "damaged";
        return APR_EINVAL;
    }
    st->path = apr_pstrdup(p, path);
    st->size = (apr_size_t)h.size;
    st->dev = h.dev;
    st->ino = h.ino;
    st->mtime = h.mtime;
    st->ctime = h.ctime;
    st->read_at = h.read_at;
    memcpy(st->md5, h.md5, sizeof(st->md5));
    *bytes = base + h.blob_off + h.bytes_off - 1;
    *len = (apr_size_t)h.bytes_len;
    *out = st;
    return APR_SUCCESS;
}

/* What a compiled file is (the fields a form keeps to know it again). */
#define FORM_FINFO (APR_FINFO_SIZE | APR_FINFO_TYPE | APR_FINFO_DEV \
                    | APR_FINFO_INODE | APR_FINFO_MTIME | APR_FINFO_CTIME)

static int is_form_file(const profile_compiled_form_t *form,
                        const apr_finfo_t *fi)
{
    return form != NULL && form->store != NULL && fi->filetype == APR_REG
           && form->dev == (apr_uint64_t)fi->device
           && form->ino == (apr_uint64_t)fi->inode
           && form->size == fi->size && form->mtime == fi->mtime
           && form->ctime == fi->ctime;
}

apr_status_t profile_compiled_map(profile_compiled_form_t *form,
                                  const char *file, const char *path,
                                  const char *key, const char **why,
                                  apr_pool_t *p)
{
    apr_file_t *f;
    apr_finfo_t fi;
    apr_mmap_t *mm = NULL;
    apr_status_t rv;
    char ebuf[256];

    memset(form, 0, sizeof(*form));
    rv = apr_file_open(&f, file, APR_FOPEN_READ | APR_FOPEN_BINARY,
                       APR_OS_DEFAULT, p);
    if (rv != APR_SUCCESS) {
        *why = apr_pstrcat(p, "none (", apr_strerror(rv, ebuf, sizeof(ebuf)),
                           ")", NULL);
        return rv;
    }
    rv = apr_file_info_get(&fi, FORM_FINFO, f);
    if (rv == APR_SUCCESS && (fi.filetype != APR_REG || fi.size <= 0)) {
        rv = APR_EINVAL;
    }
    if (rv == APR_SUCCESS) {
        rv = apr_mmap_create(&mm, f, 0, (apr_size_t)fi.size, APR_MMAP_READ,
                             p);
    }
    apr_file_close(f);
    if (rv != APR_SUCCESS) {
        *why = "not a compiled file";
        return rv;
    }
    rv = profile_compiled_read(&form->store, &form->bytes, &form->len,
                               mm->mm, (apr_size_t)fi.size, path, key, why,
                               p);
    if (rv != APR_SUCCESS) {
        apr_mmap_delete(mm);
        return rv;
    }
#if defined(MADV_DONTNEED)
    /* What reading it touched (the tape, the strings it checked) goes
     * back: the page cache keeps it, and a child that serves a body
     * faults its pages in from there, shared. */
    madvise(mm->mm, (apr_size_t)fi.size, MADV_DONTNEED);
#endif
    form->dev = (apr_uint64_t)fi.device;
    form->ino = (apr_uint64_t)fi.inode;
    form->size = fi.size;
    form->mtime = fi.mtime;
    form->ctime = fi.ctime;
    return APR_SUCCESS;
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

/* profile_same_bytes() with its buffer given back at once. */
static int same_bytes(const profile_store_t *st, const char *path,
                      apr_time_t *mtime, apr_pool_t *p)
{
    apr_pool_t *tmp;
    int same;

    if (apr_pool_create(&tmp, p) != APR_SUCCESS) {
        return 0;
    }
    same = profile_same_bytes(st, path, mtime, tmp);
    apr_pool_destroy(tmp);
    return same;
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
    else if (!same_bytes(form->store, path, mtime, p)) {
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

    if (apr_stat(&fi, file, FORM_FINFO, p) != APR_SUCCESS
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
        return profile_store_load(out, errmsg, path, opts, p);
    }
    /* Loaded, and rendered to be compiled even when only validating. */
    o.render = 1;
    o.bytes = &bytes;
    o.len = &len;
    rv = profile_store_load(&st, errmsg, path, &o, p);
    if (rv != APR_SUCCESS) {
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

apr_status_t profile_compiled_ahead(profile_compiled_form_t *form,
                                    const char *dir, const char *path,
                                    const char *key, apr_off_t max_size,
                                    const profile_compiled_form_t *seen,
                                    const profile_store_t *served,
                                    apr_pool_t *mpool, apr_pool_t *p)
{
    const char *file = profile_compiled_name(dir, path, key, p), *why;
    apr_finfo_t fi;
    apr_time_t mtime;
    apr_status_t rv;

    memset(form, 0, sizeof(*form));
    rv = apr_stat(&fi, file, FORM_FINFO, p);
    if (rv != APR_SUCCESS) {
        return rv;
    }
    if (is_form_file(seen, &fi)) {
        return APR_EEXIST;
    }
    rv = profile_compiled_map(form, file, path, key, &why, mpool);
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
