/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_check.c -- what import-jsonresume reads of a JSON Resume
 * document (its members and arrays, pc_jr_*_array), the check of their
 * types, and the list of what it drops (the note of pc_import.c).
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <jansson.h>

#include "pc_jr.h"

static const jr_key_t basics_keys[] = {
    {"name", 's', 1}, {"label", 's', 1}, {"email", 's', 1},
    {"phone", 's', 1}, {"url", 's', 1}, {"summary", 's', 1},
    {NULL, 0, 0}
};
static const jr_key_t profile_keys[] = {
    {"network", 's', 1}, {"username", 's', 0}, {"url", 's', 1},
    {NULL, 0, 0}
};
static const jr_key_t work_keys[] = {
    {"name", 's', 1}, {"position", 's', 1}, {"url", 's', 1},
    {"startDate", 'd', 1}, {"endDate", 'd', 1}, {"description", 's', 1},
    {"location", 's', 1}, {"highlights", 'l', 1}, {NULL, 0, 0}
};
static const jr_key_t education_keys[] = {
    {"institution", 's', 1}, {"url", 's', 1}, {"area", 's', 1},
    {"studyType", 's', 1}, {"startDate", 'd', 1}, {"endDate", 'd', 1},
    {NULL, 0, 0}
};
static const jr_key_t skill_keys[] = {
    {"name", 's', 1}, {"level", 's', 1}, {"keywords", 'l', 1},
    {NULL, 0, 0}
};
static const jr_key_t project_keys[] = {
    {"name", 's', 1}, {"description", 's', 1}, {"entity", 's', 1},
    {"startDate", 'd', 1}, {"endDate", 'd', 1}, {"highlights", 'l', 1},
    {NULL, 0, 0}
};

const jr_array_t pc_jr_profiles_array = {
    "basics.profiles", "profiles", profile_keys, "network",
    {"network", NULL}, {"network", "username", "url", NULL}
};
const jr_array_t pc_jr_work_array = {
    "work", "work", work_keys, "name", {"name", "startDate", NULL},
    {"name", "url", "startDate", "endDate", NULL}
};
const jr_array_t pc_jr_education_array = {
    "education", "education", education_keys, "institution",
    {"url", "startDate", "endDate", NULL},
    {"url", "startDate", "endDate", NULL}
};
const jr_array_t pc_jr_skills_array = {
    "skills", "skills", skill_keys, "name", {NULL}, {NULL}
};
const jr_array_t pc_jr_projects_array = {
    "projects", "projects", project_keys, "name",
    {"url", "startDate", "endDate", NULL},
    {"url", "startDate", "endDate", NULL}
};

/* Members of a document the import ignores without a note. */
static const char *const ignored_top[] = {"$schema", "meta", NULL};

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++) {
        if (strcmp(*list, s) == 0) {
            return 1;
        }
    }
    return 0;
}

static const jr_key_t *find_key(const jr_key_t *keys, const char *k)
{
    for (; keys->key; keys++) {
        if (strcmp(keys->key, k) == 0) {
            return keys;
        }
    }
    return NULL;
}

static int has_content(json_t *v)
{
    return !(json_is_null(v)
             || (json_is_string(v) && !*json_string_value(v))
             || (json_is_array(v) && json_array_size(v) == 0)
             || (json_is_object(v) && json_object_size(v) == 0));
}

static void drop(jr_import_t *im, const char *what)
{
    if (!apr_hash_get(im->dropped_seen, what, APR_HASH_KEY_STRING)) {
        apr_hash_set(im->dropped_seen, what, APR_HASH_KEY_STRING, what);
        APR_ARRAY_PUSH(im->dropped, const char *) = what;
    }
}

/* Checks the members of one entry (`at`: "$.work[2]") that the import
 * reads, and notes those it drops (`path`: "work[]"). */
static int check_entry(jr_import_t *im, int l, json_t *e,
                       const jr_key_t *keys, const char *at,
                       const char *path, const char *also)
{
    const char *k;
    json_t *v, *item;
    const jr_key_t *key;
    size_t i;

    if (!json_is_object(e)) {
        return pc_jr_fail(&im->c, "%s: %s: not an object", im->files[l], at);
    }
    json_object_foreach(e, k, v) {
        key = find_key(keys, k);
        if (key == NULL) {
            if ((also == NULL || strcmp(k, also) != 0) && has_content(v)) {
                drop(im, apr_pstrcat(im->c.p, path, ".", k, NULL));
            }
            continue;
        }
        if (json_is_null(v)) {
            continue;
        }
        if (key->type == 'l') {
            if (!json_is_array(v)) {
                return pc_jr_fail(&im->c, "%s: %s.%s: not an array of strings",
                                  im->files[l], at, k);
            }
            json_array_foreach(v, i, item) {
                if (!json_is_string(item)) {
                    return pc_jr_fail(&im->c, "%s: %s.%s[" SZ "]: not a "
                                      "string", im->files[l], at, k, i);
                }
            }
        }
        else if (!json_is_string(v)) {
            return pc_jr_fail(&im->c, "%s: %s.%s: not a string",
                              im->files[l], at, k);
        }
        else if (key->type == 'd' && *json_string_value(v)
                 && !pc_jr_is_date(json_string_value(v))) {
            return pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" is not a date (YYYY, "
                              "YYYY-MM or YYYY-MM-DD)", im->files[l], at, k,
                              json_string_value(v));
        }
        if (!key->mapped && has_content(v)) {
            drop(im, apr_pstrcat(im->c.p, path, ".", k, NULL));
        }
    }
    return 0;
}

static int check_array(jr_import_t *im, int l, json_t *parent,
                       const jr_array_t *a)
{
    json_t *arr = json_object_get(parent, a->key), *e;
    size_t i;

    if (arr == NULL || json_is_null(arr)) {
        return 0;
    }
    if (!json_is_array(arr)) {
        return pc_jr_fail(&im->c, "%s: $.%s: not an array", im->files[l],
                          a->path);
    }
    json_array_foreach(arr, i, e) {
        if (check_entry(im, l, e, a->keys,
                        apr_psprintf(im->c.p, "$.%s[" SZ "]", a->path, i),
                        apr_pstrcat(im->c.p, a->path, "[]", NULL),
                        NULL) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Checks document l: the types of everything the import reads. */
int pc_jr_check_doc(jr_import_t *im, int l)
{
    json_t *doc = im->docs[l], *basics, *v;
    const char *k;

    if (!json_is_object(doc)) {
        return pc_jr_fail(&im->c, "%s: not a JSON Resume document (not an "
                          "object)", im->files[l]);
    }
    json_object_foreach(doc, k, v) {
        if (strcmp(k, "basics") != 0 && strcmp(k, "work") != 0
            && strcmp(k, "education") != 0 && strcmp(k, "skills") != 0
            && strcmp(k, "projects") != 0 && !in_list(ignored_top, k)
            && has_content(v)) {
            drop(im, k);
        }
    }
    basics = json_object_get(doc, "basics");
    if (basics != NULL && !json_is_null(basics)) {
        if (check_entry(im, l, basics, basics_keys, "$.basics", "basics",
                        "profiles") < 0
            || check_array(im, l, basics, &pc_jr_profiles_array) < 0) {
            return -1;
        }
    }
    return check_array(im, l, doc, &pc_jr_work_array) < 0
           || check_array(im, l, doc, &pc_jr_education_array) < 0
           || check_array(im, l, doc, &pc_jr_skills_array) < 0
           || check_array(im, l, doc, &pc_jr_projects_array) < 0
           ? -1 : 0;
}
