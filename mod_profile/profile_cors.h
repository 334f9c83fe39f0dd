/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_cors.h -- the CORS decision of CONTRACT §6.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_CORS_H
#define PROFILE_CORS_H

#include <apr_tables.h>

/* Adds to `headers`, which holds none of them, the CORS fields for a
 * response to a request from `origin` (NULL when absent).  `origins`
 * lists the allowed origins, or is NULL for "*".  A preflight (OPTIONS
 * with Origin and Access-Control-Request-Method) gets the
 * Allow-Methods/-Headers/Max-Age fields; every other response gets
 * Expose-Headers.  Only Access-Control-Allow-Origin depends on the
 * origin: it is left out for an origin the list does not hold.  Returns non-zero when the answer
 * depends on Origin (list mode), so the caller adds "Vary: Origin". */
int profile_cors_apply(apr_table_t *headers,
                       const apr_array_header_t *origins,
                       const char *origin, int preflight);

#endif
