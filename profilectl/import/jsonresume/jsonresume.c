/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/jsonresume/jsonresume.c -- profilectl import-jsonresume: merges
 * one JSON Resume document (schema v1.x) per language into one data
 * file (CONTRACT §9), bilingual where the languages differ, and checks
 * the result with the module's own loader.  This file holds the command:
 * its arguments and the files it reads (import/read.c); the documents go
 * to the import's common stages (import/import.h) as they are.
 *
 * The mapping both ways, and what each direction drops, is documented in
 * docs/jsonresume.md and profilectl.1 (JSON RESUME MAPPING).
 */
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>

#include "import/import.h"
#include "import/jsonresume/jsonresume.h"

#define IMPORT_USAGE "usage: %s import-jsonresume [--lang-order L1,L2,...] " \
    "[--languages L1,L2,...] [--strict] [--json] [-o OUT] RESUME.json..."

/* Returns the exit status; the problems are im->c.problems (or, before
 * the files are read, im->c.err), not printed. */
static int import_run(jr_import_t *im, const char *order, const char *out)
{
    const char *inputs[JR_MAX_LANGS + 1];
    int l, unreadable = 0;

    for (l = 0; l < im->n; l++) {
        inputs[l] = im->files[l];
    }
    inputs[im->n] = NULL;
    if (pc_jr_import_langs(im, order) < 0) {
        return PC_EXIT_USAGE;
    }
    /* From here on, every problem of every file. */
    im->c.problems = apr_array_make(im->c.p, 8, sizeof(const char *));
    for (l = 0; l < im->n; l++) {
        if (pc_jr_load_doc(im, l) < 0) {
            unreadable = 1;
        }
    }
    if (unreadable) {
        return PC_EXIT_USAGE;
    }
    return pc_jr_import_docs(im, out, inputs);
}

int pc_cmd_import_jsonresume(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang-order", 256, 1, "the languages of the files, in order"},
        {"output", 'o', 1, "the data file to write (-: standard output)"},
        /* --strict sets im.strict; the mapping decides what it refuses. */
        {"strict", 257, 0, "refuse what the mapping would drop"},
        {"json", 258, 0, "the report as JSON on standard output"},
        {"languages", 259, 1, "the data file's languages, default first"},
        {NULL, 0, 0, NULL}
    };
    jr_import_t im;
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *order = NULL, *out = NULL;
    int optch, i;

    pc_jr_import_init(&im, "import-jsonresume");
    os = pc_getopt(argc, argv, im.c.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        switch (optch) {
        case 256: order = optarg; break;
        case 'o': out = optarg; break;
        case 257: im.strict = 1; break;
        case 258: im.json = 1; break;
        case 259: im.declare = optarg; break;
        }
    }
    if (rv != APR_EOF || os->ind >= argc) {
        im.json = 0;
        return pc_jr_import_end(&im, pc_fail(im.c.cmd, IMPORT_USAGE,
                                             pc_progname));
    }
    if (argc - os->ind > JR_MAX_LANGS) {
        im.json = 0;
        return pc_jr_import_end(&im, pc_fail(im.c.cmd, "at most %d files",
                                             JR_MAX_LANGS));
    }
    if (im.json && (out == NULL || strcmp(out, "-") == 0)) {
        im.json = 0;
        return pc_jr_import_end(&im, pc_fail(im.c.cmd, "--json prints the "
                                             "report on standard output: "
                                             "name the data file with -o "
                                             "FILE"));
    }
    for (i = os->ind; i < argc; i++) {
        im.files[im.n++] = os->argv[i];
    }
    /* One file and several languages: a file that holds every language
     * ({"en": ..., "de": ...} texts), read once per language. */
    if (im.n == 1 && order != NULL) {
        for (i = 0; order[i]; i++) {
            if (order[i] == ',' && im.n < JR_MAX_LANGS) {
                im.files[im.n++] = im.files[0];
            }
        }
    }
    return pc_jr_import_end(&im, import_run(&im, order, out));
}
