/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_render.h -- the serializer: an object of the data file as the
 * compact JSON the API sends, in one language.
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_RENDER_H
#define PROFILE_RENDER_H

#include <apr_pools.h>
#include <jansson.h>

#include "profile_schema.h"

/* A growing buffer of rendered JSON: malloc'd (the caller frees buf),
 * to be copied into the store's pool once complete.  Starts zeroed but
 * for `pool`, whose abort function runs should memory run out, and
 * `fallback`. */
typedef struct {
    char *buf;
    apr_size_t len, cap;
    apr_pool_t *pool;
    const char *fallback;       /* the file's fallback language, served
                                 * where a text lacks the one rendered
                                 * (CONTRACT §9); NULL: none */
    int fell;                   /* set to 1 when a value was so served */
} profile_sbuf_t;

/* Out of memory: calls the abort function of pool p (httpd's logs and
 * exits), else abort()s, as APR pools do. */
void profile_out_of_memory(apr_pool_t *p);

/* Appends the object `src` in language `lang`: the fields of the table,
 * in its order, each text in that language. */
void profile_render_object(profile_sbuf_t *b, const profile_field_t *fields,
                           json_t *src, const char *lang);

/* Appends the array `list` of such objects: "[" + the objects joined by
 * "," + "]".  offs[3 * i] and offs[3 * i + 1] receive the offset in
 * b->buf and the length of element i, offs[3 * i + 2] 1 if it holds a
 * value served in the fallback language, else 0 (offs has room for
 * 3 * size); b->fell is set as any of them is. */
void profile_render_array(profile_sbuf_t *b, const profile_field_t *fields,
                          json_t *list, const char *lang, apr_size_t *offs);

#endif
