/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_sections.c -- the whole profile's page (CONTRACT §11):
 * the intro with its contact line, then results, experience, case
 * studies, skills and education, each absent when the data has nothing
 * for it, with its nav link and its filter.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "profile_page_int.h"
#include "profile_schema.h"

/* Filters help only past these counts (a search over a dozen skills,
 * a company filter over two companies, are chrome). */
#define FILTER_MIN_COMPANIES 3
#define FILTER_MIN_SKILLS 24

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
    pg_link(g, "p-name u-url u-uid", NULL, g->home, json_object_get(prof,
                                                                 "name"));
    profile_html_raw(g->b, "</h1>\n");
    pg_el(g, "p", "headline p-job-title", json_object_get(prof, "headline"));
    pg_el_opt(g, "p", "summary p-note", json_object_get(prof, "summary"));
    if (json_array_size(contacts) + json_array_size(links) == 0) {
        profile_html_raw(g->b, "</section>\n");
        return;
    }
    profile_html_cat(g->b, "<ul class=\"contact\" id=\"contact\" "
                     "aria-label=\"", pg_word(g, PW_CONTACT), "\">\n", NULL);
    json_array_foreach(contacts, i, it) {
        const char *kind = pg_url_of(it, "kind"), *u = pg_url_of(it, "url");
        const char *label = pg_text(g, json_object_get(it, "label"), &fell);

        profile_html_cat(g->b, "<li class=\"contact-", kind, "\">", NULL);
        if (*label) {
            profile_html_raw(g->b, "<span class=\"contact-label\"");
            pg_fell_attr(g, fell);
            profile_html_raw(g->b, ">");
            profile_html_esc(g->b, label);
            profile_html_raw(g->b, "</span> ");
        }
        pg_link(g, strncasecmp(u, "mailto:", 7) == 0 ? "contact-text u-email"
             : strncasecmp(u, "tel:", 4) == 0 ? "contact-text p-tel"
             : strcmp(kind, "location") == 0 ? "contact-text p-locality"
             : "contact-text", NULL, u, json_object_get(it, "text"));
        profile_html_raw(g->b, "</li>\n");
    }
    json_array_foreach(links, i, it) {
        profile_html_cat(g->b, "<li class=\"link link-",
                         pg_url_of(it, "kind"), "\">", NULL);
        /* rel="me": the owner's own profiles (Mastodon's verification,
         * IndieAuth); a project's link is no profile of theirs. */
        pg_link(g, "u-url", strcmp(pg_url_of(it, "kind"), "project") == 0
             ? NULL : "me", pg_url_of(it, "url"), json_object_get(it, "text"));
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ul>\n</section>\n");
}

static void pg_section_open(pg_t *g, const char *id, profile_page_word_e w,
                         const char *filter)
{
    profile_html_cat(g->b, "<section id=\"", id, "\" aria-labelledby=\"",
                     id, "-h\"", filter ? " data-filter=\"" : "",
                     filter ? filter : "", filter ? "\"" : "",
                     ">\n<h2 id=\"", id, "-h\"", g->wattr, ">",
                     pg_word(g, w), "</h2>\n", NULL);
}

static void metrics(pg_t *g)
{
    json_t *it;
    size_t i;

    pg_section_open(g, "metrics", PW_METRICS, NULL);
    profile_html_raw(g->b, "<ul class=\"metrics\">\n");
    json_array_foreach(json_object_get(g->root, "metrics"), i, it) {
        profile_html_raw(g->b, "<li class=\"metric\" id=\"metric-");
        profile_html_esc(g->b, pg_url_of(it, "id"));
        profile_html_raw(g->b, "\">\n");
        pg_el(g, "p", "metric-value", json_object_get(it, "value"));
        pg_el(g, "p", "metric-label", json_object_get(it, "label"));
        pg_el_opt(g, "p", "metric-summary", json_object_get(it, "summary"));
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ul>\n</section>\n");
}

/* Company and period of experience record `it`. */
static void role_meta(pg_t *g, json_t *it)
{
    profile_html_raw(g->b, "<p class=\"role-meta\">");
    pg_link(g, "company", NULL, pg_url_of(it, "companyUrl"),
         json_object_get(it, "company"));
    if (*pg_text(g, json_object_get(it, "period"), NULL)) {
        profile_html_raw(g->b, " <span class=\"sep\" aria-hidden=\"true\">"
                               "·</span> ");
        pg_link(g, "period", NULL, "", json_object_get(it, "period"));
    }
    profile_html_raw(g->b, "</p>\n");
}

void pg_role_body(pg_t *g, json_t *it)
{
    role_meta(g, it);
    pg_el_opt(g, "p", "role-context", json_object_get(it, "context"));
    pg_list(g, "highlights", json_object_get(it, "highlights"));
}

/* Whether experience has companies enough for a filter to help. */
static int several_companies(pg_t *g)
{
    apr_hash_t *seen = apr_hash_make(g->p);
    json_t *it;
    size_t i;

    json_array_foreach(json_object_get(g->root, "experience"), i, it) {
        const char *c = pg_text(g, json_object_get(it, "company"), NULL);

        apr_hash_set(seen, c, APR_HASH_KEY_STRING, c);
    }
    return apr_hash_count(seen) >= FILTER_MIN_COMPANIES;
}

static void experience(pg_t *g)
{
    json_t *it;
    size_t i;

    pg_section_open(g, "experience", PW_EXPERIENCE,
                 several_companies(g) ? "company" : NULL);
    profile_html_raw(g->b, "<ol class=\"roles\">\n");
    json_array_foreach(json_object_get(g->root, "experience"), i, it) {
        const char *id = pg_url_of(it, "id");

        profile_html_raw(g->b, "<li class=\"role\" id=\"experience-");
        profile_html_esc(g->b, id);
        profile_html_raw(g->b, "\" data-company=\"");
        profile_html_esc(g->b, pg_text(g, json_object_get(it, "company"),
                                    NULL));
        profile_html_raw(g->b, "\">\n<h3 class=\"role-title\">");
        pg_link(g, "role-link", NULL, apr_pstrcat(g->p, g->home, "experience/",
                                               id, NULL),
             json_object_get(it, "role"));
        profile_html_raw(g->b, "</h3>\n");
        pg_role_body(g, it);
        profile_html_raw(g->b, "</li>\n");
    }
    profile_html_raw(g->b, "</ol>\n</section>\n");
}

static void case_studies(pg_t *g)
{
    json_t *it;
    size_t i;
    int fell;

    pg_section_open(g, "case-studies", PW_CASE_STUDIES, NULL);
    profile_html_raw(g->b, "<div class=\"cases\">\n");
    json_array_foreach(json_object_get(g->root, "caseStudies"), i, it) {
        const char *id = pg_url_of(it, "id");
        const char *title = pg_text(g, json_object_get(it, "title"), &fell);
        const char *mobile = pg_text(g, json_object_get(it, "mobileTitle"),
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
        pg_fell_attr(g, fell);
        profile_html_raw(g->b, "><span class=\"title-long\">");
        profile_html_esc(g->b, title);
        profile_html_raw(g->b, "</span></a></h3>\n");
        pg_el(g, "p", "case-org", json_object_get(it, "organization"));
        pg_el_opt(g, "p", "case-summary", json_object_get(it, "summary"));
        profile_html_raw(g->b, "</article>\n");
    }
    profile_html_raw(g->b, "</div>\n</section>\n");
}

static void skills(pg_t *g)
{
    json_t *it, *list_v;
    const char *title;
    size_t i, total = 0;
    int fell;

    json_array_foreach(json_object_get(g->root, "skills"), i, it) {
        fell = 0;
        list_v = profile_schema_served_list(json_object_get(it, "skills"),
                                            g->lang, g->fb, &fell);
        total += json_array_size(list_v);
    }
    pg_section_open(g, "skills", PW_SKILLS,
                 total >= FILTER_MIN_SKILLS ? "search" : NULL);
    profile_html_raw(g->b, "<div class=\"skill-groups\">\n");
    json_array_foreach(json_object_get(g->root, "skills"), i, it) {
        char n[32];

        apr_snprintf(n, sizeof(n), "%" APR_SIZE_T_FMT, i + 1);
        profile_html_cat(g->b, "<section class=\"skill-group\" "
                         "aria-labelledby=\"skills-", n, "\">\n<h3 "
                         "id=\"skills-", n, "\"", NULL);
        title = pg_text(g, json_object_get(it, "title"), &fell);
        pg_fell_attr(g, fell);
        profile_html_raw(g->b, ">");
        profile_html_esc(g->b, title);
        profile_html_raw(g->b, "</h3>\n");
        pg_el_opt(g, "p", "skill-summary", json_object_get(it, "summary"));
        pg_list(g, "chips", json_object_get(it, "skills"));
        profile_html_raw(g->b, "</section>\n");
    }
    profile_html_raw(g->b, "</div>\n</section>\n");
}

static void education(pg_t *g)
{
    json_t *it;
    size_t i;

    pg_section_open(g, "education", PW_EDUCATION, NULL);
    profile_html_raw(g->b, "<ol class=\"education\">\n");
    json_array_foreach(json_object_get(g->root, "education"), i, it) {
        profile_html_raw(g->b, "<li class=\"edu\">\n");
        pg_el(g, "h3", "degree", json_object_get(it, "degree"));
        pg_el_opt(g, "p", "credential", json_object_get(it, "credential"));
        profile_html_raw(g->b, "<p class=\"institution\">");
        pg_link(g, "institution-link", NULL, pg_url_of(it, "institutionUrl"),
             json_object_get(it, "institution"));
        profile_html_raw(g->b, "</p>\n</li>\n");
    }
    profile_html_raw(g->b, "</ol>\n</section>\n");
}

void pg_home_page(pg_t *g, const char *xdefault)
{
    json_t *prof = json_object_get(g->root, "profile");
    const char *ids[5];
    profile_page_word_e names[5];
    int n = 0;
    const char *head = pg_text(g, json_object_get(prof, "headline"), NULL);
    const char *title = *head ? apr_pstrcat(g->p, pg_name_of(g), " — ", head,
                                            NULL) : pg_name_of(g);

    pg_begin(g, title, pg_shortened(pg_text(g, json_object_get(prof, "summary"),
                                   NULL), g->p),
          g->home, pg_alternates(g, ""), xdefault);
    profile_page_ld(g->b, g->st, g->root, g->l, g->home);
#define NAV(key, id, w) \
    if (pg_count(g, key) > 0) { ids[n] = id; names[n++] = w; }
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
    pg_bar(g, ids, names, n, pg_alternates(g, ""));
    profile_html_raw(g->b, "<main id=\"main\" class=\"h-card\">\n");
    intro(g);
    if (pg_count(g, "metrics") > 0) {
        metrics(g);
    }
    if (pg_count(g, "experience") > 0) {
        experience(g);
    }
    if (pg_count(g, "caseStudies") > 0) {
        case_studies(g);
    }
    if (pg_count(g, "skills") > 0) {
        skills(g);
    }
    if (pg_count(g, "education") > 0) {
        education(g);
    }
    profile_html_raw(g->b, "</main>\n");
    pg_foot(g);
}
