/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/jsonresume/jsonresume.h -- import-jsonresume
 * (import/jsonresume/jsonresume.c): JSON Resume documents, one per
 * language, read (import/read.c) and handed to the import's common
 * stages (import/import.h) as they are.  docs/jsonresume.md documents
 * the mapping.
 */
#ifndef PC_IMPORT_JSONRESUME_H
#define PC_IMPORT_JSONRESUME_H

int pc_cmd_import_jsonresume(int argc, char **argv);

#endif
