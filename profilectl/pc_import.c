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
#include "profile_text.h"
#include "profilectl.h"
#include "pc_jsonresume.h"
#include "pc_jr.h"
#include "pc_input.h"

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
    return put(profile, "name", pc_jr_text(im, basics, "name", "$.basics"))
           | put(profile, "headline",
                 pc_jr_text(im, basics, "label", "$.basics"))
           | put(profile, "summary",
                 pc_jr_text(im, basics, "summary", "$.basics"));
}

/* Sets obj[key] to the language-neutral string `key2` of entries, or
 * fails (its message is set). */
static int put_neutral(jr_import_t *im, json_t *obj, const char *key,
                       json_t **entries, const char *key2, const char *w)
{
    const char *v = pc_jr_neutral(im, entries, key2, w);

    if (v == NULL) {
        return -1;
    }
    json_object_set_new(obj, key, json_string(v));
    return 0;
}

static int fill_skill(jr_import_t *im, json_t **entries, const char *w,
                      json_t *e)
{
    return put(e, "title", pc_jr_text(im, entries, "name", w))
           | put(e, "summary", pc_jr_text(im, entries, "level", w))
           | put(e, "skills", pc_jr_text_list(im, entries, "keywords", w));
}

/* Every put() runs, so that every problem of an entry is named. */
static int fill_work(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    return put(e, "role", pc_jr_text(im, entries, "position", w))
           | put(e, "company", pc_jr_text(im, entries, "name", w))
           | put_neutral(im, e, "companyUrl", entries, "url", w)
           | put(e, "context", pc_jr_text2(im, entries, "description",
                                           "location", w))
           | put(e, "period", pc_jr_period(im, entries, NULL, w))
           | put(e, "highlights",
                 pc_jr_text_list(im, entries, "highlights", w));
}

static int fill_education(jr_import_t *im, json_t **entries, const char *w,
                          json_t *e)
{
    return put(e, "degree", pc_jr_text(im, entries, "area", w))
           | put(e, "credential", pc_jr_period(im, entries, "studyType", w))
           | put(e, "institution", pc_jr_text(im, entries, "institution", w))
           | put_neutral(im, e, "institutionUrl", entries, "url", w);
}

static int fill_project(jr_import_t *im, json_t **entries, const char *w,
                        json_t *e)
{
    int rv = put(e, "title", pc_jr_text(im, entries, "name", w))
             | put(e, "mobileTitle", pc_jr_text(im, entries, "name", w))
             | put(e, "summary", pc_jr_text(im, entries, "description", w))
             | put(e, "organization", pc_jr_text(im, entries, "entity", w))
             | put(e, "context", pc_jr_period(im, entries, NULL, w));

    json_object_set_new(e, "problem", json_string(""));
    json_object_set_new(e, "intervention", json_string(""));
    json_object_set_new(e, "result", json_string(""));
    return rv | put(e, "resultItems",
                    pc_jr_text_list(im, entries, "highlights", w));
}

/* The same URL in two spellings: case of the scheme and host, a final
 * slash. */
static int same_url(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);

    nx -= nx && x[nx - 1] == '/';
    ny -= ny && y[ny - 1] == '/';
    return nx == ny && strncasecmp(x, y, nx) == 0;
}

/* The links of basics.profiles: those of every language, each once
 * (the same URL), in the order of the first language that has it.  A
 * link is not a translation: one that a language lacks is still the
 * person's.  A network without a URL is no link (it is counted as not
 * imported). */
static void import_links(jr_import_t *im, json_t **basics, json_t *links)
{
    apr_pool_t *p = im->c.p;
    json_t *seen = json_array(), *pr, *x, *e;
    size_t i, j;
    int l, dup;
    const char *url, *net;

    for (l = 0; l < im->n; l++) {
        json_array_foreach(json_object_get(basics[l], "profiles"), i, pr) {
            url = pc_jr_str(pr, "url");
            net = pc_jr_str(pr, "network");
            dup = 0;
            json_array_foreach(seen, j, x) {
                dup |= same_url(url, pc_jr_str(x, "url"));
            }
            if (!*url && *net) {
                /* A link needs somewhere to go: a network named without
                 * a URL (or with a relative one) is not imported. */
                pc_jr_drop(im, "basics.profiles[] (no URL)", 1);
            }
            if (dup || !*url) {
                continue;
            }
            json_array_append(seen, pr);
            e = json_object();
            json_array_append_new(links, e);
            json_object_set_new(e, "kind",
                                json_string(pc_jr_kind_of(net, p)));
            json_object_set_new(e, "text", json_string(net));
            json_object_set_new(e, "url", json_string(url));
        }
    }
    json_decref(seen);
}

static int import_contact(jr_import_t *im, json_t **basics, json_t *out)
{
    apr_pool_t *p = im->c.p;
    json_t *contact = json_object(), *contacts = json_array();
    json_t *links = json_array(), *e;
    const char *email = pc_jr_neutral(im, basics, "email", "$.basics");
    const char *phone = pc_jr_neutral(im, basics, "phone", "$.basics");
    const char *url = pc_jr_neutral(im, basics, "url", "$.basics"), *tel, *s;
    size_t n;
    profile_url_e why;

    json_object_set_new(out, "contact", contact);
    json_object_set_new(contact, "contacts", contacts);
    json_object_set_new(contact, "links", links);
    if (email == NULL || phone == NULL || url == NULL) {
        return -1;
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
        /* An address with a space or a control character inside is no
         * link the module serves: the text stays, the link is left
         * out. */
        s = email;
        n = strlen(s);
        profile_text_trim(&s, &n);
        s = pc_jr_link(apr_pstrcat(p, "mailto:", apr_pstrmemdup(p, s, n),
                                   NULL), 0, &why, p);
        if (s == NULL) {
            pc_jr_drop(im, "basics.email (as a link)", 1);
        }
        json_object_set_new(e, "url", json_string(s ? s : ""));
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
    import_links(im, basics, links);
    return 0;
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
    "[--strict] [-o OUT] RESUME.json..."

/* Reads document l (pc_input_read: a regular file only); a UTF-8 byte
 * order mark is skipped. */
static int load_doc(jr_import_t *im, int l)
{
    apr_pool_t *p = im->c.p;
    apr_size_t n;
    json_error_t jerr;
    char *buf;
    const char *text, *err;

    if (pc_input_read(&buf, &n, &err, im->files[l], 0, p) < 0) {
        return pc_jr_fail(&im->c, "%s", err);
    }
    text = buf;
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        n -= 3;
    }
    im->docs[l] = json_loadb(text, n, JSON_REJECT_DUPLICATES, &jerr);
    if (im->docs[l] == NULL) {
        return pc_jr_fail(&im->c, "%s:%d:%d: invalid JSON: %s", im->files[l],
                          jerr.line, jerr.column, jerr.text);
    }
    return 0;
}

/* Returns the exit status; the problems are im->c.problems (or, before
 * the files are read, im->c.err), not printed. */
static int import_run(jr_import_t *im, const char *order, const char *out)
{
    const char *inputs[JR_MAX_LANGS + 1];
    int l, unreadable = 0;

    for (l = 0; l < im->n; l++) {
        inputs[l] = im->files[l];
    }
    inputs[im->n] = NULL;
    if (import_langs(im, order) < 0) {
        return PC_EXIT_USAGE;
    }
    /* From here on, every problem of every file. */
    im->c.problems = apr_array_make(im->c.p, 8, sizeof(const char *));
    for (l = 0; l < im->n; l++) {
        if (load_doc(im, l) < 0) {
            unreadable = 1;
        }
    }
    if (unreadable) {
        return PC_EXIT_USAGE;
    }
    return pc_jr_import_docs(im, out, inputs);
}

/* The one path from JSON Resume documents (im->docs, one per language,
 * read) to a data file: import-jsonresume, import-linkedin (whose export
 * it reads as a document) and merge (whose data files it exports as
 * documents) all end here, so that they pair entries by the same rules
 * (pc_import_align.c). */
int pc_jr_import_docs(jr_import_t *im, const char *out,
                      const char *const *inputs)
{
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
    /* Every section, so that every problem is named. */
    bad = import_profile(im, basics, doc) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_skills_array, doc,
                              "skills", NULL, fill_skill) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_work_array, doc,
                              "experience", "work", fill_work) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_education_array, doc,
                              "education", NULL, fill_education) < 0;
    bad |= import_contact(im, basics, doc) < 0;
    bad |= pc_jr_import_array(im, im->docs, &pc_jr_projects_array, doc,
                              "caseStudies", "project", fill_project) < 0;
    if (bad) {
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
        pc_jr_fail(&im->c, "profilectl %s: the result is not a valid data "
                   "file (a bug in profilectl): %s", im->c.cmd, msg);
        goto leave;
    }
    if (im->dropped->nelts && im->strict) {
        pc_jr_fail(&im->c, "profilectl %s: --strict: not imported: %s",
                   im->c.cmd, pc_jr_dropped_list(im));
        goto leave;
    }
    if ((rv = pc_jr_write_json(&im->c, doc, out, inputs)) != PC_EXIT_OK) {
        goto leave;
    }
    if (im->dropped->nelts) {
        pc_jr_note(&im->c, apr_psprintf(p, "not imported: %s",
                                        pc_jr_dropped_list(im)));
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
    int optch, i;

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
    return pc_jr_import_end(&im, import_run(&im, order, out));
}

int pc_jr_import_end(jr_import_t *im, int status)
{
    int i;

    if (status != PC_EXIT_OK && im->c.problems && im->c.problems->nelts) {
        /* One line per problem, as a compiler (and profilectl check)
         * says it: "FILE: $.path: message"; then how many. */
        for (i = 0; i < im->c.problems->nelts; i++) {
            fprintf(stderr, "%s\n",
                    APR_ARRAY_IDX(im->c.problems, i, const char *));
        }
        fprintf(stderr, "profilectl %s: %d problem%s; nothing written\n",
                im->c.cmd, im->c.problems->nelts,
                im->c.problems->nelts == 1 ? "" : "s");
    }
    else if (status != PC_EXIT_OK && im->c.err != NULL) {
        pc_fail(im->c.cmd, "%s", im->c.err);
    }
    for (i = 0; i < im->n; i++) {
        json_decref(im->docs[i]);
    }
    apr_pool_destroy(im->c.p);
    return status;
}
