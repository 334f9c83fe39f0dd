/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_meta.c -- what a page's head tells search engines and
 * link previews (CONTRACT §11): title, meta description, the canonical
 * URL and its alternates in every language (hreflang, x-default), Open
 * Graph and Twitter's card; and the schema.org ProfilePage whose
 * mainEntity is the Person, as JSON-LD, as Google documents
 * ProfilePage.
 *
 * The JSON-LD is built by jansson and then made safe inside a <script>
 * element: "<", ">" and "&" become \u003c, \u003e and \u0026 (so no
 * "</script>" or "<!--" can end or change the element), and U+2028 and
 * U+2029 become \u2028 and \u2029.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <apr_time.h>

#include "profile_page.h"
#include "profile_render.h"
#include "profile_schema.h"

void profile_page_head(profile_html_t *b, const profile_store_t *st, int l,
                       const char *title, const char *description,
                       const char *url, const char *const *alt,
                       const char *xdefault, const char *assets)
{
    int i;

    profile_html_raw(b, "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
                        "content=\"width=device-width, initial-scale=1\">\n"
                        "<title>");
    profile_html_esc(b, title);
    profile_html_raw(b, "</title>\n");
    if (description != NULL && *description) {
        profile_html_raw(b, "<meta name=\"description\" content=\"");
        profile_html_esc(b, description);
        profile_html_raw(b, "\">\n");
    }
    profile_html_raw(b, "<link rel=\"canonical\" href=\"");
    profile_html_esc(b, url);
    profile_html_raw(b, "\">\n");
    for (i = 0; alt != NULL && i < st->nlangs; i++) {
        profile_html_cat(b, "<link rel=\"alternate\" hreflang=\"",
                         st->langs[i], "\" href=\"", NULL);
        profile_html_esc(b, alt[i]);
        profile_html_raw(b, "\">\n");
    }
    if (xdefault != NULL) {
        profile_html_raw(b, "<link rel=\"alternate\" hreflang=\"x-default\" "
                            "href=\"");
        profile_html_esc(b, xdefault);
        profile_html_raw(b, "\">\n");
    }
    profile_html_raw(b, "<meta property=\"og:type\" content=\"profile\">\n"
                        "<meta property=\"og:title\" content=\"");
    profile_html_esc(b, title);
    profile_html_raw(b, "\">\n");
    if (description != NULL && *description) {
        profile_html_raw(b, "<meta property=\"og:description\" content=\"");
        profile_html_esc(b, description);
        profile_html_raw(b, "\">\n");
    }
    profile_html_raw(b, "<meta property=\"og:url\" content=\"");
    profile_html_esc(b, url);
    profile_html_cat(b, "\">\n<meta property=\"og:locale\" content=\"",
                     profile_page_og_locale(st->langs[l]), "\">\n", NULL);
    for (i = 0; i < st->nlangs; i++) {
        if (i != l) {
            profile_html_cat(b, "<meta property=\"og:locale:alternate\" "
                             "content=\"",
                             profile_page_og_locale(st->langs[i]), "\">\n",
                             NULL);
        }
    }
    profile_html_raw(b, "<meta name=\"twitter:card\" content=\"summary\">\n"
                        "<meta name=\"color-scheme\" content=\"light dark\">"
                        "\n<link rel=\"stylesheet\" href=\"");
    profile_html_esc(b, assets);
    profile_html_raw(b, "page.css\">\n<link rel=\"icon\" "
                        "type=\"image/svg+xml\" href=\"");
    profile_html_esc(b, assets);
    profile_html_raw(b, "favicon.svg\">\n<script type=\"module\" src=\"");
    profile_html_esc(b, assets);
    profile_html_raw(b, "page.js\"></script>\n");
}

/* The text value v as served in `lang` (its fallback's where it has
 * none), as a new JSON string. */
static json_t *served(const profile_store_t *st, json_t *v, int l)
{
    int fell = 0;
    json_t *s = profile_schema_served(v, st->langs[l], st->fallback >= 0
                                      ? st->langs[st->fallback] : NULL,
                                      &fell);

    return json_string(json_string_value(s) ? json_string_value(s) : "");
}

static void set_new(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v);
}

/* The Person of the profile in language l. */
static json_t *person(const profile_store_t *st, json_t *root, int l,
                      const char *url)
{
    json_t *prof = json_object_get(root, "profile");
    json_t *contact = json_object_get(root, "contact");
    json_t *p = json_object(), *same = json_array(), *alumni = json_array();
    json_t *knows = json_array(), *works = json_array(), *v, *it;
    const char *fb = st->fallback >= 0 ? st->langs[st->fallback] : NULL;
    size_t i, j;
    int fell = 0;

    set_new(p, "@type", json_string("Person"));
    set_new(p, "name", served(st, json_object_get(prof, "name"), l));
    set_new(p, "jobTitle", served(st, json_object_get(prof, "headline"), l));
    set_new(p, "description", served(st, json_object_get(prof, "summary"),
                                      l));
    set_new(p, "url", json_string(url));
    json_array_foreach(json_object_get(contact, "contacts"), i, it) {
        const char *u = json_string_value(json_object_get(it, "url"));

        if (u != NULL && strncasecmp(u, "mailto:", 7) == 0
            && !json_object_get(p, "email")) {
            set_new(p, "email", json_string(u + 7));
        }
        else if (u != NULL && strncasecmp(u, "tel:", 4) == 0
                 && !json_object_get(p, "telephone")) {
            set_new(p, "telephone", json_string(u + 4));
        }
    }
    /* sameAs: the owner's own profiles, as rel="me" on the page; a
     * project's link (kind project, CONTRACT §9) is no page of theirs. */
    json_array_foreach(json_object_get(contact, "links"), i, it) {
        const char *u = json_string_value(json_object_get(it, "url"));
        const char *k = json_string_value(json_object_get(it, "kind"));

        if (u != NULL && *u && (k == NULL || strcmp(k, "project") != 0)) {
            json_array_append_new(same, json_string(u));
        }
    }
    /* worksFor: the roles the data says are ongoing (a start and no
     * end, CONTRACT §9); a period's text says nothing a machine may
     * trust. */
    json_array_foreach(json_object_get(root, "experience"), i, it) {
        json_t *org;
        const char *u = json_string_value(json_object_get(it, "companyUrl"));

        if (json_object_get(it, "start") == NULL
            || json_object_get(it, "end") != NULL) {
            continue;
        }
        org = json_object();
        set_new(org, "@type", json_string("Organization"));
        set_new(org, "name", served(st, json_object_get(it, "company"), l));
        if (u != NULL && *u) {
            set_new(org, "url", json_string(u));
        }
        json_array_append_new(works, org);
    }
    json_array_foreach(json_object_get(root, "education"), i, it) {
        json_t *org = json_object();
        const char *u = json_string_value(json_object_get(it,
                                                          "institutionUrl"));

        set_new(org, "@type", json_string("EducationalOrganization"));
        set_new(org, "name", served(st, json_object_get(it, "institution"),
                                    l));
        if (u != NULL && *u) {
            set_new(org, "url", json_string(u));
        }
        json_array_append_new(alumni, org);
    }
    json_array_foreach(json_object_get(root, "skills"), i, it) {
        json_t *list = profile_schema_served_list(json_object_get(it,
                                                                  "skills"),
                                                  st->langs[l], fb, &fell);

        json_array_foreach(list, j, v) {
            json_array_append_new(knows, served(st, v, l));
        }
    }
    if (json_array_size(works) > 0) {
        set_new(p, "worksFor", works);
    }
    else {
        json_decref(works);
    }
    set_new(p, "sameAs", same);
    set_new(p, "alumniOf", alumni);
    set_new(p, "knowsAbout", knows);
    return p;
}

void profile_page_ld(profile_html_t *b, const profile_store_t *st,
                     json_t *root, int l, const char *url)
{
    json_t *page = json_object();
    apr_time_exp_t tm;
    char date[32], *text, *c;
    apr_size_t n, done;

    apr_time_exp_gmt(&tm, st->mtime);
    apr_snprintf(date, sizeof(date), "%04d-%02d-%02dT%02d:%02d:%02dZ",
                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                 tm.tm_min, tm.tm_sec);
    set_new(page, "@context", json_string("https://schema.org"));
    set_new(page, "@type", json_string("ProfilePage"));
    set_new(page, "url", json_string(url));
    set_new(page, "inLanguage", json_string(st->langs[l]));
    set_new(page, "dateModified", json_string(date));
    set_new(page, "mainEntity", person(st, root, l, url));
    text = json_dumps(page, JSON_COMPACT | JSON_ESCAPE_SLASH);
    json_decref(page);
    if (text == NULL) {
        profile_out_of_memory(b->pool);
    }
    profile_html_raw(b, "<script type=\"application/ld+json\">");
    n = strlen(text);
    for (c = text, done = 0; done < n; done++, c++) {
        const char *esc = *c == '<' ? "\\u003c" : *c == '>' ? "\\u003e"
                          : *c == '&' ? "\\u0026" : NULL;

        if (esc == NULL && (unsigned char)c[0] == 0xE2 && done + 2 < n
            && (unsigned char)c[1] == 0x80
            && ((unsigned char)c[2] == 0xA8 || (unsigned char)c[2] == 0xA9)) {
            esc = (unsigned char)c[2] == 0xA8 ? "\\u2028" : "\\u2029";
            c += 2;
            done += 2;
        }
        if (esc != NULL) {
            profile_html_put(b, esc, 6);
        }
        else {
            profile_html_put(b, c, 1);
        }
    }
    free(text);
    profile_html_raw(b, "</script>\n");
}
