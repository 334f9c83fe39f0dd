/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/write_array.c -- a section of the data file written from the
 * entries of every language, lined up (pair.c): one entry per row, its
 * id made (ids.c), filled by the section's own fill function.
 */
#include <apr_hash.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"

/* Lines up the arrays a->key of parents (one per language) and appends
 * to array `to` of out (made when absent) one entry per row, filled by
 * fill; with id_fallback, each gets an id first (pc_jr_make_id).  Every
 * problem is set; returns -1 when there is one. */
int pc_jr_import_array(jr_import_t *im, json_t **parents,
                       const jr_array_t *a, json_t *out, const char *to,
                       const char *id_fallback, jr_fill_fn fill)
{
    json_t *all = json_object_get(out, to), *e, *first;
    json_t *arrs[JR_MAX_LANGS], *entries[JR_MAX_LANGS];
    apr_hash_t *ids = apr_hash_make(im->c.p);
    size_t r, nrows;
    long *row, *idx;
    int l, f, bad = 0;

    if (all == NULL) {
        all = json_array();
        json_object_set_new(out, to, all);
    }
    for (l = 0; l < im->n; l++) {
        arrs[l] = json_object_get(parents[l], a->key);
        if (!json_is_array(arrs[l])) {
            arrs[l] = NULL;     /* json_array_size(NULL) == 0 */
        }
    }
    row = pc_jr_line_up(im, arrs, a, &nrows);
    for (r = 0; r < nrows; r++) {
        idx = row + r * JR_MAX_LANGS;
        f = -1;
        for (l = 0; l < im->n; l++) {
            entries[l] = idx[l] >= 0 ? json_array_get(arrs[l], idx[l]) : NULL;
            im->absent[l] = entries[l] == NULL;
            f = f < 0 && entries[l] ? l : f;
        }
        first = entries[f];
        pc_jr_note_row(im, entries, a, idx);
        e = json_object();
        json_array_append_new(all, e);
        if (id_fallback) {
            json_object_set_new(e, "id", json_string(
                pc_jr_make_id(ids, pc_jr_str(first, "name"),
                              pc_jr_str(first, "startDate"), id_fallback,
                              im->c.p)));
        }
        im->label = pc_jr_entry_label(first, a, im->c.p);
        if (fill(im, entries, apr_psprintf(im->c.p, "$.%s[%ld]", a->path,
                                           idx[f]), e) < 0) {
            bad = -1;
        }
    }
    for (l = 0; l < im->n; l++) {
        im->absent[l] = 0;
    }
    im->label = "";
    return bad;
}
