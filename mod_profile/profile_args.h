/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_args.h -- what httpd hands the module as text, parsed: the
 * values of its directives (the glue, mod_profile_config.c, says where
 * each may stand and stores it), the API base a URL is below, and the
 * server's own command line.  Each parser accepts exactly what
 * README.md's table of directives says and nothing else.
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#ifndef PROFILE_ARGS_H
#define PROFILE_ARGS_H

#include <apr_pools.h>

/* Largest ProfileMaxDataSize: far beyond any profile, and within what
 * every length in the core (and zlib's and APR's SHA-1's) can hold. */
#define PROFILE_MAX_DATA_SIZE_CAP (APR_INT64_C(1) << 30)

/* Non-zero when `s` is an origin: scheme "://" host [":" port], nothing
 * more (ProfileCORSOrigins). */
int profile_args_origin(const char *s);
/* A number of seconds, 0 to 2147483647, in decimal digits (ProfileMaxAge)
 * into *out; -1 when `s` is not one. */
int profile_args_seconds(int *out, const char *s);
/* A size in bytes, more than 0 and at most PROFILE_MAX_DATA_SIZE_CAP,
 * optionally followed by K, M or G (binary multiples; either case)
 * (ProfileMaxDataSize) into *out; -1 when `s` is not one. */
int profile_args_size(apr_off_t *out, const char *s);
/* An option of a ProfileData line, "bad=keep|refuse" or
 * "compress=on|off" (either case): sets *bad or *compress to 0 or 1.
 * -1 when `s` is no such option or names one already set (not -1),
 * -2 when its value is none of those. */
int profile_args_data_option(int *bad, int *compress, const char *s);
/* A page option of a ProfileData line (CONTRACT §11), `name` "url" or
 * "assets": sets *out to `value` with a trailing "/", and returns NULL;
 * or returns the error, when *out is set already or value is no page's
 * URL: url= an absolute http or https URL with a host and no query,
 * fragment or user; assets= that or a URL path from "/".  Neither holds
 * a space, a quote or an angle bracket. */
const char *profile_args_page_option(const char **out, const char *name,
                                     const char *value, apr_pool_t *p);
/* The public URL of a page at URL path `base` ("" or "/..."; NULL: "")
 * of a server named scheme://host:port (the default port left out, an
 * IPv6 host bracketed), ending in "/". */
const char *profile_args_page_base(const char *scheme, const char *host,
                                   unsigned port, const char *base,
                                   apr_pool_t *p);
/* How a section setting a request-time directive may apply to the URLs
 * below API base `base` (NULL: unknown), for the reports (CONTRACT §1):
 * `section` as written (NULL: outside any), `location` the plain
 * <Location> path it stands in (NULL: none).  "server", "encloses",
 * "nested" (a <Location> path that is a prefix of the base, or below it:
 * httpd compares string prefixes), "regex or <If>", "may apply" (the
 * base is unknown), or NULL where it cannot apply (another <Location>,
 * <Directory>, <Files>). */
const char *profile_args_section_applies(const char *section,
                                         const char *location,
                                         const char *base);
/* The rest of URL path `uri` below API base `base` ("" or "/..."), or
 * NULL: below means the base itself or base + "/..." (CONTRACT §2). */
const char *profile_args_below(const char *uri, const char *base);
/* A copy of URL path `path` without trailing slashes ("/" gives ""). */
const char *profile_args_base(const char *path, apr_pool_t *p);
/* Non-zero when the command line in argv[0..n-1] (each argument
 * NUL-terminated, as in Linux's /proc/self/cmdline; argv[n] is a NUL
 * too) asks httpd to stop:
 * "-k stop" or "-k graceful-stop", also written "-kstop". */
int profile_args_stop(const char *argv, apr_size_t n);

#endif
