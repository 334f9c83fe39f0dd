/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_estimate.c -- the memory a load takes (CONTRACT §9): from the
 * validated tree, before anything is rendered, an estimate of the peak
 * the load reaches, its bound (16 times the file's size plus 8 MB) and
 * the problem a file over it is refused with.  The constants are
 * calibrated against measured loads (docs/performance.md).
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_estimate.h"
#include "profile_problems.h"
#include "profile_schema.h"
#include "profile_validate.h"


/* Per representation (a body in one language): its profile_body_t, the
 * finishing job, three ETags, its share of the search keys' arrays and
 * of pool and malloc overhead.  Per JSON value of the parsed tree
 * (jansson's value, its hashtable entry or array slot, malloc
 * overhead).  Per rendered byte: identity, gzip and br forms (each
 * kept only when smaller), the coded forms' malloc'd copies until they
 * reach the pool, the render buffers and the folded search keys.  And
 * the file twice: its buffer and the parsed tree's strings.  And 2 MB
 * for the finishing threads' stacks and malloc arenas.  Checked against
 * the peak RSS of loads of files of empty records in 2 and 16 languages
 * and of realistic data of 0.4 to 31 MB, with some margin
 * (docs/performance.md). */
#define EST_PER_REP 448
#define EST_PER_VALUE 128
#define EST_PER_BYTE 7
#define EST_FIXED (2 * 1024 * 1024)

typedef struct {
    const char **langs;
    int nlangs;
    const char *fallback;       /* the file's, or NULL */
    apr_uint64_t values;
    apr_uint64_t common;        /* bytes rendered alike in every language */
    apr_uint64_t per_lang;      /* bytes of per-language values, summed
                                 * over the languages */
    apr_uint64_t esc;           /* bytes HTML's escapes add to them all,
                                 * once (profile_page.c) */
} est_walk_t;

/* Whether object v is a text value given per language: one member per
 * declared language and no other, or, with a fallback, the fallback's
 * and some others (validated, so members are strings or arrays of
 * strings). */
static int per_language(const est_walk_t *e, json_t *v)
{
    size_t n = 0;
    int l;

    for (l = 0; l < e->nlangs; l++) {
        n += json_object_get(v, e->langs[l]) != NULL;
    }
    return n == json_object_size(v)
           && (n == (size_t)e->nlangs
               || (e->fallback && json_object_get(v, e->fallback)));
}

/* Adds v's values and the bytes its compact rendering takes (strings
 * as they are: rendering escapes no more than JSON requires). */
static apr_uint64_t est_walk(est_walk_t *e, json_t *v)
{
    apr_uint64_t n = 0;
    const char *key;
    json_t *m;
    size_t i;

    e->values++;
    switch (json_typeof(v)) {
    case JSON_STRING: {
        const char *c = json_string_value(v), *end = c + json_string_length(v);

        /* &amp; &lt; &gt; &quot; &#39; in a page */
        for (; c < end; c++) {
            e->esc += *c == '"' ? 5 : *c == '&' || *c == '\'' ? 4
                      : *c == '<' || *c == '>' ? 3 : 0;
        }
        return json_string_length(v) + 2;
    }
    case JSON_ARRAY:
        json_array_foreach(v, i, m) {
            n += est_walk(e, m) + 1;
        }
        return n + 2;
    case JSON_OBJECT:
        if (per_language(e, v)) {
            json_object_foreach(v, key, m) {
                apr_uint64_t bytes = est_walk(e, m);

                e->per_lang += bytes;
                if (e->fallback && strcmp(key, e->fallback) == 0) {
                    /* Also served in each language the object lacks. */
                    e->per_lang += bytes * (e->nlangs
                                            - json_object_size(v));
                }
            }
            return 0;
        }
        json_object_foreach(v, key, m) {
            n += strlen(key) + 4 + est_walk(e, m);
        }
        return n + 2;
    default:
        return 8;
    }
}

/* A page's bytes but for the data's text: its head, bar and footer
 * (profile_page.c; 1.6 to 2.4 KB with the sample's).  Markup per value
 * of the data (tags, classes, lang=).  Per byte of a page: its copy in
 * the store, its gzip and br forms (kept when smaller) and the buffer
 * it was written in.  Checked against the parent's peak with and
 * without a page of files of 22 KB to 2.8 MB (docs/performance.md). */
#define EST_PAGE_BODY 3072
#define EST_PAGE_PER_VALUE 48
#define EST_PAGE_PER_BYTE 3

void profile_estimate(profile_estimate_t *out, json_t *root,
                      const char **langs, int nlangs, apr_size_t len,
                      int npages)
{
    est_walk_t e = {.langs = langs, .nlangs = nlangs,
                    .fallback = json_string_value(json_object_get(
                                    root, "fallback"))};
    apr_uint64_t bodies = 2;
    int k;

    for (k = 0; k < PROFILE_COLL_COUNT; k++) {
        bodies += json_array_size(json_object_get(
                      root, profile_schema_colls[k].key)) + 1;
    }
    e.common = est_walk(&e, root);
    out->reps = bodies * (apr_uint64_t)nlangs;
    out->values = e.values;
    out->text = e.common * (apr_uint64_t)nlangs + e.per_lang;
    out->bytes = EST_FIXED + 2 * (apr_uint64_t)len + out->reps * EST_PER_REP
                 + out->values * EST_PER_VALUE
                 + out->text * EST_PER_BYTE;
    if (npages > 0) {
        /* Each place's pages: every text in the whole profile's page,
         * again in a record's own page or in the JSON-LD (at most
         * twice more), escaped; markup per value; a head per page. */
        apr_uint64_t pages = (apr_uint64_t)nlangs
            * (2 + json_array_size(json_object_get(root, "experience"))
               + json_array_size(json_object_get(root, "caseStudies")));
        apr_uint64_t text = 3 * (out->text + e.esc * (apr_uint64_t)nlangs)
            + out->values * EST_PAGE_PER_VALUE * (apr_uint64_t)nlangs
            + pages * EST_PAGE_BODY;

        out->reps += pages * (apr_uint64_t)npages;
        out->text += text * (apr_uint64_t)npages;
        out->bytes += (pages * EST_PER_REP + text * EST_PAGE_PER_BYTE)
                      * (apr_uint64_t)npages;
    }
    out->bound = (apr_uint64_t)len * PROFILE_MEMORY_FACTOR
                 + PROFILE_MEMORY_SLACK;
}

/* The refusal of a file whose load would take `bytes`, over `bound`:
 * what the estimate counted and what makes it fit. */
static const char *over_bound(const char *doing, apr_uint64_t bytes,
                              apr_uint64_t bound, const char *counted,
                              apr_size_t size, const char *remedy,
                              apr_pool_t *p)
{
    const double mb = 1024.0 * 1024.0;

    return apr_psprintf(p, "%s the data file would take about %.1f MB of "
                        "memory (%s), %.1f MB more than its memory limit of "
                        "%.1f MB (%d times its %" APR_SIZE_T_FMT " bytes "
                        "plus 8 MB); %s", doing, (double)bytes / mb, counted,
                        (double)(bytes - bound) / mb, (double)bound / mb,
                        PROFILE_MEMORY_FACTOR, size, remedy);
}

const char *profile_estimate_problem(const profile_estimate_t *est,
                                     apr_size_t size, apr_pool_t *p)
{
    if (est->bytes <= est->bound) {
        return NULL;
    }
    return over_bound("loading", est->bytes, est->bound,
                      apr_psprintf(p, "%" APR_UINT64_T_FMT " representations:"
                                   " records x languages", est->reps),
                      size, "fewer records or languages make it fit", p);
}

/* What parsing a text takes, as jansson 2.14 allocates it on glibc
 * (amd64), counted in malloc's chunks (usable size and size word) and
 * checked against the jansson that is linked by tests/unit/test_estimate.c
 * (a counting allocator, docs/performance.md).  Each constant is what a
 * value takes at most, not on average:
 *
 * - an object: json_object_t (80) and its first 8 buckets (144);
 * - an array: json_array_t (48) and its first 8 slots (80);
 * - a member besides its key's bytes: the pair (80 at most) and two
 *   buckets of 16 (a table of 2^k buckets holds more than 2^(k-1)
 *   members);
 * - a string besides its bytes: json_string_t (48) and the block of its
 *   bytes past them (32 at most);
 * - a number: json_integer_t or json_real_t (32);
 * - an array's slot: two of 8 (a table of 2^k slots holds more than
 *   2^(k-1) elements).  true, false and null are shared and cost only
 *   their slot.
 *
 * Besides the tree, the lexer keeps each token in one buffer that starts
 * at 16 bytes and doubles past the longest token.  And some blocks live
 * only while something grows, one thing at a time, so the largest of
 * them counts: while an array's table doubles, the old one (8 bytes per
 * element, the largest array's); while an object's hash table doubles,
 * the old one (16 per member, the largest object's); while a pair is
 * made, its key (its bytes plus 32 at most; held before, while the value
 * was parsed, it took less than the pair it becomes); while the lexer's
 * buffer doubles for the last time, the old one (half the new one).
 * That last one counts only when a number or a bare word made it double:
 * a string that did is not yet in the tree, and takes more than the old
 * buffer when it is.  The fixed part covers jansson's own few blocks,
 * the page past its size that a large block takes from mmap() and
 * malloc's own state. */
#define PARSE_PER_OBJECT 232
#define PARSE_PER_ARRAY 136
#define PARSE_PER_MEMBER 112
#define PARSE_PER_STRING 80
#define PARSE_PER_NUMBER 32
#define PARSE_PER_SLOT 16
#define PARSE_GROWTH_PER_SLOT 8
#define PARSE_GROWTH_PER_MEMBER 16
#define PARSE_PER_KEY 32
#define PARSE_LEXER_MIN 16
#define PARSE_FIXED (256 * 1024)

/* The open containers of the scan, as deep as jansson parses (18 KB of
 * stack; jansson's own recursion that deep takes far more). */
typedef struct {
    char kind[JSON_PARSER_MAX_DEPTH + 1];           /* '[' or '{' */
    apr_uint64_t n[JSON_PARSER_MAX_DEPTH + 1];      /* elements, members */
} parse_levels_t;

static apr_uint64_t max_u64(apr_uint64_t a, apr_uint64_t b)
{
    return a > b ? a : b;
}

void profile_estimate_parse(profile_parse_estimate_t *out, const char *buf,
                            apr_size_t len)
{
    apr_uint64_t objects = 0, arrays = 0, members = 0, strings = 0;
    apr_uint64_t numbers = 0, slots = 0, text = 0, pending = 0;
    /* The longest token the lexer keeps, and of them numbers and words;
     * the longest key; the elements of the largest array and the
     * members of the largest object. */
    apr_uint64_t longest = 0, longest_word = 0, longest_key = 0;
    apr_uint64_t most_slots = 0, most_members = 0;
    apr_uint64_t lexer = PARSE_LEXER_MIN, growth;
    const char *s = buf, *end = buf + len;
    int after_string = 0;   /* the last token was a string not yet known
                             * to be a key or a value */
    int opened = 0;         /* the last token opened an array */
    int depth = 0;
    parse_levels_t lv;

    while (s < end) {
        const char *tok = s;
        char c = *s++;

        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            continue;
        }
        if (opened) {
            /* An array's first element, unless it is empty. */
            opened = 0;
            if (c != ']') {
                slots++;
                most_slots = max_u64(most_slots, ++lv.n[depth]);
            }
        }
        switch (c) {
        case '"': {
            const char *q = s;

            if (after_string) {
                strings++;
                text += pending;
            }
            /* To the closing quote, escapes skipped; an unterminated
             * string runs to the end (jansson refuses it). */
            while (q < end && *q != '"') {
                q += (*q == '\\' && q + 1 < end) ? 2 : 1;
            }
            pending = (apr_uint64_t)(q - s);
            longest = max_u64(longest, pending + 2);    /* the quotes */
            after_string = 1;
            s = q < end ? q + 1 : end;
            continue;
        }
        case ':':
            members++;
            if (depth > 0 && lv.kind[depth] == '{') {
                most_members = max_u64(most_members, ++lv.n[depth]);
            }
            if (after_string) {
                text += pending;    /* a key: its bytes, in the member */
                longest_key = max_u64(longest_key, pending);
                after_string = 0;
            }
            continue;
        default:
            break;
        }
        if (after_string) {
            strings++;
            text += pending;
            after_string = 0;
        }
        switch (c) {
        case '{':
        case '[':
            /* jansson parses no deeper, and stops there: what it has
             * built is what comes before. */
            if (++depth > JSON_PARSER_MAX_DEPTH) {
                s = end;
                break;
            }
            lv.kind[depth] = c;
            lv.n[depth] = 0;
            if (c == '{') {
                objects++;
            }
            else {
                arrays++;
                opened = 1;
            }
            break;
        case '}':
        case ']':
        case ',':
            if (depth == 0) {
                break;
            }
            if (c != ',') {
                depth--;
            }
            else if (lv.kind[depth] == '[') {
                slots++;
                most_slots = max_u64(most_slots, ++lv.n[depth]);
            }
            break;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            numbers++;
            while (s < end && (apr_isdigit(*s) || *s == '.' || *s == 'e'
                               || *s == 'E' || *s == '+' || *s == '-')) {
                s++;
            }
            /* The lexer keeps the character after a number or a word
             * too, before it gives it back. */
            longest_word = max_u64(longest_word,
                                   (apr_uint64_t)(s - tok) + 1);
            break;
        default:
            if (apr_isalpha(c)) {
                /* true, false, null, or a word jansson refuses whole */
                while (s < end && apr_isalpha(*s)) {
                    s++;
                }
                longest_word = max_u64(longest_word,
                                       (apr_uint64_t)(s - tok) + 1);
            }
            break;
        }
    }
    if (after_string) {
        strings++;
        text += pending;
    }
    /* The lexer's buffer holds the longest token and its NUL. */
    longest = max_u64(longest, longest_word);
    while (lexer <= longest) {
        lexer *= 2;
    }
    /* What is alive only while something grows, one thing at a time. */
    growth = max_u64(most_slots * PARSE_GROWTH_PER_SLOT,
                     most_members * PARSE_GROWTH_PER_MEMBER);
    growth = max_u64(growth, longest_key + PARSE_PER_KEY);
    if (lexer > PARSE_LEXER_MIN && longest_word >= lexer / 2) {
        growth = max_u64(growth, lexer / 2);
    }
    out->values = objects + arrays + strings + numbers;
    out->bytes = PARSE_FIXED + (apr_uint64_t)len + text
                 + objects * PARSE_PER_OBJECT + arrays * PARSE_PER_ARRAY
                 + members * PARSE_PER_MEMBER + strings * PARSE_PER_STRING
                 + numbers * PARSE_PER_NUMBER + slots * PARSE_PER_SLOT
                 + lexer + growth;
    out->bound = (apr_uint64_t)len * PROFILE_MEMORY_FACTOR
                 + PROFILE_MEMORY_SLACK;
}

const char *profile_estimate_parse_problem(
    const profile_parse_estimate_t *est, apr_size_t len, apr_pool_t *p)
{
    if (est->bytes <= est->bound) {
        return NULL;
    }
    return over_bound("reading", est->bytes, est->bound,
                      apr_psprintf(p, "%" APR_UINT64_T_FMT " JSON values",
                                   est->values),
                      len, "fewer, larger values make it fit", p);
}

apr_status_t profile_store_estimate(profile_estimate_t *out,
                                    const char **errmsg,
                                    const char *buf, apr_size_t len,
                                    apr_pool_t *p)
{
    profile_problems_t *problems =
        profile_problems_make(p, PROFILE_PROBLEMS_SHOWN);
    profile_parse_estimate_t pest;
    json_error_t jerr;
    json_t *root = NULL;
    const char **langs;
    int nlangs;

    memset(out, 0, sizeof(*out));
    profile_estimate_parse(&pest, buf, len);
    if ((*errmsg = profile_estimate_parse_problem(&pest, len, p)) != NULL) {
        return APR_EINVAL;
    }
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL
        || profile_validate(root, &langs, &nlangs, problems, p) != 0) {
        *errmsg = root == NULL ? apr_pstrcat(p, "invalid JSON: ", jerr.text,
                                             NULL)
                  : profile_data_problems_message(problems,
                                                  PROFILE_PROBLEMS_SHOWN,
                                                  "data", p);
        json_decref(root);
        return APR_EINVAL;
    }
    profile_estimate(out, root, langs, nlangs, len, 0);
    json_decref(root);
    return APR_SUCCESS;
}
