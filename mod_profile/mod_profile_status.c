/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_status.c -- what the module knows of itself, for
 * administrators and monitoring: the status model, a JSON object built
 * when asked, of the data files of the running configuration (what was
 * loaded, when, how long it took, whether the last good data is being
 * served instead of a bad file, and each ProfileData line naming it with
 * its options and what its section configures).
 * mod_profile_status_views.c shows it, with the text of profile_report.c.
 * It reads what loading left (profile_data_t, the file's holder) and
 * changes nothing that is served.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_main.h"

#include <apr_strings.h>
#include <jansson.h>

#include "mod_profile.h"
#include "profile_args.h"
#include "profile_report.h"

#define jstr(s, p) profile_report_str((s), NULL, (p))

static void set(json_t *o, const char *key, json_t *v)
{
    profile_report_set(o, key, v);
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

static json_t *setting_json(const profile_setting_t *w, const char *how,
                            apr_pool_t *p)
{
    json_t *o = json_object();

    set(o, "directive", json_string(w->name));
    set(o, "value", jstr(w->value, p));
    set(o, "definedIn", jstr(w->file, p));
    set(o, "line", json_integer(w->line));
    set(o, "section", jstr(w->section, p));
    set(o, "server", jstr(profile_server_name(w->s, p), p));
    set(o, "applies", jstr(how, p));
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
    const char *bad_at, *compress_at, *how;
    int i;

    set(o, "definedIn", jstr(u->file, p));
    set(o, "line", json_integer(u->line));
    set(o, "section", jstr(u->section, p));
    set(o, "server", jstr(profile_server_name(u->s, p), p));
    set(o, "base", jstr(profile_use_base(u), p));
    set(o, "badData", json_string(profile_conf_refuse(u, &bad_at, p)
                                  ? "refuse" : "keep"));
    set(o, "badDataFrom", jstr(u->refuse != -1 ? "this line" : bad_at, p));
    set(o, "compression", json_boolean(profile_conf_compress(u, &compress_at,
                                                             p)));
    set(o, "compressionFrom", jstr(u->compress != -1 ? "this line"
                                   : compress_at, p));
    if (u->page) {
        /* Where its pages are published (CONTRACT §11). */
        json_t *page = json_object();

        set(page, "url", jstr(u->where.url, p));
        set(page, "assets", jstr(u->where.assets, p));
        set(o, "page", page);
    }
    for (i = 0; mc != NULL && i < mc->settings->nelts; i++) {
        const profile_setting_t *w = &APR_ARRAY_IDX(mc->settings, i,
                                                      profile_setting_t);

        if (w->conf == u->conf) {
            set(here, w->name, jstr(w->value, p));
        }
        else if ((w->s == u->s || !w->s->is_virtual || !u->s->is_virtual)
                 && (how = profile_args_section_applies(
                         w->section, w->location, profile_use_base(u)))
                    != NULL) {
            json_array_append_new(other, setting_json(w, how, p));
        }
    }
    set(o, "configuredHere", here);
    set(o, "mayChangeForSomeUrls", other);
    return o;
}

void profile_status_report_file(profile_report_file_t *f,
                                const profile_data_t *d,
                                const profile_holder_t *h,
                                const profile_store_t *st, const char *err)
{
    memset(f, 0, sizeof(*f));
    f->path = d->path;
    f->store = st;
    f->error = err;
    f->stale = d->stale;
    f->kept = d->kept;
    f->compress = d->compress;
    f->refuse = d->refuse_at != NULL;
    if (h != NULL) {
        f->stale_since = h->kept.stale_since;
        f->loaded_at = h->kept.loaded_at;
        f->loaded_in = h->kept.loaded_in;
    }
}

json_t *profile_status_file(const profile_data_t *d,
                            const profile_holder_t *h,
                            const profile_store_t *st, const char *err,
                            apr_pool_t *p)
{
    profile_report_file_t f;
    json_t *o, *lines = json_array();
    int i;

    profile_status_report_file(&f, d, h, st, err);
    o = profile_report_file(&f, p);
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
