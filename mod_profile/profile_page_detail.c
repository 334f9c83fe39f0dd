/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_detail.c -- a record's own page (an experience record, a
 * case study: all it holds, the case study's context, problem,
 * intervention and result too) and the 404 page (CONTRACT §11).
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#include <apr_strings.h>

#include "profile_page_int.h"

static void detail_begin(pg_t *g, const char *title, const char *descr,
                         const char *rest, const char *cls, const char *id)
{
    const char **alt = pg_alternates(g, rest);

    pg_begin(g, apr_pstrcat(g->p, title, " — ", pg_name_of(g), NULL),
          pg_shortened(descr, g->p), alt[g->l], alt, NULL);
    pg_bar(g, NULL, NULL, 0, alt);
    profile_html_cat(g->b, "<main id=\"main\">\n<p class=\"back\"><a "
                     "href=\"", NULL);
    profile_html_esc(g->b, g->home);
    profile_html_cat(g->b, "\"", g->wattr, ">", pg_word(g, PW_BACK),
                     "</a></p>\n<article class=\"detail ", cls, "\" id=\"",
                     NULL);
    profile_html_esc(g->b, id);
    profile_html_raw(g->b, "\">\n<p class=\"detail-owner\">");
    profile_html_esc(g->b, pg_name_of(g));
    profile_html_raw(g->b, "</p>\n");
}

static void detail_end(pg_t *g)
{
    profile_html_raw(g->b, "</article>\n</main>\n");
    pg_foot(g);
}

void pg_experience_page(pg_t *g, json_t *it)
{
    const char *id = pg_url_of(it, "id");

    detail_begin(g, pg_text(g, json_object_get(it, "role"), NULL),
                 pg_text(g, json_object_get(it, "context"), NULL),
                 apr_pstrcat(g->p, "experience/", id, NULL), "role",
                 apr_pstrcat(g->p, "experience-", id, NULL));
    pg_el(g, "h1", "role-title", json_object_get(it, "role"));
    pg_role_body(g, it);
    detail_end(g);
}

static void case_part(pg_t *g, profile_page_word_e w, json_t *v)
{
    if (*pg_text(g, v, NULL)) {
        profile_html_cat(g->b, "<h2", g->wattr, ">", pg_word(g, w), "</h2>\n",
                         NULL);
        pg_el(g, "p", NULL, v);
    }
}

void pg_case_page(pg_t *g, json_t *it)
{
    const char *id = pg_url_of(it, "id");

    detail_begin(g, pg_text(g, json_object_get(it, "title"), NULL),
                 pg_text(g, json_object_get(it, "summary"), NULL),
                 apr_pstrcat(g->p, "case-studies/", id, NULL), "case",
                 apr_pstrcat(g->p, "case-study-", id, NULL));
    pg_el(g, "h1", "case-title", json_object_get(it, "title"));
    pg_el(g, "p", "case-org", json_object_get(it, "organization"));
    pg_el_opt(g, "p", "case-summary", json_object_get(it, "summary"));
    case_part(g, PW_CONTEXT, json_object_get(it, "context"));
    case_part(g, PW_PROBLEM, json_object_get(it, "problem"));
    case_part(g, PW_INTERVENTION, json_object_get(it, "intervention"));
    case_part(g, PW_RESULT, json_object_get(it, "result"));
    pg_list(g, "result-items", json_object_get(it, "resultItems"));
    detail_end(g);
}

void pg_missing_page(pg_t *g)
{
    const char *title = apr_pstrcat(g->p, pg_word(g, PW_NOT_FOUND), " — ",
                                    pg_name_of(g), NULL);

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
    pg_bar(g, NULL, NULL, 0, pg_alternates(g, ""));
    profile_html_cat(g->b, "<main id=\"main\" class=\"status\">\n<h1",
                     g->wattr, ">", pg_word(g, PW_NOT_FOUND), "</h1>\n<p",
                     g->wattr, ">", pg_word(g, PW_NOT_FOUND_TEXT),
                     "</p>\n<p><a href=\"", NULL);
    profile_html_esc(g->b, g->home);
    profile_html_raw(g->b, "\">");
    profile_html_esc(g->b, pg_name_of(g));
    profile_html_raw(g->b, "</a></p>\n</main>\n</body>\n</html>\n");
}
