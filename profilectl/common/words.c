/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/words.c -- the words the imports write in each language and
 * the export reads back (common.h, pc_jr_word).
 */
#include <string.h>
#include <strings.h>

#include "common/common.h"

/* The words the import writes for what it places (English for a
 * language without them); "pt-BR" is Portuguese.  English says "Spoken
 * languages": a skill group "Languages" is often programming ones. */
static const struct {
    const char *lang, *w[4];
} word_table[] = {
    {"en", {"Certification", "Spoken languages", "Location",
            "Credential ID"}},
    {"es", {"Certificaci\xc3\xb3n", "Idiomas", "Ubicaci\xc3\xb3n",
            "ID de la credencial"}},
    {"de", {"Zertifizierung", "Sprachen", "Standort", "Nachweis-ID"}},
    {"fr", {"Certification", "Langues", "Localisation", "Identifiant"}},
    {"pt", {"Certifica\xc3\xa7\xc3\xa3o", "Idiomas",
            "Localiza\xc3\xa7\xc3\xa3o", "ID da credencial"}},
    {"it", {"Certificazione", "Lingue", "Localit\xc3\xa0",
            "ID credenziale"}},
};

const char *pc_jr_word(int which, const char *lang)
{
    size_t i, n;

    for (i = 0; i < sizeof(word_table) / sizeof(word_table[0]); i++) {
        n = strlen(word_table[i].lang);
        if (strncasecmp(lang, word_table[i].lang, n) == 0
            && (lang[n] == '\0' || lang[n] == '-')) {
            return word_table[i].w[which];
        }
    }
    return word_table[0].w[which];
}
