/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/cli.c -- what every command shares: the tool's name, the pool,
 * options and messages, and a data file loaded the way the module
 * loads it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <apr_general.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_validate.h"
#include "common/common.h"

const char *pc_progname = "profilectl";

apr_pool_t *pc_pool(void)
{
    static int initialized;
    apr_pool_t *p = NULL;

    if (!initialized) {
        if (apr_initialize() != APR_SUCCESS) {
            fprintf(stderr, "%s: cannot initialize APR\n", pc_progname);
            exit(PC_EXIT_USAGE);
        }
        atexit(apr_terminate);
        initialized = 1;
    }
    if (apr_pool_create(&p, NULL) != APR_SUCCESS) {
        fprintf(stderr, "%s: out of memory\n", pc_progname);
        exit(PC_EXIT_USAGE);
    }
    return p;
}

/* apr_getopt's messages ("CMD: invalid option: -x") as every other:
 * "profilectl CMD: ...". */
static void getopt_error(void *arg, const char *fmt, ...)
{
    va_list ap;

    fprintf(arg, "%s ", pc_progname);
    va_start(ap, fmt);
    vfprintf(arg, fmt, ap);
    va_end(ap);
}

apr_getopt_t *pc_getopt(int argc, char **argv, apr_pool_t *p)
{
    apr_getopt_t *os;

    apr_getopt_init(&os, p, argc, (const char *const *)argv);
    os->interleave = 1;
    os->errfn = getopt_error;
    os->errarg = stderr;
    return os;
}

int pc_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s %s: ", pc_progname, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return PC_EXIT_USAGE;
}

json_t *pc_load_data(const char **err, const char ***langs, int *nlangs,
                     const char *path, const char *name, apr_pool_t *p)
{
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *unused = NULL;
    json_error_t jerr;
    pc_input_t in;
    json_t *root;

    if (pc_input_load(&in, err, path, 0, p) < 0
        || profile_store_parse_opts(&unused, err, in.buf, in.len, name,
                                    in.mtime, &opts, p) != APR_SUCCESS) {
        return NULL;
    }
    /* The loader took these bytes: parsed again into a tree, they fail
     * only when memory does. */
    root = json_loadb(in.buf, in.len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL || profile_validate(root, langs, nlangs,
                                         profile_problems_make(p, 1), p)
                        != 0) {
        json_decref(root);
        *err = apr_psprintf(p, "%s: out of memory", path);
        return NULL;
    }
    return root;
}

const profile_store_t *pc_load(const char *cmd, const char *path,
                               apr_pool_t *p)
{
    profile_load_opts_t opts = {.render = 1, .compress = 1, .max_size = 0,
                                .problems = NULL};
    profile_store_t *st = NULL;
    const char *err = NULL;
    pc_input_t in;

    if (pc_input_load(&in, &err, path, 0, p) < 0) {
        pc_fail(cmd, "%s", err);
        return NULL;
    }
    opts.problems = profile_problems_make(p, 1);
    if (profile_store_parse_opts(&st, &err, in.buf, in.len, path, in.mtime,
                                 &opts, p) != APR_SUCCESS) {
        /* One problem (a JSON Resume document, say): that line alone. */
        if (opts.problems->total == 1) {
            pc_fail(cmd, "%s", err);
            return NULL;
        }
        fprintf(stderr, "%s\n", err);
        pc_fail(cmd, "%s cannot be loaded (%s check %s lists every "
                "problem)", path, pc_progname, path);
        return NULL;
    }
    return st;
}
