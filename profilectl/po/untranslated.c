/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/untranslated.c -- `profilectl untranslated [--lang L] [--po F.po]
 * [--json] FILE`: each text that has no translation in a language, or an
 * empty one for a non-empty source text, by key (texts/texts.h), with its
 * source text, one line each:
 *
 *   es experience/acme-2019 role: missing: "Backend engineer"
 *   es skills/backend title: empty: "Backend"
 *   es experience/acme-2019 highlights: missing: ["Led X", "Built Y"]
 *   es profile headline: stale: "Principal engineer"
 *
 * A stale translation is one the data file has but PO file F.po (of its
 * language) shows was made from another source text (pc_po_stale: the
 * data file itself keeps no record of it); only with --po.
 * (the source as a JSON string, or a JSON array for a list given per
 * language), every language but the source one after the other, or L
 * only.  --json prints one JSON array of objects {"lang", "key",
 * "record", "field", "path", "state", "source"}.  Standard error ends
 * with one count line per language.  Exit status 0 when nothing is
 * untranslated, 1 when something is, 2 when the file cannot be read
 * as pc_texts_load reads it or L is not a language to translate into.
 * check's counts per language (pc_untranslated_counts) are here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>
#include <jansson.h>

#include "common/common.h"
#include "po/po.h"
#include "texts/texts.h"
#include "profile_untranslated.h"

#define UNTRANSLATED_USAGE \
    "usage: %s untranslated [--lang L] [--po F.po] [--json] FILE"

/* --po: the PO file, its language and its entries by msgctxt. */
typedef struct {
    const char *path, *lang;
    po_file_t f;
    apr_hash_t *by_key;
} po_t;

/* The source of t as JSON: its string, or its list's array. */
static json_t *source_json(const pc_texts_t *tx, const pc_text_t *t)
{
    return json_object_get(pc_text_value(t), tx->source);
}

/* How text t stands in lang, by the module's rule (one definition,
 * profile_untranslated.h), so check and untranslated count what the
 * status handlers and the metrics count. */
static pc_tr_state_e tr_state(const pc_text_t *t, const char *lang)
{
    json_t *v = pc_text_value(t);

    if (profile_untranslated_in(v, lang)) {
        return json_object_get(v, lang) == NULL ? PC_TR_MISSING
                                                : PC_TR_EMPTY;
    }
    return profile_untranslated_some(v) ? PC_TR_DONE : PC_TR_NONE;
}

/* Whether the PO file shows t's translation in lang to be stale. */
static int is_stale(const pc_texts_t *tx, const pc_text_t *t,
                    const char *lang, const po_t *po, apr_pool_t *p)
{
    po_message_t m;

    if (po == NULL || (m = apr_hash_get(po->by_key, t->key,
                                        APR_HASH_KEY_STRING)) == NULL) {
        return 0;
    }
    return pc_po_stale(tx, t, lang, m, p);
}

/* Lists lang's untranslated texts, and with a PO file its stale ones
 * (into `all` with --json); returns their number. */
static int list_lang(const pc_texts_t *tx, const char *lang, json_t *all,
                     const po_t *po, apr_pool_t *p)
{
    pc_tr_state_e st;
    int i, n = 0, total = 0, stale = 0;

    for (i = 0; i < tx->texts->nelts; i++) {
        const pc_text_t *t = &APR_ARRAY_IDX(tx->texts, i, pc_text_t);
        const char *state;

        st = tr_state(t, lang);
        total += st != PC_TR_NONE;
        if (st == PC_TR_DONE && is_stale(tx, t, lang, po, p)) {
            stale++;
            state = "stale";
        }
        else if (st == PC_TR_MISSING || st == PC_TR_EMPTY) {
            n++;
            state = st == PC_TR_MISSING ? "missing" : "empty";
        }
        else {
            continue;
        }
        if (all != NULL) {
            json_array_append_new(all, json_pack(
                "{s:s, s:s, s:s, s:s, s:s, s:s, s:O}", "lang", lang,
                "key", t->key, "record", t->record, "field", t->field,
                "path", t->path, "state", state, "source",
                source_json(tx, t)));
        }
        else {
            char *src = json_dumps(source_json(tx, t),
                                   JSON_ENCODE_ANY | JSON_COMPACT);

            printf("%s %s: %s: %s\n", lang, t->key, state,
                   src ? src : "");
            free(src);
        }
    }
    fprintf(stderr, "%s: %s: %d of %d texts untranslated%s\n", tx->file,
            lang, n, total, po ? apr_psprintf(p, ", %d stale (%s)", stale,
                                              po->path) : "");
    return n + stale;
}

/* Reads --po: its language (the header's, or --lang, which must agree)
 * must be one to translate into. */
static int read_po(po_t *po, const pc_texts_t *tx, const char *lang,
                   apr_pool_t *p)
{
    po_message_iterator_t it;
    po_message_t m;
    const char *tag, *why;

    if ((po->f = pc_po_read("untranslated", po->path, p)) == NULL) {
        return PC_EXIT_USAGE;
    }
    tag = pc_po_header(po->f, "Language", p);
    po->lang = tag ? pc_texts_lang(tx, tag, p) : lang;
    if (tag != NULL && po->lang == NULL) {
        po->lang = tag;
    }
    if (po->lang == NULL) {
        return pc_fail("untranslated", "%s has no Language in its header: "
                       "name it with --lang", po->path);
    }
    if (lang != NULL && strcmp(lang, po->lang) != 0) {
        return pc_fail("untranslated", "%s is a PO file for \"%s\", not "
                       "\"%s\"", po->path, po->lang, lang);
    }
    if ((why = pc_texts_target(tx, po->lang, p)) != NULL) {
        return pc_fail("untranslated", "%s: %s", po->path, why);
    }
    po->by_key = apr_hash_make(p);
    it = po_message_iterator(po->f, NULL);
    while ((m = po_next_message(it)) != NULL) {
        if (po_message_msgctxt(m) != NULL && !po_message_is_obsolete(m)) {
            apr_hash_set(po->by_key, po_message_msgctxt(m),
                         APR_HASH_KEY_STRING, m);
        }
    }
    po_message_iterator_free(it);
    return PC_EXIT_OK;
}

int pc_cmd_untranslated(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 'l', 1, "only this language"},
        {"po", 'p', 1, "the PO file that tells stale translations"},
        {"json", 'j', 0, "a JSON array"},
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    pc_texts_t *tx = NULL;
    po_t po = {0};
    const char *optarg, *lang = NULL, *why;
    json_t *all = NULL;
    int optch, as_json = 0, l, n = 0, status;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'l') {
            lang = optarg;
        }
        else if (optch == 'p') {
            po.path = optarg;
        }
        else {
            as_json = 1;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 1) {
        status = pc_fail("untranslated", UNTRANSLATED_USAGE, pc_progname);
        goto leave;
    }
    if ((status = pc_texts_load(&tx, "untranslated", os->argv[os->ind], p))
        != PC_EXIT_OK) {
        goto leave;
    }
    if (lang != NULL && (why = pc_texts_target(tx, lang, p)) != NULL) {
        status = pc_fail("untranslated", "%s", why);
        goto leave;
    }
    if (po.path != NULL) {
        if ((status = read_po(&po, tx, lang, p)) != PC_EXIT_OK) {
            goto leave;
        }
        lang = po.lang;
    }
    all = as_json ? json_array() : NULL;
    for (l = 0; l < tx->nlangs; l++) {
        if (strcmp(tx->langs[l], tx->source) != 0
            && (lang == NULL || strcmp(lang, tx->langs[l]) == 0)) {
            n += list_lang(tx, tx->langs[l], all, po.path ? &po : NULL, p);
        }
    }
    if (all != NULL) {
        char *text = json_dumps(all, JSON_INDENT(2));

        printf("%s\n", text ? text : "[]");
        free(text);
        json_decref(all);
    }
    status = n > 0 ? PC_EXIT_PROBLEMS : PC_EXIT_OK;
leave:
    if (po.f != NULL) {
        po_file_free(po.f);
    }
    if (tx != NULL) {
        json_decref(tx->root);
    }
    apr_pool_destroy(p);
    return status;
}

void pc_texts_count(int *total, int *untranslated, const pc_texts_t *tx,
                    const char *lang, apr_pool_t *p)
{
    pc_tr_state_e st;
    int i;

    *total = *untranslated = 0;
    for (i = 0; i < tx->texts->nelts; i++) {
        st = tr_state(&APR_ARRAY_IDX(tx->texts, i, pc_text_t), lang);
        *total += st != PC_TR_NONE;
        *untranslated += st == PC_TR_MISSING || st == PC_TR_EMPTY;
    }
    (void)p;
}

void pc_untranslated_counts(const pc_input_t *in, int valid, apr_pool_t *p)
{
    const char *file = in->path;
    pc_texts_t *tx;
    int l, any = 0, *total, *n;

    if (pc_texts_parse(&tx, NULL, in, valid, p) != PC_EXIT_OK) {
        return;
    }
    total = apr_pcalloc(p, sizeof(int) * (size_t)tx->nlangs);
    n = apr_pcalloc(p, sizeof(int) * (size_t)tx->nlangs);
    for (l = 0; l < tx->nlangs; l++) {
        pc_texts_count(&total[l], &n[l], tx, tx->langs[l], p);
        any |= n[l] > 0;
    }
    /* A file with every translation says nothing, as a good file does;
     * the source language is named only when it lacks text another
     * language has (the module counts it there too). */
    for (l = 0; any && l < tx->nlangs; l++) {
        if (strcmp(tx->langs[l], tx->source) == 0 && n[l] == 0) {
            continue;
        }
        fprintf(stderr, "%s: %s: %d of %d texts untranslated%s\n", file,
                tx->langs[l], n[l], total[l],
                n[l] && tx->langs[l] != tx->source ? apr_psprintf(
                    p, " (%s untranslated --lang %s %s lists them)",
                    pc_progname, tx->langs[l], file) : "");
    }
    /* Refused only for its missing translations: a fallback would do. */
    for (l = 0; !valid && tx->fallback == NULL && l < tx->nlangs; l++) {
        if (n[l] > 0 && strcmp(tx->langs[l], tx->source) != 0) {
            fprintf(stderr, "%s: its only problems are missing translations:"
                    " with a \"fallback\" the module serves %s there (%s "
                    "add-language %s %s sets \"fallback\": \"%s\")\n",
                    file, tx->source, pc_progname, tx->langs[l], file,
                    tx->source);
            break;
        }
    }
    json_decref(tx->root);
}
