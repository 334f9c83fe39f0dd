/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_report.c -- the reports' pieces that need no httpd: JSON
 * strings of any bytes, times, what a store holds, and the text the
 * views print from the status model (profile_report.h).
 */
#include <string.h>

#include <apr_file_info.h>
#include <apr_escape.h>
#include <apr_lib.h>
#include <apr_strings.h>

#include "profile_enc.h"
#include "profile_report.h"
#include "profile_schema.h"

#define str(s, p) profile_report_str((s), NULL, (p))
#define text(o, key, p) profile_report_text(json_object_get((o), (key)), (p))

json_t *profile_report_str(const char *s, const char **text, apr_pool_t *p)
{
    json_t *v;
    char *c, *q;

    if (s == NULL || (v = json_string(s)) != NULL) {
        if (text != NULL) {
            *text = s;
        }
        return s == NULL ? json_null() : v;
    }
    c = apr_pstrdup(p, s);
    for (q = c; *q; q++) {
        if ((unsigned char)*q >= 0x80) {
            *q = '?';
        }
    }
    if (text != NULL) {
        *text = c;
    }
    return json_string(c);
}

void profile_report_set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v ? v : json_null());
}

const char *profile_report_text(const json_t *v, apr_pool_t *p)
{
    const char *s = "";
    size_t i;

    if (v == NULL) {
        return NULL;            /* a member the file's state lacks */
    }
    switch (json_typeof(v)) {
    case JSON_STRING:
        return json_string_value(v);
    case JSON_INTEGER:
        return apr_psprintf(p, "%" APR_INT64_T_FMT,
                            (apr_int64_t)json_integer_value(v));
    case JSON_REAL:
        return apr_psprintf(p, "%.6f", json_real_value(v));
    case JSON_TRUE:
        return "on";
    case JSON_FALSE:
        return "off";
    case JSON_ARRAY:
        for (i = 0; i < json_array_size(v); i++) {
            s = apr_pstrcat(p, s, i ? " " : "",
                            profile_report_text(json_array_get(v, i), p),
                            NULL);
        }
        return s;
    default:
        return NULL;
    }
}

const char *profile_report_time(apr_time_t t, apr_pool_t *p)
{
    apr_time_exp_t x;

    apr_time_exp_gmt(&x, t);
    return apr_psprintf(p, "%04d-%02d-%02dT%02d:%02d:%02dZ",
                        x.tm_year + 1900, x.tm_mon + 1, x.tm_mday,
                        x.tm_hour, x.tm_min, x.tm_sec);
}

json_t *profile_report_jtime(apr_time_t t, apr_pool_t *p)
{
    return t == 0 ? json_null() : json_string(profile_report_time(t, p));
}

/* Adds body `b` to the count and bytes of each coding it is kept in. */
static void count_body(json_int_t n[PROFILE_ENC_COUNT],
                       json_int_t bytes[PROFILE_ENC_COUNT],
                       const profile_body_t *b)
{
    int enc;

    n[PROFILE_ENC_IDENTITY]++;
    bytes[PROFILE_ENC_IDENTITY] += (json_int_t)b->len;
    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        if (b->coded[enc].data != NULL) {
            n[enc]++;
            bytes[enc] += (json_int_t)b->coded[enc].len;
        }
    }
}

static json_t *per_coding(const json_int_t v[PROFILE_ENC_COUNT])
{
    json_t *o = json_object();
    int enc;

    for (enc = 0; enc < PROFILE_ENC_COUNT; enc++) {
        profile_report_set(o, profile_enc_names[enc], json_integer(v[enc]));
    }
    return o;
}

/* The representations are the profile, contact, each collection and
 * each of its elements, per language. */
void profile_report_store(json_t *o, const profile_store_t *st,
                          apr_pool_t *p)
{
    json_t *langs = json_array(), *recs = json_object();
    json_t *untr = json_object();
    json_int_t n[PROFILE_ENC_COUNT] = {0}, bytes[PROFILE_ENC_COUNT] = {0};
    int l, k, i;

    for (l = 0; l < st->nlangs; l++) {
        json_array_append_new(langs, str(st->langs[l], p));
        profile_report_set(untr, st->langs[l],
                           json_integer((json_int_t)st->untranslated[l]));
    }
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        profile_report_set(recs, profile_schema_colls[k].key,
                           json_integer(st->coll[k].nitems));
    }
    profile_report_set(o, "languages", langs);
    profile_report_set(o, "fallback", st->fallback < 0 ? NULL
                       : str(st->langs[st->fallback], p));
    profile_report_set(o, "untranslated", untr);
    profile_report_set(o, "records", recs);
    for (l = 0; l < st->nlangs; l++) {
        count_body(n, bytes, &st->profile[l]);
        count_body(n, bytes, &st->contact[l]);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            count_body(n, bytes, &st->coll[k].all[l]);
            for (i = 0; i < st->coll[k].nitems; i++) {
                count_body(n, bytes, &st->coll[k].items[i].body[l]);
            }
        }
    }
    profile_report_set(o, "representations", per_coding(n));
    profile_report_set(o, "bytes", per_coding(bytes));
}

json_t *profile_report_file(const profile_report_file_t *f, apr_pool_t *p)
{
    const profile_store_t *st = f->store;
    json_t *o = json_object(), *loaded = json_null(), *disk = json_object();
    apr_finfo_t fi;
    char ebuf[120];
    apr_status_t rv;

    profile_report_set(o, "path", str(f->path, p));
    profile_report_set(o, "state", json_string(st == NULL ? "unavailable"
                                               : f->stale ? "stale"
                                               : "fresh"));
    profile_report_set(o, "message", str(st == NULL
        ? apr_pstrcat(p, "no good data loaded: answering 503 because: ",
                      f->error, NULL)
        : f->stale ? apr_pstrcat(p, "serving last good data since ",
                                 profile_report_time(f->stale_since, p),
                                 " because: ", f->error, NULL)
        : f->loaded_at != 0 ? apr_pstrcat(p, "serving the data loaded at ",
                                          profile_report_time(f->loaded_at,
                                                              p), NULL)
        : "valid", p));
    profile_report_set(o, "error", str(f->error, p));
    profile_report_set(o, "staleSince", profile_report_jtime(f->stale_since,
                                                             p));
    profile_report_set(o, "loadedAt", profile_report_jtime(f->loaded_at, p));
    profile_report_set(o, "loadSeconds", f->loaded_in > 0
        ? json_real((double)f->loaded_in / APR_USEC_PER_SEC) : json_null());
    profile_report_set(o, "keptUnchanged", json_boolean(f->kept));
    if (st != NULL) {
        loaded = json_object();
        profile_report_set(loaded, "size", json_integer((json_int_t)st->size));
        profile_report_set(loaded, "mtime", profile_report_jtime(st->mtime,
                                                                 p));
    }
    profile_report_set(o, "loaded", loaded);
    rv = apr_stat(&fi, f->path, APR_FINFO_SIZE | APR_FINFO_MTIME, p);
    if (rv == APR_SUCCESS) {
        profile_report_set(disk, "size", json_integer(fi.size));
        profile_report_set(disk, "mtime", profile_report_jtime(fi.mtime, p));
        profile_report_set(disk, "changed", json_boolean(
            st == NULL || fi.mtime != st->mtime
            || fi.size != (apr_off_t)st->size));
    }
    else {
        profile_report_set(disk, "error",
                           str(apr_strerror(rv, ebuf, sizeof(ebuf)), p));
        profile_report_set(disk, "changed", json_true());
    }
    profile_report_set(o, "onDisk", disk);
    profile_report_set(o, "compressed", json_boolean(st ? st->compressed
                                                     : f->compress));
    profile_report_set(o, "badData", json_string(f->refuse ? "refuse"
                                                 : "keep"));
    if (st != NULL) {
        profile_report_store(o, st, p);
    }
    return o;
}

const char *profile_report_counts(const json_t *f, const char *member,
                                  apr_pool_t *p)
{
    const json_t *recs = json_object_get(f, member);
    const char *s = "", *key;
    json_t *n;

    json_object_foreach((json_t *)recs, key, n) {
        s = apr_pstrcat(p, s, *s ? ", " : "", key, " ",
                        profile_report_text(n, p), NULL);
    }
    return recs ? s : NULL;
}

/* A member's text, or "-". */
static const char *dash(const json_t *o, const char *key, apr_pool_t *p)
{
    const char *s = text(o, key, p);

    return s ? s : "-";
}

const char *profile_report_codings(const json_t *f, apr_pool_t *p)
{
    const json_t *n = json_object_get(f, "representations");
    const json_t *b = json_object_get(f, "bytes");
    const char *s = "";
    int enc;

    if (b == NULL) {
        return NULL;
    }
    for (enc = 0; enc < PROFILE_ENC_COUNT; enc++) {
        const char *name = profile_enc_names[enc];

        s = apr_pstrcat(p, s, enc ? "; " : "", name, " ", dash(n, name, p),
                        " (", dash(b, name, p), " bytes)", NULL);
    }
    return s;
}

const char *profile_report_line(const json_t *u, const char *sep,
                                apr_pool_t *p)
{
    const json_t *here = json_object_get(u, "configuredHere");
    const json_t *other = json_object_get(u, "mayChangeForSomeUrls");
    static const char *const names[] = {"ProfileMaxAge", "ProfileCORSOrigins"};
    const char *s, *base = text(u, "base", p);
    const char *section = text(u, "section", p);
    size_t i;

    s = apr_psprintf(p, "ProfileData on line %s of %s, %s, %s%s"
                     "API base %s, bad=%s (%s), compress=%s (%s)",
                     text(u, "line", p), text(u, "definedIn", p),
                     section ? section : "server level",
                     text(u, "server", p), sep,
                     base ? base : "none (not in a <Location>; set "
                                   "ProfileBasePath)",
                     text(u, "badData", p), text(u, "badDataFrom", p),
                     text(u, "compression", p),
                     text(u, "compressionFrom", p));
    if (json_object_get(u, "page") != NULL) {
        const json_t *pg = json_object_get(u, "page");

        s = apr_pstrcat(p, s, sep, "its page at ", text(pg, "url", p),
                        " (static files at ", text(pg, "assets", p), ")",
                        NULL);
    }
    s = apr_pstrcat(p, s, sep, "in this section:", NULL);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *v = text(here, names[i], p);

        s = apr_pstrcat(p, s, i ? ", " : " ", names[i], " ",
                        v ? v : "not set", NULL);
    }
    for (i = 0; i < json_array_size(other); i++) {
        const json_t *o = json_array_get(other, i);
        const char *in = text(o, "section", p), *how = text(o, "applies", p);

        s = apr_pstrcat(p, s, i ? "" : sep, i ? "" : "set in other "
                        "sections, which may change it for some URLs:", sep,
                        "  ", text(o, "directive", p), " ",
                        text(o, "value", p), " on line ", text(o, "line", p),
                        " of ", text(o, "definedIn", p), ", ",
                        in ? in : "server level", ", ", text(o, "server", p),
                        how ? " (" : "", how ? how : "", how ? ")" : "",
                        NULL);
    }
    return s;
}

/* ?auto: the counts, then per file the members of the second table.
 * These keys change with no JSON name. */
typedef struct {
    const char *key, *member;
} auto_key_t;

static const auto_key_t auto_counts[] = {
    {"ModuleVersion", "version"}, {"Files", "files"}, {"Fresh", "fresh"},
    {"Stale", "stale"}, {"Unavailable", "unavailable"}, {NULL, NULL}
};
static const auto_key_t auto_file[] = {
    {"Path", "path"}, {"State", "state"}, {"StaleSince", "staleSince"},
    {NULL, NULL}
};

static const char *auto_line(const char *key, const json_t *v,
                             apr_pool_t *p)
{
    const char *s = profile_report_text(v, p);
    char *c;

    if (s == NULL) {
        return "";
    }
    for (c = apr_pstrdup(p, s), s = c; *c; c++) {
        *c = apr_iscntrl(*c) ? ' ' : *c;        /* one line each */
    }
    return apr_pstrcat(p, "Profile", key, ": ", s, "\n", NULL);
}

const char *profile_report_auto(const json_t *m, apr_pool_t *p)
{
    const json_t *data = json_object_get(m, "data");
    const auto_key_t *k;
    const char *s = "";
    size_t i;

    for (k = auto_counts; k->key != NULL; k++) {
        s = apr_pstrcat(p, s, auto_line(k->key, json_object_get(m, k->member),
                                        p), NULL);
    }
    for (i = 0; i < json_array_size(data); i++) {
        for (k = auto_file; k->key != NULL; k++) {
            s = apr_pstrcat(p, s, auto_line(
                apr_psprintf(p, "Data[%lu]%s", (unsigned long)i, k->key),
                json_object_get(json_array_get(data, i), k->member), p),
                NULL);
        }
    }
    return s;
}

/* A member's text escaped for HTML, or "-". */
static const char *html(const json_t *o, const char *key, apr_pool_t *p)
{
    const char *s = text(o, key, p);

    return s ? apr_pescape_entity(p, s, 0) : "-";
}

/* One row of a file's table. */
static const char *row(const char *name, const char *value, apr_pool_t *p)
{
    return apr_pstrcat(p, "<tr><th align=\"left\" valign=\"top\">", name,
                       "</th><td>", value, "</td></tr>\n", NULL);
}

static const char *file_html(const json_t *f, apr_pool_t *p)
{
    const json_t *loaded = json_object_get(f, "loaded");
    const json_t *disk = json_object_get(f, "onDisk");
    const json_t *lines = json_object_get(f, "lines");
    const char *records = profile_report_counts(f, "records", p);
    const char *untr = profile_report_counts(f, "untranslated", p);
    const char *used = "";
    const char *codings = profile_report_codings(f, p), *s;
    size_t i;

    s = apr_pstrcat(p, "<h3>", html(f, "path", p), "</h3>\n",
                    strcmp(text(f, "state", p), "fresh") == 0 ? "<p>"
                    : "<p style=\"color:#a00\"><b>", html(f, "message", p),
                    strcmp(text(f, "state", p), "fresh") == 0 ? "</p>\n"
                    : "</b></p>\n", "<table border=\"0\">\n",
                    json_is_object(loaded) ? row("File loaded", apr_pstrcat(
                        p, html(loaded, "size", p), " bytes, modified ",
                        html(loaded, "mtime", p), NULL), p) : "", NULL);
    s = apr_pstrcat(p, s, row("File now on disk",
        json_object_get(disk, "error") ? html(disk, "error", p)
        : apr_pstrcat(p, html(disk, "size", p), " bytes, modified ",
                      html(disk, "mtime", p),
                      json_is_true(json_object_get(disk, "changed"))
                      ? " (changed since loaded)" : "", NULL), p),
        row("Loaded", apr_pstrcat(p, html(f, "loadedAt", p), ", in ",
                                  html(f, "loadSeconds", p), " s", NULL), p),
        row("Languages", html(f, "languages", p), p),
        row("Fallback language", html(f, "fallback", p), p),
        row("Untranslated texts",
            untr ? apr_pescape_entity(p, untr, 0) : "-", p),
        row("Records", records ? apr_pescape_entity(p, records, 0) : "-", p),
        row("Representations",
            codings ? apr_pescape_entity(p, codings, 0) : "-", p),
        row("Compressed forms", html(f, "compressed", p), p),
        row("ProfileBadData", html(f, "badData", p), p), NULL);
    for (i = 0; i < json_array_size(lines); i++) {
        used = apr_pstrcat(p, used, i ? "<br />" : "", apr_pescape_entity(
            p, profile_report_line(json_array_get(lines, i), "; ", p), 0),
            NULL);
    }
    return apr_pstrcat(p, s, row("ProfileData lines", used, p),
                       "</table>\n", NULL);
}

const char *profile_report_html(const json_t *m, apr_pool_t *p)
{
    const json_t *data = json_object_get(m, "data");
    const char *s;
    size_t i;

    s = apr_pstrcat(p, "<hr />\n<h2>mod_profile ", html(m, "version", p),
                    "</h2>\n<p>", html(m, "files", p), " data file",
                    json_integer_value(json_object_get(m, "files")) == 1
                    ? "" : "s", ": ", html(m, "fresh", p), " fresh, ",
                    html(m, "stale", p), " serving last good data, ",
                    html(m, "unavailable", p), " unavailable (configuration "
                    "generation ", html(m, "generation", p), ")</p>\n",
                    NULL);
    for (i = 0; i < json_array_size(data); i++) {
        s = apr_pstrcat(p, s, file_html(json_array_get(data, i), p), NULL);
    }
    return s;
}

const char *profile_report_dump(const json_t *f, apr_pool_t *p)
{
    const json_t *lines = json_object_get(f, "lines");
    const char *records = profile_report_counts(f, "records", p);
    const char *fb = text(f, "fallback", p);
    const char *err = text(f, "error", p);
    char *line, *state;
    const char *s;
    size_t i;

    s = apr_pstrcat(p, "  ", text(f, "path", p), "\n", NULL);
    if (records == NULL) {
        s = apr_pstrcat(p, s, "    data: bad:\n", NULL);
        for (line = err ? apr_strtok(apr_pstrdup(p, err), "\n", &state)
                    : NULL;
             line != NULL; line = apr_strtok(NULL, "\n", &state)) {
            s = apr_pstrcat(p, s, "      ", line, "\n", NULL);
        }
    }
    else {
        s = apr_pstrcat(p, s, "    languages: ", text(f, "languages", p),
                        fb ? ", fallback " : "", fb ? fb : "",
                        "; records: ", records, "\n",
                        "    untranslated texts: ",
                        profile_report_counts(f, "untranslated", p), "\n",
                        NULL);
    }
    for (i = 0; i < json_array_size(lines); i++) {
        s = apr_pstrcat(p, s, "    ", profile_report_line(
                        json_array_get(lines, i), "\n      ", p), "\n", NULL);
    }
    return s;
}
