/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_check.c -- what import-jsonresume reads of a JSON Resume
 * document: its members and arrays (pc_jr_*_array), including the names
 * of older schema versions (work[].company, website, basics.picture...),
 * the check of their types and dates (every problem of every file), the
 * dates rewritten as ISO dates, and the count of what it does not import
 * (the summary of pc_import.c).
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_text.h"
#include "pc_jr.h"

/* type: 's' string, 'd' date, 'l' array of strings, '*' anything (not
 * read).  A member with `alias_of` is an older name of that member: its
 * value is moved there (when that member is absent). */
static const jr_key_t basics_keys[] = {
    {"name", 's', 1, NULL}, {"label", 's', 1, NULL},
    {"email", 's', 1, NULL}, {"phone", 's', 1, NULL},
    {"url", 's', 1, NULL}, {"website", 's', 1, "url"},
    {"summary", 's', 1, NULL}, {"image", '*', 0, NULL},
    {"picture", '*', 0, "image"}, {"location", '*', 0, NULL},
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
    {"url", '*', 0, NULL}, {"website", '*', 0, "url"},
    {"roles", '*', 0, NULL}, {"keywords", '*', 0, NULL},
    {"type", '*', 0, NULL}, {NULL, 0, 0, NULL}
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

/* The top level: what is read, what is not, and what is ignored. */
static const char *const read_top[] = {
    "basics", "work", "education", "skills", "projects", NULL
};
static const char *const dropped_top[] = {
    "volunteer", "awards", "certificates", "publications", "languages",
    "interests", "references", NULL
};
/* Members that describe the document, not the person. */
static const char *const ignored_top[] = {"$schema", "meta", NULL};

/* What other résumé formats call a section of JSON Resume. */
static const struct {
    const char *name, *is;
} synonyms[] = {
    {"experience", "work"}, {"experiences", "work"}, {"jobs", "work"},
    {"employment", "work"}, {"workexperience", "work"},
    {"work_experience", "work"}, {"positions", "work"},
    {"educations", "education"}, {"studies", "education"},
    {"certifications", "certificates"}, {"volunteering", "volunteer"},
    {"achievements", "awards"}, {"personal", "basics"},
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

static const jr_key_t *find_key(const jr_key_t *keys, const char *k)
{
    for (; keys->key; keys++) {
        if (strcmp(keys->key, k) == 0) {
            return keys;
        }
    }
    return NULL;
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

static const char *near_key(const char *k, const jr_key_t *keys,
                            apr_pool_t *p)
{
    const char **names;
    int n = 0, i;

    while (keys[n].key) {
        n++;
    }
    names = apr_pcalloc(p, (n + 1) * sizeof(*names));
    for (i = 0; i < n; i++) {
        names[i] = keys[i].key;
    }
    /* A member of an entry: only another case (startdate, StartDate).
     * People add members of their own that look like known ones (ogUrl,
     * urls, label1, _image): those are listed as not imported. */
    for (i = 0; i < n; i++) {
        if (strcasecmp(names[i], k) == 0) {
            return names[i];
        }
    }
    return NULL;
}

static int has_content(json_t *v)
{
    return !(v == NULL || json_is_null(v)
             || (json_is_string(v) && !*json_string_value(v))
             || (json_is_array(v) && json_array_size(v) == 0)
             || (json_is_object(v) && json_object_size(v) == 0));
}

/* Counts `n` more of member `what` ("work[].summary") as not imported. */
void pc_jr_drop(jr_import_t *im, const char *what, int n)
{
    int *count = apr_hash_get(im->dropped_seen, what, APR_HASH_KEY_STRING);

    if (count == NULL) {
        count = apr_pcalloc(im->c.p, sizeof(*count));
        apr_hash_set(im->dropped_seen, what, APR_HASH_KEY_STRING, count);
        APR_ARRAY_PUSH(im->dropped, const char *) = what;
    }
    *count += n;
}

/* "12 × work[].summary, 3 × awards": what was counted by pc_jr_drop(). */
const char *pc_jr_dropped_list(jr_import_t *im)
{
    const char **items = apr_pcalloc(im->c.p, (im->dropped->nelts + 1)
                                              * sizeof(*items));
    const char *what;
    int i;

    for (i = 0; i < im->dropped->nelts; i++) {
        what = APR_ARRAY_IDX(im->dropped, i, const char *);
        items[i] = apr_psprintf(im->c.p, "%d \xc3\x97 %s",
                                *(int *)apr_hash_get(im->dropped_seen, what,
                                                     APR_HASH_KEY_STRING),
                                what);
    }
    return pc_jr_join(im->dropped->nelts, items, ", ", im->c.p);
}

/* Checks a date member and rewrites it as an ISO date (an ongoing end:
 * removed).  Returns the new value (NULL: remove it), or v itself with a
 * problem set. */
static json_t *check_date(jr_import_t *im, int l, json_t *v,
                          const char *at, const char *k, int *bad)
{
    const char *text, *iso;
    int rv;

    if (json_is_integer(v)) {
        text = apr_psprintf(im->c.p, "%" JSON_INTEGER_FORMAT,
                            json_integer_value(v));
    }
    else if (json_is_string(v)) {
        text = json_string_value(v);
    }
    else {
        pc_jr_fail(&im->c, "%s: %s.%s: not a string (a date)", im->files[l],
                   at, k);
        *bad = 1;
        return v;
    }
    rv = pc_jr_read_date(&iso, text, strcmp(k, "endDate") == 0, im->c.p);
    if (rv == 0) {
        return *iso ? json_string(iso) : NULL;
    }
    *bad = 1;
    if (rv == -2) {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" is ambiguous: day and month "
                   "cannot be told apart; write YYYY-MM-DD. Accepted: %s",
                   im->files[l], at, k, text, pc_jr_date_forms);
    }
    else if (rv == -4) {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\": that month has no such "
                   "day; write the month (YYYY-MM) or the right day",
                   im->files[l], at, k, text);
    }
    else if (rv == -3) {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" means now, which ends a role "
                   "but cannot start one", im->files[l], at, k, text);
    }
    else {
        pc_jr_fail(&im->c, "%s: %s.%s: \"%s\" is not a date. Accepted: %s",
                   im->files[l], at, k, text, pc_jr_date_forms);
    }
    return v;
}

/* An item of a list of strings.  Some files give objects: a keyword as
 * {"name": "Go", "level": ...}, a highlight as {"content": "...",
 * "highlight": "..."}; the item is then that one string, and the other
 * members are not imported. */
static int list_item(jr_import_t *im, int l, json_t *list, size_t i,
                     json_t *item, const char *at, const char *path,
                     const char *k)
{
    const char *text = strcmp(k, "keywords") == 0 ? "name" : "content";
    const char *m;
    json_t *v;

    if (json_is_string(item)) {
        return 0;
    }
    if (!json_is_object(item)
        || !json_is_string(json_object_get(item, text))) {
        return pc_jr_fail(&im->c, "%s: %s.%s[" SZ "]: not a string%s%s%s",
                          im->files[l], at, k, i,
                          json_is_object(item) ? " (nor an object with a "
                                                 "string \"" : "",
                          json_is_object(item) ? text : "",
                          json_is_object(item) ? "\")" : "");
    }
    json_object_foreach(item, m, v) {
        if (strcmp(m, text) != 0 && has_content(v)) {
            pc_jr_drop(im, apr_pstrcat(im->c.p, path, ".", k, "[].", m,
                                       NULL), 1);
        }
    }
    json_array_set(list, i, json_object_get(item, text));
    return 0;
}

/* Whether u begins with a scheme, "NAME:" (RFC 3986 §3.1).  A name with
 * a dot is a host before its port ("example.com:8080/x"), not a
 * scheme. */
static int has_scheme(const char *u)
{
    const char *s = u;

    if (!apr_isalpha(*s)) {
        return 0;
    }
    while (apr_isalnum(*s) || *s == '+' || *s == '-') {
        s++;
    }
    return *s == ':';
}

const char *pc_jr_link(const char *u, int bare, profile_url_e *why,
                       apr_pool_t *p)
{
    apr_size_t n = strlen(u), host;

    profile_text_trim(&u, &n);
    u = apr_pstrmemdup(p, u, n);
    if (n > 0 && !has_scheme(u)) {
        host = strcspn(u, "/?#");
        if (u[0] == '/' && u[1] == '/') {
            u = apr_pstrcat(p, "https:", u, NULL);
        }
        else if (bare || (apr_isalnum(*u) && memchr(u, '.', host)
                          && !strpbrk(u, " \t"))) {
            u = apr_pstrcat(p, "https://", u, NULL);
        }
    }
    *why = profile_url_check(u, strlen(u));
    return *why == PROFILE_URL_OK ? u : NULL;
}

const char *pc_jr_link_dropped(profile_url_e why)
{
    return why == PROFILE_URL_RELATIVE
           ? "relative" : "not an " PROFILE_URL_SCHEMES " URL";
}

/* A URL as a link needs it (pc_jr_link): "example.com/x" (no scheme)
 * becomes "https://example.com/x", "//host/x" "https://host/x".  A
 * relative one ("./cv.pdf", "/about") means nothing outside its site,
 * and one of another scheme ("javascript:", "ftp:") or malformed is no
 * link a page may render: neither is imported (CONTRACT §9). */
static void check_url(jr_import_t *im, json_t *e, const char *path)
{
    profile_url_e why;
    const char *u = pc_jr_link(json_string_value(json_object_get(e, "url")),
                               0, &why, im->c.p);

    if (u != NULL) {
        json_object_set_new(e, "url", json_string(u));
        return;
    }
    pc_jr_drop(im, apr_pstrcat(im->c.p, path, ".url (",
                               pc_jr_link_dropped(why), ")", NULL), 1);
    json_object_del(e, "url");
}

/* Checks the members of one entry (`at`: "$.work[2]") that the import
 * reads, moves older names to the current ones, rewrites dates, and
 * counts those it does not import (`path`: "work[]").  Returns -1 after
 * setting every problem. */
static int check_entry(jr_import_t *im, int l, json_t *e,
                       const jr_key_t *keys, const char *at,
                       const char *path)
{
    apr_pool_t *p = im->c.p;
    const char *k, *other;
    json_t *v, *item, *nv;
    const jr_key_t *key;
    size_t i;
    int bad = 0;
    apr_array_header_t *dates = apr_array_make(p, 2, sizeof(const char *));
    apr_array_header_t *aliases = apr_array_make(p, 2,
                                                 sizeof(const jr_key_t *));

    if (!json_is_object(e)) {
        return pc_jr_fail(&im->c, "%s: %s: not an object", im->files[l], at);
    }
    /* Old files describe a role in "summary" only: it is the
     * description when there is none. */
    if (keys == work_keys && !has_content(json_object_get(e, "description"))
        && json_is_string(json_object_get(e, "summary"))
        && has_content(json_object_get(e, "summary"))) {
        json_object_set(e, "description", json_object_get(e, "summary"));
        json_object_del(e, "summary");
    }
    json_object_foreach(e, k, v) {
        key = find_key(keys, k);
        if (key == NULL) {
            if ((other = near_key(k, keys, p)) != NULL) {
                pc_jr_fail(&im->c, "%s: %s.%s: unknown member; did you mean "
                           "\"%s\"?", im->files[l], at, k, other);
                bad = 1;
            }
            else if (has_content(v)) {
                pc_jr_drop(im, apr_pstrcat(p, path, ".", k, NULL), 1);
            }
            continue;
        }
        if (json_is_null(v)) {
            continue;
        }
        if (key->alias_of) {
            APR_ARRAY_PUSH(aliases, const jr_key_t *) = key;
        }
        if (key->type == 'l') {
            if (!json_is_array(v)) {
                pc_jr_fail(&im->c, "%s: %s.%s: not an array of strings",
                           im->files[l], at, k);
                bad = 1;
                continue;
            }
            json_array_foreach(v, i, item) {
                if (list_item(im, l, v, i, item, at, path, k) < 0) {
                    bad = 1;
                }
            }
        }
        else if (key->type == 'd') {
            APR_ARRAY_PUSH(dates, const char *) = k;
        }
        else if (key->type == 's' && !json_is_string(v)) {
            pc_jr_fail(&im->c, "%s: %s.%s: not a string", im->files[l], at,
                       k);
            bad = 1;
        }
        else if (!key->mapped && !key->alias_of && has_content(v)) {
            pc_jr_drop(im, apr_pstrcat(p, path, ".", k, NULL), 1);
        }
    }
    for (i = 0; i < (size_t)dates->nelts; i++) {
        k = APR_ARRAY_IDX(dates, i, const char *);
        v = json_object_get(e, k);
        nv = check_date(im, l, v, at, k, &bad);
        if (nv == NULL) {
            json_object_del(e, k);
        }
        else if (nv != v) {
            json_object_set_new(e, k, nv);
        }
    }
    /* Older names: moved to the current one, unless that is there too
     * (then the older one is not imported). */
    for (i = 0; i < (size_t)aliases->nelts; i++) {
        key = APR_ARRAY_IDX(aliases, i, const jr_key_t *);
        v = json_object_get(e, key->key);
        nv = json_object_get(e, key->alias_of);
        if (has_content(v) && (!find_key(keys, key->alias_of)->mapped
                               || (has_content(nv) && !json_equal(nv, v)))) {
            pc_jr_drop(im, apr_pstrcat(p, path, ".", key->key, NULL), 1);
        }
        if (!has_content(nv)) {
            json_object_set(e, key->alias_of, v);
        }
        json_object_del(e, key->key);
    }
    v = json_object_get(e, "url");
    key = find_key(keys, "url");
    if (key && key->mapped && json_is_string(v) && has_content(v)) {
        check_url(im, e, path);
    }
    return bad ? -1 : 0;
}

static int check_array(jr_import_t *im, int l, json_t *parent,
                       const jr_array_t *a)
{
    json_t *arr = json_object_get(parent, a->key), *e;
    size_t i;
    int bad = 0;

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
                        apr_pstrcat(im->c.p, a->path, "[]", NULL)) < 0) {
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* Checks document l: that it is a JSON Resume document, and the types
 * and dates of everything the import reads.  Every problem is set. */
int pc_jr_check_doc(jr_import_t *im, int l)
{
    static const char *const all_top[] = {
        "basics", "work", "education", "skills", "projects", "volunteer",
        "awards", "certificates", "publications", "languages", "interests",
        "references", "$schema", "meta", NULL
    };
    json_t *doc = im->docs[l], *basics, *v;
    const char *k, *other;
    int bad = 0, misspelt_basics = 0;
    size_t i;

    if (!json_is_object(doc)) {
        return pc_jr_fail(&im->c, "%s: $: not a JSON Resume document (not "
                          "an object)", im->files[l]);
    }
    json_object_foreach(doc, k, v) {
        if (in_list(read_top, k) || in_list(ignored_top, k)) {
            continue;
        }
        if (in_list(dropped_top, k)) {
            if (has_content(v)) {
                pc_jr_drop(im, k, json_is_array(v)
                                  ? (int)json_array_size(v) : 1);
            }
            continue;
        }
        other = NULL;
        if (k[0] == '_') {
            /* "_education": commented out by its author. */
            if (has_content(v)) {
                pc_jr_drop(im, k, json_is_array(v)
                                  ? (int)json_array_size(v) : 1);
            }
            continue;
        }
        for (i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++) {
            if (strcasecmp(synonyms[i].name, k) == 0) {
                other = synonyms[i].is;
            }
        }
        if (other != NULL && json_object_get(doc, other) == NULL) {
            pc_jr_fail(&im->c, "%s: $.%s: JSON Resume calls this \"%s\"; "
                       "rename it", im->files[l], k, other);
            misspelt_basics |= strcmp(other, "basics") == 0;
            bad = 1;
        }
        else if ((other = near(k, all_top, 2)) != NULL
                 && json_object_get(doc, other) == NULL) {
            pc_jr_fail(&im->c, "%s: $.%s: unknown member; did you mean "
                       "\"%s\"?", im->files[l], k, other);
            misspelt_basics |= strcmp(other, "basics") == 0;
            bad = 1;
        }
        else if (has_content(v)) {
            pc_jr_drop(im, k, json_is_array(v)
                                  ? (int)json_array_size(v) : 1);
        }
    }
    basics = json_object_get(doc, "basics");
    if (basics == NULL || json_is_null(basics)) {
        if (!misspelt_basics) {
            pc_jr_fail(&im->c, "%s: $: no \"basics\": not a JSON Resume "
                       "document (see https://jsonresume.org/schema)",
                       im->files[l]);
        }
        bad = 1;
    }
    else if (check_entry(im, l, basics, basics_keys, "$.basics", "basics")
             < 0) {
        bad = 1;
    }
    if ((basics && json_is_object(basics)
         && check_array(im, l, basics, &pc_jr_profiles_array) < 0)
        | (check_array(im, l, doc, &pc_jr_work_array) < 0)
        | (check_array(im, l, doc, &pc_jr_education_array) < 0)
        | (check_array(im, l, doc, &pc_jr_skills_array) < 0)
        | (check_array(im, l, doc, &pc_jr_projects_array) < 0)) {
        bad = 1;
    }
    return bad ? -1 : 0;
}
