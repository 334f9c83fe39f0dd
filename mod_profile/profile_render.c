/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_render.c -- the serializer: each representation's bytes,
 * compact UTF-8 JSON written directly from the parsed file (fields in
 * the order of the schema tables, profile_schema.c; strings escaped
 * exactly as jansson's compact dump does), into a malloc'd buffer.  A
 * text the file lacks in the language rendered is its fallback's
 * (CONTRACT §9), and the buffer notes that one was.
 *
 * Pure core: no httpd headers.
 */
#include <stdlib.h>
#include <string.h>

#include "profile_render.h"

void profile_out_of_memory(apr_pool_t *p)
{
    apr_abortfunc_t oom = p != NULL ? apr_pool_abort_get(p) : NULL;

    if (oom != NULL) {
        oom(APR_ENOMEM);
    }
    abort();
}

static char *sb_room(profile_sbuf_t *b, apr_size_t n)
{
    if (b->len + n > b->cap) {
        apr_size_t cap = b->cap * 2 > b->len + n ? b->cap * 2
                                                 : b->len + n + 4096;
        char *nb = realloc(b->buf, cap);

        if (nb == NULL) {
            profile_out_of_memory(b->pool);
        }
        b->buf = nb;
        b->cap = cap;
    }
    return b->buf + b->len;
}

static void sb_put(profile_sbuf_t *b, const char *s, apr_size_t n)
{
    memcpy(sb_room(b, n), s, n);
    b->len += n;
}

#define SB_LIT(b, lit) sb_put((b), (lit), sizeof(lit) - 1)

/* A JSON string exactly as jansson's compact dump writes it (UTF-8 kept,
 * '/' not escaped): the parser validated the UTF-8 already. */
static void sb_string(profile_sbuf_t *b, const char *s, apr_size_t n)
{
    static const char hex[] = "0123456789ABCDEF";   /* as jansson */
    char *o = sb_room(b, n * 6 + 2);
    apr_size_t i;

    *o++ = '"';
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
            *o++ = 'u';
            *o++ = '0';
            *o++ = '0';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 0xF];
        }
    }
    *o++ = '"';
    b->len = (apr_size_t)(o - b->buf);
}

static void emit_text(profile_sbuf_t *b, json_t *v)
{
    sb_string(b, json_string_value(v), json_string_length(v));
}

static void emit_value(profile_sbuf_t *b, const profile_field_t *f, json_t *v,
                       const char *lang)
{
    json_t *el;
    size_t i;

    switch (f->kind) {
    case PROFILE_K_TEXT:
        emit_text(b, profile_schema_served(v, lang, b->fallback, &b->fell));
        break;
    case PROFILE_K_TEXTLIST:
        /* The list, or this language's own list (CONTRACT §9). */
        v = profile_schema_served_list(v, lang, b->fallback, &b->fell);
        SB_LIT(b, "[");
        json_array_foreach(v, i, el) {
            if (i > 0) {
                SB_LIT(b, ",");
            }
            emit_text(b, profile_schema_served(el, lang, b->fallback,
                                               &b->fell));
        }
        SB_LIT(b, "]");
        break;
    case PROFILE_K_OBJLIST:
        SB_LIT(b, "[");
        json_array_foreach(v, i, el) {
            if (i > 0) {
                SB_LIT(b, ",");
            }
            profile_render_object(b, f->sub, el, lang);
        }
        SB_LIT(b, "]");
        break;
    case PROFILE_K_OBJECT:
        profile_render_object(b, f->sub, v, lang);
        break;
    default:                    /* ids, kinds, urls: plain strings */
        emit_text(b, v);
        break;
    }
}

void profile_render_object(profile_sbuf_t *b, const profile_field_t *fields,
                           json_t *src, const char *lang)
{
    const profile_field_t *f;

    SB_LIT(b, "{");
    for (f = fields; f->name; f++) {
        if (f->kind == PROFILE_K_DATE) {
            break;              /* no API field: the table's last ones */
        }
        if (f != fields) {
            SB_LIT(b, ",");
        }
        sb_string(b, f->name, strlen(f->name));
        SB_LIT(b, ":");
        emit_value(b, f, json_object_get(src, f->name), lang);
    }
    SB_LIT(b, "}");
}

void profile_render_array(profile_sbuf_t *b, const profile_field_t *fields,
                          json_t *list, const char *lang, apr_size_t *offs)
{
    size_t i;
    json_t *el;
    int fell = b->fell;

    SB_LIT(b, "[");
    json_array_foreach(list, i, el) {
        if (i > 0) {
            SB_LIT(b, ",");
        }
        b->fell = 0;
        offs[3 * i] = b->len;
        profile_render_object(b, fields, el, lang);
        offs[3 * i + 1] = b->len - offs[3 * i];
        offs[3 * i + 2] = (apr_size_t)b->fell;
        fell |= b->fell;
    }
    SB_LIT(b, "]");
    b->fell = fell;
}
