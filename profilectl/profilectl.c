/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profilectl.c -- a stand-in main() for the jsonresume branch: it
 * dispatches only the two JSON Resume commands so they can be built and
 * tested here.  The real profilectl.c (all commands, usage, man page) is
 * written in the profilectl branch and replaces this file at the merge.
 */
#include <stdio.h>
#include <string.h>

#include "pc_jsonresume.h"

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "import-jsonresume") == 0) {
        return pc_cmd_import_jsonresume(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], "export-jsonresume") == 0) {
        return pc_cmd_export_jsonresume(argc - 1, argv + 1);
    }
    fprintf(stderr, "usage: profilectl import-jsonresume|export-jsonresume"
            " ...\n");
    return 2;
}
