/*
 * profile_store.c -- loading the data file (CONTRACT §9): parse with
 * jansson (duplicate keys rejected), validate every rule against one
 * schema table, then render each representation once per language with
 * its ETag, and fold the search keys the filters use (§8).
 *
 * The schema tables below are the single description of the API's
 * fields: their order is the order fields appear in responses (the
 * specification's tables), and validation and rendering both walk them.
 *
 * Pure core: no httpd headers.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <apr_file_io.h>
#include <apr_lib.h>
#include <apr_sha1.h>
#include <apr_cstr.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_lang.h"
#include "profile_store.h"
#include "profile_text.h"

typedef enum {
    K_TEXT,         /* a string, or an object with one string per language */
    K_TEXTLIST,     /* an array of K_TEXT */
    K_ID,           /* a plain string matching the id pattern */
    K_KIND,         /* a plain string matching the kind pattern */
    K_PLAIN,        /* a plain string (urls) */
    K_OBJECT,       /* an object described by `sub` */
    K_OBJLIST,      /* an array of objects described by `sub` */
    K_LANGS         /* the optional "languages" declaration */
} kind_e;

typedef struct field {
    const char *name;
    kind_e kind;
    const struct field *sub;
} field_t;

static const field_t profile_fields[] = {
    {"name", K_TEXT, NULL},
    {"headline", K_TEXT, NULL},
    {"summary", K_TEXT, NULL},
    {NULL, 0, NULL}
};

static const field_t skill_fields[] = {
    {"title", K_TEXT, NULL},
    {"summary", K_TEXT, NULL},
    {"skills", K_TEXTLIST, NULL},
    {NULL, 0, NULL}
};

static const field_t experience_fields[] = {
    {"id", K_ID, NULL},
    {"role", K_TEXT, NULL},
    {"company", K_TEXT, NULL},
    {"companyUrl", K_PLAIN, NULL},
    {"context", K_TEXT, NULL},
    {"period", K_TEXT, NULL},
    {"highlights", K_TEXTLIST, NULL},
    {NULL, 0, NULL}
};

static const field_t education_fields[] = {
    {"degree", K_TEXT, NULL},
    {"credential", K_TEXT, NULL},
    {"institution", K_TEXT, NULL},
    {"institutionUrl", K_PLAIN, NULL},
    {NULL, 0, NULL}
};

static const field_t contact_entry_fields[] = {
    {"kind", K_KIND, NULL},
    {"label", K_TEXT, NULL},
    {"text", K_TEXT, NULL},
    {"url", K_PLAIN, NULL},
    {NULL, 0, NULL}
};

static const field_t link_fields[] = {
    {"kind", K_KIND, NULL},
    {"text", K_TEXT, NULL},
    {"url", K_PLAIN, NULL},
    {NULL, 0, NULL}
};

static const field_t contact_fields[] = {
    {"contacts", K_OBJLIST, contact_entry_fields},
    {"links", K_OBJLIST, link_fields},
    {NULL, 0, NULL}
};

static const field_t case_study_fields[] = {
    {"id", K_ID, NULL},
    {"title", K_TEXT, NULL},
    {"mobileTitle", K_TEXT, NULL},
    {"summary", K_TEXT, NULL},
    {"organization", K_TEXT, NULL},
    {"context", K_TEXT, NULL},
    {"problem", K_TEXT, NULL},
    {"intervention", K_TEXT, NULL},
    {"result", K_TEXT, NULL},
    {"resultItems", K_TEXTLIST, NULL},
    {NULL, 0, NULL}
};

static const field_t metric_fields[] = {
    {"id", K_ID, NULL},
    {"value", K_TEXT, NULL},
    {"label", K_TEXT, NULL},
    {"summary", K_TEXT, NULL},
    {NULL, 0, NULL}
};

static const field_t top_fields[] = {
    {"languages", K_LANGS, NULL},
    {"profile", K_OBJECT, profile_fields},
    {"skills", K_OBJLIST, skill_fields},
    {"experience", K_OBJLIST, experience_fields},
    {"education", K_OBJLIST, education_fields},
    {"contact", K_OBJECT, contact_fields},
    {"caseStudies", K_OBJLIST, case_study_fields},
    {"metrics", K_OBJLIST, metric_fields},
    {NULL, 0, NULL}
};

/* The collections, in profile_coll_e order, with the fields the filters
 * search (CONTRACT §8 rule 5). */
static const struct {
    const char *key;
    const field_t *fields;
    const char *search[3];
} collections[PROFILE_COLL_COUNT] = {
    {"skills", skill_fields, {"title", "skills", NULL}},
    {"experience", experience_fields, {"company", NULL, NULL}},
    {"education", education_fields, {NULL, NULL, NULL}},
    {"caseStudies", case_study_fields, {"organization", NULL, NULL}},
    {"metrics", metric_fields, {NULL, NULL, NULL}}
};

/* ------------------------------------------------------------------ */
/* Validation                                                          */

/* A JSON path, built on the stack as validation descends. */
typedef struct path {
    const struct path *up;
    const char *key;            /* member name, or NULL for an index */
    size_t index;
} path_t;

typedef struct {
    apr_pool_t *p;
    const char *name;           /* the file, for messages */
    int nlangs;
    const char **langs;
    const char *err;
} vctx_t;

static const char *path_str(const path_t *at, apr_pool_t *p)
{
    const char *up;

    if (at == NULL) {
        return "$";
    }
    up = path_str(at->up, p);
    if (at->key == NULL) {
        return apr_psprintf(p, "%s[%" APR_SIZE_T_FMT "]", up, at->index);
    }
    return apr_pstrcat(p, up, ".", profile_text_printable(at->key,
                                                          strlen(at->key),
                                                          64, p), NULL);
}

static int fail(vctx_t *c, const path_t *at, const char *fmt, ...)
{
    va_list ap;
    const char *msg;

    va_start(ap, fmt);
    msg = apr_pvsprintf(c->p, fmt, ap);
    va_end(ap);
    c->err = apr_psprintf(c->p, "%s: %s: %s", c->name, path_str(at, c->p),
                          msg);
    return -1;
}

static const char *type_name(const json_t *v)
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

static const char *quoted(vctx_t *c, const char *s)
{
    return apr_psprintf(c->p, "\"%s\"",
                        profile_text_printable(s, strlen(s), 64, c->p));
}

static int matches_pattern(const char *s, int kind_pattern)
{
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

static int lang_index(vctx_t *c, const char *tag)
{
    int i;

    for (i = 0; i < c->nlangs; i++) {
        if (strcmp(c->langs[i], tag) == 0) {
            return i;
        }
    }
    return -1;
}

static int check_object(vctx_t *c, const field_t *fields, json_t *v,
                        const path_t *at);

static int check_text(vctx_t *c, json_t *v, const path_t *at)
{
    const char *key;
    json_t *tr;
    int i;

    if (json_is_string(v)) {
        return 0;
    }
    if (!json_is_object(v)) {
        return fail(c, at, "expected a text value (a string, or an object "
                    "with one string per language), found %s",
                    type_name(v));
    }
    json_object_foreach(v, key, tr) {
        path_t here = {at, key, 0};
        if (lang_index(c, key) < 0) {
            return fail(c, at, "unknown language %s (the file declares %s)",
                        quoted(c, key),
                        apr_array_pstrcat(c->p, &(apr_array_header_t){
                            c->p, sizeof(char *), c->nlangs, c->nlangs,
                            (char *)c->langs}, ','));
        }
        if (!json_is_string(tr)) {
            return fail(c, &here, "expected a string, found %s",
                        type_name(tr));
        }
    }
    for (i = 0; i < c->nlangs; i++) {
        if (json_object_get(v, c->langs[i]) == NULL) {
            return fail(c, at, "missing translation \"%s\"", c->langs[i]);
        }
    }
    return 0;
}

static int check_value(vctx_t *c, const field_t *f, json_t *v,
                       const path_t *at)
{
    size_t i;
    json_t *el;

    if (json_is_null(v)) {
        static const char *const expected[] = {
            "a text value", "an array of text values", "an id",
            "a kind", "a string", "an object", "an array of objects",
            "an array of language tags"
        };
        return fail(c, at, "null is not allowed (expected %s)",
                    expected[f->kind]);
    }
    switch (f->kind) {
    case K_TEXT:
        return check_text(c, v, at);
    case K_ID:
    case K_KIND:
    case K_PLAIN:
        if (!json_is_string(v)) {
            return fail(c, at, "expected a plain string (%s is the same in "
                        "every language), found %s", f->name, type_name(v));
        }
        if (f->kind == K_ID && !matches_pattern(json_string_value(v), 0)) {
            return fail(c, at, "bad id %s: ids match "
                        "[A-Za-z0-9][A-Za-z0-9._~-]*",
                        quoted(c, json_string_value(v)));
        }
        if (f->kind == K_KIND && !matches_pattern(json_string_value(v), 1)) {
            return fail(c, at, "bad kind %s: kinds match [a-z][a-z0-9-]*",
                        quoted(c, json_string_value(v)));
        }
        return 0;
    case K_OBJECT:
        return check_object(c, f->sub, v, at);
    case K_TEXTLIST:
    case K_OBJLIST:
        if (!json_is_array(v)) {
            return fail(c, at, "expected an array, found %s", type_name(v));
        }
        json_array_foreach(v, i, el) {
            path_t here = {at, NULL, i};
            if (json_is_null(el)) {
                return fail(c, &here, "null is not allowed (expected %s)",
                            f->kind == K_TEXTLIST ? "a text value"
                                                  : "an object");
            }
            if (f->kind == K_TEXTLIST ? check_text(c, el, &here)
                                      : check_object(c, f->sub, el, &here)) {
                return -1;
            }
        }
        return 0;
    case K_LANGS:
        return 0;               /* checked first, by check_languages() */
    }
    return 0;
}

static int check_object(vctx_t *c, const field_t *fields, json_t *v,
                        const path_t *at)
{
    const char *key;
    const field_t *f;
    json_t *member;

    if (!json_is_object(v)) {
        return fail(c, at, "expected an object, found %s", type_name(v));
    }
    json_object_foreach(v, key, member) {
        path_t here = {at, key, 0};
        for (f = fields; f->name && strcmp(f->name, key) != 0; f++) {
        }
        if (f->name == NULL) {
            return fail(c, &here, "unknown key %s", quoted(c, key));
        }
        if (check_value(c, f, member, &here)) {
            return -1;
        }
    }
    for (f = fields; f->name; f++) {
        path_t here = {at, f->name, 0};
        if (f->kind != K_LANGS && json_object_get(v, f->name) == NULL) {
            return fail(c, &here, "missing required field \"%s\"", f->name);
        }
    }
    return 0;
}

static int check_languages(vctx_t *c, json_t *root)
{
    static const char *const defaults[] = {"en", "es"};
    json_t *v = json_object_get(root, "languages");
    path_t at = {NULL, "languages", 0};
    size_t i;
    json_t *el;

    if (v == NULL) {
        c->nlangs = 2;
        c->langs = apr_pmemdup(c->p, defaults, sizeof(defaults));
        c->langs[0] = apr_pstrdup(c->p, defaults[0]);
        c->langs[1] = apr_pstrdup(c->p, defaults[1]);
        return 0;
    }
    if (!json_is_array(v) || json_array_size(v) == 0
        || json_array_size(v) > PROFILE_LANG_MAX) {
        return fail(c, &at, "expected an array of 1 to %d language tags",
                    PROFILE_LANG_MAX);
    }
    c->nlangs = (int)json_array_size(v);
    c->langs = apr_pcalloc(c->p, sizeof(char *) * (size_t)c->nlangs);
    json_array_foreach(v, i, el) {
        path_t here = {&at, NULL, i};
        const char *tag = json_string_value(el);
        size_t n, k;

        if (tag == NULL) {
            return fail(c, &here, "expected a language tag, found %s",
                        type_name(el));
        }
        n = strlen(tag);
        for (k = 0; k < n && apr_isalpha(tag[k]) && !(tag[k] & 0x80); k++) {
        }
        if (n < 2 || n > 8 || k != n) {
            return fail(c, &here, "bad language tag %s: tags are 2 to 8 "
                        "ASCII letters", quoted(c, tag));
        }
        for (k = 0; k < i; k++) {
            if (apr_cstr_casecmp(c->langs[k], tag) == 0) {
                return fail(c, &here, "language %s is declared twice",
                            quoted(c, tag));
            }
        }
        c->langs[i] = apr_pstrdup(c->p, tag);
    }
    return 0;
}

/* Ids are unique within their collection. */
static int check_unique_ids(vctx_t *c, json_t *root)
{
    int k;

    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        apr_hash_t *seen = apr_hash_make(c->p);
        json_t *list = json_object_get(root, collections[k].key);
        path_t coll = {NULL, collections[k].key, 0};
        size_t i;
        json_t *el;

        json_array_foreach(list, i, el) {
            const char *id = json_string_value(json_object_get(el, "id"));
            path_t item = {&coll, NULL, i};
            path_t at = {&item, "id", 0};
            const size_t *first;

            if (id == NULL) {
                break;
            }
            first = apr_hash_get(seen, id, APR_HASH_KEY_STRING);
            if (first != NULL) {
                return fail(c, &at, "duplicate id %s (also at $.%s[%"
                            APR_SIZE_T_FMT "])", quoted(c, id),
                            collections[k].key, *first);
            }
            apr_hash_set(seen, id, APR_HASH_KEY_STRING,
                         apr_pmemdup(c->p, &i, sizeof(i)));
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

static json_t *text_of(json_t *v, const char *lang)
{
    return json_is_string(v) ? v : json_object_get(v, lang);
}

static json_t *render_object(const field_t *fields, json_t *src,
                             const char *lang);

static json_t *render_value(const field_t *f, json_t *v, const char *lang)
{
    json_t *out, *el;
    size_t i;

    switch (f->kind) {
    case K_TEXT:
        return json_incref(text_of(v, lang));
    case K_TEXTLIST:
    case K_OBJLIST:
        out = json_array();
        json_array_foreach(v, i, el) {
            json_array_append_new(out, f->kind == K_TEXTLIST
                                  ? json_incref(text_of(el, lang))
                                  : render_object(f->sub, el, lang));
        }
        return out;
    case K_OBJECT:
        return render_object(f->sub, v, lang);
    default:
        return json_incref(v);
    }
}

static json_t *render_object(const field_t *fields, json_t *src,
                             const char *lang)
{
    json_t *out = json_object();
    const field_t *f;

    for (f = fields; f->name; f++) {
        json_object_set_new_nocheck(out, f->name,
                                    render_value(f, json_object_get(src,
                                                                    f->name),
                                                 lang));
    }
    return out;
}

const char *profile_etag(const char *s, apr_size_t len, apr_pool_t *p)
{
    unsigned char digest[APR_SHA1_DIGESTSIZE];
    apr_sha1_ctx_t ctx;
    char *etag = apr_palloc(p, 3 + 3 + 16 + 1);
    static const char hex[] = "0123456789abcdef";
    int i;

    apr_sha1_init(&ctx);
    apr_sha1_update_binary(&ctx, (const unsigned char *)s, (unsigned)len);
    apr_sha1_final(digest, &ctx);
    memcpy(etag, "\"p1-", 4);
    for (i = 0; i < 8; i++) {
        etag[4 + 2 * i] = hex[digest[i] >> 4];
        etag[5 + 2 * i] = hex[digest[i] & 0xF];
    }
    etag[20] = '"';
    etag[21] = '\0';
    return etag;
}

/* Dumps v compactly (UTF-8, not \u-escaped) into body, and drops v. */
static void dump(profile_body_t *body, json_t *v, int with_etag,
                 apr_pool_t *p)
{
    char *s = json_dumps(v, JSON_COMPACT);

    json_decref(v);
    memset(body, 0, sizeof(*body));
    body->len = strlen(s);
    body->data = apr_pstrmemdup(p, s, body->len);
    body->etag = with_etag ? profile_etag(body->data, body->len, p) : NULL;
    free(s);
}

/* Adds the compressed forms of a representation served unfiltered. */
static void compress(profile_body_t *body, const profile_load_opts_t *o,
                     apr_pool_t *p)
{
    int enc;

    for (enc = PROFILE_ENC_GZIP; o->compress && enc < PROFILE_ENC_COUNT;
         enc++) {
        profile_bytes_t *b = &body->coded[enc];

        b->data = profile_enc_compress(&b->len, (profile_enc_e)enc,
                                       body->data, body->len, p);
        b->etag = b->data ? profile_etag(b->data, b->len, p) : NULL;
    }
}

static void fold_keys(profile_item_t *item, int k, json_t *el,
                      const profile_store_t *st, apr_pool_t *p)
{
    int l;

    item->keys = apr_pcalloc(p, sizeof(char **) * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        apr_array_header_t *keys = apr_array_make(p, 4, sizeof(char *));
        const char *const *name;

        for (name = collections[k].search; *name; name++) {
            json_t *v = json_object_get(el, *name);
            size_t i;
            json_t *t;

            if (json_is_array(v)) {
                json_array_foreach(v, i, t) {
                    const char *s = json_string_value(text_of(t,
                                                      st->langs[l]));
                    APR_ARRAY_PUSH(keys, const char *) =
                        profile_text_fold(s, strlen(s), p);
                }
            }
            else {
                const char *s = json_string_value(text_of(v, st->langs[l]));
                APR_ARRAY_PUSH(keys, const char *) =
                    profile_text_fold(s, strlen(s), p);
            }
        }
        APR_ARRAY_PUSH(keys, const char *) = NULL;
        item->keys[l] = (const char **)keys->elts;
    }
}

/* A collection: each element rendered once per language; the whole
 * collection is "[" + the elements joined by "," + "]" (exactly what
 * jansson's compact dump of the array gives), and every element's body
 * is a slice of it. */
static void render_collection(profile_store_t *st, int k, json_t *root,
                              const profile_load_opts_t *o, apr_pool_t *p)
{
    profile_coll_t *coll = &st->coll[k];
    json_t *list = json_object_get(root, collections[k].key);
    int l, has_ids = collections[k].fields[0].kind == K_ID;
    size_t i, n = json_array_size(list);
    char **dumped = malloc(sizeof(char *) * (n + 1));
    apr_size_t *lens = malloc(sizeof(apr_size_t) * (n + 1));
    json_t *el;

    coll->nitems = (int)n;
    coll->items = apr_pcalloc(p, sizeof(profile_item_t) * (n + 1));
    coll->all = apr_pcalloc(p, sizeof(profile_body_t) * (size_t)st->nlangs);
    coll->by_id = has_ids ? apr_hash_make(p) : NULL;

    json_array_foreach(list, i, el) {
        profile_item_t *item = &coll->items[i];

        item->body = apr_pcalloc(p, sizeof(profile_body_t)
                                    * (size_t)st->nlangs);
        if (has_ids) {
            item->id = apr_pstrdup(p, json_string_value(
                                          json_object_get(el, "id")));
            apr_hash_set(coll->by_id, item->id, APR_HASH_KEY_STRING, item);
        }
        if (collections[k].search[0] != NULL) {
            fold_keys(item, k, el, st, p);
        }
    }
    for (l = 0; l < st->nlangs; l++) {
        profile_body_t *all = &coll->all[l];
        apr_size_t total = 2;
        char *out;

        json_array_foreach(list, i, el) {
            json_t *r = render_object(collections[k].fields, el,
                                      st->langs[l]);

            dumped[i] = json_dumps(r, JSON_COMPACT);
            json_decref(r);
            lens[i] = strlen(dumped[i]);
            total += lens[i] + (i > 0);
        }
        out = apr_palloc(p, total + 1);
        all->data = out;
        all->len = total;
        *out++ = '[';
        for (i = 0; i < n; i++) {
            profile_body_t *b = &coll->items[i].body[l];

            if (i > 0) {
                *out++ = ',';
            }
            memcpy(out, dumped[i], lens[i]);
            b->data = out;
            b->len = lens[i];
            if (has_ids) {
                b->etag = profile_etag(b->data, b->len, p);
                compress(b, o, p);
            }
            out += lens[i];
            free(dumped[i]);
        }
        *out++ = ']';
        *out = '\0';
        all->etag = profile_etag(all->data, all->len, p);
        compress(all, o, p);
    }
    free(dumped);
    free(lens);
}

static void render_object_route(profile_body_t **out, profile_store_t *st,
                                 const field_t *fields, json_t *src,
                                 const profile_load_opts_t *o, apr_pool_t *p)
{
    int l;

    *out = apr_pcalloc(p, sizeof(profile_body_t) * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        dump(&(*out)[l], render_object(fields, src, st->langs[l]), 1, p);
        compress(&(*out)[l], o, p);
    }
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static const profile_load_opts_t default_opts = {1, 0, 0};

apr_status_t profile_store_parse(profile_store_t **out, const char **errmsg,
                                 const char *buf, apr_size_t len,
                                 const char *name, apr_time_t mtime,
                                 apr_pool_t *p)
{
    return profile_store_parse_opts(out, errmsg, buf, len, name, mtime,
                                    NULL, p);
}

apr_status_t profile_store_parse_opts(profile_store_t **out,
                                      const char **errmsg,
                                      const char *buf, apr_size_t len,
                                      const char *name, apr_time_t mtime,
                                      const profile_load_opts_t *o,
                                      apr_pool_t *p)
{
    json_error_t jerr;
    json_t *root;
    vctx_t c = {p, name, 0, NULL, NULL};
    profile_store_t *st;
    apr_status_t rv = APR_SUCCESS;
    int k;

    if (o == NULL) {
        o = &default_opts;
    }
    *out = NULL;
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        *errmsg = apr_psprintf(p, "%s:%d:%d: invalid JSON: %s", name,
                               jerr.line, jerr.column, jerr.text);
        return APR_EINVAL;
    }
    if (!json_is_object(root)) {
        fail(&c, NULL, "expected an object, found %s", type_name(root));
        rv = APR_EINVAL;
        goto leave;
    }
    if (check_languages(&c, root) || check_object(&c, top_fields, root, NULL)
        || check_unique_ids(&c, root)) {
        rv = APR_EINVAL;
        goto leave;
    }
    if (!o->render) {
        goto leave;
    }

    st = apr_pcalloc(p, sizeof(*st));
    st->path = apr_pstrdup(p, name);
    st->mtime = mtime;
    st->compressed = o->compress;
    st->nlangs = c.nlangs;
    st->langs = c.langs;
    render_object_route(&st->profile, st, profile_fields,
                        json_object_get(root, "profile"), o, p);
    render_object_route(&st->contact, st, contact_fields,
                        json_object_get(root, "contact"), o, p);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        render_collection(st, k, root, o, p);
    }
    *out = st;

leave:
    if (rv != APR_SUCCESS) {
        *errmsg = c.err;
    }
    json_decref(root);
    return rv;
}

apr_status_t profile_store_load(profile_store_t **out, const char **errmsg,
                                const char *path,
                                const profile_load_opts_t *o,
                                apr_pool_t *p)
{
    apr_file_t *f = NULL;
    apr_finfo_t fi;
    apr_status_t rv;
    apr_pool_t *tmp;
    char *buf = NULL;
    apr_size_t got = 0;
    char ebuf[256];

    if (o == NULL) {
        o = &default_opts;
    }
    *out = NULL;
    /* The file's bytes are needed only while parsing. */
    apr_pool_create(&tmp, p);
    rv = apr_file_open(&f, path, APR_FOPEN_READ | APR_FOPEN_BINARY,
                       APR_OS_DEFAULT, tmp);
    if (rv == APR_SUCCESS) {
        rv = apr_file_info_get(&fi, APR_FINFO_TYPE | APR_FINFO_SIZE
                                    | APR_FINFO_MTIME, f);
    }
    if (rv != APR_SUCCESS) {
        *errmsg = apr_psprintf(p, "%s: cannot read the data file: %s", path,
                               apr_strerror(rv, ebuf, sizeof(ebuf)));
        goto leave;
    }
    if (fi.filetype != APR_REG) {
        *errmsg = apr_psprintf(p, "%s: the data file is not a regular file",
                               path);
        rv = APR_EINVAL;
        goto leave;
    }
    if (o->max_size > 0 && fi.size > o->max_size) {
        *errmsg = apr_psprintf(p, "%s: the data file has %" APR_OFF_T_FMT
                               " bytes, more than the limit of %"
                               APR_OFF_T_FMT " (ProfileMaxDataSize)", path,
                               fi.size, o->max_size);
        rv = APR_EINVAL;
        goto leave;
    }
    buf = apr_palloc(tmp, (apr_size_t)fi.size + 1);
    rv = apr_file_read_full(f, buf, (apr_size_t)fi.size, &got);
    if (rv != APR_SUCCESS && rv != APR_EOF) {
        *errmsg = apr_psprintf(p, "%s: cannot read the data file: %s", path,
                               apr_strerror(rv, ebuf, sizeof(ebuf)));
        goto leave;
    }
    rv = profile_store_parse_opts(out, errmsg, buf, got, path, fi.mtime, o,
                                  p);

leave:
    apr_pool_destroy(tmp);
    return rv;
}
