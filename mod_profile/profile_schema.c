/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_schema.c -- the data file's field tables (CONTRACT §9): which
 * members each object has, of which kind, in the order responses list
 * them, with the patterns of ids and kinds.  Adding or reordering a
 * field is an edit here; the rules that check a kind are in
 * profile_validate.c, its JSON form in profile_render.c.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_lib.h>

#include "profile_schema.h"

const profile_field_t profile_schema_profile[] = {
    {"name", PROFILE_K_TEXT, NULL},
    {"headline", PROFILE_K_TEXT, NULL},
    {"summary", PROFILE_K_TEXT, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t skill_fields[] = {
    {"title", PROFILE_K_TEXT, NULL},
    {"summary", PROFILE_K_TEXT, NULL},
    {"skills", PROFILE_K_TEXTLIST, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t experience_fields[] = {
    {"id", PROFILE_K_ID, NULL},
    {"role", PROFILE_K_TEXT, NULL},
    {"company", PROFILE_K_TEXT, NULL},
    {"companyUrl", PROFILE_K_URL, NULL},
    {"context", PROFILE_K_TEXT, NULL},
    {"period", PROFILE_K_TEXT, NULL},
    {"highlights", PROFILE_K_TEXTLIST, NULL},
    {"start", PROFILE_K_DATE, NULL},
    {"end", PROFILE_K_DATE, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t education_fields[] = {
    {"degree", PROFILE_K_TEXT, NULL},
    {"credential", PROFILE_K_TEXT, NULL},
    {"institution", PROFILE_K_TEXT, NULL},
    {"institutionUrl", PROFILE_K_URL, NULL},
    {"start", PROFILE_K_DATE, NULL},
    {"end", PROFILE_K_DATE, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t contact_entry_fields[] = {
    {"kind", PROFILE_K_KIND, NULL},
    {"label", PROFILE_K_TEXT, NULL},
    {"text", PROFILE_K_TEXT, NULL},
    {"url", PROFILE_K_URL, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t link_fields[] = {
    {"kind", PROFILE_K_KIND, NULL},
    {"text", PROFILE_K_TEXT, NULL},
    {"url", PROFILE_K_URL, NULL},
    {NULL, 0, NULL}
};

const profile_field_t profile_schema_contact[] = {
    {"contacts", PROFILE_K_OBJLIST, contact_entry_fields},
    {"links", PROFILE_K_OBJLIST, link_fields},
    {NULL, 0, NULL}
};

static const profile_field_t case_study_fields[] = {
    {"id", PROFILE_K_ID, NULL},
    {"title", PROFILE_K_TEXT, NULL},
    {"mobileTitle", PROFILE_K_TEXT, NULL},
    {"summary", PROFILE_K_TEXT, NULL},
    {"organization", PROFILE_K_TEXT, NULL},
    {"context", PROFILE_K_TEXT, NULL},
    {"problem", PROFILE_K_TEXT, NULL},
    {"intervention", PROFILE_K_TEXT, NULL},
    {"result", PROFILE_K_TEXT, NULL},
    {"resultItems", PROFILE_K_TEXTLIST, NULL},
    {NULL, 0, NULL}
};

static const profile_field_t metric_fields[] = {
    {"id", PROFILE_K_ID, NULL},
    {"value", PROFILE_K_TEXT, NULL},
    {"label", PROFILE_K_TEXT, NULL},
    {"summary", PROFILE_K_TEXT, NULL},
    {NULL, 0, NULL}
};

const profile_field_t profile_schema_top[] = {
    {"$schema", PROFILE_K_SCHEMA, NULL},
    {"languages", PROFILE_K_LANGS, NULL},
    {"fallback", PROFILE_K_FALLBACK, NULL},
    {"profile", PROFILE_K_OBJECT, profile_schema_profile},
    {"skills", PROFILE_K_OBJLIST, skill_fields},
    {"experience", PROFILE_K_OBJLIST, experience_fields},
    {"education", PROFILE_K_OBJLIST, education_fields},
    {"contact", PROFILE_K_OBJECT, profile_schema_contact},
    {"caseStudies", PROFILE_K_OBJLIST, case_study_fields},
    {"metrics", PROFILE_K_OBJLIST, metric_fields},
    {NULL, 0, NULL}
};

const profile_schema_coll_t profile_schema_colls[PROFILE_COLL_COUNT] = {
    {"skills", skill_fields, {"title", "skills", NULL}, 0},
    {"experience", experience_fields, {"company", NULL, NULL}, 1},
    {"education", education_fields, {NULL, NULL, NULL}, 0},
    {"caseStudies", case_study_fields, {"organization", NULL, NULL}, 1},
    {"metrics", metric_fields, {NULL, NULL, NULL}, 0}
};

json_t *profile_schema_text(json_t *v, const char *lang)
{
    return json_is_string(v) ? v : json_object_get(v, lang);
}

json_t *profile_schema_textlist(json_t *v, const char *lang)
{
    return json_is_array(v) ? v : json_object_get(v, lang);
}

json_t *profile_schema_served(json_t *v, const char *lang,
                              const char *fallback, int *fell)
{
    json_t *t;

    if (json_is_string(v)) {
        return v;
    }
    if ((t = json_object_get(v, lang)) == NULL && fallback != NULL) {
        *fell = 1;
        t = json_object_get(v, fallback);
    }
    return t;
}

json_t *profile_schema_served_list(json_t *v, const char *lang,
                                   const char *fallback, int *fell)
{
    return json_is_array(v) ? v : profile_schema_served(v, lang, fallback,
                                                        fell);
}

int profile_schema_fallback(json_t *root, const char *const *langs,
                            int nlangs)
{
    const char *tag = json_string_value(json_object_get(root, "fallback"));
    int l;

    for (l = 0; tag != NULL && l < nlangs; l++) {
        if (strcmp(langs[l], tag) == 0) {
            return l;
        }
    }
    return -1;
}

int profile_schema_pattern(const char *s, profile_kind_e kind)
{
    int kind_pattern = kind == PROFILE_K_KIND;
    const char *q;

    if (kind_pattern ? !apr_islower(*s) : !apr_isalnum(*s)) {
        return 0;
    }
    for (q = s + 1; *q; q++) {
        if (kind_pattern) {
            if (!apr_islower(*q) && !apr_isdigit(*q) && *q != '-') {
                return 0;
            }
        }
        else if (!apr_isalnum(*q) && !strchr("._~-", *q)) {
            return 0;
        }
    }
    return 1;
}

const char *profile_schema_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

const profile_field_t *profile_schema_field(const profile_field_t *fields,
                                            const char *name)
{
    for (; fields->name; fields++) {
        if (strcmp(fields->name, name) == 0) {
            return fields;
        }
    }
    return NULL;
}

/* A data file's languages: a non-empty list of strings. */
static int data_languages(json_t *langs)
{
    json_t *v;
    size_t i;

    if (!json_is_array(langs) || json_array_size(langs) == 0) {
        return 0;
    }
    json_array_foreach(langs, i, v) {
        if (!json_is_string(v)) {
            return 0;
        }
    }
    return 1;
}

int profile_schema_is_jsonresume(json_t *root)
{
    const char *schema;

    if (!json_is_object(root) || json_object_get(root, "profile") != NULL
        || data_languages(json_object_get(root, "languages"))) {
        return 0;
    }
    schema = json_string_value(json_object_get(root, "$schema"));
    return json_object_get(root, "basics") != NULL
           || json_object_get(root, "work") != NULL
           || (schema != NULL && strstr(schema, "jsonresume") != NULL);
}
