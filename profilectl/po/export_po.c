/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/export_po.c -- `profilectl export-po --lang L [--previous OLD.po]
 * [-o OUT.po] FILE`: the texts of data file FILE as a gettext PO file
 * for language L, made and written by libgettextpo (po/po.c), one entry
 * per text (texts/texts.h): msgctxt its key, msgid the source language's
 * text, msgstr L's (empty when missing).  A list given per language is
 * one entry, its items one per line.  Texts with an empty source have
 * nothing to translate and no entry.
 *
 * The previous PO file (--previous, else OUT when it exists) is merged
 * as msgmerge merges a translator's file with a new template: its
 * translation of a key is kept (the data file's fills the gaps); one
 * whose msgid is no longer the source text becomes fuzzy with the old
 * source as its previous msgid (#| msgid), a fuzzy one stays fuzzy, and
 * a key no longer in FILE becomes an obsolete entry (#~), so that no
 * translator's work is lost.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <apr_getopt.h>
#include <apr_hash.h>
#include <apr_strings.h>

#include "common/common.h"
#include "po/po.h"
#include "texts/texts.h"

#define EXPORT_USAGE "usage: %s export-po --lang L [--previous OLD.po] " \
    "[-o OUT.po] FILE, or export-po --template [-o OUT.pot] FILE"

typedef struct {
    apr_pool_t *p;
    pc_texts_t *tx;
    const char *lang;           /* NULL: a template */
    apr_hash_t *prev;           /* msgctxt -> po_message_t (previous) */
    apr_hash_t *used;           /* msgctxt -> the previous entry taken */
    int entries, untranslated, fuzzy, kept, obsolete;
} export_t;

static const char *nz(const char *s)
{
    return s != NULL && *s ? s : NULL;
}

/* The previous file's entries by msgctxt, the first of each. */
static void index_previous(export_t *ex, po_file_t prev)
{
    po_message_iterator_t it = po_message_iterator(prev, NULL);
    po_message_t m;

    ex->prev = apr_hash_make(ex->p);
    while ((m = po_next_message(it)) != NULL) {
        const char *ctx = po_message_msgctxt(m);

        if (ctx != NULL && *po_message_msgid(m)
            && apr_hash_get(ex->prev, ctx, APR_HASH_KEY_STRING) == NULL) {
            apr_hash_set(ex->prev, ctx, APR_HASH_KEY_STRING, m);
        }
    }
    po_message_iterator_free(it);
}

/* The entry of text t, or NULL when it has nothing to translate. */
static po_message_t entry(export_t *ex, const pc_text_t *t,
                          po_message_iterator_t it)
{
    pc_tr_state_e st;
    const char *src = pc_text_source(ex->tx, t, ex->p), *data, *pstr = NULL;
    const char *msgstr, *old = NULL;
    po_message_t m, pm = NULL;
    int fuzzy = 0, pfuzzy = 0;

    if (src == NULL) {
        return NULL;
    }
    data = ex->lang ? nz(pc_text_get(&st, ex->tx, t, ex->lang, ex->p))
                    : NULL;
    if (ex->prev != NULL
        && (pm = apr_hash_get(ex->prev, t->key, APR_HASH_KEY_STRING))) {
        apr_hash_set(ex->used, t->key, APR_HASH_KEY_STRING, pm);
        pstr = nz(po_message_msgstr(pm));
        pfuzzy = po_message_is_fuzzy(pm);
    }
    /* The translator's file wins; the data file fills its gaps. */
    msgstr = pstr ? pstr : data ? data : "";
    if (pstr && data && strcmp(pstr, data) != 0) {
        ex->kept++;
    }
    if (*msgstr && pm && strcmp(po_message_msgid(pm), src) != 0) {
        fuzzy = 1;
        old = pfuzzy && msgstr == pstr && nz(po_message_prev_msgid(pm))
              ? po_message_prev_msgid(pm) : po_message_msgid(pm);
    }
    else if (*msgstr && pfuzzy && msgstr == pstr) {
        fuzzy = 1;
        old = nz(po_message_prev_msgid(pm));
    }
    m = po_message_create();
    po_message_set_msgctxt(m, t->key);
    po_message_set_msgid(m, src);
    po_message_set_msgstr(m, msgstr);
    po_message_set_extracted_comments(m, pc_po_comment(ex->tx, t, ex->p));
    po_message_add_filepos(m, t->path, (size_t)-1);
    if (pm != NULL && nz(po_message_comments(pm))) {
        po_message_set_comments(m, po_message_comments(pm));
    }
    /* What msgfmt --check would refuse (a newline at one end of msgid
     * and not of msgstr) is for the translator to look at again. */
    if (!fuzzy && *msgstr && pc_po_message_bad(m, it)) {
        fuzzy = 1;
    }
    if (fuzzy) {
        po_message_set_fuzzy(m, 1);
        if (old != NULL) {
            po_message_set_prev_msgid(m, old);
        }
    }
    ex->entries++;
    ex->untranslated += *msgstr == '\0';
    ex->fuzzy += fuzzy;
    return m;
}

/* The previous file's translated entries whose key FILE no longer has,
 * as obsolete entries (#~), as msgmerge keeps them. */
static void keep_obsolete(export_t *ex, po_file_t prev,
                          po_message_iterator_t out)
{
    po_message_iterator_t it = po_message_iterator(prev, NULL);
    po_message_t pm, m;

    while ((pm = po_next_message(it)) != NULL) {
        const char *ctx = po_message_msgctxt(pm);

        if (!*po_message_msgid(pm) || !nz(po_message_msgstr(pm))
            || (ctx && apr_hash_get(ex->tx->by_key, ctx,
                                    APR_HASH_KEY_STRING))) {
            continue;
        }
        m = po_message_create();
        po_message_set_msgctxt(m, ctx);
        po_message_set_msgid(m, po_message_msgid(pm));
        po_message_set_msgstr(m, po_message_msgstr(pm));
        po_message_set_fuzzy(m, po_message_is_fuzzy(pm));
        if (nz(po_message_comments(pm))) {
            po_message_set_comments(m, po_message_comments(pm));
        }
        if (nz(po_message_prev_msgid(pm))) {
            po_message_set_prev_msgid(m, po_message_prev_msgid(pm));
        }
        po_message_set_obsolete(m, 1);
        po_message_insert(out, m);
        ex->obsolete++;
    }
    po_message_iterator_free(it);
}

/* The previous file: --previous, else OUT when it is there. */
static int read_previous(po_file_t *prev, export_t *ex, const char *path,
                         int named)
{
    struct stat st, data;
    const char *tag, *lang;

    *prev = NULL;
    if (path == NULL || strcmp(path, "-") == 0
        || (!named && lstat(path, &st) != 0)) {
        return PC_EXIT_OK;
    }
    /* OUT that is FILE itself: the writer says so. */
    if (!named && stat(path, &st) == 0 && stat(ex->tx->file, &data) == 0
        && st.st_dev == data.st_dev && st.st_ino == data.st_ino) {
        return PC_EXIT_OK;
    }
    if ((*prev = pc_po_read("export-po", path, ex->p)) == NULL) {
        return pc_fail("export-po", "%s is read as the previous translation "
                       "%s; nothing written", path,
                       named ? "(--previous)" : "(it is the output, which "
                       "exists)");
    }
    tag = pc_po_header(*prev, "Language", ex->p);
    lang = tag ? pc_texts_lang(ex->tx, tag, ex->p) : NULL;
    if (tag != NULL && (lang == NULL || strcmp(lang, ex->lang) != 0)) {
        return pc_fail("export-po", "%s is a PO file for \"%s\", not \"%s\"; "
                       "nothing written", path, tag, ex->lang);
    }
    index_previous(ex, *prev);
    return PC_EXIT_OK;
}

int pc_cmd_export_po(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"lang", 'l', 1, "the language to translate into"},
        {"output", 'o', 1, "the PO file to write (-: standard output)"},
        {"previous", 'p', 1, "the PO file translated before"},
        {"template", 't', 0, "a template (POT): no translations"},
        {NULL, 0, 0, NULL}
    };
    export_t ex = {0};
    apr_getopt_t *os;
    apr_status_t rv;
    po_file_t po = NULL, prev = NULL;
    po_message_iterator_t it;
    po_message_t m;
    const char *optarg, *out = NULL, *previous = NULL, *why, *file;
    const char *inputs[2] = {NULL, NULL};
    char *text;
    apr_size_t len;
    int optch, i, status, template = 0;

    ex.p = pc_pool();
    os = pc_getopt(argc, argv, ex.p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        if (optch == 'l') {
            ex.lang = optarg;
        }
        else if (optch == 'o') {
            out = optarg;
        }
        else if (optch == 't') {
            template = 1;
        }
        else {
            previous = optarg;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 1 || !ex.lang == !template
        || (template && previous)) {
        status = pc_fail("export-po", EXPORT_USAGE, pc_progname);
        goto leave;
    }
    file = inputs[0] = os->argv[os->ind];
    if ((status = pc_texts_load(&ex.tx, "export-po", file, ex.p))
        != PC_EXIT_OK) {
        goto leave;
    }
    if (ex.lang && (why = pc_texts_target(ex.tx, ex.lang, ex.p)) != NULL) {
        status = pc_fail("export-po", "%s", why);
        goto leave;
    }
    ex.used = apr_hash_make(ex.p);
    if (!template
        && (status = read_previous(&prev, &ex, previous ? previous : out,
                                   previous != NULL)) != PC_EXIT_OK) {
        goto leave;
    }
    po = po_file_create();
    it = po_message_iterator(po, NULL);
    m = po_message_create();
    po_message_set_msgid(m, "");
    po_message_set_msgstr(m, pc_po_header_make(ex.tx, ex.lang, prev, ex.p));
    po_message_insert(it, m);
    for (i = 0; i < ex.tx->texts->nelts; i++) {
        if ((m = entry(&ex, &APR_ARRAY_IDX(ex.tx->texts, i, pc_text_t), it))
            != NULL) {
            po_message_insert(it, m);
        }
    }
    if (prev != NULL) {
        keep_obsolete(&ex, prev, it);
    }
    po_message_iterator_free(it);
    if ((status = pc_po_render(&text, &len, "export-po", po, ex.p))
        != PC_EXIT_OK
        || (status = pc_write("export-po", out, text, len, inputs, 0, ex.p))
           != PC_EXIT_OK) {
        goto leave;
    }
    if (template) {
        fprintf(stderr, "%s export-po: %s: a template of %d entries\n",
                pc_progname, out ? out : "-", ex.entries);
    }
    else {
        fprintf(stderr, "%s export-po: %s: %d entries, %d untranslated, %d "
                "fuzzy, %d obsolete\n", pc_progname, out ? out : "-",
                ex.entries, ex.untranslated, ex.fuzzy, ex.obsolete);
    }
    if (ex.kept > 0) {
        fprintf(stderr, "%s export-po: %d entries keep the previous PO "
                "file's translation, which the data file does not have yet "
                "(import-po applies them)\n", pc_progname, ex.kept);
    }
leave:
    if (po != NULL) {
        po_file_free(po);
    }
    if (prev != NULL) {
        po_file_free(prev);
    }
    if (ex.tx != NULL) {
        json_decref(ex.tx->root);
    }
    apr_pool_destroy(ex.p);
    return status;
}
