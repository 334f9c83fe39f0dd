/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_metrics.c -- the metrics text (profile_metrics.h).
 */
#include <string.h>

#include <apr_strings.h>
#include <apr_tables.h>

#include "profile_metrics.h"
#include "profile_report.h"
#include "profile_schema.h"

const char *profile_metrics_label(const char *s, apr_pool_t *p)
{
    const char *text, *out = "";
    char *c, *q;

    json_decref(profile_report_str(s, &text, p));
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

/* A gauge's sample per file that has a value: "NAME{file="F"} V". */
static void samples(body_t *b, const char *name, const char *const *file,
                    const char *const *value, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        if (value[i] != NULL) {
            put(b, apr_psprintf(b->p, "%s{file=\"%s\"} %s\n", name, file[i],
                                value[i]));
        }
    }
}

const char *profile_metrics_text(const profile_report_file_t *f, int n,
                                 const char *version, apr_pool_t *p)
{
    const char **file = apr_pcalloc(p, sizeof(*file) * (n ? n : 1));
    const char **v = apr_pcalloc(p, sizeof(*v) * (n ? n : 1));
    body_t b;
    int i, k;

    b.lines = apr_array_make(p, 16 + 8 * n, sizeof(const char *));
    b.p = p;
    for (i = 0; i < n; i++) {
        file[i] = profile_metrics_label(f[i].path, p);
    }

    family(&b, "profile_build_info",
           "The version of mod_profile that is running (always 1).");
    put(&b, apr_psprintf(p, "profile_build_info{version=\"%s\"} 1\n",
                         profile_metrics_label(version, p)));

    family(&b, "profile_data_stale",
           "1 while the last good data of the file is served because its "
           "last reload failed, else 0.");
    for (i = 0; i < n; i++) {
        v[i] = f[i].store != NULL && f[i].stale ? "1" : "0";
    }
    samples(&b, "profile_data_stale", file, v, n);
    family(&b, "profile_data_unavailable",
           "1 while no good data of the file is loaded and its APIs "
           "answer 503, else 0.");
    for (i = 0; i < n; i++) {
        v[i] = f[i].store == NULL ? "1" : "0";
    }
    samples(&b, "profile_data_unavailable", file, v, n);
    family(&b, "profile_data_last_load_timestamp_seconds",
           "When the data served was loaded, in seconds since the epoch "
           "(kept by a restart that found the file unchanged).");
    for (i = 0; i < n; i++) {
        /* Milliseconds cut, not rounded: the second is the JSON
         * status's loadedAt (43.9996 is 43.999, never 44.000). */
        v[i] = f[i].store != NULL && f[i].loaded_at > 0
               ? apr_psprintf(p, "%" APR_TIME_T_FMT ".%03d",
                              apr_time_sec(f[i].loaded_at),
                              (int)(apr_time_usec(f[i].loaded_at) / 1000))
               : NULL;
    }
    samples(&b, "profile_data_last_load_timestamp_seconds", file, v, n);
    family(&b, "profile_data_load_duration_seconds",
           "How long loading the data served took, in seconds.");
    for (i = 0; i < n; i++) {
        v[i] = f[i].store != NULL && f[i].loaded_in > 0
               ? apr_psprintf(p, "%.6f", (double)f[i].loaded_in
                                         / APR_USEC_PER_SEC) : NULL;
    }
    samples(&b, "profile_data_load_duration_seconds", file, v, n);
    family(&b, "profile_data_records",
           "The records of each collection in the data served.");
    for (i = 0; i < n; i++) {
        for (k = 0; f[i].store != NULL && k < PROFILE_COLL_COUNT; k++) {
            put(&b, apr_psprintf(p, "profile_data_records{file=\"%s\","
                                 "collection=\"%s\"} %d\n", file[i],
                                 profile_schema_colls[k].key,
                                 f[i].store->coll[k].nitems));
        }
    }
    family(&b, "profile_data_untranslated_texts",
           "The texts of the data served untranslated in a language: "
           "served from the fallback language, or empty.");
    for (i = 0; i < n; i++) {
        const profile_store_t *st = f[i].store;

        for (k = 0; st != NULL && k < st->nlangs; k++) {
            put(&b, apr_psprintf(p, "profile_data_untranslated_texts{file="
                                 "\"%s\",language=\"%s\"} %" APR_SIZE_T_FMT
                                 "\n", file[i],
                                 profile_metrics_label(st->langs[k], p),
                                 st->untranslated[k]));
        }
    }
    return apr_array_pstrcat(p, b.lines, '\0');
}
