/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_untranslated.c -- `profilectl untranslated [--lang L] [--json]
 * FILE`: each text that has no translation in a language, or an empty
 * one for a non-empty source text, by key (pc_texts.h), with its source
 * text, one line each:
 *
 *   es experience/acme-2019 role: missing: "Backend engineer"
 *   es skills/backend title: empty: "Backend"
 *   es experience/acme-2019 highlights: missing: ["Led X", "Built Y"]
 *
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

#include "profilectl.h"
#include "pc_input.h"
#include "pc_texts.h"
#include "profile_untranslated.h"

#define UNTRANSLATED_USAGE \
    "usage: %s untranslated [--lang L] [--json] FILE"

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

/* Lists lang's untranslated texts (into `all` with --json); returns
 * their number. */
static int list_lang(const pc_texts_t *tx, const char *lang, json_t *all)
{
    pc_tr_state_e st;
    int i, n = 0, total = 0;

    for (i = 0; i < tx->texts->nelts; i++) {
        const pc_text_t *t = &APR_ARRAY_IDX(tx->texts, i, pc_text_t);
        const char *state;

        st = tr_state(t, lang);
        total += st != PC_TR_NONE;
        if (st != PC_TR_MISSING && st != PC_TR_EMPTY) {
            continue;
        }
        n++;
        state = st == PC_TR_MISSING ? "missing" : "empty";
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
    fprintf(stderr, "%s: %s: %d of %d texts untranslated\n", tx->file, lang,
            n, total);
    return n;
}

int pc_cmd_untranslated(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 'l', 1, "only this language"},
        {"json", 'j', 0, "a JSON array"},
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    pc_texts_t *tx;
    const char *optarg, *lang = NULL, *why;
    json_t *all = NULL;
    int optch, as_json = 0, l, n = 0, status;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'l') {
            lang = optarg;
        }
        else {
            as_json = 1;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 1) {
        status = pc_fail("untranslated", UNTRANSLATED_USAGE, pc_progname);
        apr_pool_destroy(p);
        return status;
    }
    if ((status = pc_texts_load(&tx, "untranslated", os->argv[os->ind], p))
        != PC_EXIT_OK) {
        apr_pool_destroy(p);
        return status;
    }
    if (lang != NULL && (why = pc_texts_target(tx, lang, p)) != NULL) {
        json_decref(tx->root);
        status = pc_fail("untranslated", "%s", why);
        apr_pool_destroy(p);
        return status;
    }
    all = as_json ? json_array() : NULL;
    for (l = 0; l < tx->nlangs; l++) {
        if (strcmp(tx->langs[l], tx->source) != 0
            && (lang == NULL || strcmp(lang, tx->langs[l]) == 0)) {
            n += list_lang(tx, tx->langs[l], all);
        }
    }
    if (all != NULL) {
        char *text = json_dumps(all, JSON_INDENT(2));

        printf("%s\n", text ? text : "[]");
        free(text);
        json_decref(all);
    }
    json_decref(tx->root);
    apr_pool_destroy(p);
    return n > 0 ? PC_EXIT_PROBLEMS : PC_EXIT_OK;
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

void pc_untranslated_counts(const char *file, int valid, apr_pool_t *p)
{
    pc_texts_t *tx;
    int l, any = 0, *total, *n;

    if (pc_input_check(&(const char *){NULL}, file, p) < 0
        || pc_texts_read(&tx, NULL, file, valid, p) != PC_EXIT_OK) {
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
    json_decref(tx->root);
}
