/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_settings.c -- what each directive resolves to, in one
 * place (as mod_md's md_config_get*): the typed getters with every
 * default (those every request reads are inline in mod_profile.h),
 * each ProfileData line's options from the line or its
 * server's default, and each file's load-time choices from its lines
 * (CONTRACT §1).  Where a directive is written is directive reading
 * (mod_profile_config.c).  Nothing here re-creates httpd's section walk
 * or virtual-host selection.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"

#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_args.h"

const char *profile_use_base(const profile_use_t *u)
{
    return u->name != NULL ? u->base : profile_conf_base(u->conf);
}

/* An option of line u (-1: not said) or its server's default. */
static int option(const profile_use_t *u, int said, int dflt, int srv,
                  const char *srv_at, const char *what, const char **at,
                  apr_pool_t *p)
{
    int v = said != -1 ? said : srv != -1 ? srv : dflt;

    if (at != NULL) {
        *at = said != -1 ? apr_psprintf(p, "%s on line %d of %s", what,
                                        u->line, u->file)
              : srv != -1 ? srv_at : "default";
    }
    return v;
}

int profile_conf_refuse(const profile_use_t *u, const char **at,
                        apr_pool_t *p)
{
    const profile_srv_conf_t *sc = ap_get_module_config(u->s->module_config,
                                                        &profile_module);

    return option(u, u->refuse, 0, sc->refuse, sc->refuse_at,
                  u->refuse == 1 ? "bad=refuse" : "bad=keep", at, p);
}

int profile_conf_compress(const profile_use_t *u, const char **at,
                          apr_pool_t *p)
{
    const profile_srv_conf_t *sc = ap_get_module_config(u->s->module_config,
                                                        &profile_module);

    return option(u, u->compress, 1, sc->compress, sc->compress_at,
                  u->compress == 1 ? "compress=on" : "compress=off", at, p);
}

static void add_page(profile_data_t *d, profile_use_t *u, apr_pool_t *p);

/* The public URL of the pages of line u: its url=, else the server's
 * scheme, name and port (ServerName) and the section's base. */
static const char *page_url(const profile_use_t *u, apr_pool_t *p)
{
    const server_rec *s = u->s;

    return u->url ? u->url : profile_args_page_base(
        s->server_scheme ? s->server_scheme : "http",
        s->server_hostname ? s->server_hostname : "localhost", s->port,
        profile_use_base(u), p);
}

/* The place line u publishes its file's pages at, once per place. */
static void add_page(profile_data_t *d, profile_use_t *u, apr_pool_t *p)
{
    int i;

    u->where.url = page_url(u, p);
    u->where.assets = u->assets ? u->assets : PROFILE_PAGE_ASSETS;
    for (i = 0; i < d->pages->nelts; i++) {
        const profile_page_where_t *w = &APR_ARRAY_IDX(d->pages, i,
                                                       profile_page_where_t);

        if (strcmp(w->url, u->where.url) == 0) {
            return;             /* the first line's assets= stands */
        }
    }
    APR_ARRAY_PUSH(d->pages, profile_page_where_t) = u->where;
}

void profile_conf_files(apr_pool_t *ptemp)
{
    profile_mod_conf_t *mc = profile_mod_conf(NULL);
    apr_hash_index_t *hi;
    const char *at;
    int i;

    for (hi = mc ? apr_hash_first(ptemp, mc->files) : NULL; hi;
         hi = apr_hash_next(hi)) {
        profile_data_t *d = apr_hash_this_val(hi);

        for (i = 0; i < d->uses->nelts; i++) {
            profile_use_t *u = APR_ARRAY_IDX(d->uses, i, profile_use_t *);

            u->compressed = profile_conf_compress(u, NULL, NULL);
            d->compress |= u->compressed;
            if (u->page) {
                add_page(d, u, mc->pool);
            }
            if (d->refuse_at == NULL
                && profile_conf_refuse(u, &at, mc->pool)) {
                d->refuse_at = at;
            }
        }
    }
}
