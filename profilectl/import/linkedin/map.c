/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/map.c -- what the mapping of the export's files
 * (linkedin.c, extras.c) reads them with (map.h): a file whose header is
 * a layout the mapping knows, a column of a row, a date as LinkedIn
 * writes it, the rows of a file as entries, the columns not imported.
 */
#include <string.h>

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_text.h"
#include "import/linkedin/map.h"

#define LI_DATE_FORMS "Mon YYYY, YYYY, M/YYYY or Mon D, YYYY (Jun 2018, " \
    "2008, 8/2004, Jun 5, 2018)"

/* The name column c has in t's header (its current or an older one),
 * or NULL. */
static const char *col_name(const pc_li_table_t *t, const li_col_t *c)
{
    int k, i;

    for (k = 0; k < 3 && c->names[k]; k++) {
        for (i = 0; i < t->header.n; i++) {
            if (strcmp(t->header.f[i], c->names[k]) == 0) {
                return c->names[k];
            }
        }
    }
    return NULL;
}

pc_li_table_t *pc_li_table(li_t *li, const char *name,
                           const li_col_t *cols)
{
    apr_pool_t *p = li->im.c.p;
    pc_li_table_t *t = apr_hash_get(li->files, name, APR_HASH_KEY_STRING);
    const char *expected = "", *missing = "";
    const li_col_t *c;

    if (t == NULL) {
        return NULL;
    }
    for (c = cols; c->names[0]; c++) {
        const char *n = c->names[1]
                        ? apr_psprintf(p, "%s (or %s)", c->names[0],
                                       c->names[1]) : c->names[0];

        if (!c->required) {
            continue;
        }
        expected = apr_pstrcat(p, expected, *expected ? ", " : "", n, NULL);
        if (col_name(t, c) == NULL) {
            missing = apr_pstrcat(p, missing, *missing ? ", " : "", n, NULL);
        }
    }
    if (*missing) {
        pc_jr_fail(&li->im.c, "%s/%s:1: a layout LinkedIn does not write "
                   "(columns %s): expected the columns %s; missing %s",
                   li->path, name,
                   pc_jr_join(t->header.n, t->header.f, ", ", p), expected,
                   missing);
        li->bad = 1;
        return NULL;
    }
    return t;
}

const char *pc_li_col(li_t *li, const pc_li_table_t *t,
                      const pc_li_row_t *r, const li_col_t *c)
{
    const char *n = col_name(t, c), *s = n ? pc_li_get(t, r, n) : NULL;
    apr_size_t len = s ? strlen(s) : 0;

    profile_text_trim(&s, &len);
    return s ? apr_pstrmemdup(li->im.c.p, s, len) : "";
}

void pc_li_drop_columns(li_t *li, const pc_li_table_t *t,
                        const li_col_t *cols)
{
    const li_col_t *c;
    int i, k, n, used;

    for (i = 0; i < t->header.n; i++) {
        used = 0;
        for (c = cols; c->names[0]; c++) {
            for (k = 0; k < 3 && c->names[k]; k++) {
                used |= strcmp(c->names[k], t->header.f[i]) == 0;
            }
        }
        if (used) {
            continue;
        }
        n = 0;
        for (k = 0; k < t->rows->nelts; k++) {
            const pc_li_row_t *r = &APR_ARRAY_IDX(t->rows, k, pc_li_row_t);
            const char *v = r->f[i];

            while (apr_isspace(*v)) {
                v++;
            }
            n += *v != '\0';
        }
        if (n) {
            pc_jr_drop(&li->im, apr_psprintf(li->im.c.p, "%s %s", t->name,
                                             t->header.f[i]), n);
        }
    }
}

void pc_li_put_date(li_t *li, json_t *obj, const char *key,
                    const pc_li_table_t *t, const pc_li_row_t *r,
                    const li_col_t *c)
{
    const char *text = pc_li_col(li, t, r, c), *iso;
    int rv;

    if (!*text) {
        return;
    }
    rv = pc_jr_read_date(&iso, text, 0, li->im.c.p);
    if (rv > 0 && *iso) {
        pc_jr_assume(&li->im, -1, "%s/%s:%d: %s \"%s\" read as %s",
                     li->path, t->name, r->line, col_name(t, c), text, iso);
    }
    if (rv < 0 || !*iso) {
        pc_jr_fail(&li->im.c, "%s/%s:%d: %s \"%s\" is not a date: LinkedIn "
                   "writes " LI_DATE_FORMS, li->path, t->name, r->line,
                   col_name(t, c), text);
        li->bad = 1;
        return;
    }
    pc_jr_set_str(obj, key, iso);
}

json_t *pc_li_rows(li_t *li, const char *name, const li_col_t *cols,
                   li_row_fn fill)
{
    json_t *all = json_array(), *e;
    pc_li_table_t *t = pc_li_table(li, name, cols);
    int i;

    if (t == NULL) {
        return all;
    }
    for (i = 0; i < t->rows->nelts; i++) {
        e = json_object();
        json_array_append_new(all, e);
        fill(li, t, &APR_ARRAY_IDX(t->rows, i, pc_li_row_t), e);
    }
    pc_li_drop_columns(li, t, cols);
    return all;
}
