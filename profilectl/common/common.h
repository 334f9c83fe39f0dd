/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/common.h -- what every part of profilectl shares, over the
 * module's pure core (mod_profile/profile_*.c) and nothing else of
 * profilectl: the bottom of its calls (commands -> formats -> the
 * import's common stages -> common/ -> the core).
 *
 *   common/cli.c       the pool, options, messages; a data file loaded
 *                      the way the module loads it
 *   common/write.c     the output files (profilectl.1, OUTPUT FILES)
 *   common/input.c     the one way a file is read (profilectl.1, FILES
 *                      READ): a regular file only, opened by the
 *                      module's own opener, read once
 *   common/context.c   the context of a JSON Resume command (import,
 *                      export, merge), its messages and output
 *   common/dates.c     dates as people write them
 *   common/fold.c      text folded for comparison (utf8proc)
 *   common/period.c    the periods of the data file
 *   common/words.c     the words the imports write and the export reads
 *
 * It does not include httpd headers.  Links without the commands (the
 * fuzz programs link input.c, dates.c, fold.c and period.c).
 */
#ifndef PC_COMMON_H
#define PC_COMMON_H

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_getopt.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#include "profile_store.h"

#define JR_SEP " \xc2\xb7 "             /* " · " joins parts of a text */
#define SZ "%" APR_SIZE_T_FMT      /* APR's formatter has no %zu */
#define JR_MAX_LANGS 16         /* the most languages an import or
                                 * --languages names */

/* Exit statuses, the same for every command (profilectl.1, EXIT
 * STATUS). */
#define PC_EXIT_OK 0
#define PC_EXIT_PROBLEMS 1      /* check: problems; diff: differences;
                                 * show: not 200; import: problems in the
                                 * documents */
#define PC_EXIT_USAGE 2         /* bad command line, a file that cannot
                                 * be used, or output that cannot be
                                 * written */


/* The tool's name in messages ("profilectl"). */
extern const char *pc_progname;

/* Initializes APR once and returns a new pool (exits on failure). */
apr_pool_t *pc_pool(void);

/* A command's options, read with apr_getopt_long(), before or after its
 * arguments (os->argv[os->ind...] are the arguments). */
apr_getopt_t *pc_getopt(int argc, char **argv, apr_pool_t *p);

/* Prints "profilectl CMD: MESSAGE" on stderr; returns PC_EXIT_USAGE. */
int pc_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Data file `path`, read once (pc_input_load), judged by the module's
 * loader from those bytes (profile_store_parse_opts, validating only;
 * `name` stands for the file in its messages), then its JSON tree and
 * declared languages (*langs, *nlangs: [0] the default) made from the
 * same bytes.  The tree (a new reference), or NULL with *err set:
 * "PATH: cannot read it: ...", or the loader's problems, one line each
 * naming `name`. */
json_t *pc_load_data(const char **err, const char ***langs, int *nlangs,
                     const char *path, const char *name, apr_pool_t *p);

/* Loads `path` as the module does with ProfileCompression On (every
 * representation rendered, with its gzip and br forms), from its bytes
 * read once (pc_input_load: a FIFO or a device is refused at once).  On
 * failure prints the problems (a JSON Resume document is one, saying
 * so: profile_schema_is_jsonresume) on stderr and returns NULL. */
const profile_store_t *pc_load(const char *cmd, const char *path,
                               apr_pool_t *p);


/* common/write.c: writes len bytes of text to `target` ("-" or NULL:
 * standard output) by the rules of profilectl.1 (OUTPUT FILES): never
 * over one of `inputs` (NULL-terminated paths, or NULL), a regular file
 * replaced atomically keeping its mode, a symbolic link replaced itself
 * (never followed), anything else refused.  With
 * PC_WRITE_EXCL an existing target is refused ("--force replaces it").
 * Prints the problem and returns PC_EXIT_USAGE, or returns PC_EXIT_OK. */
#define PC_WRITE_EXCL 1
int pc_write(const char *cmd, const char *target, const char *text,
             apr_size_t len, const char *const *inputs, int flags,
             apr_pool_t *p);

/* Flushes and closes standard output when command `cmd` ends; returns
 * `status`, or PC_EXIT_USAGE (with a message) if anything written there
 * was lost. */
int pc_stdout_done(const char *cmd, int status);

/* ------------------------------------------------------------ input */

/* One input, read whole: its bytes (NUL terminated, len of them) and
 * its modification time, as the file opened had them. */
typedef struct {
    const char *path;
    char *buf;
    apr_size_t len;
    apr_time_t mtime;
} pc_input_t;

/* Opens `path` for reading with the module's opener
 * (profile_data_open(): a regular file only, its type asked first,
 * opened without blocking, the file looked at).  0 with *f (the caller
 * closes it) and *fi (type, size, mtime, device, inode), or -1 with *err
 * set ("PATH: cannot read it: a FIFO, not a regular file"). */
int pc_input_open(apr_file_t **f, apr_finfo_t *fi, const char **err,
                  const char *path, apr_pool_t *p);

/* Reads the whole of `path`, opened by pc_input_open, into *in.  A file
 * larger than `max` bytes (0: no limit) is refused: *err says "larger
 * than MAX_MB MB".  0, or -1 with *err set. */
int pc_input_load(pc_input_t *in, const char **err, const char *path,
                  apr_size_t max, apr_pool_t *p);

/* pc_input_load, its bytes into *buf (NUL terminated, *len bytes). */
int pc_input_read(char **buf, apr_size_t *len, const char **err,
                  const char *path, apr_size_t max, apr_pool_t *p);

/* ------------------------------------------------------------ common */

typedef struct {
    apr_pool_t *p;
    const char *cmd;            /* "import-jsonresume" */
    const char *err;            /* the last problem */
    apr_array_header_t *problems; /* when set: every problem, in order */
} jr_ctx_t;

/* Sets c->err from fmt, and adds it to c->problems when set; returns
 * -1. */
int pc_jr_fail(jr_ctx_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void pc_jr_note(jr_ctx_t *c, const char *msg);
/* Returns PC_EXIT_OK, or PC_EXIT_USAGE with the problem printed. */
int pc_jr_write_json(jr_ctx_t *c, json_t *root, const char *out,
                     const char *const *inputs);
const char *pc_jr_str(json_t *obj, const char *key);

/* s case-folded, compatibility-decomposed and without accents (utf8proc),
 * in p: "Ábril" -> "abril".  s itself when utf8proc cannot map it. */
const char *pc_jr_unaccent(const char *s, apr_pool_t *p);
/* s unaccented, runs of spaces one space, none at either end. */
const char *pc_jr_fold(const char *s, apr_pool_t *p);
void pc_jr_set_str(json_t *obj, const char *key, const char *s);
/* The n items joined with sep. */
const char *pc_jr_join(int n, const char **items, const char *sep,
                       apr_pool_t *p);

/* ------------------------------------------------------------ dates */

int pc_jr_is_date(const char *s);
/* What pc_jr_read_date assumed, as a reader does (bits). */
#define JR_DATE_MONTH 1         /* a day its month does not have
                                 * (2022-02-30): the month */
#define JR_DATE_REMARK 2        /* a remark in parentheses after it
                                 * ("Present (part-time)"): left out */
#define JR_DATE_SINCE 4         /* a start after a word for since
                                 * ("Depuis 2023"): the date */
#define JR_DATE_ORDER 8         /* day and month that cannot be told
                                 * apart, read in the order given
                                 * (pc_jr_read_date_in) */
/* The order of day and month in a numeric date (bits): the day first
 * (31-03-2025), the month first (03-31-2025); after a year (2025/31/03)
 * the same shifted by JR_ORDER_AFTER_YEAR. */
#define JR_ORDER_DAY 1
#define JR_ORDER_MONTH 2
#define JR_ORDER_AFTER_YEAR(o) ((o) << 2)
/* Reads a date as people write it (pc_jr_date_forms) into *iso: YYYY,
 * YYYY-MM or YYYY-MM-DD, or "" for none (an empty text, or with `end` a
 * word for now).  Returns 0, or the JR_DATE_* bits of what it assumed;
 * -1 when it is not a date, -2 when day and month cannot be told apart
 * (03/04/2020; 01/01/2020 can), -3 for a word for now that is not an
 * end. */
int pc_jr_read_date(const char **iso, const char *text, int end,
                    apr_pool_t *p);
/* pc_jr_read_date, and a date whose day and month cannot be told apart
 * read in `order` (JR_ORDER_* bits; neither or both: -2), returning
 * JR_DATE_ORDER; *told is the order a number over 12 tells (31-03-2025:
 * JR_ORDER_DAY), else 0. */
int pc_jr_read_date_in(const char **iso, const char *text, int end,
                       int order, int *told, apr_pool_t *p);
/* Whether text is a word for now ("Present", "actualidad"). */
int pc_jr_is_now(const char *text, apr_pool_t *p);
extern const char *const pc_jr_date_forms;
const char *pc_jr_format_period(const char *start, const char *end,
                                const char *lang, apr_pool_t *p);
int pc_jr_parse_period(const char **start, const char **end,
                       const char *text, apr_pool_t *p);

/* ------------------------------------------------------------ words */

/* The words the imports write and the export reads, in language `lang`
 * (English where none is known): JR_WORD_CERTIFICATION ("Certification",
 * a credential), JR_WORD_LANGUAGES ("Spoken languages", a skill group's
 * title), JR_WORD_LOCATION ("Location", a contact's label),
 * JR_WORD_CREDENTIAL_ID ("Credential ID", before a certificate's
 * number in its credential). */
enum {
    JR_WORD_CERTIFICATION, JR_WORD_LANGUAGES, JR_WORD_LOCATION,
    JR_WORD_CREDENTIAL_ID
};
const char *pc_jr_word(int which, const char *lang);

#endif
