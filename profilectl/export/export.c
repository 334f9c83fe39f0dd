/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export/export.c -- profilectl export-jsonresume: writes one language of a
 * data file as a JSON Resume document, for resume-cli and its themes.
 * The command and the whole mapping of the export.
 *
 * The mapping both ways, and what each direction drops, is documented in
 * docs/jsonresume.md and profilectl.1 (JSON RESUME MAPPING): a change to
 * the mapping here is a change there.
 */
#include <stdio.h>
#include <string.h>

#include <apr_file_info.h>
#include <apr_getopt.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_schema.h"
#include "profile_store.h"
#include "profile_validate.h"
#include "common/common.h"
#include "export/export.h"

typedef struct {
    jr_ctx_t c;
    const char *lang;
    const char *fallback;       /* the file's (CONTRACT §9), or NULL */
    int fell;
} jr_export_t;

/* Text value v in the export's language, as the API serves it: its
 * fallback's where it has none. */
static const char *tx(jr_export_t *ex, json_t *v)
{
    const char *s = json_string_value(profile_schema_served(
                        v, ex->lang, ex->fallback, &ex->fell));

    return s ? s : "";
}

static const char *txk(jr_export_t *ex, json_t *obj, const char *key)
{
    return tx(ex, json_object_get(obj, key));
}

/* A list of text values in the export's language: the array, or that
 * language's own array when the list is given per language (CONTRACT
 * §9). */
static json_t *tx_list(jr_export_t *ex, json_t *list)
{
    json_t *arr = profile_schema_served_list(list, ex->lang, ex->fallback,
                                             &ex->fell);
    json_t *out = json_array();
    json_t *v;
    size_t i;

    json_array_foreach(arr, i, v) {
        json_array_append_new(out, json_string(tx(ex, v)));
    }
    return out;
}

/* Sets startDate and endDate of obj from a period; 0 when it is one. */
static int set_dates(jr_export_t *ex, json_t *obj, const char *text)
{
    const char *start, *end;

    if (pc_jr_parse_period(&start, &end, text, ex->c.p) < 0) {
        return -1;
    }
    pc_jr_set_str(obj, "startDate", start);
    pc_jr_set_str(obj, "endDate", end);
    return 0;
}

/* Sets startDate and endDate of obj from the dates record e gives
 * (CONTRACT §9: they win over any period text); 0 when it gives them. */
static int given_dates(json_t *obj, json_t *e)
{
    const char *start = json_string_value(json_object_get(e, "start"));

    if (start == NULL) {
        return -1;
    }
    pc_jr_set_str(obj, "startDate", start);
    pc_jr_set_str(obj, "endDate",
                  json_string_value(json_object_get(e, "end")));
    return 0;
}

/* The dates of record e: those it gives, told to the day by its period
 * when that says the same dates with the day (the import keeps such a
 * period: "1 Dec 2013 – 1 Dec 2014"); else the period's. */
static int record_dates(jr_export_t *ex, json_t *obj, json_t *e,
                        const char *per)
{
    const char *s, *t, *gs = pc_jr_str(e, "start"), *gt = pc_jr_str(e, "end");

    if (*gs && pc_jr_parse_period(&s, &t, per, ex->c.p) == 0
        && strncmp(s, gs, strlen(gs)) == 0 && strncmp(t, gt, strlen(gt)) == 0
        && !*gt == !*t) {
        pc_jr_set_str(obj, "startDate", s);
        pc_jr_set_str(obj, "endDate", t);
        return 0;
    }
    return given_dates(obj, e) == 0 ? 0 : set_dates(ex, obj, per);
}

static json_t *export_basics(jr_export_t *ex, json_t *data)
{
    json_t *b = json_object(), *profiles = json_array(), *profile, *e;
    json_t *contact = json_object_get(data, "contact"), *pr;
    const char *email = NULL, *phone = NULL, *url = NULL, *k, *u;
    size_t i;

    profile = json_object_get(data, "profile");
    pc_jr_set_str(b, "name", txk(ex, profile, "name"));
    pc_jr_set_str(b, "label", txk(ex, profile, "headline"));
    json_array_foreach(json_object_get(contact, "contacts"), i, e) {
        k = pc_jr_str(e, "kind");
        u = pc_jr_str(e, "url");
        if (strcmp(k, "email") == 0 && email == NULL) {
            email = strncasecmp(u, "mailto:", 7) == 0 ? u + 7
                                                       : txk(ex, e, "text");
        }
        else if (strcmp(k, "phone") == 0 && phone == NULL) {
            phone = txk(ex, e, "text");
        }
        else if (strcmp(k, "location") != 0) {   /* export/extras.c */
            pr = json_object();
            pc_jr_set_str(pr, "network", txk(ex, e, "label"));
            pc_jr_set_str(pr, "username", txk(ex, e, "text"));
            pc_jr_set_str(pr, "url", u);
            json_array_append_new(profiles, pr);
        }
    }
    json_array_foreach(json_object_get(contact, "links"), i, e) {
        if (strcmp(pc_jr_str(e, "kind"), "website") == 0 && url == NULL) {
            url = pc_jr_str(e, "url");
            continue;
        }
        if (strcmp(pc_jr_str(e, "kind"), "project") == 0) {
            continue;           /* a project's (export/extras.c) */
        }
        pr = json_object();
        pc_jr_set_str(pr, "network", txk(ex, e, "text"));
        pc_jr_set_str(pr, "url", pc_jr_str(e, "url"));
        json_array_append_new(profiles, pr);
    }
    pc_jr_set_str(b, "email", email);
    pc_jr_set_str(b, "phone", phone);
    pc_jr_set_str(b, "url", url);
    pc_jr_set_str(b, "summary", txk(ex, profile, "summary"));
    json_object_set_new(b, "profiles", profiles);
    return b;
}

/* Fills JSON Resume entry out from entry e of the data file. */
typedef void (*jr_export_fn)(jr_export_t *ex, json_t *e, json_t *out);

/* A JSON Resume array: one entry per element of collection `key`. */
static json_t *export_array(jr_export_t *ex, json_t *data, const char *key,
                            jr_export_fn fill)
{
    json_t *all = json_array(), *e, *out;
    size_t i;

    json_array_foreach(json_object_get(data, key), i, e) {
        out = json_object();
        json_array_append_new(all, out);
        fill(ex, e, out);
    }
    return all;
}

static void export_work(jr_export_t *ex, json_t *e, json_t *w)
{
    const char *ctx = txk(ex, e, "context"), *sep = strstr(ctx, JR_SEP);
    const char *per = txk(ex, e, "period");

    pc_jr_set_str(w, "name", txk(ex, e, "company"));
    if (sep) {
        pc_jr_set_str(w, "location", sep + strlen(JR_SEP));
        pc_jr_set_str(w, "description", apr_pstrndup(ex->c.p, ctx, sep - ctx));
    }
    else if (*ctx && json_is_string(json_object_get(e, "context"))
             && json_is_object(json_object_get(e, "role"))) {
        /* The same in every language beside a role that is not: a
         * place, as the importers write a location alone. */
        pc_jr_set_str(w, "location", ctx);
    }
    else {
        pc_jr_set_str(w, "description", ctx);
    }
    pc_jr_set_str(w, "position", txk(ex, e, "role"));
    pc_jr_set_str(w, "url", pc_jr_str(e, "companyUrl"));
    if (record_dates(ex, w, e, per) < 0) {
        pc_jr_note(&ex->c, apr_psprintf(ex->c.p, "experience \"%s\": period "
                                        "\"%s\" is not a date range: no "
                                        "startDate or endDate",
                                        pc_jr_str(e, "id"), per));
    }
    json_object_set_new(w, "highlights",
                        tx_list(ex, json_object_get(e, "highlights")));
}

static void export_education(jr_export_t *ex, json_t *e, json_t *ed)
{
    const char *cred = txk(ex, e, "credential"), *sep = NULL, *s;
    const char *dates, *start, *end;

    pc_jr_set_str(ed, "institution", txk(ex, e, "institution"));
    pc_jr_set_str(ed, "url", pc_jr_str(e, "institutionUrl"));
    pc_jr_set_str(ed, "area", txk(ex, e, "degree"));
    /* "studyType · dates", "studyType" or "dates" */
    for (s = cred; (s = strstr(s, JR_SEP)); s++) {
        sep = s;
    }
    dates = sep ? sep + strlen(JR_SEP) : cred;
    if (*dates && record_dates(ex, ed, e, dates) == 0
        && pc_jr_parse_period(&start, &end, dates, ex->c.p) == 0) {
        pc_jr_set_str(ed, "studyType", apr_pstrndup(ex->c.p, cred,
                                                    sep ? sep - cred : 0));
    }
    else if (given_dates(ed, e) == 0) {
        pc_jr_set_str(ed, "studyType", cred);
    }
    else if (*dates
             && pc_jr_parse_period(&start, &end, dates, ex->c.p) == 0) {
        pc_jr_set_str(ed, "studyType", apr_pstrndup(ex->c.p, cred,
                                                    sep ? sep - cred : 0));
        pc_jr_set_str(ed, "startDate", start);
        pc_jr_set_str(ed, "endDate", end);
    }
    else {
        pc_jr_set_str(ed, "studyType", cred);
    }
}

static void export_skill(jr_export_t *ex, json_t *e, json_t *sk)
{
    pc_jr_set_str(sk, "name", txk(ex, e, "title"));
    pc_jr_set_str(sk, "level", txk(ex, e, "summary"));
    json_object_set_new(sk, "keywords",
                        tx_list(ex, json_object_get(e, "skills")));
}

static void export_project(jr_export_t *ex, json_t *e, json_t *pr)
{
    pc_jr_set_str(pr, "name", txk(ex, e, "title"));
    pc_jr_set_str(pr, "description", txk(ex, e, "summary"));
    json_object_set_new(pr, "highlights",
                        tx_list(ex, json_object_get(e, "resultItems")));
    /* A context that is a period is the project's dates; prose is not
     * exported. */
    set_dates(ex, pr, txk(ex, e, "context"));
    pc_jr_set_str(pr, "entity", txk(ex, e, "organization"));
}

#define EXPORT_USAGE "usage: %s export-jsonresume [--lang L] [-o OUT] FILE"

/* Returns the exit status; the problem is ex->c.err (not printed). */
static int export_run(jr_export_t *ex, const char *file, const char *out)
{
    apr_pool_t *p = ex->c.p;
    json_t *data, *doc = NULL;
    const char *msg, **langs;
    const char *inputs[] = {file, NULL};
    char *cwd, *path;
    int nlangs, l, rv = PC_EXIT_USAGE;

    if (apr_filepath_get(&cwd, 0, p) != APR_SUCCESS
        || apr_filepath_merge(&path, cwd, file, 0, p)
           != APR_SUCCESS) {
        pc_jr_fail(&ex->c, "%s: no such file", file);
        return PC_EXIT_USAGE;
    }
    /* Read once: the module's loader judges the bytes, the tree is made
     * of the same bytes. */
    if ((data = pc_load_data(&msg, &langs, &nlangs, file, path, p))
        == NULL) {
        pc_jr_fail(&ex->c, "%s", msg);
        return PC_EXIT_USAGE;
    }
    if (ex->lang == NULL) {
        ex->lang = langs[0];
    }
    for (l = 0; l < nlangs && strcmp(langs[l], ex->lang) != 0; l++) {
    }
    if (l == nlangs) {
        pc_jr_fail(&ex->c, "%s has no language \"%s\" (it has %s)", file,
                   ex->lang, pc_jr_join(nlangs, langs, ", ", p));
        goto leave;
    }
    doc = pc_jr_export_doc(&ex->c, data, ex->lang, 1);
    rv = pc_jr_write_json(&ex->c, doc, out, inputs);
leave:
    json_decref(doc);
    json_decref(data);
    return rv;
}

json_t *pc_jr_export_doc(jr_ctx_t *c, json_t *data, const char *lang,
                         int fill)
{
    jr_export_t exs, *ex = &exs;
    json_t *doc = json_object();

    exs.c = *c;
    exs.lang = lang;
    exs.fallback = fill ? json_string_value(json_object_get(data,
                                                            "fallback"))
                        : NULL;
    json_object_set_new(doc, "basics", export_basics(ex, data));
    json_object_set_new(doc, "work",
                        export_array(ex, data, "experience", export_work));
    json_object_set_new(doc, "education",
                        export_array(ex, data, "education",
                                     export_education));
    json_object_set_new(doc, "skills",
                        export_array(ex, data, "skills", export_skill));
    json_object_set_new(doc, "projects",
                        export_array(ex, data, "caseStudies",
                                     export_project));
    pc_jr_export_extras(doc, data, lang, exs.fallback, c->p);
    c->err = exs.c.err;
    return doc;
}

int pc_cmd_export_jsonresume(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 256, 1, "the language to export"},
        {"output", 'o', 1, "the document to write (-: standard output)"},
        {NULL, 0, 0, NULL}
    };
    jr_export_t ex;
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *out = NULL;
    int optch, status;

    memset(&ex, 0, sizeof(ex));
    ex.c.cmd = "export-jsonresume";
    ex.c.p = pc_pool();
    os = pc_getopt(argc, argv, ex.c.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'o') {
            out = optarg;
        }
        else {
            ex.lang = optarg;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 1) {
        return pc_fail(ex.c.cmd, EXPORT_USAGE, pc_progname);
    }
    status = export_run(&ex, os->argv[os->ind], out);
    if (status != PC_EXIT_OK && ex.c.err != NULL) {
        pc_fail(ex.c.cmd, "%s", ex.c.err);
    }
    apr_pool_destroy(ex.c.p);
    return status;
}
