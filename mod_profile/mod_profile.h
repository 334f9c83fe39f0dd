/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile.h -- what the httpd glue files share: the per-directory
 * configuration, the data files a configuration generation names, and
 * what each glue file offers the others.
 *
 *   mod_profile.c         the module record, hooks and the request glue
 *   mod_profile_config.c  directives, per-directory configuration, merge
 *   mod_profile_reload.c  loading data files; last good data across
 *                         restarts; what a restart logs
 *   mod_profile_unchanged.c  whether a file still holds the bytes its
 *                         store was loaded from
 *   mod_profile_status.c  the status model: what is served, since when,
 *                         how it loaded, where each file is used
 *   mod_profile_status_views.c  server-status, the profile-status
 *                         handler, -D DUMP_PROFILES
 *
 * Glue only: everything that can be decided without httpd lives in the
 * pure core (profile_*.c).
 */
#ifndef MOD_PROFILE_H
#define MOD_PROFILE_H

#include "httpd.h"
#include "http_config.h"

#include <apr_hash.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_api.h"
#include "profile_store.h"

#define PROFILE_HANDLER "profile"
#define PROFILE_LOGNO(n) "PROFILE" #n ": "
/* Retry-After of the 503 answered while a data file has no good load. */
#define PROFILE_RETRY_AFTER 60

/* One data file as this configuration generation uses it, shared by
 * every section naming it (and gone with the configuration pool). */
typedef struct {
    const char *path;               /* absolute */
    const profile_store_t *store;   /* what is served; NULL: nothing */
    const char *error;              /* why this generation's load failed */
    int stale;                      /* store is an earlier good load */
    int compress;                   /* its gzip and br forms are rendered */
    int refuse;                     /* ProfileBadData refuse applies */
    apr_array_header_t *uses;       /* profile_use_t: where it is named */
} profile_data_t;

/* A ProfileData line. */
typedef struct {
    server_rec *s;                  /* its (virtual) server */
    const char *file;
    int line;
    const void *conf;               /* its section's profile_dir_conf */
} profile_use_t;

typedef struct {
    profile_data_t *data;           /* ProfileData; NULL: unset */
    const char *data_base;          /* the <Location> holding ProfileData */
    const char *base_path;          /* ProfileBasePath; NULL: unset */
    apr_array_header_t *origins;    /* NULL: "*" */
    int origins_set;
    int max_age;                    /* -1: unset */
    const char *cache_control;      /* Cache-Control for max_age */
    int compress;                   /* ProfileCompression; -1: unset */
    int refuse;                     /* ProfileBadData refuse: 1, keep: 0;
                                     * -1: unset (keep) */
} profile_dir_conf;

extern module AP_MODULE_DECLARE_DATA profile_module;

/* mod_profile_config.c */
extern const command_rec profile_cmds[];
void *profile_create_dir_conf(apr_pool_t *p, char *dir);
void *profile_merge_dir_conf(apr_pool_t *p, void *basev, void *addv);
int profile_config_pre_config(apr_pool_t *pconf, apr_pool_t *plog,
                              apr_pool_t *ptemp);
/* This generation's data files: path -> profile_data_t (NULL: none). */
apr_hash_t *profile_data_files(void);
apr_off_t profile_max_data_size(void);
/* The int setting at offset `field` of profile_dir_conf for the section
 * of a ProfileData line: its own, else its server's, else -1. */
int profile_use_setting(const profile_use_t *u, apr_size_t field);
/* Non-zero when a file's gzip and br forms are to be rendered. */
int profile_data_compressed(const profile_data_t *d);
/* Non-zero when a bad file is to make the configuration fail
 * (ProfileBadData refuse in a section naming it, or its server). */
int profile_data_refused(const profile_data_t *d);
/* Gives each ProfileData in a <Location> (or an <If> within one) that
 * section's path as its API base; once the whole configuration is read. */
void profile_config_bases(server_rec *main_server, apr_pool_t *p);
/* The URL path of the API base of a section, or NULL. */
const char *profile_api_base(const profile_dir_conf *conf);
/* The rest of `uri` below `base` ("" or "/..."), or NULL. */
const char *profile_below(const char *uri, const char *base);

/* mod_profile_reload.c */
int profile_load_all(apr_pool_t *pconf, apr_pool_t *ptemp, server_rec *s);
int profile_reload_post_config(apr_pool_t *pconf, apr_pool_t *ptemp,
                               server_rec *s);

/* The last good load of a data file, as the reload registry keeps it. */
typedef struct {
    apr_time_t loaded_at;           /* when its data was loaded */
    apr_interval_time_t loaded_in;  /* how long that took; 0: logged */
    apr_time_t stale_since;         /* first failed load since; 0: fresh */
} profile_load_times_t;

/* Fills *out for data file `path`; 0 when no good load of it is kept. */
int profile_reload_times(profile_load_times_t *out, const char *path,
                         server_rec *s);

/* mod_profile_unchanged.c */
#define PROFILE_BUILD_LEN 128
/* Which build of this module runs (its .so's path, device, inode, size
 * and times), into out[len]; "" where that cannot be known. */
void profile_module_build(char *out, apr_size_t len, apr_pool_t *ptemp);
/* Non-zero when loading the file at `path` again, as `opts` say, with
 * this build `build`, would give `st`, which build `st_build` loaded:
 * the file holds the same bytes (size and MD5) and the options that
 * shape a store match.  Sets *mtime to the file's modification time. */
int profile_file_unchanged(const profile_store_t *st, const char *st_build,
                           const char *path, const char *build,
                           const profile_load_opts_t *opts,
                           apr_time_t *mtime, apr_pool_t *ptemp);

/* mod_profile_status.c: the status model */
#define PROFILE_STATUS_HANDLER "profile-status"
void profile_status_register_hooks(apr_pool_t *p);
/* Non-zero once a running configuration names data files. */
int profile_status_configured(void);
/* The running configuration's data files as served now (a new JSON
 * object; the caller json_decref()s it). */
json_t *profile_status_model(apr_pool_t *p);
/* One data file: `st` what was read of it (NULL: nothing), `err` why
 * that failed; without the load's times (DUMP_PROFILES). */
json_t *profile_status_file(const profile_data_t *d,
                            const profile_store_t *st, const char *err,
                            apr_pool_t *p);
/* The data files of `files` (path -> profile_data_t), sorted by path. */
apr_array_header_t *profile_status_sorted(apr_hash_t *files, apr_pool_t *p);

/* mod_profile_status_views.c */
void profile_status_views_register_hooks(apr_pool_t *p);

#endif
