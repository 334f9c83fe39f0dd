// SPDX-License-Identifier: Apache-2.0
// The page's own texts.  A language missing here, or a text missing in
// it, falls back to English text by text: a data file in "de" gets its
// German content inside English labels until "de" is added here (and a
// button in index.html).

const TEXTS = {
    en: {
        skip: "Skip to content",
        sections: "Sections",
        language: "Language",
        print: "Print CV",
        loading: "Loading…",
        metrics: "Results",
        experience: "Experience",
        caseStudies: "Case studies",
        skills: "Skills",
        education: "Education",
        contact: "Contact",
        links: "Links",
        company: "Company",
        allCompanies: "All companies",
        searchSkills: "Search skills",
        search: "Search",
        close: "Close",
        retry: "Try again now",
        details: "Details",
        detailsOf: "Details: {name}",
        readCase: "Read the case study",
        readCaseOf: "Read the case study: {name}",
        problem: "Problem",
        intervention: "Intervention",
        result: "Result",
        context: "Context",
        highlights: "Highlights",
        noMatch: "No skill group matches “{q}”.",
        groups: "{n} skill groups match “{q}”.",
        group1: "1 skill group matches “{q}”.",
        records: "{n} roles at {c}.",
        record1: "1 role at {c}.",
        noRecords: "No role at {c}.",
        unavailable: "The profile is temporarily unavailable.",
        countdown: "Trying again in {n} s.",
        down: "The profile’s server cannot be reached. Check your connection, then try again.",
        failed: "This part could not be loaded.",
        empty: "Nothing here yet.",
        footer: "Content in {lang}",
        updated: "updated {date}",
        langName: "English",
    },
    es: {
        skip: "Saltar al contenido",
        sections: "Secciones",
        language: "Idioma",
        print: "Imprimir CV",
        loading: "Cargando…",
        metrics: "Resultados",
        experience: "Experiencia",
        caseStudies: "Casos de estudio",
        skills: "Competencias",
        education: "Formación",
        contact: "Contacto",
        links: "Enlaces",
        company: "Empresa",
        allCompanies: "Todas las empresas",
        searchSkills: "Buscar competencias",
        search: "Buscar",
        close: "Cerrar",
        retry: "Reintentar ahora",
        details: "Detalles",
        detailsOf: "Detalles: {name}",
        readCase: "Leer el caso de estudio",
        readCaseOf: "Leer el caso de estudio: {name}",
        problem: "Problema",
        intervention: "Intervención",
        result: "Resultado",
        context: "Contexto",
        highlights: "Logros",
        noMatch: "Ningún grupo de competencias coincide con «{q}».",
        groups: "{n} grupos de competencias coinciden con «{q}».",
        group1: "1 grupo de competencias coincide con «{q}».",
        records: "{n} puestos en {c}.",
        record1: "1 puesto en {c}.",
        noRecords: "Ningún puesto en {c}.",
        unavailable: "El perfil no está disponible en este momento.",
        countdown: "Nuevo intento en {n} s.",
        down: "No se puede contactar con el servidor del perfil. Compruebe su conexión y vuelva a intentarlo.",
        failed: "No se ha podido cargar esta parte.",
        empty: "Todavía no hay nada aquí.",
        footer: "Contenido en {lang}",
        updated: "actualizado el {date}",
        langName: "español",
    },
};

/** The page's languages, in the order of preference when nothing else
 *  decides. */
export const PAGE_LANGUAGES = Object.keys(TEXTS);

/** t("es", "groups", {n: 2, q: "x"}): the text in that language, or in
 *  English when it has none. */
export function t(lang, key, vars = {}) {
    const primary = String(lang || "en").toLowerCase().split("-")[0];
    const table = TEXTS[primary] || TEXTS.en;
    const text = table[key] ?? TEXTS.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** The first of the browser's languages the page has texts for, or
 *  null. */
export function browserLanguage(languages = navigator.languages || []) {
    for (const tag of languages) {
        const primary = String(tag).toLowerCase().split("-")[0];
        if (PAGE_LANGUAGES.includes(primary)) {
            return primary;
        }
    }
    return null;
}
