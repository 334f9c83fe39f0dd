/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_li_read.c -- reads a LinkedIn data export ("Get a copy of your
 * data"): the ZIP as LinkedIn delivers it (libzip) or its unpacked
 * folder, and in it only the profile's CSV files (pc_li_files), each
 * parsed by libcsv as RFC 4180 CSV.  Nothing is extracted to disk: the
 * named entries are read into memory, at most PC_LI_MAX_BYTES in all,
 * and what the CSV holds is bounded too (PC_LI_MAX_FIELDS_PER_ROW,
 * PC_LI_MAX_ROWS, PC_LI_MAX_FIELDS): a few bytes of commas would
 * otherwise cost memory many times their size.  The export and its
 * files are opened as every input of profilectl is (pc_input.c).
 * Messages name the file and the line.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <apr_file_info.h>
#include <apr_strings.h>
#include <csv.h>
#include <zip.h>

#include "common/common.h"
#include "import/linkedin/linkedin.h"

const char *const pc_li_files[] = {
    "Profile.csv", "Positions.csv", "Education.csv", "Skills.csv",
    "Projects.csv", "Languages.csv", "Certifications.csv", "Honors.csv",
    "Courses.csv", "Publications.csv", "Volunteering.csv",
    "Organizations.csv", "Patents.csv", "Test Scores.csv",
    "Recommendations_Received.csv", NULL
};

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

/* pc_li_parse_csv, counting the fields against *budget (the fields the
 * whole export may still hold). */
static int parse_csv(pc_li_table_t **t, const char **err, const char *name,
                     const char *text, apr_size_t len, apr_size_t *budget,
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

    return parse_csv(t, err, name, text, len, &budget, p);
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

/* The file of pc_li_files that `path` (an entry of a ZIP) is, or NULL. */
static const char *known_name(const char *path)
{
    const char *base = strrchr(path, '/');
    int i;

    base = base ? base + 1 : path;
    for (i = 0; pc_li_files[i]; i++) {
        if (strcmp(base, pc_li_files[i]) == 0) {
            return pc_li_files[i];
        }
    }
    return NULL;
}

static int add_table(apr_hash_t *files, const char **err, const char *name,
                     const char *label, const char *text, apr_size_t len,
                     apr_size_t *budget, apr_pool_t *p)
{
    pc_li_table_t *t;

    if (parse_csv(&t, err, apr_pstrcat(p, label, name, NULL), text, len,
                  budget, p) < 0) {
        return -1;
    }
    t->name = name;
    apr_hash_set(files, name, APR_HASH_KEY_STRING, t);
    return 0;
}

/* Reads up to `size` bytes of entry zf into *buf (malloc'd: the caller
 * frees it): memory grows with what the entry holds, not with the size
 * its header claims, and by realloc, so that the peak is the entry's
 * size, not twice it.  The bytes read, -1 (libzip's error) or -2 (out of
 * memory). */
static zip_int64_t read_entry(char **buf, zip_file_t *zf, zip_uint64_t size)
{
    zip_uint64_t cap = size < 65536 ? size : 65536, have = 0;
    zip_int64_t got;
    char *b = malloc(cap + 1), *nb;

    *buf = b;
    if (b == NULL) {
        return -2;
    }
    while (have < size) {
        if (have == cap) {
            cap = cap * 2 < size ? cap * 2 : size;
            if ((nb = realloc(b, cap + 1)) == NULL) {
                return -2;
            }
            *buf = b = nb;
        }
        got = zip_fread(zf, b + have, cap - have);
        if (got < 0) {
            return -1;
        }
        if (got == 0) {
            break;
        }
        have += got;
    }
    return (zip_int64_t)have;
}

static int read_zip(apr_hash_t *files, const char **err, const char *label,
                    zip_t *z, apr_pool_t *p)
{
    zip_int64_t i, count = zip_get_num_entries(z, 0);
    zip_uint64_t total = 0;
    apr_size_t budget = PC_LI_MAX_FIELDS;
    zip_stat_t zs;
    zip_file_t *zf;
    zip_int64_t got;
    const char *name, *prefix;
    char *buf, extra;
    int rv;

    for (i = 0; i < count; i++) {
        if (zip_stat_index(z, i, 0, &zs) != 0
            || !(zs.valid & ZIP_STAT_NAME)
            || (name = known_name(zs.name)) == NULL) {
            continue;
        }
        prefix = apr_pstrcat(p, label, ":", zs.name, NULL);
        if (apr_hash_get(files, name, APR_HASH_KEY_STRING) != NULL) {
            *err = apr_psprintf(p, "%s: a second %s in the archive; which "
                                "is the export?", prefix, name);
            return -1;
        }
        if (!(zs.valid & ZIP_STAT_SIZE) || zs.size > PC_LI_MAX_BYTES
            || total + zs.size > PC_LI_MAX_BYTES) {
            *err = apr_psprintf(p, "%s: larger than the %d MB an export's "
                                "profile files may take together", prefix,
                                PC_LI_MAX_BYTES / (1024 * 1024));
            return -1;
        }
        total += zs.size;
        if ((zf = zip_fopen_index(z, i, 0)) == NULL) {
            *err = apr_psprintf(p, "%s: cannot read it: %s", prefix,
                                zip_strerror(z));
            return -1;
        }
        got = read_entry(&buf, zf, zs.size);
        /* An entry that holds more than it says is refused, not read. */
        if (got < 0 || (zip_uint64_t)got != zs.size
            || zip_fread(zf, &extra, 1) != 0) {
            *err = apr_psprintf(p, "%s: cannot read it: %s", prefix,
                                got == -2 ? "out of memory"
                                : got < 0 ? zip_file_strerror(zf)
                                : "not the size the archive says");
            free(buf);
            zip_fclose(zf);
            return -1;
        }
        zip_fclose(zf);
        rv = add_table(files, err, name, "", buf, zs.size, &budget, p);
        free(buf);
        if (rv < 0) {
            *err = apr_pstrcat(p, label, ":", zs.name, ":",
                               *err + strlen(name) + 1, NULL);
            return -1;
        }
    }
    return 0;
}

int pc_li_read_zip_buffer(apr_hash_t **files, const char **err,
                          const char *label, const void *data,
                          apr_size_t len, apr_pool_t *p)
{
    zip_error_t ze;
    zip_source_t *src;
    zip_t *z;
    int rv;

    *files = apr_hash_make(p);
    zip_error_init(&ze);
    if ((src = zip_source_buffer_create(data, len, 0, &ze)) == NULL) {
        *err = apr_psprintf(p, "%s: %s", label, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return -1;
    }
    if ((z = zip_open_from_source(src, ZIP_RDONLY, &ze)) == NULL) {
        *err = apr_psprintf(p, "%s: not a ZIP archive: %s", label,
                            zip_error_strerror(&ze));
        zip_source_free(src);
        zip_error_fini(&ze);
        return -1;
    }
    zip_error_fini(&ze);
    rv = read_zip(*files, err, label, z, p);
    zip_discard(z);
    return rv;
}

int pc_li_read_export(apr_hash_t **files, const char **err,
                      const char *path, apr_pool_t *p)
{
    apr_finfo_t fi;
    apr_status_t rv;
    apr_size_t len, total = 0, budget = PC_LI_MAX_FIELDS;
    const char *file;
    char *buf, msg[120];
    int i, fd, zerr;
    zip_t *z;

    *files = apr_hash_make(p);
    if ((rv = apr_stat(&fi, path, APR_FINFO_TYPE, p)) != APR_SUCCESS) {
        *err = apr_psprintf(p, "%s: cannot read it: %s", path,
                            apr_strerror(rv, msg, sizeof(msg)));
        return -1;
    }
    if (fi.filetype != APR_DIR) {
        if (pc_input_open(&fd, err, path, p) < 0) {
            return -1;
        }
        if ((z = zip_fdopen(fd, 0, &zerr)) == NULL) {
            zip_error_t ze;

            close(fd);
            zip_error_init_with_code(&ze, zerr);
            *err = apr_psprintf(p, "%s: neither a folder nor a ZIP archive "
                                "(%s)", path, zip_error_strerror(&ze));
            zip_error_fini(&ze);
            return -1;
        }
        i = read_zip(*files, err, path, z, p);
        zip_discard(z);
        return i;
    }
    for (i = 0; pc_li_files[i]; i++) {
        file = apr_pstrcat(p, path, "/", pc_li_files[i], NULL);
        if (apr_stat(&fi, file, APR_FINFO_TYPE, p) != APR_SUCCESS) {
            continue;
        }
        if (pc_input_read(&buf, &len, err, file, PC_LI_MAX_BYTES, p) < 0) {
            return -1;
        }
        if ((total += len) > PC_LI_MAX_BYTES) {
            *err = apr_psprintf(p, "%s: its profile files take more than "
                                "%d MB", path,
                                PC_LI_MAX_BYTES / (1024 * 1024));
            return -1;
        }
        if (add_table(*files, err, pc_li_files[i], "", buf, len, &budget,
                      p) < 0) {
            *err = apr_pstrcat(p, path, "/", *err, NULL);
            return -1;
        }
    }
    return 0;
}
