/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_metrics.h -- the metrics of the data files (CONTRACT §10) in
 * the Prometheus text exposition format, version 0.0.4, from plain
 * data: mod_profile_metrics.c gathers it from the running configuration
 * and the `profile-metrics` handler answers with the text.
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
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_METRICS_H
#define PROFILE_METRICS_H

#include <apr_pools.h>
#include <apr_time.h>

#include "profile_report.h"

#define PROFILE_METRICS_CONTENT_TYPE \
    "text/plain; version=0.0.4; charset=utf-8"

/* A label value: valid UTF-8 (bytes that are not become '?'), with
 * backslash, double quote and line feed escaped as the format says. */
const char *profile_metrics_label(const char *s, apr_pool_t *p);
/* The metrics of files[0..n-1], module version `version`, as text. */
const char *profile_metrics_text(const profile_report_file_t *files, int n,
                                 const char *version, apr_pool_t *p);

#endif
