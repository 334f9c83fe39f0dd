/* SPDX-License-Identifier: Apache-2.0 */
/*
 * texts/texts.c -- the translatable texts of a data file and their keys
 * (texts/texts.h; docs/translating.md, "Keys").  The walk follows the
 * module's schema tables (profile_schema.h), so a field added there is
 * a text here.  A record is named by its collection and its id; records
 * without one by a slug of what names them: a skill group by its title,
 * an education entry by its institution, a contact or link by its kind,
 * in the source language, made unique with -2, -3 in file order.
 *
 * A file is read when the module loads it, or when its only problems are
 * missing translations: a copy with every missing translation filled
 * with "" (and "fallback" set aside, which the module's validator may
 * not know yet) must pass profile_validate().
 */
#include <stdio.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "common/common.h"
#include "texts/texts.h"
#include "profile_estimate.h"
#include "profile_locate.h"
#include "profile_schema.h"
#include "profile_validate.h"

#define KEY_SLUG_MAX 40                 /* bytes of a slug in a key */
#define LOAD_LISTED 100                 /* problems printed, as check */

typedef struct {
    pc_texts_t *tx;
    apr_pool_t *p;
    apr_hash_t *taken;                  /* record keys already made */
} walk_t;

/* What names a record that has no id or kind, by collection. */
static const struct {
    const char *coll, *field;
} namers[] = {
    {"skills", "title"}, {"education", "institution"}, {NULL, NULL}
};

/* s folded to lowercase ASCII letters and digits, every other run of
 * characters one '-', at most KEY_SLUG_MAX bytes: "Análisis de datos"
 * -> "analisis-de-datos". */
static const char *slug(const char *s, apr_pool_t *p)
{
    const char *src = pc_jr_unaccent(s, p);
    char *out, *o;
    int dash = 0;

    out = o = apr_palloc(p, strlen(src) + 1);
    for (; *src && o - out < KEY_SLUG_MAX; src++) {
        if (apr_isalnum(*src) && !(*src & 0x80)) {
            if (dash && o != out) {
                *o++ = '-';
            }
            *o++ = apr_tolower(*src);
            dash = 0;
        }
        else {
            dash = 1;
        }
    }
    *o = '\0';
    return out;
}

json_t *pc_text_value(const pc_text_t *t)
{
    return t->member ? json_object_get(t->parent, t->member)
                     : json_array_get(t->parent, t->index);
}

/* The key of an element of collection `coll` (described by `fields`),
 * unique among the collection's. */
static const char *record_key(walk_t *w, const char *coll,
                              const profile_field_t *fields, json_t *el)
{
    const profile_field_t *f;
    const char *name = NULL, *base, *key;
    int i, n = 2;

    for (f = fields; f->name && name == NULL; f++) {
        if (f->kind == PROFILE_K_ID || f->kind == PROFILE_K_KIND) {
            name = json_string_value(json_object_get(el, f->name));
        }
    }
    for (i = 0; name == NULL && namers[i].coll; i++) {
        if (strcmp(namers[i].coll, coll) == 0) {
            name = json_string_value(profile_schema_text(
                json_object_get(el, namers[i].field), w->tx->source));
            name = name ? slug(name, w->p) : NULL;
        }
    }
    for (f = fields; name == NULL && f->name; f++) {
        if (f->kind == PROFILE_K_TEXT) {
            name = json_string_value(profile_schema_text(
                json_object_get(el, f->name), w->tx->source));
            name = name ? slug(name, w->p) : NULL;
        }
    }
    if (name == NULL || *name == '\0') {
        name = "untitled";
    }
    base = apr_pstrcat(w->p, coll, "/", name, NULL);
    for (key = base; apr_hash_get(w->taken, key, APR_HASH_KEY_STRING);
         key = apr_psprintf(w->p, "%s-%d", base, n++)) {
    }
    apr_hash_set(w->taken, key, APR_HASH_KEY_STRING, key);
    return key;
}

static void add(walk_t *w, const char *record, const char *field,
                const char *path, json_t *parent, const char *member,
                size_t index, int list)
{
    pc_text_t *t = apr_array_push(w->tx->texts);

    t->record = record;
    t->field = field;
    t->key = apr_pstrcat(w->p, record, " ", field, NULL);
    t->path = path;
    t->parent = parent;
    t->member = member;
    t->index = index;
    t->list = list;
    apr_hash_set(w->tx->by_key, t->key, APR_HASH_KEY_STRING, t);
}

/* The texts of one record; a sub-list of records (contact's contacts
 * and links) is walked as a collection of its own. */
static void walk_list(walk_t *w, const char *coll,
                      const profile_field_t *fields, json_t *list,
                      const char *path);

static void walk_record(walk_t *w, const char *record,
                        const profile_field_t *fields, json_t *obj,
                        const char *path)
{
    const profile_field_t *f;
    json_t *v, *el;
    size_t i;

    if (!json_is_object(obj)) {
        return;
    }
    for (f = fields; f->name; f++) {
        const char *fpath = apr_pstrcat(w->p, path, ".", f->name, NULL);

        if ((v = json_object_get(obj, f->name)) == NULL) {
            continue;
        }
        if (f->kind == PROFILE_K_TEXT && json_is_object(v)) {
            add(w, record, f->name, fpath, obj, f->name, 0, 0);
        }
        else if (f->kind == PROFILE_K_TEXTLIST && json_is_object(v)) {
            add(w, record, f->name, fpath, obj, f->name, 0, 1);
        }
        else if (f->kind == PROFILE_K_TEXTLIST && json_is_array(v)) {
            json_array_foreach(v, i, el) {
                if (json_is_object(el)) {
                    add(w, record, apr_psprintf(w->p, "%s[%" APR_SIZE_T_FMT
                                                "]", f->name, i),
                        apr_psprintf(w->p, "%s[%" APR_SIZE_T_FMT "]", fpath,
                                     i), v, NULL, i, 0);
                }
            }
        }
        else if (f->kind == PROFILE_K_OBJLIST && f->sub != NULL) {
            walk_list(w, f->name, f->sub, v, fpath);
        }
    }
}

static void walk_list(walk_t *w, const char *coll,
                      const profile_field_t *fields, json_t *list,
                      const char *path)
{
    json_t *el;
    size_t i;

    json_array_foreach(list, i, el) {
        if (json_is_object(el)) {
            walk_record(w, record_key(w, coll, fields, el), fields, el,
                        apr_psprintf(w->p, "%s[%" APR_SIZE_T_FMT "]", path,
                                     i));
        }
    }
}

static void walk(pc_texts_t *tx, apr_pool_t *p)
{
    walk_t w = {.tx = tx, .p = p, .taken = apr_hash_make(p)};
    const profile_field_t *f;

    tx->texts = apr_array_make(p, 64, sizeof(pc_text_t));
    tx->by_key = apr_hash_make(p);
    for (f = profile_schema_top; f->name; f++) {
        json_t *v = json_object_get(tx->root, f->name);
        const char *path = apr_pstrcat(p, "$.", f->name, NULL);

        if (f->kind == PROFILE_K_OBJECT && f->sub != NULL) {
            walk_record(&w, f->name, f->sub, v, path);
        }
        else if (f->kind == PROFILE_K_OBJLIST && f->sub != NULL) {
            walk_list(&w, f->name, f->sub, v, path);
        }
    }
}

/* The declared languages as the validator reads them (en, es when
 * absent); a bad declaration leaves none, for the validator to report. */
static void read_langs(pc_texts_t *tx, apr_pool_t *p)
{
    static const char *defaults[] = {"en", "es"};
    json_t *v = json_object_get(tx->root, "languages"), *el;
    size_t i;

    tx->nlangs = 0;
    if (v == NULL) {
        tx->langs = defaults;
        tx->nlangs = 2;
        return;
    }
    tx->langs = apr_pcalloc(p, (json_array_size(v) + 1) * sizeof(char *));
    json_array_foreach(v, i, el) {
        if (json_is_string(el)) {
            tx->langs[tx->nlangs++] = json_string_value(el);
        }
    }
}

/* Fills every missing translation of the texts of tx with "" ([] for a
 * list). */
static void fill_missing(pc_texts_t *tx)
{
    int i, l;

    for (i = 0; i < tx->texts->nelts; i++) {
        pc_text_t *t = &APR_ARRAY_IDX(tx->texts, i, pc_text_t);
        json_t *v = pc_text_value(t);

        for (l = 0; l < tx->nlangs; l++) {
            if (json_object_get(v, tx->langs[l]) == NULL) {
                json_object_set_new(v, tx->langs[l], t->list ? json_array()
                                                             : json_string(""));
            }
        }
    }
}

static int load_fail(const char *cmd, const char *file, const char *why)
{
    if (cmd != NULL) {
        pc_fail(cmd, "%s: %s", file, why);
    }
    return PC_EXIT_USAGE;
}

/* Prints the first problems of `pr` as check does. */
static void print_problems(profile_problems_t *pr, const char *file,
                           const char *buf, apr_size_t len, apr_pool_t *p)
{
    int k;

    profile_data_problems_locate(pr, buf, len, p);
    for (k = 0; k < pr->list->nelts; k++) {
        fprintf(stderr, "%s\n", profile_data_problem_line(
                    &APR_ARRAY_IDX(pr->list, k, profile_data_problem_t),
                    file, p));
    }
    if (pr->total > (apr_size_t)k) {
        fprintf(stderr, "%s: and %" APR_SIZE_T_FMT " more problems (the "
                "first %d are listed)\n", file, pr->total - (apr_size_t)k,
                k);
    }
}

int pc_texts_load(pc_texts_t **out, const char *cmd, const char *file,
                  apr_pool_t *p)
{
    return pc_texts_read(out, cmd, file, 0, p);
}

int pc_texts_read(pc_texts_t **out, const char *cmd, const char *file,
                  int valid, apr_pool_t *p)
{
    pc_input_t in;
    const char *err;

    if (pc_input_load(&in, &err, file, 0, p) < 0) {
        return load_fail(cmd, file, err + strlen(file) + 2);
    }
    return pc_texts_parse(out, cmd, &in, valid, p);
}

int pc_texts_parse(pc_texts_t **out, const char *cmd, const pc_input_t *in,
                   int valid, apr_pool_t *p)
{
    const char *file = in->path, *buf = in->buf;
    apr_size_t len = in->len;
    profile_parse_estimate_t est;
    profile_problems_t *problems = profile_problems_make(p, LOAD_LISTED);
    pc_texts_t *tx = apr_pcalloc(p, sizeof(*tx)), copy;
    const char **langs, *fb;
    json_error_t jerr;
    json_t *fbv;
    int nlangs, l;

    tx->file = file;
    profile_estimate_parse(&est, buf, len);
    if (est.bytes > est.bound) {
        return load_fail(cmd, file, apr_psprintf(p, "the module would refuse "
                                                 "it (%s check %s says why)",
                                                 pc_progname, file));
    }
    if ((tx->root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr))
        == NULL) {
        return load_fail(cmd, file, apr_psprintf(p, "%d:%d: invalid JSON: %s",
                                                 jerr.line, jerr.column,
                                                 jerr.text));
    }
    read_langs(tx, p);
    /* The fallback names the source language (CONTRACT §9). */
    fbv = json_object_get(tx->root, "fallback");
    fb = json_string_value(fbv);
    for (l = 0; fb != NULL && l < tx->nlangs; l++) {
        if (strcmp(tx->langs[l], fb) == 0) {
            tx->fallback = tx->langs[l];
        }
    }
    if (fbv != NULL && tx->fallback == NULL) {
        json_decref(tx->root);
        return load_fail(cmd, file, "$.fallback: expected one of the "
                         "declared languages (docs/translating.md)");
    }
    tx->source = tx->fallback ? tx->fallback
                 : tx->nlangs > 0 ? tx->langs[0] : "en";

    if (valid) {
        /* The module loads it: the languages are as read, and no copy
         * doubles what a large file takes. */
        walk(tx, p);
        *out = tx;
        return PC_EXIT_OK;
    }
    copy = *tx;
    copy.root = json_deep_copy(tx->root);
    json_object_del(copy.root, "fallback");
    walk(&copy, p);
    fill_missing(&copy);
    if (profile_validate(copy.root, &langs, &nlangs, problems, p) != 0) {
        json_decref(copy.root);
        json_decref(tx->root);
        if (cmd == NULL) {
            return PC_EXIT_USAGE;
        }
        print_problems(problems, file, buf, len, p);
        return pc_fail(cmd, "%s has problems other than missing "
                       "translations (%s check %s lists them)", file,
                       pc_progname, file);
    }
    json_decref(copy.root);
    tx->langs = langs;
    tx->nlangs = nlangs;
    walk(tx, p);
    *out = tx;
    return PC_EXIT_OK;
}

/* A list's items, one per line. */
static const char *joined(json_t *arr, apr_pool_t *p)
{
    const char *s = NULL;
    json_t *el;
    size_t i;

    json_array_foreach(arr, i, el) {
        const char *item = json_string_value(el);

        item = item ? item : "";
        s = s ? apr_pstrcat(p, s, "\n", item, NULL) : item;
    }
    return s ? s : "";
}

const char *pc_text_get(pc_tr_state_e *state, const pc_texts_t *tx,
                        const pc_text_t *t, const char *lang,
                        apr_pool_t *p)
{
    json_t *v = pc_text_value(t);
    json_t *src = json_object_get(v, tx->source);
    json_t *tr = json_object_get(v, lang);
    const char *s;

    if (t->list) {
        if (!json_is_array(src) || json_array_size(src) == 0) {
            *state = PC_TR_NONE;
            return json_is_array(tr) ? joined(tr, p) : NULL;
        }
        s = json_is_array(tr) ? joined(tr, p) : NULL;
    }
    else {
        const char *ss = json_string_value(src);

        s = json_string_value(tr);
        if (ss == NULL || *ss == '\0') {
            *state = PC_TR_NONE;
            return s;
        }
    }
    *state = s == NULL ? PC_TR_MISSING : *s == '\0' ? PC_TR_EMPTY
                                                    : PC_TR_DONE;
    return s;
}

const char *pc_text_source(const pc_texts_t *tx, const pc_text_t *t,
                           apr_pool_t *p)
{
    pc_tr_state_e st;
    const char *s = pc_text_get(&st, tx, t, tx->source, p);

    return st == PC_TR_NONE ? NULL : s;
}

const char *pc_texts_lang(const pc_texts_t *tx, const char *tag,
                          apr_pool_t *p)
{
    size_t n = strcspn(tag, "_-.@");
    int l;

    for (l = 0; l < tx->nlangs; l++) {
        if (apr_cstr_casecmp(tx->langs[l], tag) == 0) {
            return tx->langs[l];
        }
    }
    for (l = 0; l < tx->nlangs; l++) {
        if (strlen(tx->langs[l]) == n
            && apr_cstr_casecmpn(tx->langs[l], tag, n) == 0) {
            return tx->langs[l];
        }
    }
    (void)p;
    return NULL;
}

const char *pc_texts_target(const pc_texts_t *tx, const char *lang,
                            apr_pool_t *p)
{
    const char *all = pc_jr_join(tx->nlangs, tx->langs, ", ", p);
    int l;

    for (l = 0; l < tx->nlangs; l++) {
        if (strcmp(tx->langs[l], lang) == 0) {
            break;
        }
    }
    if (l == tx->nlangs) {
        return apr_psprintf(p, "%s has no language \"%s\" (it has %s): "
                            "%s add-language %s %s declares it", tx->file,
                            lang, all, pc_progname, lang, tx->file);
    }
    if (strcmp(lang, tx->source) == 0) {
        return apr_psprintf(p, "\"%s\" is the source language of %s (%s): "
                            "name another of %s", lang, tx->file,
                            tx->fallback ? "its fallback"
                                         : "the first it declares", all);
    }
    return NULL;
}
