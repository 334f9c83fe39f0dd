/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff.c -- `profilectl diff OLD NEW`: which representations a reload
 * from OLD to NEW changes, that is what clients and caches will fetch
 * again.  A representation is a route (each id of a collection served
 * alone included) in a language and a content coding; each is asked of
 * both files with pc_answer() (the module's own answer), and compared by
 * ETag.  One line each, in route, language and coding order:
 *
 *     changed ROUTE LANG CODING OLD-ETAG NEW-ETAG
 *     added   ROUTE LANG CODING - NEW-ETAG
 *     removed ROUTE LANG CODING OLD-ETAG -
 *
 * Filtered answers (?q=...) are not listed: they change when the
 * elements they hold do.
 */
#include <stdio.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>

#include "profilectl.h"
#include "profile_enc.h"
#include "profile_schema.h"

#define BASE "/api/v1"

/* The routes of either store, in the order of CONTRACT §2 (ids in the
 * old file's order, then the new file's new ones). */
static apr_array_header_t *routes(const profile_store_t *a,
                                  const profile_store_t *b, apr_pool_t *p)
{
    static const struct {
        const char *route;
        int coll;               /* its elements' routes follow; -1: none */
    } table[] = {
        {"/profile", -1}, {"/skills", -1},
        {"/experience", PROFILE_COLL_EXPERIENCE}, {"/education", -1},
        {"/contact", -1}, {"/case-studies", PROFILE_COLL_CASE_STUDIES},
        {"/metrics", -1}
    };
    apr_array_header_t *out = apr_array_make(p, 32, sizeof(char *));
    size_t t;

    for (t = 0; t < sizeof(table) / sizeof(table[0]); t++) {
        apr_hash_t *seen = apr_hash_make(p);
        const profile_store_t *st[2] = {a, b};
        int s, i;

        APR_ARRAY_PUSH(out, const char *) = table[t].route;
        for (s = 0; table[t].coll >= 0 && s < 2; s++) {
            const profile_coll_t *c = &st[s]->coll[table[t].coll];

            for (i = 0; i < c->nitems; i++) {
                if (apr_hash_get(seen, c->items[i].id, APR_HASH_KEY_STRING)) {
                    continue;
                }
                apr_hash_set(seen, c->items[i].id, APR_HASH_KEY_STRING, "");
                /* Ids are path segments: as httpd decodes them. */
                APR_ARRAY_PUSH(out, const char *) =
                    apr_pstrcat(p, table[t].route, "/", c->items[i].id,
                                NULL);
            }
        }
    }
    return out;
}

/* The languages of either store, the old file's order first. */
static apr_array_header_t *languages(const profile_store_t *a,
                                     const profile_store_t *b, apr_pool_t *p)
{
    apr_array_header_t *out = apr_array_make(p, 4, sizeof(char *));
    const profile_store_t *st[2] = {a, b};
    int s, l, k;

    for (s = 0; s < 2; s++) {
        for (l = 0; l < st[s]->nlangs; l++) {
            for (k = 0; k < out->nelts
                 && strcmp(APR_ARRAY_IDX(out, k, const char *),
                           st[s]->langs[l]) != 0; k++) {
            }
            if (k == out->nelts) {
                APR_ARRAY_PUSH(out, const char *) = st[s]->langs[l];
            }
        }
    }
    return out;
}

/* The ETag of the representation, or NULL when the store has none: no
 * such record, or not that language (the module would answer in its
 * default language). */
static const char *etag_of(const profile_store_t *st, const char *route,
                           const char *lang, const char *coding,
                           apr_pool_t *p)
{
    profile_response_t resp;

    pc_answer(&resp, st, BASE, route, NULL, lang, coding, p);
    if (resp.status != 200 || strcmp(st->langs[resp.lang], lang) != 0) {
        return NULL;
    }
    return resp.etag;
}

int pc_cmd_diff(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg;
    const profile_store_t *a, *b;
    apr_array_header_t *rts, *langs;
    int optch, r, l, e, total = 0, changed = 0;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
    }
    if (rv != APR_EOF || argc - os->ind != 2) {
        return pc_fail("diff", "usage: %s diff OLD NEW", pc_progname);
    }
    if ((a = pc_load("diff", os->argv[os->ind], p)) == NULL
        || (b = pc_load("diff", os->argv[os->ind + 1], p)) == NULL) {
        return PC_EXIT_USAGE;
    }
    rts = routes(a, b, p);
    langs = languages(a, b, p);
    for (r = 0; r < rts->nelts; r++) {
        const char *route = APR_ARRAY_IDX(rts, r, const char *);

        for (l = 0; l < langs->nelts; l++) {
            const char *lang = APR_ARRAY_IDX(langs, l, const char *);

            for (e = 0; e < PROFILE_ENC_COUNT; e++) {
                const char *coding = profile_enc_names[e];
                const char *old = etag_of(a, route, lang, coding, p);
                const char *new = etag_of(b, route, lang, coding, p);

                if (old == NULL && new == NULL) {
                    continue;       /* a record and a language of
                                     * different files */
                }
                total++;
                if (old != NULL && new != NULL && strcmp(old, new) == 0) {
                    continue;
                }
                changed++;
                printf("%s %s %s %s %s %s\n", old == NULL ? "added"
                       : new == NULL ? "removed" : "changed", route, lang,
                       coding, old ? old : "-", new ? new : "-");
            }
        }
    }
    fprintf(stderr, "%s diff: %d of %d representations change\n",
            pc_progname, changed, total);
    apr_pool_destroy(p);
    return changed ? PC_EXIT_PROBLEMS : PC_EXIT_OK;
}
