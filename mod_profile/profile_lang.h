/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_lang.h -- choosing the response language from Accept-Language
 * (CONTRACT §4).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_LANG_H
#define PROFILE_LANG_H

/* The most languages a data file may declare. */
#define PROFILE_LANG_MAX 16

/* Returns the index in langs[0..nlangs) of the language to serve for the
 * Accept-Language value `header` (NULL when absent).  Never fails: a
 * missing, empty or wholly unacceptable header gives 0, the default. */
int profile_lang_choose(const char *header, const char *const *langs,
                        int nlangs);

#endif
