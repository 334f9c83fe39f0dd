/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_int.h -- what the files that render the pages share
 * (profile_page.h lists them): one page being rendered, and the parts
 * every page is made of (profile_page_parts.c).  Internal to them.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_PAGE_INT_H
#define PROFILE_PAGE_INT_H

#include <apr_pools.h>
#include <jansson.h>

#include "profile_page.h"

/* One page being rendered. */
typedef struct {
    profile_html_t *b;
    const profile_store_t *st;
    json_t *root;
    int l;                      /* the page's language */
    const char *lang;           /* st->langs[l] */
    const char *fb;             /* the fallback language, or NULL */
    const char *wattr;          /* lang= of the page's own words: "" or
                                 * " lang=\"en\"" */
    const char *home;           /* url + lang + "/" */
    const profile_page_where_t *where;
    int fell;                   /* a text was served in the fallback */
    apr_pool_t *p;
} pg_t;

/* Text value v as served in the page's language; *fell (if not NULL)
 * set to 1 where it is the fallback's, as g->fell is. */
const char *pg_text(pg_t *g, json_t *v, int *fell);
/* lang= of the fallback, where fell. */
void pg_fell_attr(pg_t *g, int fell);
/* <tag class="cls">v</tag> (cls NULL: none), marked where v is the
 * fallback's; pg_el_opt() writes nothing where v is empty. */
void pg_el(pg_t *g, const char *tag, const char *cls, json_t *v);
void pg_el_opt(pg_t *g, const char *tag, const char *cls, json_t *v);
/* A link (rel: NULL or its value) to url around text value v; an empty
 * url gives <span class="cls">. */
void pg_link(pg_t *g, const char *cls, const char *rel, const char *url,
             json_t *v);
/* The page's own word w in its language. */
const char *pg_word(pg_t *g, profile_page_word_e w);
/* The items of text list v as <ul class="cls">, nothing when empty. */
void pg_list(pg_t *g, const char *cls, json_t *v);
/* The elements of collection `key`. */
size_t pg_count(pg_t *g, const char *key);
/* Plain string member `key` of o, or "". */
const char *pg_url_of(json_t *o, const char *key);
/* "<!DOCTYPE html>" to the end of the head's metadata. */
void pg_begin(pg_t *g, const char *title, const char *description,
              const char *url, const char *const *alt, const char *xdefault);
/* The end of the head and the bar: the nav of ids[i] named names[i]
 * (n of them), and the language switch to alt[]. */
void pg_bar(pg_t *g, const char *const *ids,
            const profile_page_word_e *names, int n, const char *const *alt);
/* The footer and the end of the page. */
void pg_foot(pg_t *g);
/* The person's name, as text. */
const char *pg_name_of(pg_t *g);
/* s cut for a meta description. */
const char *pg_shortened(const char *s, apr_pool_t *p);
/* The URLs of the same page in every language: url + lang + "/" + rest. */
const char **pg_alternates(pg_t *g, const char *rest);
/* The pages (profile_page_sections.c, profile_page_detail.c), and what
 * both show of an experience record below its role: company and period,
 * context, highlights. */
void pg_role_body(pg_t *g, json_t *it);
void pg_home_page(pg_t *g, const char *xdefault);
void pg_experience_page(pg_t *g, json_t *it);
void pg_case_page(pg_t *g, json_t *it);
void pg_missing_page(pg_t *g);

#endif
