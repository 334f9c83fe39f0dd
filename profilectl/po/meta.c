/* SPDX-License-Identifier: Apache-2.0 */
/*
 * po/meta.c -- what export-po writes around the texts (po/po.h): the
 * header, made field by field with libgettextpo's po_header_set_field
 * from the previous file's header (so that the fields of translators'
 * tools, Plural-Forms and X-Poedit-*, stay), and each entry's extracted
 * comment (#.) saying what the text is and how long it may be.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <apr_lib.h>
#include <apr_strings.h>

#include "common/common.h"
#include "po/po.h"
#include "profile_text.h"

#define PLURAL_DEFAULT "nplurals=2; plural=(n != 1);"
#define LIST_COMMENT "A list: one item per line. The translation may have " \
    "more or fewer lines."

/* Language-Team and Plural-Forms of a new PO file (gettext's and
 * Poedit's values).  No text of a data file has plural forms: the field
 * is there for the tools that ask for it. */
static const struct {
    const char *tag, *team, *plural;
} languages[] = {
    {"en", "English", PLURAL_DEFAULT},
    {"es", "Spanish", PLURAL_DEFAULT},
    {"de", "German", PLURAL_DEFAULT},
    {"fr", "French", "nplurals=2; plural=(n > 1);"},
    {"pt", "Portuguese", PLURAL_DEFAULT},
    {"pt-BR", "Portuguese (Brazil)", "nplurals=2; plural=(n > 1);"},
    {"it", "Italian", PLURAL_DEFAULT},
    {"nl", "Dutch", PLURAL_DEFAULT},
    {"ca", "Catalan", PLURAL_DEFAULT},
    {"ja", "Japanese", "nplurals=1; plural=0;"},
    {"zh", "Chinese", "nplurals=1; plural=0;"},
    {NULL, NULL, NULL}
};

/* What each field is, by collection (the record key's first part):
 * `what` for a text or an item of a list, `list` for a list given per
 * language; `max`, when not 0, the characters the page has room for. */
static const struct {
    const char *coll, *field, *what, *list;
    int max;
} fields[] = {
    {"profile", "name", "The person's name, the page's heading.", NULL, 0},
    {"profile", "headline", "Headline: one line under the name, at the top "
     "of the page and in link previews.", NULL, 0},
    {"profile", "summary", "Summary: the paragraph under the headline that "
     "introduces the person.", NULL, 0},
    {"skills", "title", "Title of a group of skills (a heading).", NULL, 0},
    {"skills", "summary", "Summary of this group of skills: one sentence.",
     NULL, 0},
    {"skills", "skills", "A skill of this group, shown as a short tag. A "
     "name that is the same in every language (Python, Kubernetes): give "
     "it unchanged, and it is kept as one text for every language.",
     "The skills of this group, shown as short tags.", 0},
    {"experience", "role", "Role: the job title held (the heading of the "
     "role).", NULL, 0},
    {"experience", "company", "Company: the employer's name.", NULL, 0},
    {"experience", "context", "Context: a short line under the role (what "
     "the company does, the team, or where: a city or an address).", NULL,
     0},
    {"experience", "period", "Period: when the role was held, written as "
     "dates are written in the language (\"Mar 2021 – present\").", NULL, 0},
    {"experience", "highlights", "A highlight of this role: one "
     "achievement, a bullet point.", "The highlights of this role: "
     "achievements, bullet points.", 0},
    {"education", "degree", "Degree: what was studied (a heading).", NULL,
     0},
    {"education", "credential", "Credential: what was obtained (a degree, "
     "a certificate, honours), one line.", NULL, 0},
    {"education", "institution", "Institution: the school, university or "
     "certifying body.", NULL, 0},
    {"contacts", "label", "Label of a way to reach the person (\"Email\", "
     "\"Location\").", NULL, 0},
    {"contacts", "text", "Text shown for this contact (an address, a "
     "place).", NULL, 0},
    {"links", "text", "Text of a link to the person's page elsewhere.", NULL,
     0},
    {"caseStudies", "title", "Title of a case study: its card's heading and "
     "its page's title.", NULL, 0},
    {"caseStudies", "mobileTitle", "Short title of the case study, shown "
     "instead of its title on narrow screens (phones). When it is the "
     "same as the title, leave it empty: the title's translation is used.",
     NULL, 30},
    {"caseStudies", "summary", "Summary of the case study on its card: one "
     "or two sentences.", NULL, 0},
    {"caseStudies", "organization", "Organization the work was done for.",
     NULL, 0},
    {"caseStudies", "context", "Context: the situation before the work (a "
     "part of the case study's page).", NULL, 0},
    {"caseStudies", "problem", "Problem: what had to be solved (a part of "
     "the case study's page).", NULL, 0},
    {"caseStudies", "intervention", "Intervention: what was done (a part of "
     "the case study's page).", NULL, 0},
    {"caseStudies", "result", "Result: what came of it (a part of the case "
     "study's page).", NULL, 0},
    {"caseStudies", "resultItems", "A result of the case study, a bullet "
     "point.", "The results of the case study, bullet points.", 0},
    {"metrics", "value", "Value of a key figure (\"99.95%\", \"3×\"): write "
     "the number as the language does.", NULL, 0},
    {"metrics", "label", "Label of a key figure: a few words under its "
     "value.", NULL, 0},
    {"metrics", "summary", "Summary of a key figure: one sentence.", NULL,
     0},
    {NULL, NULL, NULL, NULL, 0}
};

static int tag_eq(const char *a, const char *b, size_t n)
{
    for (; n > 0; a++, b++, n--) {
        if (apr_tolower(*a == '_' ? '-' : *a)
            != apr_tolower(*b == '_' ? '-' : *b)) {
            return 0;
        }
    }
    return 1;
}

/* The table's row of `tag`: "pt_br" and "PT-BR" name "pt-BR", "es-MX"
 * names "es"; -1 when it has none. */
static int table_lang(const char *tag)
{
    size_t n = strcspn(tag, "-_");
    int i;

    for (i = 0; languages[i].tag; i++) {
        if (strlen(languages[i].tag) == strlen(tag)
            && tag_eq(languages[i].tag, tag, strlen(tag))) {
            return i;
        }
    }
    for (i = 0; languages[i].tag; i++) {
        if (strlen(languages[i].tag) == n
            && tag_eq(languages[i].tag, tag, n)) {
            return i;
        }
    }
    return -1;
}

/* *h with `field` set to `value`; with `keep`, only when *h has no
 * value for it yet. */
static void set(char **h, const char *field, const char *value, int keep)
{
    char *v = keep ? po_header_field(*h, field) : NULL, *n;

    if (v == NULL || *v == '\0') {
        n = po_header_set_field(*h, field, value);
        free(*h);
        *h = n;
    }
    free(v);
}

const char *pc_po_header_make(const pc_texts_t *tx, const char *lang,
                              po_file_t prev, apr_pool_t *p)
{
    const char *old = prev ? po_file_domain_header(prev, NULL) : NULL;
    const char *base = strrchr(tx->file, '/'), *s;
    char date[32] = "", *h = strdup(old ? old : ""), *tag;
    int l;
    struct stat st;
    time_t t;

    if (stat(tx->file, &st) == 0) {
        t = st.st_mtime;
        strftime(date, sizeof(date), "%Y-%m-%d %H:%M+0000", gmtime(&t));
    }
    set(&h, "Project-Id-Version", base ? base + 1 : tx->file, 0);
    set(&h, "Report-Msgid-Bugs-To", "", 1);
    set(&h, "POT-Creation-Date", date, 0);
    set(&h, "PO-Revision-Date", date, 1);
    set(&h, "Last-Translator", "", 1);
    /* A previous file's tag names the same language: kept as written
     * ("pt_BR" for a file's "pt"). */
    tag = lang ? po_header_field(h, "Language") : NULL;
    l = tag && *tag ? table_lang(tag) : lang ? table_lang(lang) : -1;
    free(tag);
    set(&h, "Language-Team", l >= 0 ? languages[l].team : "", 1);
    set(&h, "Language", lang ? lang : "", lang != NULL);
    set(&h, "MIME-Version", "1.0", 0);
    set(&h, "Content-Type", "text/plain; charset=UTF-8", 0);
    set(&h, "Content-Transfer-Encoding", "8bit", 0);
    if (lang != NULL) {
        set(&h, "Plural-Forms", l >= 0 ? languages[l].plural
                                       : PLURAL_DEFAULT, 1);
    }
    set(&h, "X-Generator", apr_pstrcat(p, pc_progname, " ", PACKAGE_VERSION,
                                       NULL), 0);
    set(&h, "X-Source-Language", tx->source, 0);
    s = apr_pstrdup(p, h);
    free(h);
    return s;
}

int pc_po_trailing_period(const char **start, const char **end,
                          const char *src, apr_pool_t *p)
{
    const char *sep = NULL, *s;

    for (s = strstr(src, JR_SEP); s != NULL; s = strstr(s + 1, JR_SEP)) {
        sep = s;
    }
    return sep != NULL
           && pc_jr_parse_period(start, end, sep + strlen(JR_SEP), p) == 0
           && (**start || **end);
}

/* "The record also has dates ...": a period the module could write. */
static const char *dates(const pc_text_t *t, apr_pool_t *p)
{
    const char *start = json_string_value(json_object_get(t->parent,
                                                          "start"));
    const char *end = json_string_value(json_object_get(t->parent, "end"));

    if (t->member == NULL || start == NULL) {
        return "";
    }
    return apr_psprintf(p, "\nThe record also has dates (%s%s%s): left "
                        "out of the data file, the period is written from "
                        "them.", end ? "" : "from ", start,
                        end ? apr_pstrcat(p, " to ", end, NULL)
                            : ", ongoing");
}

const char *pc_po_comment(const pc_texts_t *tx, const pc_text_t *t,
                          apr_pool_t *p)
{
    const char *slash = strchr(t->record, '/'), *src;
    size_t clen = slash ? (size_t)(slash - t->record) : strlen(t->record);
    size_t flen = strcspn(t->field, "[");
    const char *what = NULL, *extra = "", *s, *e;
    int i;

    for (i = 0; fields[i].coll && what == NULL; i++) {
        if (strlen(fields[i].coll) == clen
            && strncmp(fields[i].coll, t->record, clen) == 0
            && strlen(fields[i].field) == flen
            && strncmp(fields[i].field, t->field, flen) == 0) {
            what = t->list && fields[i].list ? fields[i].list
                                             : fields[i].what;
            if (fields[i].max > 0 && (src = pc_text_source(tx, t, p))) {
                extra = apr_psprintf(p, "\nAt most about %d characters (the "
                    "source has %" APR_SIZE_T_FMT ").", fields[i].max,
                    profile_utf8_count(src, strlen(src)));
            }
            else if (strcmp(fields[i].field, "period") == 0) {
                extra = dates(t, p);
            }
            else if (strcmp(fields[i].field, "credential") == 0
                     && (src = pc_text_source(tx, t, p)) != NULL
                     && pc_po_trailing_period(&s, &e, src, p)) {
                extra = "\nLeave out the dates after the last \" \xc2\xb7 \": "
                        "import-po writes them as the language writes "
                        "dates.";
            }
        }
    }
    if (what == NULL) {
        what = apr_psprintf(p, "The %s of %s.", t->field, t->record);
    }
    return apr_pstrcat(p, what, extra, t->list ? "\n" LIST_COMMENT : "",
                       NULL);
}
