/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile.h -- what the httpd glue files share: the per-directory
 * configuration, the data files a configuration generation names, and
 * what each glue file offers the others.
 *
 *   mod_profile.c         the module record, hooks and the request glue
 *   mod_profile_config.c  directives, per-directory and per-server
 *                         configuration and their merges; where each
 *                         setting is written
 *   mod_profile_data.c    the ProfileData line: one file, or a pattern's
 *                         many
 *   mod_profile_settings.c  the one place each directive's default is
 *                         resolved (the getters)
 *   mod_profile_holder.c  the one record per data file kept across
 *                         restarts; which build runs
 *   mod_profile_reload.c  validating and loading data files; what a
 *                         restart logs
 *   mod_profile_compiled.c  where compiled forms are kept and what they
 *                         depend on; the parent's work between restarts
 *                         (mapping ahead, unmapping, pruning)
 *   mod_profile_status.c  the status model: what is served, since when,
 *                         how it loaded, where each file is used
 *   mod_profile_status_views.c  server-status, the profile-status and
 *                         profile-metrics handlers, -D DUMP_PROFILES
 *   mod_profile_metrics.c the metrics of the data files (Prometheus)
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
#include "profile_compiled.h"
#include "profile_report.h"
#include "profile_store.h"

#define PROFILE_HANDLER "profile"
/* The page's handler (CONTRACT §11). */
#define PROFILE_PAGE_HANDLER "profile-page"
/* Where the page's static files are when the line names no assets=. */
#define PROFILE_PAGE_ASSETS "/profile-assets/"
/* The module's version, configure.ac's AC_INIT (Makefile.am passes it):
 * shown by the status views, the metrics and the start-up line. */
#ifndef PROFILE_VERSION
#error "PROFILE_VERSION comes from configure.ac through Makefile.am"
#endif
#define PROFILE_LOGNO(n) "PROFILE" #n ": "
/* Retry-After of the 503 answered while a data file has no good load. */
#define PROFILE_RETRY_AFTER 60

typedef struct profile_use profile_use_t;

/* One data file as this configuration generation uses it, shared by
 * every section naming it (and gone with the configuration pool). */
typedef struct {
    const char *path;               /* absolute */
    const profile_store_t *store;   /* what is served; NULL: nothing */
    const char *error;              /* why this generation's load failed */
    int stale;                      /* store is an earlier good load */
    int kept;                       /* this restart kept it, unchanged */
    int compress;                   /* a line says compress=on: its gzip
                                     * and br forms are rendered */
    const char *refuse_at;          /* the first line saying bad=refuse
                                     * ("bad=refuse on line N of F");
                                     * NULL: keep */
    apr_array_header_t *uses;       /* profile_use_t *: where it is named */
    apr_array_header_t *pages;      /* profile_page_where_t: the places
                                     * its pages are published at */
    const char *last_modified;      /* store->mtime as an HTTP date */
    const char *compiled_key;       /* what its compiled form depends on
                                     * besides its bytes; NULL: no
                                     * compiled forms */
} profile_data_t;

/* A ProfileData line whose file name has a '*': the files it matched,
 * each published below the section's base at /NAME, NAME being what
 * the '*' matched (CONTRACT §1, revised 2026-11-28). */
typedef struct {
    const char *base;               /* the <Location>'s path */
    apr_hash_t *by_name;            /* NAME -> profile_use_t * */
} profile_many_t;

/* Per directory: what a request is configured with (httpd's merge). */
typedef struct {
    const profile_use_t *use;       /* ProfileData; NULL: unset */
    const profile_many_t *many;     /* ProfileData with a '*' (use NULL);
                                     * NULL: unset */
    const char *base_path;          /* ProfileBasePath; NULL: unset */
    apr_array_header_t *origins;    /* NULL: "*" */
    int origins_set;
    int max_age;                    /* -1: unset */
    const char *cache_control;      /* Cache-Control for max_age */
    int log_variables;              /* ProfileLogVariables; -1: unset */
} profile_dir_conf_t;

/* Per server: the defaults of the ProfileData options (httpd's
 * per-server merge: a virtual host inherits the server config's). */
typedef struct {
    int refuse;                     /* ProfileBadData; -1: unset (keep) */
    int compress;                   /* ProfileCompression; -1: unset (On) */
    const char *refuse_at, *compress_at;    /* "line N of F" */
} profile_srv_conf_t;

/* A ProfileData line: its file, where it stands, its options. */
struct profile_use {
    profile_data_t *data;
    server_rec *s;                  /* the server whose section holds it */
    const char *file;
    int line;
    const char *section;            /* "<Location /api/v1>" as written;
                                     * NULL: the server's own level */
    const char *base;               /* the plain <Location> path it stands
                                     * in (NULL: none; ProfileBasePath);
                                     * for a file a '*' matched, that path
                                     * and /NAME */
    const char *name;               /* NAME, for a file a '*' matched;
                                     * else NULL */
    int refuse;                     /* bad=; -1: not said */
    int compress;                   /* compress=; -1: not said */
    int compressed;                 /* its gzip and br forms are served:
                                     * compress= or its server's default
                                     * (profile_conf_files(), once, not
                                     * at every request) */
    const char *url;                /* url=: the page's public URL; NULL:
                                     * from the server's name */
    const char *assets;             /* assets=; NULL: PROFILE_PAGE_ASSETS */
    int page;                       /* its pages are rendered: url= or
                                     * SetHandler profile-page beside it */
    profile_page_where_t where;     /* where, once the configuration is
                                     * read (profile_conf_files()) */
    const profile_dir_conf_t *conf; /* that section's own */
};

/* A request-time directive where it is written (for the reports). */
typedef struct {
    const char *name, *value, *file, *section;
    const char *location;           /* the plain <Location> path it stands
                                     * in (location_of(),
                                     * mod_profile_config.c); NULL:
                                     * another kind of section, or none */
    int line;
    server_rec *s;
    const profile_dir_conf_t *conf; /* the section's own */
} profile_setting_t;

/* The module's configuration of one generation, in its pool. */
typedef struct {
    apr_pool_t *pool;               /* the generation's */
    apr_hash_t *files;              /* path -> profile_data_t */
    apr_array_header_t *settings;   /* profile_setting_t, as written */
    apr_off_t max_data_size;        /* ProfileMaxDataSize */
    const char *compiled_dir;       /* ProfileCompiledDir; NULL: unset,
                                     * "": off */
    const char *compiled_in;        /* where this generation's compiled
                                     * forms are; NULL: none */
    int server_status;              /* ProfileServerStatus */
    int running;                    /* the served generation, loaded */
} profile_mod_conf_t;

extern module AP_MODULE_DECLARE_DATA profile_module;

/* mod_profile_config.c */
extern const command_rec profile_cmds[];
void *profile_create_dir_conf(apr_pool_t *p, char *dir);
void *profile_merge_dir_conf(apr_pool_t *p, void *basev, void *addv);
void *profile_create_srv_conf(apr_pool_t *p, server_rec *s);
void *profile_merge_srv_conf(apr_pool_t *p, void *basev, void *addv);
/* The module's configuration of the generation whose pool is `pconf`,
 * made if new; with pconf NULL, the current one, or NULL. */
profile_mod_conf_t *profile_mod_conf(apr_pool_t *pconf);

/* The sections directive `d` stands in, as written ("<Location /a>
 * <If ...>"; NULL: none), and the path of the plain <Location> it stands
 * in (NULL: none). */
const char *profile_conf_section_of(const ap_directive_t *d, apr_pool_t *p);
const char *profile_conf_location_of(const ap_directive_t *d,
                                     apr_pool_t *p);

/* mod_profile_data.c */
/* ProfileData PATH [bad=keep|refuse] [compress=on|off] [url=URL]
 * [assets=URL], PATH one file or a pattern of many. */
const char *profile_set_data(cmd_parms *cmd, void *dconf, int argc,
                             char *const argv[]);

/* Each directive's value with its default resolved (as mod_md's
 * md_config_get*): the only place the defaults are known.  Those every
 * request reads are here, inline (a call each cost more than the
 * getter); the rest are in mod_profile_settings.c. */
static APR_INLINE int profile_conf_max_age(const profile_dir_conf_t *conf)
{
    return conf->max_age >= 0 ? conf->max_age : PROFILE_DEFAULT_MAX_AGE;
}

static APR_INLINE const char *
profile_conf_cache_control(const profile_dir_conf_t *conf)
{
    return conf->max_age >= 0 ? conf->cache_control
           : "public, max-age=" APR_STRINGIFY(PROFILE_DEFAULT_MAX_AGE);
}

static APR_INLINE int
profile_conf_log_variables(const profile_dir_conf_t *conf)
{
    return conf->log_variables == 1;
}

/* The URL path of the API base of a section, or NULL. */
static APR_INLINE const char *
profile_conf_base(const profile_dir_conf_t *conf)
{
    return conf->base_path ? conf->base_path
           : conf->use ? conf->use->base : NULL;
}

/* mod_profile_settings.c */
/* The URL path of the API base of line u's file, or NULL. */
const char *profile_use_base(const profile_use_t *u);
/* A line's options, said on it or by its server's default; *at (if not
 * NULL) says where ("bad=refuse on line N of F", "ProfileBadData refuse
 * on line M of G", or "default"). */
int profile_conf_refuse(const profile_use_t *u, const char **at,
                        apr_pool_t *p);
int profile_conf_compress(const profile_use_t *u, const char **at,
                          apr_pool_t *p);
/* Once the whole configuration is read (per-server merges done): each
 * file's load-time choices from its lines (CONTRACT §1). */
void profile_conf_files(apr_pool_t *ptemp);

/* mod_profile_holder.c */
#define PROFILE_BUILD_LEN 128
/* The first part of every holder, which every build that has it reads
 * the same way: what may be read of a holder another build made.  Its
 * first three fields are those the builds before it kept too (magic, a
 * 32-bit word, the pool), so that any build frees any holder.  Never
 * change it: a new shape is a new PROFILE_KEPT_VERSION, and a build
 * reads no other version's fields but those three. */
#define PROFILE_KEPT_VERSION 1
typedef struct {
    apr_uint32_t magic;
    apr_uint32_t version;           /* PROFILE_KEPT_VERSION */
    apr_pool_t *pool;               /* own allocator; holds all of it */
    apr_uint32_t size;              /* sizeof(profile_holder_t) there */
    apr_uint32_t layout;            /* PROFILE_STORE_LAYOUT there */
    char build[PROFILE_BUILD_LEN];  /* profile_module_build() there */
    /* The last good load: the file's bytes as they were loaded (a copy;
     * NULL: none kept), whose meaning no build's layout changes. */
    const char *bytes;
    apr_size_t len;
    apr_time_t mtime;               /* the file's modification time */
    apr_time_t loaded_at;           /* 0: no good load */
    apr_interval_time_t loaded_in;
    apr_time_t stale_since;         /* first failed load since; 0: fresh */
    apr_int32_t generation;         /* the last that named the file */
} profile_kept_t;

/* One data file's record across restarts.  A build reads the fields
 * after `kept` only in a holder it made itself (same build, same size,
 * same PROFILE_STORE_LAYOUT); a holder of another build is replaced by
 * one of its own that keeps `kept` (profile_holder()). */
typedef struct {
    profile_kept_t kept;            /* first */
    apr_pool_t *store_pool;         /* store and kept.bytes; NULL: none */
    apr_pool_t *map_pool;           /* store's compiled form mapped (and
                                     * kept.bytes then); NULL: none */
    apr_pool_t *old_map_pool;       /* the one before, unmapped after the
                                     * restart (profile_holders_reap());
                                     * NULL: none */
    profile_compiled_form_t form;   /* the compiled file store was mapped
                                     * from (form.store NULL: none) */
    apr_pool_t *ahead_pool;         /* a newer compiled file, mapped ahead
                                     * of the restart (ahead);
                                     * NULL: none */
    profile_compiled_form_t ahead;
    profile_store_t *store;         /* NULL: none loaded by this build */
    const char *lost;               /* why another build's last good data
                                     * cannot be served; NULL: it can */
} profile_holder_t;
/* The holder of data file `path`, or NULL.  With `make` (post_config,
 * `build` the running build), made if new, and a holder of another
 * build replaced by one of this build that keeps what that one kept. */
profile_holder_t *profile_holder(server_rec *s, const char *path,
                                 const char *build, int make);
/* Frees the holders no section of generation `gen` names. */
void profile_holders_prune(server_rec *s, int gen);
/* The monitor hook: unmaps the compiled forms a restart replaced, once
 * the new generation's children run (they hold the mappings too, so the
 * parent's unmapping is not the one that frees a replaced file, which on
 * a file system that discards costs ~0.1 ms a file). */
void profile_holders_reap(server_rec *s);

/* mod_profile_compiled.c */
/* Where this build keeps compiled forms, made if missing (a reading
 * before the one the server runs with logs why it cannot); NULL: none. */
const char *profile_compiled_dir_of(const char *build, server_rec *s,
                                    apr_pool_t *p);
/* The monitor hook (the parent, every ten seconds or so, while its
 * children serve): the mappings a restart replaced go; compiled forms a
 * configtest wrote since are mapped ahead of the restart that will use
 * them; once a generation, compiled forms nothing uses are removed. */
int profile_compiled_monitor(apr_pool_t *p, server_rec *s);

/* mod_profile_reload.c */
/* The check_config and post_config hooks. */
int profile_reload_check_config(apr_pool_t *pconf, apr_pool_t *plog,
                                apr_pool_t *ptemp, server_rec *s);
int profile_reload_post_config(apr_pool_t *pconf, apr_pool_t *plog,
                               apr_pool_t *ptemp, server_rec *s);

/* Which build of this module runs (its .so's path, device, inode, size
 * and times), into out[len]; "" where that cannot be known. */
void profile_module_build(char *out, apr_size_t len, apr_pool_t *ptemp);

/* mod_profile_status.c: the status model */
#define PROFILE_STATUS_HANDLER "profile-status"
/* A server as name:port (the main server: its name). */
const char *profile_server_name(const server_rec *s, apr_pool_t *p);
/* The running configuration's data files, sorted by path (NULL: none). */
apr_array_header_t *profile_status_files(apr_pool_t *p);
/* The model of those files (a new JSON object to json_decref()). */
json_t *profile_status_model(server_rec *s, apr_pool_t *p);
/* One data file as served (h: its holder); for DUMP_PROFILES, `st` and
 * `err` are what was read of it just now. */
json_t *profile_status_file(const profile_data_t *d,
                            const profile_holder_t *h,
                            const profile_store_t *st, const char *err,
                            apr_pool_t *p);
/* What the reports say of data file d (h: its holder, or NULL), which
 * holds `st` (NULL: nothing) because of `err`. */
void profile_status_report_file(profile_report_file_t *f,
                                const profile_data_t *d,
                                const profile_holder_t *h,
                                const profile_store_t *st, const char *err);
/* The data files of `files` (path -> profile_data_t), sorted by path. */
apr_array_header_t *profile_status_sorted(apr_hash_t *files, apr_pool_t *p);

/* mod_profile_status_views.c */
void profile_status_views_register_hooks(apr_pool_t *p);

/* mod_profile_metrics.c */
#define PROFILE_METRICS_HANDLER "profile-metrics"
/* The metrics of the running configuration's data files, as text. */
const char *profile_metrics_body(server_rec *s, apr_pool_t *p);

#endif
