/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/check_doc.c -- the check of a whole JSON Resume document: its
 * top level (what is read, what is not imported, what is ignored), a
 * section under another name whose entries are JSON Resume's (experience
 * for work), a name only near a known one ("did you mean"), a home-made
 * format refused; then each section's entries (check_entry.c), the
 * extras' sections included (certificates, languages, basics.location).
 */
#include <string.h>
#include <strings.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

/* The top level: what is read, what is not, and what is ignored. */
static const char *const read_top[] = {
    "basics", "work", "education", "skills", "projects", "certificates",
    "languages", NULL
};
static const char *const dropped_top[] = {
    "volunteer", "awards", "certificates", "publications", "languages",
    "interests", "references", NULL
};
/* Members that describe the document, not the person. */
static const char *const ignored_top[] = {"$schema", "meta", NULL};
static const char *const all_top[] = {
    "basics", "work", "education", "skills", "projects", "volunteer",
    "awards", "certificates", "publications", "languages", "interests",
    "references", "$schema", "meta", NULL
};

/* What people call a section of JSON Resume.  A section of entries is
 * read under its JSON Resume name when its entries are JSON Resume's
 * (fits()); "basics" under another name is a home-made format,
 * refused. */
static const struct {
    const char *name, *is;
} synonyms[] = {
    {"experience", "work"}, {"experiences", "work"}, {"jobs", "work"},
    {"works", "work"}, {"employment", "work"}, {"workexperience", "work"},
    {"work_experience", "work"}, {"positions", "work"},
    {"educations", "education"}, {"studies", "education"},
    {"skill", "skills"}, {"project", "projects"},
    {"certifications", "certificates"}, {"volunteering", "volunteer"},
    {"achievements", "awards"}, {"volunteers", "volunteer"},
    {"award", "awards"}, {"certificate", "certificates"},
    {"publication", "publications"}, {"language", "languages"},
    {"interest", "interests"}, {"reference", "references"},
    {"personal", "basics"},
    {"profile", "basics"}, {"contact", "basics"}, {"about", "basics"},
    {"personal_information", "basics"}, {"personalInformation", "basics"},
    {"personal_info", "basics"}, {"personalInfo", "basics"},
};

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++) {
        if (strcmp(*list, s) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The edit distance of a and b (insertions, deletions, substitutions
 * and swaps of two neighbours), case-insensitive, capped at 9. */
static int distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i, j;
    int d[32][32], v;

    if (na > 30 || nb > 30) {
        return 9;
    }
    for (i = 0; i <= na; i++) {
        for (j = 0; j <= nb; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = (int)(i + j);
                continue;
            }
            v = d[i - 1][j - 1]
                + (apr_tolower(a[i - 1]) != apr_tolower(b[j - 1]));
            if (d[i - 1][j] + 1 < v) {
                v = d[i - 1][j] + 1;
            }
            if (d[i][j - 1] + 1 < v) {
                v = d[i][j - 1] + 1;
            }
            if (i > 1 && j > 1
                && apr_tolower(a[i - 1]) == apr_tolower(b[j - 2])
                && apr_tolower(a[i - 2]) == apr_tolower(b[j - 1])
                && d[i - 2][j - 2] + 1 < v) {
                v = d[i - 2][j - 2] + 1;
            }
            d[i][j] = v;
        }
    }
    return d[na][nb] > 9 ? 9 : d[na][nb];
}

/* The known name that k is most likely a misspelling of, or NULL: at
 * most `max` edits away (one for names of four letters or fewer). */
static const char *near(const char *k, const char *const *names, int max)
{
    size_t n = strlen(k);

    if (n <= 4 && max > 1) {
        max = 1;
    }
    for (; *names; names++) {
        if (strcmp(*names, k) != 0 && distance(*names, k) <= max) {
            return *names;
        }
    }
    return NULL;
}

static const jr_key_t *keys_of(const char *section)
{
    return strcmp(section, "work") == 0 ? pc_jr_work_array.keys
           : strcmp(section, "education") == 0 ? pc_jr_education_array.keys
           : strcmp(section, "skills") == 0 ? pc_jr_skills_array.keys
           : strcmp(section, "projects") == 0 ? pc_jr_projects_array.keys
           : pc_jr_extras_keys(section);
}

/* Whether v is a section of JSON Resume entries of `section`: an array
 * of objects, at least half of whose members are the section's (under
 * any name pc_jr_member_meant knows); certificates and languages may be
 * given as texts (import/write_extras.c reads them). */
static int fits(json_t *v, const char *section)
{
    const jr_key_t *keys = keys_of(section);
    size_t i, known = 0, all = 0;
    const char *k;
    json_t *e, *m;

    if (keys == NULL || !json_is_array(v) || json_array_size(v) == 0) {
        return 0;
    }
    json_array_foreach(v, i, e) {
        if (json_is_string(e) && pc_jr_extras_keys(section)) {
            known++, all++;
            continue;
        }
        if (!json_is_object(e)) {
            return 0;
        }
        json_object_foreach(e, k, m) {
            all++;
            known += pc_jr_find_key(keys, k) != NULL
                     || pc_jr_member_meant(keys, k) != NULL;
        }
    }
    return known > 0 && 2 * known >= all;
}

static void drop_top(jr_import_t *im, const char *k, json_t *v)
{
    if (pc_jr_has_content(v)) {
        pc_jr_drop(im, k, json_is_array(v) ? (int)json_array_size(v) : 1);
    }
}

/* Top-level member k of document l under another name: the name it is
 * read as (renamed later), NULL when it is not, with *bad set when it
 * is a problem. */
static const char *top_meant(jr_import_t *im, int l, const char *k,
                             json_t *v, int *bad, int *misspelt_basics)
{
    json_t *doc = im->docs[l];
    const char *other = NULL;
    size_t i, n = strlen(k), b = 0;

    /* " education ": spaces around a name are no other name. */
    while (b < n && k[b] == ' ') {
        b++;
    }
    while (n > b && k[n - 1] == ' ') {
        n--;
    }
    for (i = 0; all_top[i]; i++) {
        if (strlen(all_top[i]) == n - b
            && strncasecmp(all_top[i], k + b, n - b) == 0) {
            other = all_top[i];
        }
    }
    if (other != NULL && json_object_get(doc, other) == NULL) {
        pc_jr_assume(im, l, "$.%s: read as \"%s\" (JSON Resume's name, "
                     "in its case and without spaces)", k, other);
        return other;
    }
    for (i = 0; other == NULL && i < sizeof(synonyms) / sizeof(synonyms[0]);
         i++) {
        if (strcasecmp(synonyms[i].name, k) == 0) {
            other = synonyms[i].is;
        }
    }
    if (other != NULL && json_object_get(doc, other) == NULL) {
        if (fits(v, other)) {
            pc_jr_assume(im, l, "$.%s: read as \"%s\" (JSON Resume's name "
                         "for it; its entries are JSON Resume's)", k, other);
            return other;
        }
        if (in_list(dropped_top, other)) {
            drop_top(im, k, v);
            return NULL;
        }
        pc_jr_fail(&im->c, "%s: $.%s: JSON Resume calls this \"%s\"; "
                   "rename it", im->files[l], k, other);
        *misspelt_basics |= strcmp(other, "basics") == 0;
        *bad = 1;
    }
    else if ((other = near(k, all_top, 2)) != NULL
             && json_object_get(doc, other) == NULL) {
        pc_jr_fail(&im->c, "%s: $.%s: unknown member; did you mean "
                   "\"%s\"?", im->files[l], k, other);
        *misspelt_basics |= strcmp(other, "basics") == 0;
        *bad = 1;
    }
    else {
        drop_top(im, k, v);
    }
    return NULL;
}

/* A document of another tool that has "basics" too: refused, with what
 * it is, rather than imported as a name and its contacts. */
static int other_format(jr_import_t *im, int l, json_t *doc)
{
    if (json_is_object(json_object_get(doc, "sections"))
        && json_object_get(doc, "metadata") != NULL) {
        return pc_jr_fail(&im->c, "%s: $.sections: Reactive Resume's format "
                          "(\"sections\", \"metadata\"), not JSON Resume's: "
                          "none of its sections would be imported; convert "
                          "it to JSON Resume first", im->files[l]);
    }
    return 0;
}

/* Checks document l: that it is a JSON Resume document, and the types
 * and dates of everything the import reads.  Every problem is set. */
int pc_jr_check_doc(jr_import_t *im, int l)
{
    json_t *doc = im->docs[l], *basics, *v;
    apr_array_header_t *renamed;
    const char *k, *to;
    int bad = 0, misspelt_basics = 0, i;

    if (!json_is_object(doc)) {
        return pc_jr_fail(&im->c, "%s: $: not a JSON Resume document (not "
                          "an object)", im->files[l]);
    }
    if (json_object_size(doc) == 1) {
        /* {"cv": {"basics": ...}}: the résumé inside one member. */
        void *it = json_object_iter(doc);
        json_t *inner = json_object_iter_value(it);

        if (json_is_object(inner) && json_object_get(inner, "basics")) {
            pc_jr_assume(im, l, "$.%s: the JSON Resume document inside it "
                         "read", json_object_iter_key(it));
            json_incref(inner);
            json_decref(doc);
            im->docs[l] = doc = inner;
        }
    }
    if (other_format(im, l, doc) < 0) {
        return -1;
    }
    renamed = apr_array_make(im->c.p, 2, sizeof(const char *));
    json_object_foreach(doc, k, v) {
        if (in_list(read_top, k) || in_list(ignored_top, k)) {
            continue;
        }
        if (in_list(dropped_top, k) || k[0] == '_') {
            /* "_education": commented out by its author. */
            drop_top(im, k, v);
            continue;
        }
        if ((to = top_meant(im, l, k, v, &bad, &misspelt_basics)) != NULL) {
            APR_ARRAY_PUSH(renamed, const char *) = k;
            APR_ARRAY_PUSH(renamed, const char *) = to;
        }
    }
    for (i = 0; i < renamed->nelts; i += 2) {
        k = APR_ARRAY_IDX(renamed, i, const char *);
        to = APR_ARRAY_IDX(renamed, i + 1, const char *);
        json_object_set(doc, to, json_object_get(doc, k));
        json_object_del(doc, k);
    }
    pc_jr_skills_by_name(im, l, doc);
    basics = json_object_get(doc, "basics");
    if (basics == NULL || json_is_null(basics)) {
        if (!misspelt_basics) {
            pc_jr_fail(&im->c, "%s: $: no \"basics\": not a JSON Resume "
                       "document (see https://jsonresume.org/schema)",
                       im->files[l]);
        }
        bad = 1;
    }
    else if (pc_jr_check_entry(im, l, basics, pc_jr_basics_keys, "$.basics",
                               "basics") < 0) {
        bad = 1;
    }
    if ((basics && json_is_object(basics)
         && pc_jr_check_array(im, l, basics, &pc_jr_profiles_array) < 0)
        | (pc_jr_check_array(im, l, doc, &pc_jr_work_array) < 0)
        | (pc_jr_check_array(im, l, doc, &pc_jr_education_array) < 0)
        | (pc_jr_check_array(im, l, doc, &pc_jr_skills_array) < 0)
        | (pc_jr_check_array(im, l, doc, &pc_jr_projects_array) < 0)
        | (pc_jr_check_extras(im, l, doc) < 0)) {
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* Section k of document l: entries given as texts ("languages":
 * ["English"]) read as entries named so (noted), anything else that is
 * no entry counted and left out; a section that is no list counted.
 * Then each entry is checked. */
static int check_section(jr_import_t *im, int l, json_t *doc,
                         const jr_array_t *a)
{
    json_t *arr = json_object_get(doc, a->key), *e;
    size_t i;

    if (json_is_object(arr)) {
        if (pc_jr_has_content(arr)) {
            pc_jr_drop(im, apr_pstrcat(im->c.p, a->key, " (not a list)",
                                       NULL), 1);
        }
        json_object_del(doc, a->key);
        return 0;
    }
    for (i = 0; json_is_array(arr) && i < json_array_size(arr); i++) {
        e = json_array_get(arr, i);
        if (json_is_string(e) && *json_string_value(e)) {
            pc_jr_assume(im, l, "$.%s[" SZ "]: a text, read as the %s",
                         a->key, i, a->name);
            json_array_set_new(arr, i, json_pack("{sO}", a->name, e));
        }
        else if (!json_is_object(e)) {
            if (pc_jr_has_content(e)) {
                pc_jr_drop(im, apr_pstrcat(im->c.p, a->key,
                                           "[] (not an entry)", NULL), 1);
            }
            json_array_remove(arr, i--);
        }
    }
    return pc_jr_check_array(im, l, doc, a);
}

int pc_jr_check_extras(jr_import_t *im, int l, json_t *doc)
{
    json_t *basics = json_object_get(doc, "basics");
    json_t *loc = json_object_get(basics, "location");
    int bad = 0;

    if (json_is_object(loc)) {
        bad |= pc_jr_check_entry(im, l, loc, pc_jr_location_keys,
                                 "$.basics.location", "basics.location");
    }
    else if (loc != NULL && !json_is_string(loc)) {
        if (pc_jr_has_content(loc)) {
            pc_jr_drop(im, "basics.location (not a text or an object)", 1);
        }
        json_object_del(basics, "location");
    }
    bad |= check_section(im, l, doc, &pc_jr_certificates_array);
    bad |= check_section(im, l, doc, &pc_jr_languages_array);
    return bad ? -1 : 0;
}
