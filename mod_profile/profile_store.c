/* SPDX-License-Identifier: Apache-2.0 */
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
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include <apr_atomic.h>
#include <apr_file_io.h>
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>
#include <apr_thread_proc.h>
#include <apr_signal.h>
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
    K_LANGS,        /* the optional "languages" declaration */
    K_SCHEMA        /* the optional "$schema" (for editors; ignored) */
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
    {"$schema", K_SCHEMA, NULL},
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
    int alone;                  /* elements are served alone, by id */
} collections[PROFILE_COLL_COUNT] = {
    {"skills", skill_fields, {"title", "skills", NULL}, 0},
    {"experience", experience_fields, {"company", NULL, NULL}, 1},
    {"education", education_fields, {NULL, NULL, NULL}, 0},
    {"caseStudies", case_study_fields, {"organization", NULL, NULL}, 1},
    {"metrics", metric_fields, {NULL, NULL, NULL}, 0}
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
            "an array of language tags", "a string (the schema's URL)"
        };
        return fail(c, at, "null is not allowed (expected %s)",
                    expected[f->kind]);
    }
    switch (f->kind) {
    case K_TEXT:
        return check_text(c, v, at);
    case K_SCHEMA:
        if (!json_is_string(v)) {
            return fail(c, at, "expected a string (the schema's URL), found "
                        "%s", type_name(v));
        }
        return 0;
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
        if (f->kind != K_LANGS && f->kind != K_SCHEMA
            && json_object_get(v, f->name) == NULL) {
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

/* A growing buffer of rendered JSON (malloc'd; copied into the store's
 * pool once complete). */
typedef struct {
    char *buf;
    apr_size_t len, cap;
} sbuf_t;

static char *sb_room(sbuf_t *b, apr_size_t n)
{
    if (b->len + n > b->cap) {
        apr_size_t cap = b->cap * 2 > b->len + n ? b->cap * 2
                                                 : b->len + n + 4096;
        char *nb = realloc(b->buf, cap);

        if (nb == NULL) {
            abort();            /* as APR pools do when memory runs out */
        }
        b->buf = nb;
        b->cap = cap;
    }
    return b->buf + b->len;
}

static void sb_put(sbuf_t *b, const char *s, apr_size_t n)
{
    memcpy(sb_room(b, n), s, n);
    b->len += n;
}

#define SB_LIT(b, lit) sb_put((b), (lit), sizeof(lit) - 1)

/* A JSON string exactly as jansson's compact dump writes it (UTF-8 kept,
 * '/' not escaped): the parser validated the UTF-8 already. */
static void sb_string(sbuf_t *b, const char *s, apr_size_t n)
{
    static const char hex[] = "0123456789ABCDEF";   /* as jansson */
    char *o = sb_room(b, n * 6 + 2);
    apr_size_t i;

    *o++ = '"';
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
            *o++ = 'u';
            *o++ = '0';
            *o++ = '0';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 0xF];
        }
    }
    *o++ = '"';
    b->len = (apr_size_t)(o - b->buf);
}

static void emit_text(sbuf_t *b, json_t *v)
{
    sb_string(b, json_string_value(v), json_string_length(v));
}

static void emit_object(sbuf_t *b, const field_t *fields, json_t *src,
                        const char *lang);

static void emit_value(sbuf_t *b, const field_t *f, json_t *v,
                       const char *lang)
{
    json_t *el;
    size_t i;

    switch (f->kind) {
    case K_TEXT:
        emit_text(b, text_of(v, lang));
        break;
    case K_TEXTLIST:
    case K_OBJLIST:
        SB_LIT(b, "[");
        json_array_foreach(v, i, el) {
            if (i > 0) {
                SB_LIT(b, ",");
            }
            if (f->kind == K_TEXTLIST) {
                emit_text(b, text_of(el, lang));
            }
            else {
                emit_object(b, f->sub, el, lang);
            }
        }
        SB_LIT(b, "]");
        break;
    case K_OBJECT:
        emit_object(b, f->sub, v, lang);
        break;
    default:                    /* ids, kinds, urls: plain strings */
        emit_text(b, v);
        break;
    }
}

/* The object `src` in language `lang`: the fields of the table, in its
 * order, each text in that language. */
static void emit_object(sbuf_t *b, const field_t *fields, json_t *src,
                        const char *lang)
{
    const field_t *f;

    SB_LIT(b, "{");
    for (f = fields; f->name; f++) {
        if (f != fields) {
            SB_LIT(b, ",");
        }
        sb_string(b, f->name, strlen(f->name));
        SB_LIT(b, ":");
        emit_value(b, f, json_object_get(src, f->name), lang);
    }
    SB_LIT(b, "}");
}

/* "\"p1-" + the first 16 hex digits of a digest + "\"" into etag[22]. */
static void etag_of_digest(char *etag, const unsigned char *digest)
{
    static const char hex[] = "0123456789abcdef";
    int i;

    memcpy(etag, "\"p1-", 4);
    for (i = 0; i < 8; i++) {
        etag[4 + 2 * i] = hex[digest[i] >> 4];
        etag[5 + 2 * i] = hex[digest[i] & 0xF];
    }
    etag[20] = '"';
    etag[21] = '\0';
}

/* The ETag of s[0..len) into etag[22], and the SHA-1 into sha1 (if not
 * NULL). */
static void etag_into(char *etag, unsigned char *sha1, const char *s,
                      apr_size_t len)
{
    unsigned char digest[APR_SHA1_DIGESTSIZE];
    apr_sha1_ctx_t ctx;

    apr_sha1_init(&ctx);
    /* APR takes an unsigned length: larger bodies go in chunks. */
    while (len > 0) {
        unsigned n = len > UINT_MAX ? UINT_MAX : (unsigned)len;

        apr_sha1_update_binary(&ctx, (const unsigned char *)s, n);
        s += n;
        len -= n;
    }
    apr_sha1_final(digest, &ctx);
    etag_of_digest(etag, digest);
    if (sha1 != NULL) {
        memcpy(sha1, digest, APR_SHA1_DIGESTSIZE);
    }
}

const char *profile_etag_joined(const profile_body_t *const *bodies, int n,
                                apr_pool_t *p)
{
    unsigned char digest[APR_SHA1_DIGESTSIZE];
    apr_sha1_ctx_t ctx;
    char *etag = apr_palloc(p, 22);
    int i;

    apr_sha1_init(&ctx);
    apr_sha1_update(&ctx, "[", 1);
    for (i = 0; i < n; i++) {
        apr_sha1_update_binary(&ctx, bodies[i]->sha1, APR_SHA1_DIGESTSIZE);
    }
    apr_sha1_final(digest, &ctx);
    etag_of_digest(etag, digest);
    return etag;
}

const char *profile_etag(const char *s, apr_size_t len, apr_pool_t *p)
{
    char *etag = apr_palloc(p, 22);

    etag_into(etag, NULL, s, len);
    return etag;
}

/* ------------------------------------------------------------------ */
/* Finishing: the ETag and compressed forms of every body served
 * unfiltered.  Independent per body, so for large data shared among
 * threads (one per CPU) that start while the bodies are still being
 * rendered and write only their own job; the results are copied into
 * the store's pool by the loading thread once all are done. */

typedef struct {
    profile_body_t *body;
    int hash;                   /* 0: a collection (ETag from elements) */
    int compress;
    char etag[22];
    char *coded[PROFILE_ENC_COUNT];     /* malloc'd; NULL: not kept */
    apr_size_t coded_len[PROFILE_ENC_COUNT];
    char coded_etag[PROFILE_ENC_COUNT][22];
} job_t;

typedef struct {
    apr_pool_t *pool;           /* for the jobs; gone after finishing */
    job_t *jobs;                /* [cap], filled in order */
    apr_size_t cap;
    apr_size_t queued;          /* jobs filled in */
    apr_size_t published;       /* jobs ready to run (in batches) */
    apr_size_t next;            /* the next job to take */
    int done;                   /* no more jobs will come */
    int compress;
    int level;                  /* profile_enc level for this load */
    apr_thread_mutex_t *mu;     /* NULL: no threads, all at the end */
    apr_thread_cond_t *cv;
    apr_thread_t *threads[8];
    int nthreads;
} work_t;

static job_t *take(work_t *w)
{
    job_t *j = NULL;

    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        while (w->next >= w->published && !w->done) {
            apr_thread_cond_wait(w->cv, w->mu);
        }
    }
    if (w->next < w->published) {
        j = &w->jobs[w->next++];
    }
    if (w->mu != NULL) {
        apr_thread_mutex_unlock(w->mu);
    }
    return j;
}

static void run_job(const work_t *w, job_t *j)
{
    int enc;

    if (j->hash) {
        etag_into(j->etag, j->body->sha1, j->body->data, j->body->len);
    }
    for (enc = PROFILE_ENC_GZIP; j->compress && enc < PROFILE_ENC_COUNT;
         enc++) {
        j->coded[enc] = profile_enc_compress(&j->coded_len[enc],
                                             (profile_enc_e)enc, w->level,
                                             j->body->data, j->body->len);
        if (j->coded[enc] != NULL) {
            etag_into(j->coded_etag[enc], NULL, j->coded[enc],
                      j->coded_len[enc]);
        }
    }
}

static void *APR_THREAD_FUNC worker(apr_thread_t *t, void *data)
{
    work_t *w = data;
    job_t *j;

    /* The loading thread's signals (httpd's SIGHUP, SIGTERM...) are
     * never delivered here. */
    if (t != NULL) {
        apr_setup_signal_thread();
    }
    while ((j = take(w)) != NULL) {
        run_job(w, j);
    }
    return NULL;
}

/* Prepares for `cap` jobs; `size` (the data file's) sets the level and
 * whether threads pay off.  The strongest levels cost seconds per
 * megabyte (br); beyond a small profile, fast levels keep loading within
 * a second. */
/* The CPUs this process may run on (its affinity mask, which taskset or
 * a cpuset may narrow), else those online. */
static long usable_cpus(void)
{
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        return CPU_COUNT(&set);
    }
#endif
    return sysconf(_SC_NPROCESSORS_ONLN);
}

static void finish_start(work_t *w, apr_size_t cap, apr_size_t size,
                         int compress, apr_pool_t *p)
{
    long ncpu = usable_cpus();
    int i;

    memset(w, 0, sizeof(*w));
    apr_pool_create(&w->pool, p);
    w->cap = cap;
    w->jobs = apr_pcalloc(w->pool, sizeof(job_t) * (cap + 1));
    w->compress = compress;
    w->level = size <= PROFILE_ENC_BEST_LIMIT ? PROFILE_ENC_LEVEL_BEST
                                              : PROFILE_ENC_LEVEL_FAST;
    if (size <= 256 * 1024 || ncpu < 2
        || apr_thread_mutex_create(&w->mu, APR_THREAD_MUTEX_DEFAULT,
                                   w->pool) != APR_SUCCESS
        || apr_thread_cond_create(&w->cv, w->pool) != APR_SUCCESS) {
        w->mu = NULL;
        return;
    }
    for (i = 1; i < ncpu && w->nthreads < 8; i++) {
        if (apr_thread_create(&w->threads[w->nthreads], NULL, worker, w,
                              w->pool) == APR_SUCCESS) {
            w->nthreads++;
        }
    }
}

/* Hands the jobs queued so far to the threads (in batches: waking a
 * thread per job would cost more than some jobs). */
static void publish(work_t *w)
{
    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        w->published = w->queued;
        apr_thread_cond_broadcast(w->cv);
        apr_thread_mutex_unlock(w->mu);
    }
    else {
        w->published = w->queued;
    }
}

/* Queues `body` for its hash and ETag (unless `hash` is 0) and, if
 * `served` unfiltered, its compressed forms. */
static void finish_later(work_t *w, profile_body_t *body, int hash,
                         int served)
{
    job_t *j;

    if (w->queued >= w->cap) {
        abort();                /* the count in render_all is wrong */
    }
    j = &w->jobs[w->queued++];
    j->body = body;
    j->hash = hash;
    j->compress = served && w->compress;
    if (w->queued - w->published >= 64) {
        publish(w);
    }
}

/* Runs what is left (with the threads), then copies the results. */
static void finish_all(work_t *w, apr_pool_t *p)
{
    apr_size_t i;
    int t;

    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        w->published = w->queued;
        w->done = 1;
        apr_thread_cond_broadcast(w->cv);
        apr_thread_mutex_unlock(w->mu);
    }
    else {
        w->published = w->queued;
        w->done = 1;
    }
    worker(NULL, w);
    for (t = 0; t < w->nthreads; t++) {
        apr_status_t rv;

        apr_thread_join(&rv, w->threads[t]);
    }
    for (i = 0; i < w->published; i++) {
        job_t *j = &w->jobs[i];
        int enc;

        if (j->hash) {
            j->body->etag = apr_pstrmemdup(p, j->etag, 21);
        }
        for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
            if (j->coded[enc] != NULL) {
                profile_bytes_t *c = &j->body->coded[enc];

                c->data = apr_pmemdup(p, j->coded[enc], j->coded_len[enc]);
                c->len = j->coded_len[enc];
                c->etag = apr_pstrmemdup(p, j->coded_etag[enc], 21);
                free(j->coded[enc]);
            }
        }
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
 * collection is "[" + the elements joined by "," + "]", and every
 * element's body is a slice of it. */
static void render_collection(profile_store_t *st, int k, json_t *root,
                              work_t *w, apr_pool_t *p)
{
    profile_coll_t *coll = &st->coll[k];
    json_t *list = json_object_get(root, collections[k].key);
    int l, has_ids = collections[k].fields[0].kind == K_ID;
    size_t i, n = json_array_size(list);
    apr_size_t *offs = malloc(sizeof(apr_size_t) * (n + 1) * 2);
    sbuf_t b = {NULL, 0, 0};
    json_t *el;

    if (offs == NULL) {
        abort();
    }
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
        char *data;

        b.len = 0;
        SB_LIT(&b, "[");
        json_array_foreach(list, i, el) {
            if (i > 0) {
                SB_LIT(&b, ",");
            }
            offs[2 * i] = b.len;
            emit_object(&b, collections[k].fields, el, st->langs[l]);
            offs[2 * i + 1] = b.len - offs[2 * i];
        }
        SB_LIT(&b, "]");
        data = apr_palloc(p, b.len + 1);
        memcpy(data, b.buf, b.len);
        data[b.len] = '\0';
        all->data = data;
        all->len = b.len;
        finish_later(w, all, 0, 1);
        for (i = 0; i < n; i++) {
            profile_body_t *ib = &coll->items[i].body[l];

            ib->data = data + offs[2 * i];
            ib->len = offs[2 * i + 1];
            finish_later(w, ib, 1, collections[k].alone);
        }
    }
    free(b.buf);
    free(offs);
}

/* A collection's ETag, like a filtered one's, comes from its elements'
 * hashes (profile_etag_joined): a filter choosing every element gives
 * the same bytes and the same ETag, and no hashing of the whole bytes. */
static void collection_etags(profile_store_t *st, apr_pool_t *tmp,
                             apr_pool_t *p)
{
    int k, l, i;

    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        profile_coll_t *c = &st->coll[k];
        const profile_body_t **bodies =
            apr_palloc(tmp, sizeof(*bodies) * (apr_size_t)(c->nitems + 1));

        for (l = 0; l < st->nlangs; l++) {
            for (i = 0; i < c->nitems; i++) {
                bodies[i] = &c->items[i].body[l];
            }
            c->all[l].etag = profile_etag_joined(bodies, c->nitems, p);
        }
    }
}

static void render_object_route(profile_body_t **out, profile_store_t *st,
                                 const field_t *fields, json_t *src,
                                 work_t *w, apr_pool_t *p)
{
    sbuf_t b = {NULL, 0, 0};
    int l;

    *out = apr_pcalloc(p, sizeof(profile_body_t) * (size_t)st->nlangs);
    for (l = 0; l < st->nlangs; l++) {
        profile_body_t *body = &(*out)[l];

        b.len = 0;
        emit_object(&b, fields, src, st->langs[l]);
        body->data = apr_pstrmemdup(p, b.buf, b.len);
        body->len = b.len;
        finish_later(w, body, 1, 1);
    }
    free(b.buf);
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
    apr_size_t njobs;
    work_t w;
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
    st->size = len;
    apr_md5(st->md5, buf, len);
    st->compressed = o->compress;
    st->nlangs = c.nlangs;
    st->langs = c.langs;
    /* One job per body: profile and contact, and per collection its
     * elements and itself, in every language. */
    njobs = 2;
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        njobs += json_array_size(json_object_get(root, collections[k].key))
                 + 1;
    }
    finish_start(&w, njobs * (apr_size_t)st->nlangs, len, o->compress, p);
    render_object_route(&st->profile, st, profile_fields,
                        json_object_get(root, "profile"), &w, p);
    render_object_route(&st->contact, st, contact_fields,
                        json_object_get(root, "contact"), &w, p);
    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        render_collection(st, k, root, &w, p);
    }
    json_decref(root);
    root = NULL;
    finish_all(&w, p);
    collection_etags(st, w.pool, p);
    apr_pool_destroy(w.pool);
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
    apr_allocator_t *alloc;
    char *buf = NULL;
    apr_size_t got = 0;
    char ebuf[256];

    if (o == NULL) {
        o = &default_opts;
    }
    *out = NULL;
    /* The file's bytes are needed only while parsing: in a pool with an
     * allocator of its own, so that they go back to malloc (and to the
     * system) when it is destroyed rather than staying on the free list
     * of p's allocator for as long as p lives.  Only this thread
     * allocates from it (no mutex). */
    if (apr_allocator_create(&alloc) != APR_SUCCESS) {
        *errmsg = apr_psprintf(p, "%s: out of memory", path);
        return APR_ENOMEM;
    }
    apr_pool_create_ex(&tmp, p, NULL, alloc);
    apr_allocator_owner_set(alloc, tmp);
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
