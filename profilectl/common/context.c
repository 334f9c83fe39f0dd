/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/context.c -- what the JSON Resume commands (the imports,
 * export-jsonresume, merge) use: the first problem of a command and its
 * messages on stderr, the output written (by pc_write), string members
 * read and set.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "common/common.h"

int pc_jr_fail(jr_ctx_t *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    c->err = apr_pvsprintf(c->p, fmt, ap);
    va_end(ap);
    if (c->problems != NULL) {
        APR_ARRAY_PUSH(c->problems, const char *) = c->err;
    }
    return -1;
}

void pc_jr_note(jr_ctx_t *c, const char *msg)
{
    fprintf(stderr, "profilectl %s: note: %s\n", c->cmd, msg);
}

/* Writes root as indented JSON to `out` ("-" or NULL: standard output)
 * by profilectl's one writer (pc_write), never over one of `inputs`. */
int pc_jr_write_json(jr_ctx_t *c, json_t *root, const char *out,
                     const char *const *inputs)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *doc;

    if (text == NULL) {
        return pc_fail(c->cmd, "out of memory");
    }
    doc = apr_pstrcat(c->p, text, "\n", NULL);
    free(text);
    return pc_write(c->cmd, out, doc, strlen(doc), inputs, 0, c->p);
}

/* The string at obj[key]: "" when absent or null.  Types are checked
 * before (import: pc_jr_check_doc; export: the data file's validation). */
const char *pc_jr_str(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));

    return s ? s : "";
}

/* Sets obj[key] to s unless s is empty (JSON Resume: absent). */
void pc_jr_set_str(json_t *obj, const char *key, const char *s)
{
    if (s != NULL && *s) {
        json_object_set_new(obj, key, json_string(s));
    }
}

const char *pc_jr_join(int n, const char **items, const char *sep,
                       apr_pool_t *p)
{
    const char *s = n ? items[0] : "";
    int i;

    for (i = 1; i < n; i++) {
        s = apr_pstrcat(p, s, sep, items[i], NULL);
    }
    return s;
}
