/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export/extras.c -- export-jsonresume's part for what the imports
 * place where CONTRACT §9 (revised 2026-11-28) has a home for it
 * (import/write_extras.c), read back by the words the imports write in
 * each of the file's languages: an education record whose credential
 * is the word for a certification (alone, or before " · ") is a
 * certificate; a skill group titled with the word for spoken languages
 * holds the languages ("Spanish (Native)": the language and its
 * fluency); the first contact of kind location is basics.location; a
 * link of kind project is the url of the project of its name.  Run on
 * the document pc_jr_export_doc made.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_schema.h"
#include "export/export.h"

typedef struct {
    const char *lang, *fallback;
    json_t *langs;              /* the data file's languages */
    apr_pool_t *p;
} jr_ex_t;

static const char *served(jr_ex_t *x, json_t *v)
{
    int fell = 0;
    const char *s = json_string_value(profile_schema_served(
                        v, x->lang, x->fallback, &fell));

    return s ? s : "";
}

/* Text value v as language `lang` gives it ("" where it has none). */
static const char *in_lang(json_t *v, const char *lang)
{
    const char *s = json_is_string(v) ? json_string_value(v)
                    : json_string_value(json_object_get(v, lang));

    return s ? s : "";
}

/* Whether text value v, in one of the file's languages, is that
 * language's word `which`: all of it, or (`lead`) before " · ". */
static int says(jr_ex_t *x, json_t *v, int which, int lead)
{
    json_t *l;
    size_t i, n;
    const char *s, *w;

    json_array_foreach(x->langs, i, l) {
        s = in_lang(v, json_string_value(l));
        w = pc_jr_word(which, json_string_value(l));
        n = strlen(w);
        if (strncmp(s, w, n) == 0
            && (s[n] == '\0'
                || (lead && strncmp(s + n, JR_SEP, strlen(JR_SEP)) == 0))) {
            return 1;
        }
    }
    return 0;
}

/* The date certificate record e was given: its start, to the day when
 * its credential's period says that start with the day. */
static const char *cert_date(jr_ex_t *x, json_t *e)
{
    const char *d = json_string_value(json_object_get(e, "start"));
    const char *cred = served(x, json_object_get(e, "credential"));
    const char *per = strstr(cred, JR_SEP), *end, *s, *t;

    if (per == NULL) {
        return d ? d : "";
    }
    per += strlen(JR_SEP);
    end = strstr(per, JR_SEP);
    per = end ? apr_pstrndup(x->p, per, end - per) : per;
    if (pc_jr_parse_period(&s, &t, per, x->p) == 0 && *s
        && (d == NULL || strncmp(s, d, strlen(d)) == 0)) {
        return s;
    }
    return d ? d : "";
}

static void certificates(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *edu = json_object_get(doc, "education"), *certs = json_array();
    json_t *records = json_object_get(data, "education"), *e, *c;
    size_t i;

    json_array_foreach(records, i, e) {
        if (!says(x, json_object_get(e, "credential"),
                  JR_WORD_CERTIFICATION, 1)) {
            continue;
        }
        c = json_object();
        pc_jr_set_str(c, "name", served(x, json_object_get(e, "degree")));
        pc_jr_set_str(c, "date", cert_date(x, e));
        pc_jr_set_str(c, "issuer",
                      served(x, json_object_get(e, "institution")));
        pc_jr_set_str(c, "url", pc_jr_str(e, "institutionUrl"));
        json_array_append_new(certs, c);
    }
    /* Out of education, last first so that the indexes hold. */
    for (i = json_array_size(records); i-- > 0;) {
        if (says(x, json_object_get(json_array_get(records, i),
                                    "credential"),
                 JR_WORD_CERTIFICATION, 1)) {
            json_array_remove(edu, i);
        }
    }
    if (json_array_size(certs)) {
        json_object_set(doc, "certificates", certs);
    }
    json_decref(certs);
}

static void languages(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *skills = json_object_get(doc, "skills"), *langs = json_array();
    json_t *groups = json_object_get(data, "skills"), *g, *it, *o, *list;
    size_t i, j;
    const char *t, *open;
    int fell = 0;

    json_array_foreach(groups, i, g) {
        if (!says(x, json_object_get(g, "title"), JR_WORD_LANGUAGES, 0)) {
            continue;
        }
        list = profile_schema_served_list(json_object_get(g, "skills"),
                                          x->lang, x->fallback, &fell);
        json_array_foreach(list, j, it) {
            /* "Spanish (Native)": the language, and its fluency. */
            t = served(x, it);
            open = strrchr(t, '(');
            o = json_object();
            if (open && open > t && open[-1] == ' '
                && t[strlen(t) - 1] == ')') {
                pc_jr_set_str(o, "language",
                              apr_pstrndup(x->p, t, open - 1 - t));
                pc_jr_set_str(o, "fluency",
                              apr_pstrndup(x->p, open + 1,
                                           strlen(open) - 2));
            }
            else {
                pc_jr_set_str(o, "language", t);
            }
            json_array_append_new(langs, o);
        }
    }
    for (i = json_array_size(groups); i-- > 0;) {
        if (says(x, json_object_get(json_array_get(groups, i), "title"),
                 JR_WORD_LANGUAGES, 0)) {
            json_array_remove(skills, i);
        }
    }
    if (json_array_size(langs)) {
        json_object_set(doc, "languages", langs);
    }
    json_decref(langs);
}

/* The location's text read back as the import joins basics.location
 * ("address, city, region, postalCode, countryCode"), from the end: two
 * capitals last are the countryCode, a part with a digit before it the
 * postalCode; of the rest, one part is the city, two city and region,
 * more the address (those before), city and region. */
static json_t *location(jr_ex_t *x, const char *text)
{
    static const char *const names[] = {"city", "region"};
    json_t *loc = json_object();
    char *s = apr_pstrdup(x->p, text), *last;
    const char *parts[32], *t;
    int n = 0, i, k;

    for (t = apr_strtok(s, ",", &last); t && n < 32;
         t = apr_strtok(NULL, ",", &last)) {
        t += strspn(t, " ");
        if (*t) {
            parts[n++] = t;
        }
    }
    if (t != NULL || n == 0) {
        pc_jr_set_str(loc, "address", text);
        return loc;
    }
    if (n > 1 && strlen(parts[n - 1]) == 2 && apr_isupper(parts[n - 1][0])
        && apr_isupper(parts[n - 1][1])) {
        pc_jr_set_str(loc, "countryCode", parts[--n]);
    }
    if (n > 1 && strpbrk(parts[n - 1], "0123456789")) {
        pc_jr_set_str(loc, "postalCode", parts[--n]);
    }
    k = n > 2 ? n - 2 : 0;
    if (k > 0) {
        pc_jr_set_str(loc, "address", pc_jr_join(k, parts, ", ", x->p));
    }
    for (i = k; i < n; i++) {
        pc_jr_set_str(loc, names[i - k], parts[i]);
    }
    return loc;
}

/* Whether the title of case study cs is text value text, in one of
 * the file's languages. */
static int named(jr_ex_t *x, json_t *cs, json_t *text)
{
    json_t *l;
    size_t i;
    const char *a, *b;

    json_array_foreach(x->langs, i, l) {
        a = in_lang(json_object_get(cs, "title"), json_string_value(l));
        b = in_lang(text, json_string_value(l));
        if (*a && strcmp(a, b) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The links of kind project to their projects (by name, in any of the
 * file's languages: a title translated later still finds its link); a
 * link no case study names is a project of its own (a tool, a
 * repository: its text the name). */
static void project_links(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *projects = json_object_get(doc, "projects"), *pr, *e, *cs;
    size_t i, j;
    int found;

    json_array_foreach(json_object_get(json_object_get(data, "contact"),
                                       "links"), i, e) {
        if (strcmp(pc_jr_str(e, "kind"), "project") != 0) {
            continue;
        }
        found = 0;
        json_array_foreach(json_object_get(data, "caseStudies"), j, cs) {
            pr = json_array_get(projects, j);
            if (!found && !*pc_jr_str(pr, "url")
                && named(x, cs, json_object_get(e, "text"))) {
                pc_jr_set_str(pr, "url", pc_jr_str(e, "url"));
                found = 1;
            }
        }
        if (!found) {
            json_array_append_new(projects, json_pack(
                "{ssss}", "name", served(x, json_object_get(e, "text")),
                "url", pc_jr_str(e, "url")));
        }
    }
}

void pc_jr_export_extras(json_t *doc, json_t *data, const char *lang,
                         const char *fallback, apr_pool_t *p)
{
    json_t *langs = json_object_get(data, "languages"), *e;
    jr_ex_t x = {lang, fallback, NULL, p};
    size_t i;
    const char *text;

    /* Without "languages" a file has en and es (CONTRACT §9). */
    x.langs = langs ? json_incref(langs) : json_pack("[ss]", "en", "es");
    json_array_foreach(json_object_get(json_object_get(data, "contact"),
                                       "contacts"), i, e) {
        text = served(&x, json_object_get(e, "text"));
        if (strcmp(pc_jr_str(e, "kind"), "location") == 0 && *text) {
            json_object_set_new(json_object_get(doc, "basics"), "location",
                                location(&x, text));
            break;
        }
    }
    certificates(&x, doc, data);
    languages(&x, doc, data);
    project_links(&x, doc, data);
    json_decref(x.langs);
}
