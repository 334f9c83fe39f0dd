/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/names.c -- whether a name written in one language is to be
 * translated (import/stages.h): a skill's name, a project's title.  The
 * importers write one that is as a language-tagged text, and any other
 * as a plain string, the same in every language (docs/translating.md,
 * "Skills").
 */
#include <string.h>

#include "import/stages.h"

/* Whether word w (n bytes) of a skill's name is a word of the language
 * rather than part of a name: all lowercase in a `phrase` of words
 * ("communicator", "solving"; not "on" of Ruby on Rails; not docker or
 * npm alone), or ending as the language's abstract nouns do after a
 * stem with a vowel (Leadership, Adaptability, Testing, Architecture,
 * Teamfähigkeit, Comunicación; not Spring).  A byte of UTF-8 counts as
 * a lowercase letter.  A word with a digit, a symbol or a capital after
 * its first letter (C++, Node.js, PostgreSQL, AWS) is a name. */
static int common_word(const char *w, size_t n, int phrase)
{
    static const char *const endings[] = {
        "ing", "tion", "sion", "ment", "ness", "ship", "ity", "ance",
        "ence", "ics", "ism", "ysis", "phy", "thy", "ogy", "ture", "mwork",
        "ign", "ed", "keit", "heit", "ung", "ci\xc3\xb3n", "dad",
        "it\xc3\xa9", NULL    /* German, Spanish, French */
    };
    size_t i, k;
    int lower = 1;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)w[i];

        if (!((c >= 'a' && c <= 'z') || c >= 0x80
              || (i == 0 && c >= 'A' && c <= 'Z'))) {
            return 0;           /* a digit, a symbol, an inner capital */
        }
        lower &= c >= 'a';
    }
    if (lower && phrase) {
        return n >= 3;
    }
    for (k = 0; endings[k] && n >= 6; k++) {
        size_t e = strlen(endings[k]);

        /* A stem with a vowel: Testing, Design; not Spring, Swing. */
        if (strncmp(w + n - e, endings[k], e) == 0
            && strcspn(w, "aeiouyAEIOUY") < n - e) {
            return 1;
        }
    }
    return 0;
}

/* Whether skill name s is to be translated: one of its words (split at
 * spaces, '-', '/' and brackets) is a common_word.  Any other name
 * (Kubernetes, Go, C, Spring Boot, Visual Studio Code) reads the same
 * in every language and stays a plain string.  A name taken for a word
 * is exported to translators, and import-po writes it once for every
 * language when they give it unchanged. */
int pc_jr_translatable_name(const char *s)
{
    size_t n = strlen(s), i, start = 0;

    for (i = 0; i <= n; i++) {
        if (i == n || strchr(" \t-/()", s[i]) != NULL) {
            if (i > start && common_word(s + start, i - start,
                                         i - start < n)) {
                return 1;
            }
            start = i + 1;
        }
    }
    return 0;
}
