/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merge.c -- profilectl merge: data files of different languages (a
 * LinkedIn import in English, a JSON Resume import in Spanish...) as one
 * data file with every language.  Each language of each file is read as
 * the JSON Resume document export-jsonresume would write, and the
 * documents are imported together by pc_jr_import_docs: the entries pair
 * by the same rules as import-jsonresume's files (import/pair.c), so
 * merge keeps what the JSON Resume mapping carries (docs/jsonresume.md);
 * the rest is named as not imported, and ids are made again from the
 * names and dates.
 */
#include <stdio.h>
#include <string.h>

#include <apr_file_info.h>
#include <apr_getopt.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_store.h"
#include "profile_validate.h"
#include "profilectl.h"
#include "common/common.h"
#include "import/import.h"
#include "export/export.h"

#define MERGE_USAGE "usage: %s merge [--strict] [-o OUT] FILE FILE..."

/* Is text value v (a string, or one per language) empty in all? */
static int blank_text(json_t *v)
{
    const char *k;
    json_t *x;

    if (json_is_string(v)) {
        return *json_string_value(v) == '\0';
    }
    json_object_foreach(v, k, x) {
        if (!blank_text(x)) {
            return 0;
        }
    }
    return 1;
}

/* Counts what the JSON Resume mapping does not carry as not imported:
 * the metrics, and a case study's problem, intervention and result. */
static void drop_unmapped(jr_import_t *im, json_t *data)
{
    static const char *const members[] = {"problem", "intervention",
                                          "result", NULL};
    json_t *cs;
    size_t i, n = json_array_size(json_object_get(data, "metrics"));
    int k;

    if (n) {
        pc_jr_drop(im, "metrics", (int)n);
    }
    json_array_foreach(json_object_get(data, "caseStudies"), i, cs) {
        for (k = 0; members[k]; k++) {
            if (!blank_text(json_object_get(cs, members[k]))) {
                pc_jr_drop(im, apr_pstrcat(im->c.p, "caseStudies[].",
                                           members[k], NULL), 1);
            }
        }
    }
}

/* Adds every language of data file `file` to im as a document. */
static int add_file(jr_import_t *im, const char *file)
{
    apr_pool_t *p = im->c.p;
    json_t *data;
    const char *msg, **langs;
    int nlangs, l, k;

    /* Read once: the module's loader judges the bytes, the tree is made
     * of the same bytes. */
    if ((data = pc_load_data(&msg, &langs, &nlangs, file, file, p)) == NULL) {
        return pc_jr_fail(&im->c, "%s", msg);
    }
    drop_unmapped(im, data);
    for (l = 0; l < nlangs; l++) {
        for (k = 0; k < im->n; k++) {
            if (strcmp(im->langs[k], langs[l]) == 0) {
                json_decref(data);
                return pc_jr_fail(&im->c, "%s and %s both have language %s: "
                                  "merge joins files of different "
                                  "languages", im->files[k], file, langs[l]);
            }
        }
        if (im->n == JR_MAX_LANGS) {
            json_decref(data);
            return pc_jr_fail(&im->c, "at most %d languages", JR_MAX_LANGS);
        }
        im->langs[im->n] = apr_pstrdup(p, langs[l]);
        im->files[im->n] = file;
        /* Untranslated texts read as missing, not filled from the file's
         * fallback: the join writes them without that language, served
         * from the merged file's fallback, and notes them. */
        im->docs[im->n] = pc_jr_export_doc(&im->c, data, langs[l], 0);
        im->n++;
    }
    json_decref(data);
    return 0;
}

int pc_cmd_merge(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"output", 'o', 1, "the data file to write (-: standard output)"},
        {"strict", 257, 0, "refuse what the mapping would drop"},
        {NULL, 0, 0, NULL}
    };
    jr_import_t im;
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *out = NULL;
    const char **inputs;
    int optch, i, status = PC_EXIT_USAGE;

    pc_jr_import_init(&im, "merge");
    os = pc_getopt(argc, argv, im.c.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'o') {
            out = optarg;
        }
        else {
            im.strict = 1;
        }
    }
    if (rv != APR_EOF || argc - os->ind < 2) {
        status = pc_fail(im.c.cmd, MERGE_USAGE, pc_progname);
        apr_pool_destroy(im.c.p);
        return status;
    }
    inputs = apr_pcalloc(im.c.p, (argc - os->ind + 1) * sizeof(*inputs));
    for (i = os->ind; i < argc; i++) {
        inputs[i - os->ind] = os->argv[i];
        if (add_file(&im, os->argv[i]) < 0) {
            goto leave;
        }
    }
    status = pc_jr_import_docs(&im, out, inputs);
leave:
    return pc_jr_import_end(&im, status);
}
