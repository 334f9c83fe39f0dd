/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_metrics.c -- the `profile-metrics` handler's text
 * (CONTRACT §10): what the metrics of each data file of the running
 * configuration are made of, gathered from what the status model reads
 * (profile_data_t and the file's holder), for profile_metrics.c to
 * write (mod_profile_status_views.c answers with it).  It keeps no
 * record of its own and changes nothing that is served.
 */
#include "httpd.h"
#include "http_config.h"

#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_metrics.h"

const char *profile_metrics_body(server_rec *s, apr_pool_t *p)
{
    apr_array_header_t *files = profile_status_files(p);
    int n = files ? files->nelts : 0, i;
    profile_report_file_t *f = apr_pcalloc(p, sizeof(*f) * (n ? n : 1));

    for (i = 0; i < n; i++) {
        const profile_data_t *d = APR_ARRAY_IDX(files, i,
                                                const profile_data_t *);

        profile_status_report_file(&f[i], d, profile_holder(s, d->path,
                                                             NULL, 0),
                                   d->store, d->error);
    }
    return profile_metrics_text(f, n, PROFILE_VERSION, p);
}
