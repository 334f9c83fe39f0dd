/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/po.c -- PO files through libgettextpo (po/po.h).  libgettextpo
 * opens files by name only: a PO file is read as every input is
 * (common/input.c, bounded), copied to a private temporary file that the
 * library parses; a PO file is written by the library to such a file
 * and read back, so that what reaches the user's path goes through the
 * one safe writer (common/write.c).  The library's problems come to a
 * handler without a context pointer: the one read or write at a time
 * is described by a static record.  A fatal one must not return
 * (gettext-po.h): it jumps back to the call.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <apr_cstr.h>
#include <apr_file_info.h>
#include <apr_strings.h>

#include "common/common.h"
#include "po/po.h"
#include "profile_text.h"

#define PO_LISTED 10                    /* libgettextpo messages printed */

static struct {
    const char *shown;                  /* the user's name of the file */
    const char *real;                   /* the temporary file's */
    int quiet;                          /* count only */
    int errors, listed;
    jmp_buf *fatal;
} po_ctx;

static void report(int severity, const char *file, size_t line,
                   const char *text)
{
    if (severity != PO_SEVERITY_WARNING) {
        po_ctx.errors++;
    }
    if (po_ctx.quiet || po_ctx.listed >= PO_LISTED) {
        return;
    }
    po_ctx.listed++;
    if (file == NULL || (po_ctx.real && strcmp(file, po_ctx.real) == 0)) {
        file = po_ctx.shown;
    }
    if (line != (size_t)-1) {
        fprintf(stderr, "%s:%zu: %s%s\n", file, line,
                severity == PO_SEVERITY_WARNING ? "warning: " : "", text);
    }
    else {
        fprintf(stderr, "%s: %s%s\n", file,
                severity == PO_SEVERITY_WARNING ? "warning: " : "", text);
    }
}

static void xerror(int severity, po_message_t message, const char *file,
                   size_t line, size_t column, int multiline,
                   const char *text)
{
    (void)message, (void)column, (void)multiline;
    report(severity, file, line, text);
    if (severity == PO_SEVERITY_FATAL_ERROR && po_ctx.fatal != NULL) {
        longjmp(*po_ctx.fatal, 1);
    }
}

static void xerror2(int severity, po_message_t m1, const char *file1,
                    size_t line1, size_t col1, int ml1, const char *text1,
                    po_message_t m2, const char *file2, size_t line2,
                    size_t col2, int ml2, const char *text2)
{
    (void)m2, (void)file2, (void)line2, (void)col2, (void)ml2, (void)text2;
    xerror(severity, m1, file1, line1, col1, ml1, text1);
}

static const struct po_xerror_handler handler = {xerror, xerror2};

/* libgettextpo leaks what profilectl cannot free: an iterator's copy of
 * its domain (po_message_iterator_free frees the iterator only), parts
 * of a file read or written, and a file whose reading failed (its state
 * then unknown).  The sanitized build's LeakSanitizer asks a program for
 * this function; otherwise it is never called. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libgettextpo.so\n";
}

/* A new private temporary file: 0 and its name, or -1 with *err. */
static int temp_file(char **path, int *fd, const char **err, apr_pool_t *p)
{
    const char *dir;

    if (apr_temp_dir_get(&dir, p) != APR_SUCCESS) {
        dir = "/tmp";
    }
    *path = apr_pstrcat(p, dir, "/profilectl-po.XXXXXX", NULL);
    if ((*fd = mkstemp(*path)) < 0) {
        *err = apr_psprintf(p, "cannot make a temporary file in %s: %s",
                            dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_all(int fd, const char *buf, apr_size_t len)
{
    ssize_t n;

    while (len > 0) {
        if ((n = write(fd, buf, len)) < 0 && errno != EINTR) {
            return -1;
        }
        if (n > 0) {
            buf += n;
            len -= (apr_size_t)n;
        }
    }
    return 0;
}

const char *pc_po_header(po_file_t f, const char *field, apr_pool_t *p)
{
    const char *header = po_file_domain_header(f, NULL);
    char *v = header ? po_header_field(header, field) : NULL;
    const char *s = v && *v ? apr_pstrdup(p, v) : NULL;

    free(v);
    return s;
}

/* A charset the PO file's strings can be read in as UTF-8. */
static int utf8_charset(const char *content_type)
{
    const char *cs = content_type ? strstr(content_type, "charset=") : NULL;

    if (cs == NULL) {
        return 1;
    }
    cs += strlen("charset=");
    return apr_cstr_casecmp(cs, "UTF-8") == 0
           || apr_cstr_casecmp(cs, "utf8") == 0
           || apr_cstr_casecmp(cs, "ASCII") == 0
           || apr_cstr_casecmp(cs, "US-ASCII") == 0
           || strcmp(cs, "CHARSET") == 0;       /* a template's */
}

static int valid(const char *s)
{
    return s == NULL || profile_utf8_valid(s, strlen(s));
}

/* The problem of f's content that profilectl cannot take, or NULL. */
static const char *content_problem(po_file_t f, const char *path,
                                   apr_pool_t *p)
{
    const char *ct = pc_po_header(f, "Content-Type", p), *why = NULL;
    po_message_iterator_t it;
    po_message_t m;

    if (!utf8_charset(ct)) {
        return apr_psprintf(p, "%s: its charset is not UTF-8 (%s): convert "
                            "it with msgconv --to-code=UTF-8", path, ct);
    }
    it = po_message_iterator(f, NULL);
    while (why == NULL && (m = po_next_message(it)) != NULL) {
        const char *ctx = po_message_msgctxt(m);

        if (!valid(ctx) || !valid(po_message_msgid(m))
            || !valid(po_message_msgstr(m))
            || !valid(po_message_prev_msgid(m))) {
            why = apr_psprintf(p, "%s: an entry%s%s is not valid UTF-8",
                               path, ctx && valid(ctx) ? " of msgctxt " : "",
                               ctx && valid(ctx) ? ctx : "");
        }
        else if (po_message_msgid_plural(m) != NULL
                 && !po_message_is_obsolete(m)) {
            why = apr_psprintf(p, "%s: the entry of msgctxt \"%s\" has "
                               "plural forms, which no text of a data file "
                               "has", path, ctx ? ctx : "");
        }
    }
    po_message_iterator_free(it);
    return why;
}

po_file_t pc_po_read(const char *cmd, const char *path, apr_pool_t *p)
{
    jmp_buf fatal;
    const char *err;
    char *buf, *tmp;
    apr_size_t len;
    po_file_t volatile f = NULL;
    int fd;

    if (pc_input_read(&buf, &len, &err, path, PC_PO_MAX, p) < 0) {
        pc_fail(cmd, "%s", err);
        return NULL;
    }
    if (temp_file(&tmp, &fd, &err, p) < 0) {
        pc_fail(cmd, "cannot read %s: %s", path, err);
        return NULL;
    }
    if (write_all(fd, buf, len) < 0 || close(fd) != 0) {
        err = strerror(errno);
        unlink(tmp);
        pc_fail(cmd, "cannot read %s: cannot copy it to %s: %s", path, tmp,
                err);
        return NULL;
    }
    memset(&po_ctx, 0, sizeof(po_ctx));
    po_ctx.shown = path;
    po_ctx.real = tmp;
    po_ctx.fatal = &fatal;
    if (setjmp(fatal) == 0) {
        f = po_file_read(tmp, &handler);
    }
    po_ctx.fatal = NULL;
    unlink(tmp);
    if (po_ctx.errors > 0 || f == NULL) {
        if (po_ctx.errors > po_ctx.listed) {
            fprintf(stderr, "%s: and %d more problems\n", path,
                    po_ctx.errors - po_ctx.listed);
        }
        pc_fail(cmd, "%s is not a PO file libgettextpo can read (%d "
                "problem%s)", path, po_ctx.errors,
                po_ctx.errors == 1 ? "" : "s");
        /* A file with errors is not freed: after a fatal one the
         * library's state is not known. */
        return NULL;
    }
    if ((err = content_problem(f, path, p)) != NULL) {
        po_file_free(f);
        pc_fail(cmd, "%s", err);
        return NULL;
    }
    return f;
}

int pc_po_render(char **text, apr_size_t *len, const char *cmd,
                 po_file_t f, apr_pool_t *p)
{
    jmp_buf fatal;
    const char *err;
    char *tmp;
    int fd, rc;

    if (temp_file(&tmp, &fd, &err, p) < 0) {
        return pc_fail(cmd, "%s", err);
    }
    close(fd);
    memset(&po_ctx, 0, sizeof(po_ctx));
    po_ctx.shown = "the PO file written";
    po_ctx.real = tmp;
    po_ctx.fatal = &fatal;
    if (setjmp(fatal) == 0) {
        po_file_write(f, tmp, &handler);
    }
    po_ctx.fatal = NULL;
    rc = po_ctx.errors == 0
         && pc_input_read(text, len, &err, tmp, 0, p) == 0;
    unlink(tmp);
    if (!rc) {
        return pc_fail(cmd, "libgettextpo could not write the PO file%s%s",
                       po_ctx.errors ? "" : ": ", po_ctx.errors ? "" : err);
    }
    return PC_EXIT_OK;
}

int pc_po_message_bad(po_message_t m, po_message_iterator_t it)
{
    memset(&po_ctx, 0, sizeof(po_ctx));
    po_ctx.quiet = 1;
    po_message_check_all(m, it, &handler);
    return po_ctx.errors > 0;
}
