/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/import_po.c -- `profilectl import-po [--lang L] F.po FILE [-o
 * OUT]`: the translations of a PO file (read by libgettextpo, po/po.c)
 * put into data file FILE, written to OUT or standard output (never
 * over FILE: profilectl.1, OUTPUT FILES).  The language is the PO
 * header's Language (es, es_ES and es-MX name a file's "es"), or L.
 *
 * An entry is applied when its msgctxt is a key of FILE (texts/texts.h),
 * its msgid is that text's source text now, it is not fuzzy, and its
 * msgstr is not empty.  A fuzzy one, or one whose msgid is not the
 * source text any more ("source changed"), is stale: not applied, and
 * the translation it shows to be stale (pc_po_stale) is withdrawn from
 * the result, so that the fallback is served in its place (a file
 * without a fallback gets its source language as one, said in a note).
 * An unknown key, and one naming a plain string (the same in every
 * language), are not applied either.  Each entry not applied is named on
 * stderr, and makes the exit status 1; an empty msgstr (untranslated)
 * is only counted.  The result is validated as the module validates a
 * data file; an invalid one is not written.  Standard error ends with
 * one summary line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>

#include "profile_dates.h"
#include "common/common.h"
#include "po/po.h"
#include "texts/texts.h"

#define IMPORT_USAGE "usage: %s import-po [--lang L] F.po FILE [-o OUT]"

/* A case study's title translated: `text`, in the language. */
typedef struct {
    const pc_text_t *title;
    const char *source, *text;
} title_t;

typedef struct {
    apr_pool_t *p;
    pc_texts_t *tx;
    const char *po, *lang;
    int applied, changed, fuzzy, empty, source_changed, unknown, plain;
    int withdrawn, once, short_titles;
    apr_array_header_t *titles;     /* title_t: translations of titles */
    apr_hash_t *empties;            /* keys of the empty entries */
} import_t;

/* One report line: an entry not applied, named by its key (and the
 * JSON path of its text). */
static void note(import_t *im, const char *key, const char *path,
                 const char *text)
{
    fprintf(stderr, "%s: %s%s%s%s: %s\n", im->po, key, path ? " (" : "",
            path ? path : "", path ? ")" : "", text);
}

/* A short, printable form of s for a report line. */
static const char *shown(const char *s, apr_pool_t *p)
{
    json_t *j = json_string(s);
    char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    const char *r = q ? apr_pstrdup(p, q) : "(not valid UTF-8)";

    free(q);
    json_decref(j);
    return r;
}

/* Sets t's translation in `lang` to `text` (a list: one item per
 * non-empty line), the object's languages in the declared order.
 * Returns 0, or -1 when t is a plain value. */
static int text_set(pc_texts_t *tx, const pc_text_t *t, const char *lang,
                const char *text)
{
    json_t *v = pc_text_value(t), *ordered, *x;
    const char *k;
    int l;

    if (!json_is_object(v)) {
        return -1;
    }
    if (t->list) {
        json_t *arr = json_array();
        const char *line = text, *nl;

        for (; *line; line = *nl ? nl + 1 : nl) {
            nl = strchr(line, '\n');
            nl = nl ? nl : line + strlen(line);
            if (nl > line) {
                json_array_append_new(arr, json_stringn(line,
                                                        (size_t)(nl - line)));
            }
        }
        json_object_set_new(v, lang, arr);
    }
    else {
        json_object_set_new(v, lang, json_string(text));
    }
    /* The languages in their declared order, whatever was there. */
    ordered = json_object();
    for (l = 0; l < tx->nlangs; l++) {
        if ((x = json_object_get(v, tx->langs[l])) != NULL) {
            json_object_set(ordered, tx->langs[l], x);
        }
    }
    json_object_foreach(v, k, x) {
        if (json_object_get(ordered, k) == NULL) {
            json_object_set(ordered, k, x);
        }
    }
    json_object_clear(v);
    json_object_update(v, ordered);
    json_decref(ordered);
    return 0;
}

/* Entry m, of text t, was translated from a source other than src:
 * not applied, and its translation withdrawn from the data file when
 * the data file has it (pc_po_stale), so that the fallback is served. */
static void stale(import_t *im, const pc_text_t *t, po_message_t m,
                  const char *src)
{
    int fuzzy = po_message_is_fuzzy(m);
    const char *from = fuzzy ? po_message_prev_msgid(m)
                             : po_message_msgid(m);
    const char *why, *done;

    if (from != NULL && *from && strcmp(from, src) != 0) {
        why = apr_psprintf(im->p, "%s: translated from %s, the source is "
                           "now %s", fuzzy ? "fuzzy" : "source changed",
                           shown(from, im->p), shown(src, im->p));
    }
    else {
        why = "fuzzy: a translator has not confirmed it";
    }
    im->fuzzy += fuzzy;
    im->source_changed += !fuzzy;
    if (pc_po_stale(im->tx, t, im->lang, m, im->p)) {
        json_object_del(pc_text_value(t), im->lang);
        im->withdrawn++;
        done = apr_psprintf(im->p, "not applied, and the %s translation is "
                            "withdrawn: %s is served until a translator "
                            "confirms it", im->lang, im->tx->source);
    }
    else {
        done = "not applied";
    }
    note(im, t->key, t->path, apr_psprintf(im->p, "%s (%s%s)", why, done,
                                           fuzzy ? "" : "; export-po again "
                                           "marks it fuzzy"));
}

/* Whether t is a skill's name (an item of a group's skills) that every
 * declared language now has, the same: a name such as Python or
 * Kubernetes, which the translator gave unchanged.  import-po then
 * writes it once, a plain string, as a name the same in every language
 * is written (CONTRACT §9), so that it is never asked for again. */
static int same_everywhere(const pc_texts_t *tx, const pc_text_t *t)
{
    json_t *v = pc_text_value(t);
    const char *first = NULL, *s;
    int l;

    if (t->list || t->member != NULL || !json_is_array(t->parent)
        || strncmp(t->record, "skills/", 7) != 0
        || strncmp(t->field, "skills[", 7) != 0
        || json_object_size(v) != (size_t)tx->nlangs) {
        return 0;
    }
    for (l = 0; l < tx->nlangs; l++) {
        s = json_string_value(json_object_get(v, tx->langs[l]));
        if (s == NULL || (first != NULL && strcmp(s, first) != 0)) {
            return 0;
        }
        first = first ? first : s;
    }
    return 1;
}

/* Translation str of text t, translated from src: a credential's words
 * alone ("Licenciatura") get the dates that end src, written as the
 * language writes dates ("Licenciatura · 1 jun. 2011 – 1 ene. 2014"),
 * and so do words followed by src's dates as src writes them (a source
 * copied, then its words translated), so that no translator retypes a
 * date.  Any other translation with a " · " of its own, or one in a
 * language without date words, is taken as it is. */
static const char *with_dates(const pc_text_t *t, const char *lang,
                              const char *src, const char *str,
                              apr_pool_t *p)
{
    const char *s, *e, *tail, *sep;
    size_t n;

    if (strcmp(t->field, "credential") != 0
        || profile_date_words(lang) == NULL
        || !pc_po_trailing_period(&s, &e, src, p)) {
        return str;
    }
    for (tail = src, sep = strstr(src, JR_SEP); sep != NULL;
         sep = strstr(sep + 1, JR_SEP)) {
        tail = sep;
    }
    n = strlen(str);
    if (n > strlen(tail) && strcmp(str + n - strlen(tail), tail) == 0) {
        str = apr_pstrmemdup(p, str, n - strlen(tail));
    }
    else if (strstr(str, JR_SEP) != NULL) {
        return str;
    }
    return apr_pstrcat(p, str, JR_SEP, pc_jr_format_period(s, e, lang, p),
                       NULL);
}

/* t's mobileTitle, when t is a case study's title, the mobileTitle's
 * source is the title's and it has no translation in the language;
 * else NULL. */
static const pc_text_t *short_title(import_t *im, const pc_text_t *t,
                                    const char *src)
{
    const pc_text_t *mt;
    const char *msrc;
    pc_tr_state_e st;

    if (strcmp(t->field, "title") != 0
        || strncmp(t->record, "caseStudies/", 12) != 0
        || (mt = apr_hash_get(im->tx->by_key,
                              apr_pstrcat(im->p, t->record, " mobileTitle",
                                          NULL),
                              APR_HASH_KEY_STRING)) == NULL
        || !json_is_object(pc_text_value(mt))
        || (msrc = pc_text_source(im->tx, mt, im->p)) == NULL
        || strcmp(msrc, src) != 0
        || (pc_text_get(&st, im->tx, mt, im->lang, im->p) != NULL
            && st == PC_TR_DONE)) {
        return NULL;
    }
    return mt;
}

static void apply(import_t *im, po_message_t m)
{
    const char *ctx = po_message_msgctxt(m), *src, *cur, *str;
    const pc_text_t *t;
    pc_tr_state_e st;
    json_t *v;

    if (ctx == NULL || (t = apr_hash_get(im->tx->by_key, ctx,
                                         APR_HASH_KEY_STRING)) == NULL) {
        im->unknown++;
        note(im, ctx ? ctx : shown(po_message_msgid(m), im->p), NULL,
             apr_psprintf(im->p, "no such text in %s (not applied)",
                          im->tx->file));
        return;
    }
    str = po_message_msgstr(m);
    if (*str == '\0') {
        im->empty++;
        apr_hash_set(im->empties, t->key, APR_HASH_KEY_STRING, t);
        return;
    }
    v = pc_text_value(t);
    src = pc_text_source(im->tx, t, im->p);
    if (src == NULL || !json_is_object(v)) {
        im->plain++;
        note(im, ctx, t->path, "nothing to translate there now (a plain "
             "string, the same in every language, or an empty source): not "
             "applied");
        return;
    }
    if (po_message_is_fuzzy(m) || strcmp(src, po_message_msgid(m)) != 0) {
        stale(im, t, m, src);
        return;
    }
    str = with_dates(t, im->lang, src, str, im->p);
    /* A copy: setting the translation frees the string it was. */
    cur = pc_text_get(&st, im->tx, t, im->lang, im->p);
    cur = cur ? apr_pstrdup(im->p, cur) : NULL;
    text_set(im->tx, t, im->lang, str);
    im->applied++;
    /* A list compares as its items, one per line, as it was set. */
    im->changed += cur == NULL
                   || strcmp(cur, pc_text_get(&st, im->tx, t, im->lang,
                                              im->p)) != 0;
    if (strcmp(str, src) == 0 && same_everywhere(im->tx, t)) {
        json_array_set_new(t->parent, t->index, json_string(str));
        im->once++;
    }
    if (strcmp(t->field, "title") == 0) {
        title_t *ti = apr_array_push(im->titles);

        ti->title = t;
        ti->source = src;
        ti->text = str;
    }
}

/* A short title that is the title (as the importers write it), left
 * untranslated by the PO file, is translated with its title: a
 * translator types a title once.  Its empty entry is then not counted
 * as untranslated. */
static void short_titles(import_t *im)
{
    const pc_text_t *mt;
    int i;

    for (i = 0; i < im->titles->nelts; i++) {
        title_t *ti = &APR_ARRAY_IDX(im->titles, i, title_t);

        if ((mt = short_title(im, ti->title, ti->source)) != NULL) {
            text_set(im->tx, mt, im->lang, ti->text);
            im->short_titles++;
            im->empty -= apr_hash_get(im->empties, mt->key,
                                      APR_HASH_KEY_STRING) != NULL;
        }
    }
}

/* The language of the PO file, from --lang or its header. */
static const char *po_language(import_t *im, po_file_t po, const char *opt)
{
    const char *tag = pc_po_header(po, "Language", im->p), *lang, *why;

    if (opt == NULL && tag == NULL) {
        pc_fail("import-po", "%s has no Language in its header: name it "
                "with --lang", im->po);
        return NULL;
    }
    lang = opt ? opt : pc_texts_lang(im->tx, tag, im->p);
    if (opt != NULL && tag != NULL
        && pc_texts_lang(im->tx, tag, im->p) != pc_texts_lang(im->tx, opt,
                                                             im->p)) {
        pc_fail("import-po", "%s is a PO file for \"%s\", not \"%s\"",
                im->po, tag, opt);
        return NULL;
    }
    if (lang == NULL) {
        lang = tag;
    }
    if ((why = pc_texts_target(im->tx, lang, im->p)) != NULL) {
        pc_fail("import-po", "%s: %s", im->po, why);
        return NULL;
    }
    return lang;
}

/* The items of a list's msgstr as the data file keeps them: one per
 * non-empty line. */
static const char *items(const char *text, apr_pool_t *p)
{
    char *out = apr_palloc(p, strlen(text) + 1), *o = out;

    for (; *text; text++) {
        if (*text != '\n' || (o > out && o[-1] != '\n')) {
            *o++ = *text;
        }
    }
    if (o > out && o[-1] == '\n') {
        o--;
    }
    *o = '\0';
    return out;
}

int pc_po_stale(const pc_texts_t *tx, const pc_text_t *t, const char *lang,
                po_message_t m, apr_pool_t *p)
{
    const char *str = po_message_msgstr(m), *src, *cur;
    pc_tr_state_e st;

    src = pc_text_source(tx, t, p);
    if (*str == '\0' || src == NULL
        || (!po_message_is_fuzzy(m) && strcmp(src, po_message_msgid(m)) == 0)
        || (cur = pc_text_get(&st, tx, t, lang, p)) == NULL
        || st != PC_TR_DONE) {
        return 0;
    }
    return strcmp(cur, t->list ? items(str, p)
                               : with_dates(t, lang, po_message_is_fuzzy(m)
                                   && po_message_prev_msgid(m)
                                   ? po_message_prev_msgid(m)
                                   : po_message_msgid(m), str, p)) == 0;
}

/* A file without a fallback that lost a translation gets one: the
 * source language, whose text then stands in. */
static void name_fallback(import_t *im)
{
    if (im->withdrawn > 0 && im->tx->fallback == NULL) {
        pc_langs_put(im->tx->root, "fallback", json_string(im->tx->source));
        fprintf(stderr, "%s import-po: note: %s names no \"fallback\": the "
                "result has \"fallback\": \"%s\", so that %s is served "
                "where a stale translation is withdrawn\n", pc_progname,
                im->tx->file, im->tx->source, im->tx->source);
    }
}

int pc_cmd_import_po(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 'l', 1, "the PO file's language"},
        {"output", 'o', 1, "the data file to write (-: standard output)"},
        {NULL, 0, 0, NULL}
    };
    import_t im = {0};
    apr_getopt_t *os;
    apr_status_t rv;
    po_file_t po = NULL;
    po_message_iterator_t it;
    po_message_t m;
    const char *optarg, *out = NULL, *lang = NULL;
    const char *inputs[3] = {NULL, NULL, NULL};
    int optch, status, notapplied;

    im.p = pc_pool();
    im.titles = apr_array_make(im.p, 8, sizeof(title_t));
    im.empties = apr_hash_make(im.p);
    os = pc_getopt(argc, argv, im.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'l') {
            lang = optarg;
        }
        else {
            out = optarg;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 2) {
        status = pc_fail("import-po", IMPORT_USAGE, pc_progname);
        goto leave;
    }
    im.po = inputs[0] = os->argv[os->ind];
    inputs[1] = os->argv[os->ind + 1];
    if ((status = pc_texts_load(&im.tx, "import-po", inputs[1], im.p))
        != PC_EXIT_OK) {
        goto leave;
    }
    if ((po = pc_po_read("import-po", im.po, im.p)) == NULL
        || (im.lang = po_language(&im, po, lang)) == NULL) {
        status = PC_EXIT_USAGE;
        goto leave;
    }
    it = po_message_iterator(po, NULL);
    while ((m = po_next_message(it)) != NULL) {
        if (*po_message_msgid(m) != '\0' && !po_message_is_obsolete(m)) {
            apply(&im, m);
        }
    }
    po_message_iterator_free(it);
    short_titles(&im);
    name_fallback(&im);
    status = pc_langs_write("import-po", im.tx->root, out, inputs,
                            "with these translations",
                            apr_psprintf(im.p, "translate what is missing, "
                                         "or name a fallback: %s "
                                         "add-language %s %s sets one",
                                         pc_progname, im.lang, inputs[1]),
                            im.p);
    notapplied = im.source_changed + im.fuzzy + im.unknown + im.plain;
    fprintf(stderr, "%s import-po: %s (%s): %d applied (%d changed), %d "
            "not applied: %d source changed, %d fuzzy, %d unknown, %d "
            "plain; %d stale withdrawn; %d untranslated; %d skill names the "
            "same in every language written once; %d short titles from "
            "their titles%s\n", pc_progname,
            im.po, im.lang, im.applied, im.changed, notapplied,
            im.source_changed, im.fuzzy, im.unknown, im.plain, im.withdrawn,
            im.empty, im.once, im.short_titles, status == PC_EXIT_OK ? ""
            : "; nothing written");
    if (status == PC_EXIT_OK && notapplied > 0) {
        status = PC_EXIT_PROBLEMS;
    }
leave:
    if (po != NULL) {
        po_file_free(po);
    }
    if (im.tx != NULL) {
        json_decref(im.tx->root);
    }
    apr_pool_destroy(im.p);
    return status;
}
