/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/read.c -- the documents of import-jsonresume: the language
 * of each file (--lang-order, else its name; one file alone is English,
 * with a note), and each file parsed by jansson.  A key given twice in
 * one object keeps its last value, as browsers' JSON.parse does, with a
 * note naming each (the first JR_MAX_DUPS): each is located by a parse
 * that rejects duplicates, then renamed in a copy so that the next parse
 * finds the next one; the document itself is the plain parse, which
 * keeps the last value.  At most JR_MAX_DUPS + 2 parses of the file: the
 * cost stays linear in its size.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/stages.h"
#include "common/common.h"

#define JR_MAX_DUPS 20

/* The languages of the documents: --lang-order's list, else each file's
 * name (NAME.LANG.json, or LANG.json for a 2- or 3-letter code). */
int pc_jr_import_langs(jr_import_t *im, const char *order)
{
    apr_pool_t *p = im->c.p;
    char *list, *last, *t;
    const char *base, *dot;
    int l, k, n = 0;
    size_t len;

    if (order != NULL) {
        list = apr_pstrdup(p, order);
        for (t = apr_strtok(list, ",", &last); t;
             t = apr_strtok(NULL, ",", &last)) {
            if (n == im->n) {
                return pc_jr_fail(&im->c, "--lang-order names %d or more "
                                  "languages for %d file%s", n + 1, im->n,
                                  im->n == 1 ? "" : "s");
            }
            im->langs[n++] = t;
        }
        if (n != im->n) {
            return pc_jr_fail(&im->c, "--lang-order names %d language%s "
                              "for %d files", n, n == 1 ? "" : "s", im->n);
        }
    }
    for (l = 0; l < im->n; l++) {
        if (order == NULL) {
            base = strrchr(im->files[l], '/');
            base = base ? base + 1 : im->files[l];
            len = strlen(base);
            if (len < 5 || strcmp(base + len - 5, ".json") != 0) {
                dot = NULL;
            }
            else {
                for (dot = base + len - 6; dot > base && *dot != '.'; dot--) {
                }
            }
            if (dot != NULL && dot == base && *dot != '.'
                && (len == 7 || len == 8)) {
                /* LANG.json: a bare ISO 639 code (2 or 3 letters). */
                im->langs[l] = apr_pstrndup(p, base, len - 5);
            }
            else if ((dot == NULL || dot == base) && im->n == 1) {
                /* One file: a language is needed only to tag its
                 * texts; English unless told. */
                im->langs[l] = "en";
                pc_jr_assume(im, -1, "%s: read as English (en): its name "
                             "says no language; --lang-order L names "
                             "another", im->files[l]);
            }
            else if (dot == NULL || dot == base) {
                return pc_jr_fail(&im->c, "which language is %s? Name the "
                                  "files LANG.json or NAME.LANG.json (e.g. "
                                  "en.json, resume.en.json) or give "
                                  "--lang-order LANG,LANG,... in the order "
                                  "of the files", im->files[l]);
            }
            else {
                im->langs[l] = apr_pstrndup(p, dot + 1,
                                            base + len - 5 - dot - 1);
            }
        }
        t = apr_pstrdup(p, im->langs[l]);
        len = strlen(t);
        for (k = 0; t[k]; k++) {
            if (!apr_isalpha(t[k]) || (t[k] & 0x80)) {
                len = 0;
            }
            t[k] = apr_tolower(t[k]);
        }
        if (len < 2 || len > 8) {
            return pc_jr_fail(&im->c, "\"%s\" (%s) is not a language tag: "
                              "2 to 8 ASCII letters, e.g. en", im->langs[l],
                              im->files[l]);
        }
        im->langs[l] = t;
        for (k = 0; k < l; k++) {
            if (strcmp(im->langs[k], t) == 0) {
                return pc_jr_fail(&im->c, "%s and %s are both in language %s",
                                  im->files[k], im->files[l], t);
            }
        }
    }
    return 0;
}

/* Where the key that ends at byte `end` of buf starts: its opening
 * quote (a quote not escaped). */
static size_t key_start(const char *buf, size_t end)
{
    size_t i = end - 1, bs;

    while (i-- > 0) {
        if (buf[i] != '"') {
            continue;
        }
        for (bs = 0; bs < i && buf[i - 1 - bs] == '\\'; bs++) {
        }
        if (bs % 2 == 0) {
            return i;
        }
    }
    return 0;
}

/* Notes every duplicate key of text (the first JR_MAX_DUPS) of
 * document l. */
static void note_duplicates(jr_import_t *im, int l, const char *text,
                            size_t n)
{
    apr_pool_t *p = im->c.p;
    char *work = NULL, *next;
    const char *mark;
    size_t wn = n, at, end, ml;
    json_error_t jerr;
    json_t *t;
    int round, line, col;
    /* The insertions so far, to give the file's own columns. */
    int ins_line[JR_MAX_DUPS];
    size_t ins_at[JR_MAX_DUPS], ins_len[JR_MAX_DUPS];
    int k;

    for (round = 0; round <= JR_MAX_DUPS; round++) {
        t = json_loadb(work ? work : text, wn, JSON_REJECT_DUPLICATES,
                       &jerr);
        if (t != NULL || json_error_code(&jerr) != json_error_duplicate_key) {
            json_decref(t);
            break;
        }
        if (round == JR_MAX_DUPS) {
            pc_jr_assume(im, l, "and more keys repeated in one object: "
                         "the last value of each is kept");
            break;
        }
        if (work == NULL) {
            work = malloc(n + 1);
            if (work == NULL) {
                break;
            }
            memcpy(work, text, n);
        }
        end = (size_t)jerr.position;
        at = key_start(work, end);
        line = jerr.line;
        col = jerr.column;
        for (k = 0; k < round; k++) {
            if (ins_line[k] == line && ins_at[k] < at) {
                col -= (int)ins_len[k];
            }
        }
        pc_jr_assume(im, l, "line %d, column %d: the key %.*s is given "
                     "twice in one object: the last value is kept, as "
                     "browsers' JSON.parse does", line,
                     col - (int)(end - at) + 1, (int)(end - at),
                     work + at);
        /* The key renamed (a private-use character, then the round):
         * the next parse finds the next duplicate. */
        mark = apr_psprintf(p, "\\ue000%d:", round);
        ml = strlen(mark);
        /* At most two copies of the file at once. */
        if ((next = malloc(wn + ml + 1)) == NULL) {
            break;
        }
        memcpy(next, work, at + 1);
        memcpy(next + at + 1, mark, ml);
        memcpy(next + at + 1 + ml, work + at + 1, wn - at - 1);
        wn += ml;
        next[wn] = '\0';
        free(work);
        work = next;
        ins_line[round] = line;
        ins_at[round] = at;
        ins_len[round] = ml;
    }
    free(work);
}

/* Reads document l (pc_input_read: a regular file only); a UTF-8 byte
 * order mark is skipped. */
int pc_jr_load_doc(jr_import_t *im, int l)
{
    apr_pool_t *p = im->c.p;
    apr_size_t n;
    json_error_t jerr;
    char *buf;
    const char *text, *err;

    if (pc_input_read(&buf, &n, &err, im->files[l], 0, p) < 0) {
        return pc_jr_fail(&im->c, "%s", err);
    }
    text = buf;
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        n -= 3;
    }
    im->docs[l] = json_loadb(text, n, 0, &jerr);
    if (im->docs[l] == NULL) {
        return pc_jr_fail(&im->c, "%s:%d:%d: invalid JSON: %s", im->files[l],
                          jerr.line, jerr.column, jerr.text);
    }
    note_duplicates(im, l, text, n);
    return 0;
}
