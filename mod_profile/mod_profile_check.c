/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_check.c -- what the configuration tree says about this
 * module's sections: the API base of the <Location> holding ProfileData,
 * and, while the configuration is checked, every `SetHandler profile`
 * that no ProfileData reaches (CONTRACT §1: "ProfileData is required
 * where the handler is set"), so that `apachectl configtest` says so
 * rather than every request answering 500.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_log.h"
#include "http_main.h"
#include "http_core.h"
#include "util_cfgtree.h"

#include <apr_fnmatch.h>
#include <apr_strings.h>

#include "mod_profile.h"

APLOG_USE_MODULE(profile);

/* The path of a plain <Location PATH> node, or NULL. */
static const char *plain_location(const ap_directive_t *n, apr_pool_t *p)
{
    char *args, *end;
    const char *word;

    if (strcasecmp(n->directive, "<Location") != 0 || n->args == NULL) {
        return NULL;
    }
    args = apr_pstrdup(p, n->args);
    end = strrchr(args, '>');
    if (end != NULL) {
        *end = '\0';
    }
    word = ap_getword_conf(p, (const char **)&args);
    /* "~ regex" and wildcard paths are not plain paths. */
    return word[0] == '\0' || word[0] == '~' || apr_fnmatch_test(word)
           ? NULL : word;
}

/* A copy of URL path `path` without trailing slashes ("/" gives ""). */
const char *profile_base_of(const char *path, apr_pool_t *p)
{
    apr_size_t n = strlen(path);

    while (n > 0 && path[n - 1] == '/') {
        n--;
    }
    return apr_pstrmemdup(p, path, n);
}

/* Non-zero for sections that do not change which URLs a directive
 * applies to: <If...>/<Else...> conditions, <IfModule>, <IfDefine>... */
static int transparent_section(const ap_directive_t *n)
{
    return strncasecmp(n->directive, "<If", 3) == 0
           || strncasecmp(n->directive, "<Else", 5) == 0;
}

/* The URL path of the plain <Location> (not a regex) that directive `n`
 * stands in, looking through transparent sections; NULL otherwise. */
static const char *enclosing_location(const ap_directive_t *n,
                                      apr_pool_t *p)
{
    const ap_directive_t *sect = n ? n->parent : NULL;

    while (sect != NULL && transparent_section(sect)) {
        sect = sect->parent;
    }
    return sect ? plain_location(sect, p) : NULL;
}

/* The API's base where ProfileData stands: its <Location>'s path. */
const char *profile_location_base(cmd_parms *cmd)
{
    const char *path = enclosing_location(cmd->directive, cmd->pool);

    return path ? profile_base_of(path, cmd->pool) : NULL;
}

/*
 * "ProfileData is required where the handler is set" (CONTRACT §1), checked
 * while the configuration is read so that `apachectl configtest` says so,
 * rather than every request answering 500.  httpd merges sections by URL
 * at request time, so this is conservative: a `SetHandler profile` inside
 * a plain <Location X> is refused only when no ProfileData stands in X, in
 * a <Location> above or below X, at server or virtual-host level, or in
 * any other kind of section (whose reach cannot be judged here).
 */
typedef struct {
    const ap_directive_t *node;     /* the SetHandler directive */
    const char *loc;                /* the base of its <Location> */
} handler_t;

#define LOC_DATA 1                  /* the <Location> has ProfileData */
#define LOC_BASE 2                  /* ... or ProfileBasePath */

typedef struct {
    apr_array_header_t *handlers;   /* handler_t */
    apr_hash_t *locs;               /* base of a <Location> -> LOC_ bits */
    int data_elsewhere;             /* data outside plain <Location>s */
} tree_scan_t;

static void mark(tree_scan_t *scan, const char *loc, int bit)
{
    int *bits = apr_hash_get(scan->locs, loc, APR_HASH_KEY_STRING);

    if (bits == NULL) {
        bits = apr_pcalloc(apr_hash_pool_get(scan->locs), sizeof(*bits));
        apr_hash_set(scan->locs, loc, APR_HASH_KEY_STRING, bits);
    }
    *bits |= bit;
}

static int marks(tree_scan_t *scan, const char *loc)
{
    int *bits = apr_hash_get(scan->locs, loc, APR_HASH_KEY_STRING);

    return bits ? *bits : 0;
}

/* Walks the tree below `n`; `loc` is the base of the enclosing plain
 * <Location>, `other` is set inside any other kind of section. */
static void scan_tree(tree_scan_t *scan, const ap_directive_t *n,
                      const char *loc, int other, apr_pool_t *p)
{
    for (; n != NULL; n = n->next) {
        if (n->first_child != NULL) {
            const char *path = plain_location(n, p);

            if (path != NULL) {
                scan_tree(scan, n->first_child, profile_base_of(path, p), other, p);
            }
            else if (transparent_section(n)
                     || strcasecmp(n->directive, "<VirtualHost") == 0) {
                scan_tree(scan, n->first_child, loc, other, p);
            }
            else {
                scan_tree(scan, n->first_child, loc, 1, p);
            }
            continue;
        }
        if (strcasecmp(n->directive, "ProfileData") == 0) {
            if (loc != NULL && !other) {
                mark(scan, loc, LOC_DATA);
            }
            else {
                scan->data_elsewhere = 1;
            }
        }
        else if (strcasecmp(n->directive, "ProfileBasePath") == 0) {
            if (loc != NULL && !other) {
                mark(scan, loc, LOC_BASE);
            }
        }
        else if (strcasecmp(n->directive, "SetHandler") == 0
                 && loc != NULL && !other && n->args != NULL) {
            const char *args = n->args;
            const char *word = ap_getword_conf(p, &args);

            if (strcasecmp(word, PROFILE_HANDLER) == 0) {
                handler_t *h = apr_array_push(scan->handlers);
                h->node = n;
                h->loc = loc;
            }
        }
    }
}

/* What is wrong with handler `h`, or NULL. */
static const char *handler_problem(tree_scan_t *scan, const handler_t *h,
                                   apr_pool_t *p)
{
    apr_hash_index_t *hi;
    const char *above = NULL;

    if (scan->data_elsewhere || (marks(scan, h->loc) & LOC_DATA)) {
        return NULL;
    }
    for (hi = apr_hash_first(p, scan->locs); hi; hi = apr_hash_next(hi)) {
        const char *loc = apr_hash_this_key(hi);

        if (!(marks(scan, loc) & LOC_DATA)) {
            continue;
        }
        if (profile_below(loc, h->loc) != NULL) {
            return NULL;            /* data deeper down: some URLs work */
        }
        if (profile_below(h->loc, loc) != NULL
            && ((marks(scan, loc) | marks(scan, h->loc)) & LOC_BASE)) {
            return NULL;
        }
        if (profile_below(h->loc, loc) != NULL) {
            above = loc;
        }
    }
    if (above != NULL) {
        return apr_psprintf(p, "its ProfileData stands in <Location %s>, "
                            "which would make that the API's base: move "
                            "ProfileData into <Location %s> or add "
                            "ProfileBasePath %s", above[0] ? above : "/",
                            h->loc, h->loc);
    }
    return apr_psprintf(p, "no ProfileData applies to <Location %s>",
                        h->loc[0] ? h->loc : "/");
}

/* Messages of a restart, for the error log once it is open. */
static apr_array_header_t *deferred;

int profile_check_handlers(apr_pool_t *pconf, apr_pool_t *ptemp,
                           server_rec *s)
{
    tree_scan_t scan;
    int i, rv = OK;
    /* A restarting parent must not die of it: it only logs, once its
     * error log is open (profile_check_log_deferred). */
    int fatal = ap_state_query(AP_SQ_CONFIG_GEN) <= 1;

    deferred = NULL;
    scan.handlers = apr_array_make(ptemp, 4, sizeof(handler_t));
    scan.locs = apr_hash_make(ptemp);
    scan.data_elsewhere = 0;
    scan_tree(&scan, ap_conftree, NULL, 0, ptemp);
    for (i = 0; i < scan.handlers->nelts; i++) {
        const handler_t *h = &APR_ARRAY_IDX(scan.handlers, i, handler_t);
        const char *problem = handler_problem(&scan, h, ptemp);

        if (problem == NULL) {
            continue;
        }
        problem = apr_psprintf(pconf, "SetHandler profile on line %d of "
                               "%s: %s", h->node->line_num,
                               h->node->filename, problem);
        if (fatal) {
            ap_log_error(APLOG_MARK, APLOG_STARTUP | APLOG_ERR, 0, s,
                         PROFILE_LOGNO(0004) "%s", problem);
            rv = !OK;
        }
        else {
            if (deferred == NULL) {
                deferred = apr_array_make(pconf, 2, sizeof(const char *));
            }
            APR_ARRAY_PUSH(deferred, const char *) = problem;
        }
    }
    return rv;
}

void profile_check_log_deferred(server_rec *s)
{
    int i;

    for (i = 0; deferred != NULL && i < deferred->nelts; i++) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, PROFILE_LOGNO(0004) "%s",
                     APR_ARRAY_IDX(deferred, i, const char *));
    }
    deferred = NULL;
}
