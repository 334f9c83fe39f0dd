/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_compiled.c -- where compiled forms are kept, what they
 * depend on, and the parent's work on them between restarts (issue 35;
 * profile_compiled.h says what a compiled form is).
 *
 * httpd's graceful restart tells the children to stop accepting before
 * it reads the configuration again, so whatever post_config does is
 * time in which no site of the server answers.  The readings before the
 * signal (configtest, `httpd -k graceful`) compile each changed file;
 * the parent, between restarts, maps what they wrote and walks it into
 * a store (the monitor hook, run by every MPM's main loop about every
 * ten seconds while the children serve), so that the restart finds the
 * store made and only checks that its compiled file and data file are
 * still those it was made from.  Work per tick is bounded (TICK_BUDGET):
 * the parent also starts and reaps children.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_main.h"
#include "ap_mpm.h"
#include "scoreboard.h"


#include "mod_profile.h"
#include "profile_compiled.h"

APLOG_USE_MODULE(profile);

/* The parent's time for mapping ahead, in one monitor run. */
#define TICK_BUDGET apr_time_from_msec(250)

const char *profile_compiled_dir_of(const char *build, server_rec *s,
                                    apr_pool_t *p)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    const char *dir = mc->compiled_dir ? mc->compiled_dir
                      : ap_runtime_dir_relative(p, "mod_profile");
    const char *why;

    if (dir == NULL || dir[0] == '\0' || build[0] == '\0') {
        return NULL;
    }
    if ((why = profile_compiled_dir(dir, p)) != NULL) {
        if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_CONFIG) {
            ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s, PROFILE_LOGNO(0013)
                         "ProfileCompiledDir: %s; every data file is "
                         "loaded after the restart signal (slower "
                         "reloads)", why);
        }
        return NULL;
    }
    return dir;
}

/* What the monitor knows between its runs (the parent's; this .so is
 * loaded afresh at every restart, and so is this). */
static struct {
    apr_time_t dir_mtime;           /* the directory when a pass over
                                     * every file began and ended whole;
                                     * 0: none did */
    int pruned;                     /* this generation's pruning done */
} seen;

/* Maps ahead what configtest compiled since, as far as the tick's budget
 * goes.  A pass over every file is needed only when the directory
 * changed (a compiled file is only ever renamed into it) since a whole
 * pass began; its time settled a second before (the time a directory
 * keeps is coarse). */
static void map_ahead(profile_mod_conf_t *mc, server_rec *s, apr_pool_t *p)
{
    apr_time_t t0 = apr_time_now();
    apr_hash_index_t *hi;
    apr_finfo_t fi;
    apr_pool_t *tmp;
    int mapped = 0, whole = 1;

    if (apr_stat(&fi, mc->compiled_in, APR_FINFO_MTIME, p) != APR_SUCCESS
        || (fi.mtime == seen.dir_mtime
            && fi.mtime < t0 - apr_time_from_sec(1))
        || apr_pool_create(&tmp, p) != APR_SUCCESS) {
        return;
    }
    for (hi = apr_hash_first(p, mc->files); hi; hi = apr_hash_next(hi)) {
        profile_data_t *d = apr_hash_this_val(hi);
        profile_holder_t *h = profile_holder(s, d->path, NULL, 0);
        profile_compiled_form_t form;
        apr_pool_t *mp;

        if (apr_time_now() - t0 > TICK_BUDGET) {
            whole = 0;              /* (the next run goes on) */
            break;
        }
        if (h != NULL && d->compiled_key != NULL
            && profile_compiled_ahead(&form, &mp, mc->compiled_in, d->path,
                                      d->compiled_key, mc->max_data_size,
                                      h->ahead.store ? &h->ahead : &h->form,
                                      h->store, h->kept.pool, tmp)
               == APR_SUCCESS) {
            if (h->ahead_pool != NULL) {
                apr_pool_destroy(h->ahead_pool);
            }
            h->ahead_pool = mp;
            h->ahead = form;
            mapped++;
        }
        apr_pool_clear(tmp);
    }
    apr_pool_destroy(tmp);
    if (whole) {
        seen.dir_mtime = fi.mtime;
    }
    if (mapped > 0) {
        /* (LogLevel profile:info shows it.) */
        ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0015)
                     "%d compiled form%s mapped ahead of the next restart "
                     "in %.3f s%s", mapped, mapped == 1 ? "" : "s",
                     (apr_time_now() - t0) / 1e6,
                     whole ? "" : "; more in the next run");
    }
}

/* The compiled forms in use, by their file names. */
static apr_hash_t *in_use(profile_mod_conf_t *mc, apr_pool_t *p)
{
    apr_hash_t *keep = apr_hash_make(p);
    apr_hash_index_t *hi;

    for (hi = apr_hash_first(p, mc->files); hi; hi = apr_hash_next(hi)) {
        profile_data_t *d = apr_hash_this_val(hi);

        if (d->compiled_key != NULL) {
            apr_hash_set(keep, profile_compiled_name(mc->compiled_in,
                                                     d->path,
                                                     d->compiled_key, p),
                         APR_HASH_KEY_STRING, d);
        }
    }
    return keep;
}

/* Whether a child of the running generation has started.  After a
 * graceful restart the MPM's main loop may run the monitor before it
 * starts the new generation's children (it starts them as the old ones
 * exit, or at its next one-second tick): work done then would keep every
 * site silent longer. */
static int children_run(void)
{
    int limit = 0, gen = 0, i;

    if (ap_scoreboard_image == NULL
        || ap_mpm_query(AP_MPMQ_HARD_LIMIT_DAEMONS, &limit) != APR_SUCCESS
        || ap_mpm_query(AP_MPMQ_GENERATION, &gen) != APR_SUCCESS) {
        return 0;
    }
    for (i = 0; i < limit; i++) {
        const process_score *ps = ap_get_scoreboard_process(i);

        if (ps->pid != 0 && ps->generation == gen && !ps->quiescing) {
            return 1;
        }
    }
    return 0;
}

int profile_compiled_monitor(apr_pool_t *p, server_rec *s)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    apr_pool_t *tmp;

    if (!children_run()) {
        return DECLINED;            /* (the next run, about 10 s on) */
    }
    /* The children of this generation run: the mappings the restart
     * replaced are theirs alone now. */
    profile_holders_reap(s);
    if (mc == NULL || !mc->running || mc->compiled_in == NULL
        || apr_pool_create(&tmp, p) != APR_SUCCESS) {
        return DECLINED;
    }
    /* Compiled forms nothing uses, written an hour ago or earlier (a
     * configtest's for a configuration to come are younger). */
    if (!seen.pruned) {
        profile_compiled_prune(mc->compiled_in, in_use(mc, tmp),
                               apr_time_now() - apr_time_from_sec(3600),
                               tmp);
        seen.pruned = 1;
    }
    map_ahead(mc, s, tmp);
    apr_pool_destroy(tmp);
    return DECLINED;
}
