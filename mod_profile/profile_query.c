/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_query.c -- the strict query rules of CONTRACT §8:
 * split on "&" (empty pieces ignored), percent-decode names and values
 * with "+" as space, require UTF-8, reject unknown and repeated names,
 * trim the value and bound it to 1-100 code points with no controls.
 *
 * Decoding is APR's (apr_unescape_url); httpd's ap_args_to_table is not
 * strict enough (see the notes).  Pure core: no httpd headers.
 */
#include <string.h>

#include <apr_escape.h>
#include <apr_hash.h>
#include <apr_strings.h>

#include "profile_query.h"
#include "profile_text.h"

#define PRINTABLE_MAX 64

/* Decodes s[0..len) into a new pool string.  Returns APR_SUCCESS,
 * APR_EINVAL (bad %-sequence) or APR_BADCH (not UTF-8). */
static apr_status_t decode(const char **out, apr_size_t *out_len,
                           const char *s, apr_size_t len, apr_pool_t *p)
{
    apr_size_t n = 0;
    char *buf = apr_palloc(p, len + 1);
    apr_status_t rv;

    rv = apr_unescape_url(buf, s, (apr_ssize_t)len, NULL, NULL, 1, &n);
    if (rv != APR_SUCCESS && rv != APR_NOTFOUND && rv != APR_BADCH) {
        return APR_EINVAL;
    }
    /* APR_BADCH only flags a decoded NUL, which the value rules reject as
     * a control character; n counts the terminating NUL. */
    n = n > 0 ? n - 1 : 0;
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return profile_utf8_valid(buf, n) ? APR_SUCCESS : APR_BADCH;
}

/* Records one problem per name, at most PROFILE_QUERY_MAX_PROBLEMS. */
static void add_problem(profile_query_t *q, apr_hash_t *named,
                        const char *name, profile_qp_reason_e reason)
{
    profile_qp_problem_t *pr;

    if (apr_hash_get(named, name, APR_HASH_KEY_STRING) != NULL) {
        return;
    }
    q->nproblems++;
    if (q->problems->nelts >= PROFILE_QUERY_MAX_PROBLEMS) {
        return;
    }
    apr_hash_set(named, name, APR_HASH_KEY_STRING, name);
    pr = apr_array_push(q->problems);
    pr->name = name;
    pr->reason = reason;
}

apr_status_t profile_query_parse(profile_query_t *out, const char *args,
                                 const char *allowed, apr_pool_t *p)
{
    const char *piece = args;
    const char *value = NULL;
    apr_size_t value_len = 0;
    int seen = 0, repeated = 0, slot = 0;
    int bad_value = -1;             /* reason when the value is unusable */
    apr_hash_t *named;

    out->value = NULL;
    out->value_len = 0;
    out->nproblems = 0;
    out->problems = apr_array_make(p, 2, sizeof(profile_qp_problem_t));
    if (args == NULL || *args == '\0') {
        return APR_SUCCESS;         /* the usual request: nothing to read */
    }
    named = apr_hash_make(p);

    while (piece != NULL && *piece != '\0') {
        const char *amp = strchr(piece, '&');
        apr_size_t len = amp ? (apr_size_t)(amp - piece) : strlen(piece);
        const char *eq = memchr(piece, '=', len);
        apr_size_t name_raw_len = eq ? (apr_size_t)(eq - piece) : len;
        const char *name, *val = "";
        apr_size_t name_len, val_len = 0;
        apr_status_t rv;

        if (len == 0) {
            piece = amp + 1;
            continue;
        }
        rv = decode(&name, &name_len, piece, name_raw_len, p);
        if (rv != APR_SUCCESS) {
            add_problem(out, named, profile_text_printable(piece, name_raw_len,
                                                    PRINTABLE_MAX, p),
                        rv == APR_EINVAL ? PROFILE_QP_BAD_ENCODING
                                         : PROFILE_QP_BAD_UTF8);
        }
        else if (allowed == NULL || strlen(allowed) != name_len
                 || memcmp(name, allowed, name_len) != 0) {
            add_problem(out, named, profile_text_printable(name, name_len,
                                                    PRINTABLE_MAX, p),
                        PROFILE_QP_UNKNOWN);
        }
        else if (seen++) {
            repeated = 1;
        }
        else {
            slot = out->problems->nelts;
            if (eq != NULL) {
                rv = decode(&val, &val_len, eq + 1,
                            len - name_raw_len - 1, p);
            }
            if (rv == APR_EINVAL) {
                bad_value = PROFILE_QP_BAD_ENCODING;
            }
            else if (rv != APR_SUCCESS) {
                bad_value = PROFILE_QP_BAD_UTF8;
            }
            else {
                profile_text_trim(&val, &val_len);
                if (val_len == 0) {
                    bad_value = PROFILE_QP_EMPTY;
                }
                else if (profile_text_has_control(val, val_len)) {
                    bad_value = PROFILE_QP_CONTROL;
                }
                else if (profile_utf8_count(val, val_len)
                         > PROFILE_QUERY_MAX_CHARS) {
                    bad_value = PROFILE_QP_TOO_LONG;
                }
                value = val;
                value_len = val_len;
            }
        }
        piece = amp ? amp + 1 : NULL;
    }

    if (repeated || bad_value >= 0) {
        int last = out->problems->nelts;

        add_problem(out, named, allowed, repeated ? PROFILE_QP_REPEATED
                                    : (profile_qp_reason_e)bad_value);
        /* Move it to where the parameter first appeared: query order. */
        if (out->problems->nelts > last && slot < last) {
            profile_qp_problem_t *a = (profile_qp_problem_t *)
                                      out->problems->elts;
            profile_qp_problem_t pr = a[last];

            memmove(&a[slot + 1], &a[slot], sizeof(pr) * (size_t)(last - slot));
            a[slot] = pr;
        }
    }
    if (out->nproblems > 0) {
        return APR_EINVAL;
    }
    if (seen) {
        out->value = apr_pstrmemdup(p, value, value_len);
        out->value_len = value_len;
    }
    return APR_SUCCESS;
}
