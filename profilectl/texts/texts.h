/* SPDX-License-Identifier: Apache-2.0 */
/*
 * texts/texts.h -- the translatable texts of a data file (texts.c), as
 * untranslated, check, export-po and import-po see them: each text
 * value given per language, and each list given per language, under a
 * stable key made of its record and field (docs/translating.md, "Keys"):
 *
 *   profile headline              experience/acme-2019 role
 *   experience/acme-2019 highlights[2]   (an item of a list of texts)
 *   experience/acme-2019 highlights      (a list given per language)
 *   skills/backend title          education/mit degree
 *   contacts/email label          links/github text
 *
 * A plain string is the same in every language on purpose (CONTRACT
 * §9): it is listed (plain), never untranslated.
 *
 * And the languages a data file declares and its fallback (CONTRACT §9),
 * as profilectl changes them (texts/langs.c): add-language, the
 * importers' --languages, and import-po when it withdraws a stale
 * translation.  Over common/ only.
 */
#ifndef PC_TEXTS_H
#define PC_TEXTS_H

#include <apr_hash.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "common/common.h"

typedef enum {
    PC_TR_DONE,                 /* translated */
    PC_TR_MISSING,              /* the language has no value (fallback) */
    PC_TR_EMPTY,                /* "" (or []) for a non-empty source */
    PC_TR_NONE                  /* nothing to translate: a plain value,
                                 * or an empty source */
} pc_tr_state_e;

typedef struct {
    const char *key;            /* "experience/acme-2019 role" */
    const char *record;         /* "experience/acme-2019" */
    const char *field;          /* "role", "highlights[2]" */
    const char *path;           /* "$.experience[3].role" */
    json_t *parent;             /* the object or array holding it */
    const char *member;         /* its member in parent; NULL: index */
    size_t index;
    int list;                   /* a list given per language */
} pc_text_t;

typedef struct {
    const char *file;
    json_t *root;               /* the data file (the caller decrefs) */
    const char **langs;         /* declared, [0] the default */
    int nlangs;
    const char *fallback;       /* "fallback", or NULL */
    const char *source;         /* the fallback, else langs[0] */
    apr_array_header_t *texts;  /* pc_text_t, in file order */
    apr_hash_t *by_key;         /* key -> pc_text_t * */
} pc_texts_t;

/* Reads data file `file` for a translators' command: it must be one the
 * module loads, or one whose only problems are missing translations
 * (those the fallback allows: a language missing in a text or a list
 * given per language).  With `cmd`, a file that is neither has its
 * problems printed, as check prints them, and the command's message;
 * without, nothing is printed.  PC_EXIT_OK and *out, or PC_EXIT_USAGE. */
int pc_texts_load(pc_texts_t **out, const char *cmd, const char *file,
                  apr_pool_t *p);

/* pc_texts_load of a file the module is known to load (`valid`: as
 * check found it), without the copy that judges the others. */
int pc_texts_read(pc_texts_t **out, const char *cmd, const char *file,
                  int valid, apr_pool_t *p);
/* pc_texts_read of the bytes of a file already read (`in`, its path
 * naming it). */
int pc_texts_parse(pc_texts_t **out, const char *cmd, const pc_input_t *in,
                   int valid, apr_pool_t *p);

/* The value of t: a text value, or a list given per language. */
json_t *pc_text_value(const pc_text_t *t);

/* The text in `lang` (a list's items one per line), or NULL when it has
 * none; *state says how it stands against the source language's. */
const char *pc_text_get(pc_tr_state_e *state, const pc_texts_t *tx,
                        const pc_text_t *t, const char *lang,
                        apr_pool_t *p);

/* The source language's text (NULL: nothing to translate). */
const char *pc_text_source(const pc_texts_t *tx, const pc_text_t *t,
                           apr_pool_t *p);

/* The declared language `tag` names (case-insensitive; "es_MX" and
 * "es-MX" name "es" when the file has no "es-MX"), or NULL. */
const char *pc_texts_lang(const pc_texts_t *tx, const char *tag,
                          apr_pool_t *p);

/* Checks `lang` as the target of a translators' command: declared and
 * not the source.  NULL, or the problem. */
const char *pc_texts_target(const pc_texts_t *tx, const char *lang,
                            apr_pool_t *p);

/* ------------------------------------------------------------ languages */

/* s lowercased when it is a language tag (2 to 8 ASCII letters), else
 * NULL. */
const char *pc_lang_tag(const char *s, apr_pool_t *p);

/* The comma-separated tags of `list` (const char *), or NULL with *err
 * ("--languages ...: why"). */
apr_array_header_t *pc_lang_list(const char **err, const char *list,
                                 apr_pool_t *p);

/* Sets root[key] to v (stolen), placed after the leading "$schema" and
 * "languages" members, the rest of root in its order. */
void pc_langs_put(json_t *root, const char *key, json_t *v);

/* Writes data file `root` to `out` (pc_write) as profilectl writes data
 * files (two spaces, members in order) if the module's validator takes
 * it; else prints its problems, then "profilectl CMD: the data file
 * WHAT would not load in the module (HINT); nothing written", and
 * returns PC_EXIT_PROBLEMS. */
int pc_langs_write(const char *cmd, json_t *root, const char *out,
                   const char *const *inputs, const char *what,
                   const char *hint, apr_pool_t *p);

#endif
