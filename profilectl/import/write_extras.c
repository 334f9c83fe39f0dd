/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/write_extras.c -- what a person has beyond the specification's
 * fields, imported where CONTRACT §9 (revised 2026-11-28) has a home
 * for it: a certificate is an education record whose credential says
 * so ("Certification · Mar 2023"), the spoken languages one skill group
 * ("Spoken languages": "Spanish (Native)"), basics.location a contact of
 * kind location with an empty url, a project's url a link of kind
 * project.  And the dates of experience and education records (`start`,
 * `end`): data, so that the module writes each language's period and no
 * translator retypes a date.  The words it writes are in each file's
 * language (common/words.c); export/extras.c reads them back.  Their
 * members are members.c's, their checks check_doc.c's.
 * docs/jsonresume.md documents all of it.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_dates.h"
#include "profile_text.h"
#include "import/stages.h"

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
