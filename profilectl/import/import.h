/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/import.h -- the import's common stages, as the formats use them
 * (import/jsonresume/, import/linkedin/, and merge): every import makes
 * JSON Resume documents, one per language (im->docs), and ends in
 * pc_jr_import_docs, so that every import checks, pairs and writes the
 * same way.  The stages, each calling only those below it:
 *
 *   write.c          pc_jr_import_docs: the documents checked, their
 *                    entries paired, the data file written (with
 *                    write_text.c, write_contact.c, write_extras.c,
 *                    languages.c: --languages)
 *   pair.c           the entries of every language lined up (ids.c:
 *                    the ids and kinds the import makes)
 *   check_doc.c      a document's members, its sections and what people
 *                    name them (check_entry.c an entry's members,
 *                    check_dates.c and check_values.c their values;
 *                    links.c the links; members.c the members read)
 *   read.c           the languages of the files; each file parsed
 *   report.c         what an import says: its assumptions, what was not
 *                    imported, its summary line, --json
 *
 * Their shared declarations are import/stages.h, private to this folder.
 * Below: texts/ (the languages a data file declares) and common/.
 */
#ifndef PC_IMPORT_H
#define PC_IMPORT_H

#include <apr_hash.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_url.h"
#include "common/common.h"


typedef struct {
    jr_ctx_t c;
    int n;                      /* languages, one document each */
    int strict;                 /* --strict: what is not imported is a
                                 * problem */
    const char *langs[JR_MAX_LANGS];
    const char *files[JR_MAX_LANGS];
    json_t *docs[JR_MAX_LANGS];
    apr_array_header_t *dropped; /* "work[].summary", in order seen */
    apr_hash_t *dropped_seen;   /* member -> int *: how many */
    const char *label;          /* " (Acme, 2019-04 – present)": the
                                 * entry being imported, for messages */
    apr_array_header_t *notes;  /* "FILE: $.path: what was assumed" */
    int absent[JR_MAX_LANGS];   /* while an entry is filled: the
                                 * languages that have no such entry */
    int lacking;                /* a text was written without a language
                                 * (an entry it has not): the data file
                                 * names the first language its
                                 * fallback (CONTRACT §9) */
    int json;                   /* --json: the report on stdout */
    const char *declare;        /* --languages: the data file's
                                 * languages (pc_langs_declare) */
    const char *out;            /* the data file written ("-": stdout) */
    json_t *result;             /* the data file made (for the summary) */
    json_t *links;              /* the data file's contact.links while
                                 * its case studies are made (their
                                 * links: pc_jr_project_link) */
    /* import/check_dates.c, per document: whether its dates were looked
     * at, the orders of day and month they tell (JR_ORDER_* bits), and
     * the first date telling each (by bit). */
    int dates_seen[JR_MAX_LANGS];
    int date_order[JR_MAX_LANGS];
    const char *date_told[JR_MAX_LANGS][4];
} jr_import_t;

/* report.c: a new import command in im (its pool made). */
void pc_jr_import_init(jr_import_t *im, const char *cmd);
/* Records what the import assumed of document l (-1: of none): one note
 * line (stderr and --json), never silent. */
void pc_jr_assume(jr_import_t *im, int l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Why member `what` (as pc_jr_drop counted it) was not imported: it
 * has no home in the data file, or what made it no value the file may
 * hold. */
const char *pc_jr_drop_reason(const char *what);
/* Prints the notes and the summary line (records by collection,
 * assumptions, what was not imported), or with --json the report, after
 * a data file was written; status is the command's. */
void pc_jr_report(jr_import_t *im, int status);

/* The end of every import command: on failure, its problems one line
 * each and how many (or its one error) on stderr; frees the documents
 * and the command's pool.  Returns status. */
int pc_jr_import_end(jr_import_t *im, int status);

/* write.c: checks the documents im->docs and writes the data file
 * (one language each, in order im->langs); returns the exit status, the
 * problems in im->c.problems.  im->dropped and im->dropped_seen must be
 * made. */
int pc_jr_import_docs(jr_import_t *im, const char *out,
                      const char *const *inputs);

/* report.c: counts n more of member `what` as not imported. */
void pc_jr_drop(jr_import_t *im, const char *what, int n);
/* The members not imported, "work[].summary (2), ...". */
const char *pc_jr_dropped_list(jr_import_t *im);

/* read.c */
int pc_jr_import_langs(jr_import_t *im, const char *order);
int pc_jr_load_doc(jr_import_t *im, int l);


/* links.c: */
/* u as a link of the data file (CONTRACT §9, profile_url.h): trimmed,
 * and with "https:" before "//host/x", "https://" before a host without
 * a scheme ("example.com/x", "example.com:8080"; with `bare`, before
 * anything without one, as a field that only holds websites means).
 * Returns it (in p; "" for nothing), or NULL with *why saying what it
 * is: every import leaves out, and counts, what the module refuses. */
const char *pc_jr_link(const char *u, int bare, profile_url_e *why,
                       apr_pool_t *p);
/* Why a link was left out, for the "not imported" summary:
 * "relative", "not an https, http, mailto or tel URL". */
const char *pc_jr_link_dropped(profile_url_e why);

#endif
