/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_parts.c -- what every page is made of (profile_page_int.h):
 * a data value as served in the page's language, marked lang= where it is
 * the fallback's; the page's own words; the head, the bar with the
 * language switch, the footer.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <string.h>

#include <apr_strings.h>
#include <apr_time.h>

#include "profile_page_int.h"
#include "profile_schema.h"

/* A meta description longer than this is cut at a word. */
#define DESCRIPTION_MAX 300

const char *pg_text(pg_t *g, json_t *v, int *fell)
{
    int f = 0;
    const char *s = json_string_value(profile_schema_served(v, g->lang,
                                                            g->fb, &f));

    if (fell != NULL) {
        *fell = f;
    }
    g->fell |= f;
    return s ? s : "";
}

void pg_fell_attr(pg_t *g, int fell)
{
    if (fell) {
        profile_html_cat(g->b, " lang=\"", g->fb, "\"", NULL);
    }
}

/* <tag class="cls">v</tag>, marked when v is served in the fallback. */
void pg_el(pg_t *g, const char *tag, const char *cls, json_t *v)
{
    int fell;
    const char *s = pg_text(g, v, &fell);

    profile_html_cat(g->b, "<", tag, NULL);
    if (cls != NULL) {
        profile_html_cat(g->b, " class=\"", cls, "\"", NULL);
    }
    pg_fell_attr(g, fell);
    profile_html_raw(g->b, ">");
    profile_html_esc(g->b, s);
    profile_html_cat(g->b, "</", tag, ">\n", NULL);
}

/* The same, skipped when v is empty in this language. */
void pg_el_opt(pg_t *g, const char *tag, const char *cls, json_t *v)
{
    if (*pg_text(g, v, NULL)) {
        pg_el(g, tag, cls, v);
    }
}

/* A link to url (empty: the text alone) around text value v. */
void pg_link(pg_t *g, const char *cls, const char *rel, const char *url,
                 json_t *v)
{
    int fell;
    const char *s = pg_text(g, v, &fell);

    if (url == NULL || *url == '\0') {
        profile_html_cat(g->b, "<span class=\"", cls, "\"", NULL);
        pg_fell_attr(g, fell);
        profile_html_raw(g->b, ">");
        profile_html_esc(g->b, s);
        profile_html_raw(g->b, "</span>");
        return;
    }
    profile_html_cat(g->b, "<a class=\"", cls, "\"", NULL);
    if (rel != NULL) {
        profile_html_cat(g->b, " rel=\"", rel, "\"", NULL);
    }
    pg_fell_attr(g, fell);
    profile_html_raw(g->b, " href=\"");
    profile_html_esc(g->b, url);
    profile_html_raw(g->b, "\">");
    profile_html_esc(g->b, s);
    profile_html_raw(g->b, "</a>");
}

const char *pg_word(pg_t *g, profile_page_word_e w)
{
    return profile_page_word(w, g->lang, NULL);
}

/* The items of text list v as <li>s inside <ul class="cls">. */
void pg_list(pg_t *g, const char *cls, json_t *v)
{
    int fell = 0;
    json_t *items = profile_schema_served_list(v, g->lang, g->fb, &fell);
    json_t *it;
    size_t i;

    if (json_array_size(items) == 0) {
        return;
    }
    profile_html_cat(g->b, "<ul class=\"", cls, "\"", NULL);
    pg_fell_attr(g, fell);
    profile_html_raw(g->b, ">\n");
    json_array_foreach(items, i, it) {
        pg_el(g, "li", NULL, it);
    }
    profile_html_raw(g->b, "</ul>\n");
}

size_t pg_count(pg_t *g, const char *key)
{
    return json_array_size(json_object_get(g->root, key));
}

const char *pg_url_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s ? s : "";
}

/* ------------------------------------------------------------------ */
/* Shared parts */

/* "<!DOCTYPE html>" to the end of <head>'s metadata. */
void pg_begin(pg_t *g, const char *title, const char *description,
                  const char *url, const char *const *alt,
                  const char *xdefault)
{
    profile_html_cat(g->b, "<!DOCTYPE html>\n<html lang=\"", g->lang,
                     "\">\n<head>\n", NULL);
    profile_page_head(g->b, g->st, g->l, title, description, url, alt,
                      xdefault, g->where->assets);
}

/* The bar: the sections' links (nav[0..n) pairs of id and word) and the
 * language switch, a link to the same page in each language (alt). */
void pg_bar(pg_t *g, const char *const *ids,
                const profile_page_word_e *names, int n,
                const char *const *alt)
{
    int i;

    profile_html_cat(g->b, "</head>\n<body>\n<a class=\"skip\" "
                     "href=\"#main\"", g->wattr, ">", pg_word(g, PW_SKIP),
                     "</a>\n<header class=\"bar\">\n", NULL);
    if (n > 0) {
        profile_html_cat(g->b, "<nav class=\"sections\" aria-label=\"",
                         pg_word(g, PW_SECTIONS), "\"", g->wattr, "><ul>\n",
                         NULL);
        for (i = 0; i < n; i++) {
            profile_html_cat(g->b, "<li><a href=\"", ids[i], "\">",
                             pg_word(g, names[i]), "</a></li>\n", NULL);
        }
        profile_html_raw(g->b, "</ul></nav>\n");
    }
    if (g->st->nlangs > 1) {
        profile_html_cat(g->b, "<nav class=\"langs\" aria-label=\"",
                         pg_word(g, PW_LANGUAGE), "\"", g->wattr, "><ul>\n",
                         NULL);
        for (i = 0; i < g->st->nlangs; i++) {
            const char *tag = g->st->langs[i];

            profile_html_cat(g->b, "<li><a lang=\"", tag, "\" hreflang=\"",
                             tag, "\" href=\"", NULL);
            profile_html_esc(g->b, alt[i]);
            profile_html_cat(g->b, "\"", i == g->l
                             ? " aria-current=\"page\"" : "", ">",
                             profile_page_lang_name(tag), "</a></li>\n",
                             NULL);
        }
        profile_html_raw(g->b, "</ul></nav>\n");
    }
    profile_html_raw(g->b, "</header>\n");
}

void pg_foot(pg_t *g)
{
    apr_time_exp_t tm;
    char date[16];

    apr_time_exp_gmt(&tm, g->st->mtime);
    apr_snprintf(date, sizeof(date), "%04d-%02d-%02d", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday);
    profile_html_cat(g->b, "<footer class=\"foot\">\n<p><span", g->wattr,
                     ">", pg_word(g, PW_UPDATED), "</span> <time datetime=\"",
                     date, "\">", date, "</time></p>\n</footer>\n"
                     "</body>\n</html>\n", NULL);
}

/* The person's name, in plain text. */
const char *pg_name_of(pg_t *g)
{
    return pg_text(g, json_object_get(json_object_get(g->root, "profile"),
                                   "name"), NULL);
}

/* s cut to DESCRIPTION_MAX bytes at a space, with an ellipsis. */
const char *pg_shortened(const char *s, apr_pool_t *p)
{
    apr_size_t n = strlen(s);

    if (n <= DESCRIPTION_MAX) {
        return s;
    }
    n = DESCRIPTION_MAX;
    while (n > DESCRIPTION_MAX / 2 && s[n] != ' ') {
        n--;
    }
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
        n--;                    /* never inside a UTF-8 sequence */
    }
    return apr_pstrcat(p, apr_pstrmemdup(p, s, n), "…", NULL);
}

/* The URLs of the same page in every language: url + lang + "/" + rest. */
const char **pg_alternates(pg_t *g, const char *rest)
{
    const char **alt = apr_palloc(g->p, sizeof(char *)
                                        * (apr_size_t)g->st->nlangs);
    int i;

    for (i = 0; i < g->st->nlangs; i++) {
        alt[i] = apr_pstrcat(g->p, g->where->url, g->st->langs[i], "/",
                             rest, NULL);
    }
    return alt;
}
