/*
 * mod_profile.c -- httpd glue: the module record, the directives and the
 * `profile` handler.  It translates a request_rec into a core request,
 * asks the core (profile_api.c) for the answer, lets httpd evaluate the
 * validators (ap_meets_conditions) and writes the answer.  Everything
 * else lives in the pure core (profile_*.c).
 */
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>             /* malloc_trim */
#endif

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "http_main.h"
#include "util_filter.h"
#include "util_cfgtree.h"

#include <apr_date.h>
#include <apr_fnmatch.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "profile_api.h"
#include "profile_store.h"

#define PROFILE_HANDLER "profile"
#define PROFILE_LOGNO(n) "PROFILE" #n ": "
#define DEFAULT_MAX_AGE 300
#define DEFAULT_MAX_DATA_SIZE (64 * 1024 * 1024)

APLOG_USE_MODULE(profile);

typedef struct {
    const char *data_path;          /* ProfileData; NULL: unset */
    const profile_store_t *store;   /* its data; NULL if it failed to load
                                     * in a restart (see load_kept) */
    const char *data_base;          /* the <Location> holding ProfileData */
    const char *base_path;          /* ProfileBasePath; NULL: unset */
    apr_array_header_t *origins;    /* NULL: "*" */
    int origins_set;
    int max_age;                    /* -1: unset */
    const char *cache_control;      /* Cache-Control for max_age */
    int compress;                   /* ProfileCompression; -1: unset */
} profile_dir_conf;

/* ProfileMaxDataSize (main server only), for the ProfileData lines that
 * follow it; reset at every configuration read. */
static apr_off_t max_data_size = DEFAULT_MAX_DATA_SIZE;
static int data_seen;               /* a ProfileData line was read */

static void *create_dir_conf(apr_pool_t *p, char *dir)
{
    profile_dir_conf *conf = apr_pcalloc(p, sizeof(*conf));

    (void)dir;
    conf->max_age = -1;
    conf->compress = -1;
    return conf;
}

static void *merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    profile_dir_conf *base = basev, *add = addv;
    profile_dir_conf *conf = apr_pcalloc(p, sizeof(*conf));

    if (add->data_path != NULL) {
        conf->data_path = add->data_path;
        conf->store = add->store;
        conf->data_base = add->data_base;
    }
    else {
        conf->data_path = base->data_path;
        conf->store = base->store;
        conf->data_base = base->data_base;
    }
    conf->base_path = add->base_path ? add->base_path : base->base_path;
    conf->origins_set = add->origins_set || base->origins_set;
    conf->origins = add->origins_set ? add->origins : base->origins;
    conf->max_age = add->max_age != -1 ? add->max_age : base->max_age;
    conf->cache_control = add->max_age != -1 ? add->cache_control
                                             : base->cache_control;
    conf->compress = add->compress != -1 ? add->compress : base->compress;
    return conf;
}

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
static const char *base_of(const char *path, apr_pool_t *p)
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
static const char *location_base(cmd_parms *cmd)
{
    const char *path = enclosing_location(cmd->directive, cmd->pool);

    return path ? base_of(path, cmd->pool) : NULL;
}

/*
 * Last good data (CONTRACT §9).  While the real configuration is read
 * (start-up and every restart of a running parent), each data file is
 * loaded into a subpool of the process pool, which outlives the
 * configuration pool; the registry below keeps the last good load per
 * file.  When a restart reaches the parent with a bad file (configtest and
 * `-k graceful` refuse it earlier, but a raw signal or a file changed in
 * between does not), the error is logged and the last good data is
 * served: a bad edit never takes the API down.  Nothing kept here points
 * into this module's .so, which httpd unloads at every restart.
 */
typedef struct {
    apr_pool_t *pool;               /* subpool of the process pool */
    profile_store_t *store;
    int generation;                 /* configuration generation last used */
    apr_interval_time_t validated_in; /* the first reading's check */
    apr_interval_time_t loaded_in;  /* the last load, to be logged */
} profile_holder_t;

#define REGISTRY_KEY "mod_profile:last-good"

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
static profile_holder_t *holder_for(apr_pool_t *ppool, const char *path)
{
    apr_hash_t *reg = registry(ppool);
    profile_holder_t *h = apr_hash_get(reg, path, APR_HASH_KEY_STRING);

    if (h == NULL) {
        h = apr_pcalloc(ppool, sizeof(*h));
        apr_hash_set(reg, apr_pstrdup(ppool, path), APR_HASH_KEY_STRING, h);
    }
    return h;
}

/* Hands the memory the JSON parser freed back to the system, so that the
 * children forked after a load do not start with it. */
static void trim_heap(void)
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/* Loads `path` for a section of the real configuration.  Returns an error
 * only at start-up; in a restarting parent a bad file is logged and the
 * last good data of that file is served (none yet: *out stays NULL and
 * the section answers 500 until a good reload).  The error log of a
 * restarting parent is its stderr until the new logs are open, so the
 * messages go there (server NULL). */
static const char *load_kept(const profile_store_t **out, cmd_parms *cmd,
                             const char *path)
{
    apr_pool_t *ppool = cmd->server->process->pool;
    profile_holder_t *h = holder_for(ppool, path);
    int gen = ap_state_query(AP_SQ_CONFIG_GEN);
    profile_store_t *store = NULL;
    const char *err = NULL;
    apr_pool_t *np;
    apr_allocator_t *alloc;
    apr_time_t t0 = apr_time_now();
    profile_load_opts_t opts = {1, 1, 0};

    opts.max_size = max_data_size;
    if (h->store != NULL && h->generation == gen) {
        *out = h->store;            /* another section, same file */
        return NULL;
    }
    /* Each load has an allocator of its own, destroyed with it: httpd's
     * global allocator would keep the freed store on its free list for
     * good (the parent would hold two stores after a reload).  Only
     * this thread allocates from these pools (the loader's threads use
     * malloc), so the allocator needs no mutex. */
    if (apr_allocator_create(&alloc) != APR_SUCCESS) {
        return "ProfileData: out of memory";
    }
    apr_pool_create_ex(&np, ppool, NULL, alloc);
    apr_allocator_owner_set(alloc, np);
    if (profile_store_load(&store, &err, path, &opts, np) == APR_SUCCESS) {
        if (h->pool != NULL) {
            apr_pool_destroy(h->pool);
        }
        trim_heap();
        h->pool = np;
        h->store = store;
        h->generation = gen;
        h->loaded_in = apr_time_now() - t0;
        *out = store;
        return NULL;
    }
    err = apr_pstrdup(cmd->pool, err);
    apr_pool_destroy(np);
    if (gen <= 1) {
        return err;                 /* start-up with a bad file fails */
    }
    if (h->store == NULL) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, NULL, PROFILE_LOGNO(0005)
                     "ProfileData: %s; no good data of this file was loaded "
                     "before, so its locations answer 500 until a reload "
                     "with a good file", err);
        return NULL;
    }
    ap_log_error(APLOG_MARK, APLOG_ERR, 0, NULL, PROFILE_LOGNO(0003)
                 "ProfileData: %s; still serving the last good data", err);
    h->generation = gen;
    *out = h->store;
    return NULL;
}

/* Drops the data of files no section uses any more. */
static int profile_post_config(apr_pool_t *pconf, apr_pool_t *plog,
                               apr_pool_t *ptemp, server_rec *s)
{
    apr_hash_t *reg = registry(s->process->pool);
    int gen = ap_state_query(AP_SQ_CONFIG_GEN);
    apr_hash_index_t *hi;

    (void)pconf;
    (void)plog;
    if (ap_state_query(AP_SQ_MAIN_STATE) != AP_SQ_MS_CREATE_CONFIG) {
        return OK;
    }
    for (hi = apr_hash_first(ptemp, reg); hi; hi = apr_hash_next(hi)) {
        profile_holder_t *h = apr_hash_this_val(hi);

        if (h->loaded_in > 0) {
            /* (The logs are open now; LogLevel profile:info shows it.) */
            ap_log_error(APLOG_MARK, APLOG_INFO, 0, s, PROFILE_LOGNO(0006)
                         "ProfileData %s: loaded in %.3f s%s", (const char *)
                         apr_hash_this_key(hi), h->loaded_in / 1e6,
                         h->validated_in > 0
                         ? apr_psprintf(ptemp, " (and validated in %.3f s "
                                        "at the first reading)",
                                        h->validated_in / 1e6) : "");
            h->loaded_in = 0;
            h->validated_in = 0;
        }
        if (h->pool != NULL && h->generation != gen) {
            apr_pool_destroy(h->pool);
            h->pool = NULL;
            h->store = NULL;
        }
    }
    return OK;
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
                scan_tree(scan, n->first_child, base_of(path, p), other, p);
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

/* Non-zero when URL path `below` is `above` or lies under it. */
static int path_within(const char *below, const char *above)
{
    apr_size_t n = strlen(above);

    return strncmp(below, above, n) == 0
           && (below[n] == '\0' || below[n] == '/');
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
        if (path_within(loc, h->loc)) {
            return NULL;            /* data deeper down: some URLs work */
        }
        if (path_within(h->loc, loc)
            && ((marks(scan, loc) | marks(scan, h->loc)) & LOC_BASE)) {
            return NULL;
        }
        if (path_within(h->loc, loc)) {
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

static int profile_check_config(apr_pool_t *pconf, apr_pool_t *plog,
                                apr_pool_t *ptemp, server_rec *s)
{
    tree_scan_t scan;
    int i, rv = OK;
    /* A restarting parent must not die of it: it only logs. */
    int fatal = ap_state_query(AP_SQ_CONFIG_GEN) <= 1;

    (void)pconf;
    (void)plog;
    scan.handlers = apr_array_make(ptemp, 4, sizeof(handler_t));
    scan.locs = apr_hash_make(ptemp);
    scan.data_elsewhere = 0;
    scan_tree(&scan, ap_conftree, NULL, 0, ptemp);
    for (i = 0; i < scan.handlers->nelts; i++) {
        const handler_t *h = &APR_ARRAY_IDX(scan.handlers, i, handler_t);
        const char *problem = handler_problem(&scan, h, ptemp);

        if (problem != NULL) {
            ap_log_error(APLOG_MARK, APLOG_STARTUP | APLOG_EMERG, 0,
                         fatal ? s : NULL, PROFILE_LOGNO(0004)
                         "SetHandler profile on line %d of %s: %s",
                         h->node->line_num, h->node->filename, problem);
            rv = fatal ? HTTP_INTERNAL_SERVER_ERROR : OK;
        }
    }
    return rv;
}

static const char *set_data(cmd_parms *cmd, void *dconf, const char *arg)
{
    profile_dir_conf *conf = dconf;
    const char *path = ap_server_root_relative(cmd->temp_pool, arg);
    const char *err = NULL;
    profile_store_t *store = NULL;
    profile_load_opts_t validate = {0, 0, 0};

    if (path == NULL) {
        return apr_psprintf(cmd->pool, "ProfileData: invalid path '%s'", arg);
    }
    data_seen = 1;
    /* Validating here makes `apachectl configtest` and a graceful restart
     * refuse a bad file before the running server is touched.  Only the
     * configuration the server runs with renders; the first reading at
     * start-up, configtest and `-k graceful` validate. */
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_CONFIG) {
        err = load_kept(&conf->store, cmd, path);
    }
    else {
        apr_time_t t0 = apr_time_now();

        validate.max_size = max_data_size;
        profile_store_load(&store, &err, path, &validate, cmd->temp_pool);
        if (err != NULL) {
            err = apr_pstrdup(cmd->pool, err);
        }
        else {
            holder_for(cmd->server->process->pool, path)->validated_in =
                apr_time_now() - t0;
        }
    }
    if (err != NULL) {
        return apr_pstrcat(cmd->pool, "ProfileData: ", err, NULL);
    }
    conf->data_path = apr_pstrdup(cmd->pool, path);
    conf->data_base = location_base(cmd);
    return NULL;
}

static const char *set_base_path(cmd_parms *cmd, void *dconf,
                                 const char *arg)
{
    profile_dir_conf *conf = dconf;

    if (arg[0] != '/') {
        return "ProfileBasePath: the base path must start with '/'";
    }
    conf->base_path = base_of(arg, cmd->pool);
    return NULL;
}

/* An origin is scheme "://" host [":" port], nothing more. */
static int origin_valid(const char *s)
{
    const char *p = s;

    if (!apr_isalpha(*p)) {
        return 0;
    }
    while (apr_isalnum(*p) || *p == '+' || *p == '-' || *p == '.') {
        p++;
    }
    if (strncmp(p, "://", 3) != 0 || p[3] == '\0') {
        return 0;
    }
    for (p += 3; *p; p++) {
        if (*p == '/' || *p == '?' || *p == '#' || *p == '*'
            || apr_isspace(*p) || apr_iscntrl(*p)) {
            return 0;
        }
    }
    return 1;
}

/* One origin of ProfileCORSOrigins (called for each argument, so any
 * number of origins, on one line or several, add up in a section). */
static const char *set_origin(cmd_parms *cmd, void *dconf, const char *arg)
{
    profile_dir_conf *conf = dconf;
    int star = strcmp(arg, "*") == 0;

    if (conf->origins_set && (star || conf->origins == NULL)) {
        return "ProfileCORSOrigins: '*' stands alone (give either '*' or "
               "a list of origins)";
    }
    conf->origins_set = 1;
    if (star) {
        conf->origins = NULL;
        return NULL;
    }
    if (!origin_valid(arg)) {
        return apr_psprintf(cmd->pool, "ProfileCORSOrigins: '%s' is not "
                            "an origin (scheme://host[:port], no path; "
                            "'*' stands alone)", arg);
    }
    if (conf->origins == NULL) {
        conf->origins = apr_array_make(cmd->pool, 4, sizeof(const char *));
    }
    APR_ARRAY_PUSH(conf->origins, const char *) = apr_pstrdup(cmd->pool, arg);
    return NULL;
}

static const char *set_max_age(cmd_parms *cmd, void *dconf, const char *arg)
{
    profile_dir_conf *conf = dconf;
    char *end;
    apr_int64_t v;

    (void)cmd;
    if (!apr_isdigit(arg[0])) {
        return "ProfileMaxAge: expected a number of seconds (0 or more)";
    }
    v = apr_strtoi64(arg, &end, 10);
    if (*end != '\0' || v < 0 || v > 2147483647) {
        return "ProfileMaxAge: expected a number of seconds (0 to "
               "2147483647)";
    }
    conf->max_age = (int)v;
    conf->cache_control = apr_psprintf(cmd->pool, "public, max-age=%d",
                                       conf->max_age);
    return NULL;
}

static const char *set_compression(cmd_parms *cmd, void *dconf, int on)
{
    profile_dir_conf *conf = dconf;

    (void)cmd;
    conf->compress = on;
    return NULL;
}

/* A size in bytes, with an optional K, M or G (binary multiples). */
static const char *set_max_data_size(cmd_parms *cmd, void *dconf,
                                     const char *arg)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);
    apr_int64_t v, unit = 1;
    char *end;

    (void)dconf;
    if (err != NULL) {
        return err;
    }
    if (data_seen) {
        return "ProfileMaxDataSize must come before the first ProfileData";
    }
    v = apr_isdigit(arg[0]) ? apr_strtoi64(arg, &end, 10) : -1;
    if (v > 0 && *end != '\0' && end[1] == '\0') {
        switch (apr_toupper(*end)) {
        case 'K': unit = 1024; end++; break;
        case 'M': unit = 1024 * 1024; end++; break;
        case 'G': unit = 1024 * 1024 * 1024; end++; break;
        }
    }
    if (v <= 0 || *end != '\0' || v > (APR_INT64_C(1) << 40) / unit) {
        return "ProfileMaxDataSize: expected a size in bytes greater than "
               "0, optionally followed by K, M or G (e.g. 64M)";
    }
    max_data_size = (apr_off_t)(v * unit);
    return NULL;
}

/* Every configuration read starts from the defaults. */
static int profile_pre_config(apr_pool_t *pconf, apr_pool_t *plog,
                              apr_pool_t *ptemp)
{
    (void)pconf;
    (void)plog;
    (void)ptemp;
    max_data_size = DEFAULT_MAX_DATA_SIZE;
    data_seen = 0;
    return OK;
}

static const command_rec profile_cmds[] = {
    AP_INIT_TAKE1("ProfileData", set_data, NULL, RSRC_CONF | ACCESS_CONF,
                  "the profile data file (JSON) this location serves"),
    AP_INIT_ITERATE("ProfileCORSOrigins", set_origin, NULL,
                    RSRC_CONF | ACCESS_CONF,
                    "'*' or the origins allowed by CORS (any number, on "
                    "one line or several)"),
    AP_INIT_TAKE1("ProfileMaxAge", set_max_age, NULL, RSRC_CONF | ACCESS_CONF,
                  "seconds for Cache-Control max-age (default 300)"),
    AP_INIT_FLAG("ProfileCompression", set_compression, NULL,
                 RSRC_CONF | ACCESS_CONF,
                 "On (default): serve the gzip and br forms rendered at "
                 "load time to clients that accept them"),
    AP_INIT_TAKE1("ProfileMaxDataSize", set_max_data_size, NULL, RSRC_CONF,
                  "largest data file accepted, in bytes (K, M, G allowed; "
                  "default 64M); before any ProfileData"),
    AP_INIT_TAKE1("ProfileBasePath", set_base_path, NULL,
                  RSRC_CONF | ACCESS_CONF,
                  "URL path of the API base, where it is not the "
                  "<Location> holding ProfileData"),
    {NULL, {NULL}, NULL, 0, RAW_ARGS, NULL}
};

static int apply_header(void *rv, const char *key, const char *val)
{
    request_rec *r = rv;

    if (strcasecmp(key, "Vary") == 0) {
        apr_table_mergen(r->headers_out, key, val);
    }
    else {
        apr_table_setn(r->headers_out, key, val);
    }
    return 1;
}

static int send_answer(request_rec *r, const profile_response_t *resp)
{
    apr_bucket_alloc_t *ba = r->connection->bucket_alloc;
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, ba);
    const char *from = resp->body;

    apr_table_do(apply_header, r, resp->headers, NULL);
    /* The header fields above are the whole truth: nothing another
     * module derived from a file name (mod_mime) may replace them. */
    r->content_languages = NULL;
    r->content_encoding = NULL;
    r->status = resp->status;
    /* In the table, Content-Encoding stays on a 304 too, and tells
     * mod_deflate and mod_brotli that the body is already coded. */
    if (resp->content_encoding != NULL) {
        apr_table_setn(r->headers_out, "Content-Encoding",
                       resp->content_encoding);
    }
    if (resp->status != HTTP_NOT_MODIFIED) {
        if (resp->content_type != NULL) {
            ap_set_content_type(r, resp->content_type);
        }
        ap_set_content_length(r, (apr_off_t)resp->len);
        if (resp->len > 0) {
            /* Bodies rendered at load time live as long as the process;
             * anything else lives in the request pool. */
            APR_BRIGADE_INSERT_TAIL(bb, resp->stored
                ? apr_bucket_immortal_create(from, resp->len, ba)
                : apr_bucket_pool_create(from, resp->len, r->pool, ba));
        }
    }
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_eos_create(ba));
    ap_pass_brigade(r->output_filters, bb);
    return OK;
}

/* If-Modified-Since: a valid HTTP-date at or after Last-Modified. */
static int not_modified_since(request_rec *r, const char *ims)
{
    apr_time_t since = apr_date_parse_http(ims);
    apr_time_t lm = apr_date_parse_http(apr_table_get(r->headers_out,
                                                      "Last-Modified"));

    return since != APR_DATE_BAD && lm != APR_DATE_BAD
           && (r->method_number == M_GET)
           && apr_time_sec(since) >= apr_time_sec(lm);
}

static int profile_handler(request_rec *r)
{
    profile_dir_conf *conf;
    profile_site_t site;
    profile_request_t req;
    profile_response_t resp;
    const char *base;
    apr_size_t n;

    if (strcmp(r->handler, PROFILE_HANDLER) != 0) {
        return DECLINED;
    }
    conf = ap_get_module_config(r->per_dir_config, &profile_module);
    site.store = conf->store;
    site.origins = conf->origins;
    site.max_age = conf->max_age >= 0 ? conf->max_age : DEFAULT_MAX_AGE;
    site.cache_control = conf->max_age >= 0 ? conf->cache_control
                         : "public, max-age=" APR_STRINGIFY(DEFAULT_MAX_AGE);
    site.compress = conf->compress != 0;

    memset(&req, 0, sizeof(req));
    req.method = r->method_number == M_GET ? PROFILE_M_GET
                 : r->method_number == M_OPTIONS ? PROFILE_M_OPTIONS
                 : PROFILE_M_OTHER;
    req.method_name = r->method;
    req.uri = r->uri;
    req.args = r->args;
    req.accept_language = apr_table_get(r->headers_in, "Accept-Language");
    req.accept = apr_table_get(r->headers_in, "Accept");
    req.accept_encoding = apr_table_get(r->headers_in, "Accept-Encoding");
    req.origin = apr_table_get(r->headers_in, "Origin");
    req.acr_method = apr_table_get(r->headers_in,
                                   "Access-Control-Request-Method");

    base = conf->base_path ? conf->base_path : conf->data_base;
    if (conf->store == NULL || base == NULL) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, PROFILE_LOGNO(0001)
                      "SetHandler profile is set for %s but %s%s", r->uri,
                      conf->store != NULL
                      ? "ProfileData is not inside a <Location>; set "
                        "ProfileBasePath"
                      : conf->data_path != NULL
                      ? "the last restart could not load "
                      : "no ProfileData applies there",
                      conf->store == NULL && conf->data_path != NULL
                      ? conf->data_path : "");
        site.store = NULL;
        req.path = "";
        profile_api_answer(&resp, &site, &req, r->pool);
        profile_api_error(&resp, &site, &req, HTTP_INTERNAL_SERVER_ERROR,
                          r->pool);
        return send_answer(r, &resp);
    }
    n = strlen(base);
    /* Below the base means the base itself or base + "/..." (§2). */
    req.path = strncmp(r->uri, base, n) == 0
               && (r->uri[n] == '/' || r->uri[n] == '\0')
               ? r->uri + n : NULL;

    profile_api_answer(&resp, &site, &req, r->pool);

    if (resp.conditional) {
        const char *inm = apr_table_get(r->headers_in, "If-None-Match");
        const char *ims = apr_table_get(r->headers_in, "If-Modified-Since");
        int rc;

        apr_table_setn(r->headers_out, "ETag", resp.etag);
        ap_update_mtime(r, conf->store->mtime);
        ap_set_last_modified(r);
        /* Every answer is a whole 200 (the specification's "all success
         * responses are 200"): no byte ranges, so no 206 and no 416. */
        apr_table_unset(r->headers_in, "Range");
        apr_table_unset(r->headers_in, "If-Range");
        /* httpd evaluates If-Modified-Since even beside If-None-Match, and
         * treats a date in the future as a mismatch; CONTRACT §5 (and RFC
         * 9110 §13.1.3) want it ignored beside If-None-Match and a 304
         * for any valid date at or after Last-Modified.  So httpd
         * evaluates the rest and the date is compared here. */
        if (ims != NULL) {
            apr_table_unset(r->headers_in, "If-Modified-Since");
        }
        rc = ap_meets_conditions(r);
        if (ims != NULL) {
            apr_table_setn(r->headers_in, "If-Modified-Since", ims);
            if (rc == OK && inm == NULL && not_modified_since(r, ims)) {
                rc = HTTP_NOT_MODIFIED;
            }
        }
        if (rc == HTTP_NOT_MODIFIED) {
            resp.status = HTTP_NOT_MODIFIED;
        }
        else if (rc != OK) {
            apr_table_unset(r->headers_out, "ETag");
            apr_table_unset(r->headers_out, "Last-Modified");
            profile_api_error(&resp, &site, &req, rc, r->pool);
        }
    }
    if (APLOGrdebug(r)) {
        ap_log_rerror(APLOG_MARK, APLOG_DEBUG, 0, r, PROFILE_LOGNO(0002)
                      "%s %s: %d, language %s%s%s", r->method,
                      r->unparsed_uri, resp.status,
                      conf->store->langs[resp.lang],
                      resp.etag ? ", ETag " : "",
                      resp.etag ? resp.etag : "");
    }
    return send_answer(r, &resp);
}

/* URLs served by this handler name no file: like mod_proxy, the module
 * claims them in translate_name (after mod_rewrite and mod_alias had
 * their say, before the core maps them below DocumentRoot) and spares
 * them the directory walk (a stat per path segment and the .htaccess
 * lookups) that the core's map_to_storage would do.  Whether a URL is
 * ours is known in translate_name, where the <Location> sections are
 * merged (map_to_storage starts from the server's defaults).  The file
 * name has no extension, so no mod_mime rule applies to it; a path too
 * long to be a file name under DocumentRoot gets the module's 404, not
 * httpd's 403. */
static int profile_translate_name(request_rec *r)
{
    profile_dir_conf *conf = ap_get_module_config(r->per_dir_config,
                                                  &profile_module);
    core_dir_config *core;
    const char *handler, *err = NULL;

    if (conf == NULL || conf->data_path == NULL) {
        return DECLINED;            /* no API here: the common case */
    }
    core = ap_get_core_module_config(r->per_dir_config);
    if (core->expr_handler == NULL) {
        return DECLINED;
    }
    handler = ap_expr_str_exec(r, core->expr_handler, &err);
    if (err == NULL && handler != NULL
        && strcmp(handler, PROFILE_HANDLER) == 0) {
        ap_set_module_config(r->request_config, &profile_module, conf);
        r->filename = apr_pstrdup(r->pool, PROFILE_HANDLER ":");
        return OK;
    }
    return DECLINED;
}

static int profile_map_to_storage(request_rec *r)
{
    return ap_get_module_config(r->request_config, &profile_module) != NULL
           ? OK : DECLINED;
}

static void register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_check_config(profile_check_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_pre_config(profile_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(profile_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_translate_name(profile_translate_name, NULL, NULL,
                           APR_HOOK_LAST);
    ap_hook_map_to_storage(profile_map_to_storage, NULL, NULL,
                           APR_HOOK_FIRST);
    ap_hook_handler(profile_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

module AP_MODULE_DECLARE_DATA profile_module = {
    STANDARD20_MODULE_STUFF,
    create_dir_conf,
    merge_dir_conf,
    NULL,
    NULL,
    profile_cmds,
    register_hooks,
#if defined(AP_MODULE_FLAG_NONE)
    AP_MODULE_FLAG_NONE
#endif
};
