/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/text.c -- the texts of a LinkedIn export as import-linkedin
 * reads them: a description's bullet lines as highlights and the rest as
 * its context, spaces squeezed, and the network a website belongs to
 * (docs/linkedin.md).
 */
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>
#include <jansson.h>

#include "import/import.h"
#include "import/linkedin/linkedin.h"

/* Is s (n bytes) a bullet mark: "•" anywhere, "-" or "*" where a line
 * starts? */
static int bullet_at(const char *s, int line_start)
{
    if (strncmp(s, "\xe2\x80\xa2", 3) == 0) {
        return 3;
    }
    if (line_start && (*s == '-' || *s == '*')
        && (s[1] == ' ' || s[1] == '\t')) {
        return 1;
    }
    return 0;
}

/* Text with its runs of white space (tabs, newlines, U+FFFC object
 * replacement characters) as one space, trimmed. */
const char *pc_li_squeeze(const char *s, apr_size_t n, apr_pool_t *p)
{
    char *out = apr_palloc(p, n + 1), *d = out;
    apr_size_t i;
    int space = 1;

    for (i = 0; i < n; i++) {
        if (apr_isspace(s[i]) || strncmp(s + i, "\xef\xbf\xbc", 3) == 0) {
            if (!apr_isspace(s[i])) {
                i += 2;
            }
            if (!space) {
                *d++ = ' ';
            }
            space = 1;
            continue;
        }
        *d++ = s[i];
        space = 0;
    }
    while (d > out && d[-1] == ' ') {
        d--;
    }
    *d = '\0';
    return out;
}

/* Splits a description into its prose (the context) and its bullets
 * (the highlights).  A bullet starts at "•" anywhere, or at "-" or "*"
 * and a space where a line starts: after a newline, or after a run of
 * two or more spaces (LinkedIn flattens the line breaks of newer exports
 * into such runs); it runs to the next bullet or line break.  Every
 * other piece of text is prose, joined in order with a space. */
void pc_li_split_description(const char **context, json_t *highlights,
                              const char *text, apr_pool_t *p)
{
    const char *s = text, *piece = text, *prose = "";
    int in_bullet = 0, line_start = 1, spaces = 0, k;

    for (;;) {
        k = *s ? bullet_at(s, line_start) : 0;
        if (*s == '\0' || k || *s == '\n') {
            const char *t = pc_li_squeeze(piece, s - piece, p);

            if (in_bullet && *t) {
                json_array_append_new(highlights, json_string(t));
            }
            else if (*t) {
                prose = apr_pstrcat(p, prose, *prose ? " " : "", t, NULL);
            }
            if (*s == '\0') {
                break;
            }
            in_bullet = k != 0;
            s += k ? k : 1;
            piece = s;
            line_start = !k;
            spaces = 0;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '\r') {
            spaces++;
            line_start = line_start || spaces >= 2;
        }
        else {
            /* A bullet found after a run of spaces ends the piece before
             * the run: pc_li_squeeze() drops the run. */
            line_start = 0;
            spaces = 0;
        }
        s++;
    }
    *context = prose;
}

/* The host of a URL (scheme-less or not), lower case, without "www.". */
const char *pc_li_host_of(const char *url, apr_pool_t *p)
{
    const char *s = strstr(url, "://"), *e;
    char *h;
    int i;

    s = s ? s + 3 : url;
    for (e = s; *e && *e != '/' && *e != ':' && *e != '?' && *e != '#';
         e++) {
    }
    h = apr_pstrndup(p, s, e - s);
    for (i = 0; h[i]; i++) {
        h[i] = apr_tolower(h[i]);
    }
    return strncmp(h, "www.", 4) == 0 ? h + 4 : h;
}

/* The network a host is (its name gives the link's kind), or NULL for a
 * website of the person's own. */
const char *pc_li_network_of(const char *host)
{
    static const char *const nets[][2] = {
        {"github.com", "GitHub"}, {"linkedin.com", "LinkedIn"},
        {"gitlab.com", "GitLab"}, {"twitter.com", "Twitter"},
        {"x.com", "X"}, {"bitbucket.org", "Bitbucket"},
        {"stackoverflow.com", "Stack Overflow"}, {"medium.com", "Medium"},
        {"youtube.com", "YouTube"}, {"facebook.com", "Facebook"},
        {"instagram.com", "Instagram"}, {"behance.net", "Behance"},
        {"dribbble.com", "Dribbble"}, {"kaggle.com", "Kaggle"},
        {"slideshare.net", "SlideShare"}, {"xing.com", "XING"},
        {"mastodon.social", "Mastodon"}, {"codefights.com", "CodeFights"},
        {"trailblazer.me", "Trailblazer"}, {NULL, NULL}
    };
    size_t n = strlen(host), m;
    int i;

    for (i = 0; nets[i][0]; i++) {
        m = strlen(nets[i][0]);
        if (strcmp(host, nets[i][0]) == 0
            || (n > m && host[n - m - 1] == '.'
                && strcmp(host + n - m, nets[i][0]) == 0)) {
            return nets[i][1];
        }
    }
    return NULL;
}

