/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_status.c -- what the module shows of itself, for
 * administrators and monitoring: the data files of the running
 * configuration (what was loaded, when, how long it took, whether the
 * last good data is being served instead of a bad file, and where each
 * file is used).  Three views of one model (a JSON object built when
 * asked):
 *
 *   - a section of mod_status's /server-status, and Key: value lines in
 *     its ?auto form (mod_status's optional status_hook);
 *   - the `profile-status` handler: the model as JSON, for monitoring;
 *   - `httpd -t -D DUMP_PROFILES`: each API base with its data file and
 *     effective directives, on stdout (the test_config hook).
 *
 * It owns the snapshot of each load that the views show, taken when the
 * running configuration has loaded its files.  It changes nothing that
 * is served, and never answers below an API base.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_main.h"
#include "http_protocol.h"
#include "http_request.h"

#include <apr_lib.h>
#include <apr_optional_hooks.h>
#include <apr_strings.h>
#include <jansson.h>

#include "mod_status.h"

#include "mod_profile.h"

APLOG_USE_MODULE(profile);

/* Collection names as in the data file, by profile_coll_e. */
static const char *const coll_names[PROFILE_COLL_COUNT] = {
    "skills", "experience", "education", "caseStudies", "metrics"
};

/* What a load left that the store does not hold, per data file. */
typedef struct {
    profile_load_times_t times;     /* times.loaded_at 0: none */
    apr_off_t size;                 /* bytes of the file loaded; -1: ? */
} snap_t;

/* Kept across restarts, in the process pool (plain values only: this
 * .so is unloaded at every restart): the size of each file's last good
 * load and how long that load took, which the stale data of a later
 * generation still needs. */
typedef struct {
    apr_off_t size;
    apr_interval_time_t loaded_in;
} kept_t;

#define KEPT_KEY "mod_profile:status"

/* The running configuration's data files (path -> profile_data_t) and
 * their snapshots (path -> snap_t), in its pool; set by each reading
 * the server runs with, before any request. */
static apr_hash_t *running_files;
static apr_hash_t *snaps;

static kept_t *kept_for(apr_pool_t *ppool, const char *path)
{
    void *reg = NULL;
    kept_t *k;

    apr_pool_userdata_get(&reg, KEPT_KEY, ppool);
    if (reg == NULL) {
        reg = apr_hash_make(ppool);
        apr_pool_userdata_set(reg, KEPT_KEY, NULL, ppool);
    }
    k = apr_hash_get(reg, path, APR_HASH_KEY_STRING);
    if (k == NULL) {
        k = apr_pcalloc(ppool, sizeof(*k));
        k->size = -1;
        apr_hash_set(reg, apr_pstrdup(ppool, path), APR_HASH_KEY_STRING, k);
    }
    return k;
}

/* After profile_check_config has loaded the files of the reading the
 * server runs with (and before profile_reload_post_config clears what
 * it logged). */
static int status_check_config(apr_pool_t *pconf, apr_pool_t *plog,
                               apr_pool_t *ptemp, server_rec *s)
{
    apr_hash_t *files = profile_data_files();
    apr_hash_index_t *hi;

    (void)plog;
    if (ap_state_query(AP_SQ_MAIN_STATE) != AP_SQ_MS_CREATE_CONFIG) {
        return OK;
    }
    running_files = files;
    snaps = apr_hash_make(pconf);
    for (hi = files ? apr_hash_first(ptemp, files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        const profile_data_t *d = apr_hash_this_val(hi);
        kept_t *k = kept_for(s->process->pool, d->path);
        snap_t *sn = apr_pcalloc(pconf, sizeof(*sn));
        apr_finfo_t fi;

        sn->size = -1;
        if (d->store != NULL && !d->stale) {
            /* Loaded just now: the file's size, unless it changed since
             * (another modification time). */
            k->size = apr_stat(&fi, d->path, APR_FINFO_SIZE | APR_FINFO_MTIME,
                               ptemp) == APR_SUCCESS
                      && fi.mtime == d->store->mtime ? fi.size : -1;
            k->loaded_in = 0;
        }
        if (d->store != NULL) {
            profile_reload_times(&sn->times, d->path, s);
            if (sn->times.loaded_in > 0) {
                k->loaded_in = sn->times.loaded_in;
            }
            sn->times.loaded_in = k->loaded_in;
            sn->size = k->size;
        }
        apr_hash_set(snaps, d->path, APR_HASH_KEY_STRING, sn);
    }
    return OK;
}

/* ------------------------------------------------------------------ */
/* The model                                                           */

/* A JSON string of s (NULL: null); bytes that are not UTF-8 become
 * '?' (a path may hold any bytes). */
static json_t *jstr(const char *s, apr_pool_t *p)
{
    json_t *v;
    char *c, *q;

    if (s == NULL) {
        return json_null();
    }
    if ((v = json_string(s)) != NULL) {
        return v;
    }
    c = apr_pstrdup(p, s);
    for (q = c; *q; q++) {
        if ((unsigned char)*q >= 0x80) {
            *q = '?';
        }
    }
    return json_string(c);
}

/* RFC 3339, UTC. */
static const char *rfc3339(apr_time_t t, apr_pool_t *p)
{
    apr_time_exp_t x;

    apr_time_exp_gmt(&x, t);
    return apr_psprintf(p, "%04d-%02d-%02dT%02d:%02d:%02dZ",
                        x.tm_year + 1900, x.tm_mon + 1, x.tm_mday,
                        x.tm_hour, x.tm_min, x.tm_sec);
}

/* The same as JSON; 0: null. */
static json_t *jtime(apr_time_t t, apr_pool_t *p)
{
    return t == 0 ? json_null() : json_string(rfc3339(t, p));
}

static void set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v ? v : json_null());
}

static json_t *origins_json(const profile_use_t *u, apr_pool_t *p)
{
    const profile_dir_conf *conf = u->conf, *sconf;
    json_t *a = json_array();
    int i;

    if (!conf->origins_set) {
        sconf = ap_get_module_config(u->s->lookup_defaults, &profile_module);
        conf = sconf && sconf->origins_set ? sconf : conf;
    }
    if (conf->origins == NULL) {
        json_array_append_new(a, json_string("*"));
    }
    for (i = 0; conf->origins && i < conf->origins->nelts; i++) {
        json_array_append_new(a, jstr(APR_ARRAY_IDX(conf->origins, i,
                                                    const char *), p));
    }
    return a;
}

/* The virtual host as name:port (the main server: its name). */
static const char *server_name(const server_rec *s, apr_pool_t *p)
{
    apr_port_t port = s->port ? s->port
                      : s->addrs ? s->addrs->host_port : 0;

    if (!s->is_virtual || port == 0) {
        return s->is_virtual ? s->server_hostname
               : apr_pstrcat(p, s->server_hostname ? s->server_hostname
                             : "", " (main server)", NULL);
    }
    return apr_psprintf(p, "%s:%u", s->server_hostname, (unsigned)port);
}

/* Where a file is named, with the settings of that section (or of its
 * server where the section sets none). */
static json_t *use_json(const profile_use_t *u, apr_pool_t *p)
{
    json_t *o = json_object();
    int max_age = profile_use_setting(u, APR_OFFSETOF(profile_dir_conf, max_age));
    int compress = profile_use_setting(u, APR_OFFSETOF(profile_dir_conf, compress));
    int refuse = profile_use_setting(u, APR_OFFSETOF(profile_dir_conf, refuse));

    set(o, "server", jstr(server_name(u->s, p), p));
    set(o, "base", jstr(profile_api_base(u->conf), p));
    set(o, "definedIn", jstr(u->file, p));
    set(o, "line", json_integer(u->line));
    set(o, "maxAge", json_integer(max_age >= 0 ? max_age
                                  : PROFILE_DEFAULT_MAX_AGE));
    set(o, "corsOrigins", origins_json(u, p));
    set(o, "compression", json_boolean(compress != 0));
    set(o, "badData", json_string(refuse == 1 ? "refuse" : "keep"));
    return o;
}

/* Adds body `b` to the count and bytes of each coding it is kept in. */
static void count_body(json_int_t n[PROFILE_ENC_COUNT],
                       json_int_t bytes[PROFILE_ENC_COUNT],
                       const profile_body_t *b)
{
    int enc;

    n[PROFILE_ENC_IDENTITY]++;
    bytes[PROFILE_ENC_IDENTITY] += (json_int_t)b->len;
    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        if (b->coded[enc].data != NULL) {
            n[enc]++;
            bytes[enc] += (json_int_t)b->coded[enc].len;
        }
    }
}

static json_t *per_coding(const json_int_t v[PROFILE_ENC_COUNT])
{
    json_t *o = json_object();
    int enc;

    for (enc = 0; enc < PROFILE_ENC_COUNT; enc++) {
        set(o, profile_enc_names[enc], json_integer(v[enc]));
    }
    return o;
}

/* What a store holds: its languages and records and, rendered, its
 * representations (every body with an ETag of its own: profile,
 * contact, each collection and each of its elements, per language)
 * and their bytes, per coding. */
static void store_json(json_t *o, const profile_store_t *st, apr_pool_t *p)
{
    json_t *langs = json_array(), *recs = json_object();
    json_int_t n[PROFILE_ENC_COUNT] = {0}, bytes[PROFILE_ENC_COUNT] = {0};
    int l, k, i;

    for (l = 0; l < st->nlangs; l++) {
        json_array_append_new(langs, jstr(st->langs[l], p));
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        set(recs, coll_names[k], json_integer(st->coll[k].nitems));
    }
    set(o, "languages", langs);
    set(o, "records", recs);
    for (l = 0; l < st->nlangs; l++) {
        count_body(n, bytes, &st->profile[l]);
        count_body(n, bytes, &st->contact[l]);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            count_body(n, bytes, &st->coll[k].all[l]);
            for (i = 0; i < st->coll[k].nitems; i++) {
                count_body(n, bytes, &st->coll[k].items[i].body[l]);
            }
        }
    }
    set(o, "representations", per_coding(n));
    set(o, "bytes", per_coding(bytes));
}

/* One data file.  `st` is what is served (or, for DUMP_PROFILES, what
 * was just read), `err` why the last reading of the file failed. */
static json_t *file_json(const profile_data_t *d, const profile_store_t *st,
                         const char *err, const snap_t *sn, apr_pool_t *p)
{
    json_t *o = json_object(), *loaded = json_null(), *disk;
    json_t *uses = json_array();
    const char *state = st == NULL ? "unavailable"
                        : d->stale ? "stale" : "fresh";
    apr_time_t since = sn ? sn->times.stale_since : 0;
    apr_time_t at = sn ? sn->times.loaded_at : 0;
    apr_finfo_t fi;
    char ebuf[120];
    apr_status_t rv;
    int i;

    set(o, "path", jstr(d->path, p));
    set(o, "state", json_string(state));
    if (st == NULL) {
        set(o, "message", jstr(apr_pstrcat(p, "no good data loaded: "
                                           "answering 503 because: ", err,
                                           NULL), p));
    }
    else if (d->stale) {
        set(o, "message", jstr(apr_pstrcat(p, "serving last good data "
                                           "since ", rfc3339(since, p),
                                           " because: ", err, NULL), p));
    }
    else if (at != 0) {
        set(o, "message", jstr(apr_pstrcat(p, "serving the data loaded at ",
                                           rfc3339(at, p), NULL), p));
    }
    else {
        set(o, "message", json_string("valid"));
    }
    set(o, "error", jstr(err, p));
    set(o, "staleSince", jtime(since, p));
    set(o, "loadedAt", jtime(at, p));
    set(o, "loadSeconds", sn && sn->times.loaded_in > 0
        ? json_real((double)sn->times.loaded_in / APR_USEC_PER_SEC)
        : json_null());
    if (st != NULL) {
        loaded = json_object();
        set(loaded, "size", sn && sn->size >= 0 ? json_integer(sn->size)
                                               : json_null());
        set(loaded, "mtime", jtime(st->mtime, p));
    }
    set(o, "loaded", loaded);
    disk = json_object();
    rv = apr_stat(&fi, d->path, APR_FINFO_SIZE | APR_FINFO_MTIME
                                | APR_FINFO_TYPE, p);
    if (rv == APR_SUCCESS) {
        set(disk, "size", json_integer(fi.size));
        set(disk, "mtime", jtime(fi.mtime, p));
        set(disk, "changed", json_boolean(st == NULL
                                          || fi.mtime != st->mtime
                                          || (sn && sn->size >= 0
                                              && fi.size != sn->size)));
    }
    else {
        set(disk, "error", jstr(apr_strerror(rv, ebuf, sizeof(ebuf)), p));
        set(disk, "changed", json_true());
    }
    set(o, "onDisk", disk);
    set(o, "compressed", json_boolean(st ? st->compressed : d->compress));
    set(o, "badData", json_string(d->refuse ? "refuse" : "keep"));
    if (st != NULL) {
        store_json(o, st, p);
    }
    for (i = 0; i < d->uses->nelts; i++) {
        json_array_append_new(uses, use_json(&APR_ARRAY_IDX(d->uses, i,
                                                            profile_use_t),
                                             p));
    }
    set(o, "uses", uses);
    return o;
}

static int path_cmp(const void *a, const void *b)
{
    return strcmp((*(const profile_data_t *const *)a)->path,
                  (*(const profile_data_t *const *)b)->path);
}

/* The data files of `files`, sorted by path. */
static apr_array_header_t *sorted(apr_hash_t *files, apr_pool_t *p)
{
    apr_array_header_t *a = apr_array_make(p, 4, sizeof(profile_data_t *));
    apr_hash_index_t *hi;

    for (hi = files ? apr_hash_first(p, files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        APR_ARRAY_PUSH(a, profile_data_t *) = apr_hash_this_val(hi);
    }
    qsort(a->elts, (size_t)a->nelts, sizeof(profile_data_t *), path_cmp);
    return a;
}

/* The running configuration's files as served now. */
static json_t *status_model(apr_pool_t *p)
{
    apr_array_header_t *files = sorted(running_files, p);
    json_t *o = json_object(), *data = json_array();
    int i, n[3] = {0, 0, 0};

    for (i = 0; i < files->nelts; i++) {
        const profile_data_t *d = APR_ARRAY_IDX(files, i, profile_data_t *);
        const snap_t *sn = snaps ? apr_hash_get(snaps, d->path,
                                                APR_HASH_KEY_STRING) : NULL;

        n[d->store == NULL ? 2 : d->stale ? 1 : 0]++;
        json_array_append_new(data, file_json(d, d->store, d->error, sn, p));
    }
    set(o, "generation", json_integer(ap_state_query(AP_SQ_CONFIG_GEN)));
    set(o, "files", json_integer(files->nelts));
    set(o, "fresh", json_integer(n[0]));
    set(o, "stale", json_integer(n[1]));
    set(o, "unavailable", json_integer(n[2]));
    set(o, "data", data);
    return o;
}

/* ------------------------------------------------------------------ */
/* server-status                                                       */

/* Prints `v`, a scalar or an array of scalars, as text. */
static const char *text_of(const json_t *v, apr_pool_t *p)
{
    const char *s = "";
    size_t i;

    switch (json_typeof(v)) {
    case JSON_STRING:
        return json_string_value(v);
    case JSON_INTEGER:
        return apr_psprintf(p, "%" APR_INT64_T_FMT,
                            (apr_int64_t)json_integer_value(v));
    case JSON_REAL:
        return apr_psprintf(p, "%.6f", json_real_value(v));
    case JSON_TRUE:
        return "on";
    case JSON_FALSE:
        return "off";
    case JSON_ARRAY:
        for (i = 0; i < json_array_size(v); i++) {
            s = apr_pstrcat(p, s, i ? " " : "",
                            text_of(json_array_get(v, i), p), NULL);
        }
        return s;
    default:
        return NULL;
    }
}

/* ?auto: every value of the model as "Key: value", the key being the
 * path of names in it, capitalized and joined ("ProfileData[0]State");
 * a null value gives no line. */
static void auto_lines(request_rec *r, const char *prefix, const json_t *v)
{
    const char *key, *s;
    json_t *m;
    size_t i;
    char *c;

    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, m) {
            c = apr_pstrcat(r->pool, prefix, key, NULL);
            c[strlen(prefix)] = apr_toupper(key[0]);
            auto_lines(r, c, m);
        }
        return;
    }
    if (json_is_array(v) && json_array_size(v) > 0
        && json_is_object(json_array_get(v, 0))) {
        for (i = 0; i < json_array_size(v); i++) {
            auto_lines(r, apr_psprintf(r->pool, "%s[%lu]", prefix,
                                       (unsigned long)i),
                       json_array_get(v, i));
        }
        return;
    }
    if ((s = text_of(v, r->pool)) == NULL) {
        return;
    }
    c = apr_pstrdup(r->pool, s);
    for (s = c; *c; c++) {
        if (apr_iscntrl(*c)) {
            *c = ' ';           /* one line per value */
        }
    }
    ap_rprintf(r, "%s: %s\n", prefix, s);
}

static const char *h(request_rec *r, const json_t *v)
{
    const char *s = text_of(v, r->pool);

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

static const char *records_html(request_rec *r, const json_t *f)
{
    const json_t *recs = json_object_get(f, "records");
    const char *s = "", *key;
    json_t *n;

    if (recs == NULL) {
        return "-";
    }
    json_object_foreach((json_t *)recs, key, n) {
        s = apr_pstrcat(r->pool, s, *s ? ", " : "",
                        ap_escape_html(r->pool, key), " ", h(r, n), NULL);
    }
    return s;
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
    const json_t *uses = json_object_get(f, "uses");
    const char *state = json_string_value(json_object_get(f, "state"));
    const char *used = "";
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
    row(r, "Records", records_html(r, f));
    row(r, "Representations", bytes_html(r, f));
    row(r, "Compressed forms", field(r, f, "compressed"));
    row(r, "ProfileBadData", field(r, f, "badData"));
    for (i = 0; i < json_array_size(uses); i++) {
        const json_t *u = json_array_get(uses, i);

        used = apr_pstrcat(r->pool, used, i ? "<br />" : "",
                           apr_psprintf(r->pool, "%s %s (line %s of %s): "
                                        "max-age %s, CORS %s, compression "
                                        "%s, bad data %s",
                                        field(r, u, "server"),
                                        field(r, u, "base"),
                                        field(r, u, "line"),
                                        field(r, u, "definedIn"),
                                        field(r, u, "maxAge"),
                                        field(r, u, "corsOrigins"),
                                        field(r, u, "compression"),
                                        field(r, u, "badData")), NULL);
    }
    row(r, "Used by", used);
    ap_rputs("</table>\n", r);
}

static int status_hook(request_rec *r, int flags)
{
    json_t *m;
    const json_t *data;
    size_t i;

    if (running_files == NULL) {
        return OK;              /* no ProfileData anywhere */
    }
    m = status_model(r->pool);
    if (flags & AP_STATUS_SHORT) {
        auto_lines(r, "Profile", m);
        json_decref(m);
        return OK;
    }
    data = json_object_get(m, "data");
    ap_rputs("<hr />\n<h2>mod_profile</h2>\n", r);
    ap_rprintf(r, "<p>%s data files: %s fresh, %s serving last good data, "
               "%s unavailable (configuration generation %s)</p>\n",
               field(r, m, "files"), field(r, m, "fresh"),
               field(r, m, "stale"), field(r, m, "unavailable"),
               field(r, m, "generation"));
    for (i = 0; i < json_array_size(data); i++) {
        file_html(r, json_array_get(data, i));
    }
    json_decref(m);
    return OK;
}

/* ------------------------------------------------------------------ */
/* SetHandler profile-status                                           */

static int status_handler(request_rec *r)
{
    json_t *m;
    char *body;

    if (strcmp(r->handler, PROFILE_STATUS_HANDLER) != 0) {
        return DECLINED;
    }
    ap_allow_standard_methods(r, REPLACE_ALLOW, M_GET, -1);
    if (r->method_number != M_GET) {
        return HTTP_METHOD_NOT_ALLOWED;
    }
    m = status_model(r->pool);
    body = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                           | JSON_REAL_PRECISION(10));
    json_decref(m);
    if (body == NULL) {
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    ap_set_content_type(r, "application/json");
    apr_table_setn(r->headers_out, "Cache-Control", "no-store");
    apr_table_setn(r->headers_out, "X-Content-Type-Options", "nosniff");
    ap_set_content_length(r, (apr_off_t)strlen(body) + 1);
    ap_rputs(body, r);
    ap_rputs("\n", r);
    free(body);
    return OK;
}

/* ------------------------------------------------------------------ */
/* httpd -t -D DUMP_PROFILES                                           */

static void dump_use(apr_file_t *out, const json_t *f, const json_t *u,
                     apr_pool_t *p)
{
    const json_t *recs = json_object_get(f, "records");
    const char *base = text_of(json_object_get(u, "base"), p), *key;
    const char *counts = "";
    json_t *n;

    apr_file_printf(out, "  %s %s\n", text_of(json_object_get(u, "server"),
                                              p),
                    base ? base : "(no API base: ProfileData is not in a "
                                  "<Location>; set ProfileBasePath)");
    apr_file_printf(out, "    ProfileData %s (line %s of %s)\n",
                    text_of(json_object_get(f, "path"), p),
                    text_of(json_object_get(u, "line"), p),
                    text_of(json_object_get(u, "definedIn"), p));
    if (recs == NULL) {
        apr_file_printf(out, "    data: bad: %s\n",
                        text_of(json_object_get(f, "error"), p));
    }
    else {
        json_object_foreach((json_t *)recs, key, n) {
            counts = apr_pstrcat(p, counts, *counts ? ", " : "", key, " ",
                                 text_of(n, p), NULL);
        }
        apr_file_printf(out, "    languages: %s; records: %s\n",
                        text_of(json_object_get(f, "languages"), p), counts);
    }
    apr_file_printf(out, "    ProfileMaxAge %s\n"
                    "    ProfileCORSOrigins %s\n"
                    "    ProfileCompression %s\n"
                    "    ProfileBadData %s\n",
                    text_of(json_object_get(u, "maxAge"), p),
                    text_of(json_object_get(u, "corsOrigins"), p),
                    json_is_true(json_object_get(u, "compression"))
                    ? "On" : "Off",
                    text_of(json_object_get(u, "badData"), p));
}

/* Each API base, with its server, data file, what the file holds and
 * the effective directives, on stdout (as mod_ssl's DUMP_CERTS).  At
 * configtest the files were only validated; each is read again here,
 * rendered without compressed forms, for its languages and records. */
static void status_test_config(apr_pool_t *pconf, server_rec *s)
{
    apr_array_header_t *files;
    profile_load_opts_t opts = {.render = 1, .compress = 0};
    apr_file_t *out;
    apr_pool_t *p;
    int i;
    size_t j;

    (void)s;
    if (!ap_exists_config_define("DUMP_PROFILES")
        || apr_file_open_stdout(&out, pconf) != APR_SUCCESS) {
        return;
    }
    apr_pool_create(&p, pconf);
    files = sorted(profile_data_files(), p);
    opts.max_size = profile_max_data_size();
    apr_file_printf(out, "Profile APIs (mod_profile):\n");
    for (i = 0; i < files->nelts; i++) {
        const profile_data_t *d = APR_ARRAY_IDX(files, i, profile_data_t *);
        profile_store_t *st = NULL;
        const char *err = NULL;
        apr_pool_t *lp;
        json_t *f;

        apr_pool_create(&lp, p);
        profile_store_load(&st, &err, d->path, &opts, lp);
        f = file_json(d, st, err, NULL, p);
        for (j = 0; j < json_array_size(json_object_get(f, "uses")); j++) {
            dump_use(out, f, json_array_get(json_object_get(f, "uses"), j),
                     p);
        }
        json_decref(f);
        apr_pool_destroy(lp);
    }
    apr_pool_destroy(p);
}

void profile_status_register_hooks(apr_pool_t *p)
{
    (void)p;
    /* After profile_check_config (APR_HOOK_MIDDLE) has loaded. */
    ap_hook_check_config(status_check_config, NULL, NULL, APR_HOOK_LAST);
    ap_hook_test_config(status_test_config, NULL, NULL, APR_HOOK_MIDDLE);
    APR_OPTIONAL_HOOK(ap, status_hook, status_hook, NULL, NULL,
                      APR_HOOK_MIDDLE);
    ap_hook_handler(status_handler, NULL, NULL, APR_HOOK_MIDDLE);
}
