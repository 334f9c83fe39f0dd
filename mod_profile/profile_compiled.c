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
 * (profile_compiled_tape.c), read once when mapped (when one is used:
 * profile_compiled_use.c).  Only the build that wrote a file reads it
 * (the key says the build), so words are native; every part is checked
 * against the file's size before use.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <apr_file_io.h>
#include <apr_mmap.h>
#include <apr_sha1.h>
#include <apr_strings.h>

#include "profile_compiled.h"
#include "profile_compiled_int.h"
#include "profile_same.h"

#define MAGIC "mod_profile/pcs\n"   /* 16 bytes */
#define BAD_MAGIC "mod_profile/bad\n" /* 16 bytes: a verdict */
#define VERSION 1
/* The longest message a verdict keeps (a longer one is not written). */
#define BAD_MAX (64 * 1024)
#define ALIGN8(n) (((n) + 7) & ~(apr_uint64_t)7)

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

/* A temporary file beside `file` (*tmp: its name), for writing. */
static apr_status_t open_tmp(apr_file_t **f, char **tmp, const char *file,
                             const char **why, apr_pool_t *p)
{
    apr_status_t rv;
    char ebuf[256];

    *tmp = apr_pstrcat(p, file, ".XXXXXX", NULL);
    rv = apr_file_mktemp(f, *tmp, APR_FOPEN_CREATE | APR_FOPEN_WRITE
                         | APR_FOPEN_EXCL | APR_FOPEN_BINARY
                         | APR_FOPEN_BUFFERED, p);
    if (rv != APR_SUCCESS) {
        *why = apr_psprintf(p, "cannot write in %s: %s", file,
                            apr_strerror(rv, ebuf, sizeof(ebuf)));
    }
    return rv;
}

/* Closes f and renames it, whole, to `file`; or removes it when a write
 * `failed` or closing or renaming fails (*why says). */
static apr_status_t close_into(apr_file_t *f, int failed, const char *tmp,
                               const char *file, const char **why,
                               apr_pool_t *p)
{
    apr_status_t rv = apr_file_close(f);
    char ebuf[256];

    if (failed && rv == APR_SUCCESS) {
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
    return rv;
}

/* A header for the key (path, key) and the data file read as r says. */
static void head_for(head_t *h, const char *magic, apr_size_t klen,
                     const profile_read_t *r)
{
    memset(h, 0, sizeof(*h));
    memcpy(h->magic, magic, sizeof(h->magic));
    h->version = VERSION;
    h->layout = PROFILE_STORE_LAYOUT;
    h->key_len = klen;
    h->blob_off = ALIGN8(sizeof(*h) + klen + 1);
    h->size = r->size;
    h->dev = r->dev;
    h->ino = r->ino;
    h->mtime = r->mtime;
    h->ctime = r->ctime;
    h->read_at = r->read_at;
    memcpy(h->md5, r->md5, sizeof(h->md5));
}

apr_status_t profile_compiled_write(const profile_store_t *st,
                                    const char *bytes, apr_size_t len,
                                    const char *file, const char *path,
                                    const char *key, const char **why,
                                    apr_pool_t *p)
{
    static const char zeros[8] = {0};
    profile_read_t r;
    pc_wr_t w;
    head_t h;
    apr_status_t rv;
    apr_size_t klen;
    apr_off_t zero = 0;
    char *tmp, *fk = full_key(path, key, &klen, p);

    memset(&w, 0, sizeof(w));
    profile_same_read_of(&r, st);
    head_for(&h, MAGIC, klen, &r);
    h.bytes_len = len;
    rv = open_tmp(&w.f, &tmp, file, why, p);
    if (rv != APR_SUCCESS) {
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
    h.tape_off = h.blob_off + ALIGN8(w.blen);
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
    rv = close_into(w.f, w.failed, tmp, file, why, p);
    free(w.tape);
    return rv;
}

apr_status_t profile_compiled_write_bad(const profile_read_t *r,
                                        const char *message,
                                        const char *file, const char *path,
                                        const char *key, const char **why,
                                        apr_pool_t *p)
{
    static const char zeros[8] = {0};
    apr_size_t klen, mlen = strlen(message);
    char *tmp, *fk = full_key(path, key, &klen, p);
    apr_file_t *f;
    apr_status_t rv;
    head_t h;
    int failed;

    if (mlen > BAD_MAX) {
        *why = "its message is too long to keep";
        return APR_EINVAL;
    }
    head_for(&h, BAD_MAGIC, klen, r);
    h.blob_len = mlen + 1;
    h.tape_off = h.total = h.blob_off + ALIGN8(h.blob_len);
    rv = open_tmp(&f, &tmp, file, why, p);
    if (rv != APR_SUCCESS) {
        return rv;
    }
    failed = apr_file_write_full(f, &h, sizeof(h), NULL) != APR_SUCCESS
             || apr_file_write_full(f, fk, klen + 1, NULL) != APR_SUCCESS
             || apr_file_write_full(f, zeros, (apr_size_t)(h.blob_off
                                    - sizeof(h) - klen - 1), NULL)
                != APR_SUCCESS
             || apr_file_write_full(f, message, mlen + 1, NULL)
                != APR_SUCCESS
             || apr_file_write_full(f, zeros, (apr_size_t)(h.total
                                    - h.blob_off - h.blob_len), NULL)
                != APR_SUCCESS;
    return close_into(f, failed, tmp, file, why, p);
}

apr_status_t profile_compiled_read_bad(const char **message,
                                       profile_read_t *r, const char *buf,
                                       apr_size_t size, const char *path,
                                       const char *key, apr_pool_t *p)
{
    apr_size_t klen;
    const char *fk = full_key(path, key, &klen, p);
    head_t h;

    if (size < sizeof(h)) {
        return APR_EINVAL;
    }
    memcpy(&h, buf, sizeof(h));
    if (memcmp(h.magic, BAD_MAGIC, sizeof(h.magic)) != 0
        || h.version != VERSION || h.layout != PROFILE_STORE_LAYOUT
        || h.total != (apr_uint64_t)size || h.key_len != klen
        || h.blob_off != ALIGN8(sizeof(h) + klen + 1)
        || h.blob_off > h.total || memcmp(buf + sizeof(h), fk, klen + 1) != 0
        || h.blob_len == 0 || h.blob_len > h.total - h.blob_off
        || h.tape_n != 0
        || h.tape_off != h.total
        || h.total != h.blob_off + ALIGN8(h.blob_len)
        || memchr(buf + h.blob_off, '\0', (apr_size_t)h.blob_len)
           != buf + h.blob_off + h.blob_len - 1) {
        return APR_EINVAL;
    }
    *message = buf + h.blob_off;
    r->size = (apr_size_t)h.size;
    memcpy(r->md5, h.md5, sizeof(r->md5));
    r->dev = h.dev;
    r->ino = h.ino;
    r->mtime = h.mtime;
    r->ctime = h.ctime;
    r->read_at = h.read_at;
    return APR_SUCCESS;
}

apr_size_t profile_compiled_bad_max(const char *path, const char *key)
{
    return sizeof(head_t) + strlen(path) + strlen(key) + 2 + BAD_MAX + 8;
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
    if (memcmp(h.magic, BAD_MAGIC, sizeof(h.magic)) == 0) {
        *why = "none: the data file was bad when last compiled";
        return APR_EINVAL;
    }
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
    if (h.blob_off != ALIGN8(sizeof(h) + klen + 1)
        || h.blob_off > h.total || h.blob_len > h.total - h.blob_off
        || h.tape_off != h.blob_off + ALIGN8(h.blob_len)
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
    rv = apr_file_info_get(&fi, PC_FORM_FINFO, f);
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
