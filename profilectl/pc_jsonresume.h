/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jsonresume.h -- profilectl's JSON Resume commands (docs/jsonresume.md).
 *
 *   profilectl import-jsonresume [--lang-order L1,L2,...] [-o OUT] FILE...
 *   profilectl export-jsonresume [--lang L] [-o OUT] FILE
 *
 * argv[0] is the command's name.  Each returns the process's exit status
 * (profilectl.h, PC_EXIT_*): 0 done, 1 problems in the documents
 * (import), 2 a usage error, an input that cannot be read or used, or
 * output that cannot be written.  Messages go to stderr as
 * "profilectl COMMAND: ..." (pc_fail); files are written by pc_write.
 *
 * They are defined in pc_import.c and pc_export.c; the files they share
 * are listed in pc_jr.h (private to them).
 */
#ifndef PC_JSONRESUME_H
#define PC_JSONRESUME_H

int pc_cmd_import_jsonresume(int argc, char **argv);
int pc_cmd_export_jsonresume(int argc, char **argv);

#endif
