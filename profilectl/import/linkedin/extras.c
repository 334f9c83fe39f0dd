/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/extras.c -- what import-linkedin reads of a LinkedIn
 * export beyond positions, schools, skills and projects (linkedin.c), into
 * the JSON Resume document it imports: Profile.csv's Websites, Twitter
 * Handles and Geo Location (with the 2018 Country), a URL column as a
 * link, Certifications.csv as certificates and Languages.csv as spoken
 * languages.  import/write_extras.c places them where CONTRACT §9 has a
 * home for them; docs/linkedin.md documents the columns.
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/linkedin/map.h"

/* Certifications.csv (2024 on): "Finished On" is when it expires. */
static const li_col_t cert_cols[] = {
    {{"Name"}, 1}, {{"Authority"}, 0}, {{"Url"}, 0},
    {{"Started On", "Start Date"}, 0}, {{"Finished On", "End Date"}, 0},
    {{"License Number"}, 0}, {{NULL}, 0}
};
/* Languages.csv (2018 on): the name in the profile's language, the
 * proficiency in LinkedIn's English words ("Native or bilingual
 * proficiency"), or empty. */
static const li_col_t language_cols[] = {
    {{"Name"}, 1}, {{"Proficiency"}, 0}, {{NULL}, 0}
};

void pc_li_put_url(li_t *li, json_t *obj, const pc_li_table_t *t,
                   const pc_li_row_t *r, const li_col_t *c)
{
    const char *u = pc_li_col(li, t, r, c), *url;
    profile_url_e why;

    if (!*u) {
        return;
    }
    url = pc_jr_link(u, 1, &why, li->im.c.p);
    if (url == NULL) {
        pc_jr_drop(&li->im, apr_psprintf(li->im.c.p, "%s %s (%s)", t->name,
                                         c->names[0],
                                         pc_jr_link_dropped(why)), 1);
        return;
    }
    pc_jr_set_str(obj, "url", url);
}

/* Profile.csv Websites: "PORTFOLIO:url, BLOG:url" (2018) or
 * "[PERSONAL:url]", "[BLOG:url,OTHER:url]" (newer); a URL may lack its
 * scheme (pc_jr_link).  The first site of the person's own becomes
 * basics.url (a "website" link whose text is its host), the others
 * profiles named by their network (kind github, gitlab...), or
 * "Website". */
void pc_li_websites(li_t *li, json_t *basics, const char *field)
{
    apr_pool_t *p = li->im.c.p;
    json_t *profiles = json_object_get(basics, "profiles"), *pr;
    char *list = apr_pstrdup(p, field), *last, *t, *colon, *k;
    const char *url, *net, *host;
    size_t n;
    profile_url_e why;

    if (*list == '[') {
        list++;
        n = strlen(list);
        if (n && list[n - 1] == ']') {
            list[n - 1] = '\0';
        }
    }
    for (t = apr_strtok(list, ",", &last); t;
         t = apr_strtok(NULL, ",", &last)) {
        while (apr_isspace(*t)) {
            t++;
        }
        /* "KIND:url": the kind is LinkedIn's (PORTFOLIO, BLOG...), not
         * the host's; "https://...", "example.com:8080" and
         * "javascript:..." have no kind. */
        colon = strchr(t, ':');
        for (k = t; k < colon && (apr_isupper(*k) || *k == '_'); k++) {
        }
        url = colon && k == colon && k > t && strncmp(colon, "://", 3) != 0
              ? colon + 1 : t;
        url = apr_pstrdup(p, url);
        apr_collapse_spaces((char *)url, url);
        if (!*url) {
            continue;
        }
        /* A site without a scheme is https; one the module would refuse
         * ("javascript:", "ftp:") is counted, not imported. */
        url = pc_jr_link(url, 1, &why, p);
        if (url == NULL) {
            pc_jr_drop(&li->im, apr_pstrcat(p, "Profile.csv Websites (",
                                            pc_jr_link_dropped(why), ")",
                                            NULL), 1);
            continue;
        }
        host = pc_li_host_of(url, p);
        net = pc_li_network_of(host);
        if (net == NULL && !*pc_jr_str(basics, "url")) {
            pc_jr_set_str(basics, "url", url);
            continue;
        }
        /* The import names a link's kind after its network: "Website"
         * gives the kind "website". */
        pr = json_object();
        pc_jr_set_str(pr, "network", net ? net : "Website");
        pc_jr_set_str(pr, "url", url);
        json_array_append_new(profiles, pr);
    }
}

/* Profile.csv Twitter Handles: "handle" (2018), "[handle]" or several
 * separated by commas, an "@" before one or not; each a link to its
 * page (kind twitter).  What is no handle (letters, digits and "_", at
 * most 15) is counted, not imported. */
void pc_li_twitter(li_t *li, json_t *basics, const char *field)
{
    apr_pool_t *p = li->im.c.p;
    char *list = apr_pstrdup(p, field), *last, *h, *end;
    size_t n;

    list += strspn(list, "[ ");
    n = strlen(list);
    while (n && (list[n - 1] == ']' || list[n - 1] == ' ')) {
        list[--n] = '\0';
    }
    for (h = apr_strtok(list, ",", &last); h;
         h = apr_strtok(NULL, ",", &last)) {
        h += strspn(h, " @");
        for (end = h; apr_isalnum(*end) || *end == '_'; end++) {
        }
        n = end - h;
        end += strspn(end, " ");
        if (n == 0 || n > 15 || *end) {
            pc_jr_drop(&li->im, "Profile.csv Twitter Handles (not a handle)",
                       1);
            continue;
        }
        json_array_append_new(json_object_get(basics, "profiles"),
                              json_pack("{ssss}", "network", "Twitter",
                                        "url", apr_pstrcat(
                                            p, "https://twitter.com/",
                                            apr_pstrndup(p, h, n), NULL)));
    }
}

/* "Madrid Area" and the 2018 Country "ES": "Madrid Area, ES", as
 * JSON Resume's basics.location is imported. */
void pc_li_location(li_t *li, json_t *basics, const char *geo,
                    const char *country)
{
    const char *parts[2];
    int n = 0;

    if (*geo) {
        parts[n++] = pc_li_squeeze(geo, strlen(geo), li->im.c.p);
    }
    if (*country) {
        parts[n++] = country;
    }
    if (n) {
        pc_jr_set_str(basics, "location",
                      pc_jr_join(n, parts, ", ", li->im.c.p));
    }
}

static void fill_certificate(li_t *li, const pc_li_table_t *t,
                             const pc_li_row_t *r, json_t *c)
{
    pc_jr_set_str(c, "name", pc_li_col(li, t, r, &cert_cols[0]));
    pc_jr_set_str(c, "issuer", pc_li_col(li, t, r, &cert_cols[1]));
    pc_li_put_url(li, c, t, r, &cert_cols[2]);
    pc_li_put_date(li, c, "date", t, r, &cert_cols[3]);
    pc_li_put_date(li, c, "validThrough", t, r, &cert_cols[4]);
    pc_jr_set_str(c, "credentialId", pc_li_col(li, t, r, &cert_cols[5]));
}

json_t *pc_li_certificates(li_t *li)
{
    return pc_li_rows(li, "Certifications.csv", cert_cols,
                      fill_certificate);
}

static void fill_language(li_t *li, const pc_li_table_t *t,
                          const pc_li_row_t *r, json_t *l)
{
    pc_jr_set_str(l, "language", pc_li_col(li, t, r, &language_cols[0]));
    pc_jr_set_str(l, "fluency", pc_li_col(li, t, r, &language_cols[1]));
}

json_t *pc_li_languages(li_t *li)
{
    return pc_li_rows(li, "Languages.csv", language_cols, fill_language);
}
