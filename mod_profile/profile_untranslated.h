/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_untranslated.h -- how many texts of a data file are
 * untranslated, per language (CONTRACT §9): counted once when the file
 * loads, for the status handlers and the metrics (§10).
 *
 * Pure core: libc, APR and jansson only; never an httpd header.
 */
#ifndef PROFILE_UNTRANSLATED_H
#define PROFILE_UNTRANSLATED_H

#include <apr_pools.h>
#include <jansson.h>

/* Counts, in counts[l] for each declared language langs[l], the texts of
 * the validated file `root` untranslated in that language: a text value
 * given per language, or a list given per language (one text), that
 * lacks the language (the fallback's value is served there), or whose
 * value in it is empty ("" or []) while another language's is not.  A
 * plain string, the same in every language on purpose, is never
 * untranslated.  Returns counts, allocated in p. */
apr_size_t *profile_untranslated_count(json_t *root, const char *const *langs,
                                       int nlangs, apr_pool_t *p);

/* Whether text value v (given per language) is untranslated in lang, by
 * the rule above: 1 when it lacks lang, or is empty there while another
 * language's value is not; 0 otherwise, and for a plain value.  The one
 * definition profilectl's check and untranslated count by too. */
int profile_untranslated_in(json_t *v, const char *lang);

/* Whether some language of text value v has a non-empty value. */
int profile_untranslated_some(json_t *v);

#endif
