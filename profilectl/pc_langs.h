/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_langs.h -- the languages a data file declares and its fallback
 * (CONTRACT §9), as profilectl changes them (pc_langs.c): add-language,
 * the importers' --languages, and import-po when it withdraws a stale
 * translation.
 */
#ifndef PC_LANGS_H
#define PC_LANGS_H

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "pc_jr.h"

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

/* The importers' --languages (im->declare), on the data file `doc` they
 * made: it must name every language imported; "languages" becomes the
 * list, and a language that has no document makes the first imported
 * language the fallback (im->lacking).  0, or -1 with the problem set. */
int pc_langs_declare(jr_import_t *im, json_t *doc);

#endif
