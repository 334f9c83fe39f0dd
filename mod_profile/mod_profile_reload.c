/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_reload.c -- validating and loading the data files, and
 * what a start or restart says of them (CONTRACT §9).
 *
 * Every reading of the configuration that does not become the running
 * one (the first reading at start-up, configtest, the `httpd -k ...`
 * that signals a running server) validates each file in check_config; a
 * bad file whose line (or its server's default) says bad=refuse makes
 * that reading fail before the running server is touched.  The reading
 * the server runs with loads each file in post_config, where the error
 * logs are open, into its holder (mod_profile_holder.c).  When a
 * restart reaches the parent with a bad file (a raw signal, or a file
 * changed in between), the last good data is served and the error is
 * logged to the error log of the main server and of every virtual host
 * naming the file, at every restart for as long as the file stays bad.
 *
 * A restart that finds a file holding the very bytes of its last good
 * load keeps that load (PROFILE0006 "unchanged, kept"; logrotate restarts
 * the server every day); profile_same.c compares the bytes.
 */
#include <string.h>
/* Gives the memory the parser freed back: children fork without it. */
#if defined(__GLIBC__)
#include <malloc.h>
#define trim_heap() malloc_trim(0)
#else
#define trim_heap()
#endif

#include "httpd.h"
#include "http_config.h"
#include "http_log.h"
#include "http_main.h"
#include "http_core.h"

#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_args.h"
#include "profile_compiled.h"
#include "profile_data.h"
#include "profile_same.h"
#include "profile_validate.h"

APLOG_USE_MODULE(profile);

/* Where a file is named: "line N of F, line M of G". */
static const char *named_at(const profile_data_t *d, apr_pool_t *p)
{
    const char *s = "";
    int i;

    for (i = 0; i < d->uses->nelts; i++) {
        const profile_use_t *u = APR_ARRAY_IDX(d->uses, i, profile_use_t *);

        s = apr_psprintf(p, "%s%sline %d of %s", s, i ? ", " : "", u->line,
                         u->file);
    }
    return s;
}

/* A reading that will not run: validates, and on error says so on
 * stderr (no error log is open yet).  One problem is one line; several
 * are a line saying how many, then one line each (the first ten, then
 * "and N more": the store's message). */
static int validate(const profile_data_t *d, apr_off_t max_size,
                    const char *dir, const char *build, apr_pool_t *ptemp)
{
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *unused = NULL;
    profile_compiled_how_e how;
    const char *err = NULL, *what, *line, *why;
    int level = APLOG_STARTUP | (d->refuse_at ? APLOG_ERR : APLOG_WARNING);
    apr_pool_t *p;
    char *state;

    opts.compress = d->compress;
    opts.max_size = max_size;
    opts.problems = profile_problems_make(ptemp, PROFILE_PROBLEMS_SHOWN);
    /* (The estimate counts the pages: the load's verdict.) */
    opts.pages = (const profile_page_where_t *)d->pages->elts;
    opts.npages = d->pages->nelts;
    if (profile_pool_create_own(&p, ptemp) != APR_SUCCESS) {
        err = "out of memory";
    }
    else {
        /* A good file is compiled here, while the running server still
         * serves: the restart then maps it. */
        profile_compiled_load(&unused, &err, &how, &why, d->path, &opts,
                              dir, dir ? profile_compiled_key(build,
                                             d->compress, d->pages, ptemp)
                                       : "",
                              1, NULL, NULL, p);
    }
    if (err == NULL) {
        apr_pool_destroy(p);
        return OK;
    }
    what = opts.problems->total <= 1 ? err
           : apr_psprintf(ptemp, "%s: %" APR_SIZE_T_FMT " problems", d->path,
                          opts.problems->total);
    ap_log_error(APLOG_MARK, level, 0, NULL, PROFILE_LOGNO(0007)
                 "ProfileData: %s (ProfileData on %s); %s", what,
                 named_at(d, ptemp), d->refuse_at ? d->refuse_at
                 : "bad=keep: a running server keeps the last good data "
                   "of this file, a starting one answers 503 there");
    for (line = what == err ? NULL
                : apr_strtok(apr_pstrdup(ptemp, err), "\n", &state);
         line != NULL; line = apr_strtok(NULL, "\n", &state)) {
        ap_log_error(APLOG_MARK, level, 0, NULL, PROFILE_LOGNO(0007)
                     "%s%s", strncmp(line, "and ", 4) == 0
                     ? apr_pstrcat(ptemp, d->path, ": ", NULL) : "", line);
    }
    if (p != NULL) {
        apr_pool_destroy(p);
    }
    return d->refuse_at ? !OK : OK;
}

/* After a failed load, in a holder that another build handed on: loads
 * the bytes of the last good file it kept (layout-neutral, where its
 * store is not), as this build and `opts` load a file, to serve them as
 * the last good data; or says in h->lost why it cannot. */
static void load_kept(profile_data_t *d, profile_holder_t *h,
                      const profile_load_opts_t *opts, server_rec *s)
{
    profile_load_opts_t o = *opts;
    profile_store_t *store = NULL;
    const char *err = NULL;
    char at[APR_CTIME_LEN];

    o.problems = NULL;
    if (profile_store_parse_opts(&store, &err, h->kept.bytes, h->kept.len,
                                 d->path, h->kept.mtime, &o, h->store_pool)
        != APR_SUCCESS) {
        h->lost = apr_pstrcat(h->kept.pool, "this build refuses its bytes: ",
                              err, NULL);
        apr_pool_destroy(h->store_pool);
        h->store_pool = NULL;
        h->kept.bytes = NULL;
        h->kept.len = 0;
        h->kept.loaded_at = h->kept.loaded_in = h->kept.stale_since = 0;
        return;
    }
    h->store = store;
    apr_ctime(at, h->kept.loaded_at);
    ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, s, PROFILE_LOGNO(0011)
                 "ProfileData %s: the last good data, loaded %s, was kept "
                 "by another build of mod_profile; this build loaded the "
                 "copy of the file's bytes kept with it", d->path, at);
}

/* Serves `store`, which this restart loaded (how), in np (its own
 * pool; NULL: mapped, all of it in mapp, the compiled form `form`). */
static void serve(profile_data_t *d, profile_holder_t *h,
                  profile_store_t *store, const char *bytes, apr_size_t len,
                  profile_compiled_how_e how, int ahead, const char *why,
                  const profile_compiled_form_t *form, apr_pool_t *np,
                  apr_pool_t *mapp, apr_time_t t0, server_rec *s)
{
    /* The bytes too, those loaded, in the store's pool: what another
     * build loads should this file be bad after an upgrade. */
    h->kept.bytes = bytes;
    h->kept.len = len;
    if (h->store_pool != NULL) {
        apr_pool_destroy(h->store_pool);
    }
    /* The mapping it replaces goes once the new children run; one a
     * restart before that left is unmapped now. */
    if (h->old_map_pool != NULL) {
        apr_pool_destroy(h->old_map_pool);
    }
    h->old_map_pool = h->map_pool;
    h->map_pool = mapp;
    h->form = *form;
    /* (What a parse took goes back; mapping took next to nothing, and
     * trimming a large heap for each of 10,000 files would be the
     * restart's longest part: post_config trims once.) */
    if (mapp == NULL) {
        trim_heap();
    }
    h->store_pool = np;
    h->store = store;
    h->lost = NULL;
    h->kept.mtime = store->mtime;
    h->kept.loaded_at = apr_time_now();
    h->kept.loaded_in = h->kept.loaded_at - t0;
    h->kept.stale_since = 0;
    d->store = store;
    /* (LogLevel profile:info shows it.) */
    ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                 "ProfileData %s: loaded in %.3f s%s, %s%s%s", d->path,
                 h->kept.loaded_in / 1e6, ahead
                 ? " from its compiled form, mapped before the signal"
                 : how == PROFILE_COMPILED_MAPPED ? " from its compiled form"
                 : "", store->compressed ? "with gzip and br forms"
                 : "no compressed forms (compress=off)",
                 why ? "; compiled form: " : "", why ? why : "");
}

/* The reading the server runs with: serves what the parent mapped ahead
 * of the signal while it is still the compiled file and fresh, else
 * keeps the last good data where the file still holds its bytes, else
 * loads, or keeps the last good data after a failed load (d->error says
 * why). */
static void load(profile_data_t *d, profile_holder_t *h, const char *build,
                 apr_off_t max_size, const char *dir, const char *key,
                 server_rec *s, apr_pool_t *pconf, apr_pool_t *ptemp)
{
    profile_load_opts_t opts = {.render = 1};
    profile_store_t *store = NULL;
    profile_compiled_form_t form;
    profile_compiled_how_e how = PROFILE_COMPILED_LOADED;
    const char *err = NULL, *bytes = NULL, *why = NULL;
    apr_size_t len = 0;
    apr_pool_t *np = NULL, *mapp = NULL;
    apr_time_t t0 = apr_time_now(), mtime;
    char at[APR_CTIME_LEN];

    if (h->ahead.store != NULL && dir != NULL
        && profile_compiled_still(&h->ahead, dir, d->path, key, max_size,
                                  ptemp) == APR_SUCCESS) {
        form = h->ahead;
        mapp = h->ahead_pool;
        h->ahead.store = NULL;
        h->ahead_pool = NULL;
        serve(d, h, form.store, form.bytes, form.len,
              PROFILE_COMPILED_MAPPED, 1, NULL, &form, NULL, mapp, t0, s);
        return;
    }
    opts.compress = d->compress;
    opts.max_size = max_size;
    opts.problems = profile_problems_make(ptemp, 1);
    opts.pages = (const profile_page_where_t *)d->pages->elts;
    opts.npages = d->pages->nelts;
    opts.bytes = &bytes;
    opts.len = &len;
    /* (profile_holder() gave a holder of this build: h->store is this
     * build's or NULL.) */
    if (h->store != NULL
        && profile_same_file(h->store, h->kept.build, d->path, build,
                                  &opts, &mtime, ptemp)) {
        /* Last-Modified stays the file's modification time (CONTRACT
         * §5), which a touch moves; the bytes and ETags do not change.
         * The parent alone holds this store now: its children forked
         * with their own copies. */
        h->store->mtime = mtime;
        h->kept.mtime = mtime;
        h->kept.stale_since = 0;
        d->store = h->store;
        d->kept = 1;
        apr_ctime(at, h->kept.loaded_at);
        ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                     "ProfileData %s: unchanged, kept the data loaded %s "
                     "(compared in %.3f s)", d->path, at,
                     (apr_time_now() - t0) / 1e6);
        return;
    }
    if (profile_pool_create_own(&np, h->kept.pool) != APR_SUCCESS
        || apr_pool_create(&mapp, h->kept.pool) != APR_SUCCESS) {
        err = "out of memory";
    }
    /* (A file loaded here, after the signal, is not compiled: that
     * would lengthen the silence; the next reading before a signal
     * compiles it.) */
    else if (profile_compiled_load(&store, &err, &how, &why, d->path, &opts,
                                   dir, key, 0, &form, mapp, np)
             == APR_SUCCESS) {
        if (how == PROFILE_COMPILED_MAPPED) {
            apr_pool_destroy(np);   /* (all of it is in mapp) */
            np = NULL;
        }
        else {
            apr_pool_destroy(mapp);
            mapp = NULL;
        }
        serve(d, h, store, bytes, len, how, 0, why, &form, np, mapp, t0, s);
        return;
    }
    /* Said at every restart, one line: the first problem and how many
     * more (configtest lists them). */
    d->error = profile_data_problems_summary(opts.problems, err, d->path,
                                             pconf);
    if (how == PROFILE_COMPILED_JUDGED) {
        ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                     "ProfileData %s: the bytes the reading before the "
                     "signal found bad, not read again (checked in %.3f s)",
                     d->path, (apr_time_now() - t0) / 1e6);
    }
    if (np != NULL) {
        apr_pool_destroy(np);
    }
    if (mapp != NULL) {
        apr_pool_destroy(mapp);
    }
    if (h->store == NULL && h->kept.bytes != NULL) {
        load_kept(d, h, &opts, s);
    }
    /* What refusing took goes back to the system too (the children fork
     * from this parent). */
    trim_heap();
    if (h->store != NULL) {
        d->store = h->store;
        d->stale = 1;
        if (h->kept.stale_since == 0) {
            h->kept.stale_since = apr_time_now();
        }
    }
}

/* Non-zero in an `httpd -k stop` or `-k graceful-stop`, which reads the
 * configuration only for the pid file (CONTRACT §9: stop always works).
 * httpd tells no module, and its MPM takes "-k ..." out of argv; the
 * kernel's copy (Linux) still has it. */
static int stopping(apr_pool_t *ptemp)
{
    apr_file_t *f;
    char buf[4096];
    apr_size_t n = sizeof(buf) - 1;

    if (apr_file_open(&f, "/proc/self/cmdline", APR_FOPEN_READ,
                      APR_OS_DEFAULT, ptemp) != APR_SUCCESS) {
        return 0;
    }
    if (apr_file_read_full(f, buf, n, &n) != APR_SUCCESS && n == 0) {
        n = 0;
    }
    apr_file_close(f);
    buf[n] = '\0';
    return profile_args_stop(buf, n);
}

int profile_reload_check_config(apr_pool_t *pconf, apr_pool_t *plog,
                                apr_pool_t *ptemp, server_rec *s)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    apr_hash_index_t *hi;
    char build[PROFILE_BUILD_LEN];
    const char *dir;
    int rv = OK;

    (void)pconf;
    (void)plog;
    profile_conf_files(ptemp);
    if (mc == NULL
        || ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_CONFIG
        || stopping(ptemp)) {
        return OK;
    }
    profile_module_build(build, sizeof(build), ptemp);
    dir = profile_compiled_dir_of(build, s, ptemp);
    for (hi = apr_hash_first(ptemp, mc->files); hi; hi = apr_hash_next(hi)) {
        if (validate(apr_hash_this_val(hi), mc->max_data_size, dir, build,
                     ptemp) != OK) {
            rv = !OK;
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
                        : APR_ARRAY_IDX(d->uses, i, profile_use_t *)->s;
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

int profile_reload_post_config(apr_pool_t *pconf, apr_pool_t *plog,
                               apr_pool_t *ptemp, server_rec *s)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    int gen = ap_state_query(AP_SQ_CONFIG_GEN);
    apr_hash_index_t *hi;
    char build[PROFILE_BUILD_LEN];
    const char *dir;
    int rv = OK;

    (void)plog;
    if (ap_state_query(AP_SQ_MAIN_STATE) != AP_SQ_MS_CREATE_CONFIG) {
        return OK;
    }
    /* Which version runs, once per start and restart (as httpd's own
     * AH00163/AH00489 say its own), not in the Server header; and
     * jansson's, whose internals the memory bound's estimate follows
     * (profile_estimate.c): a library upgraded under the build shows. */
    ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, s, PROFILE_LOGNO(0008)
                 "mod_profile/%s loaded (configuration generation %d); "
                 "jansson %s (built with %s)", PROFILE_VERSION, gen,
                 jansson_version_str(), JANSSON_VERSION);
    profile_module_build(build, sizeof(build), ptemp);
    dir = mc ? profile_compiled_dir_of(build, s, ptemp) : NULL;
    if (mc != NULL) {
        mc->compiled_in = dir ? apr_pstrdup(pconf, dir) : NULL;
    }
    for (hi = mc ? apr_hash_first(ptemp, mc->files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        profile_data_t *d = apr_hash_this_val(hi);
        profile_holder_t *h = profile_holder(s, d->path, build, 1);
        const char *key = dir ? profile_compiled_key(build, d->compress,
                                                     d->pages, pconf)
                          : NULL;
        char since[APR_CTIME_LEN], at[APR_CTIME_LEN];

        d->compiled_key = key;
        if (h == NULL) {
            d->error = "out of memory";
        }
        else {
            h->kept.generation = gen;
            load(d, h, build, mc->max_data_size, dir, key, s, pconf, ptemp);
            /* What was mapped ahead and not used is of no use now. */
            if (h->ahead_pool != NULL) {
                apr_pool_destroy(h->ahead_pool);
                h->ahead_pool = NULL;
            }
            h->ahead.store = NULL;
        }
        if (d->store != NULL) {
            /* Formatted once, not at every answer (apply_conditions). */
            char *lm = apr_palloc(pconf, APR_RFC822_DATE_LEN);

            if (apr_rfc822_date(lm, d->store->mtime) == APR_SUCCESS) {
                d->last_modified = lm;
            }
        }
        if (d->error == NULL) {
            continue;
        }
        if (d->stale) {
            apr_ctime(since, h->kept.stale_since);
            apr_ctime(at, h->kept.loaded_at);
            log_everywhere(d, s, apr_psprintf(ptemp, PROFILE_LOGNO(0003)
                           "ProfileData: %s; still serving the last good "
                           "data, loaded %s (stale since %s)", d->error, at,
                           since), ptemp);
        }
        else {
            if (h != NULL && h->lost != NULL) {
                log_everywhere(d, s, apr_psprintf(ptemp, PROFILE_LOGNO(0012)
                               "ProfileData %s: the last good data of this "
                               "file was loaded by another build of "
                               "mod_profile and cannot be served by this "
                               "one: %s; answering 503 until the file loads",
                               d->path, h->lost), ptemp);
            }
            log_everywhere(d, s, apr_psprintf(ptemp, PROFILE_LOGNO(0005)
                           "ProfileData: %s; no good data of this file is "
                           "loaded, so its locations answer 503 until a "
                           "reload with a good file", d->error), ptemp);
        }
        if (gen <= 1 && d->refuse_at) {
            rv = !OK;               /* start-up with a bad file fails */
        }
    }
    /* The data of files no section names any more (compiled forms
     * nothing uses: the monitor, once the children run). */
    profile_holders_prune(s, gen);
    trim_heap();
    if (mc != NULL) {
        mc->running = 1;
    }
    return rv;
}
