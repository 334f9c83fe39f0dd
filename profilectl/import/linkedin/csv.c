/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/csv.c -- one CSV file of a LinkedIn export, parsed by
 * libcsv as RFC 4180 CSV into rows of fields (pc_li_table_t): every
 * field UTF-8 without NUL, each row as many fields as the header, and
 * what a file holds bounded (PC_LI_MAX_FIELDS_PER_ROW, PC_LI_MAX_ROWS,
 * and the fields of the whole export, PC_LI_MAX_FIELDS).  Messages name
 * the file and the line.  Links without profilectl.c, for the fuzz
 * programs.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <csv.h>

#include "import/linkedin/linkedin.h"

/* The parser's state between libcsv's callbacks. */
typedef struct {
    apr_pool_t *p;
    pc_li_table_t *t;
    apr_array_header_t *fields; /* const char *: the row being read */
    int line;                   /* the physical line being fed */
    int row_line;               /* where the row being read starts; 0:
                                 * between rows */
    int have_header;
    int rows;                   /* rows seen, blank ones included */
    apr_size_t *budget;         /* fields the export may still hold */
    const char *over;           /* set when a bound is passed: the
                                 * message; nothing more is kept */
} csv_state_t;

static void on_field(void *s, size_t len, void *data)
{
    csv_state_t *st = data;

    if (st->over != NULL) {
        return;
    }
    if (st->fields->nelts == PC_LI_MAX_FIELDS_PER_ROW) {
        st->over = apr_psprintf(st->p, "%s:%d: more than %d fields in a "
                                "row (LinkedIn's files have fewer than 30 "
                                "columns)", st->t->name, st->row_line
                                ? st->row_line : st->line,
                                PC_LI_MAX_FIELDS_PER_ROW);
        return;
    }
    if (*st->budget == 0) {
        st->over = apr_psprintf(st->p, "%s:%d: more than %d fields in the "
                                "export's profile files together",
                                st->t->name, st->line, PC_LI_MAX_FIELDS);
        return;
    }
    --*st->budget;
    APR_ARRAY_PUSH(st->fields, const char *) = apr_pstrmemdup(st->p, s, len);
}

static void on_row(int c, void *data)
{
    csv_state_t *st = data;
    pc_li_row_t r;
    int i, any = 0;

    (void)c;
    if (st->over == NULL && ++st->rows > PC_LI_MAX_ROWS) {
        st->over = apr_psprintf(st->p, "%s:%d: more than %d rows",
                                st->t->name, st->row_line ? st->row_line
                                : st->line, PC_LI_MAX_ROWS);
    }
    if (st->over != NULL) {
        st->fields->nelts = 0;
        st->row_line = 0;
        return;
    }
    r.line = st->row_line ? st->row_line : st->line;
    r.n = st->fields->nelts;
    r.f = apr_pmemdup(st->p, st->fields->elts,
                      (r.n ? r.n : 1) * sizeof(const char *));
    st->fields->nelts = 0;
    st->row_line = 0;
    for (i = 0; i < r.n; i++) {
        any |= r.f[i][0] != '\0';
    }
    if (!st->have_header) {
        st->t->header = r;
        st->have_header = 1;
    }
    else if (any) {
        APR_ARRAY_PUSH(st->t->rows, pc_li_row_t) = r;
    }
}

/* Every byte is field text: libcsv's default trims spaces and tabs
 * around unquoted fields. */
static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

/* The length of the well-formed UTF-8 sequence at s (n bytes left), or
 * 0: overlong forms, surrogates, code points over U+10FFFF and NUL are
 * not. */
static int utf8_len(const unsigned char *s, apr_size_t n)
{
    int k, i;
    unsigned int cp;

    if (s[0] == 0) {
        return 0;
    }
    if (s[0] < 0x80) {
        return 1;
    }
    k = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
        : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (k == 0 || (apr_size_t)k > n) {
        return 0;
    }
    cp = s[0] & (0x7f >> k);
    for (i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
        || (k == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
        return 0;
    }
    return k;
}

int pc_li_parse_csv_within(pc_li_table_t **t, const char **err,
                           const char *name, const char *text,
                           apr_size_t len, apr_size_t *budget,
                           apr_pool_t *p)
{
    struct csv_parser cp;
    csv_state_t st;
    const unsigned char *s = (const unsigned char *)text, *end;
    const unsigned char *eol;
    apr_size_t i, n;
    int k, blank, rv = -1;

    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        s += 3;
        len -= 3;
    }
    end = s + len;
    memset(&st, 0, sizeof(st));
    st.p = p;
    st.budget = budget;
    st.t = apr_pcalloc(p, sizeof(*st.t));
    st.t->name = name;
    st.t->rows = apr_array_make(p, 16, sizeof(pc_li_row_t));
    st.fields = apr_array_make(p, 16, sizeof(const char *));
    if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        *err = apr_psprintf(p, "%s: out of memory", name);
        return -1;
    }
    csv_set_space_func(&cp, no_space);
    /* Line by line, so that every row and every message knows its
     * line. */
    while (s < end) {
        st.line++;
        /* A line ends at LF, CRLF or a lone CR, as libcsv's rows do. */
        for (eol = s; eol < end && *eol != '\n'
                      && !(*eol == '\r' && (eol + 1 == end
                                             || eol[1] != '\n')); eol++) {
        }
        n = eol < end ? (apr_size_t)(eol - s) + 1 : (apr_size_t)(end - s);
        blank = 1;
        for (i = 0; i < n; i += k) {
            if ((k = utf8_len(s + i, n - i)) == 0) {
                *err = apr_psprintf(p, "%s:%d: not UTF-8 text (byte 0x%02x "
                                    "at column " "%" APR_SIZE_T_FMT ")",
                                    name, st.line, s[i], i + 1);
                goto leave;
            }
            blank &= s[i] == '\r' || s[i] == '\n';
        }
        if (st.row_line == 0 && !blank) {
            st.row_line = st.line;
        }
        if (csv_parse(&cp, s, n, on_field, on_row, &st) != n) {
            *err = apr_psprintf(p, "%s:%d: not CSV: %s (a quote inside a "
                                "quoted field must be doubled)", name,
                                st.line, csv_strerror(csv_error(&cp)));
            goto leave;
        }
        if (st.over != NULL) {
            *err = st.over;
            goto leave;
        }
        s += n;
    }
    if (csv_fini(&cp, on_field, on_row, &st) != 0 || st.over != NULL) {
        if (st.over != NULL) {
            *err = st.over;
            goto leave;
        }
        *err = apr_psprintf(p, "%s:%d: not CSV: the quoted field of the row "
                            "that starts there is never closed", name,
                            st.row_line ? st.row_line : st.line);
        goto leave;
    }
    if (!st.have_header) {
        *err = apr_psprintf(p, "%s: empty (no header row)", name);
        goto leave;
    }
    for (k = 0; k < st.t->rows->nelts; k++) {
        pc_li_row_t *r = &APR_ARRAY_IDX(st.t->rows, k, pc_li_row_t);

        if (r->n != st.t->header.n) {
            *err = apr_psprintf(p, "%s:%d: %d field%s where the header has "
                                "%d", name, r->line, r->n,
                                r->n == 1 ? "" : "s", st.t->header.n);
            goto leave;
        }
    }
    *t = st.t;
    rv = 0;
leave:
    csv_free(&cp);
    return rv;
}

int pc_li_parse_csv(pc_li_table_t **t, const char **err, const char *name,
                    const char *text, apr_size_t len, apr_pool_t *p)
{
    apr_size_t budget = PC_LI_MAX_FIELDS;

    return pc_li_parse_csv_within(t, err, name, text, len, &budget, p);
}

const char *pc_li_get(const pc_li_table_t *t, const pc_li_row_t *r,
                      const char *col)
{
    int i;

    for (i = 0; i < t->header.n && i < r->n; i++) {
        if (strcmp(t->header.f[i], col) == 0) {
            return r->f[i];
        }
    }
    return NULL;
}

