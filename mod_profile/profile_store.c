/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_store.c -- loading the data file (CONTRACT §9), orchestrating
 * the other parts: read it, parse it with jansson (duplicate keys
 * rejected), validate it (profile_validate.c), render each
 * representation once per language (profile_render.c) and have the
 * finishing threads hash and compress them (profile_finish.c, ETags by
 * profile_etag.c); collections' ETags and the folded search keys the
 * filters use (§8), a fallback's Content-Language and the untranslated
 * counts (profile_untranslated.c) are made here.  Before rendering, the
 * memory the load would take is checked against its bound
 * (profile_estimate.c).  The file is opened, and the pool it loads into
 * made, by profile_data.c.
 *
 * Pure core: no httpd headers.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_file_io.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_data.h"
#include "profile_dates.h"
#include "profile_estimate.h"
#include "profile_etag.h"
#include "profile_finish.h"
#include "profile_locate.h"
#include "profile_page.h"
#include "profile_render.h"
#include "profile_schema.h"
#include "profile_store.h"
#include "profile_text.h"
#include "profile_untranslated.h"
#include "profile_validate.h"

/* The folded search keys of element `el` of collection k, in each
 * language: every text of the fields the filters search (§8 rule 5),
 * each list's items, as served in that language (its fallback's where
 * it has none). */
static void fold_keys(profile_item_t *item, int k, json_t *el,
                      const profile_store_t *st, apr_pool_t *p)
{
    const char *fb = st->fallback >= 0 ? st->langs[st->fallback] : NULL;
    int l, fell;

    item->keys = apr_pcalloc(p, sizeof(char **) * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        apr_array_header_t *keys = apr_array_make(p, 4, sizeof(char *));
        const char *const *name;

        for (name = profile_schema_colls[k].search; *name; name++) {
            const profile_field_t *f =
                profile_schema_field(profile_schema_colls[k].fields, *name);
            json_t *v = json_object_get(el, *name);
            size_t i;
            json_t *t;

            if (f->kind == PROFILE_K_TEXTLIST) {
                /* The items served in this language only (§9). */
                json_t *list = profile_schema_served_list(v, st->langs[l],
                                                          fb, &fell);

                json_array_foreach(list, i, t) {
                    const char *s = json_string_value(
                        profile_schema_served(t, st->langs[l], fb, &fell));
                    APR_ARRAY_PUSH(keys, const char *) =
                        profile_text_fold(s, strlen(s), p);
                }
            }
            else {
                const char *s = json_string_value(
                    profile_schema_served(v, st->langs[l], fb, &fell));
                APR_ARRAY_PUSH(keys, const char *) =
                    profile_text_fold(s, strlen(s), p);
            }
        }
        APR_ARRAY_PUSH(keys, const char *) = NULL;
        item->keys[l] = (const char **)keys->elts;
    }
}

/* A collection: each element rendered once per language; the whole
 * collection is "[" + the elements joined by "," + "]", and every
 * element's body is a slice of it. */
static void render_collection(profile_store_t *st, int k, json_t *root,
                              profile_finish_t *w, apr_pool_t *p)
{
    const profile_schema_coll_t *sc = &profile_schema_colls[k];
    profile_coll_t *coll = &st->coll[k];
    json_t *list = json_object_get(root, sc->key);
    int l, has_ids = sc->fields[0].kind == PROFILE_K_ID;
    size_t i, n = json_array_size(list);
    apr_size_t *offs = malloc(sizeof(apr_size_t) * (n + 1) * 3);
    profile_sbuf_t b = {.buf = NULL, .len = 0, .cap = 0, .pool = p,
                        .fallback = st->fallback >= 0
                                    ? st->langs[st->fallback] : NULL};
    json_t *el;

    if (offs == NULL) {
        profile_out_of_memory(p);
    }
    coll->nitems = (int)n;
    coll->items = apr_pcalloc(p, sizeof(profile_item_t) * (n + 1));
    coll->all = apr_pcalloc(p, sizeof(profile_body_t) * (size_t)st->nlangs);
    coll->by_id = has_ids ? apr_hash_make(p) : NULL;

    json_array_foreach(list, i, el) {
        profile_item_t *item = &coll->items[i];

        item->body = apr_pcalloc(p, sizeof(profile_body_t)
                                    * (size_t)st->nlangs);
        if (has_ids) {
            item->id = apr_pstrdup(p, json_string_value(
                                          json_object_get(el, "id")));
            apr_hash_set(coll->by_id, item->id, APR_HASH_KEY_STRING, item);
        }
        if (sc->search[0] != NULL) {
            fold_keys(item, k, el, st, p);
        }
    }
    for (l = 0; l < st->nlangs; l++) {
        profile_body_t *all = &coll->all[l];
        char *data;

        b.len = 0;
        b.fell = 0;
        profile_render_array(&b, sc->fields, list, st->langs[l], offs);
        data = apr_palloc(p, b.len + 1);
        memcpy(data, b.buf, b.len);
        data[b.len] = '\0';
        all->data = data;
        all->len = b.len;
        all->fell_back = b.fell;
        profile_finish_later(w, all, 0, 1);
        for (i = 0; i < n; i++) {
            profile_body_t *ib = &coll->items[i].body[l];

            ib->data = data + offs[3 * i];
            ib->len = offs[3 * i + 1];
            ib->fell_back = (int)offs[3 * i + 2];
            profile_finish_later(w, ib, 1, sc->alone);
        }
    }
    free(b.buf);
    free(offs);
}

/* A collection's ETag, like a filtered one's, comes from its elements'
 * hashes (profile_etag_joined): a filter choosing every element gives
 * the same bytes and the same ETag, and no hashing of the whole bytes. */
static void collection_etags(profile_store_t *st, apr_pool_t *p)
{
    apr_pool_t *tmp;
    int k, l, i;

    apr_pool_create(&tmp, p);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        profile_coll_t *c = &st->coll[k];
        const profile_body_t **bodies =
            apr_palloc(tmp, sizeof(*bodies) * (apr_size_t)(c->nitems + 1));

        for (l = 0; l < st->nlangs; l++) {
            for (i = 0; i < c->nitems; i++) {
                bodies[i] = &c->items[i].body[l];
            }
            c->all[l].etag = profile_etag_joined(bodies, c->nitems, p);
        }
    }
    apr_pool_destroy(tmp);
}

static void render_object_route(profile_body_t **out, profile_store_t *st,
                                 const profile_field_t *fields, json_t *src,
                                 profile_finish_t *w, apr_pool_t *p)
{
    profile_sbuf_t b = {.buf = NULL, .len = 0, .cap = 0, .pool = p,
                        .fallback = st->fallback >= 0
                                    ? st->langs[st->fallback] : NULL};
    int l;

    *out = apr_pcalloc(p, sizeof(profile_body_t) * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        profile_body_t *body = &(*out)[l];

        b.len = 0;
        b.fell = 0;
        profile_render_object(&b, fields, src, st->langs[l]);
        body->data = apr_pstrmemdup(p, b.buf, b.len);
        body->len = b.len;
        body->fell_back = b.fell;
        profile_finish_later(w, body, 1, 1);
    }
    free(b.buf);
}

/* The file's fallback, what a body that falls back on it says it is in
 * (CONTRACT §4: "es, en"), and its untranslated texts. */
static void set_languages(profile_store_t *st, json_t *root, apr_pool_t *p)
{
    int l, fb = profile_schema_fallback(root, st->langs, st->nlangs);

    st->fallback = fb;
    st->fell_back_language = apr_pcalloc(p, sizeof(char *)
                                            * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        st->fell_back_language[l] = fb < 0 || l == fb ? st->langs[l]
            : apr_pstrcat(p, st->langs[l], ", ", st->langs[fb], NULL);
    }
    st->untranslated = profile_untranslated_count(root, st->langs,
                                                  st->nlangs, p);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static const profile_load_opts_t default_opts = {
    .render = 1, .compress = 0, .max_size = 0, .problems = NULL,
    .pages = NULL, .npages = 0, .bytes = NULL, .len = NULL
};

/* A refusal: *errmsg says the problems; the caller's list gets them. */
static apr_status_t refused(const char **errmsg,
                            const profile_problems_t *problems,
                            const profile_load_opts_t *o, const char *name,
                            apr_pool_t *p)
{
    *errmsg = profile_data_problems_message(problems, PROFILE_PROBLEMS_SHOWN,
                                            name, p);
    if (o->problems != NULL) {
        profile_problems_cat(o->problems, problems);
    }
    return APR_EINVAL;
}

/* A refusal for one problem with neither line nor path: what makes the
 * whole file unusable, or too big. */
static apr_status_t refused_whole(const char **errmsg,
                                  const profile_load_opts_t *o,
                                  const char *name, apr_status_t rv,
                                  const char *text, apr_pool_t *p)
{
    profile_problems_t *problems = profile_problems_make(p, 1);
    profile_data_problem_t *pr = profile_problems_add(problems);

    pr->line = pr->column = 0;
    pr->path = NULL;
    pr->text = text;
    refused(errmsg, problems, o, name, p);
    return rv;
}

/* How many problems a refusal keeps: what the caller keeps, and at
 * least the ones its message shows. */
static int problems_kept(const profile_load_opts_t *o)
{
    return o->problems != NULL && o->problems->keep > PROFILE_PROBLEMS_SHOWN
           ? o->problems->keep : PROFILE_PROBLEMS_SHOWN;
}

apr_status_t profile_store_parse(profile_store_t **out, const char **errmsg,
                                 const char *buf, apr_size_t len,
                                 const char *name, apr_time_t mtime,
                                 apr_pool_t *p)
{
    return profile_store_parse_opts(out, errmsg, buf, len, name, mtime,
                                    NULL, p);
}

apr_status_t profile_store_parse_opts(profile_store_t **out,
                                      const char **errmsg,
                                      const char *buf, apr_size_t len,
                                      const char *name, apr_time_t mtime,
                                      const profile_load_opts_t *o,
                                      apr_pool_t *p)
{
    json_error_t jerr;
    json_t *root = NULL;
    profile_store_t *st;
    apr_status_t rv = APR_SUCCESS;
    profile_problems_t *problems;
    apr_size_t njobs;
    profile_finish_t *w;
    const char **langs;
    const char *too_big;
    profile_estimate_t est;
    profile_parse_estimate_t pest;
    int k, nlangs;

    if (o == NULL) {
        o = &default_opts;
    }
    *out = NULL;
    /* Before the parse, one pass over the text: a file whose tree would
     * not fit its bound is refused before it is built (CONTRACT §9:
     * refusing is bounded as loading is). */
    profile_estimate_parse(&pest, buf, len);
    if ((too_big = profile_estimate_parse_problem(&pest, len, p)) != NULL) {
        return refused_whole(errmsg, o, name, APR_EINVAL, too_big, p);
    }
    problems = profile_problems_make(p, problems_kept(o));
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        profile_data_problem_t *pr = profile_problems_add(problems);

        pr->line = jerr.line;
        pr->column = jerr.column;
        pr->path = NULL;
        pr->text = apr_pstrcat(p, "invalid JSON: ", jerr.text, NULL);
        return refused(errmsg, problems, o, name, p);
    }
    if (profile_validate(root, &langs, &nlangs, problems, p) != 0) {
        if (profile_schema_is_jsonresume(root)) {
            rv = refused_whole(errmsg, o, name, APR_EINVAL, apr_pstrcat(p,
                               "a JSON Resume document, not a data file: "
                               "make one with profilectl import-jsonresume ",
                               name, " -o profile.json", NULL), p);
            goto leave;
        }
        /* The tree first: locating reads the text alone. */
        json_decref(root);
        root = NULL;
        profile_data_problems_locate(problems, buf, len, p);
        rv = refused(errmsg, problems, o, name, p);
        goto leave;
    }
    /* The periods a record leaves to its dates (CONTRACT §9), before
     * anything counts or renders its texts. */
    profile_date_periods(root, langs, nlangs);
    /* Before the expensive work, the same verdict validating only
     * (configtest) as loading: the estimate counts coded forms always. */
    profile_estimate(&est, root, langs, nlangs, len, o->npages);
    if ((too_big = profile_estimate_problem(&est, len, p)) != NULL) {
        rv = refused_whole(errmsg, o, name, APR_EINVAL, too_big, p);
        goto leave;
    }
    if (!o->render) {
        goto leave;
    }

    st = apr_pcalloc(p, sizeof(*st));
    st->path = apr_pstrdup(p, name);
    st->mtime = mtime;
    st->size = len;
    apr_md5(st->md5, buf, len);
    st->compressed = o->compress;
    st->nlangs = nlangs;
    st->langs = langs;
    set_languages(st, root, p);
    /* One job per body: profile and contact, and per collection its
     * elements and itself, in every language. */
    njobs = 2;
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        njobs += json_array_size(json_object_get(root,
                                                 profile_schema_colls[k].key))
                 + 1;
    }
    njobs += profile_page_bodies(root, 1, o->npages);
    /* From here to profile_finish_all() no return: that joins the
     * threads (profile_finish.c's fork-safety invariant). */
    w = profile_finish_start(njobs * (apr_size_t)st->nlangs, len,
                             o->compress, p);
    render_object_route(&st->profile, st, profile_schema_profile,
                        json_object_get(root, "profile"), w, p);
    render_object_route(&st->contact, st, profile_schema_contact,
                        json_object_get(root, "contact"), w, p);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        render_collection(st, k, root, w, p);
    }
    profile_page_render(st, root, o->pages, o->npages, w, p);
    json_decref(root);
    root = NULL;
    profile_finish_all(w, p);
    collection_etags(st, p);
    *out = st;

leave:
    json_decref(root);
    return rv;
}

apr_status_t profile_store_load(profile_store_t **out, const char **errmsg,
                                const char *path,
                                const profile_load_opts_t *o,
                                apr_pool_t *p)
{
    apr_file_t *f = NULL;
    apr_finfo_t fi;
    apr_status_t rv;
    apr_pool_t *tmp;
    char *buf = NULL;
    apr_size_t got = 0;
    apr_time_t read_at;
    const char *why;
    char ebuf[256];

    if (o == NULL) {
        o = &default_opts;
    }
    *out = NULL;
    if (o->read != NULL) {
        memset(o->read, 0, sizeof(*o->read));
    }
    /* The file's bytes are needed only while parsing: in a pool with an
     * allocator of its own, so that they go back to malloc (and to the
     * system) when it is destroyed rather than staying on the free list
     * of p's allocator for as long as p lives. */
    if (profile_pool_create_own(&tmp, p) != APR_SUCCESS) {
        return refused_whole(errmsg, o, path, APR_ENOMEM, "out of memory",
                             p);
    }
    rv = profile_data_open(&f, &fi, &why, path, tmp);
    if (rv != APR_SUCCESS) {
        refused_whole(errmsg, o, path, rv, apr_pstrdup(p, why), p);
        goto leave;
    }
    if (o->max_size > 0 && fi.size > o->max_size) {
        rv = refused_whole(errmsg, o, path, APR_EINVAL, apr_psprintf(p,
                           "the data file has %" APR_OFF_T_FMT " bytes, more "
                           "than the limit of %" APR_OFF_T_FMT
                           " (ProfileMaxDataSize)", fi.size, o->max_size),
                           p);
        goto leave;
    }
    /* Bytes to keep are read once, into the store's pool (which the
     * caller destroys after a refusal). */
    buf = apr_palloc(o->bytes ? p : tmp, (apr_size_t)fi.size + 1);
    read_at = apr_time_now();
    rv = apr_file_read_full(f, buf, (apr_size_t)fi.size, &got);
    if (rv != APR_SUCCESS && rv != APR_EOF) {
        refused_whole(errmsg, o, path, rv, apr_pstrcat(p, "cannot read the "
                      "data file: ", apr_strerror(rv, ebuf, sizeof(ebuf)),
                      NULL), p);
        goto leave;
    }
    rv = profile_store_parse_opts(out, errmsg, buf, got, path, fi.mtime, o,
                                  p);
    if (rv == APR_SUCCESS && *out != NULL) {
        (*out)->dev = (apr_uint64_t)fi.device;
        (*out)->ino = (apr_uint64_t)fi.inode;
        (*out)->ctime = fi.ctime;
        (*out)->read_at = read_at;
    }
    if (o->read != NULL) {
        o->read->size = got;
        o->read->dev = (apr_uint64_t)fi.device;
        o->read->ino = (apr_uint64_t)fi.inode;
        o->read->mtime = fi.mtime;
        o->read->ctime = fi.ctime;
        o->read->read_at = read_at;
        if (rv == APR_SUCCESS && *out != NULL) {
            memcpy(o->read->md5, (*out)->md5, sizeof(o->read->md5));
        }
        else {
            apr_md5(o->read->md5, buf, got);
        }
    }
    if (rv == APR_SUCCESS && o->bytes != NULL) {
        buf[got] = '\0';
        *o->bytes = buf;
        *o->len = got;
    }

leave:
    apr_pool_destroy(tmp);
    return rv;
}
