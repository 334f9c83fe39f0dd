/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_apis.c -- where each data file is served, and with which
 * settings (CONTRACT §1): the API base of every ProfileData, the servers
 * that serve it there, and the value of every directive at that base as
 * httpd's per-directory merge gives it, computed once from what httpd
 * parsed.  From those effective values follow the load-time choices of
 * each file: refused when bad if any of its APIs says ProfileBadData
 * refuse; gzip and br forms rendered if any says ProfileCompression On.
 * Loading, the status and DUMP_PROFILES all read what is decided here.
 *
 * The merge is ap_location_walk()'s for a URL below the base: the
 * server's defaults (a virtual host's hold the main server's), then, in
 * configuration order, each <Location> whose path is the base or a
 * path-segment prefix of it (a virtual host's list holds the main
 * server's sections first).  Left out are the sections that apply to
 * some URLs below a base and not to others, since they cannot decide
 * what a file is: <LocationMatch>, wildcard <Location>, and <If>.  A
 * ProfileData standing in one of those (or in a <Directory>) is merged
 * as the request it serves would see it: a <Directory> before the
 * <Location> sections, any other after them.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "ap_listen.h"

#include <apr_strings.h>

#include "mod_profile.h"

/* Gives ProfileData in section `sect`, and in the <If> sections within
 * it, the API base `base`. */
static void set_bases(ap_conf_vector_t *sect, const char *base)
{
    profile_dir_conf *conf = ap_get_module_config(sect, &profile_module);
    core_dir_config *core = ap_get_core_module_config(sect);
    int i;

    if (conf != NULL && conf->data != NULL) {
        conf->data_base = base;
    }
    for (i = 0; core->sec_if != NULL && i < core->sec_if->nelts; i++) {
        set_bases(APR_ARRAY_IDX(core->sec_if, i, ap_conf_vector_t *), base);
    }
}

/* The path of a <Location> section that applies to every URL below it
 * (NULL: a <LocationMatch> or a wildcard path). */
static const char *prefix_path(ap_conf_vector_t *sect, apr_pool_t *p)
{
    core_dir_config *core = ap_get_core_module_config(sect);

    return core->r == NULL && !core->d_is_fnmatch && core->d != NULL
           ? profile_base_of(core->d, p) : NULL;
}

/* The section of `list`, or an <If> within one, whose configuration of
 * this module is `conf`. */
static ap_conf_vector_t *section_of(apr_array_header_t *list,
                                    const profile_dir_conf *conf)
{
    ap_conf_vector_t *found = NULL;
    int i;

    for (i = 0; list != NULL && found == NULL && i < list->nelts; i++) {
        ap_conf_vector_t *sect = APR_ARRAY_IDX(list, i, ap_conf_vector_t *);

        found = ap_get_module_config(sect, &profile_module) == conf ? sect
                : section_of(((core_dir_config *)
                              ap_get_core_module_config(sect))->sec_if, conf);
    }
    return found;
}

/* What a request below `base` on server `s` is configured with (in p),
 * with the section of ProfileData line `u` merged where the walk does
 * not reach it. */
static const profile_dir_conf *effective(server_rec *s, const char *base,
                                         const profile_use_t *u,
                                         apr_pool_t *p)
{
    core_server_config *sconf = ap_get_core_module_config(s->module_config);
    ap_conf_vector_t *v = s->lookup_defaults, *dir = NULL, *sect;
    int walked = 0, i;

    if (u->section != NULL) {
        dir = section_of(sconf->sec_dir, u->conf);
    }
    if (dir != NULL) {
        v = ap_merge_per_dir_configs(p, v, dir);
    }
    for (i = 0; base != NULL && i < sconf->sec_url->nelts; i++) {
        const char *path;

        sect = APR_ARRAY_IDX(sconf->sec_url, i, ap_conf_vector_t *);
        path = prefix_path(sect, p);
        if (path != NULL && profile_below(base, path) != NULL) {
            v = ap_merge_per_dir_configs(p, v, sect);
            walked |= ap_get_module_config(sect, &profile_module) == u->conf;
        }
    }
    if (u->section != NULL && dir == NULL && !walked
        && (sect = section_of(sconf->sec_url, u->conf)) != NULL) {
        v = ap_merge_per_dir_configs(p, v, sect);
    }
    return ap_get_module_config(v, &profile_module);
}

static int same_settings(const profile_dir_conf *a, const profile_dir_conf *b)
{
    return a->max_age == b->max_age && a->compress == b->compress
           && a->refuse == b->refuse && a->origins == b->origins;
}

/* Server `s` serves ProfileData line `u` at `base` with settings `eff`:
 * into the API of u with those settings. */
static void add_api(const profile_use_t *u, const char *base, server_rec *s,
                    const profile_dir_conf *eff, apr_pool_t *pconf)
{
    apr_array_header_t *apis = u->data->apis;
    profile_api_t *api = NULL;
    profile_dir_conf *copy;
    int i;

    for (i = 0; api == NULL && i < apis->nelts; i++) {
        api = APR_ARRAY_IDX(apis, i, profile_api_t *);
        api = api->use == u && same_settings(api->eff, eff) ? api : NULL;
    }
    if (api == NULL) {
        api = apr_pcalloc(pconf, sizeof(*api));
        api->use = u;
        api->base = base;
        api->servers = apr_array_make(pconf, 2, sizeof(server_rec *));
        api->eff = copy = apr_pmemdup(pconf, eff, sizeof(*eff));
        APR_ARRAY_PUSH(apis, profile_api_t *) = api;
    }
    APR_ARRAY_PUSH(api->servers, server_rec *) = s;
}

/* Whether a connection can reach the main server: httpd gives it the
 * virtual hosts of its local address and port (or of "*" and
 * "_default_"), and the main server only where none has them. */
static int main_reachable(server_rec *main_s)
{
    ap_listen_rec *l;
    server_rec *s;
    server_addr_rec *a;
    int covered = 1;

    for (l = ap_listeners; l != NULL && covered; l = l->next) {
        covered = 0;
        for (s = main_s->next; s != NULL && !covered; s = s->next) {
            for (a = s->addrs; a != NULL && !covered; a = a->next) {
                covered = (a->host_port == 0
                           || a->host_port == l->bind_addr->port)
                          && (apr_sockaddr_is_wildcard(a->host_addr)
                              || apr_sockaddr_equal(a->host_addr,
                                                    l->bind_addr));
            }
        }
    }
    return !covered || main_s->next == NULL;
}

/* The APIs of data file d, and what they decide for its loading, on
 * `servers` from the index `from` (in configuration order; index 0, the
 * main server, where a connection can reach it). */
static void file_apis(profile_data_t *d, apr_array_header_t *servers,
                      int from, apr_pool_t *pconf, apr_pool_t *ptemp)
{
    int i, j;

    for (i = 0; i < d->uses->nelts; i++) {
        const profile_use_t *u = APR_ARRAY_IDX(d->uses, i, profile_use_t *);
        const char *base = profile_api_base(u->conf);

        for (j = from; j < servers->nelts; j++) {
            server_rec *s = APR_ARRAY_IDX(servers, j, server_rec *);
            const profile_dir_conf *eff;
            const char *at;

            /* A virtual host's sections are in its own lists only. */
            if (u->s->is_virtual && s != u->s) {
                continue;
            }
            eff = effective(s, base, u, ptemp);
            at = profile_api_base(eff);
            if (eff->use == u && (at == base || (at != NULL && base != NULL
                                                 && strcmp(at, base) == 0))) {
                add_api(u, base, s, eff, pconf);
            }
        }
    }
    for (j = 0; j < d->apis->nelts; j++) {
        const profile_dir_conf *eff =
            APR_ARRAY_IDX(d->apis, j, profile_api_t *)->eff;

        d->compress |= eff->compress != 0;
        if (eff->refuse == 1 && d->refuse_at == NULL) {
            d->refuse_at = eff->refuse_at;
        }
    }
}

void profile_apis_make(server_rec *main_s, apr_pool_t *pconf,
                       apr_pool_t *ptemp)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    apr_array_header_t *servers = apr_array_make(ptemp, 8,
                                                 sizeof(server_rec *));
    apr_hash_index_t *hi;
    server_rec *s;
    int i, j;

    if (mc == NULL) {
        return;
    }
    /* The API base of ProfileData is the path of the <Location> it
     * stands in, as httpd parsed it; elsewhere ProfileBasePath says it.
     * (httpd lists the virtual hosts last first.) */
    for (s = main_s; s != NULL; s = s->next) {
        core_server_config *sconf =
            ap_get_core_module_config(s->module_config);

        for (i = 0; i < sconf->sec_url->nelts; i++) {
            ap_conf_vector_t *sect = APR_ARRAY_IDX(sconf->sec_url, i,
                                                   ap_conf_vector_t *);
            const char *path = prefix_path(sect, pconf);

            if (path != NULL) {
                set_bases(sect, path);
            }
        }
        APR_ARRAY_PUSH(servers, server_rec *) = s;
    }
    /* The virtual hosts in configuration order. */
    for (i = 1, j = servers->nelts - 1; i < j; i++, j--) {
        s = APR_ARRAY_IDX(servers, i, server_rec *);
        APR_ARRAY_IDX(servers, i, server_rec *) =
            APR_ARRAY_IDX(servers, j, server_rec *);
        APR_ARRAY_IDX(servers, j, server_rec *) = s;
    }
    i = main_reachable(main_s) ? 0 : 1;
    for (hi = apr_hash_first(ptemp, mc->files); hi; hi = apr_hash_next(hi)) {
        file_apis(apr_hash_this_val(hi), servers, i, pconf, ptemp);
    }
}
