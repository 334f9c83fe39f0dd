/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_status.c -- what the module knows of itself, for
 * administrators and monitoring: the status model, a JSON object built
 * when asked, of the data files of the running configuration (what was
 * loaded, when, how long it took, whether the last good data is being
 * served instead of a bad file, and each ProfileData line naming it with
 * its options and what its section configures).  mod_profile_status_views.c shows it.  It reads
 * what loading left (profile_data_t, the file's holder) and changes
 * nothing that is served.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_main.h"

#include <apr_strings.h>
#include <jansson.h>

#include "mod_profile.h"
#include "profile_schema.h"

/* ------------------------------------------------------------------ */
/* The model                                                           */

json_t *profile_jstr(const char *s, const char **text, apr_pool_t *p)
{
    json_t *v;
    char *c, *q;

    if (s == NULL || (v = json_string(s)) != NULL) {
        if (text != NULL) {
            *text = s;
        }
        return s == NULL ? json_null() : v;
    }
    c = apr_pstrdup(p, s);
    for (q = c; *q; q++) {
        if ((unsigned char)*q >= 0x80) {
            *q = '?';
        }
    }
    if (text != NULL) {
        *text = c;
    }
    return json_string(c);
}

#define jstr(s, p) profile_jstr((s), NULL, (p))

/* Prints `v`, a scalar or an array of scalars, as text (NULL: none). */
const char *profile_json_text(const json_t *v, apr_pool_t *p)
{
    const char *s = "";
    size_t i;

    if (v == NULL) {
        return NULL;            /* a member the file's state lacks */
    }
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
                            profile_json_text(json_array_get(v, i), p), NULL);
        }
        return s;
    default:
        return NULL;
    }
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

const char *profile_server_name(const server_rec *s, apr_pool_t *p)
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

static json_t *setting_json(const profile_setting_t *w, apr_pool_t *p)
{
    json_t *o = json_object();

    set(o, "directive", json_string(w->name));
    set(o, "value", jstr(w->value, p));
    set(o, "definedIn", jstr(w->file, p));
    set(o, "line", json_integer(w->line));
    set(o, "section", jstr(w->section, p));
    set(o, "server", jstr(profile_server_name(w->s, p), p));
    return o;
}

/* A ProfileData line (CONTRACT §1, §10): where it stands, its options
 * and where they come from, the request-time directives written in its
 * section, and those written in other sections that may change them
 * for some of its URLs (an enclosing, regex or <If> section; which one
 * applies to a URL is httpd's to say, at the request). */
static json_t *use_json(const profile_use_t *u, apr_pool_t *p)
{
    const profile_mod_conf_t *mc = profile_mod_conf(NULL);
    json_t *o = json_object(), *here = json_object(), *other = json_array();
    const char *bad_at, *compress_at;
    int i;

    set(o, "definedIn", jstr(u->file, p));
    set(o, "line", json_integer(u->line));
    set(o, "section", jstr(u->section, p));
    set(o, "server", jstr(profile_server_name(u->s, p), p));
    set(o, "base", jstr(profile_conf_base(u->conf), p));
    set(o, "badData", json_string(profile_conf_refuse(u, &bad_at, p)
                                  ? "refuse" : "keep"));
    set(o, "badDataFrom", jstr(u->refuse != -1 ? "this line" : bad_at, p));
    set(o, "compression", json_boolean(profile_conf_compress(u, &compress_at,
                                                             p)));
    set(o, "compressionFrom", jstr(u->compress != -1 ? "this line"
                                   : compress_at, p));
    for (i = 0; mc != NULL && i < mc->settings->nelts; i++) {
        const profile_setting_t *w = &APR_ARRAY_IDX(mc->settings, i,
                                                      profile_setting_t);

        if (w->conf == u->conf) {
            set(here, w->name, jstr(w->value, p));
        }
        else if (w->s == u->s || !w->s->is_virtual || !u->s->is_virtual) {
            json_array_append_new(other, setting_json(w, p));
        }
    }
    set(o, "configuredHere", here);
    set(o, "mayChangeForSomeUrls", other);
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

/* What a store holds: its languages, their untranslated texts and its
 * records and, rendered, its
 * representations (every body with an ETag of its own: profile,
 * contact, each collection and each of its elements, per language)
 * and their bytes, per coding. */
static void store_json(json_t *o, const profile_store_t *st, apr_pool_t *p)
{
    json_t *langs = json_array(), *recs = json_object();
    json_t *untr = json_object();
    json_int_t n[PROFILE_ENC_COUNT] = {0}, bytes[PROFILE_ENC_COUNT] = {0};
    int l, k, i;

    for (l = 0; l < st->nlangs; l++) {
        json_array_append_new(langs, jstr(st->langs[l], p));
        set(untr, st->langs[l], json_integer((json_int_t)st->untranslated[l]));
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        set(recs, profile_schema_colls[k].key,
            json_integer(st->coll[k].nitems));
    }
    set(o, "languages", langs);
    set(o, "fallback", st->fallback < 0 ? NULL
                       : jstr(st->langs[st->fallback], p));
    set(o, "untranslated", untr);
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

json_t *profile_status_file(const profile_data_t *d,
                            const profile_holder_t *h,
                            const profile_store_t *st, const char *err,
                            apr_pool_t *p)
{
    json_t *o = json_object(), *loaded = json_null(), *disk, *lines;
    const char *state = st == NULL ? "unavailable"
                        : d->stale ? "stale" : "fresh";
    apr_time_t since = h ? h->kept.stale_since : 0;
    apr_time_t at = h ? h->kept.loaded_at : 0;
    apr_finfo_t fi;
    char ebuf[120];
    apr_status_t rv;
    int i;

    set(o, "path", jstr(d->path, p));
    set(o, "state", json_string(state));
    set(o, "message", jstr(st == NULL
        ? apr_pstrcat(p, "no good data loaded: answering 503 because: ",
                      err, NULL)
        : d->stale ? apr_pstrcat(p, "serving last good data since ",
                                 rfc3339(since, p), " because: ", err, NULL)
        : at != 0 ? apr_pstrcat(p, "serving the data loaded at ",
                                rfc3339(at, p), NULL)
        : "valid", p));
    set(o, "error", jstr(err, p));
    set(o, "staleSince", jtime(since, p));
    set(o, "loadedAt", jtime(at, p));
    set(o, "loadSeconds", h && h->kept.loaded_in > 0
        ? json_real((double)h->kept.loaded_in / APR_USEC_PER_SEC)
        : json_null());
    set(o, "keptUnchanged", json_boolean(d->kept));
    if (st != NULL) {
        loaded = json_object();
        set(loaded, "size", json_integer((json_int_t)st->size));
        set(loaded, "mtime", jtime(st->mtime, p));
    }
    set(o, "loaded", loaded);
    disk = json_object();
    rv = apr_stat(&fi, d->path, APR_FINFO_SIZE | APR_FINFO_MTIME, p);
    if (rv == APR_SUCCESS) {
        set(disk, "size", json_integer(fi.size));
        set(disk, "mtime", jtime(fi.mtime, p));
        set(disk, "changed", json_boolean(st == NULL || fi.mtime != st->mtime
                                          || fi.size != (apr_off_t)st->size));
    }
    else {
        set(disk, "error", jstr(apr_strerror(rv, ebuf, sizeof(ebuf)), p));
        set(disk, "changed", json_true());
    }
    set(o, "onDisk", disk);
    set(o, "compressed", json_boolean(st ? st->compressed : d->compress));
    set(o, "badData", json_string(d->refuse_at ? "refuse" : "keep"));
    if (st != NULL) {
        store_json(o, st, p);
    }
    lines = json_array();
    for (i = 0; i < d->uses->nelts; i++) {
        json_array_append_new(lines, use_json(APR_ARRAY_IDX(
            d->uses, i, profile_use_t *), p));
    }
    set(o, "lines", lines);
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

apr_array_header_t *profile_status_files(apr_pool_t *p)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);

    return mc != NULL && mc->running && apr_hash_count(mc->files) > 0
           ? profile_status_sorted(mc->files, p) : NULL;
}

json_t *profile_status_model(server_rec *s, apr_pool_t *p)
{
    apr_array_header_t *files = profile_status_files(p);
    json_t *o = json_object(), *data = json_array();
    int i, n[3] = {0, 0, 0};

    for (i = 0; files != NULL && i < files->nelts; i++) {
        const profile_data_t *d = APR_ARRAY_IDX(files, i, profile_data_t *);

        n[d->store == NULL ? 2 : d->stale ? 1 : 0]++;
        json_array_append_new(data, profile_status_file(d,
            profile_holder(s, d->path, NULL, 0), d->store, d->error, p));
    }
    set(o, "version", json_string(PROFILE_VERSION));
    set(o, "generation", json_integer(ap_state_query(AP_SQ_CONFIG_GEN)));
    set(o, "files", json_integer(files ? files->nelts : 0));
    set(o, "fresh", json_integer(n[0]));
    set(o, "stale", json_integer(n[1]));
    set(o, "unavailable", json_integer(n[2]));
    set(o, "data", data);
    return o;
}
