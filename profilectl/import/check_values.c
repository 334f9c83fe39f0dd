/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/check_values.c -- the values of a JSON Resume entry as people write
 * them, read as a reader reads them (pc_jr_coerce): a text given per
 * language ({"en": ..., "es": ...}: the text of the file's language), a
 * number where a text belongs, a text given as an array of paragraphs
 * (joined, a blank line between) or as an object of parts (joined), and
 * lists whose items are numbers, objects (read by their name or text) or
 * nested lists (flattened).  Each change is one note (pc_jr_assume); what
 * is left out is counted as not imported.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

/* The members that hold an item's text, most telling first. */
static const char *const item_text[] = {
    "content", "name", "text", "highlight", "keyword", "title", "label",
    "value", "description", "summary", NULL
};

/* "en", "es", "pt-BR", "en_US": a two-letter language and subtags. */
static int lang_tag(const char *k)
{
    size_t n;

    if (!apr_isalpha(k[0]) || !apr_isalpha(k[1]) || (k[0] & 0x80)
        || (k[1] & 0x80)) {
        return 0;
    }
    for (k += 2; *k; k += n) {
        if (*k != '-' && *k != '_') {
            return 0;
        }
        k++;
        for (n = 0; apr_isalnum(k[n]) && !(k[n] & 0x80); n++) {
        }
        if (n < 2 || n > 8) {
            return 0;
        }
    }
    return 1;
}

static int tag_is(const char *k, const char *lang)
{
    size_t n = strlen(lang);

    return strncasecmp(k, lang, n) == 0
           && (k[n] == '\0' || k[n] == '-' || k[n] == '_');
}

/* Whether v is a text (or list) per language: an object whose members
 * are all language tags holding strings or arrays. */
static int per_language(json_t *v)
{
    const char *k;
    json_t *m;

    if (!json_is_object(v) || json_object_size(v) == 0) {
        return 0;
    }
    json_object_foreach(v, k, m) {
        if (!lang_tag(k) || !(json_is_string(m) || json_is_array(m)
                              || json_is_null(m))) {
            return 0;
        }
    }
    return 1;
}

/* The value for document l's language of a per-language object v
 * (borrowed), or NULL with a problem set. */
static json_t *pick(jr_import_t *im, int l, json_t *v, const char *where,
                    const char *path)
{
    const char *lang = im->langs[l], *k, *others = NULL, *read = NULL;
    json_t *m, *chosen = NULL;
    int o, held;

    json_object_foreach(v, k, m) {
        if (chosen == NULL && tag_is(k, lang)) {
            chosen = m;
            continue;
        }
        if (!pc_jr_has_content(m)) {
            continue;
        }
        /* A language another document of the import stands for (the
         * same file given once per language) is read there. */
        for (o = 0, held = 0; o < im->n; o++) {
            held |= o != l && tag_is(k, im->langs[o]);
        }
        if (held) {
            read = read ? apr_pstrcat(im->c.p, read, ", ", k, NULL) : k;
        }
        else {
            others = others ? apr_pstrcat(im->c.p, others, ", ", k, NULL)
                            : k;
        }
    }
    if (chosen == NULL && read != NULL && others == NULL) {
        /* One file read once per language, this one untranslated here:
         * a missing translation (merge() notes it; the fallback). */
        json_object_set_new(v, lang, json_string(""));
        return json_object_get(v, lang);
    }
    if (chosen == NULL) {
        pc_jr_fail(&im->c, "%s: %s: a text per language without %s (it has "
                   "%s): name the file's language (--lang-order)",
                   im->files[l], where, lang, others ? others : "none");
        return NULL;
    }
    if (others) {
        pc_jr_drop(im, apr_pstrcat(im->c.p, path, " (other languages)",
                                   NULL), 1);
    }
    pc_jr_assume(im, l, "%s: a text per language: the %s one read%s%s%s"
                 "%s%s", where, lang, read ? " (" : "", read ? read : "",
                 read ? " for its language)" : "", others ? "; " : "",
                 others ? apr_pstrcat(im->c.p, others, " not imported (to "
                                      "import every language of one file: "
                                      "--lang-order ", lang, ",", others,
                                      ")", NULL) : "");
    return chosen;
}

/* A number or a boolean as the text JSON writes it ("3.8", "2019"). */
static const char *scalar_text(json_t *v, apr_pool_t *p)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY);
    const char *out = apr_pstrdup(p, s ? s : "");

    free(s);
    return out;
}

typedef struct {
    jr_import_t *im;
    int l;
    const char *where, *path;
    json_t *out;                /* the strings */
    int changed;                /* items that were not strings */
    const char *how;            /* how the first object was read */
    int bad;
    int untranslated;           /* per-language items without this one */
} flat_t;

/* Appends the text of item v to f->out: a string, a number, the text of
 * an object, each item of an array. */
static void flatten(flat_t *f, json_t *v)
{
    apr_pool_t *p = f->im->c.p;
    const char *k, *joined = NULL;
    json_t *m;
    size_t i;

    if (json_is_string(v)) {
        json_array_append(f->out, v);
        return;
    }
    if (json_is_null(v)) {
        return;
    }
    f->changed++;
    if (json_is_number(v) || json_is_boolean(v)) {
        json_array_append_new(f->out, json_string(scalar_text(v, p)));
        return;
    }
    if (json_is_array(v)) {
        json_array_foreach(v, i, m) {
            flatten(f, m);
        }
        f->changed--;           /* counted by its items */
        return;
    }
    if (per_language(v)) {
        if ((m = pick(f->im, f->l, v, f->where, f->path)) == NULL) {
            f->bad = 1;
            return;
        }
        if (json_is_string(m) && *json_string_value(m) == '\0') {
            /* No text in this language: an empty item would be served
             * as one; the item is left out of this language's list. */
            f->untranslated++;
            f->changed--;
            return;
        }
        flatten(f, m);
        return;
    }
    for (i = 0; item_text[i]; i++) {
        m = json_object_get(v, item_text[i]);
        if (json_is_string(m) || json_is_number(m)) {
            f->how = f->how ? f->how : item_text[i];
            flatten(f, m);
            json_object_foreach(v, k, m) {
                if (strcmp(k, item_text[i]) != 0 && pc_jr_has_content(m)) {
                    pc_jr_drop(f->im, apr_pstrcat(p, f->path, "[].", k,
                                                  NULL), 1);
                }
            }
            return;
        }
    }
    /* No member says it is the text: its texts, joined. */
    json_object_foreach(v, k, m) {
        if (json_is_string(m) && *json_string_value(m)) {
            joined = joined ? apr_pstrcat(p, joined, JR_SEP,
                                          json_string_value(m), NULL)
                            : json_string_value(m);
        }
        else if (pc_jr_has_content(m)) {
            pc_jr_drop(f->im, apr_pstrcat(p, f->path, "[].", k, NULL), 1);
        }
    }
    if (joined) {
        f->how = f->how ? f->how : "its texts joined";
        json_array_append_new(f->out, json_string(joined));
    }
}

/* Member k of e, a list of strings ('l'). */
static int coerce_list(jr_import_t *im, int l, json_t *e, const char *k,
                       json_t *v, const char *where, const char *path)
{
    flat_t f = {im, l, where, path, json_array(), 0, NULL, 0, 0};

    if (json_is_string(v)) {
        pc_jr_assume(im, l, "%s: a text where a list belongs: read as a "
                     "list of one", where);
        json_array_append(f.out, v);
    }
    else if (json_is_object(v)) {
        const char *m;
        json_t *x;

        pc_jr_assume(im, l, "%s: an object where a list belongs: its "
                     "values read as the list", where);
        json_object_foreach(v, m, x) {
            flatten(&f, x);
        }
    }
    else {
        flatten(&f, v);
    }
    if (f.changed > 0) {
        pc_jr_assume(im, l, "%s: %d item%s that %s not text read as text%s%s"
                     "%s", where, f.changed, f.changed == 1 ? "" : "s",
                     f.changed == 1 ? "is" : "are",
                     f.how ? " (objects by " : "",
                     f.how ? (strcmp(f.how, "its texts joined") == 0
                              ? f.how : apr_psprintf(im->c.p, "\"%s\"",
                                                     f.how)) : "",
                     f.how ? ")" : "");
    }
    if (f.untranslated > 0) {
        pc_jr_assume(im, l, "%s: %d item%s without %s text left out of the "
                     "%s list", where, f.untranslated,
                     f.untranslated == 1 ? "" : "s", im->langs[l],
                     im->langs[l]);
    }
    json_object_set_new(e, k, f.out);
    return f.bad ? -1 : 0;
}

/* Member k of e, a text ('s'). */
static int coerce_text(jr_import_t *im, int l, json_t *e, const char *k,
                       json_t *v, const char *where, const char *path)
{
    int para = strcmp(k, "description") == 0 || strcmp(k, "summary") == 0;
    flat_t f = {im, l, where, path, json_array(), 0, NULL, 0, 0};
    const char **items;
    size_t i, n;

    if (json_is_number(v) || json_is_boolean(v)) {
        pc_jr_assume(im, l, "%s: a number, read as the text \"%s\"", where,
                     scalar_text(v, im->c.p));
        json_object_set_new(e, k, json_string(scalar_text(v, im->c.p)));
        json_decref(f.out);
        return 0;
    }
    if (json_is_object(v)) {
        /* {"city": ..., "country": ...}: its parts. */
        json_t *all = json_array();
        const char *m;
        json_t *x;

        json_object_foreach(v, m, x) {
            json_array_append(all, x);
        }
        flatten(&f, all);
        json_decref(all);
    }
    else {
        flatten(&f, v);
    }
    n = json_array_size(f.out);
    items = apr_pcalloc(im->c.p, (n + 1) * sizeof(*items));
    for (i = 0; i < n; i++) {
        items[i] = json_string_value(json_array_get(f.out, i));
    }
    pc_jr_assume(im, l, "%s: %s of " SZ " text%s, read as one text (%s)",
                 where, json_is_object(v) ? "an object" : "an array", n,
                 n == 1 ? "" : "s", para ? "paragraphs, a blank line between"
                                         : "joined with \" \xc2\xb7 \"");
    json_object_set_new(e, k, json_string(pc_jr_join((int)n, items,
                                                     para ? "\n\n" : JR_SEP,
                                                     im->c.p)));
    json_decref(f.out);
    return f.bad ? -1 : 0;
}

int pc_jr_coerce(jr_import_t *im, int l, json_t *e, const char *k,
                 char type, const char *at, const char *path)
{
    const char *where = apr_pstrcat(im->c.p, at, ".", k, NULL);
    const char *dpath = apr_pstrcat(im->c.p, path, ".", k, NULL);
    json_t *v = json_object_get(e, k);
    int rv;

    if (json_is_null(v) || (type == 's' && json_is_string(v))) {
        return 0;
    }
    if (per_language(v)) {
        if ((v = pick(im, l, v, where, dpath)) == NULL) {
            return -1;
        }
        json_object_set(e, k, v);
        v = json_object_get(e, k);
        if (json_is_null(v) || (type == 's' && json_is_string(v))) {
            return 0;
        }
    }
    /* e[k] is replaced: v is held until it is read. */
    json_incref(v);
    rv = type == 'l' ? coerce_list(im, l, e, k, v, where, dpath)
                     : coerce_text(im, l, e, k, v, where, dpath);
    json_decref(v);
    return rv;
}

/* "skills": {"backend": ["Kotlin", "Java"], ...}: groups by name, read
 * as JSON Resume's [{"name": "backend", "keywords": [...]}] with a note,
 * when some value is a list or a text (the others, objects, are counted
 * as not imported: "skills.languages_spoken"). */
void pc_jr_skills_by_name(jr_import_t *im, int l, json_t *doc)
{
    json_t *skills = json_object_get(doc, "skills"), *arr, *v, *e;
    const char *k;
    size_t n = 0;

    if (!json_is_object(skills)) {
        return;
    }
    json_object_foreach(skills, k, v) {
        n += json_is_array(v) || json_is_string(v);
    }
    if (n == 0) {
        return;
    }
    arr = json_array();
    json_object_foreach(skills, k, v) {
        if (!json_is_array(v) && !json_is_string(v)) {
            if (pc_jr_has_content(v)) {
                pc_jr_drop(im, apr_pstrcat(im->c.p, "skills.", k, NULL), 1);
            }
            continue;
        }
        e = json_object();
        json_object_set_new(e, "name", json_string(k));
        json_object_set(e, "keywords", v);
        json_array_append_new(arr, e);
    }
    pc_jr_assume(im, l, "$.skills: an object of " SZ " groups by name, "
                 "read as JSON Resume's list (each name the group's, its "
                 "list the keywords)", n);
    json_object_set_new(doc, "skills", arr);
}
