/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.c -- `profilectl check [--json] FILE...`: the problems of
 * each data file (the first 100, then how many more), in file order, the
 * way the module's loader finds them (profile_store_load, validating
 * only).  One line per problem, as a
 * compiler says it: "FILE:LINE:COL: invalid JSON: ..." (a syntax error,
 * then the only problem) or "FILE:LINE:COL: $.json.path: ..." (where the
 * value begins, profile_locate.c).  --json prints a JSON array instead,
 * one object per problem: {"file","line","column","path","message"}
 * (line and column null only for a problem of the whole file, path null
 * for syntax and unreadable files).  A JSON Resume
 * document is one problem saying so and how to import it.  The exit
 * status is 1 when a file has problems (the loader's APR_EINVAL: the
 * memory estimate's refusal is one), 2 when one cannot be read at all
 * (any other status of the loader, or not a regular file: common/input.c).
 * Then, on standard error, for each file that untranslated can read
 * (texts/texts.h) and that has untranslated texts, one line per language
 * but the source one: how many; they are not problems (CONTRACT §9).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profilectl.h"
#include "common/common.h"
#include "po/po.h"
#include "profile_validate.h"

/* How many problems of one file are listed before "and N more". */
#define PC_CHECK_LISTED 100

static json_t *problem_json(const char *file,
                            const profile_data_problem_t *pr)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:s}", "file", file,
                     "line", pr->line > 0 ? json_integer(pr->line)
                                          : json_null(),
                     "column", pr->line > 0 ? json_integer(pr->column)
                                            : json_null(),
                     "path", pr->path ? json_string(pr->path) : json_null(),
                     "message", pr->text);
}

/* Are all of a file's problems missing translations (all kept)?  Then
 * its untranslated texts are counted too. */
static int only_missing(const profile_problems_t *pr)
{
    int k;

    for (k = 0; k < pr->list->nelts; k++) {
        const char *t = APR_ARRAY_IDX(pr->list, k,
                                      profile_data_problem_t).text;

        if (strncmp(t, "missing translation \"", 21) != 0
            && strncmp(t, "missing the list in \"", 22) != 0) {
            return 0;
        }
    }
    return pr->total == (apr_size_t)k && k > 0;
}

int pc_cmd_check(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"json", 'j', 0, "a JSON array of the problems"},
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg;
    int optch, as_json = 0, status = PC_EXIT_OK, i;
    apr_pool_t *fp;             /* one file's loading */
    json_t *all;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        as_json = 1;
    }
    if (rv != APR_EOF || os->ind >= argc) {
        return pc_fail("check", "usage: %s check [--json] FILE...",
                       pc_progname);
    }
    all = json_array();
    apr_pool_create(&fp, p);
    for (i = os->ind; i < argc; i++, apr_pool_clear(fp)) {
        const char *file = os->argv[i];
        profile_load_opts_t opts = {.render = 0, .compress = 0,
                                    .max_size = 0, .problems = NULL};
        profile_store_t *unused = NULL;
        const char *err = NULL;
        pc_input_t in;
        apr_status_t lrv;
        int k;

        opts.problems = profile_problems_make(p, PC_CHECK_LISTED);
        /* A FIFO, a device, a directory: refused by the opener, as every
         * input of profilectl (common/input.c).  The file is read once:
         * the loader judges those bytes, and the counts of untranslated
         * texts are made of them too. */
        if (pc_input_load(&in, &err, file, 0, fp) < 0) {
            profile_data_problem_t *pr = profile_problems_add(opts.problems);

            pr->line = pr->column = 0;
            pr->path = NULL;
            pr->text = err + strlen(file) + 2;
            lrv = APR_EGENERAL;
        }
        else if ((lrv = profile_store_parse_opts(&unused, &err, in.buf,
                                                 in.len, file, in.mtime,
                                                 &opts, fp))
                 == APR_SUCCESS) {
            pc_untranslated_counts(&in, 1, fp);
            continue;
        }
        /* The loader says APR_EINVAL for problems in the data, the
         * memory estimate's refusal included: 1.  Any other status is a
         * file that cannot be read at all, unusable input: 2. */
        if (lrv != APR_EINVAL) {
            status = PC_EXIT_USAGE;
        }
        else if (status == PC_EXIT_OK) {
            status = PC_EXIT_PROBLEMS;
        }
        for (k = 0; k <= opts.problems->list->nelts; k++) {
            const profile_data_problem_t *pr =
                &APR_ARRAY_IDX(opts.problems->list, k,
                               profile_data_problem_t);
            profile_data_problem_t more = {.line = 0, .column = 0,
                                           .path = NULL, .text = NULL};

            if (k == opts.problems->list->nelts) {
                if (opts.problems->total <= (apr_size_t)k) {
                    break;
                }
                /* Past the first ones, a count (CONTRACT §9: a refusal
                 * keeps no more, so that it is bounded). */
                more.text = apr_psprintf(p, "and %" APR_SIZE_T_FMT " more "
                                         "problems (the first %d are "
                                         "listed)", opts.problems->total
                                         - (apr_size_t)k, k);
                pr = &more;
            }
            if (as_json) {
                json_array_append_new(all, problem_json(file, pr));
            }
            else {
                printf("%s\n", profile_data_problem_line(pr, file, p));
            }
        }
        if (lrv == APR_EINVAL && only_missing(opts.problems)) {
            pc_untranslated_counts(&in, 0, fp);
        }
    }
    if (as_json) {
        char *text = json_dumps(all, JSON_INDENT(2));

        printf("%s\n", text);
        free(text);
    }
    json_decref(all);
    apr_pool_destroy(p);
    return status;
}
