/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/report.c -- what every import command (import-jsonresume,
 * import-linkedin, merge) says at its end: on success one note line per
 * assumption it made ("profilectl CMD: note: FILE: $.path: ..."), then
 * one summary line (records by collection, how many assumptions, what
 * was not imported); on failure every problem and how many; with --json
 * all of it as one JSON object on standard output instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_hash.h>
#include <apr_strings.h>
#include <jansson.h>

#include "common/common.h"
#include "import/stages.h"

/* The collections of the data file, as the summary counts them. */
static const char *const collections[] = {
    "experience", "education", "skills", "caseStudies", NULL
};

/* Why what was counted as not imported was not (CONTRACT §9, revised
 * 2026-11-28, names the homes of certifications, spoken languages, a
 * location and a project's link; what is listed here has none).  A
 * pattern that starts with '*' matches the end of the member ("... (no
 * URL)"); any other the whole of it.  The first match wins. */
#define NO_HOME "the data file has no place for it (CONTRACT \xc2\xa7" "9)"
#define PRIVATE "LinkedIn keeps it private, off the public profile; add " \
    "it by hand to publish it"
static const char *const reasons[][2] = {
    {"* (other languages)", "the data file holds one for every language: "
                            "the first language's is kept"},
    {"* (relative)", "a relative URL means nothing outside its own site"},
    {"* (not an " PROFILE_URL_SCHEMES " URL)",
     "the page links only " PROFILE_URL_SCHEMES " URLs (CONTRACT "
     "\xc2\xa7" "9)"},
    {"* (no URL)", "a link needs a URL"},
    {"* (same URL as another)", "one link per URL: the first name is kept"},
    {"* (as a link)", "no address a mailto: link can hold"},
    {"* (remark)", "a remark beside a date: the date is kept"},
    {"* (a text)", "a sentence where a list of entries goes"},
    {"* (not an entry)", "neither an entry nor a text"},
    {"* (not a list)", "not a list of entries"},
    {"* (not a text or an object)", "neither a text nor an object"},
    {"* (not a handle)", "not a handle (letters, digits and _, at most 15)"},
    {"basics.image", "the data file has no picture"},
    {"basics.profiles[].username", "a link's text is its network; the "
                                   "username is in its URL"},
    {"work[].summary", "the description is the role's context; a summary "
                       "beside it has no place"},
    {"education[].score", "an education record has no grade"},
    {"education[].courses", "an education record has no courses (a "
                            "certification is one of its own)"},
    {"projects[].keywords", "a case study has no keywords"},
    {"Profile.csv rows after the first", "an export has one profile"},
    {"Profile.csv Address", PRIVATE},
    {"Profile.csv Zip Code", PRIVATE},
    {"Profile.csv Birth Date", PRIVATE},
    {"Profile.csv Maiden Name", PRIVATE},
    {"Profile.csv Marital Status", PRIVATE},
    {"Profile.csv Contact Instructions", PRIVATE},
    {"Profile.csv Created Date", "when the LinkedIn account was made"},
    {"Profile.csv Instant Messengers", "a messenger's handle is no "
                                       PROFILE_URL_SCHEMES " link"},
    {"metrics", "JSON Resume, through which merge reads each file, has no "
                "metrics"},
    {"*caseStudies[].problem", "JSON Resume, through which merge reads "
                               "each file, has no place for it"},
    {"*caseStudies[].intervention", "JSON Resume, through which merge "
                                    "reads each file, has no place for it"},
    {"*caseStudies[].result", "JSON Resume, through which merge reads each "
                              "file, has no place for it"},
};

/* Counts `n` more of member `what` ("work[].summary") as not imported. */
void pc_jr_drop(jr_import_t *im, const char *what, int n)
{
    int *count = apr_hash_get(im->dropped_seen, what, APR_HASH_KEY_STRING);

    if (count == NULL) {
        count = apr_pcalloc(im->c.p, sizeof(*count));
        apr_hash_set(im->dropped_seen, what, APR_HASH_KEY_STRING, count);
        APR_ARRAY_PUSH(im->dropped, const char *) = what;
    }
    *count += n;
}

/* "12 × work[].summary, 3 × awards": what was counted by pc_jr_drop(). */
const char *pc_jr_dropped_list(jr_import_t *im)
{
    const char **items = apr_pcalloc(im->c.p, (im->dropped->nelts + 1)
                                              * sizeof(*items));
    const char *what;
    int i;

    for (i = 0; i < im->dropped->nelts; i++) {
        what = APR_ARRAY_IDX(im->dropped, i, const char *);
        items[i] = apr_psprintf(im->c.p, "%d \xc3\x97 %s",
                                *(int *)apr_hash_get(im->dropped_seen, what,
                                                     APR_HASH_KEY_STRING),
                                what);
    }
    return pc_jr_join(im->dropped->nelts, items, ", ", im->c.p);
}

const char *pc_jr_drop_reason(const char *what)
{
    size_t i, n = strlen(what), m;
    const char *pat;

    for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
        pat = reasons[i][0];
        if (*pat++ == '*') {
            m = strlen(pat);
            if (n >= m && strcmp(what + n - m, pat) == 0) {
                return reasons[i][1];
            }
        }
        else if (strcmp(what, pat - 1) == 0) {
            return reasons[i][1];
        }
    }
    return NO_HOME;
}

void pc_jr_import_init(jr_import_t *im, const char *cmd)
{
    memset(im, 0, sizeof(*im));
    im->c.cmd = cmd;
    im->c.p = pc_pool();
    im->dropped = apr_array_make(im->c.p, 8, sizeof(const char *));
    im->dropped_seen = apr_hash_make(im->c.p);
    im->notes = apr_array_make(im->c.p, 8, sizeof(const char *));
}

void pc_jr_assume(jr_import_t *im, int l, const char *fmt, ...)
{
    va_list ap;
    const char *msg;

    va_start(ap, fmt);
    msg = apr_pvsprintf(im->c.p, fmt, ap);
    va_end(ap);
    if (l >= 0) {
        msg = apr_pstrcat(im->c.p, im->files[l], ": ", msg, NULL);
    }
    APR_ARRAY_PUSH(im->notes, const char *) = msg;
}

static size_t count(json_t *doc, const char *coll, const char *sub)
{
    json_t *v = json_object_get(doc, coll);

    return json_array_size(sub ? json_object_get(v, sub) : v);
}

/* "6 experience, 0 education, 2 skills, 0 caseStudies, 1 contact,
 * 3 links". */
static const char *records(jr_import_t *im)
{
    apr_pool_t *p = im->c.p;
    const char *s = "";
    size_t n;
    int i;

    for (i = 0; collections[i]; i++) {
        n = count(im->result, collections[i], NULL);
        s = apr_psprintf(p, "%s%s" SZ " %s", s, i ? ", " : "", n,
                         collections[i]);
    }
    n = count(im->result, "contact", "contacts");
    s = apr_psprintf(p, "%s, " SZ " contact%s", s, n, n == 1 ? "" : "s");
    n = count(im->result, "contact", "links");
    return apr_psprintf(p, "%s, " SZ " link%s", s, n, n == 1 ? "" : "s");
}

static json_t *strings(apr_array_header_t *a)
{
    json_t *out = json_array();
    int i;

    for (i = 0; a && i < a->nelts; i++) {
        json_array_append_new(out, json_string(APR_ARRAY_IDX(a, i,
                                                             const char *)));
    }
    return out;
}

/* The report of --json on standard output. */
static int report_json(jr_import_t *im, int status)
{
    json_t *r = json_object(), *recs = json_object(), *drops = json_array();
    json_t *problems;
    const char *what;
    char *text;
    int i;

    json_object_set_new(r, "status", json_string(
        status == PC_EXIT_OK ? "written" : status == PC_EXIT_PROBLEMS
                                            ? "refused" : "unusable"));
    json_object_set_new(r, "exit", json_integer(status));
    json_object_set_new(r, "output", im->out ? json_string(im->out)
                                             : json_null());
    if (im->result) {
        for (i = 0; collections[i]; i++) {
            json_object_set_new(recs, collections[i], json_integer(
                (json_int_t)count(im->result, collections[i], NULL)));
        }
        json_object_set_new(recs, "contacts", json_integer(
            (json_int_t)count(im->result, "contact", "contacts")));
        json_object_set_new(recs, "links", json_integer(
            (json_int_t)count(im->result, "contact", "links")));
    }
    json_object_set_new(r, "records", recs);
    json_object_set_new(r, "assumptions", strings(im->notes));
    for (i = 0; i < im->dropped->nelts; i++) {
        what = APR_ARRAY_IDX(im->dropped, i, const char *);
        json_array_append_new(drops, json_pack(
            "{s:s, s:i, s:s}", "member", what, "count",
            *(int *)apr_hash_get(im->dropped_seen, what,
                                 APR_HASH_KEY_STRING),
            "reason", pc_jr_drop_reason(what)));
    }
    json_object_set_new(r, "notImported", drops);
    problems = strings(im->c.problems);
    if (json_array_size(problems) == 0 && status != PC_EXIT_OK
        && im->c.err) {
        json_array_append_new(problems, json_string(im->c.err));
    }
    json_object_set_new(r, "problems", problems);
    text = json_dumps(r, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(r);
    if (text == NULL) {
        return pc_fail(im->c.cmd, "out of memory");
    }
    /* main() checks that it was written (pc_stdout_done). */
    fputs(text, stdout);
    fputc('\n', stdout);
    free(text);
    return status;
}

void pc_jr_report(jr_import_t *im, int status)
{
    int i, n = im->notes ? im->notes->nelts : 0;

    if (status != PC_EXIT_OK || im->result == NULL) {
        return;
    }
    for (i = 0; i < n; i++) {
        fprintf(stderr, "profilectl %s: note: %s\n", im->c.cmd,
                APR_ARRAY_IDX(im->notes, i, const char *));
    }
    /* Each member not imported, with why; the summary counts them. */
    for (i = 0; i < im->dropped->nelts; i++) {
        const char *what = APR_ARRAY_IDX(im->dropped, i, const char *);

        fprintf(stderr, "profilectl %s: not imported: %d \xc3\x97 %s: %s\n",
                im->c.cmd, *(int *)apr_hash_get(im->dropped_seen, what,
                                                APR_HASH_KEY_STRING),
                what, pc_jr_drop_reason(what));
    }
    fprintf(stderr, "profilectl %s: imported %s: %s; %d assumption%s%s; "
            "not imported: %s\n", im->c.cmd,
            strcmp(im->out, "-") == 0 ? "(standard output)" : im->out,
            records(im), n, n == 1 ? "" : "s", n ? " (noted above)" : "",
            im->dropped->nelts ? pc_jr_dropped_list(im) : "nothing");
}

int pc_jr_import_end(jr_import_t *im, int status)
{
    int i;

    if (im->json) {
        status = report_json(im, status);
    }
    else if (status == PC_EXIT_OK) {
        pc_jr_report(im, status);
    }
    else if (im->c.problems && im->c.problems->nelts) {
        /* One line per problem, as a compiler (and profilectl check)
         * says it: "FILE: $.path: message"; then how many. */
        for (i = 0; i < im->c.problems->nelts; i++) {
            fprintf(stderr, "%s\n",
                    APR_ARRAY_IDX(im->c.problems, i, const char *));
        }
        fprintf(stderr, "profilectl %s: %d problem%s; nothing written\n",
                im->c.cmd, im->c.problems->nelts,
                im->c.problems->nelts == 1 ? "" : "s");
    }
    else if (im->c.err != NULL) {
        pc_fail(im->c.cmd, "%s", im->c.err);
    }
    for (i = 0; i < im->n; i++) {
        json_decref(im->docs[i]);
    }
    json_decref(im->result);
    apr_pool_destroy(im->c.p);
    return status;
}
