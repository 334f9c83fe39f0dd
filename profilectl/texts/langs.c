/* SPDX-License-Identifier: Apache-2.0 */
/*
 * texts/langs.c -- the declaring of languages that add-language
 * (add_language.c), the importers' --languages (import/languages.c) and
 * import-po share (texts/texts.h): a language tag, a list of them, the
 * members "languages" and "fallback" put in their place, and a data file
 * written only when the module's validator takes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_cstr.h>
#include <apr_getopt.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "common/common.h"
#include "texts/texts.h"
#include "profile_locate.h"
#include "profile_validate.h"

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
