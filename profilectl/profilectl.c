/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profilectl.c -- the profile owner's tool: the command table, help,
 * and what the commands share (the pool, messages, loading a file the
 * way the module does).  The commands are in pc_*.c; the manual is
 * profilectl.1.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_general.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profilectl.h"
#include "common/common.h"
#include "profile_estimate.h"
#include "import/jsonresume/jsonresume.h"
#include "export/export.h"
#include "import/linkedin/linkedin.h"
#include "po/po.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} pc_command_t;

static const pc_command_t commands[] = {
    {"check", pc_cmd_check, "check [--json] FILE...\n"
     "      every problem of each data file, in file order"},
    {"show", pc_cmd_show, "show [-i] [--lang L] [--coding gzip|br|identity]\n"
     "      [--query 'q=...'] [--base PATH] FILE ROUTE\n"
     "      what the API sends for ROUTE (e.g. /skills, /experience/ID)"},
    {"diff", pc_cmd_diff, "diff OLD NEW\n"
     "      the representations (route, language, coding) whose ETag a\n"
     "      change from OLD to NEW changes, added or removes"},
    {"new", pc_cmd_new, "new [--languages en,es] [--force] [FILE]\n"
     "      a blank, valid data file (to FILE, or to standard output)"},
    {"add-language", pc_cmd_add_language, "add-language L FILE\n"
     "      declares language L in FILE, with the first language as the\n"
     "      fallback that stands in until a text is translated"},
    {"import-jsonresume", pc_cmd_import_jsonresume,
     "import-jsonresume [--lang-order L1,L2,...] [--languages L1,L2,...]\n"
     "      [--strict] [-o FILE] RESUME.json...\n"
     "      one data file from one JSON Resume document per language\n"
     "      (--languages: the file's languages, more than the documents')"},
    {"export-jsonresume", pc_cmd_export_jsonresume,
     "export-jsonresume [--lang L] [-o FILE] FILE\n"
     "      one language of a data file as a JSON Resume document"},
    {"import-linkedin", pc_cmd_import_linkedin,
     "import-linkedin [--lang L] [--languages L1,L2,...] [--name NAME]\n"
     "      [--strict] [-o FILE] EXPORT\n"
     "      a data file from a LinkedIn data export (its ZIP or folder)"},
    {"merge", pc_cmd_merge, "merge [--strict] [-o FILE] FILE FILE...\n"
     "      data files of different languages as one"},
    {"untranslated", pc_cmd_untranslated,
     "untranslated [--lang L] [--po F.po] [--json] FILE\n"
     "      each text missing or empty in a language, by record and field;\n"
     "      with --po, also each translation F.po shows to be stale"},
    {"export-po", pc_cmd_export_po,
     "export-po (--lang L [--previous OLD.po] | --template) [-o OUT] FILE\n"
     "      the texts as a gettext PO file for translators (Poedit,\n"
     "      Weblate...), stale translations marked fuzzy; --template:\n"
     "      the template (POT) without translations, for Weblate, msginit"},
    {"import-po", pc_cmd_import_po,
     "import-po [--lang L] F.po FILE [-o OUT]\n"
     "      a PO file's translations put into the data file; a stale one\n"
     "      (fuzzy, or its source changed) withdrawn, the fallback served"},
    {NULL, NULL, NULL}
};

static void usage(FILE *out)
{
    const pc_command_t *c;

    fprintf(out, "usage: %s COMMAND [ARGS]\n\n"
            "The tools of a mod_profile data file's owner (%s(1)).\n\n"
            "commands:\n", pc_progname, pc_progname);
    for (c = commands; c->name; c++) {
        fprintf(out, "  %s %s\n", pc_progname, c->usage);
    }
    fprintf(out, "  %s COMMAND --help\n"
            "  %s help | --help | --version | -V\n", pc_progname,
            pc_progname);
}

/* "--help" among a command's arguments (before any "--"). */
static int asks_help(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const pc_command_t *c;

    /* A file larger than RLIMIT_FSIZE is a write error (EFBIG) that the
     * writer reports, not a signal that leaves its temporary file. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2 || strcmp(argv[1], "help") == 0
        || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return pc_stdout_done("help", argc < 2 ? PC_EXIT_USAGE
                                               : PC_EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("%s %s\n", pc_progname, PACKAGE_VERSION);
        return pc_stdout_done("--version", PC_EXIT_OK);
    }
    for (c = commands; c->name; c++) {
        if (strcmp(argv[1], c->name) != 0) {
            continue;
        }
        if (asks_help(argc - 1, argv + 1)) {
            printf("usage: %s %s\n", pc_progname, c->usage);
            return pc_stdout_done(c->name, PC_EXIT_OK);
        }
        return pc_stdout_done(c->name, c->run(argc - 1, argv + 1));
    }
    fprintf(stderr, "%s: unknown command \"%s\"\n\n", pc_progname, argv[1]);
    usage(stderr);
    return PC_EXIT_USAGE;
}
