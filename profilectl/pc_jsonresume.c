/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jsonresume.c -- profilectl's JSON Resume commands.
 *
 * import-jsonresume merges one JSON Resume document (schema v1.x) per
 * language into one data file (CONTRACT §9), bilingual where the
 * languages differ, and checks the result with the module's own loader.
 * export-jsonresume writes one language of a data file as a JSON Resume
 * document, for resume-cli and its themes.
 *
 * The mapping both ways, and what each direction drops, is documented in
 * docs/jsonresume.md and profilectl.1 (JSON RESUME MAPPING): a change to
 * the mapping here is a change there.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <apr_general.h>
#include <apr_file_info.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>
#include <utf8proc.h>

#include "profile_schema.h"
#include "profile_store.h"
#include "profile_validate.h"
#include "pc_jsonresume.h"

#define JR_SEP " \xc2\xb7 "             /* " · " joins parts of a text */
#define JR_DASH "\xe2\x80\x93"          /* "–" in a period */
#define JR_ID_MAX 40                    /* bytes of an id's name part */
#define JR_MAX_LANGS 16
#define SZ "%" APR_SIZE_T_FMT      /* APR's formatter has no %zu */

/* ------------------------------------------------------------ common */

typedef struct {
    apr_pool_t *p;
    const char *cmd;            /* "import-jsonresume" */
    const char *err;            /* the first problem */
} jr_ctx_t;

static int fail(jr_ctx_t *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    c->err = apr_pvsprintf(c->p, fmt, ap);
    va_end(ap);
    return -1;
}

static int report(jr_ctx_t *c, int status)
{
    fprintf(stderr, "profilectl %s: %s\n", c->cmd, c->err);
    return status;
}

static void note(jr_ctx_t *c, const char *msg)
{
    fprintf(stderr, "profilectl %s: note: %s\n", c->cmd, msg);
}

/* Writes root as indented JSON to `out` ("-" or NULL: stdout).  A file
 * is replaced whole: written beside it, then renamed over it. */
static int write_json(jr_ctx_t *c, json_t *root, const char *out)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *tmp;
    FILE *f;
    int fd, bad;

    if (text == NULL) {
        return fail(c, "out of memory");
    }
    if (out == NULL || strcmp(out, "-") == 0) {
        bad = fputs(text, stdout) < 0 || fputs("\n", stdout) < 0
              || fflush(stdout) != 0;
        free(text);
        return bad ? fail(c, "cannot write to standard output") : 0;
    }
    tmp = apr_pstrcat(c->p, out, ".XXXXXX", NULL);
    fd = mkstemp(tmp);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
        free(text);
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return fail(c, "cannot write %s", out);
    }
    bad = fputs(text, f) < 0 || fputs("\n", f) < 0 || fflush(f) != 0
          || fchmod(fd, 0644) != 0;
    bad = fclose(f) != 0 || bad;
    free(text);
    if (bad || rename(tmp, out) != 0) {
        unlink(tmp);
        return fail(c, "cannot write %s", out);
    }
    return 0;
}

/* The string at obj[key]: "" when absent or null.  Types are checked
 * before (import: check_doc; export: the data file's validation). */
static const char *str(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));

    return s ? s : "";
}

/* Sets obj[key] to s unless s is empty (JSON Resume: absent). */
static void set_str(json_t *obj, const char *key, const char *s)
{
    if (s != NULL && *s) {
        json_object_set_new(obj, key, json_string(s));
    }
}

/* ------------------------------------------------------------ dates */

typedef struct {
    const char *lang;
    const char *months[12];
    const char *present;
} jr_locale_t;

/* How a period reads in each language; other languages get ISO dates
 * and an open end ("2019-04 –"). */
static const jr_locale_t locales[] = {
    {"en", {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
            "Oct", "Nov", "Dec"}, "present"},
    {"es", {"ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.",
            "sept.", "oct.", "nov.", "dic."}, "actualidad"},
};

/* Month names read back from a period, in any of the languages above
 * (full and abbreviated; case and a final dot ignored). */
static const struct {
    const char *name;
    int month;
} month_names[] = {
    {"jan", 1}, {"january", 1}, {"ene", 1}, {"enero", 1},
    {"feb", 2}, {"february", 2}, {"febrero", 2},
    {"mar", 3}, {"march", 3}, {"marzo", 3},
    {"apr", 4}, {"april", 4}, {"abr", 4}, {"abril", 4},
    {"may", 5}, {"mayo", 5},
    {"jun", 6}, {"june", 6}, {"junio", 6},
    {"jul", 7}, {"july", 7}, {"julio", 7},
    {"aug", 8}, {"august", 8}, {"ago", 8}, {"agosto", 8},
    {"sep", 9}, {"sept", 9}, {"september", 9}, {"set", 9},
    {"septiembre", 9}, {"setiembre", 9},
    {"oct", 10}, {"october", 10}, {"octubre", 10},
    {"nov", 11}, {"november", 11}, {"noviembre", 11},
    {"dec", 12}, {"december", 12}, {"dic", 12}, {"diciembre", 12},
};

static const char *const present_words[] = {
    "present", "now", "today", "current", "actualidad", "presente", "hoy",
    "actual", NULL
};

static const jr_locale_t *locale_of(const char *lang)
{
    size_t i;

    for (i = 0; i < sizeof(locales) / sizeof(locales[0]); i++) {
        if (strcmp(locales[i].lang, lang) == 0) {
            return &locales[i];
        }
    }
    return NULL;
}

static int all_digits(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (!apr_isdigit(s[i])) {
            return 0;
        }
    }
    return 1;
}

/* Non-zero when s is a JSON Resume date: YYYY, YYYY-MM or YYYY-MM-DD
 * (the schema's pattern, with real months and days). */
static int is_date(const char *s)
{
    size_t n = strlen(s);
    int m, d;

    if ((n != 4 && n != 7 && n != 10) || !all_digits(s, 4)
        || (s[0] != '1' && s[0] != '2')) {
        return 0;
    }
    if (n == 4) {
        return 1;
    }
    if (s[4] != '-' || !all_digits(s + 5, 2)) {
        return 0;
    }
    m = atoi(s + 5);
    if (m < 1 || m > 12) {
        return 0;
    }
    if (n == 7) {
        return 1;
    }
    if (s[7] != '-' || !all_digits(s + 8, 2)) {
        return 0;
    }
    d = atoi(s + 8);
    return d >= 1 && d <= 31;
}

/* A date as language `lang` writes it: "Dec 2013", "1 dic. 2013",
 * "2013"; ISO as it is for languages without a locale. */
static const char *format_date(const char *date, const char *lang,
                               apr_pool_t *p)
{
    const jr_locale_t *l = locale_of(lang);
    size_t n = strlen(date);
    const char *mon;

    if (l == NULL || n == 4) {
        return date;
    }
    mon = l->months[atoi(date + 5) - 1];
    if (n == 7) {
        return apr_psprintf(p, "%s %.4s", mon, date);
    }
    return apr_psprintf(p, "%d %s %.4s", atoi(date + 8), mon, date);
}

/* The period of start and end ("" where absent) in language `lang`:
 * "S – E", "S" when both are the same, "S – present", "– E", or "". */
static const char *format_period(const char *start, const char *end,
                                 const char *lang, apr_pool_t *p)
{
    const jr_locale_t *l = locale_of(lang);
    const char *s = *start ? format_date(start, lang, p) : "";
    const char *e = *end ? format_date(end, lang, p) : "";

    if (!*start && !*end) {
        return "";
    }
    if (!*end) {
        return apr_pstrcat(p, s, " " JR_DASH, l ? " " : "",
                           l ? l->present : "", NULL);
    }
    if (!*start) {
        return apr_pstrcat(p, JR_DASH " ", e, NULL);
    }
    if (strcmp(start, end) == 0) {
        return s;
    }
    return apr_pstrcat(p, s, " " JR_DASH " ", e, NULL);
}

static int month_of(const char *word)
{
    size_t i, n = strlen(word);

    if (n > 0 && word[n - 1] == '.') {
        n--;
    }
    for (i = 0; i < sizeof(month_names) / sizeof(month_names[0]); i++) {
        if (strlen(month_names[i].name) == n
            && strncasecmp(month_names[i].name, word, n) == 0) {
            return month_names[i].month;
        }
    }
    return 0;
}

/* Reads one date of a period back into ISO form: "2013", "2013-12",
 * "2013-12-01", "Dec 2013", "1 dic. 2013", "diciembre de 2013".  NULL
 * when it is not one. */
static const char *parse_date(const char *text, apr_pool_t *p)
{
    char *copy = apr_pstrdup(p, text), *last, *w;
    const char *words[4];
    int n = 0, day = 0, month = 0;

    for (w = apr_strtok(copy, " ", &last); w; w = apr_strtok(NULL, " ",
                                                             &last)) {
        if (strcasecmp(w, "de") == 0) {
            continue;
        }
        if (n == 4) {
            return NULL;
        }
        words[n++] = w;
    }
    if (n == 1) {
        return is_date(words[0]) ? words[0] : NULL;
    }
    if (n < 2 || n > 3 || strlen(words[n - 1]) != 4
        || !is_date(words[n - 1])) {
        return NULL;
    }
    month = month_of(words[n - 2]);
    if (n == 3) {
        day = all_digits(words[0], strlen(words[0])) && strlen(words[0]) <= 2
              ? atoi(words[0]) : 0;
        if (day < 1 || day > 31) {
            return NULL;
        }
    }
    if (month == 0) {
        return NULL;
    }
    return day ? apr_psprintf(p, "%s-%02d-%02d", words[n - 1], month, day)
               : apr_psprintf(p, "%s-%02d", words[n - 1], month);
}

static int is_present(const char *w)
{
    int i;

    for (i = 0; present_words[i]; i++) {
        if (strcasecmp(present_words[i], w) == 0) {
            return 1;
        }
    }
    return 0;
}

static const char *trimmed(const char *s, size_t n, apr_pool_t *p)
{
    while (n && *s == ' ') {
        s++, n--;
    }
    while (n && s[n - 1] == ' ') {
        n--;
    }
    return apr_pstrmemdup(p, s, n);
}

/* Reads a period back into JSON Resume dates ("" where absent): the
 * inverse of format_period, tolerant of " - " for the dash.  Returns -1
 * when the text is not a period (an empty text is one, with no dates). */
static int parse_period(const char **start, const char **end,
                        const char *text, apr_pool_t *p)
{
    const char *dash = strstr(text, JR_DASH);
    size_t dlen = strlen(JR_DASH);
    const char *left, *right;

    *start = *end = "";
    if (dash == NULL && (dash = strstr(text, " - ")) != NULL) {
        dash++;
        dlen = 1;
    }
    if (dash == NULL) {
        left = trimmed(text, strlen(text), p);
        if (!*left) {
            return 0;
        }
        *start = *end = parse_date(left, p);
        return *start ? 0 : -1;
    }
    left = trimmed(text, dash - text, p);
    right = trimmed(dash + dlen, strlen(dash + dlen), p);
    if (!*left && !*right) {
        return -1;
    }
    if (*left && (*start = parse_date(left, p)) == NULL) {
        return -1;
    }
    if (*right && !is_present(right)
        && (*end = parse_date(right, p)) == NULL) {
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ names */

/* s folded to lowercase ASCII letters and digits, every other run of
 * characters one '-', none at either end: "Hafenstraße Logistik" ->
 * "hafenstrasse-logistik".  At most max bytes, cut at a '-'. */
static const char *slug(const char *s, size_t max, apr_pool_t *p)
{
    utf8proc_uint8_t *folded = NULL;
    const char *src = s;
    char *out, *o;
    int dash = 0;

    if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &folded,
                     UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPAT
                     | UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK
                     | UTF8PROC_CASEFOLD) >= 0) {
        src = (const char *)folded;
    }
    out = o = apr_palloc(p, strlen(src) + 1);
    for (; *src; src++) {
        if (apr_isalnum(*src) && !(*src & 0x80)) {
            if (dash && o != out) {
                *o++ = '-';
            }
            *o++ = apr_tolower(*src);
            dash = 0;
        }
        else {
            dash = 1;
        }
    }
    *o = '\0';
    free(folded);
    if ((size_t)(o - out) > max) {
        out[max] = '\0';
        if ((o = strrchr(out, '-')) != NULL && o - out > (long)max / 2) {
            *o = '\0';
        }
    }
    return out;
}

/* A new id in `taken`: the slug of name (or `fallback`) and the year of
 * date, made unique with -2, -3, ... */
static const char *make_id(apr_hash_t *taken, const char *name,
                           const char *date, const char *fallback,
                           apr_pool_t *p)
{
    const char *base = slug(name, JR_ID_MAX, p), *id;
    int n = 2;

    if (!*base) {
        base = fallback;
    }
    if (*date) {
        base = apr_psprintf(p, "%s-%.4s", base, date);
    }
    for (id = base; apr_hash_get(taken, id, APR_HASH_KEY_STRING);
         id = apr_psprintf(p, "%s-%d", base, n++)) {
    }
    apr_hash_set(taken, id, APR_HASH_KEY_STRING, id);
    return id;
}

/* A contact or link kind from a network's name: "Stack Overflow" ->
 * "stack-overflow" ([a-z][a-z0-9-]*). */
static const char *kind_of(const char *network, apr_pool_t *p)
{
    const char *k = slug(network, 64, p);

    if (!*k) {
        return "link";
    }
    return apr_isalpha(*k) ? k : apr_pstrcat(p, "net-", k, NULL);
}

/* ------------------------------------------------------------ import */

/* What the import reads of an entry, and how it checks it. */
typedef struct {
    const char *key;
    char type;                  /* 's' string, 'd' date, 'l' strings */
    int mapped;                 /* 0: checked, then dropped */
} jr_key_t;

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

/* An array of entries: how entries are told apart across languages
 * (`ident`: an entry of one language is the entry of another with the
 * same values) and which of their values must be the same in every
 * language (`neutral`). */
typedef struct {
    const char *path;           /* "work", "basics.profiles" */
    const char *key;            /* its member: "work", "profiles" */
    const jr_key_t *keys;
    const char *name;           /* the key that names an entry */
    const char *ident[4];
    const char *neutral[5];
} jr_array_t;

static const jr_array_t profiles_array = {
    "basics.profiles", "profiles", profile_keys, "network",
    {"network", NULL}, {"network", "username", "url", NULL}
};
static const jr_array_t work_array = {
    "work", "work", work_keys, "name", {"name", "startDate", NULL},
    {"name", "url", "startDate", "endDate", NULL}
};
static const jr_array_t education_array = {
    "education", "education", education_keys, "institution",
    {"url", "startDate", "endDate", NULL},
    {"url", "startDate", "endDate", NULL}
};
static const jr_array_t skills_array = {
    "skills", "skills", skill_keys, "name", {NULL}, {NULL}
};
static const jr_array_t projects_array = {
    "projects", "projects", project_keys, "name",
    {"url", "startDate", "endDate", NULL},
    {"url", "startDate", "endDate", NULL}
};

/* Members of a document the import ignores without a note. */
static const char *const ignored_top[] = {"$schema", "meta", NULL};

typedef struct {
    jr_ctx_t c;
    int n;                      /* languages, one document each */
    const char *langs[JR_MAX_LANGS];
    const char *files[JR_MAX_LANGS];
    json_t *docs[JR_MAX_LANGS];
    apr_array_header_t *dropped; /* "work[].summary", in order seen */
    apr_hash_t *dropped_seen;
} jr_import_t;

static const char *join(int n, const char **items, const char *sep,
                        apr_pool_t *p)
{
    const char *s = n ? items[0] : "";
    int i;

    for (i = 1; i < n; i++) {
        s = apr_pstrcat(p, s, sep, items[i], NULL);
    }
    return s;
}

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
        return fail(&im->c, "%s: %s: not an object", im->files[l], at);
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
                return fail(&im->c, "%s: %s.%s: not an array of strings",
                            im->files[l], at, k);
            }
            json_array_foreach(v, i, item) {
                if (!json_is_string(item)) {
                    return fail(&im->c, "%s: %s.%s[" SZ "]: not a string",
                                im->files[l], at, k, i);
                }
            }
        }
        else if (!json_is_string(v)) {
            return fail(&im->c, "%s: %s.%s: not a string", im->files[l], at,
                        k);
        }
        else if (key->type == 'd' && *json_string_value(v)
                 && !is_date(json_string_value(v))) {
            return fail(&im->c, "%s: %s.%s: \"%s\" is not a date (YYYY, "
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
        return fail(&im->c, "%s: $.%s: not an array", im->files[l], a->path);
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
static int check_doc(jr_import_t *im, int l)
{
    json_t *doc = im->docs[l], *basics, *v;
    const char *k;

    if (!json_is_object(doc)) {
        return fail(&im->c, "%s: not a JSON Resume document (not an "
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
            || check_array(im, l, basics, &profiles_array) < 0) {
            return -1;
        }
    }
    return check_array(im, l, doc, &work_array) < 0
           || check_array(im, l, doc, &education_array) < 0
           || check_array(im, l, doc, &skills_array) < 0
           || check_array(im, l, doc, &projects_array) < 0
           ? -1 : 0;
}

/* " (Pied Piper, 2013-12)": how messages name an entry. */
static const char *entry_label(json_t *e, const jr_array_t *a,
                               apr_pool_t *p)
{
    const char *name = str(e, a->name), *date = str(e, "startDate");

    if (!*name && !*date) {
        return "";
    }
    return apr_psprintf(p, " (%s%s%.7s)", name, *name && *date ? ", " : "",
                        date);
}

static int same_ident(json_t *x, json_t *y, const jr_array_t *a)
{
    int i;

    for (i = 0; a->ident[i]; i++) {
        if (strcmp(str(x, a->ident[i]), str(y, a->ident[i])) != 0) {
            return 0;
        }
    }
    return 1;
}

static int has_ident(json_t *e, const jr_array_t *a)
{
    int i;

    for (i = 0; a->ident[i]; i++) {
        if (*str(e, a->ident[i])) {
            return 1;
        }
    }
    return 0;
}

static int find_ident(json_t *arr, json_t *e, const jr_array_t *a)
{
    size_t i;
    json_t *x;

    if (!has_ident(e, a)) {
        return 0;
    }
    json_array_foreach(arr, i, x) {
        if (same_ident(x, e, a)) {
            return 1;
        }
    }
    return 0;
}

static const char *only_in(jr_import_t *im, int in, int not_in)
{
    if (im->n == 2) {
        return apr_psprintf(im->c.p, "present in %s only", im->langs[in]);
    }
    return apr_psprintf(im->c.p, "present in %s but not in %s",
                        im->langs[in], im->langs[not_in]);
}

/* Checks that the arrays of every language hold the same entries, in the
 * same order, with the same language-neutral values; names the first
 * entry that does not line up. */
static int align(jr_import_t *im, json_t **arrs, const jr_array_t *a)
{
    apr_pool_t *p = im->c.p;
    json_t *x, *y;
    size_t i, nx, ny;
    int l, k;

    nx = json_array_size(arrs[0]);
    for (l = 1; l < im->n; l++) {
        ny = json_array_size(arrs[l]);
        for (i = 0; i < nx || i < ny; i++) {
            x = json_array_get(arrs[0], i);
            y = json_array_get(arrs[l], i);
            if (x && y && same_ident(x, y, a)) {
                continue;
            }
            if (x && (!y || (has_ident(x, a)
                             && !find_ident(arrs[l], x, a)))) {
                return fail(&im->c, "%s[" SZ "]%s: %s", a->path, i,
                            entry_label(x, a, p), only_in(im, 0, l));
            }
            if (y && (!x || (has_ident(y, a)
                             && !find_ident(arrs[0], y, a)))) {
                return fail(&im->c, "%s[" SZ "]%s: %s", a->path, i,
                            entry_label(y, a, p), only_in(im, l, 0));
            }
            return fail(&im->c, "%s[" SZ "]: the entries are in a different "
                        "order:%s in %s,%s in %s", a->path, i,
                        entry_label(x, a, p), im->langs[0],
                        entry_label(y, a, p), im->langs[l]);
        }
        for (i = 0; i < nx; i++) {
            x = json_array_get(arrs[0], i);
            y = json_array_get(arrs[l], i);
            for (k = 0; a->neutral[k]; k++) {
                const char *vx = str(x, a->neutral[k]);
                const char *vy = str(y, a->neutral[k]);

                if (strcmp(vx, vy) != 0) {
                    return fail(&im->c, "%s[" SZ "]%s: %s differs: \"%s\" in "
                                "%s, \"%s\" in %s (it must be the same in "
                                "every language)", a->path, i,
                                entry_label(x, a, p), a->neutral[k], vx,
                                im->langs[0], vy, im->langs[l]);
                }
            }
        }
    }
    return 0;
}

/* A text value from one string per language: plain when they are all
 * the same, else {"en": ..., "es": ...}.  A string that is empty in some
 * languages only is an error (a missing translation). */
static json_t *merge(jr_import_t *im, const char **vals, const char *where)
{
    json_t *obj;
    int l, same = 1;

    for (l = 1; l < im->n; l++) {
        same = same && strcmp(vals[l], vals[0]) == 0;
        if (!*vals[l] != !*vals[0]) {
            int has = *vals[0] ? 0 : l;

            fail(&im->c, "%s: in %s but not in %s", where, im->langs[has],
                 im->langs[has ? 0 : l]);
            return NULL;
        }
    }
    if (same) {
        return json_string(vals[0]);
    }
    obj = json_object();
    for (l = 0; l < im->n; l++) {
        json_object_set_new(obj, im->langs[l], json_string(vals[l]));
    }
    return obj;
}

/* The text value of member `key` of entries[l] (one per language). */
static json_t *text(jr_import_t *im, json_t **entries, const char *key,
                    const char *where)
{
    const char *vals[JR_MAX_LANGS];
    int l;

    for (l = 0; l < im->n; l++) {
        vals[l] = str(entries[l], key);
    }
    return merge(im, vals, apr_pstrcat(im->c.p, where, ".", key, NULL));
}

/* Non-zero when member `key` of entries is there in every language or
 * in none (a part of a text that text2() or period() joins). */
static int check_text(jr_import_t *im, json_t **entries, const char *key,
                      const char *where)
{
    json_t *v = text(im, entries, key, where);
    int ok = v != NULL;

    json_decref(v);
    return ok;
}

/* The same, joining members `k1` and `k2` of each entry with " · ". */
static json_t *text2(jr_import_t *im, json_t **entries, const char *k1,
                     const char *k2, const char *where)
{
    const char *vals[JR_MAX_LANGS], *a, *b;
    int l;

    if (!check_text(im, entries, k1, where)
        || !check_text(im, entries, k2, where)) {
        return NULL;
    }
    for (l = 0; l < im->n; l++) {
        a = str(entries[l], k1);
        b = str(entries[l], k2);
        vals[l] = apr_pstrcat(im->c.p, a, *a && *b ? JR_SEP : "", b, NULL);
    }
    return merge(im, vals, apr_psprintf(im->c.p, "%s.%s/%s", where, k1,
                                        k2));
}

/* An array of text values from the string arrays `key` of entries. */
static json_t *text_list(jr_import_t *im, json_t **entries,
                         const char *key, const char *where)
{
    const char *vals[JR_MAX_LANGS];
    json_t *out = json_array(), *v;
    size_t i, n = json_array_size(json_object_get(entries[0], key));
    int l;

    for (l = 1; l < im->n; l++) {
        size_t nl = json_array_size(json_object_get(entries[l], key));

        if (nl != n) {
            json_decref(out);
            fail(&im->c, "%s.%s: " SZ " items in %s, " SZ " in %s", where,
                 key, n, im->langs[0], nl, im->langs[l]);
            return NULL;
        }
    }
    for (i = 0; i < n; i++) {
        for (l = 0; l < im->n; l++) {
            vals[l] = json_string_value(
                json_array_get(json_object_get(entries[l], key), i));
        }
        v = merge(im, vals, apr_psprintf(im->c.p, "%s.%s[" SZ "]", where,
                                         key, i));
        if (v == NULL) {
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, v);
    }
    return out;
}

/* The period of entries' (language-neutral) dates in every language,
 * joined after member `before` of each entry when it is given. */
static json_t *period(jr_import_t *im, json_t **entries, const char *before,
                      const char *where)
{
    const char *vals[JR_MAX_LANGS], *b, *d;
    int l;

    if (before && !check_text(im, entries, before, where)) {
        return NULL;
    }
    for (l = 0; l < im->n; l++) {
        b = before ? str(entries[l], before) : "";
        d = format_period(str(entries[l], "startDate"),
                          str(entries[l], "endDate"), im->langs[l], im->c.p);
        vals[l] = apr_pstrcat(im->c.p, b, *b && *d ? JR_SEP : "", d, NULL);
    }
    return merge(im, vals, apr_pstrcat(im->c.p, where, before ? "." : "",
                                       before ? before : "", "/dates",
                                       NULL));
}

/* A text value with the same word in every language but those listed. */
static json_t *words(jr_import_t *im, const char *dflt, const char *es)
{
    const char *vals[JR_MAX_LANGS];
    int l;

    for (l = 0; l < im->n; l++) {
        vals[l] = strcmp(im->langs[l], "es") == 0 ? es : dflt;
    }
    return merge(im, vals, "label");
}

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
    return put(profile, "name", text(im, basics, "name", "basics"))
           || put(profile, "headline", text(im, basics, "label", "basics"))
           || put(profile, "summary", text(im, basics, "summary", "basics"));
}

/* Fills entry e of the data file from entries (one per language); `w`
 * names them in messages. */
typedef int (*jr_fill_fn)(jr_import_t *im, json_t **entries,
                          const char *w, json_t *e);

/* Lines up the arrays a->key of parents (one per language) and appends
 * to array `to` of out (made when absent) one entry per position, filled
 * by fill; with id_fallback, each gets an id first (make_id). */
static int import_array(jr_import_t *im, json_t **parents,
                        const jr_array_t *a, json_t *out, const char *to,
                        const char *id_fallback, jr_fill_fn fill)
{
    json_t *all = json_object_get(out, to), *e;
    json_t *arrs[JR_MAX_LANGS], *entries[JR_MAX_LANGS];
    apr_hash_t *ids = apr_hash_make(im->c.p);
    size_t i;
    int l;

    if (all == NULL) {
        all = json_array();
        json_object_set_new(out, to, all);
    }
    for (l = 0; l < im->n; l++) {
        arrs[l] = json_object_get(parents[l], a->key);
        if (!json_is_array(arrs[l])) {
            arrs[l] = NULL;     /* json_array_size(NULL) == 0 */
        }
    }
    if (align(im, arrs, a) < 0) {
        return -1;
    }
    for (i = 0; i < json_array_size(arrs[0]); i++) {
        for (l = 0; l < im->n; l++) {
            entries[l] = json_array_get(arrs[l], i);
        }
        e = json_object();
        json_array_append_new(all, e);
        if (id_fallback) {
            json_object_set_new(e, "id", json_string(
                make_id(ids, str(entries[0], "name"),
                        str(entries[0], "startDate"), id_fallback,
                        im->c.p)));
        }
        if (fill(im, entries, apr_psprintf(im->c.p, "%s[" SZ "]%s", a->path,
                                           i, entry_label(entries[0], a,
                                                          im->c.p)),
                 e) < 0) {
            return -1;
        }
    }
    return 0;
}

static int fill_link(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    const char *network = str(entries[0], "network");

    (void)w;
    json_object_set_new(e, "kind", json_string(kind_of(network, im->c.p)));
    json_object_set_new(e, "text", json_string(network));
    json_object_set_new(e, "url", json_string(str(entries[0], "url")));
    return 0;
}

static int fill_skill(jr_import_t *im, json_t **entries, const char *w,
                      json_t *e)
{
    return put(e, "title", text(im, entries, "name", w))
           || put(e, "summary", text(im, entries, "level", w))
           || put(e, "skills", text_list(im, entries, "keywords", w))
           ? -1 : 0;
}

static int fill_work(jr_import_t *im, json_t **entries, const char *w,
                     json_t *e)
{
    if (put(e, "role", text(im, entries, "position", w))
        || put(e, "company", text(im, entries, "name", w))) {
        return -1;
    }
    json_object_set_new(e, "companyUrl", json_string(str(entries[0], "url")));
    return put(e, "context", text2(im, entries, "description", "location",
                                   w))
           || put(e, "period", period(im, entries, NULL, w))
           || put(e, "highlights", text_list(im, entries, "highlights", w))
           ? -1 : 0;
}

static int fill_education(jr_import_t *im, json_t **entries, const char *w,
                          json_t *e)
{
    if (put(e, "degree", text(im, entries, "area", w))
        || put(e, "credential", period(im, entries, "studyType", w))
        || put(e, "institution", text(im, entries, "institution", w))) {
        return -1;
    }
    json_object_set_new(e, "institutionUrl",
                        json_string(str(entries[0], "url")));
    return 0;
}

static int fill_project(jr_import_t *im, json_t **entries, const char *w,
                        json_t *e)
{
    if (put(e, "title", text(im, entries, "name", w))
        || put(e, "mobileTitle", text(im, entries, "name", w))
        || put(e, "summary", text(im, entries, "description", w))
        || put(e, "organization", text(im, entries, "entity", w))
        || put(e, "context", period(im, entries, NULL, w))) {
        return -1;
    }
    json_object_set_new(e, "problem", json_string(""));
    json_object_set_new(e, "intervention", json_string(""));
    json_object_set_new(e, "result", json_string(""));
    return put(e, "resultItems", text_list(im, entries, "highlights", w));
}

static int import_contact(jr_import_t *im, json_t **basics, json_t *out)
{
    apr_pool_t *p = im->c.p;
    json_t *contact = json_object(), *contacts = json_array();
    json_t *links = json_array(), *e;
    const char *email = str(basics[0], "email");
    const char *phone = str(basics[0], "phone");
    const char *url = str(basics[0], "url"), *tel, *s;
    const char *neutral[] = {"email", "phone", "url", NULL};
    size_t n;
    int l, k;

    json_object_set_new(out, "contact", contact);
    json_object_set_new(contact, "contacts", contacts);
    json_object_set_new(contact, "links", links);
    for (l = 1; l < im->n; l++) {
        for (k = 0; neutral[k]; k++) {
            if (strcmp(str(basics[0], neutral[k]),
                       str(basics[l], neutral[k])) != 0) {
                return fail(&im->c, "basics.%s differs: \"%s\" in %s, "
                            "\"%s\" in %s (it must be the same in every "
                            "language)", neutral[k],
                            str(basics[0], neutral[k]), im->langs[0],
                            str(basics[l], neutral[k]), im->langs[l]);
            }
        }
    }
    if (*email) {
        e = json_object();
        json_array_append_new(contacts, e);
        json_object_set_new(e, "kind", json_string("email"));
        if (put(e, "label", words(im, "Email", "Correo electr\xc3\xb3nico"))) {
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
        if (put(e, "label", words(im, "Phone", "Tel\xc3\xa9" "fono"))) {
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
    return import_array(im, basics, &profiles_array, contact, "links",
                        NULL, fill_link);
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
                return fail(&im->c, "--lang-order names %d or more "
                            "languages for %d file%s", n + 1, im->n,
                            im->n == 1 ? "" : "s");
            }
            im->langs[n++] = t;
        }
        if (n != im->n) {
            return fail(&im->c, "--lang-order names %d language%s for %d "
                        "files", n, n == 1 ? "" : "s", im->n);
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
                return fail(&im->c, "which language is %s? Name the files "
                            "LANG.json or NAME.LANG.json (e.g. en.json, "
                            "resume.en.json) or give --lang-order "
                            "LANG,LANG,... in the order of the files",
                            im->files[l]);
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
            return fail(&im->c, "\"%s\" (%s) is not a language tag: 2 to 8 "
                        "ASCII letters, e.g. en", im->langs[l],
                        im->files[l]);
        }
        im->langs[l] = t;
        for (k = 0; k < l; k++) {
            if (strcmp(im->langs[k], t) == 0) {
                return fail(&im->c, "%s and %s are both in language %s",
                            im->files[k], im->files[l], t);
            }
        }
    }
    return 0;
}

static int import_usage(void)
{
    fprintf(stderr, "usage: profilectl import-jsonresume FILE... "
            "[--lang-order LANG,LANG,...] [-o OUT]\n");
    return 2;
}

/* The option's value: "--opt VALUE" or "--opt=VALUE"; NULL if argv[*i]
 * is not the option. */
static const char *option(int argc, char **argv, int *i, const char *name,
                          int *missing)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n) != 0) {
        return NULL;
    }
    if (argv[*i][n] == '=' && n > 2) {
        return argv[*i] + n + 1;
    }
    if (argv[*i][n] != '\0') {
        return NULL;
    }
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

static int import_run(jr_import_t *im, const char *order, const char *out)
{
    apr_pool_t *p = im->c.p;
    json_t *doc = NULL, *basics[JR_MAX_LANGS];
    json_t *langs;
    json_error_t jerr;
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *store;
    const char *msg, *list;
    char *buf = NULL;
    int l, rv = -1;

    if (import_langs(im, order) < 0) {
        return -1;
    }
    for (l = 0; l < im->n; l++) {
        im->docs[l] = json_load_file(im->files[l], JSON_REJECT_DUPLICATES,
                                     &jerr);
        if (im->docs[l] == NULL) {
            return fail(&im->c, "%s:%d:%d: %s", im->files[l], jerr.line,
                        jerr.column, jerr.text);
        }
        if (check_doc(im, l) < 0) {
            return -1;
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
    if (import_array(im, im->docs, &skills_array, doc, "skills", NULL,
                     fill_skill) < 0
        || import_array(im, im->docs, &work_array, doc, "experience", "work",
                        fill_work) < 0
        || import_array(im, im->docs, &education_array, doc, "education",
                        NULL, fill_education) < 0
        || import_contact(im, basics, doc) < 0
        || import_array(im, im->docs, &projects_array, doc, "caseStudies",
                        "project", fill_project) < 0) {
        goto leave;
    }
    json_object_set_new(doc, "metrics", json_array());

    /* What the module would say of it. */
    buf = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (buf == NULL) {
        fail(&im->c, "out of memory");
        goto leave;
    }
    if (profile_store_parse_opts(&store, &msg, buf, strlen(buf),
                                 out ? out : "(output)", 0, &opts, p)
        != APR_SUCCESS) {
        fail(&im->c, "the result is not a valid data file (a bug in "
             "profilectl): %s", msg);
        goto leave;
    }
    if (write_json(&im->c, doc, out) < 0) {
        goto leave;
    }
    if (im->dropped->nelts) {
        list = join(im->dropped->nelts, (const char **)im->dropped->elts,
                    ", ", p);
        note(&im->c, apr_psprintf(p, "not imported (the data file has no "
                                  "place for them): %s", list));
    }
    rv = 0;
leave:
    free(buf);
    json_decref(doc);
    return rv;
}

int pc_cmd_import_jsonresume(int argc, char **argv)
{
    jr_import_t im;
    const char *order = NULL, *out = NULL, *v;
    int i, missing = 0, rv, status;

    memset(&im, 0, sizeof(im));
    im.c.cmd = "import-jsonresume";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            import_usage();
            return 0;
        }
        if ((v = option(argc, argv, &i, "--lang-order", &missing))) {
            order = v;
        }
        else if ((v = option(argc, argv, &i, "-o", &missing))
                 || (v = option(argc, argv, &i, "--output", &missing))) {
            out = v;
        }
        else if (missing || (argv[i][0] == '-' && argv[i][1] != '\0')) {
            fprintf(stderr, "profilectl %s: %s: %s\n", im.c.cmd,
                    missing ? "option needs a value" : "unknown option",
                    argv[i]);
            return import_usage();
        }
        else if (im.n == JR_MAX_LANGS) {
            fprintf(stderr, "profilectl %s: at most %d files\n", im.c.cmd,
                    JR_MAX_LANGS);
            return 2;
        }
        else {
            im.files[im.n++] = argv[i];
        }
    }
    if (im.n == 0) {
        return import_usage();
    }
    apr_initialize();
    apr_pool_create(&im.c.p, NULL);
    im.dropped = apr_array_make(im.c.p, 8, sizeof(const char *));
    im.dropped_seen = apr_hash_make(im.c.p);
    rv = import_run(&im, order, out);
    status = rv < 0 ? report(&im.c, 1) : 0;
    for (i = 0; i < im.n; i++) {
        json_decref(im.docs[i]);
    }
    apr_pool_destroy(im.c.p);
    apr_terminate();
    return status;
}

/* ------------------------------------------------------------ export */

typedef struct {
    jr_ctx_t c;
    const char *lang;
} jr_export_t;

/* Text value v in the export's language. */
static const char *tx(jr_export_t *ex, json_t *v)
{
    const char *s = json_string_value(profile_schema_text(v, ex->lang));

    return s ? s : "";
}

static const char *txk(jr_export_t *ex, json_t *obj, const char *key)
{
    return tx(ex, json_object_get(obj, key));
}

static json_t *tx_list(jr_export_t *ex, json_t *arr)
{
    json_t *out = json_array(), *v;
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

    if (parse_period(&start, &end, text, ex->c.p) < 0) {
        return -1;
    }
    set_str(obj, "startDate", start);
    set_str(obj, "endDate", end);
    return 0;
}

static json_t *export_basics(jr_export_t *ex, json_t *data)
{
    json_t *b = json_object(), *profiles = json_array(), *profile, *e;
    json_t *contact = json_object_get(data, "contact"), *pr;
    const char *email = NULL, *phone = NULL, *url = NULL, *k, *u;
    size_t i;

    profile = json_object_get(data, "profile");
    set_str(b, "name", txk(ex, profile, "name"));
    set_str(b, "label", txk(ex, profile, "headline"));
    json_array_foreach(json_object_get(contact, "contacts"), i, e) {
        k = str(e, "kind");
        u = str(e, "url");
        if (strcmp(k, "email") == 0 && email == NULL) {
            email = strncasecmp(u, "mailto:", 7) == 0 ? u + 7
                                                       : txk(ex, e, "text");
        }
        else if (strcmp(k, "phone") == 0 && phone == NULL) {
            phone = txk(ex, e, "text");
        }
        else {
            pr = json_object();
            set_str(pr, "network", txk(ex, e, "label"));
            set_str(pr, "username", txk(ex, e, "text"));
            set_str(pr, "url", u);
            json_array_append_new(profiles, pr);
        }
    }
    json_array_foreach(json_object_get(contact, "links"), i, e) {
        if (strcmp(str(e, "kind"), "website") == 0 && url == NULL) {
            url = str(e, "url");
            continue;
        }
        pr = json_object();
        set_str(pr, "network", txk(ex, e, "text"));
        set_str(pr, "url", str(e, "url"));
        json_array_append_new(profiles, pr);
    }
    set_str(b, "email", email);
    set_str(b, "phone", phone);
    set_str(b, "url", url);
    set_str(b, "summary", txk(ex, profile, "summary"));
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

    set_str(w, "name", txk(ex, e, "company"));
    if (sep) {
        set_str(w, "location", sep + strlen(JR_SEP));
        set_str(w, "description", apr_pstrndup(ex->c.p, ctx, sep - ctx));
    }
    else {
        set_str(w, "description", ctx);
    }
    set_str(w, "position", txk(ex, e, "role"));
    set_str(w, "url", str(e, "companyUrl"));
    if (set_dates(ex, w, per) < 0) {
        note(&ex->c, apr_psprintf(ex->c.p, "experience \"%s\": period \"%s\" "
                                  "is not a date range: no startDate or "
                                  "endDate", str(e, "id"), per));
    }
    json_object_set_new(w, "highlights",
                        tx_list(ex, json_object_get(e, "highlights")));
}

static void export_education(jr_export_t *ex, json_t *e, json_t *ed)
{
    const char *cred = txk(ex, e, "credential"), *sep = NULL, *s;
    const char *dates, *start, *end;

    set_str(ed, "institution", txk(ex, e, "institution"));
    set_str(ed, "url", str(e, "institutionUrl"));
    set_str(ed, "area", txk(ex, e, "degree"));
    /* "studyType · dates", "studyType" or "dates" */
    for (s = cred; (s = strstr(s, JR_SEP)); s++) {
        sep = s;
    }
    dates = sep ? sep + strlen(JR_SEP) : cred;
    if (*dates && parse_period(&start, &end, dates, ex->c.p) == 0) {
        set_str(ed, "studyType", apr_pstrndup(ex->c.p, cred,
                                              sep ? sep - cred : 0));
        set_str(ed, "startDate", start);
        set_str(ed, "endDate", end);
    }
    else {
        set_str(ed, "studyType", cred);
    }
}

static void export_skill(jr_export_t *ex, json_t *e, json_t *sk)
{
    set_str(sk, "name", txk(ex, e, "title"));
    set_str(sk, "level", txk(ex, e, "summary"));
    json_object_set_new(sk, "keywords",
                        tx_list(ex, json_object_get(e, "skills")));
}

static void export_project(jr_export_t *ex, json_t *e, json_t *pr)
{
    set_str(pr, "name", txk(ex, e, "title"));
    set_str(pr, "description", txk(ex, e, "summary"));
    json_object_set_new(pr, "highlights",
                        tx_list(ex, json_object_get(e, "resultItems")));
    /* A context that is a period is the project's dates; prose is not
     * exported. */
    set_dates(ex, pr, txk(ex, e, "context"));
    set_str(pr, "entity", txk(ex, e, "organization"));
}

static int export_usage(void)
{
    fprintf(stderr, "usage: profilectl export-jsonresume FILE [--lang LANG] "
            "[-o OUT]\n");
    return 2;
}

static int export_run(jr_export_t *ex, const char *file, const char *out)
{
    apr_pool_t *p = ex->c.p;
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *store;
    json_t *data, *doc = NULL;
    json_error_t jerr;
    const char *msg, **langs;
    char *cwd, *path;
    int nlangs, l, rv = -1;

    if (apr_filepath_get(&cwd, 0, p) != APR_SUCCESS
        || apr_filepath_merge(&path, cwd, file, 0, p)
           != APR_SUCCESS) {
        return fail(&ex->c, "%s: no such file", file);
    }
    if (profile_store_load(&store, &msg, path, &opts, p) != APR_SUCCESS) {
        return fail(&ex->c, "%s", msg);
    }
    data = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (data == NULL
        || profile_validate(data, &langs, &nlangs,
                            apr_array_make(p, 1,
                                           sizeof(profile_data_problem_t)),
                            p) != 0) {
        json_decref(data);
        return fail(&ex->c, "%s: cannot read it again", file);
    }
    if (ex->lang == NULL) {
        ex->lang = langs[0];
    }
    for (l = 0; l < nlangs && strcmp(langs[l], ex->lang) != 0; l++) {
    }
    if (l == nlangs) {
        fail(&ex->c, "%s has no language \"%s\" (it has %s)", file, ex->lang,
             join(nlangs, langs, ", ", p));
        goto leave;
    }
    doc = json_object();
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
    rv = write_json(&ex->c, doc, out);
leave:
    json_decref(doc);
    json_decref(data);
    return rv;
}

int pc_cmd_export_jsonresume(int argc, char **argv)
{
    jr_export_t ex;
    const char *file = NULL, *out = NULL, *v;
    int i, missing = 0, status;

    memset(&ex, 0, sizeof(ex));
    ex.c.cmd = "export-jsonresume";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            export_usage();
            return 0;
        }
        if ((v = option(argc, argv, &i, "--lang", &missing))) {
            ex.lang = v;
        }
        else if ((v = option(argc, argv, &i, "-o", &missing))
                 || (v = option(argc, argv, &i, "--output", &missing))) {
            out = v;
        }
        else if (missing || (argv[i][0] == '-' && argv[i][1] != '\0')
                 || file != NULL) {
            fprintf(stderr, "profilectl %s: %s: %s\n", ex.c.cmd,
                    missing ? "option needs a value"
                    : file ? "one data file only" : "unknown option",
                    argv[i]);
            return export_usage();
        }
        else {
            file = argv[i];
        }
    }
    if (file == NULL) {
        return export_usage();
    }
    apr_initialize();
    apr_pool_create(&ex.c.p, NULL);
    status = export_run(&ex, file, out) < 0 ? report(&ex.c, 1) : 0;
    apr_pool_destroy(ex.c.p);
    apr_terminate();
    return status;
}
