/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/members.c -- the members import-jsonresume reads of a JSON
 * Resume document (pc_jr_*_array, with the names of older schema
 * versions: work[].company, website, basics.picture...), and the names
 * people give them that a reader understands: another case or spelling
 * (Basics, StartDate, start_date, GPA), a section under another name
 * whose entries are JSON Resume's (experience, jobs, works for work), a
 * member under a name people use (a skill's category and names for its
 * name and keywords); the members of the extras' sections too
 * (certificates, languages, basics.location).  The tables only:
 * check_doc.c and check_entry.c read each member as meant, with a note.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

/* type: 's' string, 'd' date, 'l' array of strings, '*' anything (not
 * read).  A member with `alias_of` is an older name of that member: its
 * value is moved there (when that member is absent). */
const jr_key_t pc_jr_basics_keys[] = {
    {"name", 's', 1, NULL}, {"label", 's', 1, NULL},
    {"email", 's', 1, NULL}, {"phone", 's', 1, NULL},
    {"url", 's', 1, NULL}, {"website", 's', 1, "url"},
    {"summary", 's', 1, NULL}, {"image", '*', 0, NULL},
    {"picture", '*', 0, "image"}, {"location", '*', 1, NULL},
    {"profiles", '*', 1, NULL}, {NULL, 0, 0, NULL}
};
static const jr_key_t profile_keys[] = {
    {"network", 's', 1, NULL}, {"username", '*', 0, NULL},
    {"url", 's', 1, NULL}, {NULL, 0, 0, NULL}
};
static const jr_key_t work_keys[] = {
    {"name", 's', 1, NULL}, {"company", 's', 1, "name"},
    {"position", 's', 1, NULL}, {"url", 's', 1, NULL},
    {"website", 's', 1, "url"}, {"startDate", 'd', 1, NULL},
    {"endDate", 'd', 1, NULL}, {"description", 's', 1, NULL},
    {"location", 's', 1, NULL}, {"highlights", 'l', 1, NULL},
    {"summary", '*', 0, NULL}, {NULL, 0, 0, NULL}
};
static const jr_key_t education_keys[] = {
    {"institution", 's', 1, NULL}, {"url", 's', 1, NULL},
    {"website", 's', 1, "url"}, {"area", 's', 1, NULL},
    {"studyType", 's', 1, NULL}, {"startDate", 'd', 1, NULL},
    {"endDate", 'd', 1, NULL}, {"score", '*', 0, NULL},
    {"gpa", '*', 0, "score"}, {"courses", '*', 0, NULL},
    {NULL, 0, 0, NULL}
};
static const jr_key_t skill_keys[] = {
    {"name", 's', 1, NULL}, {"level", 's', 1, NULL},
    {"keywords", 'l', 1, NULL}, {NULL, 0, 0, NULL}
};
static const jr_key_t project_keys[] = {
    {"name", 's', 1, NULL}, {"description", 's', 1, NULL},
    {"entity", 's', 1, NULL}, {"startDate", 'd', 1, NULL},
    {"endDate", 'd', 1, NULL}, {"highlights", 'l', 1, NULL},
    {"url", 's', 1, NULL}, {"website", 's', 1, "url"},
    {"roles", '*', 0, NULL}, {"keywords", '*', 0, NULL},
    {"type", '*', 0, NULL}, {"summary", '*', 0, NULL}, {NULL, 0, 0, NULL}
};

const jr_array_t pc_jr_profiles_array = {
    "basics.profiles", "profiles", profile_keys, "network", 0
};
const jr_array_t pc_jr_work_array = {
    "work", "work", work_keys, "name", 1
};
const jr_array_t pc_jr_education_array = {
    "education", "education", education_keys, "institution", 1
};
const jr_array_t pc_jr_skills_array = {
    "skills", "skills", skill_keys, "name", 0
};
const jr_array_t pc_jr_projects_array = {
    "projects", "projects", project_keys, "name", 1
};

/* ------------------------------------------------- the extras' members */

/* validThrough (schema.org's name, which people use) is when it
 * expires; credentialId its number (LinkedIn's "License Number"). */
static const jr_key_t certificate_keys[] = {
    {"name", 's', 1, NULL}, {"issuer", 's', 1, NULL},
    {"date", 'd', 1, NULL}, {"url", 's', 1, NULL},
    {"website", 's', 1, "url"}, {"validThrough", 'd', 1, NULL},
    {"credentialId", 's', 1, NULL}, {NULL, 0, 0, NULL}
};
/* Schema 0.x wrote a language's name and level. */
static const jr_key_t language_keys[] = {
    {"language", 's', 1, NULL}, {"fluency", 's', 1, NULL},
    {"name", 's', 1, "language"}, {"level", 's', 1, "fluency"},
    {NULL, 0, 0, NULL}
};
/* basics.location; "country" is how people write the country out. */
const jr_key_t pc_jr_location_keys[] = {
    {"address", 's', 1, NULL}, {"city", 's', 1, NULL},
    {"region", 's', 1, NULL}, {"postalCode", 's', 1, NULL},
    {"countryCode", 's', 1, NULL}, {"country", 's', 1, NULL},
    {NULL, 0, 0, NULL}
};

const jr_array_t pc_jr_certificates_array = {
    "certificates", "certificates", certificate_keys, "name", 0
};
const jr_array_t pc_jr_languages_array = {
    "languages", "languages", language_keys, "language", 0
};

/* Names people give these members (pc_jr_member_meant). */
static const struct {
    const jr_key_t *keys;
    const char *name, *is;
} meant[] = {
    {certificate_keys, "title", "name"},
    {certificate_keys, "authority", "issuer"},
    {certificate_keys, "issueDate", "date"},
    {certificate_keys, "issued", "date"},
    {certificate_keys, "expires", "validThrough"},
    {certificate_keys, "expiryDate", "validThrough"},
    {certificate_keys, "expirationDate", "validThrough"},
    {certificate_keys, "licenseNumber", "credentialId"},
    {certificate_keys, "credentialCode", "credentialId"},
    {language_keys, "proficiency", "fluency"},
    {pc_jr_location_keys, "locationCountryCode", "countryCode"},
    {pc_jr_location_keys, "zip", "postalCode"},
    {pc_jr_location_keys, "zipCode", "postalCode"},
    {pc_jr_location_keys, "postcode", "postalCode"},
    {pc_jr_location_keys, "state", "region"},
    {pc_jr_location_keys, "province", "region"},
};

const char *pc_jr_extras_meant(const jr_key_t *keys, const char *k,
                               int (*same)(const char *, const char *))
{
    size_t i;

    for (i = 0; i < sizeof(meant) / sizeof(meant[0]); i++) {
        if (meant[i].keys == keys && same(meant[i].name, k)) {
            return meant[i].is;
        }
    }
    return NULL;
}

const jr_key_t *pc_jr_extras_keys(const char *section)
{
    return strcmp(section, "certificates") == 0 ? certificate_keys
           : strcmp(section, "languages") == 0 ? language_keys : NULL;
}

/* ------------------------------------------------- names people give */

/* Names people give members of an entry, for JSON Resume's: compared
 * as members are (meant()): case, '_', '-' and spaces aside. */
typedef struct {
    const jr_key_t *keys;
    const char *name, *is;
} jr_meant_t;

static const jr_meant_t meant_names[] = {
    {pc_jr_basics_keys, "fullname", "name"},
    {pc_jr_basics_keys, "headline", "label"},
    {pc_jr_basics_keys, "title", "label"},
    {pc_jr_basics_keys, "about", "summary"},
    {pc_jr_basics_keys, "bio", "summary"},
    {pc_jr_basics_keys, "mail", "email"},
    {pc_jr_basics_keys, "emailaddress", "email"},
    {pc_jr_basics_keys, "telephone", "phone"},
    {pc_jr_basics_keys, "mobile", "phone"},
    {pc_jr_basics_keys, "homepage", "url"},
    {pc_jr_basics_keys, "socialprofiles", "profiles"},
    {work_keys, "company", "name"},
    {work_keys, "employer", "name"},
    {work_keys, "organization", "name"},
    {work_keys, "organisation", "name"},
    {work_keys, "title", "position"},
    {work_keys, "role", "position"},
    {work_keys, "jobtitle", "position"},
    {work_keys, "start", "startDate"},
    {work_keys, "end", "endDate"},
    {work_keys, "from", "startDate"},
    {work_keys, "to", "endDate"},
    {work_keys, "achievements", "highlights"},
    {work_keys, "accomplishments", "highlights"},
    {work_keys, "responsibilities", "highlights"},
    {education_keys, "school", "institution"},
    {education_keys, "university", "institution"},
    {education_keys, "college", "institution"},
    {education_keys, "degree", "studyType"},
    {education_keys, "major", "area"},
    {education_keys, "fieldofstudy", "area"},
    {education_keys, "start", "startDate"},
    {education_keys, "end", "endDate"},
    {education_keys, "from", "startDate"},
    {education_keys, "to", "endDate"},
    {education_keys, "grade", "score"},
    {skill_keys, "category", "name"},
    {skill_keys, "title", "name"},
    {skill_keys, "group", "name"},
    {skill_keys, "names", "keywords"},
    {skill_keys, "items", "keywords"},
    {skill_keys, "list", "keywords"},
    {skill_keys, "skills", "keywords"},
    {skill_keys, "keyword", "keywords"},
    {skill_keys, "tags", "keywords"},
    {skill_keys, "subSkills", "keywords"},
    {skill_keys, "proficiency", "level"},
    {project_keys, "title", "name"},
    {project_keys, "start", "startDate"},
    {project_keys, "end", "endDate"},
    {project_keys, "from", "startDate"},
    {project_keys, "to", "endDate"},
    {project_keys, "achievements", "highlights"},
};

const jr_key_t *pc_jr_find_key(const jr_key_t *keys, const char *k)
{
    for (; keys->key; keys++) {
        if (strcmp(keys->key, k) == 0) {
            return keys;
        }
    }
    return NULL;
}

/* Whether a and b are one name but for case, '_', '-' and spaces. */
static int same_name(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_' || *a == '-' || *a == ' ') {
            a++;
        }
        while (*b == '_' || *b == '-' || *b == ' ') {
            b++;
        }
        if (!*a || !*b) {
            return !*a && !*b;
        }
        if (apr_tolower(*a++) != apr_tolower(*b++)) {
            return 0;
        }
    }
}

const char *pc_jr_member_meant(const jr_key_t *keys, const char *k)
{
    const jr_key_t *key;
    size_t i;

    if (k[0] == '_') {
        return NULL;            /* "_image": left out by its author */
    }
    for (key = keys; key->key; key++) {
        if (strcmp(key->key, k) != 0 && same_name(key->key, k)) {
            return key->key;
        }
    }
    for (i = 0; i < sizeof(meant_names) / sizeof(meant_names[0]); i++) {
        if (meant_names[i].keys == keys && same_name(meant_names[i].name, k)
            && pc_jr_find_key(keys, k) == NULL) {
            return meant_names[i].is;
        }
    }
    return pc_jr_find_key(keys, k) == NULL
           ? pc_jr_extras_meant(keys, k, same_name) : NULL;
}

int pc_jr_has_content(json_t *v)
{
    return !(v == NULL || json_is_null(v)
             || (json_is_string(v) && !*json_string_value(v))
             || (json_is_array(v) && json_array_size(v) == 0)
             || (json_is_object(v) && json_object_size(v) == 0));
}
