/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page.h -- the profile as an HTML page (CONTRACT §11), rendered
 * at load with the API's answers, one per language, plus a page per
 * experience record and per case study, and a 404 page per language;
 * and the answer to one request for a page, decided without httpd.
 *
 *   profile_page.c        each place's pages in every language
 *                         (profile_page_render()), made by
 *                         profile_page_parts.c, profile_page_sections.c
 *                         and profile_page_detail.c (profile_page_int.h)
 *   profile_html.c        the markup's buffer, and escaping
 *   profile_page_meta.c   what the head says: title, description,
 *                         canonical and hreflang links, Open Graph and the
 *                         schema.org JSON-LD
 *   profile_page_words.c  the page's own words in each language
 *   profile_page_api.c    which page a URL names, and the answer
 *
 * Every value from the data file is escaped for where it lands, by APR's
 * apr_escape_entity() in text and attributes and by jansson plus the
 * escapes of a <script> data block in the JSON-LD; nothing else writes
 * a value into the markup.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_PAGE_H
#define PROFILE_PAGE_H

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_store.h"

/* The pages of one store published at one place. */
typedef struct profile_page {
    profile_page_where_t where;
    profile_body_t *home;       /* [nlangs]: the whole profile */
    profile_body_t *missing;    /* [nlangs]: the 404 page */
    profile_body_t *detail[PROFILE_COLL_COUNT]; /* [nitems * nlangs] for
                                 * experience and case studies, item i in
                                 * language l at [i * nlangs + l]; NULL
                                 * for the other collections */
} profile_page_t;

/* The page's own words (profile_page_words.c). */
typedef enum {
    PW_SKIP, PW_SECTIONS, PW_LANGUAGE, PW_METRICS, PW_EXPERIENCE,
    PW_CASE_STUDIES, PW_SKILLS, PW_EDUCATION, PW_CONTACT, PW_READ_CASE,
    PW_CONTEXT, PW_PROBLEM, PW_INTERVENTION, PW_RESULT, PW_BACK,
    PW_UPDATED, PW_NOT_FOUND, PW_NOT_FOUND_TEXT, PW_UNAVAILABLE,
    PW_UNAVAILABLE_TEXT, PW_NOT_ALLOWED, PW_NOT_ALLOWED_TEXT, PW_PERMALINK,
    PW_HIGHLIGHTS, PW_LANG_NAME, PW_API,
    PW_COUNT
} profile_page_word_e;

/* Word w in language `lang` (a primary tag), or in English when the
 * page has no words in it; *english (if not NULL) is then set to 1. */
const char *profile_page_word(profile_page_word_e w, const char *lang,
                              int *english);
/* Whether the page has its own words in `lang`. */
int profile_page_has_words(const char *lang);
/* The languages the page has words in ("en", "es"), and how many. */
extern const char *const profile_page_word_langs[];
#define PROFILE_PAGE_WORD_NLANGS 2
/* The name of language `tag` in that language ("Español"), or the tag. */
const char *profile_page_lang_name(const char *tag);
/* Open Graph's locale for `tag` ("es" -> "es_ES"), or the tag. */
const char *profile_page_og_locale(const char *tag);

/* Renders the pages of `st`, whose validated tree is `root`, for each
 * place of where[0..n), into st->pages (and st->npages), queueing each
 * body on `w` for its ETag and coded forms (profile_finish.h). */
struct profile_finish;
void profile_page_render(profile_store_t *st, json_t *root,
                         const profile_page_where_t *where, int n,
                         struct profile_finish *w, apr_pool_t *p);

/* The number of bodies profile_page_render() queues for n places. */
apr_size_t profile_page_bodies(json_t *root, int nlangs, int n);

/* The pages of `st` published at `url`, or NULL. */
const profile_page_t *profile_page_find(const profile_store_t *st,
                                        const char *url);

/* ------------------------------------------------------------------ */
/* A growing buffer of markup (profile_html.c). */

typedef struct {
    char *buf;                  /* malloc'd; the caller frees it */
    apr_size_t len, cap;
    apr_pool_t *pool;           /* whose abort function runs when memory
                                 * runs out */
} profile_html_t;

void profile_html_put(profile_html_t *b, const char *s, apr_size_t n);
/* Literal markup. */
void profile_html_raw(profile_html_t *b, const char *s);
/* NULL-ended pieces of literal markup. */
void profile_html_cat(profile_html_t *b, ...);
/* A value, escaped for element text and for a quoted attribute. */
void profile_html_esc(profile_html_t *b, const char *s);

/* The head's metadata (profile_page_meta.c) of page `url` in language
 * `lang` (index l of st->langs), whose alternates are alt[0..nlangs)
 * (NULL: no alternates) and whose x-default is `xdefault` (NULL: none):
 * title, description, canonical, hreflang, Open Graph.  title and
 * description are plain text. */
void profile_page_head(profile_html_t *b, const profile_store_t *st, int l,
                       const char *title, const char *description,
                       const char *url, const char *const *alt,
                       const char *xdefault, const char *assets);
/* The schema.org ProfilePage of the profile in language l, as a
 * <script type="application/ld+json"> element. */
void profile_page_ld(profile_html_t *b, const profile_store_t *st,
                     json_t *root, int l, const char *url);

#endif
