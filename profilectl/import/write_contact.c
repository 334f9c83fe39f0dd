/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/write_contact.c -- the contact section of import-jsonresume:
 * basics.email and basics.phone as contacts (with mailto: and tel:
 * links), basics.url and basics.profiles as links, each link once.
 */
#include <string.h>
#include <strings.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "profile_text.h"
#include "import/stages.h"

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

typedef struct {
    json_t *e;                          /* the link */
    const char *url;
    const char *names[JR_MAX_LANGS];    /* its network, per language */
} jr_link_t;

/* The text of a link: its network's name, per language when the
 * languages name it differently ("Contact me", "Contáctame"); a
 * language without the profile takes the first's name. */
static json_t *link_text(jr_import_t *im, const jr_link_t *k)
{
    const char *first = NULL;
    json_t *obj;
    int l, same = 1;

    for (l = 0; l < im->n; l++) {
        if (k->names[l] != NULL) {
            first = first ? first : k->names[l];
            same = same && strcmp(k->names[l], first) == 0;
        }
    }
    if (same) {
        return json_string(first);
    }
    obj = json_object();
    for (l = 0; l < im->n; l++) {
        json_object_set_new(obj, im->langs[l],
                            json_string(k->names[l] ? k->names[l] : first));
    }
    return obj;
}

/* The links of basics.profiles: those of every language, each once
 * (the same URL), in the order of the first language that has it, its
 * text the network's name in each language.  The same URL twice in one
 * language under two names is counted as not imported.  A link is not a
 * translation: one that a language lacks is still the person's.  A
 * network without a URL is no link (it is counted as not imported). */
static void import_links(jr_import_t *im, json_t **basics, json_t *links)
{
    apr_pool_t *p = im->c.p;
    apr_array_header_t *seen = apr_array_make(p, 8, sizeof(jr_link_t));
    jr_link_t *k, *found;
    json_t *pr;
    size_t i;
    int l, j;
    const char *url, *net;

    for (l = 0; l < im->n; l++) {
        json_array_foreach(json_object_get(basics[l], "profiles"), i, pr) {
            url = pc_jr_str(pr, "url");
            net = pc_jr_str(pr, "network");
            if (!*url) {
                if (*net) {
                    /* A link needs somewhere to go: a network named
                     * without a URL (or a relative one) is not one. */
                    pc_jr_drop(im, "basics.profiles[] (no URL)", 1);
                }
                continue;
            }
            for (j = 0, found = NULL; j < seen->nelts && !found; j++) {
                k = &APR_ARRAY_IDX(seen, j, jr_link_t);
                found = same_url(url, k->url) ? k : NULL;
            }
            if (found == NULL) {
                found = apr_array_push(seen);
                memset(found, 0, sizeof(*found));
                found->url = url;
                found->e = json_object();
                json_array_append_new(links, found->e);
                json_object_set_new(found->e, "kind",
                                    json_string(pc_jr_kind_of(net, p)));
                /* In its place; its value once every language is read. */
                json_object_set_new(found->e, "text", json_null());
                json_object_set_new(found->e, "url", json_string(url));
            }
            if (found->names[l] == NULL) {
                found->names[l] = net;
            }
            else if (strcasecmp(found->names[l], net) != 0) {
                /* One page under two names in one language: the first
                 * kept, the other counted, never lost silently. */
                pc_jr_drop(im, "basics.profiles[] (same URL as another)", 1);
            }
        }
    }
    for (j = 0; j < seen->nelts; j++) {
        k = &APR_ARRAY_IDX(seen, j, jr_link_t);
        json_object_set_new(k->e, "text", link_text(im, k));
    }
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
            else if (d != digits && strchr("|,;\n", *s)) {
                /* "+58 412-555 | +58 414-555": the link calls the
                 * first (the text keeps both). */
                pc_jr_assume(im, -1, "$.basics.phone: \"%s\": more than "
                             "one number; the link calls the first", phone);
                break;
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

