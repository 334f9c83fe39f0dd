/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_bench_floor.c -- the benchmark's floor: a module that answers from
 * httpd's quick_handler hook, before the URL is mapped to a <Location>
 * or a file and before every later phase (access checks, fixups, the
 * handler).  Per URL it sends one fixed status, fixed header fields and
 * fixed body bytes, all read when the configuration loads: mod_profile's
 * exact answer for a scenario.  What remains is httpd reading and
 * parsing the request and running the output filters: the least any
 * module can cost.  Built and loaded only by bench/bench.py; never
 * installed.
 *
 *     BenchFloor <url-path> <status> <headers-file> [<body-file>]
 *
 * (server context).  headers-file holds "Name: value" lines; Content-Type
 * and Content-Length are taken from it like the others.  A request for
 * another path is declined.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_protocol.h"
#include "http_request.h"
#include "util_filter.h"

#include <apr_file_io.h>
#include <apr_hash.h>
#include <apr_strings.h>

typedef struct {
    int status;
    apr_array_header_t *headers;    /* apr_table_entry_t */
    const char *content_type;
    const char *body;
    apr_size_t len;
} floor_answer;

typedef struct {
    apr_hash_t *answers;            /* url-path -> floor_answer */
} floor_conf;

module AP_MODULE_DECLARE_DATA bench_floor_module;

static void *create_server_conf(apr_pool_t *p, server_rec *s)
{
    floor_conf *conf = apr_pcalloc(p, sizeof(*conf));

    (void)s;
    conf->answers = apr_hash_make(p);
    return conf;
}

static const char *slurp(cmd_parms *cmd, const char *path, char **out,
                         apr_size_t *len)
{
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t got = 0;

    if (apr_file_open(&f, path, APR_FOPEN_READ, APR_OS_DEFAULT, cmd->pool)
        != APR_SUCCESS
        || apr_file_info_get(&fi, APR_FINFO_SIZE, f) != APR_SUCCESS) {
        return apr_psprintf(cmd->pool, "BenchFloor: cannot read %s", path);
    }
    *out = apr_palloc(cmd->pool, (apr_size_t)fi.size + 1);
    apr_file_read_full(f, *out, (apr_size_t)fi.size, &got);
    (*out)[got] = '\0';
    *len = got;
    apr_file_close(f);
    return NULL;
}

static const char *set_floor(cmd_parms *cmd, void *dconf, int argc,
                             char *const argv[])
{
    floor_conf *conf = ap_get_module_config(cmd->server->module_config,
                                            &bench_floor_module);
    floor_answer *a = apr_pcalloc(cmd->pool, sizeof(*a));
    char *text, *line, *last;
    apr_size_t len;
    const char *err;

    (void)dconf;
    if (argc < 3 || argc > 4) {
        return "BenchFloor <url-path> <status> <headers-file> [<body-file>]";
    }
    a->status = atoi(argv[1]);
    a->headers = apr_array_make(cmd->pool, 16, sizeof(apr_table_entry_t));
    if ((err = slurp(cmd, argv[2], &text, &len)) != NULL) {
        return err;
    }
    for (line = apr_strtok(text, "\r\n", &last); line;
         line = apr_strtok(NULL, "\r\n", &last)) {
        char *colon = strchr(line, ':');
        apr_table_entry_t *e;

        if (colon == NULL) {
            continue;
        }
        *colon++ = '\0';
        while (*colon == ' ') {
            colon++;
        }
        if (strcasecmp(line, "Content-Type") == 0) {
            a->content_type = colon;
        }
        else if (strcasecmp(line, "Content-Length") != 0) {
            e = apr_array_push(a->headers);
            e->key = line;
            e->val = colon;
        }
    }
    if (argc == 4) {
        char *body;

        if ((err = slurp(cmd, argv[3], &body, &a->len)) != NULL) {
            return err;
        }
        a->body = body;
    }
    apr_hash_set(conf->answers, argv[0], APR_HASH_KEY_STRING, a);
    return NULL;
}

static int floor_quick_handler(request_rec *r, int lookup_uri)
{
    floor_conf *conf;
    const floor_answer *a;
    const apr_table_entry_t *e;
    apr_bucket_brigade *bb;
    apr_bucket_alloc_t *ba = r->connection->bucket_alloc;
    int i;

    if (lookup_uri) {
        return DECLINED;
    }
    conf = ap_get_module_config(r->server->module_config,
                                &bench_floor_module);
    a = apr_hash_get(conf->answers, r->uri, APR_HASH_KEY_STRING);
    if (a == NULL) {
        return DECLINED;
    }
    e = (const apr_table_entry_t *)a->headers->elts;
    for (i = 0; i < a->headers->nelts; i++) {
        apr_table_addn(r->headers_out, e[i].key, e[i].val);
    }
    r->status = a->status;
    bb = apr_brigade_create(r->pool, ba);
    if (a->status == HTTP_OK) {
        if (a->content_type) {
            ap_set_content_type(r, a->content_type);
        }
        ap_set_content_length(r, (apr_off_t)a->len);
        if (a->len > 0) {
            APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create(
                                            a->body, a->len, ba));
        }
    }
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_eos_create(ba));
    ap_pass_brigade(r->output_filters, bb);
    return OK;
}

static const command_rec floor_cmds[] = {
    AP_INIT_TAKE_ARGV("BenchFloor", set_floor, NULL, RSRC_CONF,
                      "url-path, status, headers file and body file"),
    {NULL, {NULL}, NULL, 0, RAW_ARGS, NULL}
};

static void register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_quick_handler(floor_quick_handler, NULL, NULL, APR_HOOK_FIRST);
}

module AP_MODULE_DECLARE_DATA bench_floor_module = {
    STANDARD20_MODULE_STUFF,
    NULL, NULL,
    create_server_conf, NULL,
    floor_cmds,
    register_hooks,
#if defined(AP_MODULE_FLAG_NONE)
    AP_MODULE_FLAG_NONE
#endif
};
