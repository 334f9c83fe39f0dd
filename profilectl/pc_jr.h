/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jr.h -- what the files of profilectl's JSON Resume commands share;
 * private to them (the commands themselves are in pc_jsonresume.h).
 *
 *   pc_jr_common.c     the context of a command, its messages and output
 *   pc_jr_dates.c      dates as people write them; text folded for
 *                      comparison (utf8proc)
 *   pc_jr_period.c     the periods of the data file
 *   pc_import_names.c  the ids and kinds the import makes
 *   pc_import_members.c the members the import reads, and the names
 *                      people give them (experience, GPA, category...)
 *   pc_import_check.c  the checks of an entry's members
 *   pc_import_dates.c  the checks of an entry's dates, each read in the
 *                      order of day and month its file writes
 *   pc_import_values.c values as people give them: per-language
 *                      objects, lists of non-strings, texts as arrays
 *   pc_import_load.c   the languages of the files; each file parsed,
 *                      duplicate keys kept last
 *   pc_import_contact.c the contacts and links of basics
 *   pc_import_report.c what an import says: its assumptions, its summary
 *                      line, --json
 *   pc_import_align.c  the entries of every language lined up
 *   pc_import_text.c   text values from one string per language
 *   pc_import_extras.c what a person has beyond the specification's
 *                      fields, where CONTRACT §9 has a home for it
 *                      (certificates, languages, location, project
 *                      links), and the dates of records (start, end)
 *   pc_export_extras.c the same back to JSON Resume
 *   pc_import.c        import-jsonresume and its mapping
 *   pc_export.c        export-jsonresume and its mapping
 *
 * Functions and tables shared between the files are named pc_jr_*;
 * everything else is static.  import-linkedin and merge (pc_linkedin.h)
 * end in pc_jr_import_docs too, so that every import pairs the same way.
 */
#ifndef PC_JR_H
#define PC_JR_H

#include <apr_hash.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_url.h"

#define JR_SEP " \xc2\xb7 "             /* " · " joins parts of a text */
#define JR_MAX_LANGS 16
#define SZ "%" APR_SIZE_T_FMT      /* APR's formatter has no %zu */

/* ------------------------------------------------------------ common */

typedef struct {
    apr_pool_t *p;
    const char *cmd;            /* "import-jsonresume" */
    const char *err;            /* the last problem */
    apr_array_header_t *problems; /* when set: every problem, in order */
} jr_ctx_t;

/* Sets c->err from fmt, and adds it to c->problems when set; returns
 * -1. */
int pc_jr_fail(jr_ctx_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void pc_jr_note(jr_ctx_t *c, const char *msg);
/* Returns PC_EXIT_OK, or PC_EXIT_USAGE with the problem printed. */
int pc_jr_write_json(jr_ctx_t *c, json_t *root, const char *out,
                     const char *const *inputs);
const char *pc_jr_str(json_t *obj, const char *key);

/* s case-folded, compatibility-decomposed and without accents (utf8proc),
 * in p: "Ábril" -> "abril".  s itself when utf8proc cannot map it. */
const char *pc_jr_unaccent(const char *s, apr_pool_t *p);
void pc_jr_set_str(json_t *obj, const char *key, const char *s);
/* The n items joined with sep. */
const char *pc_jr_join(int n, const char **items, const char *sep,
                       apr_pool_t *p);

/* ------------------------------------------------------------ dates */

int pc_jr_is_date(const char *s);
/* What pc_jr_read_date assumed, as a reader does (bits). */
#define JR_DATE_MONTH 1         /* a day its month does not have
                                 * (2022-02-30): the month */
#define JR_DATE_REMARK 2        /* a remark in parentheses after it
                                 * ("Present (part-time)"): left out */
#define JR_DATE_SINCE 4         /* a start after a word for since
                                 * ("Depuis 2023"): the date */
#define JR_DATE_ORDER 8         /* day and month that cannot be told
                                 * apart, read in the order given
                                 * (pc_jr_read_date_in) */
/* The order of day and month in a numeric date (bits): the day first
 * (31-03-2025), the month first (03-31-2025); after a year (2025/31/03)
 * the same shifted by JR_ORDER_AFTER_YEAR. */
#define JR_ORDER_DAY 1
#define JR_ORDER_MONTH 2
#define JR_ORDER_AFTER_YEAR(o) ((o) << 2)
/* Reads a date as people write it (pc_jr_date_forms) into *iso: YYYY,
 * YYYY-MM or YYYY-MM-DD, or "" for none (an empty text, or with `end` a
 * word for now).  Returns 0, or the JR_DATE_* bits of what it assumed;
 * -1 when it is not a date, -2 when day and month cannot be told apart
 * (03/04/2020; 01/01/2020 can), -3 for a word for now that is not an
 * end. */
int pc_jr_read_date(const char **iso, const char *text, int end,
                    apr_pool_t *p);
/* pc_jr_read_date, and a date whose day and month cannot be told apart
 * read in `order` (JR_ORDER_* bits; neither or both: -2), returning
 * JR_DATE_ORDER; *told is the order a number over 12 tells (31-03-2025:
 * JR_ORDER_DAY), else 0. */
int pc_jr_read_date_in(const char **iso, const char *text, int end,
                       int order, int *told, apr_pool_t *p);
/* Whether text is a word for now ("Present", "actualidad"). */
int pc_jr_is_now(const char *text, apr_pool_t *p);
extern const char *const pc_jr_date_forms;
const char *pc_jr_format_period(const char *start, const char *end,
                                const char *lang, apr_pool_t *p);
int pc_jr_parse_period(const char **start, const char **end,
                       const char *text, apr_pool_t *p);

/* ------------------------------------------------------------ import */

/* What the import reads of an entry, and how it checks it. */
typedef struct {
    const char *key;
    char type;                  /* 's' string, 'd' date, 'l' strings,
                                 * '*' anything */
    int mapped;                 /* 0: not imported (counted) */
    const char *alias_of;       /* an older name of this member */
} jr_key_t;

/* The most entries per language that pair by dates when the languages'
 * counts differ (pc_import_align.c: a table of n0 x n1). */
#define JR_MAX_PAIRED 1000

/* An array of entries.  The entries of the languages pair by position;
 * with `by_dates`, their dates must agree too. */
typedef struct {
    const char *path;           /* "work", "basics.profiles" */
    const char *key;            /* its member: "work", "profiles" */
    const jr_key_t *keys;
    const char *name;           /* the key that names an entry */
    int by_dates;
} jr_array_t;

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
    /* pc_import_dates.c, per document: whether its dates were looked
     * at, the orders of day and month they tell (JR_ORDER_* bits), and
     * the first date telling each (by bit). */
    int dates_seen[JR_MAX_LANGS];
    int date_order[JR_MAX_LANGS];
    const char *date_told[JR_MAX_LANGS][4];
} jr_import_t;

/* pc_import_report.c: a new import command in im (its pool made). */
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

/* pc_import.c: checks the documents im->docs and writes the data file
 * (one language each, in order im->langs); returns the exit status, the
 * problems in im->c.problems.  im->dropped and im->dropped_seen must be
 * made. */
/* The end of every import command: on failure, its problems one line
 * each and how many (or its one error) on stderr; frees the documents
 * and the command's pool.  Returns status. */
int pc_jr_import_end(jr_import_t *im, int status);

int pc_jr_import_docs(jr_import_t *im, const char *out,
                      const char *const *inputs);

/* pc_export.c: language `lang` of data file `data` (valid) as a JSON
 * Resume document (new reference); notes go to c.  With `fill`, a text
 * the language lacks is the fallback's, as the API serves it; else ""
 * (merge: the join sees it missing). */
json_t *pc_jr_export_doc(jr_ctx_t *c, json_t *data, const char *lang,
                         int fill);

/* pc_import_names.c */
const char *pc_jr_make_id(apr_hash_t *taken, const char *name,
                          const char *date, const char *fallback,
                          apr_pool_t *p);
const char *pc_jr_kind_of(const char *network, apr_pool_t *p);

/* pc_import_members.c */
extern const jr_key_t pc_jr_basics_keys[];
extern const jr_array_t pc_jr_profiles_array, pc_jr_work_array,
    pc_jr_education_array, pc_jr_skills_array, pc_jr_projects_array;
int pc_jr_check_doc(jr_import_t *im, int l);
const jr_key_t *pc_jr_find_key(const jr_key_t *keys, const char *k);
/* The member of `keys` that member k of an entry means, under another
 * case or spelling (StartDate, start_date, GPA) or a name people give it
 * (category for a skill's name, names for its keywords, title for a
 * position): NULL when none. */
const char *pc_jr_member_meant(const jr_key_t *keys, const char *k);

/* pc_import_dates.c: checks date member k of an entry (`at`:
 * "$.work[2]"; `path`: "work[]") of document l and rewrites it as an ISO
 * date.  Returns the new value (NULL: remove it, an ongoing end), or v
 * itself with a problem set and *bad. */
json_t *pc_jr_check_date(jr_import_t *im, int l, json_t *v, const char *at,
                         const char *path, const char *k, int *bad);

/* pc_import_check.c */
/* Whether v holds anything (not null, "", [] or {}). */
int pc_jr_has_content(json_t *v);
int pc_jr_check_entry(jr_import_t *im, int l, json_t *e,
                      const jr_key_t *keys, const char *at,
                      const char *path);
int pc_jr_check_array(jr_import_t *im, int l, json_t *parent,
                      const jr_array_t *a);

/* "skills" given as an object of groups by name ({"backend": [...]}):
 * rewritten as JSON Resume's list of {name, keywords}, with a note. */
void pc_jr_skills_by_name(jr_import_t *im, int l, json_t *doc);

/* pc_import_values.c: member k of entry e (`at`: "$.work[2]"; `path`:
 * "work[]") as the check expects it (type 's' a string, 'l' an array of
 * strings), from what people write there: a per-language object (the
 * text of document l's language), a number, an array of strings for a
 * text (paragraphs), a list of numbers, objects or arrays (flattened).
 * Each change is noted (pc_jr_assume).  Returns -1 with a problem set
 * when the value cannot be read so. */
int pc_jr_coerce(jr_import_t *im, int l, json_t *e, const char *k,
                 char type, const char *at, const char *path);

/* pc_import_load.c */
int pc_jr_import_langs(jr_import_t *im, const char *order);
int pc_jr_load_doc(jr_import_t *im, int l);

/* pc_import_contact.c */
int pc_jr_import_contact(jr_import_t *im, json_t **basics, json_t *out);
const char *pc_jr_dropped_list(jr_import_t *im);
/* Counts n more of member `what` as not imported. */
void pc_jr_drop(jr_import_t *im, const char *what, int n);
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

/* pc_import_align.c */
const char *pc_jr_entry_label(json_t *e, const jr_array_t *a,
                              apr_pool_t *p);
/* Fills entry e of the data file from entries (one per language); `w`
 * names them in messages. */
typedef int (*jr_fill_fn)(jr_import_t *im, json_t **entries,
                          const char *w, json_t *e);
int pc_jr_import_array(jr_import_t *im, json_t **parents,
                       const jr_array_t *a, json_t *out, const char *to,
                       const char *id_fallback, jr_fill_fn fill);

/* pc_import_text.c: each returns a new text value, or NULL with the
 * problem set (pc_jr_fail).  From one language, a text people read is
 * language-tagged ({"en": ...}: a language added later shows it
 * untranslated); pc_jr_name is for what is the same in every language
 * on purpose (names of people, companies, schools). */
json_t *pc_jr_text(jr_import_t *im, json_t **entries, const char *key,
                   const char *where);
json_t *pc_jr_name(jr_import_t *im, json_t **entries, const char *key,
                   const char *where);
json_t *pc_jr_text2(jr_import_t *im, json_t **entries, const char *k1,
                    const char *k2, const char *where);
json_t *pc_jr_text_list(jr_import_t *im, json_t **entries,
                        const char *key, const char *where);
json_t *pc_jr_period(jr_import_t *im, json_t **entries, const char *before,
                     const char *where);
/* The label of a contact the import makes (`phone`, else e-mail) in
 * every language (English where no word is known). */
json_t *pc_jr_contact_label(jr_import_t *im, int phone);
/* A URL, address or phone: the same in every language; of two that
 * differ, the first language's (the other noted and counted); never
 * NULL. */
const char *pc_jr_neutral(jr_import_t *im, json_t **entries,
                          const char *key, const char *where);

/* pc_import_extras.c: what a person has beyond the specification's
 * fields (CONTRACT §9, revised 2026-11-28), and the dates of records. */
extern const jr_array_t pc_jr_certificates_array, pc_jr_languages_array;
/* The members of an entry of section `certificates` or `languages`
 * (NULL for another), and the member of theirs that member k means
 * under a name people give it (`same` compares names), or NULL. */
const jr_key_t *pc_jr_extras_keys(const char *section);
const char *pc_jr_extras_meant(const jr_key_t *keys, const char *k,
                               int (*same)(const char *, const char *));
/* The words the imports write and the export reads, in language `lang`
 * (English where none is known): JR_WORD_CERTIFICATION ("Certification",
 * a credential), JR_WORD_LANGUAGES ("Spoken languages", a skill group's
 * title), JR_WORD_LOCATION ("Location", a contact's label),
 * JR_WORD_CREDENTIAL_ID ("Credential ID", before a certificate's
 * number in its credential). */
enum {
    JR_WORD_CERTIFICATION, JR_WORD_LANGUAGES, JR_WORD_LOCATION,
    JR_WORD_CREDENTIAL_ID
};
const char *pc_jr_word(int which, const char *lang);
/* Checks document l's certificates, languages and basics.location (every
 * problem set; what cannot be placed counted). */
int pc_jr_check_extras(jr_import_t *im, int l, json_t *doc);
/* Sets e's start and end from entries' dates (CONTRACT §9: YYYY or
 * YYYY-MM) when every language gives the same; returns 1 when the
 * module writes the period from them in every language (no day, date
 * words in each language), else 0. */
int pc_jr_put_dates(jr_import_t *im, json_t **entries, json_t *e);
/* Adds the data file's certificates (to education), spoken languages
 * (a skill group) and location (a contact), from im->docs. */
int pc_jr_import_extras(jr_import_t *im, json_t *out);
/* A project's url as a link of kind project (im->links). */
int pc_jr_project_link(jr_import_t *im, json_t **entries, const char *w);

/* pc_export_extras.c: after pc_jr_export_doc made doc from data in
 * `lang`: certificates, languages, basics.location and projects' urls
 * taken from where the import put them.  `fallback` as the API
 * serves. */
void pc_jr_export_extras(json_t *doc, json_t *data, const char *lang,
                         const char *fallback, apr_pool_t *p);

#endif
