/* SPDX-License-Identifier: Apache-2.0 */
/*
 * new.c -- `profilectl new [--languages en] [--force] [FILE]`: a
 * blank data file, valid as it is, for an owner starting from nothing.
 * It is made from the schema tables (profile_schema.c), so it has every
 * field the module requires, in the order responses list them: text
 * values language-tagged ({"en": ""}), one element in each list and
 * collection, ids "example".  One language by default: a second one is
 * added as translations (merge, or a translator's tool), so that nothing
 * is served in a language it was never written in; naming several
 * languages gives every text an empty string in each, said on stderr.
 * The result is checked with the module's validation before it is
 * written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profilectl.h"
#include "profile_schema.h"

static json_t *text_value(const apr_array_header_t *langs)
{
    json_t *t = json_object();
    int l;

    for (l = 0; l < langs->nelts; l++) {
        json_object_set_new(t, APR_ARRAY_IDX(langs, l, const char *),
                            json_string(""));
    }
    return t;
}

static json_t *skeleton(const profile_field_t *fields,
                        const apr_array_header_t *langs)
{
    json_t *obj = json_object();
    const profile_field_t *f;
    json_t *v;
    int l;

    for (f = fields; f->name; f++) {
        switch (f->kind) {
        case PROFILE_K_TEXT:
            v = text_value(langs);
            break;
        case PROFILE_K_TEXTLIST:
            v = json_pack("[o]", text_value(langs));
            break;
        case PROFILE_K_ID:
        case PROFILE_K_KIND:
            v = json_string("example");
            break;
        case PROFILE_K_URL:
            v = json_string("");
            break;
        case PROFILE_K_OBJECT:
            v = skeleton(f->sub, langs);
            break;
        case PROFILE_K_OBJLIST:
            v = json_pack("[o]", skeleton(f->sub, langs));
            break;
        case PROFILE_K_LANGS:
            v = json_array();
            for (l = 0; l < langs->nelts; l++) {
                json_array_append_new(v, json_string(
                    APR_ARRAY_IDX(langs, l, const char *)));
            }
            break;
        default:
            continue;           /* $schema: optional, the owner's choice */
        }
        json_object_set_new(obj, f->name, v);
    }
    return obj;
}

int pc_cmd_new(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"languages", 'l', 1, "the languages, default first (en)"},
        {"force", 'f', 0, "replace FILE if it exists"},
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *list = "en", *err = NULL, *file = NULL;
    apr_array_header_t *langs = apr_array_make(p, 4, sizeof(char *));
    profile_load_opts_t check = {.render = 0, .compress = 0, .max_size = 0,
                                 .problems = NULL};
    profile_store_t *unused;
    char *tag, *state, *json = NULL;
    const char *text;
    json_t *doc;
    int optch, force = 0, status = PC_EXIT_OK;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'l') {
            list = optarg;
        }
        else {
            force = 1;
        }
    }
    if (rv != APR_EOF || argc - os->ind > 1) {
        return pc_fail("new", "usage: %s new [--languages en] [--force] "
                       "[FILE]", pc_progname);
    }
    if (os->ind < argc) {
        file = os->argv[os->ind];
    }
    for (tag = apr_strtok(apr_pstrdup(p, list), ",", &state); tag;
         tag = apr_strtok(NULL, ",", &state)) {
        APR_ARRAY_PUSH(langs, const char *) = tag;
    }
    doc = skeleton(profile_schema_top, langs);
    json = json_dumps(doc, JSON_INDENT(2));
    json_decref(doc);
    if (json == NULL) {
        status = pc_fail("new", "out of memory");
        goto leave;
    }
    /* Bad languages make a bad file: say so rather than write it. */
    if (profile_store_parse_opts(&unused, &err, json, strlen(json),
                                 "--languages", 0, &check, p)
        != APR_SUCCESS) {
        status = pc_fail("new", "no data file with these languages:\n%s",
                         err);
        goto leave;
    }
    /* FILE by the rules of every output (pc_write); it has no inputs. */
    text = apr_pstrcat(p, json, "\n", NULL);
    status = pc_write("new", file, text, strlen(text), NULL,
                      force ? 0 : PC_WRITE_EXCL, p);
    if (status == PC_EXIT_OK && langs->nelts > 1) {
        fprintf(stderr, "profilectl new: note: every text is empty in %d "
                "languages; a text written in %s and left empty in another "
                "is served empty there: write one language first and add "
                "the others as translations (profilectl(1), new)\n",
                langs->nelts, APR_ARRAY_IDX(langs, 0, const char *));
    }

leave:
    free(json);
    apr_pool_destroy(p);
    return status;
}
