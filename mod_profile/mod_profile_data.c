/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_data.c -- the ProfileData line (CONTRACT §1, §9): its
 * options, the data file it names, or, with a '*' in the file's name,
 * the many files of a directory it publishes below one <Location>
 * (README "Behaviour decisions").  Each file named becomes one
 * profile_data_t of the generation, with a profile_use_t per line.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"

#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_args.h"
#include "profile_schema.h"

/* Whether the section holding directive `d` says SetHandler
 * profile-page itself. */
static int beside_page_handler(const ap_directive_t *d, apr_pool_t *p)
{
    for (d = d->parent ? d->parent->first_child : NULL; d; d = d->next) {
        if (strcasecmp(d->directive, "SetHandler") == 0) {
            const char *args = d->args;
            const char *h = ap_getword_conf(p, &args);

            if (strcasecmp(h, PROFILE_PAGE_HANDLER) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

static void add_use(profile_mod_conf_t *mc, const char *path,
                    profile_use_t *use, apr_pool_t *p);
static const char *set_many(cmd_parms *cmd, profile_dir_conf_t *conf,
                            const char *pattern, const profile_use_t *proto);

#define DATA_USAGE "ProfileData PATH [bad=keep|refuse] [compress=on|off] " \
                   "[url=URL] [assets=URL]"

/* ProfileData PATH [bad=keep|refuse] [compress=on|off] [url=URL]
 * [assets=URL] */
const char *profile_set_data(cmd_parms *cmd, void *dconf, int argc,
                             char *const argv[])
{
    profile_dir_conf_t *conf = dconf;
    profile_mod_conf_t *mc = profile_mod_conf(cmd->pool);
    const char *path, *err;
    profile_use_t *use;
    int i;

    if (argc < 1 || argc > 5) {
        return DATA_USAGE;
    }
    if ((path = ap_server_root_relative(cmd->pool, argv[0])) == NULL) {
        return apr_psprintf(cmd->pool, "ProfileData: invalid path '%s'",
                            argv[0]);
    }
    use = apr_pcalloc(cmd->pool, sizeof(*use));
    use->refuse = use->compress = -1;
    for (i = 1; i < argc; i++) {
        int rv, url = strncasecmp(argv[i], "url=", 4) == 0;

        if (url || strncasecmp(argv[i], "assets=", 7) == 0) {
            err = profile_args_page_option(url ? &use->url : &use->assets,
                                           url ? "url" : "assets",
                                           argv[i] + (url ? 4 : 7),
                                           cmd->pool);
            if (err != NULL) {
                return err;
            }
            continue;
        }
        rv = profile_args_data_option(&use->refuse, &use->compress,
                                      argv[i]);
        if (rv == -1) {
            return apr_psprintf(cmd->pool, "ProfileData: '%s': expected "
                                DATA_USAGE ", each option once", argv[i]);
        }
        if (rv == -2) {
            return apr_psprintf(cmd->pool, "ProfileData: '%s': expected "
                                "bad=keep, bad=refuse, compress=on or "
                                "compress=off", argv[i]);
        }
    }
    use->page = use->url != NULL || use->assets != NULL
                || beside_page_handler(cmd->directive, cmd->pool);
    use->s = cmd->server;
    use->file = cmd->directive->filename;
    use->line = cmd->directive->line_num;
    use->section = profile_conf_section_of(cmd->directive, cmd->pool);
    use->base = profile_conf_location_of(cmd->directive, cmd->pool);
    use->conf = conf;
    if (strchr(path, '*') != NULL) {
        return set_many(cmd, conf, path, use);
    }
    add_use(mc, path, use, cmd->pool);
    conf->use = use;
    return NULL;
}

/* Line u names the file at `path`. */
static void add_use(profile_mod_conf_t *mc, const char *path,
                    profile_use_t *use, apr_pool_t *p)
{
    profile_data_t *d = apr_hash_get(mc->files, path, APR_HASH_KEY_STRING);

    if (d == NULL) {
        d = apr_pcalloc(p, sizeof(*d));
        d->path = path;
        d->uses = apr_array_make(p, 2, sizeof(profile_use_t *));
        d->pages = apr_array_make(p, 1, sizeof(profile_page_where_t));
        apr_hash_set(mc->files, path, APR_HASH_KEY_STRING, d);
    }
    use->data = d;
    APR_ARRAY_PUSH(d->uses, profile_use_t *) = use;
}

/* ProfileData DIR/PREFIX*SUFFIX (the only wildcard; '?' and '[' are
 * themselves): each regular file of DIR whose name is
 * PREFIX, NAME, SUFFIX, NAME an id (CONTRACT §9's pattern), is a data
 * file published at the <Location>'s path /NAME, as if a line of its
 * own stood in <Location PATH/NAME> (one section for many profiles: the
 * per-request section walk does not grow with them).  The directory is
 * read with the configuration: a file added or removed counts from the
 * next reading (configtest, graceful). */
static const char *set_many(cmd_parms *cmd, profile_dir_conf_t *conf,
                            const char *pattern, const profile_use_t *proto)
{
    profile_mod_conf_t *mc = profile_mod_conf(cmd->pool);
    const char *name = strrchr(pattern, '/') + 1, *star = strchr(name, '*');
    const char *dir = apr_pstrmemdup(cmd->pool, pattern, name - pattern);
    apr_size_t pre, post;
    profile_many_t *many;
    apr_dir_t *dh;
    apr_finfo_t fi;
    apr_status_t rv;
    char ebuf[256];

    if (star == NULL || strchr(star + 1, '*') != NULL) {
        return "ProfileData: a pattern has one '*', in the file's name "
               "(ProfileData /srv/profiles/*.json)";
    }
    pre = (apr_size_t)(star - name);
    post = strlen(star + 1);
    if (proto->base == NULL) {
        return "ProfileData: a pattern ('*') stands in a <Location PATH> "
               "section (its files are published at PATH/NAME)";
    }
    if ((rv = apr_dir_open(&dh, dir, cmd->temp_pool)) != APR_SUCCESS) {
        return apr_psprintf(cmd->pool, "ProfileData: cannot read the "
                            "directory %s: %s", dir,
                            apr_strerror(rv, ebuf, sizeof(ebuf)));
    }
    many = apr_pcalloc(cmd->pool, sizeof(*many));
    many->base = proto->base;
    many->by_name = apr_hash_make(cmd->pool);
    while (apr_dir_read(&fi, APR_FINFO_NAME, dh) == APR_SUCCESS) {
        apr_size_t n = strlen(fi.name);
        const char *path, *id;
        profile_use_t *u;
        apr_finfo_t st;

        if (n <= pre + post || strncmp(fi.name, name, pre) != 0
            || strcmp(fi.name + n - post, star + 1) != 0) {
            continue;
        }
        id = apr_pstrmemdup(cmd->pool, fi.name + pre, n - pre - post);
        path = apr_pstrcat(cmd->pool, dir, fi.name, NULL);
        /* Only regular files (through links), as CONTRACT §9 reads. */
        if (!profile_schema_pattern(id, PROFILE_K_ID)
            || apr_stat(&st, path, APR_FINFO_TYPE, cmd->temp_pool)
               != APR_SUCCESS || st.filetype != APR_REG) {
            continue;
        }
        u = apr_pmemdup(cmd->pool, proto, sizeof(*u));
        u->name = id;
        u->base = apr_pstrcat(cmd->pool, proto->base, "/", id, NULL);
        if (proto->url != NULL) {
            u->url = apr_pstrcat(cmd->pool, proto->url, id, "/", NULL);
        }
        add_use(mc, path, u, cmd->pool);
        apr_hash_set(many->by_name, id, APR_HASH_KEY_STRING, u);
    }
    apr_dir_close(dh);
    conf->many = many;
    return NULL;
}
