/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/po.h -- the translators' format: untranslated, export-po and
 * import-po (the commands), and how profilectl reads and writes PO files
 * (po/po.c): always through GNU gettext's libgettextpo, never a parser
 * or writer of its own.  export-po is po/export_po.c (its header and
 * comments po/meta.c), import-po po/import_po.c, untranslated
 * po/untranslated.c.  Over texts/ and common/.
 */
#ifndef PC_PO_H
#define PC_PO_H

#include <gettext-po.h>
#include <apr_pools.h>

#include "texts/texts.h"

/* The largest PO file read: far more than any data file's (the module
 * reads data files of a few MB). */
#define PC_PO_MAX (32 * 1024 * 1024)

/* Reads the PO file `path` as every input is read (common/input.c: a
 * regular file only, never blocking; at most PC_PO_MAX bytes), then
 * parses it with libgettextpo.  It must parse without error, be UTF-8
 * (its charset UTF-8, or ASCII, and every string valid UTF-8) and hold
 * no plural entry.  NULL with the problems printed (the first ten of
 * libgettextpo's, "PATH:LINE: MESSAGE") and "profilectl CMD: ..." when
 * it is not; the file is the caller's to free (po_file_free). */
po_file_t pc_po_read(const char *cmd, const char *path, apr_pool_t *p);

/* Header field `field` of f's header, or NULL (also for ""). */
const char *pc_po_header(po_file_t f, const char *field, apr_pool_t *p);

/* f as the bytes of a PO file, written by libgettextpo (into a private
 * temporary file, read back: its only way to write).  PC_EXIT_OK, or
 * PC_EXIT_USAGE with the problem printed. */
int pc_po_render(char **text, apr_size_t *len, const char *cmd,
                 po_file_t f, apr_pool_t *p);

/* Non-zero when libgettextpo's checks (those of msgfmt --check: the
 * newlines at both ends of msgid and msgstr, formats a flag names)
 * find a problem in message m of iterator it. */
int pc_po_message_bad(po_message_t m, po_message_iterator_t it);

/* The header export-po writes for tx's texts in `lang`, or for a
 * template (lang NULL: no Language, no Plural-Forms), made with
 * po_header_set_field from prev's header when there is one: its other
 * fields stay, and so do its translator's (Last-Translator,
 * Language-Team, PO-Revision-Date, Plural-Forms). */
const char *pc_po_header_make(const pc_texts_t *tx, const char *lang,
                              po_file_t prev, apr_pool_t *p);

/* po/meta.c: the dates that end text src ("Bachelor · 1 Jun 2011 –
 * 1 Jan 2014", as the import writes a credential): 1 with *start and
 * *end (ISO, "" where absent), else 0. */
int pc_po_trailing_period(const char **start, const char **end,
                          const char *src, apr_pool_t *p);

/* The extracted comment (#.) of t's entry: what the text is, how a list
 * is written, how long a short title may be. */
const char *pc_po_comment(const pc_texts_t *tx, const pc_text_t *t,
                          apr_pool_t *p);

/* po/import_po.c: whether entry m of text t shows t's translation in
 * `lang` to be stale.  The data file keeps no record of the source a
 * translation was made from; the PO file does: its msgid is the source
 * text when it was exported, and export-po marks an entry whose source
 * changed fuzzy (the old source as #| msgid).  So the translation is
 * stale when m is fuzzy or its msgid is no longer t's source, and m's
 * msgstr is the data file's translation (a list's: its lines); a data
 * file translated anew since the PO file was made is not. */
int pc_po_stale(const pc_texts_t *tx, const pc_text_t *t, const char *lang,
                po_message_t m, apr_pool_t *p);

int pc_cmd_untranslated(int argc, char **argv);
int pc_cmd_export_po(int argc, char **argv);
int pc_cmd_import_po(int argc, char **argv);

/* po/untranslated.c: */
/* How many texts have something to translate, and how many of those
 * are untranslated (missing or empty) in `lang`. */
void pc_texts_count(int *total, int *untranslated, const pc_texts_t *tx,
                    const char *lang, apr_pool_t *p);

/* check's lines: when a text is untranslated, for each language but the
 * source, on standard error, "FILE: es: N of M texts untranslated".
 * Nothing when every text is translated, or when the file cannot be
 * read as pc_texts_load reads it.  `in`: the file, already read (check
 * reads each once); `valid`: the module loads it. */
void pc_untranslated_counts(const pc_input_t *in, int valid, apr_pool_t *p);

#endif
