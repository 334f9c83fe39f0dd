/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_store.h -- the loaded profile: the data file (CONTRACT §9)
 * parsed, validated completely, and every unfiltered representation
 * (route x id x language) rendered once with its strong ETag.
 *
 * Pure core: libc, APR, jansson and utf8proc only; never an httpd header.
 */
#ifndef PROFILE_STORE_H
#define PROFILE_STORE_H

#include <apr_pools.h>
#include <apr_hash.h>
#include <apr_tables.h>
#include <apr_time.h>
#include <apr_md5.h>
#include <apr_file_io.h>

#include "profile_enc.h"
#include "profile_validate.h"

/* Bytes of one content coding of a representation and their ETag. */
typedef struct {
    const char *data;           /* NULL: this coding is not kept */
    apr_size_t len;
    const char *etag;
} profile_bytes_t;

/* One rendered representation: compact UTF-8 JSON and its quoted ETag,
 * and, for representations served unfiltered, its compressed forms.
 * Elements of a collection are slices of the collection's bytes: their
 * data is not NUL-terminated. */
typedef struct {
    const char *data;
    apr_size_t len;
    const char *etag;
    unsigned char sha1[20];     /* SHA-1 of the bytes (ETag's source) */
    int fell_back;              /* 1: it holds a value served in the
                                 * fallback language, the one it is in
                                 * lacking it (CONTRACT §4, §9) */
    profile_bytes_t coded[PROFILE_ENC_COUNT]; /* [GZIP], [BR]; [0] unused */
} profile_body_t;

/* Where a page of the profile is published (CONTRACT §11), which its
 * bytes name: the configuration's, never a request's Host. */
typedef struct {
    const char *url;            /* absolute URL of the page's base,
                                 * ending in "/" */
    const char *assets;         /* URL (path or absolute) of the static
                                 * files, ending in "/" */
} profile_page_where_t;

/* What was read of a data file: enough to know its bytes again
 * (profile_same.h). */
typedef struct {
    apr_size_t size;            /* bytes read */
    unsigned char md5[APR_MD5_DIGESTSIZE];
    apr_uint64_t dev, ino;      /* 0, 0: nothing was read */
    apr_time_t mtime, ctime;    /* its times then */
    apr_time_t read_at;         /* when it was read */
} profile_read_t;

/* How to load. */
typedef struct {
    int render;                 /* 0: validate only (configtest) */
    int compress;               /* also render gzip and br forms */
    apr_off_t max_size;         /* refuse larger files; 0: no limit */
    profile_problems_t *problems; /* non-NULL: the problems of a refused
                                   * file are added to it, in file order,
                                   * kept as far as it keeps
                                   * (profile_validate.h) */
    const profile_page_where_t *pages; /* [npages]: the places the
                                 * profile's pages are rendered for
                                 * (profile_page.h) */
    int npages;
    const char **bytes;         /* non-NULL: a good load of a file sets
                                 * it to the bytes loaded, NUL-ended, in
                                 * the store's pool (what another build
                                 * loads after an upgrade); else NULL */
    apr_size_t *len;            /* with bytes: their length */
    profile_read_t *read;       /* non-NULL: set to what was read of the
                                 * file, good or bad (ino 0: nothing,
                                 * refused before or while reading) */
} profile_load_opts_t;

/* One element of a collection. */
typedef struct {
    const char *id;             /* NULL where the collection has no ids */
    profile_body_t *body;       /* [nlangs]: the element rendered alone */
    const char ***keys;         /* [nlangs]: NULL-ended folded search keys */
} profile_item_t;

typedef struct {
    int nitems;
    profile_item_t *items;
    profile_body_t *all;        /* [nlangs]: the whole collection */
    apr_hash_t *by_id;          /* id -> profile_item_t*, or NULL */
} profile_coll_t;

typedef enum {
    PROFILE_COLL_SKILLS,
    PROFILE_COLL_EXPERIENCE,
    PROFILE_COLL_EDUCATION,
    PROFILE_COLL_CASE_STUDIES,
    PROFILE_COLL_METRICS,
    PROFILE_COLL_COUNT
} profile_coll_e;

/* PROFILE_STORE_LAYOUT: the shape of profile_store_t and of everything
 * it points to.  Add one to it in every change of that shape (a field
 * added, removed, moved or retyped here, in profile_coll_t,
 * profile_item_t, profile_body_t or profile_bytes_t, or a change of what
 * a pointer points to): a store is kept across a restart only by the
 * build that made it (mod_profile_holder.c), and this number is one of
 * the things that tells.  The test build below has a layout of its own
 * (tests/integration/test_upgrade.py). */
#if defined(PROFILE_TEST_LAYOUT_VARIANT)
#define PROFILE_STORE_LAYOUT 1001
#else
#define PROFILE_STORE_LAYOUT 4
#endif

typedef struct {
#if defined(PROFILE_TEST_LAYOUT_VARIANT)
    char variant_pad[72];       /* tests only: another layout */
#endif
    const char *path;           /* the data file */
    int compressed;             /* coded[] forms were rendered */
    apr_time_t mtime;           /* its modification time */
    apr_size_t size;            /* bytes of the file it was parsed from */
    unsigned char md5[APR_MD5_DIGESTSIZE]; /* their MD5: does the file
                                 * still hold them? */
    apr_uint64_t dev, ino;      /* the file read (0, 0: a buffer) */
    apr_time_t ctime;           /* its change time then */
    apr_time_t read_at;         /* when it was read (profile_compiled.h
                                 * says why) */
    int nlangs;
    const char **langs;         /* declared order; [0] is the default */
    int fallback;               /* the fallback language's index in
                                 * langs; -1: the file names none */
    const char **fell_back_language; /* [nlangs]: the Content-Language of
                                 * a body that fell back ("es, en") */
    apr_size_t *untranslated;   /* [nlangs]: the texts untranslated in
                                 * each language (profile_untranslated.h) */
    profile_body_t *profile;    /* [nlangs] */
    profile_body_t *contact;    /* [nlangs] */
    profile_coll_t coll[PROFILE_COLL_COUNT];
    struct profile_page *pages; /* [npages]: its HTML pages, one set per
                                 * place they are published at */
    int npages;
} profile_store_t;

/* Reads, validates and (as opts say; NULL: render, no compression, no
 * size limit) renders the data file at `path` (absolute) into pool p.
 * On failure returns an error status (APR_EINVAL: problems in the data,
 * the memory bound's included; any other: the file cannot be read, or
 * is not a regular file) and sets *errmsg to the problems,
 * one line each, naming the file: "FILE:LINE:COL: ..." for syntax (the
 * only problem then), "FILE: $.json.path: ..." for shape; the first
 * PROFILE_PROBLEMS_SHOWN, then "and N more".  Validating only, *out is
 * set to NULL on success. */
apr_status_t profile_store_load(profile_store_t **out, const char **errmsg,
                                const char *path,
                                const profile_load_opts_t *opts,
                                apr_pool_t *p);

/* The same, from a buffer; `name` stands for the file in messages and
 * mtime is taken as given.  Rendering with opts NULL. */
apr_status_t profile_store_parse(profile_store_t **out, const char **errmsg,
                                 const char *buf, apr_size_t len,
                                 const char *name, apr_time_t mtime,
                                 apr_pool_t *p);

apr_status_t profile_store_parse_opts(profile_store_t **out,
                                      const char **errmsg,
                                      const char *buf, apr_size_t len,
                                      const char *name, apr_time_t mtime,
                                      const profile_load_opts_t *opts,
                                      apr_pool_t *p);

/* Their ETags: profile_etag.h. */

#endif
