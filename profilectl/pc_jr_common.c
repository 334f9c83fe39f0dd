/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_jr_common.c -- what both JSON Resume commands (pc_import.c,
 * pc_export.c) use: the first problem of a command and its messages on
 * stderr, the output written whole, string members read and set, and
 * "--opt VALUE" options.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <apr_pools.h>
#include <apr_strings.h>
#include <jansson.h>

#include "pc_jr.h"

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

/* Prints the problem (or with c->problems, every problem, one per line
 * as a compiler does: "FILE: $.path: message", then how many). */
int pc_jr_report(jr_ctx_t *c, int status)
{
    int i, n = c->problems ? c->problems->nelts : 0;

    if (n == 0) {
        fprintf(stderr, "profilectl %s: %s\n", c->cmd, c->err);
        return status;
    }
    for (i = 0; i < n; i++) {
        fprintf(stderr, "%s\n", APR_ARRAY_IDX(c->problems, i, const char *));
    }
    fprintf(stderr, "profilectl %s: %d problem%s; nothing written\n",
            c->cmd, n, n == 1 ? "" : "s");
    return status;
}

void pc_jr_note(jr_ctx_t *c, const char *msg)
{
    fprintf(stderr, "profilectl %s: note: %s\n", c->cmd, msg);
}

/* Writes root as indented JSON to `out` ("-" or NULL: stdout).  A file
 * is replaced whole: written beside it, then renamed over it. */
int pc_jr_write_json(jr_ctx_t *c, json_t *root, const char *out)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *tmp;
    FILE *f;
    int fd, bad;

    if (text == NULL) {
        return pc_jr_fail(c, "out of memory");
    }
    if (out == NULL || strcmp(out, "-") == 0) {
        bad = fputs(text, stdout) < 0 || fputs("\n", stdout) < 0
              || fflush(stdout) != 0;
        free(text);
        return bad ? pc_jr_fail(c, "cannot write to standard output") : 0;
    }
    tmp = apr_pstrcat(c->p, out, ".XXXXXX", NULL);
    fd = mkstemp(tmp);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
        free(text);
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return pc_jr_fail(c, "cannot write %s", out);
    }
    bad = fputs(text, f) < 0 || fputs("\n", f) < 0 || fflush(f) != 0
          || fchmod(fd, 0644) != 0;
    bad = fclose(f) != 0 || bad;
    free(text);
    if (bad || rename(tmp, out) != 0) {
        unlink(tmp);
        return pc_jr_fail(c, "cannot write %s", out);
    }
    return 0;
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

/* The option's value: "--opt VALUE" or "--opt=VALUE"; NULL if argv[*i]
 * is not the option. */
const char *pc_jr_option(int argc, char **argv, int *i, const char *name,
                         int *missing)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n) != 0) {
        return NULL;
    }
    if (argv[*i][n] == '=' && n > 2) {
        return argv[*i] + n + 1;
    }
    if (argv[*i][n] != '\0') {
        return NULL;
    }
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}
