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

#include <apr_lib.h>
#include <apr_optional_hooks.h>
#include <apr_strings.h>
#include <jansson.h>

#include "mod_status.h"

#include "mod_profile.h"

/* ------------------------------------------------------------------ */
/* server-status                                                       */

/* ?auto: the counts, then per file the members of the second table, as
 * "ProfileData[i]Key: value" (a null value gives no line).  These keys
 * are an interface (docs/operations.md): they change with no JSON name. */
typedef struct {
    const char *key, *member;
} auto_key_t;

static const auto_key_t auto_counts[] = {
    {"ModuleVersion", "version"}, {"Files", "files"}, {"Fresh", "fresh"}, {"Stale", "stale"},
    {"Unavailable", "unavailable"}, {NULL, NULL}
};
static const auto_key_t auto_file[] = {
    {"Path", "path"}, {"State", "state"}, {"StaleSince", "staleSince"},
    {NULL, NULL}
};

static void auto_line(request_rec *r, const char *key, const json_t *v)
{
    const char *s = profile_json_text(v, r->pool);
    char *c;

    if (s != NULL) {
        for (c = apr_pstrdup(r->pool, s), s = c; *c; c++) {
            *c = apr_iscntrl(*c) ? ' ' : *c;        /* one line each */
        }
        ap_rprintf(r, "Profile%s: %s\n", key, s);
    }
}

static void auto_lines(request_rec *r, const json_t *m)
{
    const json_t *data = json_object_get(m, "data");
    const auto_key_t *k;
    size_t i;

    for (k = auto_counts; k->key != NULL; k++) {
        auto_line(r, k->key, json_object_get(m, k->member));
    }
    for (i = 0; i < json_array_size(data); i++) {
        for (k = auto_file; k->key != NULL; k++) {
            auto_line(r, apr_psprintf(r->pool, "Data[%lu]%s",
                                      (unsigned long)i, k->key),
                      json_object_get(json_array_get(data, i), k->member));
        }
    }
}

/* A ProfileData line as text: where it stands, its options, what its
 * section configures and what other sections may change (CONTRACT §1),
 * its parts joined by `sep`. */
static const char *line_text(const json_t *u, const char *sep,
                             apr_pool_t *p)
{
    const json_t *here = json_object_get(u, "configuredHere");
    const json_t *other = json_object_get(u, "mayChangeForSomeUrls");
    static const char *const names[] = {"ProfileMaxAge", "ProfileCORSOrigins"};
    const char *s, *base = profile_json_text(json_object_get(u, "base"), p);
    const char *section = profile_json_text(json_object_get(u, "section"), p);
    size_t i;

    s = apr_psprintf(p, "ProfileData on line %s of %s, %s, %s%s"
                     "API base %s, bad=%s (%s), compress=%s (%s)",
                     profile_json_text(json_object_get(u, "line"), p),
                     profile_json_text(json_object_get(u, "definedIn"), p),
                     section ? section : "server level",
                     profile_json_text(json_object_get(u, "server"), p), sep,
                     base ? base : "none (not in a <Location>; set "
                                   "ProfileBasePath)",
                     profile_json_text(json_object_get(u, "badData"), p),
                     profile_json_text(json_object_get(u, "badDataFrom"), p),
                     profile_json_text(json_object_get(u, "compression"), p),
                     profile_json_text(json_object_get(u, "compressionFrom"), p));
    s = apr_pstrcat(p, s, sep, "in this section:", NULL);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *v = profile_json_text(json_object_get(here, names[i]), p);

        s = apr_pstrcat(p, s, i ? ", " : " ", names[i], " ",
                        v ? v : "not set", NULL);
    }
    for (i = 0; i < json_array_size(other); i++) {
        const json_t *o = json_array_get(other, i);
        const char *in = profile_json_text(json_object_get(o, "section"), p);

        s = apr_pstrcat(p, s, i ? "" : sep, i ? "" : "set in other "
                        "sections, which may change it for some URLs:", sep,
                        "  ", profile_json_text(json_object_get(o, "directive"), p), " ",
                        profile_json_text(json_object_get(o, "value"), p),
                        " on line ", profile_json_text(json_object_get(o, "line"), p),
                        " of ", profile_json_text(json_object_get(o, "definedIn"), p),
                        ", ", in ? in : "server level", ", ",
                        profile_json_text(json_object_get(o, "server"), p), NULL);
    }
    return s;
}

static const char *h(request_rec *r, const json_t *v)
{
    const char *s = profile_json_text(v, r->pool);

    return s ? ap_escape_html(r->pool, s) : "-";
}

static const char *field(request_rec *r, const json_t *o, const char *key)
{
    return h(r, json_object_get(o, key));
}

static const char *bytes_html(request_rec *r, const json_t *f)
{
    const json_t *n = json_object_get(f, "representations");
    const json_t *b = json_object_get(f, "bytes");
    const char *s = "";
    int enc;

    if (b == NULL) {
        return "-";
    }
    for (enc = 0; enc < PROFILE_ENC_COUNT; enc++) {
        const char *name = profile_enc_names[enc];

        s = apr_pstrcat(r->pool, s, enc ? "; " : "", name, " ",
                        field(r, n, name), " (", field(r, b, name),
                        " bytes)", NULL);
    }
    return s;
}

/* A file's counts, "skills 3, experience 4, ..." for "records", "en 0,
 * es 2" for "untranslated" (NULL: unread). */
static const char *counts_text(const json_t *f, const char *member,
                               apr_pool_t *p)
{
    const json_t *recs = json_object_get(f, member);
    const char *s = "", *key;
    json_t *n;

    json_object_foreach((json_t *)recs, key, n) {
        s = apr_pstrcat(p, s, *s ? ", " : "", key, " ",
                        profile_json_text(n, p), NULL);
    }
    return recs ? s : NULL;
}

/* One row of a file's table. */
static void row(request_rec *r, const char *name, const char *html)
{
    ap_rprintf(r, "<tr><th align=\"left\" valign=\"top\">%s</th>"
               "<td>%s</td></tr>\n", name, html);
}

static void file_html(request_rec *r, const json_t *f)
{
    const json_t *loaded = json_object_get(f, "loaded");
    const json_t *disk = json_object_get(f, "onDisk");
    const json_t *lines = json_object_get(f, "lines");
    const char *state = json_string_value(json_object_get(f, "state"));
    const char *records = counts_text(f, "records", r->pool), *used = "";
    const char *untr = counts_text(f, "untranslated", r->pool);
    size_t i;

    ap_rprintf(r, "<h3>%s</h3>\n", field(r, f, "path"));
    ap_rprintf(r, strcmp(state, "fresh") == 0 ? "<p>%s</p>\n"
               : "<p style=\"color:#a00\"><b>%s</b></p>\n",
               field(r, f, "message"));
    ap_rputs("<table border=\"0\">\n", r);
    if (json_is_object(loaded)) {
        row(r, "File loaded", apr_psprintf(r->pool, "%s bytes, modified %s",
                                           field(r, loaded, "size"),
                                           field(r, loaded, "mtime")));
    }
    row(r, "File now on disk", json_object_get(disk, "error")
        ? field(r, disk, "error")
        : apr_psprintf(r->pool, "%s bytes, modified %s%s",
                       field(r, disk, "size"), field(r, disk, "mtime"),
                       json_is_true(json_object_get(disk, "changed"))
                       ? " (changed since loaded)" : ""));
    row(r, "Loaded", apr_psprintf(r->pool, "%s, in %s s",
                                  field(r, f, "loadedAt"),
                                  field(r, f, "loadSeconds")));
    row(r, "Languages", field(r, f, "languages"));
    row(r, "Fallback language", field(r, f, "fallback"));
    row(r, "Untranslated texts", untr ? ap_escape_html(r->pool, untr) : "-");
    row(r, "Records", records ? ap_escape_html(r->pool, records) : "-");
    row(r, "Representations", bytes_html(r, f));
    row(r, "Compressed forms", field(r, f, "compressed"));
    row(r, "ProfileBadData", field(r, f, "badData"));
    for (i = 0; i < json_array_size(lines); i++) {
        const json_t *u = json_array_get(lines, i);

        used = apr_pstrcat(r->pool, used, i ? "<br />" : "",
                           ap_escape_html(r->pool,
                                          line_text(u, "; ", r->pool)),
                           NULL);
    }
    row(r, "ProfileData lines", used);
    ap_rputs("</table>\n", r);
}

static int status_hook(request_rec *r, int flags)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    json_t *m;
    const json_t *data;
    size_t i;

    if (!mc || !mc->server_status || profile_status_files(r->pool) == NULL) {
        return OK;              /* Off, or no ProfileData anywhere */
    }
    m = profile_status_model(r->server, r->pool);
    if (flags & AP_STATUS_SHORT) {
        auto_lines(r, m);
        json_decref(m);
        return OK;
    }
    data = json_object_get(m, "data");
    ap_rprintf(r, "<hr />\n<h2>mod_profile %s</h2>\n",
               field(r, m, "version"));
    ap_rprintf(r, "<p>%s data file%s: %s fresh, %s serving last good data, "
               "%s unavailable (configuration generation %s)</p>\n",
               field(r, m, "files"),
               json_integer_value(json_object_get(m, "files")) == 1
               ? "" : "s", field(r, m, "fresh"),
               field(r, m, "stale"), field(r, m, "unavailable"),
               field(r, m, "generation"));
    for (i = 0; i < json_array_size(data); i++) {
        file_html(r, json_array_get(data, i));
    }
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

/* A data file, what it holds (or why it is bad, one problem a line),
 * and each ProfileData line naming it. */
static void dump_file(apr_file_t *out, const json_t *f, apr_pool_t *p)
{
    const json_t *lines = json_object_get(f, "lines");
    const char *records = counts_text(f, "records", p);
    char *err, *line, *state;
    size_t i;

    apr_file_printf(out, "  %s\n", profile_json_text(json_object_get(f, "path"), p));
    if (records == NULL) {
        err = apr_pstrdup(p, profile_json_text(json_object_get(f, "error"), p));
        apr_file_printf(out, "    data: bad:\n");
        for (line = apr_strtok(err, "\n", &state); line != NULL;
             line = apr_strtok(NULL, "\n", &state)) {
            apr_file_printf(out, "      %s\n", line);
        }
    }
    else {
        const char *fb = json_string_value(json_object_get(f, "fallback"));

        apr_file_printf(out, "    languages: %s%s%s; records: %s\n"
                        "    untranslated texts: %s\n",
                        profile_json_text(json_object_get(f, "languages"), p),
                        fb ? ", fallback " : "", fb ? fb : "", records,
                        counts_text(f, "untranslated", p));
    }
    for (i = 0; i < json_array_size(lines); i++) {
        apr_file_printf(out, "    %s\n", line_text(json_array_get(lines, i),
                                                  "\n      ", p));
    }
}

/* Each data file, what it holds and each ProfileData line naming it,
 * with what is configured there, on stdout (as mod_ssl's DUMP_CERTS
 * prints what is configured).  At configtest the files were only validated; each is
 * read again here, rendered without compressed forms, for its languages
 * and records. */
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
        dump_file(out, f, lp);
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
