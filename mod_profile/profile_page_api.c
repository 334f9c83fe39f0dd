/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_api.c -- one request for a page (CONTRACT §11): which
 * page a URL below the page's base names, and the answer, with the
 * API's rules (§3-§5): strong ETags of the bytes, coded forms, HEAD as
 * GET, OPTIONS, Content-Language of the language served (and of the
 * fallback where the page holds its text), Vary where the answer is
 * negotiated.
 *
 *   {base}                     a redirect to {base}/
 *   {base}/                    the language Accept-Language prefers (§4):
 *                              the x-default
 *   {base}/{lang}/             that language ({base}/{lang}: a redirect)
 *   {base}/{lang}/experience/{id}, {base}/{lang}/case-studies/{id}
 *                              a record's page
 *   anything else below        the 404 page, in the preferred language
 *
 * A query string changes nothing.  Every answer carries a strict
 * Content-Security-Policy (the page runs no inline script or style).
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_strings.h>

#include "profile_lang.h"
#include "profile_page.h"
#include "profile_page_api.h"

#define HTML_TYPE "text/html; charset=utf-8"
#define ALLOW "GET, HEAD, OPTIONS"

const char profile_page_csp[] =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

static void begin(profile_response_t *resp, const profile_request_t *req,
                  const char *language, int negotiated, apr_pool_t *p)
{
    memset(resp, 0, sizeof(*resp));
    resp->status = 200;
    resp->headers = req->headers ? req->headers : apr_table_make(p, 12);
    resp->language = language;
    apr_table_addn(resp->headers, "Content-Language", language);
    apr_table_addn(resp->headers, "X-Content-Type-Options", "nosniff");
    apr_table_addn(resp->headers, "Content-Security-Policy",
                   profile_page_csp);
    apr_table_addn(resp->headers, "Referrer-Policy",
                   "strict-origin-when-cross-origin");
    apr_table_addn(resp->headers, "Vary", negotiated
                   ? "Accept-Language, Accept-Encoding" : "Accept-Encoding");
}

/* A page made now (405, 503): plain words in `lang`, no data; its style
 * from `assets` (NULL: none).  assets is the configuration's, checked
 * (profile_args_page_option(): no quote or angle bracket). */
static const char *plain_page(apr_size_t *len, const char *lang,
                              profile_page_word_e title,
                              profile_page_word_e text, const char *assets,
                              apr_pool_t *p)
{
    const char *style = assets == NULL ? ""
        : apr_pstrcat(p, "<link rel=\"stylesheet\" href=\"", assets,
                      "page.css\">\n<link rel=\"icon\" "
                      "type=\"image/svg+xml\" href=\"", assets,
                      "favicon.svg\">\n", NULL);
    const char *body = apr_pstrcat(p, "<!DOCTYPE html>\n<html lang=\"",
        lang, "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<meta "
        "name=\"robots\" content=\"noindex\">\n<title>",
        profile_page_word(title, lang, NULL), "</title>\n", style,
        "</head>\n<body>\n<main id=\"main\" class=\"status\">\n<h1>",
        profile_page_word(title, lang, NULL), "</h1>\n<p>",
        profile_page_word(text, lang, NULL), "</p>\n</main>\n</body>\n"
        "</html>\n", NULL);

    *len = strlen(body);
    return body;
}

static void uncacheable(profile_response_t *resp, int status)
{
    resp->status = status;
    resp->content_type = HTML_TYPE;
    apr_table_setn(resp->headers, "Cache-Control", "no-store");
}

/* Which page `path` (below the base) names: sets *lang (-1: none named)
 * and returns the page kind. */
typedef enum {
    PAGE_REDIRECT, PAGE_HOME, PAGE_DETAIL, PAGE_MISSING
} page_kind_e;

static page_kind_e page_of(const char *path, const profile_store_t *st,
                           int *lang, int *coll, const char **id,
                           const char **to)
{
    const char *rest, *slash;
    int l;

    *lang = -1;
    if (*path == '\0') {
        *to = "/";
        return PAGE_REDIRECT;
    }
    if (strcmp(path, "/") == 0) {
        return PAGE_HOME;
    }
    for (l = 0; l < st->nlangs; l++) {
        apr_size_t n = strlen(st->langs[l]);

        if (strncmp(path + 1, st->langs[l], n) != 0) {
            continue;
        }
        rest = path + 1 + n;
        if (*rest == '\0') {
            *to = "/";
            *lang = l;
            return PAGE_REDIRECT;
        }
        if (*rest != '/') {
            continue;
        }
        *lang = l;
        rest++;
        if (*rest == '\0') {
            return PAGE_HOME;
        }
        *coll = strncmp(rest, "experience/", 11) == 0
                ? PROFILE_COLL_EXPERIENCE
                : strncmp(rest, "case-studies/", 13) == 0
                  ? PROFILE_COLL_CASE_STUDIES : -1;
        if (*coll < 0) {
            break;
        }
        *id = strchr(rest, '/') + 1;
        slash = strchr(*id, '/');
        if (**id == '\0' || slash != NULL) {
            break;
        }
        return PAGE_DETAIL;
    }
    *lang = -1;
    return PAGE_MISSING;
}

/* The index of the item `id` of collection `coll`, or -1. */
static int item_index(const profile_store_t *st, int coll, const char *id)
{
    const profile_item_t *item = apr_hash_get(st->coll[coll].by_id, id,
                                              APR_HASH_KEY_STRING);

    return item == NULL ? -1 : (int)(item - st->coll[coll].items);
}

void profile_page_answer(profile_response_t *resp, const profile_site_t *site,
                         const profile_page_t *page,
                         const profile_request_t *req, apr_pool_t *p)
{
    const profile_store_t *st = site->store;
    const profile_body_t *body;
    const char *id = NULL, *to = NULL;
    int lang, coll = -1, i;
    page_kind_e kind = page_of(req->path, st, &lang, &coll, &id, &to);
    int negotiated = lang < 0;

    if (negotiated) {
        lang = profile_lang_choose(req->accept_language, st->langs,
                                   st->nlangs);
    }
    begin(resp, req, st->langs[lang], negotiated, p);
    resp->lang = lang;
    if (req->method == PROFILE_M_OPTIONS) {
        apr_table_addn(resp->headers, "Allow", ALLOW);
        profile_api_cacheable(resp, site, req, p);
        return;
    }
    if (req->method != PROFILE_M_GET) {
        resp->body = plain_page(&resp->len, st->langs[lang], PW_NOT_ALLOWED,
                                PW_NOT_ALLOWED_TEXT, page->where.assets, p);
        uncacheable(resp, 405);
        apr_table_setn(resp->headers, "Allow", ALLOW);
        return;
    }
    switch (kind) {
    case PAGE_REDIRECT:
        resp->status = 301;
        apr_table_setn(resp->headers, "Location",
                       apr_pstrcat(p, req->uri, to, NULL));
        profile_api_cacheable(resp, site, req, p);
        return;
    case PAGE_HOME:
        body = &page->home[lang];
        break;
    case PAGE_DETAIL:
        i = item_index(st, coll, id);
        body = i < 0 ? NULL
               : &page->detail[coll][(apr_size_t)i * (apr_size_t)st->nlangs
                                     + (apr_size_t)lang];
        break;
    default:
        body = NULL;
        break;
    }
    if (body == NULL) {
        profile_api_stored(resp, site, req, &page->missing[lang]);
        uncacheable(resp, 404);
        resp->etag = NULL;
        return;
    }
    profile_api_stored(resp, site, req, body);
    if (body->fell_back) {
        resp->language = st->fell_back_language[lang];
        apr_table_setn(resp->headers, "Content-Language", resp->language);
    }
    resp->content_type = HTML_TYPE;
    resp->conditional = 1;
    profile_api_cacheable(resp, site, req, p);
}

void profile_page_unavailable(profile_response_t *resp,
                              const profile_request_t *req,
                              const char *assets, int retry_after,
                              apr_pool_t *p)
{
    const char *lang = profile_page_word_langs[profile_lang_choose(
        req->accept_language, profile_page_word_langs,
        PROFILE_PAGE_WORD_NLANGS)];

    begin(resp, req, lang, 1, p);
    if (req->method == PROFILE_M_OPTIONS) {
        apr_table_addn(resp->headers, "Allow", ALLOW);
        apr_table_addn(resp->headers, "Cache-Control", "no-store");
        return;
    }
    resp->body = plain_page(&resp->len, lang, PW_UNAVAILABLE,
                            PW_UNAVAILABLE_TEXT, assets, p);
    uncacheable(resp, 503);
    apr_table_setn(resp->headers, "Retry-After", apr_itoa(p, retry_after));
}
