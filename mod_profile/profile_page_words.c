/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_page_words.c -- the page's own words (headings, links, the 404
 * and 503 pages) in each language it has them in, the names languages
 * have in themselves, and Open Graph's locales.  A language missing here
 * gets English words, marked lang="en" where they stand (profile_page.c).
 *
 * Pure core: libc and APR only; never an httpd header.
 */
#include <string.h>

#include <apr_strings.h>

#include "profile_page.h"

const char *const profile_page_word_langs[] = {"en", "es", NULL};

static const char *const words[PROFILE_PAGE_WORD_NLANGS][PW_COUNT] = {
    {
        [PW_SKIP] = "Skip to content",
        [PW_SECTIONS] = "Sections",
        [PW_LANGUAGE] = "Language",
        [PW_METRICS] = "Results",
        [PW_EXPERIENCE] = "Experience",
        [PW_CASE_STUDIES] = "Case studies",
        [PW_SKILLS] = "Skills",
        [PW_EDUCATION] = "Education",
        [PW_CONTACT] = "Contact",
        [PW_READ_CASE] = "Read the case study",
        [PW_CONTEXT] = "Context",
        [PW_PROBLEM] = "Problem",
        [PW_INTERVENTION] = "What was done",
        [PW_RESULT] = "Result",
        [PW_BACK] = "Back to the profile",
        [PW_UPDATED] = "Updated",
        [PW_NOT_FOUND] = "Page not found",
        [PW_NOT_FOUND_TEXT] = "There is no page at this address.",
        [PW_UNAVAILABLE] = "Profile temporarily unavailable",
        [PW_UNAVAILABLE_TEXT] = "This profile cannot be shown right now. "
                                "Please try again in a minute.",
        [PW_NOT_ALLOWED] = "Method not allowed",
        [PW_NOT_ALLOWED_TEXT] = "This page can only be read.",
        [PW_PERMALINK] = "Link to this role",
        [PW_HIGHLIGHTS] = "Highlights",
        [PW_LANG_NAME] = "English",
        [PW_API] = "The same profile as JSON",
    },
    {
        [PW_SKIP] = "Saltar al contenido",
        [PW_SECTIONS] = "Secciones",
        [PW_LANGUAGE] = "Idioma",
        [PW_METRICS] = "Resultados",
        [PW_EXPERIENCE] = "Experiencia",
        [PW_CASE_STUDIES] = "Casos de estudio",
        [PW_SKILLS] = "Competencias",
        [PW_EDUCATION] = "Formación",
        [PW_CONTACT] = "Contacto",
        [PW_READ_CASE] = "Leer el caso de estudio",
        [PW_CONTEXT] = "Contexto",
        [PW_PROBLEM] = "Problema",
        [PW_INTERVENTION] = "Qué se hizo",
        [PW_RESULT] = "Resultado",
        [PW_BACK] = "Volver al perfil",
        [PW_UPDATED] = "Actualizado",
        [PW_NOT_FOUND] = "Página no encontrada",
        [PW_NOT_FOUND_TEXT] = "No hay ninguna página en esta dirección.",
        [PW_UNAVAILABLE] = "Perfil no disponible por el momento",
        [PW_UNAVAILABLE_TEXT] = "Este perfil no se puede mostrar ahora. "
                                "Vuelva a intentarlo dentro de un minuto.",
        [PW_NOT_ALLOWED] = "Método no permitido",
        [PW_NOT_ALLOWED_TEXT] = "Esta página solo se puede leer.",
        [PW_PERMALINK] = "Enlace a este puesto",
        [PW_HIGHLIGHTS] = "Logros",
        [PW_LANG_NAME] = "Español",
        [PW_API] = "El mismo perfil en JSON",
    },
};

static int word_lang(const char *lang)
{
    int i;

    for (i = 0; i < PROFILE_PAGE_WORD_NLANGS; i++) {
        if (strcasecmp(lang, profile_page_word_langs[i]) == 0) {
            return i;
        }
    }
    return -1;
}

int profile_page_has_words(const char *lang)
{
    return word_lang(lang) >= 0;
}

const char *profile_page_word(profile_page_word_e w, const char *lang,
                              int *english)
{
    int i = word_lang(lang);

    if (english != NULL) {
        *english = i < 0;
    }
    return words[i < 0 ? 0 : i][w];
}

/* The names of languages a profile is commonly published in, in
 * themselves, and Open Graph's locale (language_TERRITORY) for each. */
static const struct {
    const char *tag, *name, *locale;
} known[] = {
    {"en", "English", "en_US"},
    {"es", "Español", "es_ES"},
    {"ca", "Català", "ca_ES"},
    {"de", "Deutsch", "de_DE"},
    {"eu", "Euskara", "eu_ES"},
    {"fr", "Français", "fr_FR"},
    {"gl", "Galego", "gl_ES"},
    {"it", "Italiano", "it_IT"},
    {"nl", "Nederlands", "nl_NL"},
    {"pl", "Polski", "pl_PL"},
    {"pt", "Português", "pt_PT"},
    {"sv", "Svenska", "sv_SE"},
};

static int known_index(const char *tag)
{
    apr_size_t i;

    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strcasecmp(tag, known[i].tag) == 0) {
            return (int)i;
        }
    }
    return -1;
}

const char *profile_page_lang_name(const char *tag)
{
    int i = known_index(tag);

    return i < 0 ? tag : known[i].name;
}

const char *profile_page_og_locale(const char *tag)
{
    int i = known_index(tag);

    return i < 0 ? tag : known[i].locale;
}
