/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/write_text.c -- the text values of import-jsonresume: one string
 * per language merged into a plain string or {"en": ..., "es": ...},
 * a missing translation (and a language that has no such entry at all,
 * im->absent) written without that language, served from the fallback,
 * the first language (im->lacking), with a note; from one
 * language, a text people read is language-tagged ({"en": ...}) so that
 * a language added later shows it untranslated, and a name stays plain
 * (CONTRACT §9); lists of text values, given per language where the
 * languages' lists differ in length; and the language-neutral strings
 * (URLs), the same in every language.
 */
#include <string.h>
#include <strings.h>

#include <apr_cstr.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_dates.h"
#include "profile_text.h"
#include "import/stages.h"
#include "texts/texts.h"

/* A text value some languages have not: the entry is absent there
 * (im->absent) or its member is empty where another language's is not
 * (lack[l], a missing translation).  The first language (the fallback)
 * always, "" where it has not; the others that have it; "" when no
 * language has text.  A language left out is served from the fallback
 * (im->lacking). */
static json_t *without(jr_import_t *im, const char **vals, const int *lack)
{
    json_t *obj;
    int l, some = 0;

    for (l = 0; l < im->n; l++) {
        some |= *vals[l] != '\0';
    }
    if (!some) {
        return json_string("");
    }
    obj = json_object();
    for (l = 0; l < im->n; l++) {
        if (l == 0 || !(im->absent[l] || lack[l])) {
            json_object_set_new(obj, im->langs[l], json_string(vals[l]));
        }
        else {
            im->lacking = 1;
        }
    }
    return obj;
}

/* A text value from one string per language: plain when they are all
 * the same, else {"en": ..., "es": ...}; from one language, with
 * `prose`, {"en": ...} unless empty.  A string that is empty in some
 * languages only is a missing translation: written without those
 * languages, with a note (issue 27), as for languages that have no
 * such entry (im->absent). */
static json_t *merge(jr_import_t *im, const char **vals, const char *where,
                     int prose)
{
    json_t *obj;
    int l, same = 1, has = -1, gap = 0, lack[JR_MAX_LANGS] = { 0 };

    for (l = 0; l < im->n; l++) {
        /* Spaces around a text are nothing a reader sees ("Ana " in one
         * language is "Ana"). */
        const char *t = vals[l];
        size_t n = strlen(t);

        profile_text_trim(&t, &n);
        if (n != strlen(vals[l])) {
            vals[l] = apr_pstrmemdup(im->c.p, t, n);
        }
    }
    if (im->n == 1 && prose && *vals[0]) {
        obj = json_object();
        json_object_set_new(obj, im->langs[0], json_string(vals[0]));
        return obj;
    }
    for (l = 0; l < im->n; l++) {
        same = same && strcmp(vals[l], vals[0]) == 0;
        gap |= im->absent[l];
        if (has < 0 && *vals[l] && !im->absent[l]) {
            has = l;
        }
    }
    for (l = 0; has >= 0 && l < im->n; l++) {
        if (!*vals[l] && !im->absent[l]) {
            lack[l] = gap = 1;
            pc_jr_assume(im, l, "%s: missing translation: in %s but not in "
                         "%s (%s has it)%s: %s", where, im->langs[has],
                         im->langs[l], im->files[has],
                         im->label ? im->label : "",
                         l == 0 ? "written empty in the first language"
                                : "written without it, served from the "
                                  "fallback until translated");
        }
    }
    if (gap) {
        return without(im, vals, lack);
    }
    if (same) {
        return json_string(vals[0]);
    }
    obj = json_object();
    for (l = 0; l < im->n; l++) {
        json_object_set_new(obj, im->langs[l], json_string(vals[l]));
    }
    return obj;
}

static json_t *text(jr_import_t *im, json_t **entries, const char *key,
                    const char *where, int prose)
{
    const char *vals[JR_MAX_LANGS];
    int l;

    for (l = 0; l < im->n; l++) {
        vals[l] = pc_jr_str(entries[l], key);
    }
    return merge(im, vals, apr_pstrcat(im->c.p, where, ".", key, NULL),
                 prose);
}

/* The text value of member `key` of entries[l] (one per language). */
json_t *pc_jr_text(jr_import_t *im, json_t **entries, const char *key,
                   const char *where)
{
    return text(im, entries, key, where, 1);
}

json_t *pc_jr_name(jr_import_t *im, json_t **entries, const char *key,
                   const char *where)
{
    return text(im, entries, key, where, 0);
}

json_t *pc_jr_title(jr_import_t *im, json_t **entries, const char *key,
                    const char *where)
{
    const char *s = pc_jr_str(entries[0], key);
    size_t n = strlen(s);

    profile_text_trim(&s, &n);
    return text(im, entries, key, where,
                memchr(s, ' ', n) != NULL || pc_jr_translatable_name(s));
}

/* Marks in miss[] the languages whose member `key` is empty while
 * another language's is not (a part of a text that pc_jr_text2() or
 * pc_jr_period() joins: a missing translation of the whole text). */
static void parts_missing(jr_import_t *im, json_t **entries,
                          const char *key, int *miss)
{
    int l, some = 0;

    for (l = 0; l < im->n; l++) {
        some |= !im->absent[l] && *pc_jr_str(entries[l], key);
    }
    for (l = 0; some && l < im->n; l++) {
        miss[l] |= !im->absent[l] && !*pc_jr_str(entries[l], key);
    }
}

/* Empties vals[l] where miss[l], unless that leaves no language a text
 * (each lacks another part: each keeps what it has). */
static void blank(jr_import_t *im, const char **vals, const int *miss)
{
    int l, left = 0;

    for (l = 0; l < im->n; l++) {
        left |= !miss[l] && *vals[l];
    }
    for (l = 0; left && l < im->n; l++) {
        vals[l] = miss[l] ? "" : vals[l];
    }
}

/* The same, joining members `k1` and `k2` of each entry with " · ". */
json_t *pc_jr_text2(jr_import_t *im, json_t **entries, const char *k1,
                    const char *k2, const char *where)
{
    const char *vals[JR_MAX_LANGS], *a, *b;
    int l, miss[JR_MAX_LANGS] = { 0 };

    parts_missing(im, entries, k1, miss);
    parts_missing(im, entries, k2, miss);
    for (l = 0; l < im->n; l++) {
        a = pc_jr_str(entries[l], k1);
        b = pc_jr_str(entries[l], k2);
        vals[l] = apr_pstrcat(im->c.p, a, *a && *b ? JR_SEP : "", b, NULL);
    }
    blank(im, vals, miss);
    return merge(im, vals, apr_psprintf(im->c.p, "%s.%s/%s", where, k1,
                                        k2), 1);
}

/* A list of text values from the string arrays `key` of entries: an
 * array of text values when every language has as many items, each
 * there in every language or in none; else one array per language
 * (CONTRACT §9).  Highlights are prose; so is a keyword (a skill's
 * name) from one language that is a translatable_name. */
json_t *pc_jr_text_list(jr_import_t *im, json_t **entries,
                        const char *key, const char *where)
{
    const char *vals[JR_MAX_LANGS];
    json_t *out, *v, *arr;
    size_t i, n = json_array_size(json_object_get(entries[0], key));
    int l, pairs = 1;

    (void)where;
    for (l = 1; l < im->n; l++) {
        pairs = pairs
                && json_array_size(json_object_get(entries[l], key)) == n;
    }
    for (i = 0; pairs && i < n; i++) {
        for (l = 1; l < im->n; l++) {
            pairs = pairs
                    && !*json_string_value(json_array_get(
                           json_object_get(entries[l], key), i))
                       == !*json_string_value(json_array_get(
                           json_object_get(entries[0], key), i));
        }
    }
    if (!pairs) {
        out = json_object();
        for (l = 0; l < im->n; l++) {
            arr = json_object_get(entries[l], key);
            if (l > 0 && im->absent[l]) {
                im->lacking = 1;        /* served from the fallback */
                continue;
            }
            /* null, as people write "no list", is an empty one. */
            json_object_set_new(out, im->langs[l],
                                json_is_array(arr) ? json_deep_copy(arr)
                                                   : json_array());
        }
        return out;
    }
    out = json_array();
    for (i = 0; i < n; i++) {
        for (l = 0; l < im->n; l++) {
            vals[l] = json_string_value(
                json_array_get(json_object_get(entries[l], key), i));
        }
        v = merge(im, vals, "", strcmp(key, "keywords") != 0
                                || pc_jr_translatable_name(vals[0]));
        json_array_append_new(out, v);
    }
    return out;
}

/* s without an http:// or https:// scheme and one trailing '/', with its
 * length in *len. */
static const char *url_core(const char *s, size_t *len)
{
    if (strncasecmp(s, "https://", 8) == 0) {
        s += 8;
    }
    else if (strncasecmp(s, "http://", 7) == 0) {
        s += 7;
    }
    *len = strlen(s);
    if (*len > 0 && s[*len - 1] == '/') {
        (*len)--;
    }
    return s;
}

/* Whether two URLs are the same page but for http/https or a trailing
 * '/', as people write one link twice. */
static int same_url(const char *a, const char *b)
{
    size_t la, lb;
    const char *ca = url_core(a, &la), *cb = url_core(b, &lb);

    return la == lb && strncmp(ca, cb, la) == 0;
}

/* "work[]" for "$.work[3]": a path as the not-imported summary names
 * members. */
static const char *model_path(const char *where, apr_pool_t *p)
{
    char *out = apr_pstrdup(p, where + (strncmp(where, "$.", 2) == 0 ? 2
                                                                      : 0));
    char *w = out;
    const char *r;

    for (r = out; *r; r++) {
        *w++ = *r;
        if (*r == '[') {
            while (r[1] >= '0' && r[1] <= '9') {
                r++;
            }
        }
    }
    *w = '\0';
    return out;
}

/* A language-neutral string (a URL, an address): member `key` of the
 * entry of any language that has it (the https:// one of two that
 * differ only in the scheme or a trailing '/'); when two languages give
 * different ones, the first's, with a note, the others counted as not
 * imported. */
const char *pc_jr_neutral(jr_import_t *im, json_t **entries,
                          const char *key, const char *where)
{
    const char *v = "", *s;
    int l, from = 0;

    for (l = 0; l < im->n; l++) {
        s = pc_jr_str(entries[l], key);
        if (!*v) {
            v = s;
            from = l;
        }
        else if (*s && strcmp(s, v) != 0 && same_url(s, v)) {
            if (strncasecmp(s, "https://", 8) == 0
                && strncasecmp(v, "https://", 8) != 0) {
                v = s;
                from = l;
            }
        }
        else if (*s && strcmp(s, v) != 0) {
            /* A home page per language (index_es.html): the data file
             * holds one; the first language's is kept (CONTRACT §9). */
            pc_jr_assume(im, l, "%s.%s: \"%s\" here, \"%s\" in %s%s: "
                         "one for every language; the %s one kept, this "
                         "one not imported", where, key, s, v,
                         im->files[from], im->label ? im->label : "",
                         im->langs[from]);
            pc_jr_drop(im, apr_pstrcat(im->c.p, model_path(where, im->c.p),
                                       ".", key, " (other languages)", NULL),
                       1);
        }
    }
    return v;
}

/* Period v (a text of dates alone, tagged) also in each language of
 * --languages that has no document and has date words (CONTRACT §9):
 * a translator never retypes a date.  Dates whose day is given keep a
 * written period (start and end hold no day). */
static void period_in_declared(jr_import_t *im, json_t **entries,
                               json_t *v)
{
    apr_array_header_t *list;
    const char *err, *tag, *s, *e, *d;
    int i, l, have;

    if (im->declare == NULL || !json_is_object(v)
        || (list = pc_lang_list(&err, im->declare, im->c.p)) == NULL) {
        return;
    }
    for (l = 0; l < im->n && im->absent[l]; l++) {
    }
    if (l == im->n) {
        return;
    }
    s = pc_jr_str(entries[l], "startDate");
    e = pc_jr_str(entries[l], "endDate");
    for (i = 0; i < list->nelts; i++) {
        tag = APR_ARRAY_IDX(list, i, const char *);
        for (have = 0, l = 0; l < im->n; l++) {
            have |= apr_cstr_casecmp(tag, im->langs[l]) == 0;
        }
        if (!have && profile_date_words(tag) != NULL
            && *(d = pc_jr_format_period(s, e, tag, im->c.p))) {
            json_object_set_new(v, tag, json_string(d));
        }
    }
}

/* The period of entries' (language-neutral) dates in every language,
 * joined after member `before` of each entry when it is given. */
json_t *pc_jr_period(jr_import_t *im, json_t **entries, const char *before,
                     const char *where)
{
    const char *vals[JR_MAX_LANGS], *b, *d;
    int l, miss[JR_MAX_LANGS] = { 0 }, prose = 0;
    json_t *v;

    if (before) {
        parts_missing(im, entries, before, miss);
    }
    for (l = 0; l < im->n; l++) {
        b = before ? pc_jr_str(entries[l], before) : "";
        d = pc_jr_format_period(pc_jr_str(entries[l], "startDate"),
                                pc_jr_str(entries[l], "endDate"),
                                im->langs[l], im->c.p);
        vals[l] = apr_pstrcat(im->c.p, b, *b && *d ? JR_SEP : "", d, NULL);
        prose |= *b != '\0';
    }
    blank(im, vals, miss);
    v = merge(im, vals, apr_pstrcat(im->c.p, where, before ? "." : "",
                                    before ? before : "", "/dates", NULL),
              1);
    if (!prose) {
        period_in_declared(im, entries, v);
    }
    return v;
}

/* The labels of the contacts an import makes, in the languages people
 * write résumés in; English for another (a word, not a claim of
 * translation, where none is known). */
static const struct {
    const char *lang, *email, *phone;
} contact_words[] = {
    {"es", "Correo electr\xc3\xb3nico", "Tel\xc3\xa9" "fono"},
    {"fr", "E-mail", "T\xc3\xa9l\xc3\xa9phone"},
    {"de", "E-Mail", "Telefon"},
    {"pt", "E-mail", "Telefone"},
    {"it", "Email", "Telefono"},
    {"ca", "Correu electr\xc3\xb2nic", "Tel\xc3\xa8" "fon"},
    {"nl", "E-mail", "Telefoon"},
    {"pl", "E-mail", "Telefon"},
};

/* The label of a contact (`phone` or not: e-mail) in every language. */
json_t *pc_jr_contact_label(jr_import_t *im, int phone)
{
    const char *vals[JR_MAX_LANGS];
    size_t i, n;
    int l;

    for (l = 0; l < im->n; l++) {
        vals[l] = phone ? "Phone" : "Email";
        for (i = 0; i < sizeof(contact_words) / sizeof(contact_words[0]);
             i++) {
            n = strlen(contact_words[i].lang);
            /* "pt-BR" is Portuguese too. */
            if (strncmp(im->langs[l], contact_words[i].lang, n) == 0
                && (im->langs[l][n] == '\0' || im->langs[l][n] == '-')) {
                vals[l] = phone ? contact_words[i].phone
                                : contact_words[i].email;
            }
        }
    }
    return merge(im, vals, "label", 1);
}
