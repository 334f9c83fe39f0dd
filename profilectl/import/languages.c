/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/languages.c -- the importers' --languages (im->declare): the
 * languages of the data file they made, each imported language named,
 * the first the fallback of one that has no document (texts/texts.h
 * puts them in place).
 */
#include <string.h>

#include <apr_cstr.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"
#include "texts/texts.h"

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
