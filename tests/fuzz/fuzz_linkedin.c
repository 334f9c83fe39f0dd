/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_linkedin.c -- what profilectl import-linkedin reads of a LinkedIn
 * export (profilectl/import/linkedin/read.c): a CSV file (libcsv) or a whole ZIP
 * archive in memory (libzip, then libcsv on each profile file in it).
 *
 * Input: 1 byte (bit 0: a ZIP archive, else one CSV file), then the
 * bytes.  Invariants: the result is 0 or -1; -1 comes with a message
 * naming the file; a CSV read has a header, every row has as many
 * fields as the header, rows start on increasing lines after the header,
 * and every field is UTF-8 without NUL; a ZIP read holds only files of
 * pc_li_files, each so read.
 */
#include <string.h>

#define FUZZ_NAME linkedin
#include "fuzz.h"
#include "import/linkedin/linkedin.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

/* Well-formed UTF-8 without NUL (the reader's own rule, written again
 * the plain way). */
static int utf8_ok(const unsigned char *s)
{
    int k, i;

    while (*s) {
        k = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0
            ? 3 : (*s & 0xf8) == 0xf0 ? 4 : 0;
        if (k == 0) {
            return 0;
        }
        for (i = 1; i < k; i++) {
            if ((s[i] & 0xc0) != 0x80) {
                return 0;
            }
        }
        s += k;
    }
    return 1;
}

static void check_table(const pc_li_table_t *t, const char *name)
{
    int i, j, line = t->header.line;

    FUZZ_CHECK(t->header.n >= 1, "%s: a header of no field", name);
    for (j = 0; j < t->header.n; j++) {
        FUZZ_CHECK(utf8_ok((const unsigned char *)t->header.f[j]),
                   "%s: header field %d not UTF-8", name, j);
    }
    for (i = 0; i < t->rows->nelts; i++) {
        const pc_li_row_t *r = &APR_ARRAY_IDX(t->rows, i, pc_li_row_t);

        FUZZ_CHECK(r->n == t->header.n, "%s:%d: %d fields, header %d", name,
                   r->line, r->n, t->header.n);
        FUZZ_CHECK(r->line > line, "%s: row on line %d after line %d", name,
                   r->line, line);
        line = r->line;
        for (j = 0; j < r->n; j++) {
            FUZZ_CHECK(utf8_ok((const unsigned char *)r->f[j]),
                       "%s:%d: field %d not UTF-8", name, r->line, j);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p;
    apr_hash_t *files;
    apr_hash_index_t *hi;
    pc_li_table_t *t;
    const char *err = NULL, *name;
    int rv, i, known;

    if (size < 1) {
        return 0;
    }
    apr_pool_create(&p, fuzz_root);
    if (data[0] & 1) {
        rv = pc_li_read_zip_buffer(&files, &err, "export.zip", data + 1,
                                   size - 1, p);
        FUZZ_CHECK(rv == 0 || rv == -1, "zip: %d", rv);
        FUZZ_CHECK(rv == 0 || (err && strncmp(err, "export.zip", 10) == 0),
                   "zip: %s", err ? err : "no message");
        for (hi = apr_hash_first(p, files); rv == 0 && hi;
             hi = apr_hash_next(hi)) {
            apr_hash_this(hi, (const void **)&name, NULL, (void **)&t);
            for (known = 0, i = 0; pc_li_files[i]; i++) {
                known |= strcmp(pc_li_files[i], name) == 0;
            }
            FUZZ_CHECK(known, "zip: read %s", name);
            check_table(t, name);
        }
    }
    else {
        rv = pc_li_parse_csv(&t, &err, "Positions.csv",
                             (const char *)data + 1, size - 1, p);
        FUZZ_CHECK(rv == 0 || rv == -1, "csv: %d", rv);
        FUZZ_CHECK(rv == 0 || (err && strncmp(err, "Positions.csv", 13)
                                      == 0),
                   "csv: %s", err ? err : "no message");
        if (rv == 0) {
            check_table(t, "Positions.csv");
        }
    }
    apr_pool_destroy(p);
    return 0;
}
