/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_import_contact.c -- the contact section of import-jsonresume:
 * basics.email and basics.phone as contacts (with mailto: and tel:
 * links), basics.url and basics.profiles as links, each link once.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_text.h"
#include "pc_jr.h"

/* Sets obj[key] to v, or fails when v is NULL (its message is set). */
static int put(json_t *obj, const char *key, json_t *v)
{
    if (v == NULL) {
        return -1;
    }
    json_object_set_new(obj, key, v);
    return 0;
}

/* The same URL in two spellings: case of the scheme and host, a final
 * slash. */
static int same_url(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);

    nx -= nx && x[nx - 1] == '/';
    ny -= ny && y[ny - 1] == '/';
    return nx == ny && strncasecmp(x, y, nx) == 0;
}

/* The links of basics.profiles: those of every language, each once
 * (the same URL; under another network name it is counted as not
 * imported), in the order of the first language that has it.  A
 * link is not a translation: one that a language lacks is still the
 * person's.  A network without a URL is no link (it is counted as not
 * imported). */
static void import_links(jr_import_t *im, json_t **basics, json_t *links)
{
    apr_pool_t *p = im->c.p;
    json_t *seen = json_array(), *pr, *x, *e;
    size_t i, j;
    int l, dup;
    const char *url, *net;

    for (l = 0; l < im->n; l++) {
        json_array_foreach(json_object_get(basics[l], "profiles"), i, pr) {
            url = pc_jr_str(pr, "url");
            net = pc_jr_str(pr, "network");
            dup = 0;
            json_array_foreach(seen, j, x) {
                if (same_url(url, pc_jr_str(x, "url"))) {
                    /* The same link under another name (a slip, or two
                     * names for one page): the first kept, the other
                     * counted, never lost silently. */
                    dup = 1 + (strcasecmp(net, pc_jr_str(x, "network"))
                               != 0);
                }
            }
            if (dup == 2) {
                pc_jr_drop(im, "basics.profiles[] (same URL as another)", 1);
            }
            if (!*url && *net) {
                /* A link needs somewhere to go: a network named without
                 * a URL (or with a relative one) is not imported. */
                pc_jr_drop(im, "basics.profiles[] (no URL)", 1);
            }
            if (dup || !*url) {
                continue;
            }
            json_array_append(seen, pr);
            e = json_object();
            json_array_append_new(links, e);
            json_object_set_new(e, "kind",
                                json_string(pc_jr_kind_of(net, p)));
            json_object_set_new(e, "text", json_string(net));
            json_object_set_new(e, "url", json_string(url));
        }
    }
    json_decref(seen);
}

int pc_jr_import_contact(jr_import_t *im, json_t **basics, json_t *out)
{
    apr_pool_t *p = im->c.p;
    json_t *contact = json_object(), *contacts = json_array();
    json_t *links = json_array(), *e;
    const char *email = pc_jr_neutral(im, basics, "email", "$.basics");
    const char *phone = pc_jr_neutral(im, basics, "phone", "$.basics");
    const char *url = pc_jr_neutral(im, basics, "url", "$.basics"), *tel, *s;
    size_t n;
    profile_url_e why;

    json_object_set_new(out, "contact", contact);
    json_object_set_new(contact, "contacts", contacts);
    json_object_set_new(contact, "links", links);
    if (email == NULL || phone == NULL || url == NULL) {
        return -1;
    }
    if (*email) {
        e = json_object();
        json_array_append_new(contacts, e);
        json_object_set_new(e, "kind", json_string("email"));
        if (put(e, "label", pc_jr_contact_label(im, 0))) {
            return -1;
        }
        json_object_set_new(e, "text", json_string(email));
        /* An address with a space or a control character inside is no
         * link the module serves: the text stays, the link is left
         * out. */
        s = email;
        n = strlen(s);
        profile_text_trim(&s, &n);
        s = pc_jr_link(apr_pstrcat(p, "mailto:", apr_pstrmemdup(p, s, n),
                                   NULL), 0, &why, p);
        if (s == NULL) {
            pc_jr_drop(im, "basics.email (as a link)", 1);
        }
        json_object_set_new(e, "url", json_string(s ? s : ""));
    }
    if (*phone) {
        char *digits = apr_palloc(p, strlen(phone) + 1), *d = digits;

        for (s = phone; *s; s++) {
            if (apr_isdigit(*s) || (*s == '+' && d == digits)) {
                *d++ = *s;
            }
        }
        *d = '\0';
        tel = *digits ? apr_pstrcat(p, "tel:", digits, NULL) : "";
        e = json_object();
        json_array_append_new(contacts, e);
        json_object_set_new(e, "kind", json_string("phone"));
        if (put(e, "label", pc_jr_contact_label(im, 1))) {
            return -1;
        }
        json_object_set_new(e, "text", json_string(phone));
        json_object_set_new(e, "url", json_string(tel));
    }
    if (*url) {
        s = url;
        if (strncasecmp(s, "https://", 8) == 0) {
            s += 8;
        }
        else if (strncasecmp(s, "http://", 7) == 0) {
            s += 7;
        }
        n = strlen(s);
        e = json_object();
        json_array_append_new(links, e);
        json_object_set_new(e, "kind", json_string("website"));
        json_object_set_new(e, "text", json_stringn(s, n && s[n - 1] == '/'
                                                       ? n - 1 : n));
        json_object_set_new(e, "url", json_string(url));
    }
    import_links(im, basics, links);
    return 0;
}

