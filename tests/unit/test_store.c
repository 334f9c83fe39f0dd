/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_store.c -- loading the data file (CONTRACT §9), rendering
 * (CONTRACT §2) and ETags (CONTRACT §5).
 *
 * Most refusals are checked with profile_store_parse on small documents
 * derived from MIN below by one textual edit; profile_store_load is used
 * for the sample and for the file cases (tests/unit/data/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <jansson.h>

#include "unit.h"
#include "profile_data.h"
#include "profile_etag.h"
#include "profile_locate.h"
#include "profile_validate.h"
#include "profile_store.h"
#include "profile_estimate.h"

#define DOC_NAME "mem.json"

/* A minimal valid document: plain strings and per-language objects, an
 * empty institutionUrl, an empty list, three experience records. */
static const char MIN[] =
    "{\n"
    "  \"languages\": [\"en\", \"es\"],\n"
    "  \"profile\": {\"name\": \"Ana Ruiz\",\n"
    "    \"headline\": {\"en\": \"Engineer\", \"es\": \"Ingeniera\"},\n"
    "    \"summary\": \"Builds things.\"},\n"
    "  \"skills\": [{\"title\": {\"en\": \"Testing\", \"es\": \"Pruebas\"},\n"
    "    \"summary\": \"Sum\",\n"
    "    \"skills\": [\"C\", {\"en\": \"Code review\", \"es\": \"Revisi\xC3\xB3n\"}]}],\n"
    "  \"experience\": [\n"
    "    {\"id\": \"e0\", \"role\": \"R0\", \"company\": \"C0\",\n"
    "     \"companyUrl\": \"https://c0.example\", \"context\": \"X0\",\n"
    "     \"period\": {\"en\": \"P0\", \"es\": \"P0es\"}, \"highlights\": [\"H0\"]},\n"
    "    {\"id\": \"e1\", \"role\": \"R1\", \"company\": \"C1\",\n"
    "     \"companyUrl\": \"https://c1.example\", \"context\": \"X1\",\n"
    "     \"period\": {\"en\": \"P1\", \"es\": \"P1es\"}, \"highlights\": []},\n"
    "    {\"id\": \"e2\", \"role\": \"R2\", \"company\": \"C2\",\n"
    "     \"companyUrl\": \"https://c2.example\", \"context\": \"X2\",\n"
    "     \"period\": {\"en\": \"P2\", \"es\": \"P2es\"},\n"
    "     \"highlights\": [{\"en\": \"H2\", \"es\": \"H2es\"}]}],\n"
    "  \"education\": [{\"degree\": \"D\",\n"
    "    \"credential\": {\"en\": \"BSc\", \"es\": \"Grado\"},\n"
    "    \"institution\": \"U\", \"institutionUrl\": \"\"}],\n"
    "  \"contact\": {\n"
    "    \"contacts\": [{\"kind\": \"email\",\n"
    "      \"label\": {\"en\": \"Email\", \"es\": \"Correo\"},\n"
    "      \"text\": \"a@example.com\", \"url\": \"mailto:a@example.com\"}],\n"
    "    \"links\": [{\"kind\": \"github\", \"text\": \"GitHub\",\n"
    "      \"url\": \"https://github.com/a\"}]},\n"
    "  \"caseStudies\": [{\"id\": \"cs0\", \"title\": \"T\", \"mobileTitle\": \"M\",\n"
    "    \"summary\": \"S\", \"organization\": \"O\", \"context\": \"C\",\n"
    "    \"problem\": \"P\", \"intervention\": \"I\", \"result\": \"R\",\n"
    "    \"resultItems\": [\"RI\"]}],\n"
    "  \"metrics\": [{\"id\": \"m0\", \"value\": \"99%\",\n"
    "    \"label\": {\"en\": \"L\", \"es\": \"Le\"}, \"summary\": \"S\"}]\n"
    "}\n";

/* ------------------------------------------------------------ helpers */

/* MIN with the single occurrence of `from` replaced by `to`. */
static const char *edit(apr_pool_t *p, const char *doc, const char *from,
                        const char *to)
{
    const char *at = strstr(doc, from);

    if (at == NULL || strstr(at + 1, from) != NULL) {
        print_error("edit: \"%s\" must occur exactly once\n", from);
    }
    assert_non_null(at);
    assert_null(strstr(at + 1, from));
    return apr_pstrcat(p, apr_pstrmemdup(p, doc, (apr_size_t)(at - doc)),
                       to, at + strlen(from), NULL);
}

static const char *min_edit(apr_pool_t *p, const char *from, const char *to)
{
    return edit(p, MIN, from, to);
}

static profile_store_t *parse_ok(apr_pool_t *p, const char *doc)
{
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_status_t rv = profile_store_parse(&st, &err, doc, strlen(doc),
                                          DOC_NAME, 0, p);

    if (rv != APR_SUCCESS) {
        print_error("refused: %s\n", err ? err : "(no message)");
    }
    assert_int_equal(rv, APR_SUCCESS);
    assert_non_null(st);
    return st;
}

/* Parses `doc`, expecting a refusal; returns the message: one line per
 * problem, each naming the document (test_validate.c pins the list);
 * the edits here make one problem, except where a test says so. */
static const char *parse_bad(apr_pool_t *p, const char *doc)
{
    profile_store_t *st = NULL;
    const char *err = NULL, *line;
    char *state;
    apr_status_t rv = profile_store_parse(&st, &err, doc, strlen(doc),
                                          DOC_NAME, 0, p);

    if (rv == APR_SUCCESS) {
        print_error("accepted:\n%s\n", doc);
    }
    assert_int_not_equal(rv, APR_SUCCESS);
    assert_non_null(err);
    for (line = apr_strtok(apr_pstrdup(p, err), "\n", &state); line;
         line = apr_strtok(NULL, "\n", &state)) {
        if (strncmp(line, "and ", 4) != 0) {
            assert_has(line, DOC_NAME);
        }
    }
    return err;
}

/* parse_bad() for an edit that makes exactly one problem. */
static const char *parse_bad_one(apr_pool_t *p, const char *doc)
{
    const char *err = parse_bad(p, doc);

    assert_null(strchr(err, '\n'));
    return err;
}

/* The message names the JSON path (exactly: the path is followed by
 * ":", so "$.a[1]" does not pass for "$.a[10]"). */
#define assert_names_path(err, path) assert_has(err, path ":")

static profile_store_t *load_ok(apr_pool_t *p, const char *path)
{
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_status_t rv = profile_store_load(&st, &err, path, NULL, p);

    if (rv != APR_SUCCESS) {
        print_error("refused: %s\n", err ? err : "(no message)");
    }
    assert_int_equal(rv, APR_SUCCESS);
    assert_non_null(st);
    return st;
}

static const char *load_bad(apr_pool_t *p, const char *path)
{
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_status_t rv = profile_store_load(&st, &err, path, NULL, p);

    assert_int_not_equal(rv, APR_SUCCESS);
    assert_non_null(err);
    assert_has(err, path);
    assert_null(strchr(err, '\n'));
    return err;
}

static const char *slurp(apr_pool_t *p, const char *path)
{
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t got = 0;
    char *buf;

    assert_int_equal(apr_file_open(&f, path, APR_FOPEN_READ, APR_OS_DEFAULT,
                                   p), APR_SUCCESS);
    assert_int_equal(apr_file_info_get(&fi, APR_FINFO_SIZE, f), APR_SUCCESS);
    buf = apr_palloc(p, (apr_size_t)fi.size + 1);
    assert_int_equal(apr_file_read_full(f, buf, (apr_size_t)fi.size, &got),
                     APR_SUCCESS);
    buf[got] = '\0';
    apr_file_close(f);
    return buf;
}

/* Checks that "FILE:LINE:COL:" starts `err`, with the given line. */
static void assert_line_col(const char *err, const char *file, int line)
{
    const char *s = err;
    char *end;
    long n;

    if (strncmp(s, file, strlen(file)) != 0 || s[strlen(file)] != ':') {
        print_error("\"%s\" does not start with \"%s:\"\n", err, file);
        fail();
    }
    s += strlen(file) + 1;
    n = strtol(s, &end, 10);
    if (end == s || *end != ':' || n != line) {
        print_error("\"%s\": want line %d\n", err, line);
        fail();
    }
    s = end + 1;
    n = strtol(s, &end, 10);
    if (end == s || *end != ':' || n < 0) {
        print_error("\"%s\": no column\n", err);
        fail();
    }
}

/* -------------------------------------------------- the spec's tables */

typedef struct spec_field {
    const char *name;
    char type;                      /* s string, a [string], A [object] */
    const struct spec_field *sub;
} spec_field_t;

static const spec_field_t PROFILE_F[] = {
    {"name", 's', NULL}, {"headline", 's', NULL}, {"summary", 's', NULL},
    {NULL, 0, NULL}
};
static const spec_field_t SKILL_F[] = {
    {"title", 's', NULL}, {"summary", 's', NULL}, {"skills", 'a', NULL},
    {NULL, 0, NULL}
};
static const spec_field_t EXPERIENCE_F[] = {
    {"id", 's', NULL}, {"role", 's', NULL}, {"company", 's', NULL},
    {"companyUrl", 's', NULL}, {"context", 's', NULL},
    {"period", 's', NULL}, {"highlights", 'a', NULL}, {NULL, 0, NULL}
};
static const spec_field_t EDUCATION_F[] = {
    {"degree", 's', NULL}, {"credential", 's', NULL},
    {"institution", 's', NULL}, {"institutionUrl", 's', NULL},
    {NULL, 0, NULL}
};
static const spec_field_t CONTACT_ENTRY_F[] = {
    {"kind", 's', NULL}, {"label", 's', NULL}, {"text", 's', NULL},
    {"url", 's', NULL}, {NULL, 0, NULL}
};
static const spec_field_t LINK_F[] = {
    {"kind", 's', NULL}, {"text", 's', NULL}, {"url", 's', NULL},
    {NULL, 0, NULL}
};
static const spec_field_t CONTACT_F[] = {
    {"contacts", 'A', CONTACT_ENTRY_F}, {"links", 'A', LINK_F},
    {NULL, 0, NULL}
};
static const spec_field_t CASE_STUDY_F[] = {
    {"id", 's', NULL}, {"title", 's', NULL}, {"mobileTitle", 's', NULL},
    {"summary", 's', NULL}, {"organization", 's', NULL},
    {"context", 's', NULL}, {"problem", 's', NULL},
    {"intervention", 's', NULL}, {"result", 's', NULL},
    {"resultItems", 'a', NULL}, {NULL, 0, NULL}
};
static const spec_field_t METRIC_F[] = {
    {"id", 's', NULL}, {"value", 's', NULL}, {"label", 's', NULL},
    {"summary", 's', NULL}, {NULL, 0, NULL}
};

static const struct {
    const char *key;                /* in the data file */
    const spec_field_t *fields;
} COLLS[PROFILE_COLL_COUNT] = {
    {"skills", SKILL_F},
    {"experience", EXPERIENCE_F},
    {"education", EDUCATION_F},
    {"caseStudies", CASE_STUDY_F},
    {"metrics", METRIC_F}
};

/* Asserts that `v` is an object with exactly `fields`, in that order and
 * of those types. */
static void check_shape(json_t *v, const spec_field_t *fields)
{
    const char *key;
    json_t *member;
    const spec_field_t *f = fields;

    assert_true(json_is_object(v));
    json_object_foreach(v, key, member) {
        size_t i;
        json_t *el;

        if (f->name == NULL || strcmp(key, f->name) != 0) {
            print_error("key \"%s\" where \"%s\" was expected\n", key,
                        f->name ? f->name : "(end)");
            fail();
        }
        switch (f->type) {
        case 's':
            assert_true(json_is_string(member));
            break;
        case 'a':
            assert_true(json_is_array(member));
            json_array_foreach(member, i, el) {
                assert_true(json_is_string(el));
            }
            break;
        case 'A':
            assert_true(json_is_array(member));
            json_array_foreach(member, i, el) {
                check_shape(el, f->sub);
            }
            break;
        }
        f++;
    }
    if (f->name != NULL) {
        print_error("missing key \"%s\"\n", f->name);
        fail();
    }
}

/* Asserts that body is compact: no white space outside strings. */
static void check_compact(const char *s, apr_size_t len)
{
    apr_size_t i;
    int in_str = 0, esc = 0;

    for (i = 0; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (esc) {
                esc = 0;
            }
            else if (c == '\\') {
                esc = 1;
            }
            else if (c == '"') {
                in_str = 0;
            }
        }
        else if (c == '"') {
            in_str = 1;
        }
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            print_error("white space at %lu in %.*s\n", (unsigned long)i,
                        (int)len, s);
            fail();
        }
    }
}

static json_t *parse_body(const profile_body_t *b)
{
    json_error_t jerr;
    json_t *v;

    assert_non_null(b->data);
    assert_true(b->len > 0);
    v = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES, &jerr);
    if (v == NULL) {
        print_error("body is not JSON (%s): %.*s\n", jerr.text, (int)b->len,
                    b->data);
    }
    assert_non_null(v);
    return v;
}

static void check_etag_form(const char *etag)
{
    size_t n;

    assert_non_null(etag);
    n = strlen(etag);
    assert_true(n > 2);
    assert_int_equal(etag[0], '"');
    assert_int_equal(etag[n - 1], '"');
    assert_null(memchr(etag + 1, '"', n - 2));
}

/* Calls fn on every rendered body of st that carries an ETag. */
typedef void (*body_fn)(const profile_store_t *st, const profile_body_t *b,
                        const char *what, void *ctx);

static void each_body(const profile_store_t *st, body_fn fn, void *ctx,
                      apr_pool_t *p)
{
    int l, k, i;

    for (l = 0; l < st->nlangs; l++) {
        fn(st, &st->profile[l], apr_psprintf(p, "profile/%d", l), ctx);
        fn(st, &st->contact[l], apr_psprintf(p, "contact/%d", l), ctx);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            const profile_coll_t *c = &st->coll[k];
            fn(st, &c->all[l], apr_psprintf(p, "coll%d/%d", k, l), ctx);
            for (i = 0; i < c->nitems && c->items[i].id; i++) {
                fn(st, &c->items[i].body[l],
                   apr_psprintf(p, "coll%d[%d]/%d", k, i, l), ctx);
            }
        }
    }
}

/* --------------------------------------------------------- the sample */

static void sample_loads_with_languages_en_es(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);

    assert_int_equal(st->nlangs, 2);
    assert_string_equal(st->langs[0], "en");
    assert_string_equal(st->langs[1], "es");
}

static void sample_store_remembers_path_and_mtime(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    apr_finfo_t fi;

    assert_int_equal(apr_stat(&fi, SAMPLE_PATH, APR_FINFO_MTIME, p),
                     APR_SUCCESS);
    assert_string_equal(st->path, SAMPLE_PATH);
    assert_true(st->mtime == fi.mtime);
}

/* What a restart compares the file with (mod_profile_reload.c): the
 * number and the MD5 of the bytes the store was loaded from. */
static void sample_store_remembers_size_and_md5_of_its_bytes(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    unsigned char md5[APR_MD5_DIGESTSIZE];
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t got = 0;
    char *buf;

    assert_int_equal(apr_stat(&fi, SAMPLE_PATH, APR_FINFO_SIZE, p),
                     APR_SUCCESS);
    buf = apr_palloc(p, (apr_size_t)fi.size);
    assert_int_equal(apr_file_open(&f, SAMPLE_PATH, APR_FOPEN_READ,
                                   APR_OS_DEFAULT, p), APR_SUCCESS);
    assert_int_equal(apr_file_read_full(f, buf, (apr_size_t)fi.size, &got),
                     APR_SUCCESS);
    apr_file_close(f);
    apr_md5(md5, buf, got);
    assert_int_equal(st->size, got);
    assert_memory_equal(st->md5, md5, sizeof(md5));
}

static void sample_counts_match_the_file(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    json_t *root = json_load_file(SAMPLE_PATH, 0, NULL);
    int k;

    assert_non_null(root);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        json_t *list = json_object_get(root, COLLS[k].key);
        assert_true(json_is_array(list));
        assert_int_equal(st->coll[k].nitems, (int)json_array_size(list));
    }
    /* and the file is the one the other tests describe */
    assert_int_equal(st->coll[PROFILE_COLL_SKILLS].nitems, 6);
    assert_int_equal(st->coll[PROFILE_COLL_EXPERIENCE].nitems, 4);
    assert_int_equal(st->coll[PROFILE_COLL_EDUCATION].nitems, 3);
    assert_int_equal(st->coll[PROFILE_COLL_CASE_STUDIES].nitems, 3);
    assert_int_equal(st->coll[PROFILE_COLL_METRICS].nitems, 5);
    json_decref(root);
}

static void sample_ids_keep_file_order_and_are_indexed(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    json_t *root = json_load_file(SAMPLE_PATH, 0, NULL);
    static const int with_ids[] = {
        PROFILE_COLL_EXPERIENCE, PROFILE_COLL_CASE_STUDIES
    };
    size_t w;

    assert_non_null(root);
    for (w = 0; w < sizeof(with_ids) / sizeof(with_ids[0]); w++) {
        int k = with_ids[w], i;
        json_t *list = json_object_get(root, COLLS[k].key);
        const profile_coll_t *c = &st->coll[k];

        assert_non_null(c->by_id);
        for (i = 0; i < c->nitems; i++) {
            const char *id = json_string_value(
                json_object_get(json_array_get(list, (size_t)i), "id"));
            assert_non_null(c->items[i].id);
            assert_string_equal(c->items[i].id, id);
            assert_ptr_equal(apr_hash_get(c->by_id, id, APR_HASH_KEY_STRING),
                             &c->items[i]);
        }
        assert_null(apr_hash_get(c->by_id, "no-such-id",
                                 APR_HASH_KEY_STRING));
    }
    /* Ids are case-sensitive. */
    assert_null(apr_hash_get(st->coll[PROFILE_COLL_EXPERIENCE].by_id,
                             "Norteverde-platform-lead",
                             APR_HASH_KEY_STRING));
    json_decref(root);
}

static void sample_bodies_have_spec_fields_in_table_order(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    int l, k, i;

    for (l = 0; l < st->nlangs; l++) {
        json_t *v = parse_body(&st->profile[l]);
        check_shape(v, PROFILE_F);
        json_decref(v);
        v = parse_body(&st->contact[l]);
        check_shape(v, CONTACT_F);
        json_decref(v);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            const profile_coll_t *c = &st->coll[k];
            size_t j;
            json_t *el;

            v = parse_body(&c->all[l]);
            assert_true(json_is_array(v));
            assert_int_equal(json_array_size(v), (size_t)c->nitems);
            json_array_foreach(v, j, el) {
                check_shape(el, COLLS[k].fields);
            }
            json_decref(v);
            for (i = 0; i < c->nitems; i++) {
                v = parse_body(&c->items[i].body[l]);
                check_shape(v, COLLS[k].fields);
                json_decref(v);
            }
        }
    }
}

static void check_compact_cb(const profile_store_t *st,
                             const profile_body_t *b, const char *what,
                             void *ctx)
{
    (void)st;
    (void)what;
    (void)ctx;
    check_compact(b->data, b->len);
    /* The sample holds no control characters, so nothing needs a \u
     * escape: non-ASCII text is written as UTF-8. */
    assert_hasnt(b->data, "\\u");
}

static void sample_bodies_are_compact_utf8(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    int k, i, l;

    each_body(st, check_compact_cb, NULL, p);
    for (l = 0; l < st->nlangs; l++) {
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            for (i = 0; i < st->coll[k].nitems; i++) {
                check_compact_cb(st, &st->coll[k].items[i].body[l], "", NULL);
            }
        }
    }
    assert_has(st->profile[0].data, "Luc\xC3\xAD" "a \xC3\x81lvarez Romero");
    assert_has(st->coll[PROFILE_COLL_EXPERIENCE].all[0].data,
               "Hafenstra\xC3\x9F" "e Logistik GmbH");
}

static void sample_bodies_hold_the_chosen_language(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    json_t *en = parse_body(&st->profile[0]);
    json_t *es = parse_body(&st->profile[1]);
    json_t *sk;

    assert_string_equal(json_string_value(json_object_get(en, "headline")),
                        "Senior Platform Engineer \xE2\x80\x93 reliability, C "
                        "and Kubernetes");
    assert_string_equal(json_string_value(json_object_get(es, "headline")),
                        "Ingeniera de plataforma s\xC3\xA9nior \xE2\x80\x93 "
                        "fiabilidad, C y Kubernetes");
    /* A plain string is the same in every language. */
    assert_string_equal(json_string_value(json_object_get(en, "name")),
                        json_string_value(json_object_get(es, "name")));
    json_decref(en);
    json_decref(es);

    /* Lists of text mix plain strings and per-language objects. */
    sk = parse_body(&st->coll[PROFILE_COLL_SKILLS].items[0].body[1]);
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(sk, "skills"), 0)), "Kubernetes");
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(sk, "skills"), 5)),
                        "Infraestructura como c\xC3\xB3" "digo");
    json_decref(sk);
}

static void sample_unlocalized_fields_are_equal_across_languages(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    json_t *en, *es;
    size_t i;
    json_t *el;

    en = parse_body(&st->coll[PROFILE_COLL_EXPERIENCE].all[0]);
    es = parse_body(&st->coll[PROFILE_COLL_EXPERIENCE].all[1]);
    json_array_foreach(en, i, el) {
        json_t *other = json_array_get(es, i);
        assert_string_equal(json_string_value(json_object_get(el, "id")),
                            json_string_value(json_object_get(other, "id")));
        assert_string_equal(
            json_string_value(json_object_get(el, "companyUrl")),
            json_string_value(json_object_get(other, "companyUrl")));
        assert_string_not_equal(
            json_string_value(json_object_get(el, "period")),
            json_string_value(json_object_get(other, "period")));
    }
    json_decref(en);
    json_decref(es);

    en = parse_body(&st->contact[0]);
    es = parse_body(&st->contact[1]);
    el = json_array_get(json_object_get(en, "contacts"), 0);
    assert_string_equal(json_string_value(json_object_get(el, "kind")),
                        "email");
    assert_string_equal(json_string_value(json_object_get(el, "url")),
                        "mailto:contacto.lar@example.com");
    el = json_array_get(json_object_get(es, "contacts"), 0);
    assert_string_equal(json_string_value(json_object_get(el, "kind")),
                        "email");
    assert_string_equal(json_string_value(json_object_get(el, "label")),
                        "Correo electr\xC3\xB3nico");
    json_decref(en);
    json_decref(es);

    en = parse_body(&st->coll[PROFILE_COLL_EDUCATION].all[1]);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(en, 1), "institutionUrl")), "");
    json_decref(en);
}

static void sample_collection_body_joins_its_items(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    int k, l, i;

    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];
        for (l = 0; l < st->nlangs; l++) {
            const char *want = "[";
            for (i = 0; i < c->nitems; i++) {
                want = apr_pstrcat(p, want, i ? "," : "",
                                   apr_pstrmemdup(p, c->items[i].body[l].data,
                                                  c->items[i].body[l].len),
                                   NULL);
            }
            want = apr_pstrcat(p, want, "]", NULL);
            assert_mem_str(c->all[l].data, c->all[l].len, want);
        }
    }
}

static void check_etag_cb(const profile_store_t *st, const profile_body_t *b,
                          const char *what, void *ctx)
{
    apr_pool_t *p = ctx;

    (void)st;
    (void)what;
    check_etag_form(b->etag);
    if (b->data[0] != '[') {        /* collections: see below */
        assert_string_equal(b->etag, profile_etag(b->data, b->len, p));
    }
}

static void sample_etags_are_quoted_hashes_of_the_bytes(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    const profile_body_t *bodies[64];
    int k, l, i;

    each_body(st, check_etag_cb, p, p);
    /* A collection's ETag is the hash of its elements' hashes, which
     * are those of their bytes. */
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];

        assert_true(c->nitems < 64);
        for (l = 0; l < st->nlangs; l++) {
            for (i = 0; i < c->nitems; i++) {
                const profile_body_t *b = &c->items[i].body[l];
                char *copy = apr_pstrmemdup(p, b->data, b->len);

                assert_string_equal(b->etag,
                                    profile_etag(copy, b->len, p));
                bodies[i] = b;
            }
            assert_string_equal(c->all[l].etag,
                                profile_etag_joined(bodies, c->nitems, p));
        }
    }
}

static void etag_is_quoted_and_depends_only_on_bytes(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *a = profile_etag("[]", 2, p);

    check_etag_form(a);
    /* strong: no W/ prefix */
    assert_int_equal(a[0], '"');
    assert_string_equal(a, profile_etag("[]x", 2, p));
    assert_string_not_equal(a, profile_etag("[ ]", 3, p));
    assert_string_not_equal(profile_etag("{\"a\":1}", 7, p),
                            profile_etag("{\"a\":2}", 7, p));
}

/* ------------------------------------------------- golden ETags
 *
 * ETags pinned to values computed outside this code, with Python's
 * hashlib, from the algorithm of profile_etag.c:
 *
 *   body:        "\"p1-" + sha1(body).hexdigest()[:16] + "\""
 *   collection:  the same over sha1(b"[" + sha1(e1).digest() + ...)
 *
 * Clients and caches keep these validators across upgrades.  Changing
 * any value below (the hash, the truncation, the "p1-" prefix, the
 * quoting, or the joining of a collection) is a BREAKING CHANGE: after
 * the upgrade every cached copy and every If-None-Match misses, and
 * every cache refetches everything.  Do it only on purpose, with a new
 * prefix, and say so in the release notes. */

static void etag_of_a_fixed_body_is_pinned(void **state)
{
    apr_pool_t *p = POOL(state);
    /* b'{"name":"Ana","note":"a\xc3\xb1o \\u0001"}' */
    static const char body[] = "{\"name\":\"Ana\",\"note\":\"a\xC3\xB1o "
                               "\\u0001\"}";

    assert_string_equal(profile_etag(body, sizeof(body) - 1, p),
                        "\"p1-5084deae566249d7\"");
    assert_string_equal(profile_etag("", 0, p), "\"p1-da39a3ee5e6b4b0d\"");
}

/* The 20 bytes of a SHA-1 written in hex. */
static void sha1_from_hex(unsigned char *out, const char *hex)
{
    int i;

    assert_int_equal(strlen(hex), 40);
    for (i = 0; i < 20; i++) {
        unsigned v;

        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (unsigned char)v;
    }
}

static void joined_etag_of_fixed_elements_is_pinned(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_body_t a, b;
    const profile_body_t *both[2] = {&a, &b};

    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    /* sha1(b'{"id":"a"}'), sha1(b'{"id":"b"}') */
    sha1_from_hex(a.sha1, "1f047b361679bd21a658eb1e90223150cbb425e6");
    sha1_from_hex(b.sha1, "c5e8ed992b50260a019eee8fd57e6cf0eec68322");
    assert_string_equal(profile_etag_joined(both, 2, p),
                        "\"p1-8bbc70b896d0f66e\"");
    /* An empty collection: the SHA-1 of "[" alone. */
    assert_string_equal(profile_etag_joined(both, 0, p),
                        "\"p1-1e5c2f367f02e47a\"");
}

/* /profile in English (the default language) from the shipped sample.
 * Its expected bytes are the profile object of data/profile.json with
 * the "en" texts, in the order name, headline, summary, dumped by
 *   json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
 * (466 bytes).  If that part of the sample is edited, recompute both
 * values that way; if it is not and this fails, the rendering or the
 * ETag changed: see above. */
static void sample_profile_en_etag_is_pinned(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);

    assert_string_equal(st->langs[0], "en");
    assert_int_equal(st->profile[0].len, 466);
    assert_string_equal(st->profile[0].etag, "\"p1-e757b383d38ea19d\"");
}

static void sample_etags_are_stable_across_loads(void **state)
{
    apr_pool_t *p = POOL(state), *p2;
    profile_store_t *a, *b;
    int l, k, i;

    a = load_ok(p, SAMPLE_PATH);
    assert_int_equal(apr_pool_create(&p2, p), APR_SUCCESS);
    b = load_ok(p2, SAMPLE_PATH);
    for (l = 0; l < a->nlangs; l++) {
        assert_string_equal(a->profile[l].etag, b->profile[l].etag);
        assert_string_equal(a->contact[l].etag, b->contact[l].etag);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            assert_string_equal(a->coll[k].all[l].etag,
                                b->coll[k].all[l].etag);
            for (i = 0; i < a->coll[k].nitems; i++) {
                assert_mem_str(a->coll[k].items[i].body[l].data,
                               a->coll[k].items[i].body[l].len,
                               apr_pstrmemdup(p2,
                                   b->coll[k].items[i].body[l].data,
                                   b->coll[k].items[i].body[l].len));
                if (a->coll[k].items[i].id) {
                    assert_string_equal(a->coll[k].items[i].body[l].etag,
                                        b->coll[k].items[i].body[l].etag);
                }
            }
        }
    }
}

static void sample_etags_differ_between_en_and_es(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = load_ok(p, SAMPLE_PATH);
    int k, i;

    assert_string_not_equal(st->profile[0].etag, st->profile[1].etag);
    assert_string_not_equal(st->contact[0].etag, st->contact[1].etag);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        const profile_coll_t *c = &st->coll[k];
        assert_string_not_equal(c->all[0].data, c->all[1].data);
        assert_string_not_equal(c->all[0].etag, c->all[1].etag);
        for (i = 0; i < c->nitems && c->items[i].id; i++) {
            assert_string_not_equal(c->items[i].body[0].etag,
                                    c->items[i].body[1].etag);
        }
    }
}

static void same_bytes_in_both_languages_give_same_etag(void **state)
{
    apr_pool_t *p = POOL(state);
    /* With a plain label, the contact object is the same in en and es. */
    profile_store_t *st = parse_ok(p, min_edit(p,
        "\"label\": {\"en\": \"Email\", \"es\": \"Correo\"}",
        "\"label\": \"Email\""));

    assert_mem_str(st->contact[0].data, st->contact[0].len,
                   st->contact[1].data);
    assert_string_equal(st->contact[0].etag, st->contact[1].etag);
    /* while the profile (headline localized) differs */
    assert_string_not_equal(st->profile[0].etag, st->profile[1].etag);
}

/* Compares two bodies: returns 1 when the bytes differ, and asserts that
 * the ETags differ exactly when the bytes do. */
static int compare_bodies(const profile_body_t *a, const profile_body_t *b,
                          const char *what)
{
    int differ = a->len != b->len || memcmp(a->data, b->data, a->len) != 0;

    if (a->etag != NULL || b->etag != NULL) {
        assert_non_null(a->etag);
        assert_non_null(b->etag);
        if (differ != (strcmp(a->etag, b->etag) != 0)) {
            print_error("%s: bytes %s but ETags %s\n", what,
                        differ ? "differ" : "equal",
                        differ ? "equal" : "differ");
            fail();
        }
    }
    return differ;
}

/* Between stores a and b, only the bodies of collection `coll` in
 * language `lang` (the whole collection and its record `item`) differ:
 * every other representation keeps its bytes and ETag. */
static void assert_only_changed(const profile_store_t *a,
                                const profile_store_t *b, int coll, int lang,
                                int item)
{
    int l, k, i;

    for (l = 0; l < a->nlangs; l++) {
        assert_false(compare_bodies(&a->profile[l], &b->profile[l],
                                    "profile"));
        assert_false(compare_bodies(&a->contact[l], &b->contact[l],
                                    "contact"));
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            int want = k == coll && l == lang;

            assert_int_equal(compare_bodies(&a->coll[k].all[l],
                                            &b->coll[k].all[l],
                                            COLLS[k].key), want);
            for (i = 0; i < a->coll[k].nitems; i++) {
                assert_int_equal(compare_bodies(&a->coll[k].items[i].body[l],
                                                &b->coll[k].items[i].body[l],
                                                COLLS[k].key),
                                 want && i == item);
            }
        }
    }
}

static void change_of_one_record_changes_only_its_etags(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *a = load_ok(p, SAMPLE_PATH);
    const char *text = slurp(p, SAMPLE_PATH);
    const char *changed = edit(p, text, "\"es\": \"jun. 2018",
                               "\"es\": \"junio 2018");
    profile_store_t *b = parse_ok(p, changed);

    /* Only the Spanish experience collection, and within it only the
     * record that was edited. */
    assert_only_changed(a, b, PROFILE_COLL_EXPERIENCE, 1, 1);
}

static void parse_keeps_the_given_mtime_and_name(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = NULL;
    const char *err = NULL;
    apr_time_t t = apr_time_from_sec(1700000000);

    assert_int_equal(profile_store_parse(&st, &err, MIN, strlen(MIN),
                                         "/srv/x.json", t, p), APR_SUCCESS);
    assert_true(st->mtime == t);
    assert_string_equal(st->path, "/srv/x.json");
}

/* ----------------------------------------------------- valid variants */

static void min_document_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, MIN);

    assert_int_equal(st->nlangs, 2);
    assert_int_equal(st->coll[PROFILE_COLL_EXPERIENCE].nitems, 3);
}

static void plain_strings_and_language_objects_are_both_accepted(void **st_)
{
    apr_pool_t *p = POOL(st_);
    profile_store_t *st = parse_ok(p, MIN);

    assert_mem_str(st->profile[0].data, st->profile[0].len,
                   "{\"name\":\"Ana Ruiz\",\"headline\":\"Engineer\","
                   "\"summary\":\"Builds things.\"}");
    assert_mem_str(st->profile[1].data, st->profile[1].len,
                   "{\"name\":\"Ana Ruiz\",\"headline\":\"Ingeniera\","
                   "\"summary\":\"Builds things.\"}");
    assert_mem_str(st->coll[PROFILE_COLL_SKILLS].all[1].data,
                   st->coll[PROFILE_COLL_SKILLS].all[1].len,
                   "[{\"title\":\"Pruebas\",\"summary\":\"Sum\","
                   "\"skills\":[\"C\",\"Revisi\xC3\xB3n\"]}]");
}

static void min_contact_renders_in_table_order(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, MIN);

    assert_mem_str(st->contact[1].data, st->contact[1].len,
                   "{\"contacts\":[{\"kind\":\"email\",\"label\":\"Correo\","
                   "\"text\":\"a@example.com\","
                   "\"url\":\"mailto:a@example.com\"}],"
                   "\"links\":[{\"kind\":\"github\",\"text\":\"GitHub\","
                   "\"url\":\"https://github.com/a\"}]}");
}

static void keys_in_other_order_render_in_table_order(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_edit(p,
        "\"metrics\": [{\"id\": \"m0\", \"value\": \"99%\",\n"
        "    \"label\": {\"en\": \"L\", \"es\": \"Le\"}, \"summary\": \"S\"}]",
        "\"metrics\": [{\"summary\": \"S\", \"label\": {\"es\": \"Le\", "
        "\"en\": \"L\"}, \"value\": \"99%\", \"id\": \"m0\"}]"));

    assert_mem_str(st->coll[PROFILE_COLL_METRICS].all[0].data,
                   st->coll[PROFILE_COLL_METRICS].all[0].len,
                   "[{\"id\":\"m0\",\"value\":\"99%\",\"label\":\"L\","
                   "\"summary\":\"S\"}]");
}

static void languages_declaration_is_optional(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_edit(p,
        "\"languages\": [\"en\", \"es\"],", ""));

    assert_int_equal(st->nlangs, 2);
    assert_string_equal(st->langs[0], "en");
    assert_string_equal(st->langs[1], "es");
    assert_has(st->profile[1].data, "Ingeniera");
}

static void first_declared_language_is_the_default(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_edit(p,
        "\"languages\": [\"en\", \"es\"]", "\"languages\": [\"es\", \"en\"]"));

    assert_string_equal(st->langs[0], "es");
    assert_string_equal(st->langs[1], "en");
    assert_has(st->profile[0].data, "Ingeniera");
    assert_has(st->profile[1].data, "Engineer");
}

static void empty_institution_url_is_allowed(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, MIN);

    assert_has(st->coll[PROFILE_COLL_EDUCATION].all[0].data,
               "\"institutionUrl\":\"\"");
}

static void empty_lists_are_allowed(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, MIN);

    assert_has(st->coll[PROFILE_COLL_EXPERIENCE].items[1].body[0].data,
               "\"highlights\":[]");
}

static void same_id_in_different_collections_is_allowed(void **state)
{
    apr_pool_t *p = POOL(state);

    parse_ok(p, min_edit(p, "\"id\": \"m0\"", "\"id\": \"e0\""));
}

static void id_with_all_allowed_characters_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_edit(p, "\"id\": \"cs0\"",
                                               "\"id\": \"Z9.a_b~c-d\""));

    assert_string_equal(st->coll[PROFILE_COLL_CASE_STUDIES].items[0].id,
                        "Z9.a_b~c-d");
}

static void kind_with_digits_and_hyphen_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);

    parse_ok(p, min_edit(p, "\"kind\": \"github\"", "\"kind\": \"x-2fa\""));
}

static void third_language_with_all_translations_is_accepted(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *doc =
        "{\"languages\": [\"en\", \"es\", \"de\"],"
        " \"profile\": {\"name\": \"N\", \"headline\": {\"en\": \"H\","
        "   \"es\": \"Hes\", \"de\": \"Hde\"}, \"summary\": \"S\"},"
        " \"skills\": [], \"experience\": [], \"education\": [],"
        " \"contact\": {\"contacts\": [], \"links\": []},"
        " \"caseStudies\": [], \"metrics\": []}";
    profile_store_t *st = parse_ok(p, doc);

    assert_int_equal(st->nlangs, 3);
    assert_string_equal(st->langs[2], "de");
    assert_has(st->profile[2].data, "\"headline\":\"Hde\"");
    assert_mem_str(st->coll[PROFILE_COLL_SKILLS].all[2].data,
                   st->coll[PROFILE_COLL_SKILLS].all[2].len, "[]");
}

/* ------------------------------------- lists given per language (§9) */

/* MIN with each kind of list given per language, of different lengths. */
static const char *min_per_language_lists(apr_pool_t *p)
{
    const char *doc = min_edit(p,
        "\"skills\": [\"C\", {\"en\": \"Code review\", "
        "\"es\": \"Revisi\xC3\xB3n\"}]",
        "\"skills\": {\"en\": [\"C\", \"Code review\"], \"es\": [\"C\"]}");

    doc = edit(p, doc, "\"highlights\": [\"H0\"]",
               "\"highlights\": {\"es\": [\"H0es\", \"H0es2\", \"H0es3\"],"
               " \"en\": [\"H0\"]}");
    return edit(p, doc, "\"resultItems\": [\"RI\"]",
                "\"resultItems\": {\"en\": [\"RI\", \"RI2\"], \"es\": []}");
}

static void per_language_lists_render_each_languages_own_items(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_per_language_lists(p));
    const profile_coll_t *sk = &st->coll[PROFILE_COLL_SKILLS];
    const profile_coll_t *ex = &st->coll[PROFILE_COLL_EXPERIENCE];
    const profile_coll_t *cs = &st->coll[PROFILE_COLL_CASE_STUDIES];

    assert_mem_str(sk->all[0].data, sk->all[0].len,
                   "[{\"title\":\"Testing\",\"summary\":\"Sum\","
                   "\"skills\":[\"C\",\"Code review\"]}]");
    assert_mem_str(sk->all[1].data, sk->all[1].len,
                   "[{\"title\":\"Pruebas\",\"summary\":\"Sum\","
                   "\"skills\":[\"C\"]}]");
    /* The order of the languages in the object does not matter. */
    assert_mem_str(ex->items[0].body[0].data, ex->items[0].body[0].len,
                   "{\"id\":\"e0\",\"role\":\"R0\",\"company\":\"C0\","
                   "\"companyUrl\":\"https://c0.example\",\"context\":\"X0\","
                   "\"period\":\"P0\",\"highlights\":[\"H0\"]}");
    assert_mem_str(ex->items[0].body[1].data, ex->items[0].body[1].len,
                   "{\"id\":\"e0\",\"role\":\"R0\",\"company\":\"C0\","
                   "\"companyUrl\":\"https://c0.example\",\"context\":\"X0\","
                   "\"period\":\"P0es\","
                   "\"highlights\":[\"H0es\",\"H0es2\",\"H0es3\"]}");
    assert_has(cs->all[0].data, "\"resultItems\":[\"RI\",\"RI2\"]}");
    assert_has(cs->all[1].data, "\"resultItems\":[]}");
    /* Different bytes, different ETags, whole collections included. */
    assert_string_not_equal(ex->items[0].body[0].etag,
                            ex->items[0].body[1].etag);
    assert_string_not_equal(cs->items[0].body[0].etag,
                            cs->items[0].body[1].etag);
    assert_string_not_equal(sk->all[0].etag, sk->all[1].etag);
    assert_string_not_equal(cs->all[0].etag, cs->all[1].etag);
}

static void per_language_list_with_the_same_items_serves_the_same_bytes(
    void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *a = parse_ok(p, MIN);
    profile_store_t *b = parse_ok(p, min_edit(p,
        "\"skills\": [\"C\", {\"en\": \"Code review\", "
        "\"es\": \"Revisi\xC3\xB3n\"}]",
        "\"skills\": {\"en\": [\"C\", \"Code review\"],"
        " \"es\": [\"C\", \"Revisi\xC3\xB3n\"]}"));
    int l, k, i;

    /* The same lists written the other way: a client sees no change. */
    for (l = 0; l < a->nlangs; l++) {
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            assert_false(compare_bodies(&a->coll[k].all[l], &b->coll[k].all[l],
                                        COLLS[k].key));
            for (i = 0; i < a->coll[k].nitems; i++) {
                assert_false(compare_bodies(&a->coll[k].items[i].body[l],
                                            &b->coll[k].items[i].body[l],
                                            COLLS[k].key));
            }
        }
    }
}

static void change_of_one_languages_list_changes_only_its_etags(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *doc = min_per_language_lists(p);
    profile_store_t *a = parse_ok(p, doc);
    profile_store_t *b = parse_ok(p, edit(p, doc, "\"H0es3\"", "\"H0es3b\""));

    /* Only the Spanish first experience record. */
    assert_only_changed(a, b, PROFILE_COLL_EXPERIENCE, 1, 0);
}

static void per_language_lists_give_each_language_its_search_keys(
    void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_per_language_lists(p));
    const char **en = st->coll[PROFILE_COLL_SKILLS].items[0].keys[0];
    const char **es = st->coll[PROFILE_COLL_SKILLS].items[0].keys[1];

    /* The title, then the items of that language's list, folded. */
    assert_string_equal(en[0], "testing");
    assert_string_equal(en[1], "c");
    assert_string_equal(en[2], "code review");
    assert_null(en[3]);
    assert_string_equal(es[0], "pruebas");
    assert_string_equal(es[1], "c");
    assert_null(es[2]);
}

static void per_language_list_in_a_third_language(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *doc =
        "{\"languages\": [\"en\", \"es\", \"de\"],"
        " \"profile\": {\"name\": \"N\", \"headline\": \"H\","
        "   \"summary\": \"S\"},"
        " \"skills\": [{\"title\": \"T\", \"summary\": \"S\","
        "   \"skills\": {\"de\": [\"Eins\", \"Zwei\"], \"en\": [\"One\"],"
        "   \"es\": []}}],"
        " \"experience\": [], \"education\": [],"
        " \"contact\": {\"contacts\": [], \"links\": []},"
        " \"caseStudies\": [], \"metrics\": []}";
    profile_store_t *st = parse_ok(p, doc);
    const profile_coll_t *sk = &st->coll[PROFILE_COLL_SKILLS];

    assert_has(sk->all[0].data, "\"skills\":[\"One\"]}");
    assert_has(sk->all[1].data, "\"skills\":[]}");
    assert_has(sk->all[2].data, "\"skills\":[\"Eins\",\"Zwei\"]}");
}

static void per_language_list_missing_a_language_is_refused(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"highlights\": [\"H0\"]",
                                    "\"highlights\": {\"en\": [\"H0\"]}"));

    assert_names_path(err, "$.experience[0].highlights");
    assert_has(err, "missing the list in \"es\"");
    err = parse_bad_one(p, min_edit(p, "\"resultItems\": [\"RI\"]",
                        "\"resultItems\": {\"en\": [\"RI\"], \"es\": [\"RI\"],"
                        " \"de\": []}"));
    assert_names_path(err, "$.caseStudies[0].resultItems");
    assert_has(err, "unknown language \"de\"");
}

/* ---------------------------------------------------------- refusals */

static void syntax_error_names_file_line_and_column(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"summary\": \"Sum\",",
                                            "\"summary\": \"Sum\",,"));

    /* The extra comma is on line 7 of MIN. */
    assert_line_col(err, DOC_NAME, 7);
}

static void empty_document_is_a_syntax_error(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, "");

    assert_has(err, DOC_NAME ":");
}

static void trailing_garbage_is_a_syntax_error(void **state)
{
    apr_pool_t *p = POOL(state);

    parse_bad_one(p, apr_pstrcat(p, MIN, "x", NULL));
}

static void missing_translation_names_path_and_language(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "\"period\": {\"en\": \"P2\", \"es\": \"P2es\"}",
        "\"period\": {\"en\": \"P2\"}"));

    assert_names_path(err, "$.experience[2].period");
    assert_has(err, "\"es\"");
}

static void missing_translation_in_list_names_element(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "[{\"en\": \"H2\", \"es\": \"H2es\"}]", "[{\"es\": \"H2es\"}]"));

    assert_names_path(err, "$.experience[2].highlights[0]");
    assert_has(err, "\"en\"");
}

static void unknown_key_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"name\": \"Ana Ruiz\",",
                                            "\"name\": \"Ana Ruiz\", "
                                            "\"nmae\": \"x\","));

    assert_has(err, "$.profile");
    assert_has(err, "nmae");
}

static void unknown_top_level_key_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"profile\": {",
                                            "\"version\": 1, \"profile\": {"));

    assert_has(err, "version");
}

static void label_on_a_link_is_an_unknown_key(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "\"kind\": \"github\",", "\"kind\": \"github\", \"label\": \"G\","));

    assert_has(err, "$.contact.links[0]");
    assert_has(err, "label");
}

static void missing_field_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "\"companyUrl\": \"https://c1.example\", ", ""));

    assert_has(err, "$.experience[1]");
    assert_has(err, "companyUrl");
}

static void missing_collection_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        ",\n  \"metrics\": [{\"id\": \"m0\", \"value\": \"99%\",\n"
        "    \"label\": {\"en\": \"L\", \"es\": \"Le\"}, \"summary\": \"S\"}]",
        ""));

    assert_has(err, "metrics");
}

static void wrong_type_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    err = parse_bad_one(p, min_edit(p, "\"company\": \"C1\"", "\"company\": 5"));
    assert_names_path(err, "$.experience[1].company");
    err = parse_bad_one(p, min_edit(p, "\"highlights\": [\"H0\"]",
                                "\"highlights\": \"H0\""));
    assert_names_path(err, "$.experience[0].highlights");
    err = parse_bad_one(p, min_edit(p, "\"value\": \"99%\"", "\"value\": 99"));
    assert_names_path(err, "$.metrics[0].value");
    err = parse_bad_one(p, min_edit(p, "\"institution\": \"U\"",
                                "\"institution\": true"));
    assert_names_path(err, "$.education[0].institution");
    err = parse_bad_one(p, min_edit(p, "\"resultItems\": [\"RI\"]",
                                "\"resultItems\": [[\"RI\"]]"));
    assert_names_path(err, "$.caseStudies[0].resultItems[0]");
}

static void wrong_type_of_collection_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "\"metrics\": [{\"id\": \"m0\", \"value\": \"99%\",\n"
        "    \"label\": {\"en\": \"L\", \"es\": \"Le\"}, \"summary\": \"S\"}]",
        "\"metrics\": {}"));

    assert_names_path(err, "$.metrics");
    err = parse_bad_one(p, min_edit(p,
        "\"profile\": {\"name\": \"Ana Ruiz\",\n"
        "    \"headline\": {\"en\": \"Engineer\", \"es\": \"Ingeniera\"},\n"
        "    \"summary\": \"Builds things.\"}",
        "\"profile\": [\"Ana Ruiz\"]"));
    assert_names_path(err, "$.profile");
}

static void translation_that_is_not_a_string_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "{\"en\": \"Engineer\", \"es\": \"Ingeniera\"}",
        "{\"en\": \"Engineer\", \"es\": 1}"));

    assert_has(err, "$.profile.headline");
}

static void per_language_id_url_or_kind_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    err = parse_bad_one(p, min_edit(p, "\"id\": \"cs0\"",
                                "\"id\": {\"en\": \"cs0\", \"es\": \"cs0\"}"));
    assert_names_path(err, "$.caseStudies[0].id");
    err = parse_bad_one(p, min_edit(p, "\"url\": \"https://github.com/a\"",
                                "\"url\": {\"en\": \"https://a\", "
                                "\"es\": \"https://b\"}"));
    assert_names_path(err, "$.contact.links[0].url");
    err = parse_bad_one(p, min_edit(p, "\"kind\": \"email\"",
                                "\"kind\": {\"en\": \"email\", "
                                "\"es\": \"email\"}"));
    assert_names_path(err, "$.contact.contacts[0].kind");
    err = parse_bad_one(p, min_edit(p, "\"companyUrl\": \"https://c2.example\"",
                                "\"companyUrl\": {\"en\": \"https://a\", "
                                "\"es\": \"https://b\"}"));
    assert_names_path(err, "$.experience[2].companyUrl");
    err = parse_bad_one(p, min_edit(p, "\"institutionUrl\": \"\"",
                                "\"institutionUrl\": {\"en\": \"\", "
                                "\"es\": \"\"}"));
    assert_names_path(err, "$.education[0].institutionUrl");
}

static void null_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    err = parse_bad_one(p, min_edit(p, "\"companyUrl\": \"https://c0.example\"",
                                "\"companyUrl\": null"));
    assert_names_path(err, "$.experience[0].companyUrl");
    assert_has(err, "null");
    err = parse_bad_one(p, min_edit(p, "\"summary\": \"Builds things.\"",
                                "\"summary\": null"));
    assert_names_path(err, "$.profile.summary");
    err = parse_bad_one(p, min_edit(p, "[\"H0\"]", "[null]"));
    assert_names_path(err, "$.experience[0].highlights[0]");
    err = parse_bad_one(p, min_edit(p, "\"es\": \"Pruebas\"", "\"es\": null"));
    assert_has(err, "$.skills[0].title");
    err = parse_bad_one(p, min_edit(p, "\"metrics\": [{", "\"metrics\": [null, {"));
    assert_names_path(err, "$.metrics[0]");
}

static void duplicate_id_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"id\": \"e2\"",
                                            "\"id\": \"e0\""));

    assert_has(err, "$.experience[2]");
    assert_has(err, "e0");
}

static void duplicate_id_in_other_collections_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p, "\"metrics\": [{",
        "\"metrics\": [{\"id\": \"m0\", \"value\": \"1\", \"label\": \"L\", "
        "\"summary\": \"S\"}, {"));

    assert_has(err, "$.metrics[1]");
    assert_has(err, "m0");
    err = parse_bad_one(p, min_edit(p, "\"caseStudies\": [{",
        "\"caseStudies\": [{\"id\": \"cs0\", \"title\": \"T\", "
        "\"mobileTitle\": \"M\", \"summary\": \"S\", \"organization\": \"O\", "
        "\"context\": \"C\", \"problem\": \"P\", \"intervention\": \"I\", "
        "\"result\": \"R\", \"resultItems\": []}, {"));
    assert_has(err, "$.caseStudies[1]");
    assert_has(err, "cs0");
}

static void invalid_utf8_in_file_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);

    parse_bad_one(p, min_edit(p, "\"name\": \"Ana Ruiz\"",
                          "\"name\": \"Ana \xFF Ruiz\""));
    parse_bad_one(p, min_edit(p, "\"name\": \"Ana Ruiz\"",
                          "\"name\": \"Ana \xED\xA0\x80 Ruiz\""));
}

static void bad_id_characters_are_rejected(void **state)
{
    static const char *const bad[] = {
        "a b", "-a", ".a", "_a", "", "a/b", "caf\xC3\xA9", "a?b", "a%20"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *err = parse_bad_one(p, min_edit(p, "\"id\": \"e1\"",
            apr_psprintf(p, "\"id\": \"%s\"", bad[i])));
        assert_names_path(err, "$.experience[1].id");
    }
}

static void bad_kind_is_rejected(void **state)
{
    static const char *const bad[] = {
        "Email", "1mail", "e_mail", "", "e mail", "-x", "EMAIL"
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *err = parse_bad_one(p, min_edit(p, "\"kind\": \"email\"",
            apr_psprintf(p, "\"kind\": \"%s\"", bad[i])));
        assert_names_path(err, "$.contact.contacts[0].kind");
    }
}

static void duplicate_json_key_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    err = parse_bad_one(p, min_edit(p, "\"name\": \"Ana Ruiz\",",
                                "\"name\": \"Ana Ruiz\", \"name\": \"Ana\","));
    assert_has(err, "duplicate");
    /* also inside a text object */
    err = parse_bad_one(p, min_edit(p, "{\"en\": \"BSc\", \"es\": \"Grado\"}",
                                "{\"en\": \"BSc\", \"es\": \"Grado\", "
                                "\"en\": \"BA\"}"));
    assert_has(err, "duplicate");
}

static void top_level_that_is_not_an_object_is_rejected(void **state)
{
    static const char *const bad[] = {"[]", "\"profile\"", "42", "null",
                                      "true"};
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        parse_bad_one(p, bad[i]);
    }
}

static void bad_languages_declaration_is_rejected(void **state)
{
    static const char *const bad[] = {
        "\"en\"",                           /* not an array */
        "[]",                               /* no default */
        "[\"en\", \"e\"]",                  /* too short */
        "[\"en\", \"abcdefghi\"]",          /* too long */
        "[\"en\", \"e1\"]",                 /* not letters */
        "[\"en\", \"es-MX\"]",              /* not letters */
        "[\"en\", \"\xC3\xB1" "e\"]",       /* not ASCII */
        "[\"en\", 5]",                      /* not a string */
        "[\"en\", null]",
        "[\"en\", \"es\", \"en\"]",         /* declared twice */
        "{\"en\": \"English\"}",
        "[\"aa\", \"ab\", \"ac\", \"ad\", \"ae\", \"af\", \"ag\", \"ah\","
        " \"ai\", \"aj\", \"ak\", \"al\", \"am\", \"an\", \"ao\", \"ap\","
        " \"aq\"]",                         /* more than PROFILE_LANG_MAX */
    };
    apr_pool_t *p = POOL(state);
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *err = parse_bad_one(p, min_edit(p,
            "\"languages\": [\"en\", \"es\"]",
            apr_pstrcat(p, "\"languages\": ", bad[i], NULL)));
        assert_has(err, "$.languages");
    }
}

static void unknown_language_key_in_text_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err = parse_bad_one(p, min_edit(p,
        "\"period\": {\"en\": \"P0\", \"es\": \"P0es\"}",
        "\"period\": {\"en\": \"P0\", \"es\": \"P0es\", \"fr\": \"P0fr\"}"));

    assert_has(err, "$.experience[0].period");
    assert_has(err, "fr");
}

/* The first line of a refusal names the file, the line and column where
 * the value stands, and then `what` ("$.path: text"). */
static void assert_first_problem(const char *err, const char *what)
{
    const char *at = strstr(err, what), *nl = strchr(err, '\n');
    int line = 0, column = 0;

    if (at == NULL || (nl != NULL && at > nl)) {
        print_error("first problem of: %s\nexpected: %s\n", err, what);
    }
    assert_non_null(at);
    assert_true(nl == NULL || at < nl);
    assert_true(strncmp(err, DOC_NAME ":", strlen(DOC_NAME) + 1) == 0);
    assert_int_equal(sscanf(err + strlen(DOC_NAME) + 1, "%d:%d: ", &line,
                            &column), 2);
    assert_true(line > 0 && column > 0);
}

static void undeclared_language_in_text_is_rejected(void **state)
{
    apr_pool_t *p = POOL(state);
    /* Only "en" is declared, so MIN's "es" translations are unknown:
     * each one is a problem, the first one first. */
    const char *err = parse_bad(p, min_edit(p,
        "\"languages\": [\"en\", \"es\"]", "\"languages\": [\"en\"]"));

    assert_first_problem(err, "$.profile.headline: unknown language "
                         "\"es\"");
    assert_has(err, "$.skills[0].title: unknown language \"es\"");
}

static void declared_language_without_translations_is_rejected(void **st_)
{
    apr_pool_t *p = POOL(st_);
    const char *err = parse_bad(p, min_edit(p,
        "\"languages\": [\"en\", \"es\"]",
        "\"languages\": [\"en\", \"es\", \"fr\"]"));

    assert_first_problem(err, "$.profile.headline: missing translation "
                         "\"fr\"");
}

/* ------------------------------------------------------------- files */

static void missing_file_is_refused_naming_it(void **state)
{
    apr_pool_t *p = POOL(state);

    load_bad(p, UNIT_DATA "/does-not-exist.json");
}

static void directory_is_refused_naming_it(void **state)
{
    apr_pool_t *p = POOL(state);

    load_bad(p, UNIT_DATA);
}

static void file_with_syntax_error_names_line_and_column(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *path = UNIT_DATA "/bad-syntax.json";
    const char *err = load_bad(p, path);

    /* "headline": "Engineer",, -- line 5 */
    assert_line_col(err, path, 5);
}

static void empty_file_is_refused_naming_it(void **state)
{
    apr_pool_t *p = POOL(state);

    load_bad(p, UNIT_DATA "/bad-empty.json");
}

static void file_that_is_not_an_object_is_refused(void **state)
{
    apr_pool_t *p = POOL(state);

    load_bad(p, UNIT_DATA "/bad-not-object.json");
}

/* An administrator who points ProfileData at a JSON Resume learns what
 * it is and how to convert it, in one problem, not one per unknown key;
 * a data file with a stray "basics" is not called one. */
static void json_resume_document_is_one_problem_saying_so(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    err = parse_bad_one(p, "{\"basics\": {\"name\": \"A\"}, \"work\": [],"
                           " \"skills\": [{\"name\": \"C\"}],"
                           " \"languages\": [{\"language\": \"English\"}]}");
    assert_has(err, "a JSON Resume document, not a data file: make one "
                    "with profilectl import-jsonresume " DOC_NAME
                    " -o profile.json");
    err = parse_bad_one(p, "{\"$schema\": \"https://raw.githubusercontent.com"
                           "/jsonresume/resume-schema/v1.0.0/schema.json\"}");
    assert_has(err, "a JSON Resume document");
    err = parse_bad(p, edit(p, MIN, "\"languages\"",
                            "\"basics\": {}, \"languages\""));
    assert_null(strstr(err, "JSON Resume"));
    assert_has(err, "unknown key \"basics\"");
}

static void file_missing_a_translation_names_json_path(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *path = UNIT_DATA "/bad-missing-translation.json";
    const char *err = load_bad(p, path);

    /* The contract's own example. */
    assert_names_path(err, "$.experience[2].period");
    assert_has(err, "\"es\"");
    /* Where the value begins: line 227 is `      "period": {`. */
    assert_has(err, apr_pstrcat(p, path, ":227:17: $.experience[2].period: ",
                                NULL));
}

/* A problem of the file's shape names the line and column where its
 * value begins, or where the object that lacks a member begins; keys
 * written with escapes are found as the path prints them. */
static void shape_problems_name_line_and_column(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_problems_t *kept = profile_problems_make(p, 100);
    apr_array_header_t *problems = kept->list;
    const char *text =
        "{\n"
        "  \"a\": [1,\n"
        "        {\"k\\u00e9y\": {\"x\": true}, \"t\": \"caf\u00e9\"}],\n"
        "  \"b\": \"\\\"[\\\\\", \"c\": {}, \"\xc3\xa9\": 1\n"
        "}\n";
    static const struct {
        const char *path;
        int line, column;
    } want[] = {
        {"$.a[1].k\xc3\xa9y.x", 3, 28},   /* an escaped key */
        {"$.a[1].t", 3, 40},
        {"$.c", 4, 22},                   /* after escaped quotes */
        {"$.c.missing", 4, 22},           /* the object that lacks it */
        {"$.a[7]", 2, 8},                 /* the array */
        {"$", 1, 1},
        {"$.\xc3\xa9", 4, 31},            /* code points, not bytes */
    };
    size_t i;

    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        profile_data_problem_t *pr = profile_problems_add(kept);

        pr->line = pr->column = 0;
        pr->path = want[i].path;
        pr->text = "x";
    }
    profile_data_problems_locate(kept, text, strlen(text), p);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const profile_data_problem_t *pr =
            &APR_ARRAY_IDX(problems, i, profile_data_problem_t);

        if (pr->line != want[i].line || pr->column != want[i].column) {
            print_error("%s: %d:%d, expected %d:%d\n", pr->path, pr->line,
                        pr->column, want[i].line, want[i].column);
        }
        assert_int_equal(pr->line, want[i].line);
        assert_int_equal(pr->column, want[i].column);
    }
}

/* ------------------------------------------------- load options */

static void check_coded(const profile_body_t *b, int want, apr_pool_t *p)
{
    int enc;

    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        const profile_bytes_t *c = &b->coded[enc];

        if (!want) {
            assert_null(c->data);
            continue;
        }
        assert_non_null(c->data);
        assert_true(c->len > 0 && c->len < b->len);
        assert_string_equal(c->etag, profile_etag(c->data, c->len, p));
        assert_string_not_equal(c->etag, b->etag);
    }
}

static void compressed_forms_exist_for_what_is_served_unfiltered(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 1, .max_size = 0};
    profile_store_t *st = NULL, *plain;
    const char *err = NULL;
    int l, k, i;

    assert_int_equal(profile_store_load(&st, &err, SAMPLE_PATH, &o, p),
                     APR_SUCCESS);
    plain = load_ok(p, SAMPLE_PATH);
    assert_true(st->compressed);
    for (l = 0; l < st->nlangs; l++) {
        check_coded(&st->profile[l], 1, p);
        check_coded(&st->contact[l], 1, p);
        check_coded(&plain->profile[l], 0, p);
        /* Compression changes no identity byte or ETag. */
        assert_string_equal(st->profile[l].etag, plain->profile[l].etag);
        for (k = 0; k < PROFILE_COLL_COUNT; k++) {
            const profile_coll_t *c = &st->coll[k];

            check_coded(&c->all[l], 1, p);
            assert_string_equal(c->all[l].etag, plain->coll[k].all[l].etag);
            for (i = 0; i < c->nitems; i++) {
                /* Elements are served alone only where they have ids. */
                check_coded(&c->items[i].body[l],
                            k == PROFILE_COLL_EXPERIENCE
                            || k == PROFILE_COLL_CASE_STUDIES, p);
            }
        }
    }
}

static void validating_only_renders_nothing(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 0, .compress = 1, .max_size = 0};
    profile_store_t *st = (profile_store_t *)&o;
    const char *err = NULL;

    assert_int_equal(profile_store_load(&st, &err, SAMPLE_PATH, &o, p),
                     APR_SUCCESS);
    assert_null(st);
    assert_null(err);
    /* ... but still refuses what rendering would refuse. */
    assert_int_not_equal(profile_store_load(&st, &err,
                                            UNIT_DATA "/bad-missing-translation.json",
                                            &o, p), APR_SUCCESS);
    assert_non_null(err);
}

static void files_over_the_size_limit_are_refused_unread(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_load_opts_t o = {.render = 1, .compress = 0,
                             .max_size = 1000};
    profile_store_t *st = NULL;
    const char *err = NULL;

    assert_int_not_equal(profile_store_load(&st, &err, SAMPLE_PATH, &o, p),
                         APR_SUCCESS);
    assert_null(st);
    assert_has(err, SAMPLE_PATH);
    assert_has(err, "more than the limit of 1000");
    assert_has(err, "ProfileMaxDataSize");
    o.max_size = 1 << 20;
    assert_int_equal(profile_store_load(&st, &err, SAMPLE_PATH, &o, p),
                     APR_SUCCESS);
}

/* MIN with its skill groups replaced by n empty ones (valid in every
 * language: plain strings), the file CONTRACT §9's memory bound is
 * about. */
static const char *empty_skill_groups(apr_pool_t *p, int n)
{
    static const char group[] = "{\"title\":\"\",\"summary\":\"\",\"skills\":[]}";
    const char *from = strstr(MIN, "\"skills\": [{");
    const char *to = strstr(MIN, "\n  \"experience\"");
    apr_size_t head = (apr_size_t)(from - MIN), tail = strlen(to);
    char *doc = apr_palloc(p, head + 12 + (sizeof(group)) * (apr_size_t)n
                              + tail + 1);
    char *at = doc;
    int i;

    memcpy(at, MIN, head);
    at += head;
    at += sprintf(at, "\"skills\": [");
    for (i = 0; i < n; i++) {
        memcpy(at, group, sizeof(group) - 1);
        at += sizeof(group) - 1;
        *at++ = i + 1 < n ? ',' : ']';
    }
    *at++ = ',';
    memcpy(at, to, tail + 1);
    return doc;
}

static void estimate_counts_representations_as_records_times_languages(
    void **state)
{
    apr_pool_t *p = POOL(state);
    profile_estimate_t one, many;
    const char *err = NULL;
    const char *doc = empty_skill_groups(p, 1000);

    assert_int_equal(profile_store_estimate(&one, &err, MIN, strlen(MIN), p),
                     APR_SUCCESS);
    /* profile, contact, and per collection its elements (1 skill group,
     * 3 experience records, 1 of each other) and itself: 14 bodies in 2
     * languages. */
    assert_int_equal(one.reps, 14 * 2);
    assert_int_equal(one.bound, 16 * strlen(MIN) + 8 * 1024 * 1024);
    assert_true(one.bytes < one.bound);
    assert_true(one.text > 0);

    assert_int_equal(profile_store_estimate(&many, &err, doc, strlen(doc),
                                            p), APR_SUCCESS);
    assert_int_equal(many.reps, (14 + 999) * 2);
    /* Each record costs at least its representations, whatever its
     * bytes. */
    assert_true(many.bytes - one.bytes > 999 * 2 * 256);
    /* Invalid data has no estimate, and says why. */
    assert_int_not_equal(profile_store_estimate(&many, &err, "{", 1, p),
                         APR_SUCCESS);
    assert_has(err, "invalid JSON");
}

static void estimate_counts_text_given_per_language_once_per_language(
    void **state)
{
    apr_pool_t *p = POOL(state);
    profile_estimate_t plain, per_lang;
    const char *err = NULL;
    const char *a = min_edit(p, "\"summary\": \"Builds things.\"",
                             "\"summary\": \"Builds things and more.\"");
    const char *b = min_edit(p, "\"summary\": \"Builds things.\"",
                             "\"summary\": {\"en\": \"Builds things and "
                             "more.\", \"es\": \"\"}");

    assert_int_equal(profile_store_estimate(&plain, &err, a, strlen(a), p),
                     APR_SUCCESS);
    assert_int_equal(profile_store_estimate(&per_lang, &err, b, strlen(b),
                                            p), APR_SUCCESS);
    /* The plain string is rendered in both languages, the per-language
     * one's English text in English only. */
    assert_true(per_lang.text < plain.text);
}

static void memory_problem_names_the_limit_and_by_how_much(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_estimate_t e = {.reps = 123456, .values = 0, .text = 0};
    const char *msg;

    e.bound = 16 * 65536 + 8 * 1024 * 1024;            /* 9.0 MB */
    e.bytes = e.bound + 3 * 1024 * 1024 / 2;           /* 1.5 MB more */
    msg = profile_estimate_problem(&e, 65536, p);
    assert_non_null(msg);
    assert_has(msg, "about 10.5 MB of memory");
    assert_has(msg, "123456 representations");
    assert_has(msg, "1.5 MB more than its memory limit of 9.0 MB");
    assert_has(msg, "16 times its 65536 bytes plus 8 MB");
    e.bytes = e.bound;
    assert_null(profile_estimate_problem(&e, 65536, p));
}

static void records_times_languages_beyond_the_memory_bound_are_refused(
    void **state)
{
    apr_pool_t *p = POOL(state);
    const char *doc = empty_skill_groups(p, 20000);
    profile_load_opts_t o = {.render = 0, .compress = 0, .max_size = 0};
    profile_store_t *st = NULL;
    const char *err = parse_bad_one(p, doc), *err2 = NULL;

    /* 761 KB: its bound is 19.6 MB, 40,026 representations cost
     * more. */
    assert_has(err, DOC_NAME ": loading the data file would take about");
    assert_has(err, "40026 representations");
    assert_has(err, "MB more than its memory limit of 19.6 MB");
    /* Validating only (configtest) gives the same verdict. */
    assert_int_not_equal(profile_store_parse_opts(&st, &err2, doc,
                                                  strlen(doc), DOC_NAME, 0,
                                                  &o, p), APR_SUCCESS);
    assert_null(st);
    assert_string_equal(err2, err);
    /* A tenth of it fits. */
    parse_ok(p, empty_skill_groups(p, 2000));
}

static void absurdly_deep_nesting_is_refused(void **state)
{
    apr_pool_t *p = POOL(state);
    apr_size_t depth = 200000, i;
    char *doc = apr_palloc(p, depth * 2 + 1);
    profile_store_t *st = NULL;
    const char *err = NULL;

    for (i = 0; i < depth; i++) {
        doc[i] = '[';
        doc[depth + i] = ']';
    }
    doc[2 * depth] = '\0';
    assert_int_not_equal(profile_store_parse(&st, &err, doc, 2 * depth,
                                             DOC_NAME, 0, p), APR_SUCCESS);
    assert_null(st);
    assert_has(err, DOC_NAME ":1:");
    assert_has(err, "depth");
}

/* ------------------------------------------ bounded refusal (§9) */

/* A file whose parsed tree would not fit its bound is refused before it
 * is parsed, with the bound and by how much; the same verdict
 * validating only. */
static void tree_over_the_bound_is_refused_before_parsing(void **state)
{
    apr_pool_t *p = POOL(state);
    apr_size_t n = 2 * 1024 * 1024 / 3, i, len;
    char *doc = apr_palloc(p, n * 3 + 16);
    profile_parse_estimate_t est;
    profile_store_t *st = NULL;
    const char *err = NULL;
    profile_estimate_t e;

    len = (apr_size_t)sprintf(doc, "{\"x\":[");
    for (i = 0; i < n; i++) {
        memcpy(doc + len, i ? ",{}" : "{}", i ? 3 : 2);
        len += i ? 3 : 2;
    }
    memcpy(doc + len, "]}", 3);
    len += 2;
    profile_estimate_parse(&est, doc, len);
    assert_true(est.values == n + 2);
    assert_true(est.bytes > est.bound);
    assert_true(est.bound == (apr_uint64_t)len * PROFILE_MEMORY_FACTOR
                             + PROFILE_MEMORY_SLACK);
    assert_int_equal(profile_store_parse(&st, &err, doc, len, DOC_NAME, 0,
                                         p), APR_EINVAL);
    assert_null(st);
    assert_has(err, DOC_NAME ": reading the data file would take about ");
    assert_has(err, "JSON values");
    assert_has(err, "16 times its");
    assert_int_equal(profile_store_estimate(&e, &err, doc, len, p),
                     APR_EINVAL);
    assert_has(err, "reading the data file would take");
}

/* The pre-scan's estimate is an upper bound of what jansson's tree of a
 * text takes, and realistic data is far below its bound: the sample
 * and a 20-fold copy of its records. */
static void realistic_data_is_far_below_the_parse_bound(void **state)
{
    static const char some[] = "{\"a\\\"\":[1,-2.5e3,\"x\\\\\",true]}";
    apr_pool_t *p = POOL(state);
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t len = 0;
    const char *why;
    char *text;
    profile_parse_estimate_t est;

    assert_int_equal(profile_data_open(&f, &fi, &why, SAMPLE_PATH, p),
                     APR_SUCCESS);
    text = apr_palloc(p, (apr_size_t)fi.size);
    assert_int_equal(apr_file_read_full(f, text, (apr_size_t)fi.size, &len),
                     APR_SUCCESS);
    apr_file_close(f);
    profile_estimate_parse(&est, text, len);
    assert_true(est.bytes * 4 < est.bound);
    /* Strings, keys, escapes and numbers: counted, not parsed. */
    profile_estimate_parse(&est, some, strlen(some));
    assert_true(est.values == 5);
}

/* Beyond jansson's depth limit the pre-scan stops counting, as jansson
 * stops parsing: the refusal is jansson's, with its line and column. */
static void deep_nesting_is_counted_as_far_as_jansson_parses(void **state)
{
    apr_pool_t *p = POOL(state);
    apr_size_t depth = 1000000, i;
    char *doc = apr_palloc(p, depth * 2 + 1);
    profile_parse_estimate_t est;

    for (i = 0; i < depth; i++) {
        doc[i] = '[';
        doc[depth + i] = ']';
    }
    profile_estimate_parse(&est, doc, 2 * depth);
    assert_true(est.values <= JSON_PARSER_MAX_DEPTH);
}

/* Past the kept problems, a refusal counts: a file of 50,000 problems
 * keeps the ten shown and says how many more, and each kept one is
 * located where its value begins on the one line of a minified file. */
static void many_problems_keep_the_first_and_count_the_rest(void **state)
{
    apr_pool_t *p = POOL(state);
    int n = 50000, i;
    apr_size_t len = 0;
    /* (Titles long enough for the tree to fit the bound.) */
    static const char rec[] = "{\"title\":\"ttttttttttttttttttttttttttttt"
        "ttttttttttttttttttttttttttttttt\",\"summary\":\"s\"}";
    char *doc = apr_palloc(p, (apr_size_t)n * sizeof(rec) + 32);
    profile_load_opts_t opts = {.render = 0};
    profile_store_t *st = NULL;
    const char *err = NULL;
    const profile_data_problem_t *pr;

    len += (apr_size_t)sprintf(doc, "{\"skills\":[");
    for (i = 0; i < n; i++) {
        if (i) {
            doc[len++] = ',';
        }
        memcpy(doc + len, rec, sizeof(rec) - 1);
        len += sizeof(rec) - 1;
    }
    len += (apr_size_t)sprintf(doc + len, "]}");
    opts.problems = profile_problems_make(p, 3);
    assert_int_equal(profile_store_parse_opts(&st, &err, doc, len, DOC_NAME,
                                              0, &opts, p), APR_EINVAL);
    /* One per record, then the 6 missing top-level members. */
    assert_true(opts.problems->total == (apr_size_t)n + 6);
    assert_int_equal(opts.problems->list->nelts, 3);
    assert_has(err, apr_psprintf(p, "\nand %d more", n + 6 - 10));
    assert_has(err, DOC_NAME ":1:12: $.skills[0].skills: missing required "
               "field \"skills\"");
    /* The tenth problem shown: record 9, at its column on line 1. */
    assert_has(err, apr_psprintf(p, DOC_NAME ":1:%d: $.skills[9].skills: "
                                 "missing", 12 + 9 * (int)sizeof(rec)));
    assert_hasnt(err, "$.skills[10]");
    pr = &APR_ARRAY_IDX(opts.problems->list, 0, profile_data_problem_t);
    assert_int_equal(pr->line, 1);
}

/* Only a regular file is read: a directory, a FIFO and a device are
 * refused at once (a FIFO would block a plain open until a writer
 * came), and so is a link to one. */
static void only_a_regular_file_is_read(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *dir = NULL, *fifo, *link, *err;
    profile_store_t *st = NULL;
    apr_file_t *f;
    apr_finfo_t fi;

    assert_int_equal(apr_temp_dir_get(&dir, p), APR_SUCCESS);
    dir = apr_psprintf(p, "%s/unit-open-%d", dir, (int)getpid());
    assert_int_equal(apr_dir_make(dir, APR_OS_DEFAULT, p), APR_SUCCESS);
    fifo = apr_pstrcat(p, dir, "/fifo.json", NULL);
    link = apr_pstrcat(p, dir, "/link.json", NULL);
    assert_int_equal(mkfifo(fifo, 0600), 0);

    assert_int_equal(profile_store_load(&st, &err, fifo, NULL, p),
                     APR_EBADF);
    assert_has(err, "not a regular file (a FIFO)");
    assert_int_equal(symlink(fifo, link), 0);
    assert_int_equal(profile_store_load(&st, &err, link, NULL, p),
                     APR_EBADF);
    assert_has(err, "not a regular file (a FIFO)");
    assert_int_equal(profile_store_load(&st, &err, dir, NULL, p),
                     APR_EBADF);
    assert_has(err, "not a regular file (a directory)");
    assert_int_equal(profile_store_load(&st, &err, "/dev/zero", NULL, p),
                     APR_EBADF);
    assert_has(err, "not a regular file (a device)");
    assert_int_not_equal(profile_data_open(&f, &fi, &err, fifo, p),
                         APR_SUCCESS);
    assert_null(f);
    unlink(link);
    unlink(fifo);
    apr_dir_remove(dir, p);
}

static void schema_key_is_accepted_at_the_top_only(void **state)
{
    apr_pool_t *p = POOL(state);
    const char *err;

    /* Editors find the JSON Schema through it; the module ignores it. */
    parse_ok(p, min_edit(p, "\"languages\"",
                         "\"$schema\": \"./profile.schema.json\", "
                         "\"languages\""));
    err = parse_bad_one(p, min_edit(p, "\"languages\"",
                                "\"$schema\": 1, \"languages\""));
    assert_names_path(err, "$.$schema");
    assert_has(err, "expected a string");
    err = parse_bad_one(p, min_edit(p, "\"profile\": {\"name\"",
                                "\"profile\": {\"$schema\": \"x\", "
                                "\"name\""));
    assert_has(err, "unknown key \"$schema\"");
}

static void control_characters_are_escaped_as_jansson_does(void **state)
{
    apr_pool_t *p = POOL(state);
    profile_store_t *st = parse_ok(p, min_edit(p, "\"Ana Ruiz\"",
                                               "\"Ana\\u001dRuiz\\t\\\"x\\\\\""));
    json_t *v;
    char *again;

    /* The canonical compact form: \u with upper-case hex, short escapes
     * where JSON has them (the fuzzer found lower-case hex once). */
    assert_has(st->profile[0].data, "\"Ana\\u001DRuiz\\t\\\"x\\\\\"");
    v = json_loadb(st->profile[0].data, st->profile[0].len, 0, NULL);
    assert_non_null(v);
    again = json_dumps(v, JSON_COMPACT);
    assert_mem_str(st->profile[0].data, st->profile[0].len, again);
    free(again);
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        UNIT_TEST(sample_loads_with_languages_en_es),
        UNIT_TEST(schema_key_is_accepted_at_the_top_only),
        UNIT_TEST(control_characters_are_escaped_as_jansson_does),
        UNIT_TEST(compressed_forms_exist_for_what_is_served_unfiltered),
        UNIT_TEST(validating_only_renders_nothing),
        UNIT_TEST(files_over_the_size_limit_are_refused_unread),
        UNIT_TEST(absurdly_deep_nesting_is_refused),
        UNIT_TEST(tree_over_the_bound_is_refused_before_parsing),
        UNIT_TEST(realistic_data_is_far_below_the_parse_bound),
        UNIT_TEST(deep_nesting_is_counted_as_far_as_jansson_parses),
        UNIT_TEST(many_problems_keep_the_first_and_count_the_rest),
        UNIT_TEST(only_a_regular_file_is_read),
        UNIT_TEST(estimate_counts_representations_as_records_times_languages),
        UNIT_TEST(estimate_counts_text_given_per_language_once_per_language),
        UNIT_TEST(memory_problem_names_the_limit_and_by_how_much),
        UNIT_TEST(records_times_languages_beyond_the_memory_bound_are_refused),
        UNIT_TEST(sample_store_remembers_path_and_mtime),
        UNIT_TEST(sample_store_remembers_size_and_md5_of_its_bytes),
        UNIT_TEST(sample_counts_match_the_file),
        UNIT_TEST(sample_ids_keep_file_order_and_are_indexed),
        UNIT_TEST(sample_bodies_have_spec_fields_in_table_order),
        UNIT_TEST(sample_bodies_are_compact_utf8),
        UNIT_TEST(sample_bodies_hold_the_chosen_language),
        UNIT_TEST(sample_unlocalized_fields_are_equal_across_languages),
        UNIT_TEST(sample_collection_body_joins_its_items),
        UNIT_TEST(sample_etags_are_quoted_hashes_of_the_bytes),
        UNIT_TEST(etag_is_quoted_and_depends_only_on_bytes),
        UNIT_TEST(etag_of_a_fixed_body_is_pinned),
        UNIT_TEST(joined_etag_of_fixed_elements_is_pinned),
        UNIT_TEST(sample_profile_en_etag_is_pinned),
        UNIT_TEST(sample_etags_are_stable_across_loads),
        UNIT_TEST(sample_etags_differ_between_en_and_es),
        UNIT_TEST(same_bytes_in_both_languages_give_same_etag),
        UNIT_TEST(change_of_one_record_changes_only_its_etags),
        UNIT_TEST(parse_keeps_the_given_mtime_and_name),
        UNIT_TEST(min_document_is_accepted),
        UNIT_TEST(plain_strings_and_language_objects_are_both_accepted),
        UNIT_TEST(min_contact_renders_in_table_order),
        UNIT_TEST(keys_in_other_order_render_in_table_order),
        UNIT_TEST(languages_declaration_is_optional),
        UNIT_TEST(first_declared_language_is_the_default),
        UNIT_TEST(empty_institution_url_is_allowed),
        UNIT_TEST(empty_lists_are_allowed),
        UNIT_TEST(same_id_in_different_collections_is_allowed),
        UNIT_TEST(id_with_all_allowed_characters_is_accepted),
        UNIT_TEST(kind_with_digits_and_hyphen_is_accepted),
        UNIT_TEST(third_language_with_all_translations_is_accepted),
        UNIT_TEST(per_language_lists_render_each_languages_own_items),
        UNIT_TEST(per_language_list_with_the_same_items_serves_the_same_bytes),
        UNIT_TEST(change_of_one_languages_list_changes_only_its_etags),
        UNIT_TEST(per_language_lists_give_each_language_its_search_keys),
        UNIT_TEST(per_language_list_in_a_third_language),
        UNIT_TEST(per_language_list_missing_a_language_is_refused),
        UNIT_TEST(syntax_error_names_file_line_and_column),
        UNIT_TEST(empty_document_is_a_syntax_error),
        UNIT_TEST(trailing_garbage_is_a_syntax_error),
        UNIT_TEST(missing_translation_names_path_and_language),
        UNIT_TEST(missing_translation_in_list_names_element),
        UNIT_TEST(unknown_key_is_rejected),
        UNIT_TEST(unknown_top_level_key_is_rejected),
        UNIT_TEST(label_on_a_link_is_an_unknown_key),
        UNIT_TEST(missing_field_is_rejected),
        UNIT_TEST(missing_collection_is_rejected),
        UNIT_TEST(wrong_type_is_rejected),
        UNIT_TEST(wrong_type_of_collection_is_rejected),
        UNIT_TEST(translation_that_is_not_a_string_is_rejected),
        UNIT_TEST(per_language_id_url_or_kind_is_rejected),
        UNIT_TEST(null_is_rejected),
        UNIT_TEST(duplicate_id_is_rejected),
        UNIT_TEST(duplicate_id_in_other_collections_is_rejected),
        UNIT_TEST(invalid_utf8_in_file_is_rejected),
        UNIT_TEST(bad_id_characters_are_rejected),
        UNIT_TEST(bad_kind_is_rejected),
        UNIT_TEST(duplicate_json_key_is_rejected),
        UNIT_TEST(top_level_that_is_not_an_object_is_rejected),
        UNIT_TEST(bad_languages_declaration_is_rejected),
        UNIT_TEST(unknown_language_key_in_text_is_rejected),
        UNIT_TEST(undeclared_language_in_text_is_rejected),
        UNIT_TEST(declared_language_without_translations_is_rejected),
        UNIT_TEST(missing_file_is_refused_naming_it),
        UNIT_TEST(directory_is_refused_naming_it),
        UNIT_TEST(file_with_syntax_error_names_line_and_column),
        UNIT_TEST(empty_file_is_refused_naming_it),
        UNIT_TEST(file_that_is_not_an_object_is_refused),
        UNIT_TEST(json_resume_document_is_one_problem_saying_so),
        UNIT_TEST(file_missing_a_translation_names_json_path),
        UNIT_TEST(shape_problems_name_line_and_column),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
