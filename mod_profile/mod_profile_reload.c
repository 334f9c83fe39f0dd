/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_reload.c -- loading the data files once the configuration
 * is read, and keeping the last good data of each across restarts
 * (CONTRACT §9).
 *
 * Every reading of the configuration that does not become the running
 * one (the first reading at start-up, configtest, the `httpd -k ...`
 * that signals a running server) validates each file; a bad one makes
 * that reading fail before the running server is touched.  The reading
 * the server runs with loads each file into a pool of its own under the
 * process pool, which outlives the configuration pool, and keeps the
 * last good load per file in a registry there.  When a restart reaches
 * the parent with a bad file (a raw signal, or a file changed in
 * between), the last good data is served and the error is logged, once
 * the error logs are open, to the error log of the main server and of
 * every virtual host naming the file, at every restart for as long as
 * the file stays bad.
 *
 * A restart that finds a file holding the very bytes of its last good
 * load keeps that load (PROFILE0006 says "unchanged, kept"): logrotate
 * and certificate renewals restart the server every day.  Whether the
 * bytes are the same is mod_profile_unchanged.c's to say.
 *
 * Nothing kept in the process pool points into this module's .so, which
 * httpd unloads at every restart.
 */
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>             /* malloc_trim */
#endif

#include "httpd.h"
#include "http_config.h"
#include "http_log.h"
#include "http_main.h"
#include "http_core.h"

#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_validate.h"

APLOG_USE_MODULE(profile);

/* The last good load of one data file, across restarts. */
typedef struct {
    apr_pool_t *pool;               /* NULL: none; else a subpool of the
                                     * process pool, own allocator */
    profile_store_t *store;
    int generation;                 /* configuration generation last used */
    apr_time_t loaded_at;           /* when the store was loaded */
    apr_time_t stale_since;         /* first failed load since; 0: fresh */
    apr_interval_time_t validated_in; /* the first reading's check */
    apr_interval_time_t loaded_in;  /* the last load, to be logged */
    int kept;                       /* the last restart kept the store */
    apr_interval_time_t checked_in; /* ... after comparing in this time */
    char build[PROFILE_BUILD_LEN];  /* profile_module_build() of its store */
} holder_t;

/* The key names the layout of holder_t: a restart into a build of the
 * module whose holder_t differs must not read the old registry's
 * holders (it starts a registry of its own; the old one's data stays
 * until httpd stops). */
#define REGISTRY_KEY "mod_profile:last-good:2"

static apr_hash_t *registry(apr_pool_t *ppool)
{
    void *reg = NULL;

    apr_pool_userdata_get(&reg, REGISTRY_KEY, ppool);
    if (reg == NULL) {
        reg = apr_hash_make(ppool);
        apr_pool_userdata_set(reg, REGISTRY_KEY, NULL, ppool);
    }
    return reg;
}

/* The registry's holder for the data file `path` (made if new). */
static holder_t *holder_for(apr_pool_t *ppool, const char *path)
{
    apr_hash_t *reg = registry(ppool);
    holder_t *h = apr_hash_get(reg, path, APR_HASH_KEY_STRING);

    if (h == NULL) {
        h = apr_pcalloc(ppool, sizeof(*h));
        apr_hash_set(reg, apr_pstrdup(ppool, path), APR_HASH_KEY_STRING, h);
    }
    return h;
}

/* A pool with an allocator of its own, destroyed with it: httpd's global
 * allocator would keep what a destroyed store freed on its free list for
 * good (the parent would hold two stores after a reload).  Only the
 * calling thread allocates from it (the loader's threads use malloc), so
 * the allocator needs no mutex. */
static apr_pool_t *own_pool(apr_pool_t *parent)
{
    apr_allocator_t *alloc;
    apr_pool_t *p = NULL;

    if (apr_allocator_create(&alloc) != APR_SUCCESS) {
        return NULL;
    }
    if (apr_pool_create_ex(&p, parent, NULL, alloc) != APR_SUCCESS) {
        apr_allocator_destroy(alloc);
        return NULL;
    }
    apr_allocator_owner_set(alloc, p);
    return p;
}

/* Hands the memory the JSON parser freed back to the system, so that the
 * children forked after a load do not start with it. */
static void trim_heap(void)
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

static const profile_use_t *first_use(const profile_data_t *d)
{
    return &APR_ARRAY_IDX(d->uses, 0, profile_use_t);
}

/* A reading that will not run: validates, and on error says so on
 * stderr (no error log is open yet).  One problem is one line; several
 * are a line saying how many, then one line each (the first ten, then
 * "and N more": the store's message). */
static int validate(profile_data_t *d, holder_t *h, apr_pool_t *ptemp)
{
    profile_load_opts_t opts = {.render = 0, .compress = 0};
    profile_store_t *unused = NULL;
    const char *err = NULL;
    apr_pool_t *p = own_pool(ptemp);
    apr_time_t t0 = apr_time_now();
    int rv = OK;

    opts.max_size = profile_max_data_size();
    opts.problems = apr_array_make(ptemp, 4, sizeof(profile_data_problem_t));
    if (p == NULL) {
        err = "out of memory";
    }
    else if (profile_store_load(&unused, &err, d->path, &opts, p)
             == APR_SUCCESS) {
        h->validated_in = apr_time_now() - t0;
    }
    if (err != NULL) {
        const profile_use_t *u = first_use(d);
        int level = APLOG_STARTUP | (d->refuse ? APLOG_ERR : APLOG_WARNING);
        const char *what = err, *line;
        char *state;

        if (opts.problems->nelts > 1) {
            what = apr_psprintf(ptemp, "%s: %d problems", d->path,
                                opts.problems->nelts);
        }
        ap_log_error(APLOG_MARK, level, 0, NULL, PROFILE_LOGNO(0007)
                     "ProfileData: %s (ProfileData on line %d of %s)%s",
                     what, u->line, u->file, d->refuse ? ""
                     : "; ProfileBadData keep: a running server keeps the "
                       "last good data of this file, a starting one "
                       "answers 503 there");
        for (line = what == err ? NULL
                    : apr_strtok(apr_pstrdup(ptemp, err), "\n", &state);
             line != NULL; line = apr_strtok(NULL, "\n", &state)) {
            ap_log_error(APLOG_MARK, level, 0, NULL, PROFILE_LOGNO(0007)
                         "%s%s", strncmp(line, "and ", 4) == 0
                         ? apr_pstrcat(ptemp, d->path, ": ", NULL) : "",
                         line);
        }
        if (d->refuse) {
            rv = !OK;
        }
    }
    if (p != NULL) {
        apr_pool_destroy(p);
    }
    return rv;
}

/* The reading the server runs with: keeps the last good data where
 * the file still holds its bytes, else loads, or keeps the last good
 * data after a failed load.  d->error says what went wrong, for
 * profile_reload_post_config to log. */
static void load(profile_data_t *d, holder_t *h, const char *build,
                 apr_pool_t *pconf, apr_pool_t *ptemp, apr_pool_t *ppool)
{
    profile_load_opts_t opts = {.render = 1};
    profile_store_t *store = NULL;
    const char *err = NULL;
    apr_pool_t *np;
    apr_time_t t0 = apr_time_now(), mtime;

    opts.compress = d->compress;
    opts.max_size = profile_max_data_size();
    opts.problems = apr_array_make(pconf, 4, sizeof(profile_data_problem_t));
    h->generation = ap_state_query(AP_SQ_CONFIG_GEN);
    if (h->store != NULL
        && profile_file_unchanged(h->store, h->build, d->path, build, &opts,
                                  &mtime, ptemp)) {
        /* Last-Modified stays the file's modification time (CONTRACT
         * §5), which a touch moves; the bytes and ETags do not change.
         * The parent alone holds this store now: its children forked
         * with their own copies. */
        h->store->mtime = mtime;
        h->kept = 1;
        h->checked_in = apr_time_now() - t0;
        h->stale_since = 0;
        d->store = h->store;
        return;
    }
    np = own_pool(ppool);
    if (np == NULL) {
        err = "out of memory";
    }
    else if (profile_store_load(&store, &err, d->path, &opts, np)
             == APR_SUCCESS) {
        if (h->pool != NULL) {
            apr_pool_destroy(h->pool);
        }
        trim_heap();
        h->pool = np;
        h->store = store;
        h->loaded_at = apr_time_now();
        h->loaded_in = h->loaded_at - t0;
        h->stale_since = 0;
        apr_cpystrn(h->build, build, sizeof(h->build));
        d->store = store;
        return;
    }
    /* Said at every restart, one line: the first problem and how many
     * more (configtest lists them). */
    d->error = opts.problems->nelts > 1
               ? apr_psprintf(pconf, "%s (and %d more problems: apachectl "
                              "configtest lists them)",
                              profile_data_problem_line(
                                  &APR_ARRAY_IDX(opts.problems, 0,
                                                 profile_data_problem_t),
                                  d->path, pconf),
                              opts.problems->nelts - 1)
               : apr_pstrdup(pconf, err);
    if (np != NULL) {
        apr_pool_destroy(np);
    }
    if (h->store != NULL) {
        d->store = h->store;
        d->stale = 1;
        if (h->stale_since == 0) {
            h->stale_since = apr_time_now();
        }
    }
}

/* Non-zero in an `httpd -k stop` or `-k graceful-stop`: such a process
 * reads the configuration only to find the pid file, so it must work
 * whatever the data files hold (CONTRACT §9: stop always works).  httpd
 * tells no module what it was asked to do, and its MPM takes "-k ..." out
 * of process->argv; the command line as the kernel keeps it still has it
 * (Linux; elsewhere a stop reads the data files like any other reading). */
static int stopping(apr_pool_t *ptemp)
{
    apr_file_t *f;
    char buf[4096];
    apr_size_t n = sizeof(buf) - 1, i;
    const char *prev = "";

    if (apr_file_open(&f, "/proc/self/cmdline", APR_FOPEN_READ,
                      APR_OS_DEFAULT, ptemp) != APR_SUCCESS) {
        return 0;
    }
    if (apr_file_read_full(f, buf, n, &n) != APR_SUCCESS && n == 0) {
        apr_file_close(f);
        return 0;
    }
    apr_file_close(f);
    buf[n] = '\0';
    for (i = 0; i < n; i += strlen(buf + i) + 1) {
        const char *a = buf + i, *k = NULL;

        if (strcmp(prev, "-k") == 0) {
            k = a;
        }
        else if (strncmp(a, "-k", 2) == 0 && a[2] != '\0') {
            k = a + 2;
        }
        if (k != NULL && (strcmp(k, "stop") == 0
                          || strcmp(k, "graceful-stop") == 0)) {
            return 1;
        }
        prev = a;
    }
    return 0;
}

int profile_load_all(apr_pool_t *pconf, apr_pool_t *ptemp, server_rec *s)
{
    apr_hash_t *files = profile_data_files();
    apr_pool_t *ppool = s->process->pool;
    int running = ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_CONFIG;
    apr_hash_index_t *hi;
    char build[PROFILE_BUILD_LEN];
    int rv = OK;

    if (!running && stopping(ptemp)) {
        return OK;
    }
    if (running) {
        profile_module_build(build, sizeof(build), ptemp);
    }
    for (hi = files ? apr_hash_first(ptemp, files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        profile_data_t *d = apr_hash_this_val(hi);
        holder_t *h = holder_for(ppool, d->path);

        d->compress = profile_data_compressed(d);
        d->refuse = profile_data_refused(d);
        if (!running) {
            if (validate(d, h, ptemp) != OK) {
                rv = !OK;
            }
        }
        else {
            load(d, h, build, pconf, ptemp, ppool);
        }
    }
    return rv;
}

/* Logs `msg` to the error log of the main server and of every virtual
 * server naming the file, each log once. */
static void log_everywhere(const profile_data_t *d, server_rec *main_s,
                           const char *msg, apr_pool_t *ptemp)
{
    apr_hash_t *seen = apr_hash_make(ptemp);
    int i;

    for (i = -1; i < d->uses->nelts; i++) {
        server_rec *s = i < 0 ? main_s
                        : APR_ARRAY_IDX(d->uses, i, profile_use_t).s;
        /* A virtual host without an ErrorLog of its own shares the
         * main server's file (or syslog facility). */
        const char *key = s->error_log
                          ? apr_psprintf(ptemp, "%pp", (void *)s->error_log)
                          : s->error_fname ? s->error_fname : "";

        if (apr_hash_get(seen, key, APR_HASH_KEY_STRING) != NULL) {
            continue;
        }
        apr_hash_set(seen, key, APR_HASH_KEY_STRING, s);
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "%s", msg);
    }
}

int profile_reload_post_config(apr_pool_t *pconf, apr_pool_t *ptemp,
                               server_rec *s)
{
    apr_hash_t *files = profile_data_files();
    apr_hash_t *reg = registry(s->process->pool);
    int gen = ap_state_query(AP_SQ_CONFIG_GEN);
    apr_hash_index_t *hi;
    int rv = OK;

    (void)pconf;
    if (ap_state_query(AP_SQ_MAIN_STATE) != AP_SQ_MS_CREATE_CONFIG) {
        return OK;
    }
    for (hi = files ? apr_hash_first(ptemp, files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        const profile_data_t *d = apr_hash_this_val(hi);
        holder_t *h = holder_for(s->process->pool, d->path);
        char since[APR_CTIME_LEN], at[APR_CTIME_LEN];

        if (d->error == NULL) {
            continue;
        }
        if (d->stale) {
            apr_ctime(since, h->stale_since);
            apr_ctime(at, h->loaded_at);
            log_everywhere(d, s, apr_psprintf(ptemp, PROFILE_LOGNO(0003)
                           "ProfileData: %s; still serving the last good "
                           "data, loaded %s (stale since %s)", d->error, at,
                           since), ptemp);
        }
        else {
            log_everywhere(d, s, apr_psprintf(ptemp, PROFILE_LOGNO(0005)
                           "ProfileData: %s; no good data of this file is "
                           "loaded, so its locations answer 503 until a "
                           "reload with a good file", d->error), ptemp);
        }
        if (gen <= 1 && d->refuse) {
            rv = !OK;               /* start-up with a bad file fails */
        }
    }
    for (hi = apr_hash_first(ptemp, reg); hi; hi = apr_hash_next(hi)) {
        holder_t *h = apr_hash_this_val(hi);

        if (h->loaded_in > 0) {
            /* (LogLevel profile:info shows it.) */
            ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                         "ProfileData %s: loaded in %.3f s, %s%s",
                         (const char *)apr_hash_this_key(hi),
                         h->loaded_in / 1e6, h->store->compressed
                         ? "with gzip and br forms"
                         : "no compressed forms (ProfileCompression Off)",
                         h->validated_in > 0
                         ? apr_psprintf(ptemp, " (and validated in %.3f s "
                                        "at the first reading)",
                                        h->validated_in / 1e6) : "");
            h->loaded_in = 0;
            h->validated_in = 0;
        }
        else if (h->kept) {
            char at[APR_CTIME_LEN];

            apr_ctime(at, h->loaded_at);
            ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                         "ProfileData %s: unchanged, kept the data loaded "
                         "%s (compared in %.3f s)",
                         (const char *)apr_hash_this_key(hi), at,
                         h->checked_in / 1e6);
        }
        h->kept = 0;
        /* The data of files no section uses any more. */
        if (h->pool != NULL && h->generation != gen) {
            apr_pool_destroy(h->pool);
            h->pool = NULL;
            h->store = NULL;
            h->stale_since = 0;
        }
    }
    return rv;
}

/* Read-only, for the status pages (mod_profile_status.c): what the
 * registry holds of the data file `path`.  loaded_in is 0 once
 * profile_reload_post_config has logged it.  Returns 0 when no good
 * load of the file is held. */
int profile_reload_times(profile_load_times_t *out, const char *path,
                         server_rec *s)
{
    void *reg = NULL;
    const holder_t *h;

    apr_pool_userdata_get(&reg, REGISTRY_KEY, s->process->pool);
    h = reg ? apr_hash_get(reg, path, APR_HASH_KEY_STRING) : NULL;
    if (h == NULL || h->store == NULL) {
        return 0;
    }
    out->loaded_at = h->loaded_at;
    out->loaded_in = h->loaded_in;
    out->stale_since = h->stale_since;
    return 1;
}
