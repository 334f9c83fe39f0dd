/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_schema.h -- the data file's fields (CONTRACT §9): one table per
 * object, and the collections with the fields the filters search.  The
 * single description of the API's fields, shared by the validator
 * (profile_validate.c), which checks a file against it, and the
 * serializer (profile_render.c), which writes fields in its order.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_SCHEMA_H
#define PROFILE_SCHEMA_H

#include <jansson.h>

#include "profile_store.h"

typedef enum {
    PROFILE_K_TEXT,     /* a string, or an object: one string per language */
    PROFILE_K_TEXTLIST, /* an array of PROFILE_K_TEXT, or an object: one
                         * array of plain strings per language */
    PROFILE_K_ID,       /* a plain string matching the id pattern */
    PROFILE_K_KIND,     /* a plain string matching the kind pattern */
    PROFILE_K_URL,      /* a plain string: empty or a link (profile_url.h) */
    PROFILE_K_OBJECT,   /* an object described by `sub` */
    PROFILE_K_OBJLIST,  /* an array of objects described by `sub` */
    PROFILE_K_LANGS,    /* the optional "languages" declaration */
    PROFILE_K_SCHEMA,   /* the optional "$schema" (for editors; ignored) */
    PROFILE_K_FALLBACK, /* the optional "fallback": a declared language */
    PROFILE_K_DATE      /* an optional date, YYYY or YYYY-MM (start, end):
                         * no API field; a record with a start may omit
                         * its period, written from the dates */
} profile_kind_e;

/* One field of an object; a table of them ends with a NULL name. */
typedef struct profile_field {
    const char *name;
    profile_kind_e kind;
    const struct profile_field *sub;
} profile_field_t;

/* The whole file, the "profile" object and the "contact" object.  The
 * order of a table is the order fields appear in responses (the
 * specification's tables). */
extern const profile_field_t profile_schema_top[];
extern const profile_field_t profile_schema_profile[];
extern const profile_field_t profile_schema_contact[];

/* The collections, in profile_coll_e order, with the fields the filters
 * search (CONTRACT §8 rule 5). */
typedef struct {
    const char *key;            /* the member of the file */
    const profile_field_t *fields;
    const char *search[3];      /* NULL-ended */
    int alone;                  /* elements are served alone, by id */
} profile_schema_coll_t;

extern const profile_schema_coll_t profile_schema_colls[PROFILE_COLL_COUNT];

/* A text value (PROFILE_K_TEXT) in language `lang`: the string itself,
 * or its translation. */
json_t *profile_schema_text(json_t *v, const char *lang);

/* The same as served (CONTRACT §9): where the object lacks `lang`, the
 * value in `fallback` (the file's "fallback"; NULL: none), and then
 * *fell is set to 1 (it is left alone otherwise). */
json_t *profile_schema_served(json_t *v, const char *lang,
                              const char *fallback, int *fell);

/* A list of text values (PROFILE_K_TEXTLIST) in language `lang`: the
 * array itself, whose items are text values, or that language's array,
 * whose items are plain strings.  Either way, item i in `lang` is
 * profile_schema_text(json_array_get(list, i), lang). */
json_t *profile_schema_textlist(json_t *v, const char *lang);

/* The same as served: where an object of per-language arrays lacks
 * `lang`, the fallback's array, setting *fell to 1.  Its items are then
 * served with profile_schema_served(item, lang, fallback, fell). */
json_t *profile_schema_served_list(json_t *v, const char *lang,
                                   const char *fallback, int *fell);

/* The file's fallback language (its top-level "fallback"), once
 * validated: the index in langs[], or -1 without one. */
int profile_schema_fallback(json_t *root, const char *const *langs,
                            int nlangs);

/* Whether `s` matches the pattern of `kind` (CONTRACT §9): an id
 * (PROFILE_K_ID) [A-Za-z0-9][A-Za-z0-9._~-]*, a kind (PROFILE_K_KIND)
 * [a-z][a-z0-9-]*. */
int profile_schema_pattern(const char *s, profile_kind_e kind);

/* What JSON value v is, for messages: "an object", "a string", ... */
const char *profile_schema_type_name(const json_t *v);

/* The field `name` of the table `fields`, or NULL. */
const profile_field_t *profile_schema_field(const profile_field_t *fields,
                                            const char *name);

/* Whether a document the validator refused is a JSON Resume (an object
 * with "basics" or "work", or a jsonresume "$schema"), and neither a
 * "profile" nor a data file's "languages" (a list of tags; JSON
 * Resume's is a list of objects): the loader then says so in one problem
 * instead of one per unknown key. */
int profile_schema_is_jsonresume(json_t *root);

#endif
