/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_hdr.c -- tokenizer for comma-separated header lists with
 * weights (RFC 9110 §5.6.1, §12.4.2).  Tolerant by design: a malformed
 * element is reported to the caller, which skips it; nothing here fails.
 *
 * Pure core: no httpd headers.
 */
#include <stddef.h>

#include "profile_hdr.h"

#define IS_OWS(c) ((c) == ' ' || (c) == '\t')

int profile_hdr_qvalue(const char *s, apr_size_t len)
{
    int q, scale = 100;
    apr_size_t i;

    if (len == 0 || (s[0] != '0' && s[0] != '1')) {
        return -1;
    }
    q = (s[0] - '0') * 1000;
    if (len == 1) {
        return q;
    }
    if (s[1] != '.' || len > 5) {
        return -1;
    }
    for (i = 2; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        q += (s[i] - '0') * scale;
        scale /= 10;
    }
    return q > 1000 ? -1 : q;
}

/* Skips a parameter value: a token or a quoted-string.  Returns the end. */
static const char *skip_value(const char *p, int *malformed)
{
    if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (*p == '\\' && p[1]) {
                p++;
            }
            p++;
        }
        if (*p != '"') {
            *malformed = 1;
            return p;
        }
        return p + 1;
    }
    while (*p && *p != ',' && *p != ';' && !IS_OWS(*p)) {
        p++;
    }
    return p;
}

int profile_hdr_next(const char **cursor, profile_hdr_elem_t *elem)
{
    const char *p = *cursor;
    const char *end;
    int seen_q = 0;

    if (p == NULL) {
        return 0;
    }
    while (*p == ',' || IS_OWS(*p)) {
        p++;
    }
    if (*p == '\0') {
        *cursor = p;
        return 0;
    }
    elem->token = p;
    elem->q = 1000;
    elem->has_params = 0;
    elem->malformed = 0;
    while (*p && *p != ',' && *p != ';') {
        p++;
    }
    end = p;
    while (end > elem->token && IS_OWS(end[-1])) {
        end--;
    }
    elem->token_len = (apr_size_t)(end - elem->token);

    while (*p == ';') {
        const char *name, *value;
        apr_size_t name_len;

        p++;
        while (IS_OWS(*p)) {
            p++;
        }
        name = p;
        while (*p && *p != '=' && *p != ',' && *p != ';' && !IS_OWS(*p)) {
            p++;
        }
        name_len = (apr_size_t)(p - name);
        /* "es;" and "es;;q=1" break the grammar (RFC 9110 §5.6.6). */
        if (*p != '=' || name_len == 0) {
            elem->malformed = 1;
            break;
        }
        value = ++p;
        p = skip_value(p, &elem->malformed);
        if (name_len == 1 && (name[0] == 'q' || name[0] == 'Q')) {
            int q = profile_hdr_qvalue(value, (apr_size_t)(p - value));
            /* One weight at most (RFC 9110 §12.4.2). */
            if (q < 0 || seen_q++) {
                elem->malformed = 1;
            }
            else {
                elem->q = q;
            }
        }
        else {
            elem->has_params = 1;
        }
        while (IS_OWS(*p)) {
            p++;
        }
        if (*p != ';' && *p != ',' && *p != '\0') {
            elem->malformed = 1;
            break;
        }
    }
    /* Resynchronise on the next element whatever happened above. */
    while (*p && *p != ',') {
        if (*p == '"') {
            p = skip_value(p, &elem->malformed);
            continue;
        }
        p++;
    }
    *cursor = p;
    return 1;
}
