/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_holder.c -- the one record per data file that outlives a
 * configuration generation (CONTRACT §9, §10): in the process pool, the
 * pool of the last good load and its store, the build that made it,
 * when and how fast it was loaded, and since when its file has failed
 * to load.  Loading (mod_profile_reload.c) writes it in the parent;
 * the status (mod_profile_status.c) reads it.
 *
 * This .so is unloaded at every restart and a graceful may bring
 * another build: a holder points nowhere into the .so, and its first
 * fields (magic, size, its pool) mean the same in every build, so that a
 * holder another build made is recognised and freed, not misread.  Each
 * holder lives in a pool of its own, freed once a generation no longer
 * names its file.
 */
#include "httpd.h"
#include "http_config.h"

#include <apr_strings.h>

#include "mod_profile.h"

#define HOLDER_MAGIC 0x50524f46u    /* "PROF" */
#define HOLDERS_KEY "mod_profile:holders"

/* path -> profile_holder_t, in the process pool. */
static apr_hash_t *holders(server_rec *s)
{
    apr_pool_t *ppool = s->process->pool;
    void *reg = NULL;

    apr_pool_userdata_get(&reg, HOLDERS_KEY, ppool);
    if (reg == NULL) {
        reg = apr_hash_make(ppool);
        apr_pool_userdata_set(reg, HOLDERS_KEY, NULL, ppool);
    }
    return reg;
}

static void drop(apr_hash_t *reg, const char *path, profile_holder_t *h)
{
    apr_hash_set(reg, path, APR_HASH_KEY_STRING, NULL);
    apr_pool_destroy(h->pool);      /* with the key, the holder, its store */
}

profile_holder_t *profile_holder(server_rec *s, const char *path, int make)
{
    apr_hash_t *reg = holders(s);
    profile_holder_t *h = apr_hash_get(reg, path, APR_HASH_KEY_STRING);
    apr_pool_t *p;

    if (h != NULL && (h->magic != HOLDER_MAGIC || h->size != sizeof(*h))) {
        if (!make) {
            return NULL;            /* another build's, until it loads */
        }
        drop(reg, path, h);
        h = NULL;
    }
    if (h == NULL && make
        && profile_pool_create_own(&p, s->process->pool) == APR_SUCCESS) {
        h = apr_pcalloc(p, sizeof(*h));
        h->magic = HOLDER_MAGIC;
        h->size = sizeof(*h);
        h->pool = p;
        apr_hash_set(reg, apr_pstrdup(p, path), APR_HASH_KEY_STRING, h);
    }
    return h;
}

void profile_holders_prune(server_rec *s, int gen)
{
    apr_hash_t *reg = holders(s);
    apr_hash_index_t *hi;

    for (hi = apr_hash_first(NULL, reg); hi; hi = apr_hash_next(hi)) {
        profile_holder_t *h = apr_hash_this_val(hi);

        if (h->magic != HOLDER_MAGIC || h->size != sizeof(*h)
            || h->generation != gen) {
            drop(reg, apr_hash_this_key(hi), h);
        }
    }
}
