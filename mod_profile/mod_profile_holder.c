/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_holder.c -- the one record per data file that outlives a
 * configuration generation (CONTRACT §9, §10): in the process pool, the
 * pool of the last good load and its store, a copy of the bytes of the
 * file it was loaded from, the build that made it, when and how fast it
 * was loaded, and since when its file has failed to load.  Loading
 * (mod_profile_reload.c) writes it in the parent; the status
 * (mod_profile_status.c) reads it.
 *
 * This .so is unloaded at every restart and a graceful may bring
 * another build (a package upgrade), whose profile_store_t may have
 * another shape.  So a holder points nowhere into the .so, and what it
 * keeps comes in two parts (mod_profile.h): `kept`, whose shape every
 * build reads the same way (magic, version, the pool, the build and
 * store layout that made it, the last good file's bytes, their times),
 * and the rest, which only the build that made it reads.  A build that
 * finds another build's holder makes one of its own that keeps `kept`
 * and frees the other: the new build never reads the old one's store,
 * and loads the kept bytes instead when the file is bad (as mod_md
 * versions what it keeps and refuses a store it cannot read).  Each
 * holder lives in a pool of its own, freed once a generation no longer
 * names its file.
 *
 * Which build runs, and whether a file still holds the very bytes its
 * loaded store was made from, so that a restart may keep the store
 * rather than parse, render and compress it all again: the bytes are
 * compared by their size and MD5, never by the file's times (a same-size
 * edit whose modification time was reset by cp -p, rsync -t, tar or
 * touch -r must still be loaded).  MD5 is there to notice change, not to
 * resist an attacker: whoever can write the data file can publish
 * anything at the next restart anyway.
 */
#include <string.h>
#if !defined(WIN32)
#include <dlfcn.h>              /* dladdr */
#endif

#include "httpd.h"
#include "http_config.h"

#include <apr_file_io.h>
#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_data.h"

/* A holder with `kept` (PROFILE_KEPT_VERSION of it). */
#define HOLDER_MAGIC 0x50524b31u            /* "PRK1" */
/* A holder of the builds before `kept`: its magic, a 32-bit word and its
 * pool are all that may be read of it, and they keep no file bytes. */
#define HOLDER_MAGIC_UNVERSIONED 0x50524f46u /* "PROF" */
#if defined(PROFILE_TEST_UNVERSIONED)
/* Tests only: a build whose holders read, to every other build, as those
 * of the builds before `kept` (tests/integration/test_upgrade.py). */
#undef HOLDER_MAGIC
#define HOLDER_MAGIC HOLDER_MAGIC_UNVERSIONED
#endif
#define HOLDERS_KEY "mod_profile:holders"

/* The head every build of the module has given its holders. */
typedef struct {
    apr_uint32_t magic;
    apr_uint32_t word;
    apr_pool_t *pool;
} head_t;

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

static void drop(apr_hash_t *reg, const char *path, void *h)
{
    apr_hash_set(reg, path, APR_HASH_KEY_STRING, NULL);
    /* with the key, the holder, its store */
    apr_pool_destroy(((head_t *)h)->pool);
}

/* Whether `kept` may be read. */
static int readable(const profile_holder_t *h)
{
    return h->kept.magic == HOLDER_MAGIC
           && h->kept.version == PROFILE_KEPT_VERSION;
}

/* Whether this build made h (build NULL: of this layout, which post_config
 * has made sure of for every file of the running generation). */
static int ours(const profile_holder_t *h, const char *build)
{
    return readable(h) && h->kept.size == sizeof(*h)
           && h->kept.layout == PROFILE_STORE_LAYOUT
           && (build == NULL
               || (build[0] != '\0' && strcmp(h->kept.build, build) == 0));
}

/* Carries what `old`, another build's holder, kept into h.  The bytes
 * are copied: old goes with its pool. */
static void adopt(profile_holder_t *h, const profile_holder_t *old)
{
    char *bytes;

    if (!readable(old)) {
        h->lost = old->kept.magic == HOLDER_MAGIC
                  ? "it was kept by a newer build of mod_profile, in a "
                    "form this one cannot read"
                  : "it was kept by an earlier build of mod_profile, which "
                    "keeps no copy of the file's bytes";
        return;
    }
    if (old->kept.loaded_at == 0) {
        return;                     /* nothing was lost */
    }
    if (old->kept.bytes == NULL) {
        h->lost = "the build that loaded it kept no copy of the file's "
                  "bytes";
        return;
    }
    if (profile_pool_create_own(&h->store_pool, h->kept.pool)
        != APR_SUCCESS) {
        h->lost = "out of memory";
        return;
    }
    bytes = apr_palloc(h->store_pool, old->kept.len + 1);
    memcpy(bytes, old->kept.bytes, old->kept.len);
    bytes[old->kept.len] = '\0';
    h->kept.bytes = bytes;
    h->kept.len = old->kept.len;
    h->kept.mtime = old->kept.mtime;
    h->kept.loaded_at = old->kept.loaded_at;
    h->kept.loaded_in = old->kept.loaded_in;
    h->kept.stale_since = old->kept.stale_since;
}

profile_holder_t *profile_holder(server_rec *s, const char *path,
                                 const char *build, int make)
{
    apr_hash_t *reg = holders(s);
    profile_holder_t *h = apr_hash_get(reg, path, APR_HASH_KEY_STRING);
    profile_holder_t *old = NULL;
    apr_pool_t *p;

    if (h != NULL && !ours(h, make ? build : NULL)) {
        if (!make) {
            return NULL;            /* another build's, until it loads */
        }
        /* Its key is in its pool. */
        apr_hash_set(reg, path, APR_HASH_KEY_STRING, NULL);
        old = h;
        h = NULL;
    }
    if (h == NULL && make
        && profile_pool_create_own(&p, s->process->pool) == APR_SUCCESS) {
        h = apr_pcalloc(p, sizeof(*h));
        h->kept.magic = HOLDER_MAGIC;
        h->kept.version = PROFILE_KEPT_VERSION;
        h->kept.pool = p;
        h->kept.size = sizeof(*h);
        h->kept.layout = PROFILE_STORE_LAYOUT;
        apr_cpystrn(h->kept.build, build, sizeof(h->kept.build));
        if (old != NULL) {
            adopt(h, old);
        }
        apr_hash_set(reg, apr_pstrdup(p, path), APR_HASH_KEY_STRING, h);
    }
    if (old != NULL) {
        apr_pool_destroy(((head_t *)old)->pool);
    }
    return h;
}

void profile_holders_prune(server_rec *s, int gen)
{
    apr_hash_t *reg = holders(s);
    apr_hash_index_t *hi;

    for (hi = apr_hash_first(NULL, reg); hi; hi = apr_hash_next(hi)) {
        profile_holder_t *h = apr_hash_this_val(hi);

        if (!readable(h) || h->kept.generation != gen) {
            drop(reg, apr_hash_this_key(hi), h);
        }
    }
}

void profile_holders_reap(server_rec *s)
{
    apr_hash_index_t *hi;

    for (hi = apr_hash_first(NULL, holders(s)); hi; hi = apr_hash_next(hi)) {
        profile_holder_t *h = apr_hash_this_val(hi);

        if (ours(h, NULL) && h->old_map_pool != NULL) {
            apr_pool_destroy(h->old_map_pool);
            h->old_map_pool = NULL;
        }
    }
}

/* Which build of this module runs: the device, inode, size and time of
 * its .so ("" where that cannot be known).  httpd loads the .so afresh at
 * every restart, and an upgrade may have replaced it: a store that
 * another build rendered may differ in its bytes or its layout, so it
 * is never kept as unchanged data. */
void profile_module_build(char *out, apr_size_t len, apr_pool_t *ptemp)
{
#if !defined(WIN32)
    Dl_info info;
    apr_finfo_t fi;

    if (dladdr((void *)&profile_module, &info) != 0
        && info.dli_fname != NULL
        && apr_stat(&fi, info.dli_fname, APR_FINFO_DEV | APR_FINFO_INODE
                    | APR_FINFO_SIZE | APR_FINFO_MTIME | APR_FINFO_CTIME,
                    ptemp) == APR_SUCCESS) {
        apr_snprintf(out, len, "%s %lu:%lu:%" APR_OFF_T_FMT ":%"
                     APR_TIME_T_FMT ":%" APR_TIME_T_FMT, info.dli_fname,
                     (unsigned long)fi.device, (unsigned long)fi.inode,
                     fi.size, fi.mtime, fi.ctime);
        return;
    }
#endif
    (void)ptemp;
    out[0] = '\0';
}
