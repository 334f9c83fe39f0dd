/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_report.h -- what the reports for administrators (CONTRACT §10)
 * say, from plain data: the pieces of the status model that need no
 * httpd (JSON strings of any bytes, times, what a store holds), and the
 * text the views print from the model (a ProfileData line, the records,
 * the ?auto lines of server-status, the -D DUMP_PROFILES entry).  The
 * glue (mod_profile_status*.c) builds the model from the configuration
 * and writes the text where httpd wants it.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_REPORT_H
#define PROFILE_REPORT_H

#include <apr_pools.h>
#include <apr_time.h>
#include <jansson.h>

#include "profile_store.h"

/* A data file as the reports see it. */
typedef struct {
    const char *path;
    const profile_store_t *store;   /* what is served; NULL: nothing */
    const char *error;              /* why its last load failed; NULL */
    int stale;                      /* store is an earlier good load */
    int kept;                       /* the last restart kept it, unchanged */
    int compress;                   /* coded forms wanted (no store) */
    int refuse;                     /* a line says bad=refuse */
    apr_time_t stale_since;         /* 0: not stale or not known */
    apr_time_t loaded_at;           /* of the store; 0: not known */
    apr_interval_time_t loaded_in;  /* 0: not known */
} profile_report_file_t;

/* A JSON string of s (NULL: null); bytes that are not UTF-8 become
 * '?' (a path may hold any bytes).  *text, if not NULL, gets its text. */
json_t *profile_report_str(const char *s, const char **text, apr_pool_t *p);
/* Sets o[key] to v, a new reference (NULL: null). */
void profile_report_set(json_t *o, const char *key, json_t *v);
/* `v`, a scalar or an array of scalars (joined by spaces), as text
 * (true/false: "on"/"off"; NULL or null: NULL). */
const char *profile_report_text(const json_t *v, apr_pool_t *p);
/* RFC 3339, UTC, to the second. */
const char *profile_report_time(apr_time_t t, apr_pool_t *p);
/* The same as a JSON string; 0: null. */
json_t *profile_report_jtime(apr_time_t t, apr_pool_t *p);
/* Sets in `o` what store `st` holds: "languages", "records" per
 * collection, and its "representations" (every body with an ETag of its
 * own) and their "bytes", per coding. */
void profile_report_store(json_t *o, const profile_store_t *st,
                          apr_pool_t *p);

/* A file of the model, less its "lines": its path, state and a message
 * saying it, the error, when and how fast it loaded, the file loaded
 * and the file on disk now (looked at now), its options and what its
 * store holds (profile_report_store()). */
json_t *profile_report_file(const profile_report_file_t *f, apr_pool_t *p);

/* From a file of the model: the counts of its object `member`,
 * "records" ("skills 3, experience 4, ...") or "untranslated" ("en 0,
 * es 2"), NULL when none was read; its representations and bytes per coding,
 * "identity 28 (9120 bytes); gzip ..." (NULL: none read). */
const char *profile_report_counts(const json_t *f, const char *member,
                                  apr_pool_t *p);
const char *profile_report_codings(const json_t *f, apr_pool_t *p);
/* A ProfileData line of the model (a member of a file's "lines") as
 * text: where it stands, its options, what its section configures and
 * what other sections may change (CONTRACT §1), its parts joined by
 * `sep`. */
const char *profile_report_line(const json_t *u, const char *sep,
                                apr_pool_t *p);
/* The ?auto lines of server-status for model `m`: the counts, then per
 * file "ProfileData[i]Key: value" (a null value gives no line; control
 * characters become spaces).  These keys are an interface
 * (docs/operations.md). */
const char *profile_report_auto(const json_t *m, apr_pool_t *p);
/* The module's section of mod_status's HTML page for model `m`: its
 * version, the counts, and per file a table of what the model says;
 * every text escaped for HTML. */
const char *profile_report_html(const json_t *m, apr_pool_t *p);
/* A file's entry of -D DUMP_PROFILES: its path, what it holds or why it
 * is bad (one problem a line, indented), and each ProfileData line. */
const char *profile_report_dump(const json_t *f, apr_pool_t *p);

#endif
