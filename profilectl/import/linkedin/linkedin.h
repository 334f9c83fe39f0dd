/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/linkedin.h -- import-linkedin and what its files
 * share.
 *
 *   read.c       reading an export: its profile CSV files, from the
 *                ZIP LinkedIn delivers (libzip) or its unpacked folder
 *   csv.c        each parsed as RFC 4180 CSV (libcsv).  Both link
 *                without profilectl.c, for the fuzz programs (with
 *                common/input.c).
 *   linkedin.c   import-linkedin: the export as a JSON Resume document,
 *                imported by pc_jr_import_docs (import/import.h;
 *                docs/linkedin.md); map.h what its mapping files share
 *   extras.c     certificates, languages, location, websites
 *   text.c       its texts: descriptions, spaces, websites' networks
 */
#ifndef PC_LINKEDIN_H
#define PC_LINKEDIN_H

#include <apr_hash.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

/* The most the reader takes of one file, and of all files together
 * (uncompressed): a guard against ZIP bombs. */
#define PC_LI_MAX_BYTES (64 * 1024 * 1024)

/* What the CSV in those bytes may hold: a row's fields (LinkedIn's files
 * have fewer than 30 columns), one file's rows, and the fields of all
 * files together (each costs memory beyond its bytes: an empty field is
 * one byte of input).  More is refused as not a LinkedIn export. */
#define PC_LI_MAX_FIELDS_PER_ROW 256
#define PC_LI_MAX_ROWS 100000
#define PC_LI_MAX_FIELDS (PC_LI_MAX_BYTES / 64)

typedef struct {
    int line;                   /* where the row starts (1: the header) */
    int n;                      /* fields */
    const char **f;
} pc_li_row_t;

typedef struct {
    const char *name;           /* "Positions.csv" */
    pc_li_row_t header;
    apr_array_header_t *rows;   /* pc_li_row_t, those with any text */
} pc_li_table_t;

/* The export's profile files that LinkedIn names, in the order the
 * import reports them; NULL-terminated.  No other file is read. */
extern const char *const pc_li_files[];

/* Parses CSV text (a UTF-8 BOM skipped; CRLF or LF; quoted fields may
 * span lines; the first row is the header) into *t, within the bounds
 * above.  Returns 0, or -1 with *err set: "NAME:LINE: what is wrong". */
int pc_li_parse_csv(pc_li_table_t **t, const char **err, const char *name,
                    const char *text, apr_size_t len, apr_pool_t *p);
/* pc_li_parse_csv, counting the fields against *budget (the fields the
 * whole export may still hold). */
int pc_li_parse_csv_within(pc_li_table_t **t, const char **err,
                           const char *name, const char *text,
                           apr_size_t len, apr_size_t *budget,
                           apr_pool_t *p);

/* Reads the export at `path`, a ZIP file or a folder: every file of
 * pc_li_files it holds (in a ZIP, possibly in a subfolder), into *files
 * (name -> pc_li_table_t *).  Returns 0, or -1 with *err set. */
int pc_li_read_export(apr_hash_t **files, const char **err,
                      const char *path, apr_pool_t *p);

/* The same from a ZIP archive in memory (the fuzz programs). */
int pc_li_read_zip_buffer(apr_hash_t **files, const char **err,
                          const char *label, const void *data,
                          apr_size_t len, apr_pool_t *p);

/* Column `col` of row r of t, or NULL when t has no such column. */
const char *pc_li_get(const pc_li_table_t *t, const pc_li_row_t *r,
                      const char *col);

int pc_cmd_import_linkedin(int argc, char **argv);

/* import/linkedin/text.c */
/* s (n bytes) with runs of spaces one space, none at either end. */
const char *pc_li_squeeze(const char *s, apr_size_t n, apr_pool_t *p);
/* A description's bullet lines appended to highlights (strings), the
 * rest (squeezed) in *context. */
void pc_li_split_description(const char **context, json_t *highlights,
                             const char *text, apr_pool_t *p);
/* The host of url, lowercased, without "www." (in p). */
const char *pc_li_host_of(const char *url, apr_pool_t *p);
/* The network a host belongs to ("GitHub"), or NULL. */
const char *pc_li_network_of(const char *host);

#endif
