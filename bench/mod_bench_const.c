/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_bench_const.c -- the benchmark's ceiling: a handler that answers
 * every request with one fixed status, fixed header fields and fixed
 * body bytes, all read when the configuration loads.  It does what any
 * handler must do and nothing else, so it measures httpd's own cost per
 * request.  Built and loaded only by bench/bench.py; never installed.
 *
 *     BenchConst <status> <headers-file> [<body-file>]
 *
 * headers-file holds "Name: value" lines (Content-Type and
 * Content-Length are taken from it like the others).
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_protocol.h"
#include "http_request.h"
#include "util_filter.h"

#include <apr_file_io.h>
#include <apr_strings.h>

typedef struct {
    int status;
    apr_table_t *headers;
    const char *content_type;
    const char *body;
    apr_size_t len;
} bench_conf;

module AP_MODULE_DECLARE_DATA bench_const_module;

static void *create_conf(apr_pool_t *p, char *dir)
{
    (void)dir;
    return apr_pcalloc(p, sizeof(bench_conf));
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
        return apr_psprintf(cmd->pool, "BenchConst: cannot read %s", path);
    }
    *out = apr_palloc(cmd->pool, (apr_size_t)fi.size + 1);
    apr_file_read_full(f, *out, (apr_size_t)fi.size, &got);
    (*out)[got] = '\0';
    *len = got;
    apr_file_close(f);
    return NULL;
}

static const char *set_const(cmd_parms *cmd, void *dconf, int argc,
                             char *const argv[])
{
    bench_conf *conf = dconf;
    char *text, *line, *last;
    apr_size_t len;
    const char *err;

    if (argc < 2 || argc > 3) {
        return "BenchConst <status> <headers-file> [<body-file>]";
    }
    conf->status = atoi(argv[0]);
    conf->headers = apr_table_make(cmd->pool, 12);
    if ((err = slurp(cmd, argv[1], &text, &len)) != NULL) {
        return err;
    }
    for (line = apr_strtok(text, "\r\n", &last); line;
         line = apr_strtok(NULL, "\r\n", &last)) {
        char *colon = strchr(line, ':');

        if (colon == NULL) {
            continue;
        }
        *colon++ = '\0';
        while (*colon == ' ') {
            colon++;
        }
        if (strcasecmp(line, "Content-Type") == 0) {
            conf->content_type = colon;
        }
        else if (strcasecmp(line, "Content-Length") != 0) {
            apr_table_setn(conf->headers, line, colon);
        }
    }
    if (argc == 3) {
        char *body;

        if ((err = slurp(cmd, argv[2], &body, &conf->len)) != NULL) {
            return err;
        }
        conf->body = body;
    }
    return NULL;
}

static int bench_handler(request_rec *r)
{
    bench_conf *conf;
    apr_bucket_brigade *bb;
    apr_bucket_alloc_t *ba = r->connection->bucket_alloc;

    if (strcmp(r->handler, "bench-const") != 0) {
        return DECLINED;
    }
    conf = ap_get_module_config(r->per_dir_config, &bench_const_module);
    apr_table_overlap(r->headers_out, conf->headers, APR_OVERLAP_TABLES_SET);
    r->status = conf->status;
    bb = apr_brigade_create(r->pool, ba);
    if (conf->status == HTTP_OK) {
        if (conf->content_type) {
            ap_set_content_type(r, conf->content_type);
        }
        ap_set_content_length(r, (apr_off_t)conf->len);
        APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_immortal_create(
                                        conf->body, conf->len, ba));
    }
    APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_eos_create(ba));
    ap_pass_brigade(r->output_filters, bb);
    return OK;
}

static const command_rec bench_cmds[] = {
    AP_INIT_TAKE_ARGV("BenchConst", set_const, NULL, ACCESS_CONF,
                      "status, headers file and body file"),
    {NULL, {NULL}, NULL, 0, RAW_ARGS, NULL}
};

static void register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_handler(bench_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

module AP_MODULE_DECLARE_DATA bench_const_module = {
    STANDARD20_MODULE_STUFF,
    create_conf, NULL, NULL, NULL,
    bench_cmds,
    register_hooks,
#if defined(AP_MODULE_FLAG_NONE)
    AP_MODULE_FLAG_NONE
#endif
};
