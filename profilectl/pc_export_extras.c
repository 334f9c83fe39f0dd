/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_export_extras.c -- export-jsonresume's part for what the imports
 * place where CONTRACT §9 (revised 2026-11-28) has a home for it
 * (pc_import_extras.c): an education record whose credential is the
 * word for a certification (and its date) is a certificate, a skill
 * group titled with the word for languages whose items are texts people
 * read ("Spanish (Native)") the languages, the first contact of kind
 * location basics.location, a link of kind project the url of the
 * project of its name.  Run on the document pc_jr_export_doc made.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_schema.h"
#include "pc_jr.h"

typedef struct {
    const char *lang, *fallback;
    apr_pool_t *p;
} jr_ex_t;

static const char *served(jr_ex_t *x, json_t *v)
{
    int fell = 0;
    const char *s = json_string_value(profile_schema_served(
                        v, x->lang, x->fallback, &fell));

    return s ? s : "";
}

/* Whether education record e is a certificate: its credential is the
 * word, or the word, " · " and a period. */
static int is_certificate(jr_ex_t *x, json_t *e)
{
    const char *c = served(x, json_object_get(e, "credential"));
    const char *w = pc_jr_word(JR_WORD_CERTIFICATION, x->lang);
    const char *s, *t;
    size_t n = strlen(w);

    if (strncmp(c, w, n) != 0) {
        return 0;
    }
    return c[n] == '\0' || (strncmp(c + n, JR_SEP, strlen(JR_SEP)) == 0
                            && pc_jr_parse_period(&s, &t, c + n
                                                  + strlen(JR_SEP), x->p)
                               == 0 && *s);
}

static void certificates(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *edu = json_object_get(doc, "education"), *certs = json_array();
    json_t *e, *c;
    size_t i, n = json_array_size(edu);
    const char *d, *s, *t, *cred, *sep;

    for (i = 0; i < n; i++) {
        e = json_array_get(json_object_get(data, "education"), i);
        if (!is_certificate(x, e)) {
            continue;
        }
        c = json_object();
        pc_jr_set_str(c, "name", served(x, json_object_get(e, "degree")));
        /* The period says the day when the import had one. */
        d = json_string_value(json_object_get(e, "start"));
        cred = served(x, json_object_get(e, "credential"));
        sep = strstr(cred, JR_SEP);
        if (sep && pc_jr_parse_period(&s, &t, sep + strlen(JR_SEP), x->p)
                   == 0 && *s && (d == NULL
                                  || strncmp(s, d, strlen(d)) == 0)) {
            d = s;
        }
        pc_jr_set_str(c, "date", d);
        pc_jr_set_str(c, "issuer",
                      served(x, json_object_get(e, "institution")));
        pc_jr_set_str(c, "url", json_string_value(
                          json_object_get(e, "institutionUrl")));
        json_array_append_new(certs, c);
    }
    /* Out of education, last first so that the indexes hold. */
    for (i = n; i-- > 0;) {
        if (is_certificate(x, json_array_get(json_object_get(data,
                                                             "education"),
                                             i))) {
            json_array_remove(edu, i);
        }
    }
    if (json_array_size(certs)) {
        json_object_set(doc, "certificates", certs);
    }
    json_decref(certs);
}

/* Whether skill group g holds the spoken languages: its title is the
 * word, and each item a text people read (an object per language, as
 * the import writes them; a name such as "Python" is a plain string). */
static int is_languages(jr_ex_t *x, json_t *g)
{
    json_t *items = json_object_get(g, "skills"), *it;
    size_t i;

    if (strcmp(served(x, json_object_get(g, "title")),
               pc_jr_word(JR_WORD_LANGUAGES, x->lang)) != 0
        || !json_is_array(items) || json_array_size(items) == 0) {
        return 0;
    }
    json_array_foreach(items, i, it) {
        if (!json_is_object(it)) {
            return 0;
        }
    }
    return 1;
}

static void languages(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *skills = json_object_get(doc, "skills"), *langs = json_array();
    json_t *groups = json_object_get(data, "skills"), *g, *it, *o;
    size_t i, j;
    const char *t, *open;

    json_array_foreach(groups, i, g) {
        if (!is_languages(x, g)) {
            continue;
        }
        json_array_foreach(json_object_get(g, "skills"), j, it) {
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
        if (is_languages(x, json_array_get(groups, i))) {
            json_array_remove(skills, i);
        }
    }
    if (json_array_size(langs)) {
        json_object_set(doc, "languages", langs);
    }
    json_decref(langs);
}

/* "San Francisco, California, US": a two-letter code last is the
 * countryCode; before it one part is the city, two city and region;
 * else the whole text is the address. */
static json_t *location(jr_ex_t *x, const char *text)
{
    json_t *loc = json_object();
    char *s = apr_pstrdup(x->p, text), *last = strrchr(s, ','), *c, *r;

    if (last && strlen(last) == 4 && last[1] == ' '
        && apr_isupper(last[2]) && apr_isupper(last[3])) {
        pc_jr_set_str(loc, "countryCode", last + 2);
        *last = '\0';
    }
    c = s;
    r = strchr(s, ',');
    if (r && r[1] == ' ' && strchr(r + 1, ',') == NULL) {
        *r = '\0';
        pc_jr_set_str(loc, "city", c);
        pc_jr_set_str(loc, "region", r + 2);
    }
    else if (r == NULL) {
        pc_jr_set_str(loc, "city", c);
    }
    else {
        pc_jr_set_str(loc, "address", text);
        json_object_del(loc, "countryCode");
    }
    return loc;
}

/* The links of kind project to their projects (by name); a link no
 * project has stays a profile. */
static void project_links(jr_ex_t *x, json_t *doc, json_t *data)
{
    json_t *projects = json_object_get(doc, "projects"), *pr, *e;
    json_t *profiles = json_object_get(json_object_get(doc, "basics"),
                                       "profiles");
    size_t i, j;
    int found;
    const char *text;

    json_array_foreach(json_object_get(json_object_get(data, "contact"),
                                       "links"), i, e) {
        if (strcmp(pc_jr_str(e, "kind"), "project") != 0) {
            continue;
        }
        text = served(x, json_object_get(e, "text"));
        found = 0;
        json_array_foreach(projects, j, pr) {
            if (!found && !*pc_jr_str(pr, "url")
                && strcmp(pc_jr_str(pr, "name"), text) == 0) {
                pc_jr_set_str(pr, "url", pc_jr_str(e, "url"));
                found = 1;
            }
        }
        if (!found) {
            json_array_append_new(profiles, json_pack("{ssss}", "network",
                                                      text, "url",
                                                      pc_jr_str(e, "url")));
        }
    }
}

void pc_jr_export_extras(json_t *doc, json_t *data, const char *lang,
                         const char *fallback, apr_pool_t *p)
{
    jr_ex_t x = {lang, fallback, p};
    json_t *e;
    size_t i;

    json_array_foreach(json_object_get(json_object_get(data, "contact"),
                                       "contacts"), i, e) {
        if (strcmp(pc_jr_str(e, "kind"), "location") == 0
            && *served(&x, json_object_get(e, "text"))) {
            json_object_set_new(json_object_get(doc, "basics"), "location",
                                location(&x, served(&x, json_object_get(
                                                        e, "text"))));
            break;
        }
    }
    certificates(&x, doc, data);
    languages(&x, doc, data);
    project_links(&x, doc, data);
}
