/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_po_import.c -- `profilectl import-po [--lang L] F.po FILE [-o
 * OUT]`: the translations of a PO file (read by libgettextpo, pc_po.c)
 * put into data file FILE, written to OUT or standard output (never
 * over FILE: profilectl.1, OUTPUT FILES).  The language is the PO
 * header's Language (es, es_ES and es-MX name a file's "es"), or L.
 *
 * An entry is applied when its msgctxt is a key of FILE (pc_texts.h),
 * its msgid is that text's source text now, it is not fuzzy, and its
 * msgstr is not empty.  One whose msgid is not the source text any more
 * is reported as "source changed" and not applied; so is an unknown
 * key, and one naming a plain string (the same in every language).
 * The result is validated as the module validates a data file; an
 * invalid one is not written.  Standard error ends with one summary
 * line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>

#include "profilectl.h"
#include "pc_po.h"
#include "pc_texts.h"
#include "profile_validate.h"

#define IMPORT_USAGE "usage: %s import-po [--lang L] F.po FILE [-o OUT]"
#define REPORTED_MAX 20         /* report lines of each kind */
#define RESULT_LISTED 10        /* problems of a refused result */

typedef struct {
    apr_pool_t *p;
    pc_texts_t *tx;
    const char *po, *lang;
    int applied, changed, fuzzy, empty, source_changed, unknown, plain;
    int reported;
} import_t;

/* One report line, the first REPORTED_MAX only. */
static void note(import_t *im, const char *key, const char *text)
{
    if (im->reported++ < REPORTED_MAX) {
        fprintf(stderr, "%s: %s: %s\n", im->po, key, text);
    }
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

static void apply(import_t *im, po_message_t m)
{
    const char *ctx = po_message_msgctxt(m), *src, *cur, *str;
    const pc_text_t *t;
    pc_tr_state_e st;
    json_t *v;

    if (ctx == NULL || (t = apr_hash_get(im->tx->by_key, ctx,
                                         APR_HASH_KEY_STRING)) == NULL) {
        im->unknown++;
        note(im, ctx ? ctx : shown(po_message_msgid(m), im->p),
             apr_psprintf(im->p, "no such text in %s (not applied)",
                          im->tx->file));
        return;
    }
    str = po_message_msgstr(m);
    if (*str == '\0') {
        im->empty++;
        return;
    }
    if (po_message_is_fuzzy(m)) {
        im->fuzzy++;
        return;
    }
    v = pc_text_value(t);
    src = pc_text_source(im->tx, t, im->p);
    if (src == NULL || !json_is_object(v)) {
        im->plain++;
        note(im, ctx, "nothing to translate there now (a plain string, the "
             "same in every language, or an empty source): not applied");
        return;
    }
    if (strcmp(src, po_message_msgid(m)) != 0) {
        im->source_changed++;
        note(im, ctx, apr_psprintf(im->p, "source changed: translated from "
                                   "%s, the source is now %s (not applied; "
                                   "export-po again marks it fuzzy)",
                                   shown(po_message_msgid(m), im->p),
                                   shown(src, im->p)));
        return;
    }
    /* A copy: setting the translation frees the string it was. */
    cur = pc_text_get(&st, im->tx, t, im->lang, im->p);
    cur = cur ? apr_pstrdup(im->p, cur) : NULL;
    text_set(im->tx, t, im->lang, str);
    im->applied++;
    /* A list compares as its items, one per line, as it was set. */
    im->changed += cur == NULL
                   || strcmp(cur, pc_text_get(&st, im->tx, t, im->lang,
                                              im->p)) != 0;
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

/* The data file as profilectl writes one, if the module's validator
 * takes it; else its problems printed and PC_EXIT_PROBLEMS. */
static int write_result(import_t *im, const char *out,
                        const char *const *inputs)
{
    profile_problems_t *pr = profile_problems_make(im->p, RESULT_LISTED);
    const char **langs;
    char *text = json_dumps(im->tx->root, JSON_INDENT(2)
                                          | JSON_PRESERVE_ORDER);
    const char *doc;
    int nlangs, k;

    if (text == NULL) {
        return pc_fail("import-po", "out of memory");
    }
    doc = apr_pstrcat(im->p, text, "\n", NULL);
    free(text);
    if (profile_validate(im->tx->root, &langs, &nlangs, pr, im->p) != 0) {
        profile_data_problems_locate(pr, doc, strlen(doc), im->p);
        for (k = 0; k < pr->list->nelts; k++) {
            fprintf(stderr, "%s\n", profile_data_problem_line(
                        &APR_ARRAY_IDX(pr->list, k, profile_data_problem_t),
                        "the result", im->p));
        }
        if (pr->total > (apr_size_t)k) {
            fprintf(stderr, "the result: and %" APR_SIZE_T_FMT " more "
                    "problems\n", pr->total - (apr_size_t)k);
        }
        pc_fail("import-po", "the data file with these translations would "
                "not load in the module (translate what is missing, or name "
                "a \"fallback\": docs/translating.md); nothing written");
        return PC_EXIT_PROBLEMS;
    }
    return pc_write("import-po", out, doc, strlen(doc), inputs, 0, im->p);
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
    int optch, status;

    im.p = pc_pool();
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
    if (im.reported > REPORTED_MAX) {
        fprintf(stderr, "%s: and %d more entries not applied\n", im.po,
                im.reported - REPORTED_MAX);
    }
    status = write_result(&im, out, inputs);
    fprintf(stderr, "%s import-po: %s (%s): %d applied (%d changed), %d "
            "not applied: %d source changed, %d fuzzy, %d untranslated, %d "
            "unknown, %d plain%s\n", pc_progname, im.po, im.lang, im.applied,
            im.changed, im.source_changed + im.fuzzy + im.empty + im.unknown
            + im.plain, im.source_changed, im.fuzzy, im.empty, im.unknown,
            im.plain, status == PC_EXIT_OK ? "" : "; nothing written");
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
