/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/linkedin.c -- profilectl import-linkedin: a LinkedIn
 * data export (read by read.c) as a one-language data file.  The export is
 * written as a JSON Resume document in memory and imported by
 * pc_jr_import_docs, the path import-jsonresume and merge take, so that
 * periods, ids, links and the checks are the same.  This file holds the
 * command and the mapping of each CSV file; docs/linkedin.md documents
 * it column by column: a change here is a change there.
 */
#include <stdio.h>
#include <string.h>

#include <apr_getopt.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_text.h"
#include "common/common.h"
#include "import/import.h"
#include "import/linkedin/linkedin.h"
#include "import/linkedin/map.h"
#include "texts/texts.h"

/* Geo Location: 2018 on; Country: 2018 only (a code, "ES"). */
static const li_col_t profile_cols[] = {
    {{"First Name"}, 1}, {{"Last Name"}, 1}, {{"Headline"}, 1},
    {{"Summary"}, 1}, {{"Websites"}, 0}, {{"Geo Location"}, 0},
    {{"Country"}, 0}, {{"Twitter Handles"}, 0}, {{NULL}, 0}
};
static const li_col_t position_cols[] = {
    {{"Company Name"}, 1}, {{"Title"}, 1}, {{"Description"}, 1},
    {{"Location"}, 1}, {{"Started On", "Start Date"}, 1},
    {{"Finished On", "End Date"}, 1}, {{NULL}, 0}
};
static const li_col_t education_cols[] = {
    {{"School Name"}, 1}, {{"Start Date", "Started On"}, 1},
    {{"End Date", "Finished On"}, 1}, {{"Degree Name"}, 1}, {{NULL}, 0}
};
static const li_col_t skill_cols[] = {{{"Name"}, 1}, {{NULL}, 0}};
static const li_col_t project_cols[] = {
    {{"Title"}, 1}, {{"Description"}, 1},
    {{"Started On", "Start Date"}, 1}, {{"Finished On", "End Date"}, 1},
    {{"Url"}, 0}, {{NULL}, 0}
};

static json_t *import_basics(li_t *li, const char *name)
{
    json_t *b = json_object();
    pc_li_table_t *t = pc_li_table(li, "Profile.csv", profile_cols);
    const pc_li_row_t *r;
    const char *first, *lastn;

    json_object_set_new(b, "profiles", json_array());
    if (t == NULL || t->rows->nelts == 0) {
        if (name == NULL && !li->bad) {
            pc_jr_fail(&li->im.c, "%s has no Profile.csv%s: give the "
                       "person's name with --name NAME", li->path,
                       t ? " row" : "");
            li->bad = 1;
        }
        pc_jr_set_str(b, "name", name);
        return b;
    }
    r = &APR_ARRAY_IDX(t->rows, 0, pc_li_row_t);
    first = pc_li_col(li, t, r, &profile_cols[0]);
    lastn = pc_li_col(li, t, r, &profile_cols[1]);
    pc_jr_set_str(b, "name", name ? name
                  : apr_pstrcat(li->im.c.p, first, *first && *lastn ? " "
                                : "", lastn, NULL));
    pc_jr_set_str(b, "label", pc_li_col(li, t, r, &profile_cols[2]));
    pc_jr_set_str(b, "summary", pc_li_col(li, t, r, &profile_cols[3]));
    pc_li_websites(li, b, pc_li_col(li, t, r, &profile_cols[4]));
    pc_li_twitter(li, b, pc_li_col(li, t, r, &profile_cols[7]));
    pc_li_location(li, b, pc_li_col(li, t, r, &profile_cols[5]),
                   pc_li_col(li, t, r, &profile_cols[6]));
    pc_li_drop_columns(li, t, profile_cols);
    if (t->rows->nelts > 1) {
        pc_jr_drop(&li->im, "Profile.csv rows after the first",
                   t->rows->nelts - 1);
    }
    return b;
}

static void fill_position(li_t *li, const pc_li_table_t *t,
                          const pc_li_row_t *r, json_t *w)
{
    json_t *hl = json_array();
    const char *context, *loc = pc_li_col(li, t, r, &position_cols[3]);

    pc_li_split_description(&context, hl,
                            pc_li_col(li, t, r, &position_cols[2]),
                            li->im.c.p);
    pc_jr_set_str(w, "name", pc_li_col(li, t, r, &position_cols[0]));
    pc_jr_set_str(w, "position", pc_li_col(li, t, r, &position_cols[1]));
    pc_jr_set_str(w, "description", context);
    pc_jr_set_str(w, "location", pc_li_squeeze(loc, strlen(loc),
                                               li->im.c.p));
    pc_li_put_date(li, w, "startDate", t, r, &position_cols[4]);
    pc_li_put_date(li, w, "endDate", t, r, &position_cols[5]);
    json_object_set_new(w, "highlights", hl);
}

static void fill_education(li_t *li, const pc_li_table_t *t,
                           const pc_li_row_t *r, json_t *ed)
{
    pc_jr_set_str(ed, "institution",
                  pc_li_col(li, t, r, &education_cols[0]));
    pc_jr_set_str(ed, "area", pc_li_col(li, t, r, &education_cols[3]));
    pc_li_put_date(li, ed, "startDate", t, r, &education_cols[1]);
    pc_li_put_date(li, ed, "endDate", t, r, &education_cols[2]);
}

static void fill_project(li_t *li, const pc_li_table_t *t,
                         const pc_li_row_t *r, json_t *pr)
{
    const char *d = pc_li_col(li, t, r, &project_cols[1]);

    pc_jr_set_str(pr, "name", pc_li_col(li, t, r, &project_cols[0]));
    pc_jr_set_str(pr, "description", pc_li_squeeze(d, strlen(d), li->im.c.p));
    pc_li_put_date(li, pr, "startDate", t, r, &project_cols[2]);
    pc_li_put_date(li, pr, "endDate", t, r, &project_cols[3]);
    pc_li_put_url(li, pr, t, r, &project_cols[4]);
}

/* Skills.csv: one group of every skill, titled in the language. */
static json_t *import_skills(li_t *li)
{
    static const char *const titles[][2] = {
        {"es", "Aptitudes"}, {"de", "Kenntnisse"},
        {"fr", "Comp\xc3\xa9tences"}, {"pt", "Compet\xc3\xaancias"},
        {"it", "Competenze"}, {NULL, NULL}
    };
    json_t *all = json_array(), *g, *kw;
    pc_li_table_t *t = pc_li_table(li, "Skills.csv", skill_cols);
    const char *title = "Skills";
    int i;

    if (t == NULL || t->rows->nelts == 0) {
        return all;
    }
    for (i = 0; titles[i][0]; i++) {
        if (strcmp(titles[i][0], li->im.langs[0]) == 0) {
            title = titles[i][1];
        }
    }
    g = json_object();
    kw = json_array();
    json_array_append_new(all, g);
    pc_jr_set_str(g, "name", title);
    for (i = 0; i < t->rows->nelts; i++) {
        json_array_append_new(kw, json_string(
            pc_li_col(li, t, &APR_ARRAY_IDX(t->rows, i, pc_li_row_t),
                      &skill_cols[0])));
    }
    json_object_set_new(g, "keywords", kw);
    pc_li_drop_columns(li, t, skill_cols);
    return all;
}

#define LI_USAGE "usage: %s import-linkedin [--lang L] [--languages " \
    "L1,L2,...] [--name NAME] [--strict] [--json] [-o OUT] EXPORT"

static int linkedin_run(li_t *li, const char *name, const char *out)
{
    static const char *const mapped[] = {
        "Profile.csv", "Positions.csv", "Education.csv", "Skills.csv",
        "Projects.csv", "Certifications.csv", "Languages.csv", NULL
    };
    apr_pool_t *p = li->im.c.p;
    const char *err, *inputs[] = {li->path, NULL};
    pc_li_table_t *t;
    json_t *doc;
    int i, k, known;

    if (pc_li_read_export(&li->files, &err, li->path, p) < 0) {
        pc_jr_fail(&li->im.c, "%s", err);
        return PC_EXIT_USAGE;
    }
    li->im.c.problems = apr_array_make(p, 8, sizeof(const char *));
    doc = json_object();
    li->im.docs[0] = doc;
    json_object_set_new(doc, "basics", import_basics(li, name));
    json_object_set_new(doc, "work", pc_li_rows(li, "Positions.csv",
                                                position_cols,
                                                fill_position));
    json_object_set_new(doc, "education",
                        pc_li_rows(li, "Education.csv", education_cols,
                                   fill_education));
    json_object_set_new(doc, "skills", import_skills(li));
    json_object_set_new(doc, "projects", pc_li_rows(li, "Projects.csv",
                                                    project_cols,
                                                    fill_project));
    json_object_set_new(doc, "certificates", pc_li_certificates(li));
    json_object_set_new(doc, "languages", pc_li_languages(li));
    /* The export's other profile files, in pc_li_files' order. */
    for (i = 0; pc_li_files[i]; i++) {
        for (known = 0, k = 0; mapped[k]; k++) {
            known |= strcmp(mapped[k], pc_li_files[i]) == 0;
        }
        t = apr_hash_get(li->files, pc_li_files[i], APR_HASH_KEY_STRING);
        if (!known && t && t->rows->nelts) {
            pc_jr_drop(&li->im, apr_psprintf(p, "%s rows", pc_li_files[i]),
                       t->rows->nelts);
        }
    }
    if (li->bad) {
        return PC_EXIT_PROBLEMS;
    }
    return pc_jr_import_docs(&li->im, out, inputs);
}

int pc_cmd_import_linkedin(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 256, 1, "the language of the export's text (en)"},
        {"name", 258, 1, "the person's name (when there is no Profile.csv)"},
        {"output", 'o', 1, "the data file to write (-: standard output)"},
        {"strict", 257, 0, "refuse what the mapping would drop"},
        {"json", 259, 0, "the report as JSON on standard output"},
        {"languages", 260, 1, "the data file's languages, default first"},
        {NULL, 0, 0, NULL}
    };
    li_t li;
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *out = NULL, *name = NULL, *lang = "en", *tag;
    int optch;

    memset(&li, 0, sizeof(li));
    pc_jr_import_init(&li.im, "import-linkedin");
    os = pc_getopt(argc, argv, li.im.c.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        switch (optch) {
        case 256: lang = optarg; break;
        case 258: name = optarg; break;
        case 'o': out = optarg; break;
        case 257: li.im.strict = 1; break;
        case 259: li.im.json = 1; break;
        case 260: li.im.declare = optarg; break;
        }
    }
    if (li.im.json && (out == NULL || strcmp(out, "-") == 0)) {
        li.im.json = 0;
        return pc_jr_import_end(&li.im, pc_fail(li.im.c.cmd, "--json prints "
                                                "the report on standard "
                                                "output: name the data file "
                                                "with -o FILE"));
    }
    if (rv != APR_EOF || argc - os->ind != 1) {
        return pc_jr_import_end(&li.im, pc_fail(li.im.c.cmd, LI_USAGE,
                                                pc_progname));
    }
    if ((tag = pc_lang_tag(lang, li.im.c.p)) == NULL) {
        return pc_jr_import_end(&li.im, pc_fail(li.im.c.cmd, "--lang \"%s\" "
                                                "is not a language tag: 2 to "
                                                "8 ASCII letters, e.g. en",
                                                lang));
    }
    if (name != NULL && !*name) {
        return pc_jr_import_end(&li.im, pc_fail(li.im.c.cmd,
                                                "--name is empty"));
    }
    li.path = os->argv[os->ind];
    li.im.n = 1;
    li.im.langs[0] = tag;
    li.im.files[0] = li.path;
    return pc_jr_import_end(&li.im, linkedin_run(&li, name, out));
}
