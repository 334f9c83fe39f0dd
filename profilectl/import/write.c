/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/write.c -- the last stage of every import (import/import.h):
 * JSON Resume documents, one per language (schema v1.x), checked, their
 * entries paired, and written as one data file (CONTRACT §9), bilingual
 * where the languages differ, the result checked with the module's own
 * loader.  This file holds pc_jr_import_docs and the mapping of each
 * section; the stages it calls are listed in import/import.h.
 *
 * The mapping both ways, and what each direction drops, is documented in
 * docs/jsonresume.md and profilectl.1 (JSON RESUME MAPPING): a change to
 * the mapping here is a change there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_dates.h"
#include "profile_estimate.h"
#include "profile_store.h"
#include "profile_text.h"
#include "profile_validate.h"
#include "common/common.h"
#include "import/stages.h"

/* Sets obj[key] to v, or fails when v is NULL (its message is set). */
static int put(json_t *obj, const char *key, json_t *v)
{
    if (v == NULL) {
        return -1;
    }
    json_object_set_new(obj, key, v);
    return 0;
}

static int import_profile(jr_import_t *im, json_t **basics, json_t *out)
{
    json_t *profile = json_object();

    json_object_set_new(out, "profile", profile);
    return put(profile, "name", pc_jr_name(im, basics, "name", "$.basics"))
           | put(profile, "headline",
                 pc_jr_text(im, basics, "label", "$.basics"))
           | put(profile, "summary",
                 pc_jr_text(im, basics, "summary", "$.basics"));
}

/* Sets obj[key] to the language-neutral string `key2` of entries. */
static int put_neutral(jr_import_t *im, json_t *obj, const char *key,
                       json_t **entries, const char *key2, const char *w)
{
    json_object_set_new(obj, key,
                        json_string(pc_jr_neutral(im, entries, key2, w)));
    return 0;
}

static int fill_skill(jr_import_t *im, json_t **entries, const char *w,
                      json_t *e)
{
    return put(e, "title", pc_jr_text(im, entries, "name", w))
           | put(e, "summary", pc_jr_text(im, entries, "level", w))
           | put(e, "skills", pc_jr_text_list(im, entries, "keywords", w));
}

/* Whether the entries have a location and no description: a role's
 * context that is only where it was. */
static int only_location(jr_import_t *im, json_t **entries)
{
    int l, loc = 0;

    for (l = 0; l < im->n; l++) {
        if (*pc_jr_str(entries[l], "description")) {
            return 0;
        }
        loc |= *pc_jr_str(entries[l], "location") != '\0';
    }
    return loc;
}

/* Every put() runs, so that every problem of an entry is named.  A
 * record's dates are data (CONTRACT §9): its period is left to the
 * module where it writes the same one in every language. */
static int fill_work(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    int rv = put(e, "role", pc_jr_text(im, entries, "position", w));

    rv |= put(e, "company", pc_jr_name(im, entries, "name", w));
    rv |= put_neutral(im, e, "companyUrl", entries, "url", w);
    /* A place alone ("Valencia, Spain", an address) is the same in
     * every language: plain from one language, as names are. */
    rv |= put(e, "context", only_location(im, entries)
                            ? pc_jr_name(im, entries, "location", w)
                            : pc_jr_text2(im, entries, "description",
                                          "location", w));
    rv |= put(e, "period", pc_jr_period(im, entries, NULL, w));
    if (pc_jr_put_dates(im, entries, e)) {
        json_object_del(e, "period");
    }
    return rv | put(e, "highlights",
                    pc_jr_text_list(im, entries, "highlights", w));
}

/* The module writes no education period: the credential keeps it. */
static int fill_education(jr_import_t *im, json_t **entries, const char *w,
                          json_t *e)
{
    int rv = put(e, "degree", pc_jr_text(im, entries, "area", w));

    rv |= put(e, "credential", pc_jr_period(im, entries, "studyType", w));
    rv |= put(e, "institution", pc_jr_name(im, entries, "institution", w));
    rv |= put_neutral(im, e, "institutionUrl", entries, "url", w);
    pc_jr_put_dates(im, entries, e);
    return rv;
}

static int fill_project(jr_import_t *im, json_t **entries, const char *w,
                        json_t *e)
{
    int rv = put(e, "title", pc_jr_title(im, entries, "name", w))
             | put(e, "mobileTitle", pc_jr_title(im, entries, "name", w))
             | put(e, "summary", pc_jr_text(im, entries, "description", w))
             | put(e, "organization", pc_jr_name(im, entries, "entity", w))
             | put(e, "context", pc_jr_period(im, entries, NULL, w));

    json_object_set_new(e, "problem", json_string(""));
    json_object_set_new(e, "intervention", json_string(""));
    json_object_set_new(e, "result", json_string(""));
    rv |= pc_jr_project_link(im, entries, w);
    return rv | put(e, "resultItems",
                    pc_jr_text_list(im, entries, "highlights", w));
}

/* Why the module's memory bound (profile_estimate.h) refuses the data
 * file buf[0..len), the limit named; NULL when it does not.  The steps
 * of the loader's own verdict (profile_store_parse_opts): the parse's
 * estimate, then the load's, after the periods a record leaves to its
 * dates are written. */
static const char *too_large(const char *buf, apr_size_t len, apr_pool_t *p)
{
    profile_parse_estimate_t pest;
    profile_estimate_t est;
    json_error_t jerr;
    json_t *root;
    const char *msg, **langs;
    int nlangs;

    profile_estimate_parse(&pest, buf, len);
    if ((msg = profile_estimate_parse_problem(&pest, len, p)) != NULL) {
        return msg;
    }
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL || profile_validate(root, &langs, &nlangs,
                                         profile_problems_make(p, 1), p)
                        != 0) {
        json_decref(root);
        return NULL;
    }
    profile_date_periods(root, langs, nlangs);
    profile_estimate(&est, root, langs, nlangs, len, 0);
    json_decref(root);
    return profile_estimate_problem(&est, len, p);
}

/* The one path from JSON Resume documents (im->docs, one per language,
 * read) to a data file: import-jsonresume, import-linkedin (whose export
 * it reads as a document) and merge (whose data files it exports as
 * documents) all end here, so that they pair entries by the same rules
 * (import/pair.c). */
int pc_jr_import_docs(jr_import_t *im, const char *out,
                      const char *const *inputs)
{
    const char *big;
    apr_pool_t *p = im->c.p;
    json_t *doc = NULL, *basics[JR_MAX_LANGS];
    json_t *langs;
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *store;
    const char *msg;
    char *buf = NULL;
    int l, rv = PC_EXIT_PROBLEMS, bad = 0;

    if (im->c.problems == NULL) {
        im->c.problems = apr_array_make(p, 8, sizeof(const char *));
    }
    for (l = 0; l < im->n; l++) {
        if (pc_jr_check_doc(im, l) < 0) {
            bad = 1;
        }
        basics[l] = json_object_get(im->docs[l], "basics");
    }
    if (bad) {
        return PC_EXIT_PROBLEMS;
    }
    doc = json_object();
    langs = json_array();
    for (l = 0; l < im->n; l++) {
        json_array_append_new(langs, json_string(im->langs[l]));
    }
    json_object_set_new(doc, "languages", langs);
    /* Here, after languages, kept only when a text lacks a language. */
    json_object_set_new(doc, "fallback", json_string(im->langs[0]));
    /* Every section, so that every problem is named. */
    bad = import_profile(im, basics, doc) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_skills_array, doc,
                              "skills", NULL, fill_skill) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_work_array, doc,
                              "experience", "work", fill_work) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_education_array, doc,
                              "education", NULL, fill_education) < 0;
    bad |= pc_jr_import_contact(im, basics, doc) < 0;
    /* Certificates, spoken languages, location (CONTRACT §9). */
    bad |= pc_jr_import_extras(im, doc) < 0;
    im->links = json_object_get(json_object_get(doc, "contact"), "links");
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_projects_array, doc,
                              "caseStudies", "project", fill_project) < 0;
    im->links = NULL;
    if (bad) {
        goto leave;
    }
    json_object_set_new(doc, "metrics", json_array());
    if (im->declare != NULL && pc_langs_declare(im, doc) < 0) {
        rv = PC_EXIT_USAGE;
        goto leave;
    }
    if (!im->lacking) {
        json_object_del(doc, "fallback");
    }
    else {
        pc_jr_assume(im, -1, "$.fallback: \"%s\", the first language: "
                     "the texts a language has not are "
                     "written without that language and served from %s "
                     "(profilectl untranslated lists them)", im->langs[0],
                     im->langs[0]);
    }

    /* What the module would say of it. */
    buf = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (buf == NULL) {
        pc_jr_fail(&im->c, "out of memory");
        goto leave;
    }
    if (profile_store_parse_opts(&store, &msg, buf, strlen(buf),
                                 out ? out : "(output)", 0, &opts, p)
        != APR_SUCCESS) {
        /* The module's memory bound (CONTRACT §9) refuses a data file
         * too large for it: the documents' size, said plainly; any other
         * refusal of what the import made is its own fault. */
        if ((big = too_large(buf, strlen(buf), p)) != NULL) {
            pc_jr_fail(&im->c, "profilectl %s: the data file made of these "
                       "documents is too large for the module, which would "
                       "refuse it: %s", im->c.cmd, big);
        }
        else {
            pc_jr_fail(&im->c, "profilectl %s: the result is not a valid "
                       "data file (a bug in profilectl): %s", im->c.cmd, msg);
        }
        goto leave;
    }
    if (im->dropped->nelts && im->strict) {
        pc_jr_fail(&im->c, "profilectl %s: --strict: not imported: %s",
                   im->c.cmd, pc_jr_dropped_list(im));
        goto leave;
    }
    im->out = out ? out : "-";
    if ((rv = pc_jr_write_json(&im->c, doc, out, inputs)) == PC_EXIT_OK) {
        im->result = json_incref(doc);
    }
leave:
    free(buf);
    json_decref(doc);
    return rv;
}

