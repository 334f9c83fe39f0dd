/* SPDX-License-Identifier: Apache-2.0 */
/*
 * add_language.c -- `profilectl add-language L FILE`.
 *
 * add-language appends L to FILE's "languages" (a file without them
 * declares en and es: the list is written out first) and, when FILE
 * names no "fallback", makes its first language the fallback, so that
 * every text is served in that language until it is translated (CONTRACT
 * §9).  FILE is read as the translators' commands read it (texts/texts.h)
 * and replaced by pc_write's rules, in profilectl's layout; a language
 * already declared, with a fallback, changes nothing.
 */
#include <stdio.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>

#include "profilectl.h"
#include "po/po.h"
#include "texts/texts.h"

#define ADD_USAGE "usage: %s add-language L FILE"

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
