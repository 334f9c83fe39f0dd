/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_locate.c -- where in a data file's text each problem stands:
 * the line and column at which the value a problem's JSON path names
 * begins (CONTRACT §9: a problem names its line and column, or its
 * path; with this, a shape problem names both).  jansson keeps no
 * positions, so the text is read once more, only for a file already
 * refused, and only as far as the paths are concerned: each value's
 * path is built the way profile_validate.c writes it ("$.skills[3]
 * .title", keys made printable) and looked up among the problems'.
 *
 * The text is one jansson parsed (refused for its shape, not its
 * syntax), so the reading below trusts its grammar; it still stops at
 * the end of the buffer and below a depth, whatever the text holds.
 *
 * Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>

#include "profile_locate.h"
#include "profile_text.h"

#define LOCATE_MAX_DEPTH 512        /* deeper values keep no position */
#define LOCATE_MAX_PATH 4096        /* nor do values with longer paths */

typedef struct {
    int line, column;
} where_t;

typedef struct {
    const char *s, *end;
    int line;
    const char *line_start;
    const char *col_at;             /* column() counted up to here, */
    int col;                        /* where the column was col */
    apr_hash_t *wanted;             /* path -> where_t (0: not met yet),
                                     * the problems' and those above */
    apr_pool_t *tmp;                /* a member's key while it is read */
    char path[LOCATE_MAX_PATH];
    apr_size_t plen;
    apr_pool_t *p;
} scan_t;

/* A new line begins at `at`. */
static void new_line(scan_t *sc, const char *at)
{
    sc->line++;
    sc->line_start = sc->col_at = at;
    sc->col = 1;
}

static void skip_ws(scan_t *sc)
{
    while (sc->s < sc->end && (*sc->s == ' ' || *sc->s == '\t'
                               || *sc->s == '\n' || *sc->s == '\r')) {
        if (*sc->s == '\n') {
            new_line(sc, sc->s + 1);
        }
        sc->s++;
    }
}

/* The column of the current position as jansson counts it: in code
 * points from 1.  Counted on from where it was last asked on this line,
 * so that a file on one line costs one pass, not one per problem. */
static int column(scan_t *sc)
{
    const char *c;

    for (c = sc->col_at; c < sc->s; c++) {
        sc->col += (*c & 0xC0) != 0x80;
    }
    sc->col_at = sc->s;
    return sc->col;
}

static void put_utf8(char *out, apr_size_t *n, unsigned long cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    }
    else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
    else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
    else {
        out[(*n)++] = (char)(0xF0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static unsigned long hex4(const char *s)
{
    unsigned long v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        char c = s[i];

        v = v * 16 + (unsigned long)(c <= '9' ? c - '0'
                                     : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Reads the string at sc->s (its opening quote); with `out`, its
 * decoded bytes (at most their encoded length) and *n their number. */
static void read_string(scan_t *sc, char *out, apr_size_t *n)
{
    sc->s++;
    while (sc->s < sc->end && *sc->s != '"') {
        if (*sc->s == '\\' && sc->s + 1 < sc->end) {
            char e = sc->s[1];
            unsigned long cp;

            sc->s += 2;
            if (e != 'u' || sc->end - sc->s < 4) {
                if (out) {
                    out[(*n)++] = e == 'n' ? '\n' : e == 't' ? '\t'
                                  : e == 'r' ? '\r' : e == 'b' ? '\b'
                                  : e == 'f' ? '\f' : e;
                }
                continue;
            }
            cp = hex4(sc->s);
            sc->s += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && sc->end - sc->s >= 6
                && sc->s[0] == '\\' && sc->s[1] == 'u') {
                cp = 0x10000 + ((cp - 0xD800) << 10)
                     + (hex4(sc->s + 2) - 0xDC00);
                sc->s += 6;
            }
            if (out) {
                put_utf8(out, n, cp);
            }
            continue;
        }
        if (out) {
            out[(*n)++] = *sc->s;
        }
        sc->s++;
    }
    if (sc->s < sc->end) {
        sc->s++;
    }
}

/* Appends s (len bytes) to the current path; 0 when it does not fit. */
static int push(scan_t *sc, const char *s, apr_size_t len)
{
    if (sc->plen + len >= sizeof(sc->path)) {
        return 0;
    }
    memcpy(sc->path + sc->plen, s, len);
    sc->plen += len;
    sc->path[sc->plen] = '\0';
    return 1;
}

static void value(scan_t *sc, int depth, int named);

/* The members of the object at sc->s (its '{'). */
static void object(scan_t *sc, int depth, int named)
{
    apr_size_t at = sc->plen;

    sc->s++;
    for (;;) {
        int member;
        char *key;
        apr_size_t klen = 0;
        const char *start, *printable;

        skip_ws(sc);
        if (sc->s >= sc->end || *sc->s != '"') {
            break;
        }
        start = sc->s;
        read_string(sc, NULL, NULL);
        member = 0;
        if (named) {
            /* Its path, only below a path that leads to a problem. */
            key = apr_palloc(sc->tmp, (apr_size_t)(sc->s - start) + 1);
            sc->s = start;
            read_string(sc, key, &klen);
            printable = profile_text_printable(key, klen, 64, sc->tmp);
            member = push(sc, ".", 1)
                     && push(sc, printable, strlen(printable));
            apr_pool_clear(sc->tmp);
        }
        skip_ws(sc);
        if (sc->s < sc->end && *sc->s == ':') {
            sc->s++;
        }
        value(sc, depth + 1, member);
        sc->plen = at;
        sc->path[at] = '\0';
        skip_ws(sc);
        if (sc->s < sc->end && *sc->s == ',') {
            sc->s++;
        }
    }
    if (sc->s < sc->end) {
        sc->s++;                    /* '}' */
    }
}

/* The elements of the array at sc->s (its '['). */
static void array(scan_t *sc, int depth, int named)
{
    apr_size_t at = sc->plen, i = 0;
    char index[32];

    sc->s++;
    for (;;) {
        skip_ws(sc);
        if (sc->s >= sc->end || *sc->s == ']') {
            break;
        }
        if (named) {
            apr_snprintf(index, sizeof(index), "[%" APR_SIZE_T_FMT "]", i);
        }
        i++;
        value(sc, depth + 1, named && push(sc, index, strlen(index)));
        sc->plen = at;
        sc->path[at] = '\0';
        skip_ws(sc);
        if (sc->s < sc->end && *sc->s == ',') {
            sc->s++;
        }
        else {
            break;
        }
    }
    if (sc->s < sc->end) {
        sc->s++;                    /* ']' */
    }
}

/* The value at sc->s, whose path is sc->path when `named`. */
static void value(scan_t *sc, int depth, int named)
{
    const char *s;

    skip_ws(sc);
    if (sc->s >= sc->end) {
        return;
    }
    if (named) {
        where_t *w = apr_hash_get(sc->wanted, sc->path, sc->plen);

        if (w == NULL) {
            named = 0;      /* no problem's path goes through this value */
        }
        else if (w->line == 0) {
            w->line = sc->line;
            w->column = column(sc);
        }
    }
    named = named && depth < LOCATE_MAX_DEPTH;
    switch (*sc->s) {
    case '{':
        if (depth < LOCATE_MAX_DEPTH) {
            object(sc, depth, named);
            return;
        }
        break;
    case '[':
        if (depth < LOCATE_MAX_DEPTH) {
            array(sc, depth, named);
            return;
        }
        break;
    case '"':
        read_string(sc, NULL, NULL);
        return;
    default:
        for (s = sc->s; s < sc->end && !strchr(",]} \t\r\n", *s); s++) {
        }
        sc->s = s;
        return;
    }
    /* Too deep to follow: past this value, brackets counted. */
    {
        int open = 0;

        do {
            if (*sc->s == '"') {
                read_string(sc, NULL, NULL);
                continue;
            }
            if (*sc->s == '\n') {
                new_line(sc, sc->s + 1);
            }
            open += (*sc->s == '{' || *sc->s == '[')
                    - (*sc->s == '}' || *sc->s == ']');
            sc->s++;
        } while (open > 0 && sc->s < sc->end);
    }
}

/* The length of the path above path[0..n) ("$.a[2].b" -> "$.a[2]"),
 * 0 above "$". */
static apr_size_t up(const char *path, apr_size_t n)
{
    while (n > 1) {
        n--;
        if (path[n] == '.' || path[n] == '[') {
            return n;
        }
    }
    return 0;
}

void profile_data_problems_locate(profile_problems_t *kept,
                                  const char *buf, apr_size_t len,
                                  apr_pool_t *p)
{
    apr_array_header_t *problems = kept->list;
    scan_t *sc;
    int i, any = 0;

    for (i = 0; i < problems->nelts; i++) {
        any |= APR_ARRAY_IDX(problems, i, profile_data_problem_t).path
               != NULL;
    }
    if (!any) {
        return;
    }
    sc = apr_pcalloc(p, sizeof(*sc));
    sc->p = p;
    sc->s = sc->line_start = sc->col_at = buf;
    sc->col = 1;
    sc->end = buf + len;
    sc->line = 1;
    if (apr_pool_create(&sc->tmp, p) != APR_SUCCESS) {
        return;
    }
    sc->wanted = apr_hash_make(p);
    /* Each path and the paths above it: a missing member is located at
     * the object that lacks it. */
    for (i = 0; i < problems->nelts; i++) {
        const char *path =
            APR_ARRAY_IDX(problems, i, profile_data_problem_t).path;
        apr_size_t n = path != NULL ? strlen(path) : 0;

        while (n > 0) {
            if (apr_hash_get(sc->wanted, path, n) == NULL) {
                apr_hash_set(sc->wanted, path, n,
                             apr_pcalloc(p, sizeof(where_t)));
            }
            n = up(path, n);
        }
    }
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        sc->s += 3;                 /* a BOM, which jansson would refuse */
    }
    sc->path[0] = '$';
    sc->plen = 1;
    value(sc, 0, 1);
    for (i = 0; i < problems->nelts; i++) {
        profile_data_problem_t *pr =
            &APR_ARRAY_IDX(problems, i, profile_data_problem_t);
        where_t *w;

        apr_size_t n = pr->path != NULL ? strlen(pr->path) : 0;

        for (; pr->line == 0 && n > 0; n = up(pr->path, n)) {
            if ((w = apr_hash_get(sc->wanted, pr->path, n)) != NULL
                && w->line > 0) {
                pr->line = w->line;
                pr->column = w->column;
            }
        }
    }
}
