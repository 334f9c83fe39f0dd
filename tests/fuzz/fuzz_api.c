/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_api.c -- a whole request: profile_api_answer() on the sample data,
 * then the validators as the glue applies them: httpd's judgement of the
 * entity-tag lists (stood in for here) and profile_api_conditions().
 *
 * Input: a request in HTTP/1.1 form, for readable seeds:
 *
 *     METHOD SP TARGET [SP HTTP/1.1] LF
 *     Name: value LF ...
 *
 * TARGET is the decoded path below /api/v1's parent and an optional
 * "?query".  Fields used: Accept-Language, Accept, Origin,
 * Access-Control-Request-Method, If-None-Match, If-Modified-Since,
 * If-Match, Accept-Encoding; a field given twice is joined with ", " as
 * httpd does.  "X-Fuzz-Site:" lists how the <Location> is configured:
 * "list" (a CORS origin list), "identity" (ProfileCompression Off),
 * "unconfigured" (no data: the 500 path).  The sample data is loaded
 * once, with its gzip and br forms, as the module loads it.
 *
 * Invariants: the header fields of CONTRACT §4-§7 on every answer, the
 * problem body of every error, the ETag of every 200, the method rules,
 * and the content coding: one the client accepts with the highest weight
 * (br before gzip before identity on a tie), whose bytes decode to the
 * identity body and carry their own ETag.
 */
#include <strings.h>

#include <apr_date.h>
#include <apr_lib.h>
#include <jansson.h>

#define FUZZ_NAME api
#include "fuzz.h"
#include "profile_api.h"
#include "profile_enc.h"
#include "profile_hdr.h"
#include "profile_route.h"

#define BASE "/api/v1"

typedef struct {
    const char *name;
    const char *value;
} field_t;

enum {
    F_ACCEPT_LANGUAGE, F_ACCEPT, F_ORIGIN, F_ACR_METHOD, F_IF_NONE_MATCH,
    F_IF_MODIFIED_SINCE, F_IF_MATCH, F_ACCEPT_ENCODING, F_SITE, F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "Accept-Language", "Accept", "Origin", "Access-Control-Request-Method",
    "If-None-Match", "If-Modified-Since", "If-Match", "Accept-Encoding",
    "X-Fuzz-Site"
};

static apr_array_header_t *origins;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_sample();
    origins = apr_array_make(fuzz_root, 2, sizeof(const char *));
    APR_ARRAY_PUSH(origins, const char *) = "https://a.example";
    APR_ARRAY_PUSH(origins, const char *) = "https://b.example";
    return 0;
}

/* Splits the input into the request line and the fields. */
static void parse_input(const char **method, const char **target,
                        const char *f[F_COUNT], const char *in,
                        apr_pool_t *p)
{
    char *s = apr_pstrdup(p, in), *line, *next, *sp;
    int i;

    for (i = 0; i < F_COUNT; i++) {
        f[i] = NULL;
    }
    next = strchr(s, '\n');
    if (next != NULL) {
        *next++ = '\0';
    }
    line = s;
    if (*line && line[strlen(line) - 1] == '\r') {
        line[strlen(line) - 1] = '\0';
    }
    sp = strchr(line, ' ');
    *method = line;
    *target = "";
    if (sp != NULL) {
        size_t n;

        *sp = '\0';
        *target = sp + 1;
        n = strlen(sp + 1);
        if (n >= 9 && strncmp(sp + 1 + n - 9, " HTTP/1.", 8) == 0) {
            sp[1 + n - 9] = '\0';
        }
    }
    while (next != NULL) {
        char *colon, *value;

        line = next;
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }
        if (*line && line[strlen(line) - 1] == '\r') {
            line[strlen(line) - 1] = '\0';
        }
        colon = strchr(line, ':');
        if (colon == NULL) {
            continue;
        }
        *colon = '\0';
        value = colon + 1;
        while (*value == ' ' || *value == '\t') {
            value++;
        }
        for (i = 0; i < F_COUNT; i++) {
            if (strcasecmp(line, field_names[i]) == 0) {
                f[i] = f[i] ? apr_pstrcat(p, f[i], ", ", value, NULL)
                            : value;
            }
        }
    }
}

/* Whether the entity-tag list `list` holds `etag` ("*" holds any);
 * `weak`: W/ prefixes are ignored (RFC 9110 §8.8.3.2). */
static int etag_listed(const char *list, const char *etag, int weak,
                       apr_pool_t *p)
{
    char *copy = apr_pstrdup(p, list), *last = NULL, *tok;

    for (tok = apr_strtok(copy, ",", &last); tok != NULL;
         tok = apr_strtok(NULL, ",", &last)) {
        char *end;

        while (*tok == ' ' || *tok == '\t') {
            tok++;
        }
        end = tok + strlen(tok);
        while (end > tok && (end[-1] == ' ' || end[-1] == '\t')) {
            *--end = '\0';
        }
        if (strcmp(tok, "*") == 0) {
            return 1;
        }
        if (strncmp(tok, "W/", 2) == 0) {
            if (!weak) {
                continue;
            }
            tok += 2;
        }
        if (strcmp(tok, etag) == 0) {
            return 1;
        }
    }
    return 0;
}

static int has_token(const char *list, const char *token)
{
    const char *s = list;
    size_t n = strlen(token);

    while (s != NULL && (s = strstr(s, token)) != NULL) {
        if ((s == list || s[-1] == ' ' || s[-1] == ',')
            && (s[n] == '\0' || s[n] == ',')) {
            return 1;
        }
        s += n;
    }
    return 0;
}

/* The weight Accept-Encoding `ae` gives coding `name`: the highest of
 * the elements naming it, else that of "*", else -1 (unnamed). */
static int coding_weight(const char *ae, const char *name)
{
    profile_hdr_elem_t e;
    const char *cursor = ae;
    int q = -1, star = -1;

    while (profile_hdr_next(&cursor, &e)) {
        int is_name = (e.token_len == strlen(name)
                       && strncasecmp(e.token, name, e.token_len) == 0)
                      || (strcmp(name, "gzip") == 0 && e.token_len == 6
                          && strncasecmp(e.token, "x-gzip", 6) == 0);

        if (e.malformed) {
            continue;
        }
        if (is_name && e.q > q) {
            q = e.q;
        }
        if (e.token_len == 1 && e.token[0] == '*' && e.q > star) {
            star = e.q;
        }
    }
    return q >= 0 ? q : star;
}

/* The representation a stored answer to GET `path` comes from. */
static const profile_body_t *stored_body(const profile_store_t *st,
                                         const char *path, int lang,
                                         apr_pool_t *p)
{
    profile_route_t rt;
    const profile_item_t *item;

    if (profile_route_match(&rt, path, p) != 0) {
        return NULL;
    }
    switch (rt.route) {
    case PROFILE_R_PROFILE:
        return &st->profile[lang];
    case PROFILE_R_CONTACT:
        return &st->contact[lang];
    case PROFILE_R_EXPERIENCE_ITEM:
    case PROFILE_R_CASE_STUDY:
        item = apr_hash_get(st->coll[rt.coll].by_id, rt.id,
                            APR_HASH_KEY_STRING);
        return item ? &item->body[lang] : NULL;
    default:
        return &st->coll[rt.coll].all[lang];
    }
}

/* The content coding of a stored answer (CONTRACT, issue 3). */
static void check_coding(const profile_response_t *resp,
                         const profile_site_t *site,
                         const profile_request_t *req, apr_pool_t *p)
{
    const profile_body_t *b = stored_body(site->store, req->path,
                                          resp->lang, p);
    const char *ae = req->accept_encoding;
    int chosen = PROFILE_ENC_IDENTITY, e, w[PROFILE_ENC_COUNT];

    FUZZ_CHECK(b != NULL, "stored answer for %s", req->path);
    for (e = PROFILE_ENC_GZIP; e < PROFILE_ENC_COUNT; e++) {
        if (resp->content_encoding != NULL
            && strcmp(resp->content_encoding, profile_enc_names[e]) == 0) {
            chosen = e;
        }
    }
    if (!site->compress || ae == NULL) {
        FUZZ_CHECK(chosen == PROFILE_ENC_IDENTITY
                   && resp->content_encoding == NULL,
                   "coding %s without compression or Accept-Encoding",
                   resp->content_encoding);
        FUZZ_CHECK(resp->body == b->data && resp->len == b->len
                   && resp->etag == b->etag, "identity body");
        return;
    }
    FUZZ_CHECK(resp->content_encoding == NULL || chosen != 0,
               "coding %s", resp->content_encoding);
    if (chosen == PROFILE_ENC_IDENTITY) {
        FUZZ_CHECK(resp->body == b->data && resp->len == b->len
                   && resp->etag == b->etag, "identity body");
    }
    else {
        FUZZ_CHECK(b->coded[chosen].data != NULL
                   && resp->body == b->coded[chosen].data
                   && resp->len == b->coded[chosen].len
                   && resp->etag == b->coded[chosen].etag
                   && strcmp(resp->etag, b->etag) != 0
                   && strcmp(resp->etag, profile_etag(resp->body, resp->len,
                                                      p)) == 0,
                   "%s body or ETag", resp->content_encoding);
        FUZZ_CHECK(fuzz_decodes_to(resp->content_encoding, resp->body,
                                   resp->len, b->data, b->len),
                   "the %s body does not decode to the identity body",
                   resp->content_encoding);
    }

    /* Weights: unnamed codings are not acceptable (0); identity unnamed
     * loses to any acceptable coding (-1). */
    w[PROFILE_ENC_IDENTITY] = coding_weight(ae, "identity");
    for (e = PROFILE_ENC_GZIP; e < PROFILE_ENC_COUNT; e++) {
        w[e] = coding_weight(ae, profile_enc_names[e]);
        w[e] = b->coded[e].data == NULL ? -1 : w[e] < 0 ? 0 : w[e];
    }
    if (chosen != PROFILE_ENC_IDENTITY) {
        FUZZ_CHECK(w[chosen] > 0, "%s sent to \"%s\"",
                   profile_enc_names[chosen], ae);
        FUZZ_CHECK(w[chosen] >= w[PROFILE_ENC_IDENTITY],
                   "%s sent, identity preferred by \"%s\"",
                   profile_enc_names[chosen], ae);
    }
    for (e = PROFILE_ENC_GZIP; e < PROFILE_ENC_COUNT; e++) {
        if (e == chosen || w[e] <= 0) {
            continue;
        }
        FUZZ_CHECK(chosen != PROFILE_ENC_IDENTITY
                   ? w[e] < w[chosen]
                     || (w[e] == w[chosen] && chosen == PROFILE_ENC_BR)
                   : w[PROFILE_ENC_IDENTITY] > w[e],
                   "%s chosen over %s for \"%s\"",
                   profile_enc_names[chosen], profile_enc_names[e], ae);
    }
}

static void check_problem(const profile_response_t *resp)
{
    json_error_t jerr;
    json_t *body = json_loadb(resp->body, resp->len, JSON_REJECT_DUPLICATES,
                              &jerr);

    FUZZ_CHECK(body != NULL && json_is_object(body),
               "%d body is not a JSON object (%s): %.*s", resp->status,
               jerr.text, (int)resp->len, resp->body);
    FUZZ_CHECK(json_integer_value(json_object_get(body, "status"))
               == resp->status
               && json_is_string(json_object_get(body, "type"))
               && json_is_string(json_object_get(body, "title"))
               && json_is_string(json_object_get(body, "detail")),
               "%d problem body: %.*s", resp->status, (int)resp->len,
               resp->body);
    json_decref(body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    const profile_store_t *st = fuzz_sample();
    const char *f[F_COUNT];
    const char *method, *target, *q, *hv;
    profile_site_t site;
    profile_request_t req;
    profile_response_t resp;
    profile_conds_t conds;
    int unconfigured, preflight, list;

    apr_pool_create(&p, fuzz_root);
    parse_input(&method, &target, f, fuzz_cstr(data, size, p), p);
    list = f[F_SITE] != NULL && has_token(f[F_SITE], "list");
    unconfigured = f[F_SITE] != NULL && has_token(f[F_SITE], "unconfigured");
    site.store = unconfigured ? NULL : st;
    site.origins = list ? origins : NULL;
    site.max_age = 300;
    site.cache_control = "public, max-age=300";
    site.compress = f[F_SITE] == NULL || !has_token(f[F_SITE], "identity");

    /* What profile_handler() takes from request_rec. */
    memset(&req, 0, sizeof(req));
    req.method = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0
                 ? PROFILE_M_GET
                 : strcmp(method, "OPTIONS") == 0 ? PROFILE_M_OPTIONS
                 : PROFILE_M_OTHER;
    req.method_name = method;
    q = strchr(target, '?');
    req.uri = q ? apr_pstrmemdup(p, target, (apr_size_t)(q - target))
                : target;
    req.args = q ? q + 1 : NULL;
    req.accept_language = f[F_ACCEPT_LANGUAGE];
    req.accept = f[F_ACCEPT];
    req.accept_encoding = f[F_ACCEPT_ENCODING];
    req.origin = f[F_ORIGIN];
    req.acr_method = f[F_ACR_METHOD];
    preflight = req.method == PROFILE_M_OPTIONS && req.origin != NULL
                && req.acr_method != NULL;

    if (unconfigured) {
        req.path = "";
        profile_api_answer(&resp, &site, &req, p);
        profile_api_error(&resp, &site, &req, 500, p);
    }
    else {
        size_t n = strlen(BASE);

        req.path = strncmp(req.uri, BASE, n) == 0
                   && (req.uri[n] == '/' || req.uri[n] == '\0')
                   ? req.uri + n : NULL;
        profile_api_answer(&resp, &site, &req, p);
    }

    if (resp.conditional) {
        FUZZ_CHECK(resp.status == 200 && resp.etag != NULL
                   && req.method == PROFILE_M_GET, "conditional %d",
                   resp.status);
        FUZZ_CHECK(resp.content_encoding != NULL
                   ? strcmp(resp.etag, profile_etag(resp.body, resp.len, p))
                     == 0
                   : fuzz_etag_ok(resp.etag, resp.body, resp.len, st,
                                  resp.lang, p),
                   "ETag %s is not the hash of the body", resp.etag);
        /* What httpd's ap_condition_if_*() would say (they need a
         * request_rec), then the module's own decision. */
        memset(&conds, 0, sizeof(conds));
        conds.if_match = f[F_IF_MATCH] == NULL ? PROFILE_COND_NONE
                         : etag_listed(f[F_IF_MATCH], resp.etag, 0, p)
                         ? PROFILE_COND_STRONG : PROFILE_COND_NOMATCH;
        conds.if_none_match = f[F_IF_NONE_MATCH] == NULL ? PROFILE_COND_NONE
                              : etag_listed(f[F_IF_NONE_MATCH], resp.etag, 1,
                                            p)
                              ? PROFILE_COND_WEAK : PROFILE_COND_NOMATCH;
        conds.if_modified_since = f[F_IF_MODIFIED_SINCE];
        conds.last_modified = st->mtime;
        profile_api_conditions(&resp, &site, &req, &conds, p);
        if (f[F_IF_MATCH] != NULL && conds.if_match == PROFILE_COND_NOMATCH) {
            FUZZ_CHECK(resp.status == 412, "If-Match: %d", resp.status);
        }
        else if (f[F_IF_NONE_MATCH] != NULL) {
            FUZZ_CHECK(resp.status == (conds.if_none_match
                                       == PROFILE_COND_WEAK ? 304 : 200),
                       "If-None-Match: %d", resp.status);
        }
    }

    /* Every answer (CONTRACT §4-§7). */
    FUZZ_CHECK(resp.status == 200 || resp.status == 304
               || resp.status == 400 || resp.status == 404
               || resp.status == 405 || resp.status == 412
               || resp.status == 500, "status %d", resp.status);
    FUZZ_CHECK(resp.lang >= 0 && resp.lang < st->nlangs, "language %d",
               resp.lang);
    hv = apr_table_get(resp.headers, "Content-Language");
    FUZZ_CHECK(hv != NULL && strcmp(hv, st->langs[resp.lang]) == 0,
               "Content-Language %s", hv ? hv : "missing");
    hv = apr_table_get(resp.headers, "Vary");
    FUZZ_CHECK(hv != NULL && has_token(hv, "Accept-Language")
               && (!list || has_token(hv, "Origin"))
               && has_token(hv, "Accept-Encoding")
               && (resp.status < 400 || has_token(hv, "Accept")),
               "Vary: %s on %d", hv ? hv : "missing", resp.status);
    hv = apr_table_get(resp.headers, "X-Content-Type-Options");
    FUZZ_CHECK(hv != NULL && strcmp(hv, "nosniff") == 0, "nosniff");
    hv = apr_table_get(resp.headers, "Access-Control-Allow-Origin");
    if (!list) {
        FUZZ_CHECK(hv != NULL && strcmp(hv, "*") == 0, "ACAO %s",
                   hv ? hv : "missing");
    }
    else {
        int allowed = req.origin != NULL
                      && (strcmp(req.origin, "https://a.example") == 0
                          || strcmp(req.origin, "https://b.example") == 0);

        FUZZ_CHECK(allowed ? hv != NULL && strcmp(hv, req.origin) == 0
                           : hv == NULL, "ACAO %s for origin %s",
                   hv ? hv : "missing", req.origin ? req.origin : "none");
    }
    FUZZ_CHECK((apr_table_get(resp.headers, "Access-Control-Allow-Methods")
                != NULL) == preflight
               && (apr_table_get(resp.headers,
                                 "Access-Control-Expose-Headers") != NULL)
                  == !preflight, "CORS fields (preflight %d)", preflight);
    FUZZ_CHECK(resp.len == 0 || resp.body != NULL, "length without body");

    if (resp.status >= 400) {
        FUZZ_CHECK(resp.content_type != NULL
                   && (strcmp(resp.content_type, "application/json") == 0
                       || strcmp(resp.content_type,
                                 "application/problem+json") == 0),
                   "error type %s", resp.content_type);
        hv = apr_table_get(resp.headers, "Cache-Control");
        FUZZ_CHECK(hv != NULL && strcmp(hv, "no-store") == 0,
                   "Cache-Control %s on %d", hv, resp.status);
        FUZZ_CHECK((apr_table_get(resp.headers, "Allow") != NULL)
                   == (resp.status == 405), "Allow on %d", resp.status);
        FUZZ_CHECK(!resp.stored && resp.etag == NULL, "error with ETag");
        FUZZ_CHECK(resp.status != 405 || req.method == PROFILE_M_OTHER,
                   "405 for %s", method);
        FUZZ_CHECK(resp.status != 500 || unconfigured, "500");
        check_problem(&resp);
    }
    else if (req.method == PROFILE_M_OPTIONS) {
        FUZZ_CHECK(resp.status == 200 && resp.body == NULL
                   && resp.content_type == NULL
                   && apr_table_get(resp.headers, "Allow") != NULL,
                   "OPTIONS answered %d", resp.status);
    }
    else {
        FUZZ_CHECK(req.method == PROFILE_M_GET && req.path != NULL,
                   "%d for %s %s", resp.status, method, req.uri);
        FUZZ_CHECK(resp.content_type != NULL
                   && strcmp(resp.content_type, "application/json") == 0,
                   "type %s", resp.content_type);
        hv = apr_table_get(resp.headers, "Cache-Control");
        FUZZ_CHECK(hv != NULL && strcmp(hv, "public, max-age=300") == 0,
                   "Cache-Control %s", hv);
        if (!resp.stored) {
            profile_route_t rt;

            FUZZ_CHECK(profile_route_match(&rt, req.path, p) == 0
                       && rt.param != NULL
                       && fuzz_selection(resp.body, resp.len,
                                         &st->coll[rt.coll], resp.lang)
                          >= 0,
                       "filtered body is not a selection of items: %.*s",
                       (int)resp.len, resp.body);
        }
    }
    if (resp.stored) {
        FUZZ_CHECK(resp.status == 200 || resp.status == 304,
                   "stored body on %d", resp.status);
        check_coding(&resp, &site, &req, p);
    }
    else {
        FUZZ_CHECK(resp.content_encoding == NULL, "%s on a body made now",
                   resp.content_encoding);
    }

    apr_pool_destroy(p);
    return 0;
}
