/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_langs.c -- `profilectl add-language L FILE`, and the declaring of
 * languages the importers and import-po share (pc_langs.h).
 *
 * add-language appends L to FILE's "languages" (a file without them
 * declares en and es: the list is written out first) and, when FILE
 * names no "fallback", makes its first language the fallback, so that
 * every text is served in that language until it is translated (CONTRACT
 * §9).  FILE is read as the translators' commands read it (pc_texts.h)
 * and replaced by pc_write's rules, in profilectl's layout; a language
 * already declared, with a fallback, changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_getopt.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "profilectl.h"
#include "pc_langs.h"
#include "pc_texts.h"
#include "profile_locate.h"
#include "profile_validate.h"

#define ADD_USAGE "usage: %s add-language L FILE"
#define RESULT_LISTED 10        /* problems of a refused result */

const char *pc_lang_tag(const char *s, apr_pool_t *p)
{
    char *tag = apr_pstrdup(p, s);
    int i;

    for (i = 0; tag[i]; i++) {
        if (!apr_isalpha(tag[i]) || (tag[i] & 0x80)) {
            return NULL;
        }
        tag[i] = apr_tolower(tag[i]);
    }
    return i >= 2 && i <= 8 ? tag : NULL;
}

apr_array_header_t *pc_lang_list(const char **err, const char *list,
                                 apr_pool_t *p)
{
    apr_array_header_t *a = apr_array_make(p, 4, sizeof(const char *));
    char *last, *t;
    const char *tag;
    int i;

    for (t = apr_strtok(apr_pstrdup(p, list), ",", &last); t;
         t = apr_strtok(NULL, ",", &last)) {
        if ((tag = pc_lang_tag(t, p)) == NULL) {
            *err = apr_psprintf(p, "--languages %s: \"%s\" is not a "
                                "language tag (2 to 8 ASCII letters, e.g. "
                                "en)", list, t);
            return NULL;
        }
        for (i = 0; i < a->nelts; i++) {
            if (strcmp(APR_ARRAY_IDX(a, i, const char *), tag) == 0) {
                *err = apr_psprintf(p, "--languages %s: \"%s\" twice", list,
                                    tag);
                return NULL;
            }
        }
        APR_ARRAY_PUSH(a, const char *) = tag;
    }
    if (a->nelts == 0 || a->nelts > JR_MAX_LANGS) {
        *err = apr_psprintf(p, "--languages %s: name 1 to %d languages",
                            list, JR_MAX_LANGS);
        return NULL;
    }
    return a;
}

void pc_langs_put(json_t *root, const char *key, json_t *v)
{
    json_t *ordered = json_object(), *x;
    const char *k;
    int placed = 0;

    json_object_foreach(root, k, x) {
        if (strcmp(k, key) == 0) {
            continue;
        }
        if (!placed && strcmp(k, "$schema") != 0
            && strcmp(k, "languages") != 0) {
            json_object_set(ordered, key, v);
            placed = 1;
        }
        json_object_set(ordered, k, x);
    }
    if (!placed) {
        json_object_set(ordered, key, v);
    }
    json_decref(v);
    json_object_clear(root);
    json_object_update(root, ordered);
    json_decref(ordered);
}

int pc_langs_write(const char *cmd, json_t *root, const char *out,
                   const char *const *inputs, const char *what,
                   const char *hint, apr_pool_t *p)
{
    profile_problems_t *pr = profile_problems_make(p, RESULT_LISTED);
    const char **langs, *doc;
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    int nlangs, k;

    if (text == NULL) {
        return pc_fail(cmd, "out of memory");
    }
    doc = apr_pstrcat(p, text, "\n", NULL);
    free(text);
    if (profile_validate(root, &langs, &nlangs, pr, p) != 0) {
        profile_data_problems_locate(pr, doc, strlen(doc), p);
        for (k = 0; k < pr->list->nelts; k++) {
            fprintf(stderr, "%s\n", profile_data_problem_line(
                        &APR_ARRAY_IDX(pr->list, k, profile_data_problem_t),
                        "the result", p));
        }
        if (pr->total > (apr_size_t)k) {
            fprintf(stderr, "the result: and %" APR_SIZE_T_FMT " more "
                    "problems\n", pr->total - (apr_size_t)k);
        }
        pc_fail(cmd, "the data file %s would not load in the module (%s); "
                "nothing written", what, hint);
        return PC_EXIT_PROBLEMS;
    }
    return pc_write(cmd, out, doc, strlen(doc), inputs, 0, p);
}

/* The imported language that `tag` names (case-insensitive), or NULL. */
static const char *imported(jr_import_t *im, const char *tag)
{
    int l;

    for (l = 0; l < im->n; l++) {
        if (apr_cstr_casecmp(im->langs[l], tag) == 0) {
            return im->langs[l];
        }
    }
    return NULL;
}

int pc_langs_declare(jr_import_t *im, json_t *doc)
{
    apr_array_header_t *list;
    json_t *langs;
    const char *err, *tag, *have;
    int i, l, found;

    if ((list = pc_lang_list(&err, im->declare, im->c.p)) == NULL) {
        return pc_jr_fail(&im->c, "%s", err);
    }
    for (l = 0; l < im->n; l++) {
        for (found = 0, i = 0; i < list->nelts; i++) {
            found |= apr_cstr_casecmp(APR_ARRAY_IDX(list, i, const char *),
                                      im->langs[l]) == 0;
        }
        if (!found) {
            return pc_jr_fail(&im->c, "--languages %s does not name \"%s\", "
                              "the language of %s: name every language "
                              "imported", im->declare, im->langs[l],
                              im->files[l]);
        }
    }
    langs = json_array();
    for (i = 0; i < list->nelts; i++) {
        tag = APR_ARRAY_IDX(list, i, const char *);
        if ((have = imported(im, tag)) == NULL) {
            /* Nothing in it yet: served from the fallback. */
            im->lacking = 1;
            pc_jr_assume(im, -1, "$.languages: \"%s\" (--languages) has no "
                         "text yet: every text is served from the fallback "
                         "until it is translated", tag);
        }
        json_array_append_new(langs, json_string(have ? have : tag));
    }
    pc_langs_put(doc, "languages", langs);
    return 0;
}

/* FILE with `lang` declared and a fallback; what changed, in *said. */
static int declare(pc_texts_t *tx, const char *lang, const char **said,
                   apr_pool_t *p)
{
    json_t *langs = json_array();
    int l, have = 0, changed = 0;

    *said = "";
    for (l = 0; l < tx->nlangs; l++) {
        have |= strcmp(tx->langs[l], lang) == 0;
        json_array_append_new(langs, json_string(tx->langs[l]));
    }
    if (have) {
        json_decref(langs);
        *said = apr_psprintf(p, "%s already declares \"%s\"%s", tx->file,
                             lang, json_object_get(tx->root, "languages")
                             ? "" : " (a file without \"languages\" declares "
                             "en and es)");
    }
    else {
        json_array_append_new(langs, json_string(lang));
        pc_langs_put(tx->root, "languages", langs);
        *said = apr_psprintf(p, "%s declares \"%s\"", tx->file, lang);
        changed = 1;
    }
    if (tx->fallback == NULL) {
        pc_langs_put(tx->root, "fallback", json_string(tx->langs[0]));
        *said = apr_psprintf(p, "%s%s \"fallback\": \"%s\" is set: %s is "
                             "served where a text has no translation yet",
                             *said, changed ? ", and" : ";", tx->langs[0],
                             tx->langs[0]);
        changed = 1;
    }
    return changed;
}

int pc_cmd_add_language(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {{NULL, 0, 0, NULL}};
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os = pc_getopt(argc, argv, p);
    apr_status_t rv;
    pc_texts_t *tx = NULL;
    const char *optarg, *lang, *said, *file;
    int optch, status, total, n;

    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
    }
    if (rv != APR_EOF || argc - os->ind != 2) {
        status = pc_fail("add-language", ADD_USAGE, pc_progname);
        goto leave;
    }
    file = os->argv[os->ind + 1];
    if ((lang = pc_lang_tag(os->argv[os->ind], p)) == NULL) {
        status = pc_fail("add-language", "\"%s\" is not a language tag: 2 "
                         "to 8 ASCII letters, e.g. es", os->argv[os->ind]);
        goto leave;
    }
    if ((status = pc_texts_load(&tx, "add-language", file, p))
        != PC_EXIT_OK) {
        goto leave;
    }
    if (!declare(tx, lang, &said, p)) {
        fprintf(stderr, "%s add-language: note: %s, and its fallback is "
                "\"%s\": nothing to change\n", pc_progname, said,
                tx->fallback);
        goto leave;
    }
    /* FILE itself is the target: it was read whole above. */
    if ((status = pc_langs_write("add-language", tx->root, file, NULL,
                                 "with this language", "docs/translating.md",
                                 p)) != PC_EXIT_OK) {
        goto leave;
    }
    pc_texts_count(&total, &n, tx, lang, p);
    fprintf(stderr, "%s add-language: %s; %d of %d texts to translate "
            "(%s untranslated --lang %s %s lists them, export-po --lang %s "
            "makes a PO file of them)\n", pc_progname, said, n, total,
            pc_progname, lang, file, lang);
leave:
    if (tx != NULL) {
        json_decref(tx->root);
    }
    apr_pool_destroy(p);
    return status;
}
