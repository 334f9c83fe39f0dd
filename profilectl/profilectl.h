/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profilectl.h -- what the commands of profilectl share.  profilectl is
 * the profile owner's tool (profilectl.1): it checks, shows and compares
 * data files with the module's own pure core (mod_profile/profile_*.c),
 * so that what it says is what the module will do.
 *
 * Every command is `int pc_cmd_NAME(int argc, char **argv)`, argv[0]
 * being the command's name; it returns the exit status.
 */
#ifndef PROFILECTL_H
#define PROFILECTL_H

#include <apr_getopt.h>
#include <apr_pools.h>
#include <jansson.h>

#include "profile_api.h"
#include "profile_store.h"

/* Exit statuses, the same for every command (profilectl.1, EXIT
 * STATUS). */
#define PC_EXIT_OK 0
#define PC_EXIT_PROBLEMS 1      /* check: problems; diff: differences;
                                 * show: not 200; import: problems in the
                                 * documents */
#define PC_EXIT_USAGE 2         /* bad command line, a file that cannot
                                 * be used, or output that cannot be
                                 * written */

int pc_cmd_check(int argc, char **argv);
int pc_cmd_show(int argc, char **argv);
int pc_cmd_diff(int argc, char **argv);
int pc_cmd_new(int argc, char **argv);
int pc_cmd_add_language(int argc, char **argv);
int pc_cmd_untranslated(int argc, char **argv);
int pc_cmd_export_po(int argc, char **argv);
int pc_cmd_import_po(int argc, char **argv);

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

/* Parses the JSON file `path` (jansson flags), read as every input is
 * (pc_input.c: a regular file only, never blocking).  NULL with *err set
 * ("PATH: cannot read it: ...", or "PATH:LINE:COL: invalid JSON: ..."
 * with *jerr) when it cannot. */
json_t *pc_load_json(const char *path, size_t flags, json_error_t *jerr,
                     const char **err, apr_pool_t *p);

/* Loads `path` as the module does with ProfileCompression On (every
 * representation rendered, with its gzip and br forms), after
 * pc_input_check (a FIFO or a device is refused at once).  On failure
 * prints the problems (a JSON Resume document is one, saying so:
 * profile_schema_is_jsonresume) on stderr and returns NULL. */
const profile_store_t *pc_load(const char *cmd, const char *path,
                               apr_pool_t *p);

/* One representation: what the module answers a GET of `route` (below
 * the base `base`, e.g. "/skills": the path as httpd decodes it) with
 * the query `args` (raw, NULL: none), asking
 * for the language `lang` (an Accept-Language value, or NULL) and the
 * coding `coding` (an Accept-Encoding value, or NULL), with the module's
 * defaults (ProfileCORSOrigins *, ProfileMaxAge 300). */
void pc_answer(profile_response_t *resp, const profile_store_t *store,
               const char *base, const char *route, const char *args, const char *lang,
               const char *coding, apr_pool_t *p);

/* pc_write.c: writes len bytes of text to `target` ("-" or NULL:
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

#endif
