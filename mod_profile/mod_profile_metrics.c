/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_metrics.c -- the `profile-metrics` handler (CONTRACT §10):
 * the state of each data file of the running configuration in the
 * Prometheus text exposition format, version 0.0.4, for Prometheus to
 * scrape (mod_profile_status_views.c answers with it).  It reads what the status model reads (the running
 * configuration's profile_data_t and each file's holder), keeps no
 * record of its own and changes nothing that is served.
 *
 * Families (names and labels are an interface: docs/operations.md):
 *   profile_build_info{version}                    1
 *   profile_data_stale{file}                       1 while stale, else 0
 *   profile_data_unavailable{file}                 1 while 503, else 0
 *   profile_data_last_load_timestamp_seconds{file} when the data served
 *                                                  was loaded
 *   profile_data_load_duration_seconds{file}       how long that took
 *   profile_data_records{file,collection}          records served
 *   profile_data_untranslated_texts{file,language} texts untranslated
 *                                                  there (CONTRACT §9)
 * The last four have no sample for a file that never loaded.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"

#include <apr_strings.h>
#include <jansson.h>

#include "mod_profile.h"
#include "profile_schema.h"

/* A label value: valid UTF-8 (as in the JSON status), with backslash,
 * double quote and line feed escaped as the format says. */
static const char *label_value(const char *s, apr_pool_t *p)
{
    const char *text, *out = "";
    char *c, *q;

    json_decref(profile_jstr(s, &text, p));
    for (c = q = apr_pstrdup(p, text); *q; q++) {
        const char *esc = *q == '\\' ? "\\\\" : *q == '"' ? "\\\""
                          : *q == '\n' ? "\\n" : NULL;

        if (esc != NULL) {
            *q = '\0';
            out = apr_pstrcat(p, out, c, esc, NULL);
            c = q + 1;
        }
    }
    return apr_pstrcat(p, out, c, NULL);
}

typedef struct {
    apr_array_header_t *lines;      /* const char *, joined at the end */
    apr_pool_t *p;
} body_t;

static void put(body_t *b, const char *line)
{
    APR_ARRAY_PUSH(b->lines, const char *) = line;
}

static void family(body_t *b, const char *name, const char *help)
{
    put(b, apr_psprintf(b->p, "# HELP %s %s\n# TYPE %s gauge\n", name, help,
                        name));
}

/* One data file as the status model sees it. */
typedef struct {
    const char *file;               /* escaped */
    const profile_data_t *d;
    const profile_holder_t *h;
} file_t;

const char *profile_metrics_body(server_rec *s, apr_pool_t *p)
{
    apr_array_header_t *files = profile_status_files(p);
    int n = files ? files->nelts : 0, i, k;
    file_t *f = apr_pcalloc(p, sizeof(*f) * (n ? n : 1));
    body_t b;

    b.lines = apr_array_make(p, 16 + 8 * n, sizeof(const char *));
    b.p = p;
    for (i = 0; i < n; i++) {
        f[i].d = APR_ARRAY_IDX(files, i, const profile_data_t *);
        f[i].h = profile_holder(s, f[i].d->path, NULL, 0);
        f[i].file = label_value(f[i].d->path, p);
    }

    family(&b, "profile_build_info",
           "The version of mod_profile that is running (always 1).");
    put(&b, apr_psprintf(p, "profile_build_info{version=\"%s\"} 1\n",
                         label_value(PROFILE_VERSION, p)));

    family(&b, "profile_data_stale",
           "1 while the last good data of the file is served because its "
           "last reload failed, else 0.");
    for (i = 0; i < n; i++) {
        put(&b, apr_psprintf(p, "profile_data_stale{file=\"%s\"} %d\n",
                             f[i].file, f[i].d->store != NULL
                             && f[i].d->stale));
    }
    family(&b, "profile_data_unavailable",
           "1 while no good data of the file is loaded and its APIs "
           "answer 503, else 0.");
    for (i = 0; i < n; i++) {
        put(&b, apr_psprintf(p, "profile_data_unavailable{file=\"%s\"} %d\n",
                             f[i].file, f[i].d->store == NULL));
    }
    family(&b, "profile_data_last_load_timestamp_seconds",
           "When the data served was loaded, in seconds since the epoch "
           "(kept by a restart that found the file unchanged).");
    for (i = 0; i < n; i++) {
        if (f[i].d->store != NULL && f[i].h
            && f[i].h->kept.loaded_at != 0) {
            put(&b, apr_psprintf(p, "profile_data_last_load_timestamp_seconds"
                                 "{file=\"%s\"} %.3f\n", f[i].file,
                                 (double)f[i].h->kept.loaded_at
                                 / APR_USEC_PER_SEC));
        }
    }
    family(&b, "profile_data_load_duration_seconds",
           "How long loading the data served took, in seconds.");
    for (i = 0; i < n; i++) {
        if (f[i].d->store != NULL && f[i].h
            && f[i].h->kept.loaded_in > 0) {
            put(&b, apr_psprintf(p, "profile_data_load_duration_seconds"
                                 "{file=\"%s\"} %.6f\n", f[i].file,
                                 (double)f[i].h->kept.loaded_in
                                 / APR_USEC_PER_SEC));
        }
    }
    family(&b, "profile_data_records",
           "The records of each collection in the data served.");
    for (i = 0; i < n; i++) {
        for (k = 0; f[i].d->store != NULL && k < PROFILE_COLL_COUNT; k++) {
            put(&b, apr_psprintf(p, "profile_data_records{file=\"%s\","
                                 "collection=\"%s\"} %d\n", f[i].file,
                                 profile_schema_colls[k].key,
                                 f[i].d->store->coll[k].nitems));
        }
    }
    family(&b, "profile_data_untranslated_texts",
           "The texts of the data served untranslated in a language: "
           "served from the fallback language, or empty.");
    for (i = 0; i < n; i++) {
        const profile_store_t *st = f[i].d->store;

        for (k = 0; st != NULL && k < st->nlangs; k++) {
            put(&b, apr_psprintf(p, "profile_data_untranslated_texts{file="
                                 "\"%s\",language=\"%s\"} %" APR_SIZE_T_FMT
                                 "\n", f[i].file,
                                 label_value(st->langs[k], p),
                                 st->untranslated[k]));
        }
    }
    return apr_array_pstrcat(p, b.lines, '\0');
}
