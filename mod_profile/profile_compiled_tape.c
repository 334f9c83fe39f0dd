/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_compiled_tape.c -- a store as the tape and blobs of a compiled
 * file, and back (profile_compiled.c says the file's shape; this file
 * its walk).
 *
 * The tape walks the store in one fixed order: counts, flags, and for
 * each string or byte range its offset in the blob area plus one (0 for
 * NULL) and its length.  Strings are NUL-ended in the blobs; byte ranges
 * are too, except a collection element's, which is a slice of its
 * collection's bytes, as in a loaded store.  The reader checks every
 * word, offset, length and count against what is left before it uses
 * it, requires what the request path takes for granted (every body's
 * bytes and ETag, one per language, ids where a collection has them, a
 * detail page per element), and requires the tape to end where the walk
 * ends.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>

#include "profile_compiled_int.h"
#include "profile_page.h"
#include "profile_schema.h"

/* More languages than any file has (the tape's bound on a count). */
#define MAX_LANGS PC_MAX_LANGS

static void put(pc_wr_t *w, apr_uint64_t v)
{
    if (w->n == w->cap) {
        apr_size_t cap = w->cap ? w->cap * 2 : 4096;
        apr_uint64_t *t = realloc(w->tape, cap * sizeof(*t));

        if (t == NULL) {
            w->failed = 1;
            return;
        }
        w->tape = t;
        w->cap = cap;
    }
    w->tape[w->n++] = v;
}

/* Appends len bytes and a NUL to the blobs; their offset plus one. */
apr_uint64_t pc_blob(pc_wr_t *w, const void *data, apr_size_t len)
{
    apr_uint64_t at = w->blen;

    if (w->failed
        || (len > 0 && apr_file_write_full(w->f, data, len, NULL)
                       != APR_SUCCESS)
        || apr_file_putc('\0', w->f) != APR_SUCCESS) {
        w->failed = 1;
        return 0;
    }
    w->blen += len + 1;
    return at + 1;
}

/* A byte range; one inside the current collection's bytes is written
 * as a slice of them (slices 1), as a loaded store has it. */
static void put_range(pc_wr_t *w, const char *data, apr_size_t len,
                      int slices)
{
    int i;

    if (data == NULL) {
        put(w, 0);
        put(w, 0);
        return;
    }
    for (i = 0; slices && i < w->nslices; i++) {
        if (data >= w->slice_of[i]
            && data + len <= w->slice_of[i] + w->slice_len[i]) {
            put(w, w->slice_at[i] + (apr_uint64_t)(data - w->slice_of[i]));
            put(w, len);
            return;
        }
    }
    put(w, pc_blob(w, data, len));
    put(w, len);
}

static void put_str(pc_wr_t *w, const char *s)
{
    put_range(w, s, s ? strlen(s) : 0, 0);
}

static void put_body(pc_wr_t *w, const profile_body_t *b)
{
    int e;

    put_range(w, b->data, b->len, 1);
    put_str(w, b->etag);
    put_range(w, (const char *)b->sha1, sizeof(b->sha1), 0);
    put(w, (apr_uint64_t)b->fell_back);
    for (e = 1; e < PROFILE_ENC_COUNT; e++) {
        put_range(w, b->coded[e].data, b->coded[e].len, 0);
        put_str(w, b->coded[e].etag);
    }
}

static void put_bodies(pc_wr_t *w, const profile_body_t *b, apr_size_t n)
{
    apr_size_t i;

    put(w, b ? n : 0);
    for (i = 0; b && i < n; i++) {
        put_body(w, &b[i]);
    }
}

static void put_coll(pc_wr_t *w, const profile_store_t *st,
                     const profile_coll_t *c)
{
    int i, l;

    put(w, (apr_uint64_t)c->nitems);
    put(w, c->by_id != NULL);
    put(w, c->all ? (apr_uint64_t)st->nlangs : 0);
    /* Its elements' bytes are slices of these. */
    w->nslices = 0;
    for (l = 0; c->all && l < st->nlangs; l++) {
        apr_size_t at = w->n;

        put_body(w, &c->all[l]);
        if (!w->failed && c->all[l].data != NULL
            && w->nslices < PC_MAX_LANGS) {
            w->slice_of[w->nslices] = c->all[l].data;
            w->slice_len[w->nslices] = c->all[l].len;
            w->slice_at[w->nslices++] = w->tape[at];
        }
    }
    for (i = 0; i < c->nitems; i++) {
        const profile_item_t *it = &c->items[i];

        put_str(w, it->id);
        put_bodies(w, it->body, (apr_size_t)st->nlangs);
        put(w, it->keys ? 1 : 0);
        for (l = 0; it->keys && l < st->nlangs; l++) {
            const char **k = it->keys[l];
            apr_size_t n = 0;

            while (k && k[n]) {
                n++;
            }
            put(w, n);
            for (n = 0; k && k[n]; n++) {
                put_str(w, k[n]);
            }
        }
    }
    w->nslices = 0;
}

void pc_put_store(pc_wr_t *w, const profile_store_t *st)
{
    int l, k, i;

    put(w, (apr_uint64_t)st->compressed);
    put(w, (apr_uint64_t)st->nlangs);
    put(w, (apr_uint64_t)(st->fallback + 1));
    put(w, (apr_uint64_t)st->npages);
    for (l = 0; l < st->nlangs; l++) {
        put_str(w, st->langs[l]);
        put_str(w, st->fell_back_language ? st->fell_back_language[l]
                   : NULL);
        put(w, st->untranslated ? st->untranslated[l] : 0);
    }
    put_bodies(w, st->profile, (apr_size_t)st->nlangs);
    put_bodies(w, st->contact, (apr_size_t)st->nlangs);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        put_coll(w, st, &st->coll[k]);
    }
    for (i = 0; i < st->npages; i++) {
        const profile_page_t *pg = &st->pages[i];

        put_str(w, pg->where.url);
        put_str(w, pg->where.assets);
        put_bodies(w, pg->home, (apr_size_t)st->nlangs);
        put_bodies(w, pg->missing, (apr_size_t)st->nlangs);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            put_bodies(w, pg->detail[k], (apr_size_t)st->coll[k].nitems
                                         * (apr_size_t)st->nlangs);
        }
    }
}

typedef struct {
    const char *tape;               /* words, maybe not aligned */
    apr_uint64_t n, i;
    const char *blob;
    apr_uint64_t blen;
    int bad;
    apr_pool_t *p;
} rd_t;

static apr_uint64_t get(rd_t *r)
{
    if (r->bad || r->i >= r->n) {
        r->bad = 1;
        return 0;
    }
    {
        apr_uint64_t v;

        memcpy(&v, r->tape + 8 * r->i++, sizeof(v));
        return v;
    }
}

/* A count of things that take at least `words` words each. */
static apr_size_t get_count(rd_t *r, apr_uint64_t words)
{
    apr_uint64_t c = get(r);

    if (r->bad || c > (r->n - r->i) / words) {
        r->bad = 1;
        return 0;
    }
    return (apr_size_t)c;
}

static const char *get_range(rd_t *r, apr_size_t *len, int str)
{
    apr_uint64_t off = get(r), n = get(r);

    *len = 0;
    if (r->bad || off == 0) {
        r->bad |= n != 0;
        return NULL;
    }
    off--;
    if (off > r->blen || n > r->blen - off
        || (str && (n == r->blen - off || r->blob[off + n] != '\0'
                    || memchr(r->blob + off, '\0', (size_t)n) != NULL))) {
        r->bad = 1;
        return NULL;
    }
    *len = (apr_size_t)n;
    return r->blob + off;
}

static const char *get_str(rd_t *r)
{
    apr_size_t n;

    return get_range(r, &n, 1);
}

#define BODY_WORDS (2 + 2 + 2 + 1 + 4 * (PROFILE_ENC_COUNT - 1))

static void get_body(rd_t *r, profile_body_t *b)
{
    apr_size_t n;
    const char *sha1;
    int e;

    b->data = get_range(r, &b->len, 0);
    b->etag = get_str(r);
    sha1 = get_range(r, &n, 0);
    if (sha1 != NULL && n == sizeof(b->sha1)) {
        memcpy(b->sha1, sha1, sizeof(b->sha1));
    }
    else {
        r->bad = 1;
    }
    b->fell_back = get(r) != 0;
    for (e = 1; e < PROFILE_ENC_COUNT; e++) {
        b->coded[e].data = get_range(r, &b->coded[e].len, 0);
        b->coded[e].etag = get_str(r);
    }
}

/* `want` bodies, each with its bytes and ETag; or, where the file has
 * none and they are not `needed` (a place they are never looked up),
 * NULL. */
static profile_body_t *get_bodies(rd_t *r, apr_size_t want, int needed)
{
    apr_size_t n = get_count(r, BODY_WORDS), i;
    profile_body_t *b;

    if (r->bad || (n == 0 && !needed)) {
        return NULL;
    }
    if (n != want || n == 0) {
        r->bad = 1;
        return NULL;
    }
    b = apr_pcalloc(r->p, n * sizeof(*b));
    for (i = 0; i < n && !r->bad; i++) {
        get_body(r, &b[i]);
        r->bad |= b[i].data == NULL || b[i].etag == NULL;
    }
    return b;
}

static void get_coll(rd_t *r, profile_coll_t *c, int k, int nlangs)
{
    int has_ids, i, l;

    c->nitems = (int)get_count(r, 4);
    has_ids = get(r) != 0;
    c->all = get_bodies(r, (apr_size_t)nlangs, 1);
    c->items = apr_pcalloc(r->p, (apr_size_t)c->nitems * sizeof(*c->items)
                                 + 1);
    c->by_id = has_ids ? apr_hash_make(r->p) : NULL;
    for (i = 0; i < c->nitems && !r->bad; i++) {
        profile_item_t *it = &c->items[i];

        it->id = get_str(r);
        it->body = get_bodies(r, (apr_size_t)nlangs, 1);
        r->bad |= has_ids && it->id == NULL;
        if (c->by_id != NULL && it->id != NULL) {
            apr_hash_set(c->by_id, it->id, APR_HASH_KEY_STRING, it);
        }
        /* The folded keys, where the filters search (§8). */
        if ((get(r) != 0) != (profile_schema_colls[k].search[0] != NULL)) {
            r->bad = 1;
            break;
        }
        if (profile_schema_colls[k].search[0] == NULL) {
            continue;
        }
        it->keys = apr_palloc(r->p, (apr_size_t)nlangs * sizeof(char **));
        for (l = 0; l < nlangs && !r->bad; l++) {
            apr_size_t n = get_count(r, 2), j;

            it->keys[l] = apr_palloc(r->p, (n + 1) * sizeof(char *));
            for (j = 0; j < n; j++) {
                it->keys[l][j] = get_str(r);
            }
            it->keys[l][n] = NULL;
        }
    }
}

static profile_store_t *get_store(rd_t *r)
{
    profile_store_t *st = apr_pcalloc(r->p, sizeof(*st));
    int l, k, i;

    st->compressed = get(r) != 0;
    st->nlangs = (int)get(r);
    st->fallback = (int)get(r) - 1;
    st->npages = (int)get_count(r, 2);
    if (st->nlangs < 1 || st->nlangs > MAX_LANGS
        || st->fallback < -1 || st->fallback >= st->nlangs) {
        r->bad = 1;
        return NULL;
    }
    st->langs = apr_palloc(r->p, (apr_size_t)st->nlangs * sizeof(char *));
    st->fell_back_language = apr_palloc(r->p, (apr_size_t)st->nlangs
                                              * sizeof(char *));
    st->untranslated = apr_palloc(r->p, (apr_size_t)st->nlangs
                                        * sizeof(apr_size_t));
    for (l = 0; l < st->nlangs; l++) {
        st->langs[l] = get_str(r);
        st->fell_back_language[l] = get_str(r);
        st->untranslated[l] = (apr_size_t)get(r);
        r->bad |= st->langs[l] == NULL || st->fell_back_language[l] == NULL;
    }
    st->profile = get_bodies(r, (apr_size_t)st->nlangs, 1);
    st->contact = get_bodies(r, (apr_size_t)st->nlangs, 1);
    for (k = 0; k < PROFILE_COLL_COUNT && !r->bad; k++) {
        get_coll(r, &st->coll[k], k, st->nlangs);
    }
    st->pages = apr_pcalloc(r->p, (apr_size_t)st->npages
                                  * sizeof(profile_page_t) + 1);
    for (i = 0; i < st->npages && !r->bad; i++) {
        profile_page_t *pg = &st->pages[i];

        pg->where.url = get_str(r);
        pg->where.assets = get_str(r);
        pg->home = get_bodies(r, (apr_size_t)st->nlangs, 1);
        pg->missing = get_bodies(r, (apr_size_t)st->nlangs, 1);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            /* (The page of an experience record or a case study.) */
            pg->detail[k] = get_bodies(r, (apr_size_t)st->coll[k].nitems
                                          * (apr_size_t)st->nlangs,
                                       st->coll[k].nitems > 0
                                       && (k == PROFILE_COLL_EXPERIENCE
                                           || k == PROFILE_COLL_CASE_STUDIES));
        }
    }
    return r->bad || r->i != r->n ? NULL : st;
}

profile_store_t *pc_get_store(const char *tape, apr_uint64_t n,
                              const char *blob, apr_uint64_t blen,
                              apr_pool_t *p)
{
    rd_t r = {.tape = tape, .n = n, .i = 0, .blob = blob, .blen = blen,
              .bad = 0, .p = p};

    return get_store(&r);
}
