/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile.c -- httpd glue: the module record, its hooks and the
 * `profile` handler.  It translates a request_rec into a core request,
 * asks the core (profile_api.c) for the answer, with httpd's judgement
 * of the validators (ap_condition_*), and writes the answer.  The
 * directives live in mod_profile_config.c, loading and reloads in
 * mod_profile_reload.c, the status in mod_profile_status*.c; everything
 * else in the pure core (profile_*.c).
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "mpm_common.h"
#include "ap_mmn.h"
#include "util_filter.h"
#include "util_time.h"
#include "mod_core.h"

#include <apr_atomic.h>
#include <apr_date.h>
#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_api.h"
#include "profile_args.h"
#include "profile_page_api.h"

/* core_dir_config.expr_handler (SetHandler) came with 2.4.19. */
#if !AP_MODULE_MAGIC_AT_LEAST(20120211, 53)
#error "mod_profile needs Apache httpd 2.4.19 or later"
#endif

APLOG_USE_MODULE(profile);

static int apply_header(void *rv, const char *key, const char *val)
{
    request_rec *r = rv;

    if (strcasecmp(key, "Vary") == 0) {
        apr_table_mergen(r->headers_out, key, val);
    }
    else {
        apr_table_setn(r->headers_out, key, val);
    }
    return 1;
}

/* What the answer was, for the access log (docs/operations.md, "The
 * access log"): the language and coding served, the route, and whether
 * the data is the last good load of a file that failed to load since;
 * as notes (%{profile-lang}n, note('profile-lang')) always, and as
 * variables of the request's environment (%{profile-lang}e, env=,
 * mod_lua) where ProfileLogVariables On says so: each variable costs a
 * scan of subprocess_env, which mod_setenvif and mod_env fill. */
static void note_answer(request_rec *r, const profile_response_t *resp,
                        const profile_data_t *data, int variables)
{
    static const char *const names[] = {
        "profile-lang", "profile-route", "profile-coding", "profile-stale"
    };
    const char *vals[4];
    int i;

    vals[0] = resp->language;
    vals[1] = resp->route;
    vals[2] = resp->content_encoding ? resp->content_encoding : "identity";
    vals[3] = data == NULL || data->store == NULL ? NULL
              : data->stale ? "1" : "0";
    for (i = 0; i < 4; i++) {
        if (vals[i] != NULL) {
            /* Only this module names notes so, and the handler runs
             * once per request: added, not looked for first.  SetEnv
             * or mod_rewrite may have set a variable before. */
            apr_table_addn(r->notes, names[i], vals[i]);
            if (variables) {
                apr_table_setn(r->subprocess_env, names[i], vals[i]);
            }
        }
    }
}

static int send_answer(request_rec *r, const profile_response_t *resp,
                       const profile_dir_conf_t *conf)
{
    const profile_data_t *data = conf->use ? conf->use->data : NULL;
    apr_bucket_alloc_t *ba = r->connection->bucket_alloc;
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, ba);
    const char *from = resp->body;

    note_answer(r, resp, data, profile_conf_log_variables(conf));
    if (resp->headers != r->headers_out) {
        apr_table_do(apply_header, r, resp->headers, NULL);
    }
    /* The header fields above are the whole truth: nothing another
     * module derived from the file name (mod_mime, by its extensions:
     * an {id} may hold a dot) may replace them. */
    r->content_type = NULL;
    r->content_languages = NULL;
    r->content_encoding = NULL;
    r->status = resp->status;
    /* Every answer is whole (the specification's "all success responses
     * are 200"): no byte ranges, so no 206 and no 416. */
    ap_remove_output_filter_byhandle(r->output_filters, "BYTERANGE");
    /* In the table, Content-Encoding stays on a 304 too, and tells
     * mod_deflate and mod_brotli that the body is already coded. */
    if (resp->content_encoding != NULL) {
        apr_table_setn(r->headers_out, "Content-Encoding",
                       resp->content_encoding);
    }
    if (resp->status != HTTP_NOT_MODIFIED) {
        if (resp->content_type != NULL) {
            ap_set_content_type(r, resp->content_type);
        }
        ap_set_content_length(r, (apr_off_t)resp->len);
        if (resp->len > 0) {
            /* Bodies rendered at load time live as long as the process;
             * anything else lives in the request pool. */
            APR_BRIGADE_INSERT_TAIL(bb, resp->stored
                ? apr_bucket_immortal_create(from, resp->len, ba)
                : apr_bucket_pool_create(from, resp->len, r->pool, ba));
        }
    }
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_eos_create(ba));
    return ap_pass_brigade_fchk(r, bb, NULL);
}

static profile_cond_e cond_of(ap_condition_e c)
{
    switch (c) {
    case AP_CONDITION_NOMATCH: return PROFILE_COND_NOMATCH;
    case AP_CONDITION_WEAK: return PROFILE_COND_WEAK;
    case AP_CONDITION_STRONG: return PROFILE_COND_STRONG;
    default: return PROFILE_COND_NONE;
    }
}

/* Sets the validators of a 200 GET/HEAD and lets httpd judge the
 * request's conditions against them (the core decides what follows). */
static void apply_conditions(request_rec *r, profile_response_t *resp,
                             const profile_site_t *site,
                             const profile_request_t *req,
                             const char *last_modified)
{
    profile_conds_t c;

    apr_table_setn(r->headers_out, "ETag", resp->etag);
    ap_update_mtime(r, site->store->mtime);
    /* ap_set_last_modified(r), with the date formatted at load when
     * httpd's own rule (ap_rationalize_mtime) keeps the file's time:
     * formatting it is most of that call's cost. */
    if (last_modified != NULL && !r->assbackwards
        && ap_rationalize_mtime(r, r->mtime) == site->store->mtime) {
        apr_table_setn(r->headers_out, "Last-Modified", last_modified);
    }
    else {
        ap_set_last_modified(r);
    }
    /* Not for an ErrorDocument's internal redirect (as
     * ap_meets_conditions()). */
    if (r->no_local_copy) {
        return;
    }
    c.if_match = cond_of(ap_condition_if_match(r, r->headers_out));
    c.if_unmodified_since =
        cond_of(ap_condition_if_unmodified_since(r, r->headers_out));
    c.if_none_match =
        cond_of(ap_condition_if_none_match(r, r->headers_out));
    c.if_modified_since = apr_table_get(r->headers_in, "If-Modified-Since");
    /* Read only beside If-Modified-Since. */
    c.last_modified = c.if_modified_since == NULL ? 0
                      : apr_date_parse_http(apr_table_get(r->headers_out,
                                                          "Last-Modified"));
    profile_api_conditions(resp, site, req, &c, r->pool);
    if (resp->status == HTTP_PRECONDITION_FAILED) {
        apr_table_unset(r->headers_out, "ETag");
        apr_table_unset(r->headers_out, "Last-Modified");
    }
}

/* A section with the handler and no data: answered with a 500 problem;
 * said at ERR once per process (any client could fill the log), then
 * at DEBUG. */
static int unconfigured(request_rec *r, const profile_dir_conf_t *conf,
                        profile_site_t *site, profile_request_t *req)
{
    const profile_data_t *data = conf->use ? conf->use->data : NULL;
    static apr_uint32_t said;
    profile_response_t resp;
    int level = apr_atomic_cas32(&said, 1, 0) == 0 ? APLOG_ERR : APLOG_DEBUG;

    ap_log_rerror(APLOG_MARK, level, 0, r, PROFILE_LOGNO(0001)
                  "SetHandler profile is set for %s but %s%s", r->uri,
                  data == NULL ? "no ProfileData applies there"
                  : data->store == NULL
                  ? "no good data of its file could be loaded: "
                  : "ProfileData is not inside a <Location>; set "
                    "ProfileBasePath",
                  data != NULL && data->store == NULL ? data->path : "");
    site->store = NULL;
    req->path = "";
    profile_api_answer(&resp, site, req, r->pool);
    profile_api_error(&resp, site, req, HTTP_INTERNAL_SERVER_ERROR, r->pool);
    return send_answer(r, &resp, conf);
}

/* The page (CONTRACT §11): the section's ProfileData line has its pages
 * rendered (profile_conf_files()); said at ERR once per process when it
 * has not. */
static int page_answer(request_rec *r, const profile_dir_conf_t *conf,
                       profile_site_t *site, profile_request_t *req)
{
    const profile_data_t *data = conf->use ? conf->use->data : NULL;
    const profile_page_t *page;
    profile_response_t resp;
    static apr_uint32_t said;

    if (req->path == NULL && profile_conf_base(conf) != NULL) {
        /* A URL the section meets that is not below its base (a
         * <LocationMatch> with ProfileBasePath): no page's URL, so the
         * 404 page (profile_page_api.c names none starting so). */
        req->path = "-";
    }
    if (data != NULL && req->path != NULL && site->store == NULL) {
        profile_page_unavailable(&resp, req, conf->use->page
                                 ? conf->use->where.assets : NULL,
                                 PROFILE_RETRY_AFTER, r->pool);
        return send_answer(r, &resp, conf);
    }
    page = data != NULL && req->path != NULL && conf->use->page
           ? profile_page_find(site->store, conf->use->where.url) : NULL;
    if (page == NULL) {
        ap_log_rerror(APLOG_MARK, apr_atomic_cas32(&said, 1, 0) == 0
                      ? APLOG_ERR : APLOG_DEBUG, 0, r, PROFILE_LOGNO(0014)
                      "SetHandler profile-page is set for %s but %s", r->uri,
                      data == NULL ? "no ProfileData applies there"
                      : req->path == NULL ? "ProfileData is not inside a "
                        "<Location>; set ProfileBasePath"
                      : "its ProfileData line has no page: give the line "
                        "url=URL, or put SetHandler profile-page in the "
                        "section of that line");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    profile_page_answer(&resp, site, page, req, r->pool);
    if (resp.conditional) {
        apply_conditions(r, &resp, site, req, data->last_modified);
    }
    return send_answer(r, &resp, conf);
}

/* A section whose ProfileData line has a '*' (profile_many_t): the
 * request's configuration as for the file its URL names, BASE/NAME/...,
 * or NULL where it names none of them. */
#if defined(__GNUC__)
__attribute__((noinline, cold))   /* (off the one-profile path) */
#endif
static const profile_dir_conf_t *one_of_many(request_rec *r,
                                             const profile_dir_conf_t *conf)
{
    const char *rest = profile_args_below(r->uri, conf->many->base), *end;
    const profile_use_t *u;
    profile_dir_conf_t *one;

    if (rest == NULL || rest[0] != '/') {
        return NULL;
    }
    end = strchr(++rest, '/');
    u = apr_hash_get(conf->many->by_name, rest,
                     end ? end - rest : APR_HASH_KEY_STRING);
    if (u == NULL) {
        return NULL;
    }
    one = apr_pmemdup(r->pool, conf, sizeof(*one));
    one->use = u;
    one->many = NULL;
    one->base_path = NULL;
    return one;
}

static int profile_handler(request_rec *r)
{
    const profile_dir_conf_t *conf;
    const profile_data_t *data;
    profile_site_t site;
    profile_request_t req;
    profile_response_t resp;
    const char *base;
    int page = 0;

    if (strcmp(r->handler, PROFILE_HANDLER) != 0) {
        if (strcmp(r->handler, PROFILE_PAGE_HANDLER) != 0) {
            return DECLINED;
        }
        page = 1;
    }
    conf = ap_get_module_config(r->per_dir_config, &profile_module);
    if (conf->many != NULL && (conf = one_of_many(r, conf)) == NULL) {
        return HTTP_NOT_FOUND;      /* no such profile here */
    }
    data = conf->use ? conf->use->data : NULL;
    site.store = data ? data->store : NULL;
    site.origins = conf->origins;
    site.max_age = profile_conf_max_age(conf);
    site.cache_control = profile_conf_cache_control(conf);
    site.compress = data && conf->use->compressed;

    memset(&req, 0, sizeof(req));
    req.method = r->method_number == M_GET ? PROFILE_M_GET
                 : r->method_number == M_OPTIONS ? PROFILE_M_OPTIONS
                 : PROFILE_M_OTHER;
    req.method_name = r->method;
    req.uri = r->uri;
    req.args = r->args;
    req.accept_language = apr_table_get(r->headers_in, "Accept-Language");
    /* Accept is read by error answers only (from fields). */
    req.accept = NULL;
    req.fields = r->headers_in;
    req.accept_encoding = apr_table_get(r->headers_in, "Accept-Encoding");
    req.origin = apr_table_get(r->headers_in, "Origin");
    /* Read only in a preflight. */
    req.acr_method = req.method == PROFILE_M_OPTIONS && req.origin != NULL
                     ? apr_table_get(r->headers_in,
                                     "Access-Control-Request-Method")
                     : NULL;
    /* The instant of httpd's Date field. */
    req.now = r->request_time;
    req.http10 = r->proto_num < HTTP_VERSION(1, 1);
    /* Usually nothing has set a field of the answer yet: the core then
     * writes its fields straight into headers_out, not into a table of
     * its own copied there by send_answer(). */
    req.headers = apr_is_empty_table(r->headers_out) ? r->headers_out : NULL;
    req.date = ap_recent_rfc822_date;

    base = profile_conf_base(conf);
    req.path = base != NULL ? profile_args_below(r->uri, base) : NULL;
    if (page) {
        return page_answer(r, conf, &site, &req);
    }
    if (data != NULL && site.store == NULL && req.path != NULL) {
        /* Its file has no good load yet (bad=keep). */
        profile_api_unavailable(&resp, &site, &req, PROFILE_RETRY_AFTER,
                                r->pool);
        return send_answer(r, &resp, conf);
    }
    if (site.store == NULL || base == NULL) {
        return unconfigured(r, conf, &site, &req);
    }

    profile_api_answer(&resp, &site, &req, r->pool);
    if (resp.conditional) {
        apply_conditions(r, &resp, &site, &req, data->last_modified);
    }
    if (APLOGrdebug(r)) {
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r, PROFILE_LOGNO(0002)
                      "%s %s: %d, language %s%s%s", r->method,
                      r->unparsed_uri, resp.status,
                      site.store->langs[resp.lang],
                      resp.etag ? ", ETag " : "",
                      resp.etag ? resp.etag : "");
    }
    return send_answer(r, &resp, conf);
}

/* URLs served by this handler name no file: like mod_proxy, the module
 * claims them in translate_name (after mod_rewrite and mod_alias had
 * their say, before the core maps them below DocumentRoot) and spares
 * them the directory walk (a stat per path segment and the .htaccess
 * lookups) that the core's map_to_storage would do.  Whether a URL is
 * ours is known in translate_name, where the <Location> sections are
 * merged (map_to_storage starts from the server's defaults).  The file
 * name, "profile:" and the path, names no file: a path too long to be a
 * file name under DocumentRoot gets the module's 404, not httpd's 403,
 * and what mod_mime derives from an extension in it (an {id} may hold a
 * dot) is undone by send_answer(). */
static int profile_translate_name(request_rec *r)
{
    profile_dir_conf_t *conf = ap_get_module_config(r->per_dir_config,
                                                    &profile_module);
    core_dir_config *core;
    const char *handler, *base, *err = NULL;

    if (conf == NULL || (conf->use == NULL && conf->many == NULL)) {
        return DECLINED;            /* no API here: the common case */
    }
    /* The sections were merged for the URL as it came; mod_rewrite
     * ([PT]) or another translate_name hook may have moved it since. */
    base = conf->many ? conf->many->base : profile_conf_base(conf);
    if (base == NULL || profile_args_below(r->uri, base) == NULL) {
        return DECLINED;
    }
    core = ap_get_core_module_config(r->per_dir_config);
    if (core->expr_handler == NULL) {
        return DECLINED;
    }
    handler = ap_expr_str_exec(r, core->expr_handler, &err);
    /* The core lowercases the handler name; so does this comparison. */
    if (err == NULL && handler != NULL
        && (strcasecmp(handler, PROFILE_HANDLER) == 0
            || strcasecmp(handler, PROFILE_PAGE_HANDLER) == 0)) {
        ap_set_module_config(r->request_config, &profile_module, conf);
        /* What %f logs and what mod_rewrite's rules in the section
         * match: "profile:/api/v1/skills". */
        apr_size_t len = strlen(r->uri);
        char *f = apr_palloc(r->pool, sizeof(PROFILE_HANDLER ":") + len);

        memcpy(f, PROFILE_HANDLER ":", sizeof(PROFILE_HANDLER ":") - 1);
        memcpy(f + sizeof(PROFILE_HANDLER ":") - 1, r->uri, len + 1);
        r->filename = f;
        return OK;
    }
    return DECLINED;
}

static int profile_map_to_storage(request_rec *r)
{
    return ap_get_module_config(r->request_config, &profile_module) != NULL
           ? OK : DECLINED;
}

static void register_hooks(apr_pool_t *p)
{
    /* Once the whole configuration is read: a reading that will not run
     * validates the data files, the running one loads them once the logs
     * are open (mod_profile_reload.c). */
    ap_hook_check_config(profile_reload_check_config, NULL, NULL,
                         APR_HOOK_MIDDLE);
    ap_hook_post_config(profile_reload_post_config, NULL, NULL,
                        APR_HOOK_MIDDLE);
    ap_hook_translate_name(profile_translate_name, NULL, NULL,
                           APR_HOOK_LAST);
    ap_hook_map_to_storage(profile_map_to_storage, NULL, NULL,
                           APR_HOOK_FIRST);
    ap_hook_handler(profile_handler, NULL, NULL, APR_HOOK_MIDDLE);
    /* In the parent, between restarts (mod_profile_compiled.c). */
    ap_hook_monitor(profile_compiled_monitor, NULL, NULL, APR_HOOK_MIDDLE);
    profile_status_views_register_hooks(p);
}

module AP_MODULE_DECLARE_DATA profile_module = {
    STANDARD20_MODULE_STUFF,
    profile_create_dir_conf,
    profile_merge_dir_conf,
    profile_create_srv_conf,
    profile_merge_srv_conf,
    profile_cmds,
    register_hooks,
#if defined(AP_MODULE_FLAG_NONE)
    AP_MODULE_FLAG_NONE
#endif
};
