/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_status.c -- what the module knows of itself, for
 * administrators and monitoring: the status model, a JSON object built
 * when asked, of the data files of the running configuration (what was
 * loaded, when, how long it took, whether the last good data is being
 * served instead of a bad file, and where each file is used).
 * mod_profile_status_views.c shows it.
 *
 * It owns the snapshot of each load that the model shows, taken when the
 * running configuration has loaded its files.  It changes nothing that
 * is served.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_main.h"

#include <apr_strings.h>
#include <jansson.h>

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
apr_array_header_t *profile_status_sorted(apr_hash_t *files, apr_pool_t *p)
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
json_t *profile_status_model(apr_pool_t *p)
{
    apr_array_header_t *files = profile_status_sorted(running_files, p);
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

json_t *profile_status_file(const profile_data_t *d,
                            const profile_store_t *st, const char *err,
                            apr_pool_t *p)
{
    return file_json(d, st, err, NULL, p);
}

int profile_status_configured(void)
{
    return running_files != NULL;
}

void profile_status_register_hooks(apr_pool_t *p)
{
    /* After profile_check_config (APR_HOOK_MIDDLE) has loaded. */
    ap_hook_check_config(status_check_config, NULL, NULL, APR_HOOK_LAST);
    profile_status_views_register_hooks(p);
}
