/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_api.c -- one request's answer (CONTRACT §2-§8).  Checks run in
 * the contract's order: path (404), method (405), query (400), record id
 * (404).  OPTIONS answers 200 on any path below the base.
 *
 * Unfiltered answers are the bodies rendered at load time; a filtered
 * answer joins the elements rendered at load time whose folded search
 * keys contain the folded value, and hashes only the result.
 *
 * Content-Language is the chosen language, and the chosen language then
 * the fallback ("es, en") for a body that holds any value served in the
 * fallback (§4): known per body at load time, and for a filtered answer
 * from the elements it joins.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_cstr.h>
#include <apr_date.h>
#include <apr_strings.h>

#include "profile_api.h"
#include "profile_cors.h"
#include "profile_enc.h"
#include "profile_etag.h"
#include "profile_hdr.h"
#include "profile_lang.h"
#include "profile_problem.h"
#include "profile_query.h"
#include "profile_route.h"
#include "profile_text.h"

#define JSON_TYPE "application/json"
#define PROBLEM_TYPE "application/problem+json"
#define ALLOW "GET, HEAD, OPTIONS"
#define PRINTABLE_MAX 200

static const char *lang_name(const profile_site_t *site, int lang)
{
    return site->store ? site->store->langs[lang] : "en";
}

/* A client gets application/problem+json when its Accept names that type
 * with q > 0; application/json otherwise (§7). */
static int wants_problem_json(const char *accept)
{
    profile_hdr_elem_t e;
    const char *cursor = accept;

    while (profile_hdr_next(&cursor, &e)) {
        if (!e.malformed && e.q > 0
            && e.token_len == sizeof(PROBLEM_TYPE) - 1
            && apr_cstr_casecmpn(e.token, PROBLEM_TYPE, e.token_len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Begins every answer: resp emptied, and the fields every response
 * carries (§4, §5, §6). */
static void begin_response(profile_response_t *resp,
                           const profile_site_t *site,
                           const profile_request_t *req, apr_pool_t *p)
{
    int preflight = req->method == PROFILE_M_OPTIONS && req->origin != NULL
                    && req->acr_method != NULL;
    int by_origin;

    resp->status = 200;
    resp->content_type = NULL;
    resp->body = NULL;
    resp->len = 0;
    resp->stored = 0;
    resp->content_encoding = NULL;
    resp->route = NULL;
    resp->etag = NULL;
    resp->conditional = 0;
    /* The fields are new to the table: added, not looked for first. */
    resp->headers = req->headers ? req->headers : apr_table_make(p, 12);
    resp->lang = site->store
                 ? profile_lang_choose(req->accept_language,
                                       site->store->langs,
                                       site->store->nlangs)
                 : 0;
    resp->language = lang_name(site, resp->lang);
    apr_table_addn(resp->headers, "Content-Language", resp->language);
    apr_table_addn(resp->headers, "X-Content-Type-Options", "nosniff");
    by_origin = profile_cors_apply(resp->headers, site->origins, req->origin,
                                   preflight);
    /* Every response varies by Accept-Encoding: with precompression
     * because of it, without because mod_deflate or mod_brotli may
     * compress the 200 but never mark the 304 (caches take a 304's
     * fields over the stored ones). */
    apr_table_addn(resp->headers, "Vary", by_origin
                   ? "Accept-Language, Accept-Encoding, Origin"
                   : "Accept-Language, Accept-Encoding");
}

/* Cache-Control, and Expires at the same instant: HTTP/1.0 caches read
 * it, and mod_expires, which would otherwise add a max-age of its own
 * to Cache-Control, leaves an answer that has one alone.  Every answer
 * is negotiated (Vary), which an HTTP/1.0 cache does not understand:
 * to an HTTP/1.0 request Expires is the request time, httpd's Date
 * (r->request_time), so such a cache stores no variant for everyone,
 * as httpd's mod_negotiation does for negotiated answers to HTTP/1.0
 * (r->no_cache).  Cache-Control, for HTTP/1.1 caches on the way, stays
 * as it is. */
void profile_api_cacheable(profile_response_t *resp, const profile_site_t *site,
                      const profile_request_t *req, apr_pool_t *p)
{
    char *expires = apr_palloc(p, APR_RFC822_DATE_LEN);
    apr_time_t until = req->http10 ? req->now
                       : req->now + apr_time_from_sec(site->max_age);

    /* Called once per answer, before any other Cache-Control or
     * Expires: added. */
    apr_table_addn(resp->headers, "Cache-Control", site->cache_control
                   ? site->cache_control
                   : apr_psprintf(p, "public, max-age=%d", site->max_age));
    if ((req->date ? req->date : apr_rfc822_date)(expires, until)
        == APR_SUCCESS) {
        apr_table_addn(resp->headers, "Expires", expires);
    }
}

/* The stored representation `body` in the coding the request prefers. */
void profile_api_stored(profile_response_t *resp, const profile_site_t *site,
                   const profile_request_t *req, const profile_body_t *body)
{
    unsigned available = 0;
    profile_enc_e enc = PROFILE_ENC_IDENTITY;
    int e;

    if (site->compress && req->accept_encoding != NULL) {
        for (e = PROFILE_ENC_GZIP; e < PROFILE_ENC_COUNT; e++) {
            if (body->coded[e].data != NULL) {
                available |= 1u << e;
            }
        }
        if (available) {
            enc = profile_enc_choose(req->accept_encoding, available);
        }
    }
    if (enc != PROFILE_ENC_IDENTITY) {
        resp->body = body->coded[enc].data;
        resp->len = body->coded[enc].len;
        resp->etag = body->coded[enc].etag;
        resp->content_encoding = profile_enc_names[enc];
    }
    else {
        resp->body = body->data;
        resp->len = body->len;
        resp->etag = body->etag;
    }
    resp->stored = 1;
}

/* Makes resp an error answer with the given problem body. */
static void answer_problem(profile_response_t *resp,
                           const profile_site_t *site,
                           const profile_request_t *req, int status,
                           const char *body, apr_size_t len)
{
    resp->status = status;
    resp->body = body;
    resp->len = len;
    resp->stored = 0;
    resp->content_encoding = NULL;
    resp->etag = NULL;
    resp->conditional = 0;
    resp->content_type = wants_problem_json(
                             req->accept != NULL || req->fields == NULL
                             ? req->accept
                             : apr_table_get(req->fields, "Accept"))
                         ? PROBLEM_TYPE : JSON_TYPE;
    apr_table_setn(resp->headers, "Cache-Control", "no-store");
    apr_table_unset(resp->headers, "Expires");
    resp->language = profile_problem_lang(lang_name(site, resp->lang));
    apr_table_setn(resp->headers, "Content-Language", resp->language);
    apr_table_mergen(resp->headers, "Vary", "Accept");
    apr_table_unset(resp->headers, "Allow");
    if (status == 405) {
        apr_table_setn(resp->headers, "Allow", ALLOW);
    }
}

static void not_found(profile_response_t *resp, const profile_site_t *site,
                      const profile_request_t *req, profile_msg_e msg,
                      const char *arg, apr_pool_t *p)
{
    apr_size_t len;
    const char *body;

    arg = profile_text_printable(arg, strlen(arg), PRINTABLE_MAX, p);
    body = profile_problem_render(&len, 404, msg, arg,
                                  lang_name(site, resp->lang), p);
    answer_problem(resp, site, req, 404, body, len);
}

/* The body's Content-Language, where it holds a value served in the
 * fallback (§4); the field is in the table already (begin_response). */
static void fell_back(profile_response_t *resp, const profile_store_t *st)
{
    resp->language = st->fell_back_language[resp->lang];
    apr_table_setn(resp->headers, "Content-Language", resp->language);
}

/* The elements of `coll` whose keys contain `value`, as a JSON array.
 * Every element matching is the stored collection (with its coded
 * forms); otherwise the bytes are joined and the ETag computed from the
 * elements' hashes, as the collection's own, so its cost does not grow
 * with the bytes.  Content-Language says the fallback when one of the
 * elements joined holds a value in it. */
static void answer_filtered(profile_response_t *resp,
                            const profile_site_t *site,
                            const profile_request_t *req,
                            const profile_coll_t *coll, int lang,
                            const char *value, apr_size_t value_len,
                            apr_pool_t *p)
{
    const char *needle = profile_text_fold(value, value_len, p);
    apr_size_t total = 2;
    const profile_body_t **hits;
    char *out, *o;
    int i, n = 0;

    hits = apr_palloc(p, sizeof(*hits) * (apr_size_t)(coll->nitems + 1));
    for (i = 0; needle != NULL && i < coll->nitems; i++) {
        const char **key;

        for (key = coll->items[i].keys[lang]; *key; key++) {
            if (profile_text_contains(*key, needle)) {
                hits[n++] = &coll->items[i].body[lang];
                total += coll->items[i].body[lang].len + 1;
                break;
            }
        }
    }
    if (n == coll->nitems) {
        profile_api_stored(resp, site, req, &coll->all[lang]);
        if (coll->all[lang].fell_back) {
            fell_back(resp, site->store);
        }
        return;
    }
    for (i = 0; site->store->fallback >= 0 && i < n; i++) {
        if (hits[i]->fell_back) {
            fell_back(resp, site->store);
            break;
        }
    }
    o = out = apr_palloc(p, total + 1);
    *o++ = '[';
    for (i = 0; i < n; i++) {
        if (i > 0) {
            *o++ = ',';
        }
        memcpy(o, hits[i]->data, hits[i]->len);
        o += hits[i]->len;
    }
    *o++ = ']';
    *o = '\0';
    resp->body = out;
    resp->len = (apr_size_t)(o - out);
    resp->etag = profile_etag_joined(hits, n, p);
}

void profile_api_answer(profile_response_t *resp, const profile_site_t *site,
                        const profile_request_t *req, apr_pool_t *p)
{
    const profile_store_t *st = site->store;
    const profile_body_t *body = NULL;
    profile_route_t rt;
    profile_query_t q;
    apr_size_t len;
    const char *text;

    begin_response(resp, site, req, p);
    if (profile_route_match(&rt, req->path, p) == 0) {
        resp->route = rt.path;
    }
    if (req->method == PROFILE_M_OPTIONS) {
        /* A preflight must never fail because a record does not exist. */
        apr_table_addn(resp->headers, "Allow", ALLOW);
        profile_api_cacheable(resp, site, req, p);
        return;
    }
    if (resp->route == NULL) {
        not_found(resp, site, req, PROFILE_MSG_NO_ROUTE, req->uri, p);
        return;
    }
    if (req->method != PROFILE_M_GET) {
        text = profile_problem_render(&len, 405, PROFILE_MSG_METHOD,
                                      profile_text_printable(
                                          req->method_name,
                                          strlen(req->method_name), 32, p),
                                      lang_name(site, resp->lang), p);
        answer_problem(resp, site, req, 405, text, len);
        return;
    }
    q.value = NULL;                 /* no query: nothing to parse */
    q.value_len = 0;
    if (req->args != NULL
        && profile_query_parse(&q, req->args, rt.param, p) != APR_SUCCESS) {
        text = profile_problem_render_query(&len, q.problems, rt.param,
                                            lang_name(site, resp->lang), p);
        answer_problem(resp, site, req, 400, text, len);
        return;
    }
    if (st == NULL) {
        profile_api_error(resp, site, req, 500, p);
        return;
    }

    switch (rt.route) {
    case PROFILE_R_PROFILE:
        body = &st->profile[resp->lang];
        break;
    case PROFILE_R_CONTACT:
        body = &st->contact[resp->lang];
        break;
    case PROFILE_R_EXPERIENCE_ITEM:
    case PROFILE_R_CASE_STUDY: {
        const profile_item_t *item = apr_hash_get(st->coll[rt.coll].by_id,
                                                  rt.id,
                                                  APR_HASH_KEY_STRING);
        if (item == NULL) {
            not_found(resp, site, req,
                      rt.route == PROFILE_R_CASE_STUDY
                      ? PROFILE_MSG_NO_CASE_STUDY
                      : PROFILE_MSG_NO_EXPERIENCE, rt.id, p);
            return;
        }
        body = &item->body[resp->lang];
        break;
    }
    default:
        if (q.value == NULL) {
            body = &st->coll[rt.coll].all[resp->lang];
        }
        break;
    }

    if (body != NULL) {
        profile_api_stored(resp, site, req, body);
        if (body->fell_back) {
            fell_back(resp, st);
        }
    }
    else {
        answer_filtered(resp, site, req, &st->coll[rt.coll], resp->lang,
                        q.value, q.value_len, p);
    }
    resp->content_type = JSON_TYPE;
    resp->conditional = 1;
    profile_api_cacheable(resp, site, req, p);
}

void profile_api_error(profile_response_t *resp, const profile_site_t *site,
                       const profile_request_t *req, int status,
                       apr_pool_t *p)
{
    apr_size_t len;
    const char *body;

    apr_table_unset(resp->headers, "Last-Modified");
    body = profile_problem_render(&len, status, status == 412
                                  ? PROFILE_MSG_PRECONDITION
                                  : PROFILE_MSG_UNCONFIGURED, NULL,
                                  lang_name(site, resp->lang), p);
    answer_problem(resp, site, req, status, body, len);
}

void profile_api_conditions(profile_response_t *resp,
                            const profile_site_t *site,
                            const profile_request_t *req,
                            const profile_conds_t *c, apr_pool_t *p)
{
    /* The order and the quirks of httpd's ap_meets_conditions(): a
     * satisfied If-Unmodified-Since rules out a 304 by If-None-Match. */
    int not_modified = -1;

    if (!resp->conditional) {
        return;
    }
    if (c->if_match == PROFILE_COND_NOMATCH
        || c->if_unmodified_since >= PROFILE_COND_WEAK) {
        profile_api_error(resp, site, req, 412, p);
        return;
    }
    if (c->if_unmodified_since == PROFILE_COND_NOMATCH) {
        not_modified = 0;
    }
    if (c->if_none_match == PROFILE_COND_NOMATCH) {
        not_modified = 0;
    }
    else if (c->if_none_match >= PROFILE_COND_WEAK && not_modified != 0) {
        not_modified = 1;
    }
    if (c->if_none_match == PROFILE_COND_NONE
        && c->if_modified_since != NULL) {
        apr_time_t since = apr_date_parse_http(c->if_modified_since);

        if (since != APR_DATE_BAD
            && apr_time_sec(since) >= apr_time_sec(c->last_modified)) {
            not_modified = 1;
        }
    }
    if (not_modified == 1) {
        resp->status = 304;
    }
}

void profile_api_unavailable(profile_response_t *resp,
                             const profile_site_t *site,
                             const profile_request_t *req, int retry_after,
                             apr_pool_t *p)
{
    profile_site_t none = *site;
    const char *lang, *body;
    apr_size_t len;

    none.store = NULL;
    /* Without data the languages the API serves are unknown: the
     * request's choice among those of the problem texts, English (the
     * first) when it accepts none of them. */
    lang = profile_problem_langs[profile_lang_choose(req->accept_language,
                                                     profile_problem_langs,
                                                     PROFILE_PROBLEM_NLANGS)];
    if (req->method == PROFILE_M_OPTIONS) {
        /* A preflight answered 503 is a CORS failure: the page would
         * never see the 503 its real request gets. */
        profile_api_answer(resp, &none, req, p);
        resp->language = lang;
        apr_table_setn(resp->headers, "Content-Language", lang);
        return;
    }
    begin_response(resp, &none, req, p);
    body = profile_problem_render(&len, 503, PROFILE_MSG_UNAVAILABLE, NULL,
                                  lang, p);
    answer_problem(resp, &none, req, 503, body, len);
    resp->language = lang;
    apr_table_setn(resp->headers, "Content-Language", lang);
    apr_table_setn(resp->headers, "Retry-After",
                   apr_itoa(p, retry_after));
    /* Retry-After is no CORS-safelisted response field. */
    apr_table_setn(resp->headers, "Access-Control-Expose-Headers",
                   "ETag, Retry-After");
}
