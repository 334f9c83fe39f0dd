/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page.c -- the profile's pages (CONTRACT §11), rendered at load
 * from the validated tree, in every language: the whole profile (every
 * record's content, complete without JavaScript), a page per experience
 * record and per case study, and a 404 page.  The markup's classes are
 * documented and stable (docs/page.md): restyling needs CSS only.
 *
 * A section, its nav link and its controls are absent when the data has
 * nothing for them; a text served in the fallback language carries
 * lang= of the fallback, and the page's own words, where the page has
 * none in the language, lang="en".
 * This file renders each place's pages in every language; the files
 * profile_page.h lists make them.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>

#include "profile_finish.h"
#include "profile_page_int.h"

/* b's bytes as `body`, queued for its ETag and coded forms. */
static void keep(profile_body_t *body, pg_t *g, profile_finish_t *w,
                 apr_pool_t *p)
{
    profile_html_t *b = g->b;

    body->data = apr_pstrmemdup(p, b->buf ? b->buf : "", b->len);
    body->len = b->len;
    body->fell_back = g->fell;
    g->fell = 0;
    profile_finish_later(w, body, 1, 1);
    b->len = 0;
}

static void render_where(profile_page_t *pg, profile_store_t *st,
                         json_t *root, profile_finish_t *w, apr_pool_t *p)
{
    profile_html_t b = {.buf = NULL, .len = 0, .cap = 0, .pool = p};
    static const struct {
        int coll;
        const char *key;
        void (*page)(pg_t *, json_t *);
    } details[] = {
        {PROFILE_COLL_EXPERIENCE, "experience", pg_experience_page},
        {PROFILE_COLL_CASE_STUDIES, "caseStudies", pg_case_page},
    };
    apr_pool_t *tmp;
    int l, d, nl = st->nlangs;

    apr_pool_create(&tmp, p);
    pg->home = apr_pcalloc(p, sizeof(profile_body_t) * (apr_size_t)nl);
    pg->missing = apr_pcalloc(p, sizeof(profile_body_t) * (apr_size_t)nl);
    for (d = 0; d < 2; d++) {
        pg->detail[details[d].coll] = apr_pcalloc(p, sizeof(profile_body_t)
            * (json_array_size(json_object_get(root, details[d].key)) + 1)
            * (apr_size_t)nl);
    }
    for (l = 0; l < nl; l++) {
        pg_t g = {.b = &b, .st = st, .root = root, .l = l,
                  .lang = st->langs[l], .where = &pg->where, .p = tmp};
        json_t *it;
        size_t i;

        g.fb = st->fallback >= 0 ? st->langs[st->fallback] : NULL;
        g.wattr = profile_page_has_words(g.lang) ? "" : " lang=\"en\"";
        g.home = apr_pstrcat(tmp, pg->where.url, g.lang, "/", NULL);
        pg_home_page(&g, pg->where.url);
        keep(&pg->home[l], &g, w, p);
        pg_missing_page(&g);
        keep(&pg->missing[l], &g, w, p);
        for (d = 0; d < 2; d++) {
            json_array_foreach(json_object_get(root, details[d].key), i,
                               it) {
                details[d].page(&g, it);
                keep(&pg->detail[details[d].coll][i * (size_t)nl
                                                  + (size_t)l], &g, w, p);
            }
        }
        apr_pool_clear(tmp);
    }
    free(b.buf);
    apr_pool_destroy(tmp);
}

void profile_page_render(profile_store_t *st, json_t *root,
                         const profile_page_where_t *where, int n,
                         struct profile_finish *w, apr_pool_t *p)
{
    int i;

    st->npages = n;
    st->pages = n > 0 ? apr_pcalloc(p, sizeof(profile_page_t)
                                       * (apr_size_t)n) : NULL;
    for (i = 0; i < n; i++) {
        st->pages[i].where.url = apr_pstrdup(p, where[i].url);
        st->pages[i].where.assets = apr_pstrdup(p, where[i].assets);
        render_where(&st->pages[i], st, root, w, p);
    }
}

const profile_page_t *profile_page_find(const profile_store_t *st,
                                        const char *url)
{
    int i;

    for (i = 0; i < st->npages; i++) {
        if (strcmp(st->pages[i].where.url, url) == 0) {
            return &st->pages[i];
        }
    }
    return NULL;
}

/* The number of bodies profile_page_render() queues for n places. */
apr_size_t profile_page_bodies(json_t *root, int nlangs, int n)
{
    return (apr_size_t)n * (apr_size_t)nlangs
           * (2 + json_array_size(json_object_get(root, "experience"))
              + json_array_size(json_object_get(root, "caseStudies")));
}
