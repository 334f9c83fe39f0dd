/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/stages.h -- what the stages of the import share (import.h
 * lists them and the order of their calls); private to import/.
 * Functions and tables shared between the files are named pc_jr_*;
 * everything else is static.
 */
#ifndef PC_IMPORT_STAGES_H
#define PC_IMPORT_STAGES_H

#include "import/import.h"

/* What the import reads of an entry, and how it checks it. */
typedef struct {
    const char *key;
    char type;                  /* 's' string, 'd' date, 'l' strings,
                                 * '*' anything */
    int mapped;                 /* 0: not imported (counted) */
    const char *alias_of;       /* an older name of this member */
} jr_key_t;

/* The most entries per language that pair by dates when the languages'
 * counts differ (import/pair.c: a table of n0 x n1). */
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

/* ids.c */
const char *pc_jr_make_id(apr_hash_t *taken, const char *name,
                          const char *date, const char *fallback,
                          apr_pool_t *p);
const char *pc_jr_kind_of(const char *network, apr_pool_t *p);

/* import/members.c */
extern const jr_key_t pc_jr_basics_keys[], pc_jr_location_keys[];
extern const jr_array_t pc_jr_profiles_array, pc_jr_work_array,
    pc_jr_education_array, pc_jr_skills_array, pc_jr_projects_array;
int pc_jr_check_doc(jr_import_t *im, int l);
const jr_key_t *pc_jr_find_key(const jr_key_t *keys, const char *k);
/* The member of `keys` that member k of an entry means, under another
 * case or spelling (StartDate, start_date, GPA) or a name people give it
 * (category for a skill's name, names for its keywords, title for a
 * position): NULL when none. */
const char *pc_jr_member_meant(const jr_key_t *keys, const char *k);

/* import/check_dates.c: checks date member k of an entry (`at`:
 * "$.work[2]"; `path`: "work[]") of document l and rewrites it as an ISO
 * date.  Returns the new value (NULL: remove it, an ongoing end), or v
 * itself with a problem set and *bad. */
json_t *pc_jr_check_date(jr_import_t *im, int l, json_t *v, const char *at,
                         const char *path, const char *k, int *bad);

/* import/check_entry.c */
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

/* import/check_values.c: member k of entry e (`at`: "$.work[2]"; `path`:
 * "work[]") as the check expects it (type 's' a string, 'l' an array of
 * strings), from what people write there: a per-language object (the
 * text of document l's language), a number, an array of strings for a
 * text (paragraphs), a list of numbers, objects or arrays (flattened).
 * Each change is noted (pc_jr_assume).  Returns -1 with a problem set
 * when the value cannot be read so. */
int pc_jr_coerce(jr_import_t *im, int l, json_t *e, const char *k,
                 char type, const char *at, const char *path);

/* write_contact.c */
int pc_jr_import_contact(jr_import_t *im, json_t **basics, json_t *out);
/* pair.c */
const char *pc_jr_entry_label(json_t *e, const jr_array_t *a,
                              apr_pool_t *p);
/* The entries of every language in rows (im->n indexes each, -1 where a
 * language has none), in the first language's order; *nrows rows. */
long *pc_jr_line_up(jr_import_t *im, json_t **arrs, const jr_array_t *a,
                    size_t *nrows);
/* Notes an entry that some languages lack (idx: its row), and copies
 * the dates of paired entries where only one gives them. */
void pc_jr_note_row(jr_import_t *im, json_t **entries, const jr_array_t *a,
                    const long *idx);

/* write_array.c: */
/* Fills entry e of the data file from entries (one per language); `w`
 * names them in messages. */
typedef int (*jr_fill_fn)(jr_import_t *im, json_t **entries,
                          const char *w, json_t *e);
int pc_jr_import_array(jr_import_t *im, json_t **parents,
                       const jr_array_t *a, json_t *out, const char *to,
                       const char *id_fallback, jr_fill_fn fill);

/* import/write_text.c: each returns a new text value, or NULL with the
 * problem set (pc_jr_fail).  From one language, a text people read is
 * language-tagged ({"en": ...}: a language added later shows it
 * untranslated); pc_jr_name is for what is the same in every language
 * on purpose (names of people, companies, schools). */
json_t *pc_jr_text(jr_import_t *im, json_t **entries, const char *key,
                   const char *where);
json_t *pc_jr_name(jr_import_t *im, json_t **entries, const char *key,
                   const char *where);
/* import/names.c: whether name s, written in one language, is made of
 * the language's words ("Problem-solving", "Critical Thinking",
 * "Leadership", "public speaking"), which are translated, rather than a
 * name the same in every language (Kubernetes, Go, C++, PostgreSQL,
 * Spring Boot). */
int pc_jr_translatable_name(const char *s);

/* A title: a name when one word that reads as one ("Ledger", "Kafka";
 * plain from one language), else a text people read ("Payments
 * platform", "Wind-farm telemetry migration"). */
json_t *pc_jr_title(jr_import_t *im, json_t **entries, const char *key,
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

/* import/write_extras.c: what a person has beyond the specification's
 * fields (CONTRACT §9, revised 2026-11-28), and the dates of records. */
extern const jr_array_t pc_jr_certificates_array, pc_jr_languages_array;
/* The members of an entry of section `certificates` or `languages`
 * (NULL for another), and the member of theirs that member k means
 * under a name people give it (`same` compares names), or NULL. */
const jr_key_t *pc_jr_extras_keys(const char *section);
const char *pc_jr_extras_meant(const jr_key_t *keys, const char *k,
                               int (*same)(const char *, const char *));
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


/* languages.c: */
/* The importers' --languages (im->declare), on the data file `doc` they
 * made: it must name every language imported; "languages" becomes the
 * list, and a language that has no document makes the first imported
 * language the fallback (im->lacking).  0, or -1 with the problem set. */
int pc_langs_declare(jr_import_t *im, json_t *doc);

#endif
