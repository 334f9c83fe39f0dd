/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profilectl.h -- the commands at profilectl's top, which are no
 * format's: check, show, diff, new, add-language and merge.  profilectl
 * is the profile owner's tool (profilectl.1): it checks, shows and
 * compares data files with the module's own pure core
 * (mod_profile/profile_*.c), so that what it says is what the module
 * will do.
 *
 * Calls run one way: profilectl.c (the command table) -> the commands
 * here and the formats' commands (import/jsonresume/, import/linkedin/,
 * export/, po/) -> the formats -> the import's common stages (import/)
 * and the texts of a data file (texts/) -> common/ -> the core.
 * tests/check-shape.sh keeps it so.
 *
 * Every command is `int pc_cmd_NAME(int argc, char **argv)`, argv[0]
 * being the command's name; it returns the exit status.
 */
#ifndef PROFILECTL_H
#define PROFILECTL_H

#include "profile_api.h"
#include "common/common.h"

int pc_cmd_check(int argc, char **argv);       /* check.c */
int pc_cmd_show(int argc, char **argv);        /* show.c */
int pc_cmd_diff(int argc, char **argv);        /* diff.c */
int pc_cmd_new(int argc, char **argv);         /* new.c */
int pc_cmd_add_language(int argc, char **argv); /* add_language.c */
int pc_cmd_merge(int argc, char **argv);       /* merge.c */

/* show.c: */
/* One representation: what the module answers a GET of `route` (below
 * the base `base`, e.g. "/skills": the path as httpd decodes it) with
 * the query `args` (raw, NULL: none), asking
 * for the language `lang` (an Accept-Language value, or NULL) and the
 * coding `coding` (an Accept-Encoding value, or NULL), with the module's
 * defaults (ProfileCORSOrigins *, ProfileMaxAge 300). */
void pc_answer(profile_response_t *resp, const profile_store_t *store,
               const char *base, const char *route, const char *args,
               const char *lang, const char *coding, apr_pool_t *p);

#endif
