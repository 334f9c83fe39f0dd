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
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <apr_escape.h>
#include <apr_strings.h>
#include <apr_time.h>

#include "profile_finish.h"
#include "profile_page.h"
#include "profile_render.h"
#include "profile_schema.h"

/* Filters help only past these counts (a search over a dozen skills,
 * a company filter over two companies, are chrome). */
#define FILTER_MIN_COMPANIES 3
#define FILTER_MIN_SKILLS 24
/* A meta description longer than this is cut at a word. */
#define DESCRIPTION_MAX 300

/* ------------------------------------------------------------------ */
/* The buffer */

/* Room for n more bytes (and a NUL) at b->buf + b->len. */
static void reserve(profile_html_t *b, apr_size_t n)
{
    apr_size_t cap = b->cap ? b->cap : 4096;
    char *nb;

    if (b->len + n + 1 <= b->cap) {
        return;
    }
    while (cap < b->len + n + 1) {
        cap *= 2;
    }
    if ((nb = realloc(b->buf, cap)) == NULL) {
        profile_out_of_memory(b->pool);
    }
    b->buf = nb;
    b->cap = cap;
}

void profile_html_put(profile_html_t *b, const char *s, apr_size_t n)
{
    reserve(b, n);
    memcpy(b->buf + b->len, s, n);
    b->len += n;
}

void profile_html_raw(profile_html_t *b, const char *s)
{
    profile_html_put(b, s, strlen(s));
}

void profile_html_cat(profile_html_t *b, ...)
{
    va_list ap;
    const char *s;

    va_start(ap, b);
    while ((s = va_arg(ap, const char *)) != NULL) {
        profile_html_raw(b, s);
    }
    va_end(ap);
}

/* The characters HTML forbids in text (controls other than white space,
 * DEL): U+FFFD in their place.  Returns s itself when it has none. */
static const char *without_controls(const char *s, apr_pool_t *p)
{
    const unsigned char *c;
    apr_size_t bad = 0;
    char *out, *o;

    for (c = (const unsigned char *)s; *c; c++) {
        bad += (*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r')
               || *c == 0x7f;
    }
    if (bad == 0) {
        return s;
    }
    o = out = apr_palloc(p, strlen(s) + 2 * bad + 1);
    for (c = (const unsigned char *)s; *c; c++) {
        if ((*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r')
            || *c == 0x7f) {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
        }
        else {
            *o++ = (char)*c;
        }
    }
    *o = '\0';
    return out;
}

void profile_html_esc(profile_html_t *b, const char *s)
{
    apr_size_t len = 0;

    s = without_controls(s, b->pool);
    /* &, <, > and " as entities: safe in text and in an attribute,
     * which this file always quotes with ". */
    if (apr_escape_entity(NULL, s, APR_ESCAPE_STRING, 0, &len)
        == APR_NOTFOUND) {
        profile_html_raw(b, s);
        return;
    }
    reserve(b, len);
    apr_escape_entity(b->buf + b->len, s, APR_ESCAPE_STRING, 0, &len);
    b->len += len - 1;                  /* len counts the NUL */
}

/* ------------------------------------------------------------------ */
/* One page being rendered */

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

/* Text value v as served in the page's language; *fell set to 1 where
 * it is the fallback's. */
static const char *text(pg_t *g, json_t *v, int *fell)
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

static void fell_attr(pg_t *g, int fell)
{
    if (fell) {
        profile_html_cat(g->b, " lang=\"", g->fb, "\"", NULL);
    }
}

/* <tag class="cls">v</tag>, marked when v is served in the fallback. */
static void el(pg_t *g, const char *tag, const char *cls, json_t *v)
{
    int fell;
    const char *s = text(g, v, &fell);

    profile_html_cat(g->b, "<", tag, NULL);
    if (cls != NULL) {
        profile_html_cat(g->b, " class=\"", cls, "\"", NULL);
    }
    fell_attr(g, fell);
    profile_html_raw(g->b, ">");
    profile_html_esc(g->b, s);
    profile_html_cat(g->b, "</", tag, ">\n", NULL);
}

/* The same, skipped when v is empty in this language. */
static void el_opt(pg_t *g, const char *tag, const char *cls, json_t *v)
{
    if (*text(g, v, NULL)) {
        el(g, tag, cls, v);
    }
}

/* A link to url (empty: the text alone) around text value v. */
static void a_link(pg_t *g, const char *cls, const char *rel, const char *url,
                 json_t *v)
{
    int fell;
    const char *s = text(g, v, &fell);

    if (url == NULL || *url == '\0') {
        profile_html_cat(g->b, "<span class=\"", cls, "\"", NULL);
        fell_attr(g, fell);
        profile_html_raw(g->b, ">");
        profile_html_esc(g->b, s);
        profile_html_raw(g->b, "</span>");
        return;
    }
    profile_html_cat(g->b, "<a class=\"", cls, "\"", NULL);
    if (rel != NULL) {
        profile_html_cat(g->b, " rel=\"", rel, "\"", NULL);
    }
    fell_attr(g, fell);
    profile_html_raw(g->b, " href=\"");
    profile_html_esc(g->b, url);
    profile_html_raw(g->b, "\">");
    profile_html_esc(g->b, s);
    profile_html_raw(g->b, "</a>");
}

static const char *word(pg_t *g, profile_page_word_e w)
{
    return profile_page_word(w, g->lang, NULL);
}

/* The items of text list v as <li>s inside <ul class="cls">. */
static void list(pg_t *g, const char *cls, json_t *v)
{
    int fell = 0;
    json_t *items = profile_schema_served_list(v, g->lang, g->fb, &fell);
    json_t *it;
    size_t i;

    if (json_array_size(items) == 0) {
        return;
    }
    profile_html_cat(g->b, "<ul class=\"", cls, "\"", NULL);
    fell_attr(g, fell);
    profile_html_raw(g->b, ">\n");
    json_array_foreach(items, i, it) {
        el(g, "li", NULL, it);
    }
    profile_html_raw(g->b, "</ul>\n");
}

static size_t count(pg_t *g, const char *key)
{
    return json_array_size(json_object_get(g->root, key));
}

static const char *url_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s ? s : "";
}

/* ------------------------------------------------------------------ */
/* Shared parts */

/* "<!DOCTYPE html>" to the end of <head>'s metadata. */
static void begin(pg_t *g, const char *title, const char *description,
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
static void bar(pg_t *g, const char *const *ids,
                const profile_page_word_e *names, int n,
                const char *const *alt)
{
    int i;

    profile_html_cat(g->b, "</head>\n<body>\n<a class=\"skip\" "
                     "href=\"#main\"", g->wattr, ">", word(g, PW_SKIP),
                     "</a>\n<header class=\"bar\">\n", NULL);
    if (n > 0) {
        profile_html_cat(g->b, "<nav class=\"sections\" aria-label=\"",
                         word(g, PW_SECTIONS), "\"", g->wattr, "><ul>\n",
                         NULL);
        for (i = 0; i < n; i++) {
            profile_html_cat(g->b, "<li><a href=\"", ids[i], "\">",
                             word(g, names[i]), "</a></li>\n", NULL);
        }
        profile_html_raw(g->b, "</ul></nav>\n");
    }
    if (g->st->nlangs > 1) {
        profile_html_cat(g->b, "<nav class=\"langs\" aria-label=\"",
                         word(g, PW_LANGUAGE), "\"", g->wattr, "><ul>\n",
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

static void foot(pg_t *g)
{
    apr_time_exp_t tm;
    char date[16];

    apr_time_exp_gmt(&tm, g->st->mtime);
    apr_snprintf(date, sizeof(date), "%04d-%02d-%02d", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday);
    profile_html_cat(g->b, "<footer class=\"foot\">\n<p><span", g->wattr,
                     ">", word(g, PW_UPDATED), "</span> <time datetime=\"",
                     date, "\">", date, "</time></p>\n</footer>\n"
                     "</body>\n</html>\n", NULL);
}

/* The person's name, in plain text. */
static const char *name_of(pg_t *g)
{
    return text(g, json_object_get(json_object_get(g->root, "profile"),
                                   "name"), NULL);
}

/* s cut to DESCRIPTION_MAX bytes at a space, with an ellipsis. */
static const char *shortened(const char *s, apr_pool_t *p)
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
static const char **alternates(pg_t *g, const char *rest)
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

/* ------------------------------------------------------------------ */
/* The whole profile */

static void intro(pg_t *g)
{
    json_t *prof = json_object_get(g->root, "profile");
    json_t *contact = json_object_get(g->root, "contact");
    json_t *contacts = json_object_get(contact, "contacts");
    json_t *links = json_object_get(contact, "links");
    json_t *it;
    size_t i;
    int fell;

    profile_html_raw(g->b, "<section class=\"intro\" "
                           "aria-labelledby=\"name\">\n<h1 id=\"name\">");
    a_link(g, "p-name u-url u-uid", NULL, g->home, json_object_get(prof,
                                                                 "name"));
    profile_html_raw(g->b, "</h1>\n");
    el(g, "p", "headline p-job-title", json_object_get(prof, "headline"));
    el_opt(g, "p", "summary p-note", json_object_get(prof, "summary"));
    if (json_array_size(contacts) + json_array_size(links) == 0) {
        profile_html_raw(g->b, "</section>\n");
        return;
    }
    profile_html_cat(g->b, "<ul class=\"contact\" id=\"contact\" "
                     "aria-label=\"", word(g, PW_CONTACT), "\">\n", NULL);
    json_array_foreach(contacts, i, it) {
        const char *kind = url_of(it, "kind"), *u = url_of(it, "url");
        const char *label = text(g, json_object_get(it, "label"), &fell);

        profile_html_cat(g->b, "<li class=\"contact-", kind, "\">", NULL);
        if (*label) {
            profile_html_raw(g->b, "<span class=\"contact-label\"");
            fell_attr(g, fell);
            profile_html_raw(g->b, ">");
            profile_html_esc(g->b, label);
            profile_html_raw(g->b, "</span> ");
        }
        a_link(g, strncasecmp(u, "mailto:", 7) == 0 ? "contact-text u-email"
             : strncasecmp(u, "tel:", 4) == 0 ? "contact-text p-tel"
             : strcmp(kind, "location") == 0 ? "contact-text p-locality"
             : "contact-text", NULL, u, json_object_get(it, "text"));
        profile_html_raw(g->b, "</li>\n");
    }
    json_array_foreach(links, i, it) {
        profile_html_cat(g->b, "<li class=\"link link-",
                         url_of(it, "kind"), "\">", NULL);
        /* rel="me": the owner's own profiles (Mastodon's verification,
         * IndieAuth); a project's link is no profile of theirs. */
        a_link(g, "u-url", strcmp(url_of(it, "kind"), "project") == 0
             ? NULL : "me", url_of(it, "url"), json_object_get(it, "text"));
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ul>\n</section>\n");
}

static void section_open(pg_t *g, const char *id, profile_page_word_e w,
                         const char *filter)
{
    profile_html_cat(g->b, "<section id=\"", id, "\" aria-labelledby=\"",
                     id, "-h\"", filter ? " data-filter=\"" : "",
                     filter ? filter : "", filter ? "\"" : "",
                     ">\n<h2 id=\"", id, "-h\"", g->wattr, ">",
                     word(g, w), "</h2>\n", NULL);
}

static void metrics(pg_t *g)
{
    json_t *it;
    size_t i;

    section_open(g, "metrics", PW_METRICS, NULL);
    profile_html_raw(g->b, "<ul class=\"metrics\">\n");
    json_array_foreach(json_object_get(g->root, "metrics"), i, it) {
        profile_html_raw(g->b, "<li class=\"metric\" id=\"metric-");
        profile_html_esc(g->b, url_of(it, "id"));
        profile_html_raw(g->b, "\">\n");
        el(g, "p", "metric-value", json_object_get(it, "value"));
        el(g, "p", "metric-label", json_object_get(it, "label"));
        el_opt(g, "p", "metric-summary", json_object_get(it, "summary"));
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ul>\n</section>\n");
}

/* Company and period of experience record `it`. */
static void role_meta(pg_t *g, json_t *it)
{
    profile_html_raw(g->b, "<p class=\"role-meta\">");
    a_link(g, "company", NULL, url_of(it, "companyUrl"),
         json_object_get(it, "company"));
    if (*text(g, json_object_get(it, "period"), NULL)) {
        profile_html_raw(g->b, " <span class=\"sep\" aria-hidden=\"true\">"
                               "·</span> ");
        a_link(g, "period", NULL, "", json_object_get(it, "period"));
    }
    profile_html_raw(g->b, "</p>\n");
}

/* Whether experience has companies enough for a filter to help. */
static int several_companies(pg_t *g)
{
    apr_hash_t *seen = apr_hash_make(g->p);
    json_t *it;
    size_t i;

    json_array_foreach(json_object_get(g->root, "experience"), i, it) {
        const char *c = text(g, json_object_get(it, "company"), NULL);

        apr_hash_set(seen, c, APR_HASH_KEY_STRING, c);
    }
    return apr_hash_count(seen) >= FILTER_MIN_COMPANIES;
}

static void experience(pg_t *g)
{
    json_t *it;
    size_t i;

    section_open(g, "experience", PW_EXPERIENCE,
                 several_companies(g) ? "company" : NULL);
    profile_html_raw(g->b, "<ol class=\"roles\">\n");
    json_array_foreach(json_object_get(g->root, "experience"), i, it) {
        const char *id = url_of(it, "id");

        profile_html_raw(g->b, "<li class=\"role\" id=\"experience-");
        profile_html_esc(g->b, id);
        profile_html_raw(g->b, "\" data-company=\"");
        profile_html_esc(g->b, text(g, json_object_get(it, "company"),
                                    NULL));
        profile_html_raw(g->b, "\">\n<h3 class=\"role-title\">");
        a_link(g, "role-link", NULL, apr_pstrcat(g->p, g->home, "experience/",
                                               id, NULL),
             json_object_get(it, "role"));
        profile_html_raw(g->b, "</h3>\n");
        role_meta(g, it);
        el_opt(g, "p", "role-context", json_object_get(it, "context"));
        list(g, "highlights", json_object_get(it, "highlights"));
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ol>\n</section>\n");
}

static void case_studies(pg_t *g)
{
    json_t *it;
    size_t i;
    int fell;

    section_open(g, "case-studies", PW_CASE_STUDIES, NULL);
    profile_html_raw(g->b, "<div class=\"cases\">\n");
    json_array_foreach(json_object_get(g->root, "caseStudies"), i, it) {
        const char *id = url_of(it, "id");
        const char *title = text(g, json_object_get(it, "title"), &fell);
        const char *mobile = text(g, json_object_get(it, "mobileTitle"),
                                  NULL);

        profile_html_raw(g->b, "<article class=\"case\" id=\"case-study-");
        profile_html_esc(g->b, id);
        profile_html_raw(g->b, "\">\n<h3 class=\"case-title\"><a "
                               "class=\"case-link\" data-detail href=\"");
        profile_html_esc(g->b, apr_pstrcat(g->p, g->home, "case-studies/",
                                           id, NULL));
        profile_html_raw(g->b, "\"");
        /* Narrow screens show mobileTitle (page.css, attr()). */
        if (*mobile && strcmp(mobile, title) != 0) {
            profile_html_raw(g->b, " data-short=\"");
            profile_html_esc(g->b, mobile);
            profile_html_raw(g->b, "\"");
        }
        fell_attr(g, fell);
        profile_html_raw(g->b, "><span class=\"title-long\">");
        profile_html_esc(g->b, title);
        profile_html_raw(g->b, "</span></a></h3>\n");
        el(g, "p", "case-org", json_object_get(it, "organization"));
        el_opt(g, "p", "case-summary", json_object_get(it, "summary"));
        profile_html_raw(g->b, "</article>\n");
    }
    profile_html_raw(g->b, "</div>\n</section>\n");
}

static void skills(pg_t *g)
{
    json_t *it, *list_v;
    size_t i, total = 0;
    int fell;

    json_array_foreach(json_object_get(g->root, "skills"), i, it) {
        fell = 0;
        list_v = profile_schema_served_list(json_object_get(it, "skills"),
                                            g->lang, g->fb, &fell);
        total += json_array_size(list_v);
    }
    section_open(g, "skills", PW_SKILLS,
                 total >= FILTER_MIN_SKILLS ? "search" : NULL);
    profile_html_raw(g->b, "<div class=\"skill-groups\">\n");
    json_array_foreach(json_object_get(g->root, "skills"), i, it) {
        char n[32];

        apr_snprintf(n, sizeof(n), "%" APR_SIZE_T_FMT, i + 1);
        profile_html_cat(g->b, "<section class=\"skill-group\" "
                         "aria-labelledby=\"skills-", n, "\">\n<h3 "
                         "id=\"skills-", n, "\"", NULL);
        fell = 0;
        text(g, json_object_get(it, "title"), &fell);
        fell_attr(g, fell);
        profile_html_raw(g->b, ">");
        profile_html_esc(g->b, text(g, json_object_get(it, "title"), NULL));
        profile_html_raw(g->b, "</h3>\n");
        el_opt(g, "p", "skill-summary", json_object_get(it, "summary"));
        list(g, "chips", json_object_get(it, "skills"));
        profile_html_raw(g->b, "</section>\n");
    }
    profile_html_raw(g->b, "</div>\n</section>\n");
}

static void education(pg_t *g)
{
    json_t *it;
    size_t i;

    section_open(g, "education", PW_EDUCATION, NULL);
    profile_html_raw(g->b, "<ol class=\"education\">\n");
    json_array_foreach(json_object_get(g->root, "education"), i, it) {
        profile_html_raw(g->b, "<li class=\"edu\">\n");
        el(g, "h3", "degree", json_object_get(it, "degree"));
        el_opt(g, "p", "credential", json_object_get(it, "credential"));
        profile_html_raw(g->b, "<p class=\"institution\">");
        a_link(g, "institution-link", NULL, url_of(it, "institutionUrl"),
             json_object_get(it, "institution"));
        profile_html_raw(g->b, "</p>\n</li>\n");
    }
    profile_html_raw(g->b, "</ol>\n</section>\n");
}

static void home_page(pg_t *g, const char *xdefault)
{
    json_t *prof = json_object_get(g->root, "profile");
    const char *ids[5];
    profile_page_word_e names[5];
    int n = 0;
    const char *head = text(g, json_object_get(prof, "headline"), NULL);
    const char *title = *head ? apr_pstrcat(g->p, name_of(g), " — ", head,
                                            NULL) : name_of(g);

    begin(g, title, shortened(text(g, json_object_get(prof, "summary"),
                                   NULL), g->p),
          g->home, alternates(g, ""), xdefault);
    profile_page_ld(g->b, g->st, g->root, g->l, g->home);
#define NAV(key, id, w) \
    if (count(g, key) > 0) { ids[n] = id; names[n++] = w; }
    NAV("experience", "#experience", PW_EXPERIENCE);
    NAV("caseStudies", "#case-studies", PW_CASE_STUDIES);
    NAV("skills", "#skills", PW_SKILLS);
    NAV("education", "#education", PW_EDUCATION);
#undef NAV
    if (json_array_size(json_object_get(json_object_get(g->root, "contact"),
                                        "contacts"))
        + json_array_size(json_object_get(json_object_get(g->root,
                                                          "contact"),
                                          "links")) > 0) {
        ids[n] = "#contact";
        names[n++] = PW_CONTACT;
    }
    bar(g, ids, names, n, alternates(g, ""));
    profile_html_raw(g->b, "<main id=\"main\" class=\"h-card\">\n");
    intro(g);
    if (count(g, "metrics") > 0) {
        metrics(g);
    }
    if (count(g, "experience") > 0) {
        experience(g);
    }
    if (count(g, "caseStudies") > 0) {
        case_studies(g);
    }
    if (count(g, "skills") > 0) {
        skills(g);
    }
    if (count(g, "education") > 0) {
        education(g);
    }
    profile_html_raw(g->b, "</main>\n");
    foot(g);
}

/* ------------------------------------------------------------------ */
/* A record's own page */

static void detail_begin(pg_t *g, const char *title, const char *descr,
                         const char *rest, const char *cls, const char *id)
{
    const char **alt = alternates(g, rest);

    begin(g, apr_pstrcat(g->p, title, " — ", name_of(g), NULL),
          shortened(descr, g->p), alt[g->l], alt, NULL);
    bar(g, NULL, NULL, 0, alt);
    profile_html_cat(g->b, "<main id=\"main\">\n<p class=\"back\"><a "
                     "href=\"", NULL);
    profile_html_esc(g->b, g->home);
    profile_html_cat(g->b, "\"", g->wattr, ">", word(g, PW_BACK),
                     "</a></p>\n<article class=\"detail ", cls, "\" id=\"",
                     NULL);
    profile_html_esc(g->b, id);
    profile_html_raw(g->b, "\">\n<p class=\"detail-owner\">");
    profile_html_esc(g->b, name_of(g));
    profile_html_raw(g->b, "</p>\n");
}

static void detail_end(pg_t *g)
{
    profile_html_raw(g->b, "</article>\n</main>\n");
    foot(g);
}

static void experience_page(pg_t *g, json_t *it)
{
    const char *id = url_of(it, "id");

    detail_begin(g, text(g, json_object_get(it, "role"), NULL),
                 text(g, json_object_get(it, "context"), NULL),
                 apr_pstrcat(g->p, "experience/", id, NULL), "role",
                 apr_pstrcat(g->p, "experience-", id, NULL));
    el(g, "h1", "role-title", json_object_get(it, "role"));
    role_meta(g, it);
    el_opt(g, "p", "role-context", json_object_get(it, "context"));
    list(g, "highlights", json_object_get(it, "highlights"));
    detail_end(g);
}

static void case_part(pg_t *g, profile_page_word_e w, json_t *v)
{
    if (*text(g, v, NULL)) {
        profile_html_cat(g->b, "<h2", g->wattr, ">", word(g, w), "</h2>\n",
                         NULL);
        el(g, "p", NULL, v);
    }
}

static void case_page(pg_t *g, json_t *it)
{
    const char *id = url_of(it, "id");

    detail_begin(g, text(g, json_object_get(it, "title"), NULL),
                 text(g, json_object_get(it, "summary"), NULL),
                 apr_pstrcat(g->p, "case-studies/", id, NULL), "case",
                 apr_pstrcat(g->p, "case-study-", id, NULL));
    el(g, "h1", "case-title", json_object_get(it, "title"));
    el(g, "p", "case-org", json_object_get(it, "organization"));
    el_opt(g, "p", "case-summary", json_object_get(it, "summary"));
    case_part(g, PW_CONTEXT, json_object_get(it, "context"));
    case_part(g, PW_PROBLEM, json_object_get(it, "problem"));
    case_part(g, PW_INTERVENTION, json_object_get(it, "intervention"));
    case_part(g, PW_RESULT, json_object_get(it, "result"));
    list(g, "result-items", json_object_get(it, "resultItems"));
    detail_end(g);
}

static void missing_page(pg_t *g)
{
    const char *title = apr_pstrcat(g->p, word(g, PW_NOT_FOUND), " — ",
                                    name_of(g), NULL);

    profile_html_cat(g->b, "<!DOCTYPE html>\n<html lang=\"", g->lang,
                     "\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
                     "name=\"viewport\" content=\"width=device-width, "
                     "initial-scale=1\">\n<meta name=\"robots\" "
                     "content=\"noindex\">\n<title>", NULL);
    profile_html_esc(g->b, title);
    profile_html_raw(g->b, "</title>\n<link rel=\"stylesheet\" href=\"");
    profile_html_esc(g->b, g->where->assets);
    profile_html_raw(g->b, "page.css\">\n<link rel=\"icon\" "
                           "type=\"image/svg+xml\" href=\"");
    profile_html_esc(g->b, g->where->assets);
    profile_html_raw(g->b, "favicon.svg\">\n");
    bar(g, NULL, NULL, 0, alternates(g, ""));
    profile_html_cat(g->b, "<main id=\"main\" class=\"status\">\n<h1",
                     g->wattr, ">", word(g, PW_NOT_FOUND), "</h1>\n<p",
                     g->wattr, ">", word(g, PW_NOT_FOUND_TEXT),
                     "</p>\n<p><a href=\"", NULL);
    profile_html_esc(g->b, g->home);
    profile_html_raw(g->b, "\">");
    profile_html_esc(g->b, name_of(g));
    profile_html_raw(g->b, "</a></p>\n</main>\n</body>\n</html>\n");
}

/* ------------------------------------------------------------------ */

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
        {PROFILE_COLL_EXPERIENCE, "experience", experience_page},
        {PROFILE_COLL_CASE_STUDIES, "caseStudies", case_page},
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
        home_page(&g, pg->where.url);
        keep(&pg->home[l], &g, w, p);
        missing_page(&g);
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
