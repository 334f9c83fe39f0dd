/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export/export.h -- export-jsonresume (export/export.c), and a data
 * file's language as a JSON Resume document, which merge also uses; the
 * extras (export/extras.c) taken back from where the import put them.
 * Over common/ only: the words it reads back are common/words.c's, the
 * periods common/period.c's.
 */
#ifndef PC_EXPORT_H
#define PC_EXPORT_H

#include <apr_pools.h>
#include <jansson.h>

#include "common/common.h"

int pc_cmd_export_jsonresume(int argc, char **argv);

/* export.c: language `lang` of data file `data` (valid) as a JSON
 * Resume document (new reference); notes go to c.  With `fill`, a text
 * the language lacks is the fallback's, as the API serves it; else ""
 * (merge: the join sees it missing). */
json_t *pc_jr_export_doc(jr_ctx_t *c, json_t *data, const char *lang,
                         int fill);

/* extras.c: after pc_jr_export_doc made doc from data in
 * `lang`: certificates, languages, basics.location and projects' urls
 * taken from where the import put them.  `fallback` as the API
 * serves. */
void pc_jr_export_extras(json_t *doc, json_t *data, const char *lang,
                         const char *fallback, apr_pool_t *p);


#endif
