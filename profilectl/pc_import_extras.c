/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_extras.c -- what a person has beyond the specification's
 * fields, imported where CONTRACT §9 (revised 2026-11-28) has a home
 * for it: a certificate is an education record whose credential says
 * so ("Certification · Mar 2023"), the spoken languages one skill group
 * ("Spoken languages": "Spanish (Native)"), basics.location a contact of
 * kind location with an empty url, a project's url a link of kind
 * project.  And the dates of experience and education records (`start`,
 * `end`): data, so that the module writes each language's period and no
 * translator retypes a date.  The words it writes are in each file's
 * language; pc_export_extras.c reads them back.  docs/jsonresume.md
 * documents all of it.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_dates.h"
#include "profile_text.h"
#include "pc_jr.h"

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
static const jr_key_t location_keys[] = {
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
    {location_keys, "locationCountryCode", "countryCode"},
    {location_keys, "zip", "postalCode"},
    {location_keys, "zipCode", "postalCode"},
    {location_keys, "postcode", "postalCode"},
    {location_keys, "state", "region"},
    {location_keys, "province", "region"},
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

/* The words the import writes for what it places (English for a
 * language without them); "pt-BR" is Portuguese.  English says "Spoken
 * languages": a skill group "Languages" is often programming ones. */
static const struct {
    const char *lang, *w[4];
} word_table[] = {
    {"en", {"Certification", "Spoken languages", "Location",
            "Credential ID"}},
    {"es", {"Certificaci\xc3\xb3n", "Idiomas", "Ubicaci\xc3\xb3n",
            "ID de la credencial"}},
    {"de", {"Zertifizierung", "Sprachen", "Standort", "Nachweis-ID"}},
    {"fr", {"Certification", "Langues", "Localisation", "Identifiant"}},
    {"pt", {"Certifica\xc3\xa7\xc3\xa3o", "Idiomas",
            "Localiza\xc3\xa7\xc3\xa3o", "ID da credencial"}},
    {"it", {"Certificazione", "Lingue", "Localit\xc3\xa0",
            "ID credenziale"}},
};

const char *pc_jr_word(int which, const char *lang)
{
    size_t i, n;

    for (i = 0; i < sizeof(word_table) / sizeof(word_table[0]); i++) {
        n = strlen(word_table[i].lang);
        if (strncasecmp(lang, word_table[i].lang, n) == 0
            && (lang[n] == '\0' || lang[n] == '-')) {
            return word_table[i].w[which];
        }
    }
    return word_table[0].w[which];
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
        bad |= pc_jr_check_entry(im, l, loc, location_keys,
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

/* ------------------------------------------------------------ dates */

int pc_jr_put_dates(jr_import_t *im, json_t **entries, json_t *e)
{
    const char *s = NULL, *t = NULL, *sl, *tl;
    int l, daily, words = 1;

    for (l = 0; l < im->n; l++) {
        if (entries[l] == NULL) {
            continue;
        }
        sl = pc_jr_str(entries[l], "startDate");
        tl = pc_jr_str(entries[l], "endDate");
        if (s != NULL && (strcmp(s, sl) || strcmp(t, tl))) {
            return 0;           /* each language keeps its own period */
        }
        s = sl;
        t = tl;
        words &= profile_date_words(im->langs[l]) != NULL;
    }
    if (s == NULL || !*s) {
        return 0;               /* an end alone is no dates (§9) */
    }
    daily = strlen(s) > 7 || strlen(t) > 7;
    s = apr_pstrndup(im->c.p, s, 7);
    t = apr_pstrndup(im->c.p, t, 7);
    if (*t && profile_date_cmp(t, s) < 0) {
        pc_jr_assume(im, -1, "the end %s is before the start %s%s: no "
                     "start and end written, the period kept", t, s,
                     im->label ? im->label : "");
        return 0;
    }
    json_object_set_new(e, "start", json_string(s));
    if (*t) {
        json_object_set_new(e, "end", json_string(t));
    }
    /* A day is shown in the period the import writes, not in the
     * module's: that period stays. */
    return !daily && words;
}

/* ------------------------------------------------------------ records */

/* Member k of each entry set to the text fn makes of it in the entry's
 * language; a made member ("_credential"), read by pc_jr_text as any. */
typedef const char *(*jr_make_fn)(jr_import_t *im, json_t *e,
                                  const char *lang);

static void synth(jr_import_t *im, json_t **entries, const char *k,
                  jr_make_fn fn)
{
    int l;

    for (l = 0; l < im->n; l++) {
        if (entries[l] != NULL) {
            pc_jr_set_str(entries[l], k, fn(im, entries[l], im->langs[l]));
        }
    }
}

static int put(json_t *obj, const char *key, json_t *v)
{
    if (v == NULL) {
        return -1;
    }
    json_object_set_new(obj, key, v);
    return 0;
}

/* "Certification · Mar 2023 – Mar 2026 · Credential ID 1234": the
 * word, the dates as the import writes periods in that language (the
 * date given, to the end of its validity), and its number. */
static const char *credential(jr_import_t *im, json_t *e, const char *lang)
{
    const char *d = pc_jr_str(e, "date"), *v = pc_jr_str(e, "validThrough");
    const char *id = pc_jr_str(e, "credentialId"), *parts[3];
    int n = 0;

    parts[n++] = pc_jr_word(JR_WORD_CERTIFICATION, lang);
    if (*d || *v) {
        parts[n++] = pc_jr_format_period(d, *v ? v : d, lang, im->c.p);
    }
    if (*id) {
        parts[n++] = apr_pstrcat(im->c.p, pc_jr_word(JR_WORD_CREDENTIAL_ID,
                                                     lang), " ", id, NULL);
    }
    return pc_jr_join(n, parts, JR_SEP, im->c.p);
}

static int fill_certificate(jr_import_t *im, json_t **entries,
                            const char *w, json_t *e)
{
    json_t *dated[JR_MAX_LANGS];
    const char *v;
    int l, rv;

    synth(im, entries, "_credential", credential);
    rv = put(e, "degree", pc_jr_text(im, entries, "name", w));
    rv |= put(e, "credential", pc_jr_text(im, entries, "_credential", w));
    rv |= put(e, "institution", pc_jr_name(im, entries, "issuer", w));
    json_object_set_new(e, "institutionUrl",
                        json_string(pc_jr_neutral(im, entries, "url", w)));
    /* Given on `date`, valid to validThrough (or that day): start, end. */
    for (l = 0; l < im->n; l++) {
        dated[l] = entries[l] ? json_object() : NULL;
        if (dated[l] != NULL) {
            v = pc_jr_str(entries[l], "validThrough");
            pc_jr_set_str(dated[l], "startDate",
                          pc_jr_str(entries[l], "date"));
            pc_jr_set_str(dated[l], "endDate",
                          *v ? v : pc_jr_str(entries[l], "date"));
        }
    }
    pc_jr_put_dates(im, dated, e);
    for (l = 0; l < im->n; l++) {
        json_decref(dated[l]);
    }
    return rv;
}

/* "Spanish (Native)": the language and its fluency as written. */
static const char *spoken(jr_import_t *im, json_t *e, const char *lang)
{
    const char *n = pc_jr_str(e, "language"), *f = pc_jr_str(e, "fluency");

    (void)lang;
    if (!*f) {
        return n;
    }
    return *n ? apr_pstrcat(im->c.p, n, " (", f, ")", NULL) : f;
}

static int fill_language(jr_import_t *im, json_t **entries, const char *w,
                         json_t *e)
{
    synth(im, entries, "_spoken", spoken);
    return put(e, "t", pc_jr_text(im, entries, "_spoken", w));
}

/* Whether s says anything: a letter or digit ("-" is a template's
 * placeholder for nothing). */
static int says_something(const char *s)
{
    for (; *s; s++) {
        if (apr_isalnum(*s) || (*s & 0x80)) {
            return 1;
        }
    }
    return 0;
}

/* "2712 Broadway St, San Francisco, California, CA 94115, US": the
 * members of basics.location in that order (an address's lines joined
 * as its parts; a placeholder such as "-" left out), or its text. */
static const char *location(jr_import_t *im, json_t *b, const char *lang)
{
    static const char *const order[] = {
        "address", "city", "region", "postalCode", "countryCode", "country"
    };
    json_t *loc = json_object_get(b, "location");
    const char *parts[6], *s, *t;
    char *line, *last;
    int i, n = 0;

    (void)lang;
    if (json_is_string(loc)) {
        return json_string_value(loc);
    }
    for (i = 0; i < 6; i++) {
        s = pc_jr_str(loc, order[i]);
        if (i == 0 && strchr(s, '\n')) {
            line = apr_pstrdup(im->c.p, s);
            for (s = "", t = apr_strtok(line, "\r\n", &last); t;
                 t = apr_strtok(NULL, "\r\n", &last)) {
                s = apr_pstrcat(im->c.p, s, *s ? ", " : "", t, NULL);
            }
        }
        if (says_something(s)) {
            parts[n++] = s;
        }
    }
    return pc_jr_join(n, parts, ", ", im->c.p);
}

static const char *word_location(jr_import_t *im, json_t *b,
                                 const char *lang)
{
    (void)im, (void)b;
    return pc_jr_word(JR_WORD_LOCATION, lang);
}

static const char *word_languages(jr_import_t *im, json_t *b,
                                  const char *lang)
{
    (void)im, (void)b;
    return pc_jr_word(JR_WORD_LANGUAGES, lang);
}

static int import_location(jr_import_t *im, json_t *out)
{
    json_t *b[JR_MAX_LANGS], *e, *text = NULL, *label;
    int l, some = 0, rv = -1;

    /* As "$.basics.location" and its label, in each language; a place
     * one language gives and another not is where the person is in
     * both (no translation missing), as an address is. */
    for (l = 0; l < im->n; l++) {
        b[l] = json_object();
        pc_jr_set_str(b[l], "location", location(im, json_object_get(
                                                     im->docs[l], "basics"),
                                                 im->langs[l]));
        if (!some && *pc_jr_str(b[l], "location")) {
            some = l + 1;
        }
    }
    for (l = 0; some && l < im->n; l++) {
        if (!*pc_jr_str(b[l], "location")) {
            pc_jr_set_str(b[l], "location",
                          pc_jr_str(b[some - 1], "location"));
        }
    }
    synth(im, b, "label", word_location);
    if (!some) {
        rv = 0;
    }
    else if ((text = pc_jr_name(im, b, "location", "$.basics")) != NULL
             && (label = pc_jr_text(im, b, "label", "$.basics")) != NULL) {
        e = json_pack("{ss}", "kind", "location");
        json_array_append_new(json_object_get(json_object_get(out,
                                                              "contact"),
                                              "contacts"), e);
        json_object_set_new(e, "label", label);
        json_object_set(e, "text", text);
        json_object_set_new(e, "url", json_string(""));
        rv = 0;
    }
    json_decref(text);
    for (l = 0; l < im->n; l++) {
        json_decref(b[l]);
    }
    return rv;
}

/* The spoken languages: one skill group, after the others. */
static int import_languages(jr_import_t *im, json_t *out)
{
    json_t *tmp = json_object(), *g, *it, *skills = json_array();
    json_t *title[JR_MAX_LANGS];
    size_t i;
    int l, rv;

    rv = pc_jr_import_array(im, im->docs, &pc_jr_languages_array, tmp, "l",
                            NULL, fill_language);
    json_array_foreach(json_object_get(tmp, "l"), i, it) {
        it = json_object_get(it, "t");
        if (!json_is_string(it) || *json_string_value(it)) {
            json_array_append(skills, it);      /* "" says nothing */
        }
    }
    if (rv == 0 && json_array_size(skills) > 0) {
        for (l = 0; l < im->n; l++) {
            title[l] = json_object();
        }
        synth(im, title, "t", word_languages);
        g = json_object();
        json_object_set_new(g, "title", pc_jr_text(im, title, "t", ""));
        json_object_set_new(g, "summary", json_string(""));
        json_object_set(g, "skills", skills);
        json_array_append_new(json_object_get(out, "skills"), g);
        for (l = 0; l < im->n; l++) {
            json_decref(title[l]);
        }
    }
    json_decref(skills);
    json_decref(tmp);
    return rv;
}

int pc_jr_import_extras(jr_import_t *im, json_t *out)
{
    int bad = import_location(im, out) < 0;

    bad |= pc_jr_import_array(im, im->docs, &pc_jr_certificates_array, out,
                              "education", NULL, fill_certificate) < 0;
    bad |= import_languages(im, out) < 0;
    return bad ? -1 : 0;
}

int pc_jr_project_link(jr_import_t *im, json_t **entries, const char *w)
{
    const char *url = pc_jr_neutral(im, entries, "url", w);
    json_t *text;

    if (!*url || im->links == NULL) {
        return 0;
    }
    if ((text = pc_jr_name(im, entries, "name", w)) == NULL) {
        return -1;
    }
    json_array_append_new(im->links, json_pack("{sssoss}", "kind", "project",
                                               "text", text, "url", url));
    return 0;
}
