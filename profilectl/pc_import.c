/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import.c -- profilectl import-jsonresume: merges one JSON Resume
 * document (schema v1.x) per language into one data file (CONTRACT §9),
 * bilingual where the languages differ, and checks the result with the
 * module's own loader.  This file holds the command (its arguments, the
 * languages of the files) and the mapping of each section; the files it
 * uses are listed in pc_jr.h.
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

#include "profile_store.h"
#include "profilectl.h"
#include "pc_jsonresume.h"
#include "pc_jr.h"

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
    return put(profile, "name", pc_jr_text(im, basics, "name", "basics"))
           || put(profile, "headline",
                  pc_jr_text(im, basics, "label", "basics"))
           || put(profile, "summary",
                  pc_jr_text(im, basics, "summary", "basics"));
}

static int fill_link(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    const char *network = pc_jr_str(entries[0], "network");

    (void)w;
    json_object_set_new(e, "kind",
                        json_string(pc_jr_kind_of(network, im->c.p)));
    json_object_set_new(e, "text", json_string(network));
    json_object_set_new(e, "url", json_string(pc_jr_str(entries[0], "url")));
    return 0;
}

static int fill_skill(jr_import_t *im, json_t **entries, const char *w,
                      json_t *e)
{
    return put(e, "title", pc_jr_text(im, entries, "name", w))
           || put(e, "summary", pc_jr_text(im, entries, "level", w))
           || put(e, "skills", pc_jr_text_list(im, entries, "keywords", w))
           ? -1 : 0;
}

static int fill_work(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    if (put(e, "role", pc_jr_text(im, entries, "position", w))
        || put(e, "company", pc_jr_text(im, entries, "name", w))) {
        return -1;
    }
    json_object_set_new(e, "companyUrl",
                        json_string(pc_jr_str(entries[0], "url")));
    return put(e, "context", pc_jr_text2(im, entries, "description",
                                         "location", w))
           || put(e, "period", pc_jr_period(im, entries, NULL, w))
           || put(e, "highlights",
                  pc_jr_text_list(im, entries, "highlights", w))
           ? -1 : 0;
}

static int fill_education(jr_import_t *im, json_t **entries, const char *w,
                          json_t *e)
{
    if (put(e, "degree", pc_jr_text(im, entries, "area", w))
        || put(e, "credential", pc_jr_period(im, entries, "studyType", w))
        || put(e, "institution", pc_jr_text(im, entries, "institution", w))) {
        return -1;
    }
    json_object_set_new(e, "institutionUrl",
                        json_string(pc_jr_str(entries[0], "url")));
    return 0;
}

static int fill_project(jr_import_t *im, json_t **entries, const char *w,
                        json_t *e)
{
    if (put(e, "title", pc_jr_text(im, entries, "name", w))
        || put(e, "mobileTitle", pc_jr_text(im, entries, "name", w))
        || put(e, "summary", pc_jr_text(im, entries, "description", w))
        || put(e, "organization", pc_jr_text(im, entries, "entity", w))
        || put(e, "context", pc_jr_period(im, entries, NULL, w))) {
        return -1;
    }
    json_object_set_new(e, "problem", json_string(""));
    json_object_set_new(e, "intervention", json_string(""));
    json_object_set_new(e, "result", json_string(""));
    return put(e, "resultItems",
               pc_jr_text_list(im, entries, "highlights", w));
}

static int import_contact(jr_import_t *im, json_t **basics, json_t *out)
{
    apr_pool_t *p = im->c.p;
    json_t *contact = json_object(), *contacts = json_array();
    json_t *links = json_array(), *e;
    const char *email = pc_jr_str(basics[0], "email");
    const char *phone = pc_jr_str(basics[0], "phone");
    const char *url = pc_jr_str(basics[0], "url"), *tel, *s;
    const char *neutral[] = {"email", "phone", "url", NULL};
    size_t n;
    int l, k;

    json_object_set_new(out, "contact", contact);
    json_object_set_new(contact, "contacts", contacts);
    json_object_set_new(contact, "links", links);
    for (l = 1; l < im->n; l++) {
        for (k = 0; neutral[k]; k++) {
            if (strcmp(pc_jr_str(basics[0], neutral[k]),
                       pc_jr_str(basics[l], neutral[k])) != 0) {
                return pc_jr_fail(&im->c, "basics.%s differs: \"%s\" in "
                                  "%s, \"%s\" in %s (it must be the same "
                                  "in every language)", neutral[k],
                                  pc_jr_str(basics[0], neutral[k]),
                                  im->langs[0],
                                  pc_jr_str(basics[l], neutral[k]),
                                  im->langs[l]);
            }
        }
    }
    if (*email) {
        e = json_object();
        json_array_append_new(contacts, e);
        json_object_set_new(e, "kind", json_string("email"));
        if (put(e, "label", pc_jr_words(im, "Email",
                                        "Correo electr\xc3\xb3nico"))) {
            return -1;
        }
        json_object_set_new(e, "text", json_string(email));
        json_object_set_new(e, "url", json_string(apr_pstrcat(p, "mailto:",
                                                             email, NULL)));
    }
    if (*phone) {
        char *digits = apr_palloc(p, strlen(phone) + 1), *d = digits;

        for (s = phone; *s; s++) {
            if (apr_isdigit(*s) || (*s == '+' && d == digits)) {
                *d++ = *s;
            }
        }
        *d = '\0';
        tel = *digits ? apr_pstrcat(p, "tel:", digits, NULL) : "";
        e = json_object();
        json_array_append_new(contacts, e);
        json_object_set_new(e, "kind", json_string("phone"));
        if (put(e, "label", pc_jr_words(im, "Phone", "Tel\xc3\xa9" "fono"))) {
            return -1;
        }
        json_object_set_new(e, "text", json_string(phone));
        json_object_set_new(e, "url", json_string(tel));
    }
    if (*url) {
        s = url;
        if (strncasecmp(s, "https://", 8) == 0) {
            s += 8;
        }
        else if (strncasecmp(s, "http://", 7) == 0) {
            s += 7;
        }
        n = strlen(s);
        e = json_object();
        json_array_append_new(links, e);
        json_object_set_new(e, "kind", json_string("website"));
        json_object_set_new(e, "text", json_stringn(s, n && s[n - 1] == '/'
                                                       ? n - 1 : n));
        json_object_set_new(e, "url", json_string(url));
    }
    return pc_jr_import_array(im, basics, &pc_jr_profiles_array, contact,
                              "links", NULL, fill_link);
}

/* The languages of the documents: --lang-order's list, else each file's
 * name (NAME.LANG.json, or LANG.json for a 2- or 3-letter code). */
static int import_langs(jr_import_t *im, const char *order)
{
    apr_pool_t *p = im->c.p;
    char *list, *last, *t;
    const char *base, *dot;
    int l, k, n = 0;
    size_t len;

    if (order != NULL) {
        list = apr_pstrdup(p, order);
        for (t = apr_strtok(list, ",", &last); t;
             t = apr_strtok(NULL, ",", &last)) {
            if (n == im->n) {
                return pc_jr_fail(&im->c, "--lang-order names %d or more "
                                  "languages for %d file%s", n + 1, im->n,
                                  im->n == 1 ? "" : "s");
            }
            im->langs[n++] = t;
        }
        if (n != im->n) {
            return pc_jr_fail(&im->c, "--lang-order names %d language%s "
                              "for %d files", n, n == 1 ? "" : "s", im->n);
        }
    }
    for (l = 0; l < im->n; l++) {
        if (order == NULL) {
            base = strrchr(im->files[l], '/');
            base = base ? base + 1 : im->files[l];
            len = strlen(base);
            if (len < 5 || strcmp(base + len - 5, ".json") != 0) {
                dot = NULL;
            }
            else {
                for (dot = base + len - 6; dot > base && *dot != '.'; dot--) {
                }
            }
            if (dot != NULL && dot == base && *dot != '.'
                && (len == 7 || len == 8)) {
                /* LANG.json: a bare ISO 639 code (2 or 3 letters). */
                im->langs[l] = apr_pstrndup(p, base, len - 5);
            }
            else if (dot == NULL || dot == base) {
                return pc_jr_fail(&im->c, "which language is %s? Name the "
                                  "files LANG.json or NAME.LANG.json (e.g. "
                                  "en.json, resume.en.json) or give "
                                  "--lang-order LANG,LANG,... in the order "
                                  "of the files", im->files[l]);
            }
            else {
                im->langs[l] = apr_pstrndup(p, dot + 1,
                                            base + len - 5 - dot - 1);
            }
        }
        t = apr_pstrdup(p, im->langs[l]);
        len = strlen(t);
        for (k = 0; t[k]; k++) {
            if (!apr_isalpha(t[k]) || (t[k] & 0x80)) {
                len = 0;
            }
            t[k] = apr_tolower(t[k]);
        }
        if (len < 2 || len > 8) {
            return pc_jr_fail(&im->c, "\"%s\" (%s) is not a language tag: "
                              "2 to 8 ASCII letters, e.g. en", im->langs[l],
                              im->files[l]);
        }
        im->langs[l] = t;
        for (k = 0; k < l; k++) {
            if (strcmp(im->langs[k], t) == 0) {
                return pc_jr_fail(&im->c, "%s and %s are both in language %s",
                                  im->files[k], im->files[l], t);
            }
        }
    }
    return 0;
}

#define IMPORT_USAGE "usage: %s import-jsonresume [--lang-order L1,L2,...] " \
    "[-o OUT] RESUME.json..."

/* Returns the exit status; the problem is im->c.err (not printed). */
static int import_run(jr_import_t *im, const char *order, const char *out)
{
    apr_pool_t *p = im->c.p;
    json_t *doc = NULL, *basics[JR_MAX_LANGS];
    json_t *langs;
    json_error_t jerr;
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *store;
    const char *msg, *list;
    const char *inputs[JR_MAX_LANGS + 1];
    char *buf = NULL;
    int l, rv = PC_EXIT_PROBLEMS;

    for (l = 0; l < im->n; l++) {
        inputs[l] = im->files[l];
    }
    inputs[im->n] = NULL;
    if (import_langs(im, order) < 0) {
        return PC_EXIT_USAGE;
    }
    for (l = 0; l < im->n; l++) {
        im->docs[l] = json_load_file(im->files[l], JSON_REJECT_DUPLICATES,
                                     &jerr);
        if (im->docs[l] == NULL) {
            /* jansson's line is -1 when the file cannot be read. */
            if (jerr.line < 1) {
                pc_jr_fail(&im->c, "%s", jerr.text);
            }
            else {
                pc_jr_fail(&im->c, "%s:%d:%d: %s", im->files[l], jerr.line,
                           jerr.column, jerr.text);
            }
            return PC_EXIT_USAGE;
        }
        if (pc_jr_check_doc(im, l) < 0) {
            return PC_EXIT_PROBLEMS;
        }
        basics[l] = json_object_get(im->docs[l], "basics");
    }
    doc = json_object();
    langs = json_array();
    for (l = 0; l < im->n; l++) {
        json_array_append_new(langs, json_string(im->langs[l]));
    }
    json_object_set_new(doc, "languages", langs);
    if (import_profile(im, basics, doc) < 0) {
        goto leave;
    }
    if (pc_jr_import_array(im, im->docs, &pc_jr_skills_array, doc, "skills",
                           NULL, fill_skill) < 0
        || pc_jr_import_array(im, im->docs, &pc_jr_work_array, doc,
                              "experience", "work", fill_work) < 0
        || pc_jr_import_array(im, im->docs, &pc_jr_education_array, doc,
                              "education", NULL, fill_education) < 0
        || import_contact(im, basics, doc) < 0
        || pc_jr_import_array(im, im->docs, &pc_jr_projects_array, doc,
                              "caseStudies", "project", fill_project) < 0) {
        goto leave;
    }
    json_object_set_new(doc, "metrics", json_array());

    /* What the module would say of it. */
    buf = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (buf == NULL) {
        pc_jr_fail(&im->c, "out of memory");
        goto leave;
    }
    if (profile_store_parse_opts(&store, &msg, buf, strlen(buf),
                                 out ? out : "(output)", 0, &opts, p)
        != APR_SUCCESS) {
        pc_jr_fail(&im->c, "the result is not a valid data file (a bug in "
                   "profilectl): %s", msg);
        goto leave;
    }
    if ((rv = pc_jr_write_json(&im->c, doc, out, inputs)) != PC_EXIT_OK) {
        goto leave;
    }
    if (im->dropped->nelts) {
        list = pc_jr_join(im->dropped->nelts,
                          (const char **)im->dropped->elts, ", ", p);
        pc_jr_note(&im->c, apr_psprintf(p, "not imported (the data file has "
                                        "no place for them): %s", list));
    }
leave:
    free(buf);
    json_decref(doc);
    return rv;
}

int pc_cmd_import_jsonresume(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang-order", 256, 1, "the languages of the files, in order"},
        {"output", 'o', 1, "the data file to write (-: standard output)"},
        /* --strict sets im.strict; the mapping decides what it refuses. */
        {"strict", 257, 0, "refuse what the mapping would drop"},
        {NULL, 0, 0, NULL}
    };
    jr_import_t im;
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *order = NULL, *out = NULL;
    int optch, i, status;

    memset(&im, 0, sizeof(im));
    im.c.cmd = "import-jsonresume";
    im.c.p = pc_pool();
    os = pc_getopt(argc, argv, im.c.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        switch (optch) {
        case 256: order = optarg; break;
        case 'o': out = optarg; break;
        case 257: im.strict = 1; break;
        }
    }
    if (rv != APR_EOF || os->ind >= argc) {
        return pc_fail(im.c.cmd, IMPORT_USAGE, pc_progname);
    }
    if (argc - os->ind > JR_MAX_LANGS) {
        return pc_fail(im.c.cmd, "at most %d files", JR_MAX_LANGS);
    }
    for (i = os->ind; i < argc; i++) {
        im.files[im.n++] = os->argv[i];
    }
    im.dropped = apr_array_make(im.c.p, 8, sizeof(const char *));
    im.dropped_seen = apr_hash_make(im.c.p);
    status = import_run(&im, order, out);
    if (status != PC_EXIT_OK && im.c.err != NULL) {
        pc_fail(im.c.cmd, "%s", im.c.err);
    }
    for (i = 0; i < im.n; i++) {
        json_decref(im.docs[i]);
    }
    apr_pool_destroy(im.c.p);
    return status;
}
