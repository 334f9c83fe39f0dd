/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_untranslated.c -- the untranslated texts of a data file, per
 * language (CONTRACT §9): a walk of the validated tree along the schema
 * tables (profile_schema.c), once per load.  What a text lacks is served
 * from the file's fallback (profile_render.c); what is empty is served
 * empty.  Both are counted here, so that an owner sees them.
 *
 * Pure core: no httpd headers.
 */
#include "profile_schema.h"
#include "profile_untranslated.h"

typedef struct {
    const char *const *langs;
    int nlangs;
    apr_size_t *counts;
} count_t;

/* The length of a language's value: a string's bytes, an array's
 * items. */
static size_t value_size(json_t *v)
{
    return json_is_string(v) ? json_string_length(v) : json_array_size(v);
}

int profile_untranslated_some(json_t *v)
{
    const char *key;
    json_t *t;

    json_object_foreach(v, key, t) {
        if (value_size(t) > 0) {
            return 1;
        }
    }
    return 0;
}

int profile_untranslated_in(json_t *v, const char *lang)
{
    json_t *t;

    if (!json_is_object(v)) {
        return 0;               /* a plain string, or a plain list */
    }
    t = json_object_get(v, lang);
    return t == NULL || (value_size(t) == 0 && profile_untranslated_some(v));
}

/* A text value or a list given per language, v (an object of them). */
static void count_text(count_t *c, json_t *v)
{
    int l;

    for (l = 0; l < c->nlangs; l++) {
        c->counts[l] += profile_untranslated_in(v, c->langs[l]) != 0;
    }
}

static void count_object(count_t *c, const profile_field_t *fields,
                         json_t *obj)
{
    const profile_field_t *f;
    json_t *v, *el;
    size_t i;

    for (f = fields; f->name; f++) {
        v = json_object_get(obj, f->name);
        switch (f->kind) {
        case PROFILE_K_TEXT:
            count_text(c, v);
            break;
        case PROFILE_K_TEXTLIST:
            if (json_is_object(v)) {
                count_text(c, v);
            }
            json_array_foreach(v, i, el) {
                count_text(c, el);
            }
            break;
        case PROFILE_K_OBJECT:
            count_object(c, f->sub, v);
            break;
        case PROFILE_K_OBJLIST:
            json_array_foreach(v, i, el) {
                count_object(c, f->sub, el);
            }
            break;
        default:                /* ids, kinds, urls, the declarations */
            break;
        }
    }
}

apr_size_t *profile_untranslated_count(json_t *root, const char *const *langs,
                                       int nlangs, apr_pool_t *p)
{
    count_t c = {.langs = langs, .nlangs = nlangs};

    c.counts = apr_pcalloc(p, sizeof(apr_size_t) * (apr_size_t)nlangs);
    count_object(&c, profile_schema_top, root);
    return c.counts;
}
