/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jsonresume.h -- profilectl's JSON Resume commands (docs/jsonresume.md).
 *
 *   profilectl import-jsonresume FILE... [--lang-order L1,L2,...] [-o OUT]
 *   profilectl export-jsonresume FILE [--lang L] [-o OUT]
 *
 * argv[0] is the command's name.  Each returns the process's exit status:
 * 0 done, 1 the input or the output failed, 2 a usage error.  Messages go
 * to stderr as "profilectl COMMAND: ...".
 *
 * They are defined in pc_import.c and pc_export.c; the files they share
 * are listed in pc_jr.h (private to them).
 */
#ifndef PC_JSONRESUME_H
#define PC_JSONRESUME_H

int pc_cmd_import_jsonresume(int argc, char **argv);
int pc_cmd_export_jsonresume(int argc, char **argv);

#endif
