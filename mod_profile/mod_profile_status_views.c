/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_status_views.c -- the views of the status model
 * (mod_profile_status.c), for administrators and monitoring:
 *
 *   - a section of mod_status's /server-status, and in its ?auto form
 *     a few stable Key: value lines (mod_status's optional status_hook;
 *     none with ProfileServerStatus Off);
 *   - the `profile-status` handler: the model as JSON, for monitoring,
 *     and the `profile-metrics` handler (mod_profile_metrics.c's text);
 *   - `httpd -t -D DUMP_PROFILES`: each data file with its ProfileData
 *     lines and what is configured there, on stdout (test_config).
 *
 * Nothing here answers below an API base.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_main.h"
#include "http_protocol.h"
#include "http_request.h"

#include <apr_optional_hooks.h>
#include <apr_strings.h>
#include <jansson.h>

#include "mod_status.h"

#include "mod_profile.h"
#include "profile_metrics.h"
#include "profile_report.h"

/* ------------------------------------------------------------------ */
/* server-status                                                       */

static int status_hook(request_rec *r, int flags)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    json_t *m;

    if (!mc || !mc->server_status || profile_status_files(r->pool) == NULL) {
        return OK;              /* Off, or no ProfileData anywhere */
    }
    m = profile_status_model(r->server, r->pool);
    if (flags & AP_STATUS_SHORT) {
        ap_rputs(profile_report_auto(m, r->pool), r);
        json_decref(m);
        return OK;
    }
    ap_rputs(profile_report_html(m, r->pool), r);
    json_decref(m);
    return OK;
}

/* ------------------------------------------------------------------ */
/* SetHandler profile-status and profile-metrics                       */

static int report_handler(request_rec *r)
{
    int json = strcmp(r->handler, PROFILE_STATUS_HANDLER) == 0;
    const char *body;
    json_t *m;
    char *text;

    if (!json && strcmp(r->handler, PROFILE_METRICS_HANDLER) != 0) {
        return DECLINED;
    }
    ap_allow_standard_methods(r, REPLACE_ALLOW, M_GET, -1);
    if (r->method_number != M_GET) {
        return HTTP_METHOD_NOT_ALLOWED;
    }
    if (json) {
        m = profile_status_model(r->server, r->pool);
        text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                             | JSON_REAL_PRECISION(10));
        json_decref(m);
        if (text == NULL) {
            return HTTP_INTERNAL_SERVER_ERROR;
        }
        body = apr_pstrcat(r->pool, text, "\n", NULL);
        free(text);
    }
    else {
        body = profile_metrics_body(r->server, r->pool);
    }
    ap_set_content_type(r, json ? "application/json"
                        : PROFILE_METRICS_CONTENT_TYPE);
    apr_table_setn(r->headers_out, "Cache-Control", "no-store");
    apr_table_setn(r->headers_out, "X-Content-Type-Options", "nosniff");
    ap_set_content_length(r, (apr_off_t)strlen(body));
    if (!r->header_only) {
        ap_rputs(body, r);
    }
    return OK;
}

/* ------------------------------------------------------------------ */
/* httpd -t -D DUMP_PROFILES                                           */

/* Each data file, what it holds and each ProfileData line naming it,
 * with what is configured there, on stdout (as mod_ssl's DUMP_CERTS
 * prints what is configured).  At configtest the files were only
 * validated; each is read again here, rendered without compressed forms,
 * for its languages and records. */
static void status_test_config(apr_pool_t *pconf, server_rec *s)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    profile_load_opts_t opts = {.render = 1, .compress = 0};
    apr_array_header_t *files;
    apr_file_t *out;
    apr_pool_t *p;
    int i;

    (void)s;
    if (!ap_exists_config_define("DUMP_PROFILES")
        || apr_file_open_stdout(&out, pconf) != APR_SUCCESS) {
        return;
    }
    apr_pool_create(&p, pconf);
    files = profile_status_sorted(mc ? mc->files : NULL, p);
    opts.max_size = mc ? mc->max_data_size : 0;
    apr_file_printf(out, "Profile data files (mod_profile %s):\n",
                    PROFILE_VERSION);
    for (i = 0; i < files->nelts; i++) {
        const profile_data_t *d = APR_ARRAY_IDX(files, i, profile_data_t *);
        profile_store_t *st = NULL;
        const char *err = NULL;
        json_t *f;
        apr_pool_t *lp;

        apr_pool_create(&lp, p);
        profile_store_load(&st, &err, d->path, &opts, lp);
        f = profile_status_file(d, NULL, st, err, lp);
        apr_file_puts(profile_report_dump(f, lp), out);
        json_decref(f);
        apr_pool_destroy(lp);
    }
    apr_pool_destroy(p);
}

void profile_status_views_register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_test_config(status_test_config, NULL, NULL, APR_HOOK_MIDDLE);
    APR_OPTIONAL_HOOK(ap, status_hook, status_hook, NULL, NULL,
                      APR_HOOK_MIDDLE);
    ap_hook_handler(report_handler, NULL, NULL, APR_HOOK_MIDDLE);
}
