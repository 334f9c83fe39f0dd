/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_problem.c -- localized RFC 9457 problem bodies (CONTRACT §7):
 * {"type":"about:blank","title":...,"status":...,"detail":...,
 *  "invalid-params":[{"name":...,"reason":...}]}  (the last on 400 only).
 *
 * Pure core: no httpd headers.
 */
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>
#include <jansson.h>

#include "profile_problem.h"

enum { EN, ES, NLANG };

static const char *const titles[NLANG][7] = {
    {"Bad Request", "Not Found", "Method Not Allowed", "Precondition Failed",
     "Internal Server Error", "Service Unavailable", "Error"},
    {"Solicitud incorrecta", "No encontrado", "Método no permitido",
     "Precondición fallida", "Error interno del servidor",
     "Servicio no disponible", "Error"}
};

static const char *const messages[NLANG][7] = {
    {"There is no resource at '%s'.",
     "No experience record has the id '%s'.",
     "No case study has the id '%s'.",
     "Method '%s' is not allowed; this resource supports GET, HEAD and "
     "OPTIONS.",
     "A precondition in the request (If-Match or If-Unmodified-Since) does "
     "not hold for the current representation.",
     "The server is not configured to serve this profile; the server's "
     "error log says why.",
     /* 503: read by a page's visitor, who cannot act on the server's
      * error log; the reason is there (PROFILE0005, at every restart). */
     "The profile is temporarily unavailable; please try again in a "
     "minute."},
    {"No existe ningún recurso en '%s'.",
     "Ningún registro de experiencia tiene el identificador '%s'.",
     "Ningún caso de estudio tiene el identificador '%s'.",
     "El método '%s' no está permitido; este recurso admite GET, HEAD y "
     "OPTIONS.",
     "Una condición previa de la solicitud (If-Match o If-Unmodified-Since) "
     "no se cumple para la representación actual.",
     "El servidor no está configurado para servir este perfil; el registro "
     "de errores del servidor indica el motivo.",
     "El perfil no está disponible en este momento; vuelva a intentarlo "
     "en un minuto."}
};

/* Per query reason: the detail sentence and the short invalid-params
 * reason.  The UNKNOWN detail has a second form for routes that take no
 * parameter (index PROFILE_QP_CONTROL + 1). */
static const char *const query_details[NLANG][8] = {
    {"Query parameter '%s' is not correctly percent-encoded.",
     "Query parameter '%s' does not decode to valid UTF-8.",
     "Unknown query parameter '%s'; this resource accepts only '%s'.",
     "Query parameter '%s' may be given only once.",
     "Query parameter '%s' must be 1 to 100 characters after trimming.",
     "Query parameter '%s' must be 1 to 100 characters after trimming.",
     "Query parameter '%s' must not contain control characters.",
     "This resource takes no query parameters; '%s' is not allowed."},
    {"El parámetro de consulta '%s' no tiene una codificación porcentual "
     "válida.",
     "El parámetro de consulta '%s' no es UTF-8 válido una vez "
     "decodificado.",
     "Parámetro de consulta desconocido '%s'; este recurso solo admite "
     "'%s'.",
     "El parámetro de consulta '%s' solo puede indicarse una vez.",
     "El parámetro de consulta '%s' debe tener entre 1 y 100 caracteres "
     "sin contar los espacios de los extremos.",
     "El parámetro de consulta '%s' debe tener entre 1 y 100 caracteres "
     "sin contar los espacios de los extremos.",
     "El parámetro de consulta '%s' no puede contener caracteres de "
     "control.",
     "Este recurso no admite parámetros de consulta; '%s' no está "
     "permitido."}
};

static const char *const query_reasons[NLANG][8] = {
    {"invalid percent-encoding",
     "not valid UTF-8 after decoding",
     "unknown parameter",
     "given more than once",
     "empty after trimming",
     "longer than 100 characters after trimming",
     "contains a control character",
     "this resource takes no query parameters"},
    {"codificación porcentual no válida",
     "no es UTF-8 válido tras decodificarlo",
     "parámetro desconocido",
     "indicado más de una vez",
     "vacío tras eliminar los espacios de los extremos",
     "más de 100 caracteres tras eliminar los espacios de los extremos",
     "contiene un carácter de control",
     "este recurso no admite parámetros de consulta"}
};

const char *const profile_problem_langs[PROFILE_PROBLEM_NLANGS] = {
    "en", "es"
};
/* One name per set of texts above. */
typedef char profile_problem_nlangs_check[NLANG == PROFILE_PROBLEM_NLANGS
                                          ? 1 : -1];

static int lang_slot(const char *lang)
{
    return lang != NULL && strcmp(lang, "es") == 0 ? ES : EN;
}

const char *profile_problem_lang(const char *lang)
{
    return profile_problem_langs[lang_slot(lang)];
}

static int title_slot(int status)
{
    switch (status) {
    case 400: return 0;
    case 404: return 1;
    case 405: return 2;
    case 412: return 3;
    case 500: return 4;
    case 503: return 5;
    default: return 6;
    }
}

const char *profile_problem_reason(int status)
{
    return titles[EN][title_slot(status)];
}

static const char *finish(apr_size_t *len, json_t *obj, apr_pool_t *p)
{
    char *s = json_dumps(obj, JSON_COMPACT);
    const char *out;

    json_decref(obj);
    *len = strlen(s);
    out = apr_pstrmemdup(p, s, *len);
    free(s);
    return out;
}

/* The formats below come from the tables above, each with the %s
 * arguments its comment documents. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif

static json_t *problem(int status, int l, const char *detail)
{
    json_t *obj = json_object();

    json_object_set_new(obj, "type", json_string("about:blank"));
    json_object_set_new(obj, "title",
                        json_string(titles[l][title_slot(status)]));
    json_object_set_new(obj, "status", json_integer(status));
    json_object_set_new(obj, "detail", json_string(detail));
    return obj;
}

const char *profile_problem_render(apr_size_t *len, int status,
                                   profile_msg_e msg, const char *arg,
                                   const char *lang, apr_pool_t *p)
{
    int l = lang_slot(lang);
    const char *detail = apr_psprintf(p, messages[l][msg],
                                      arg ? arg : "");

    return finish(len, problem(status, l, detail), p);
}

const char *profile_problem_render_query(apr_size_t *len,
                                         const apr_array_header_t *problems,
                                         const char *param,
                                         const char *lang, apr_pool_t *p)
{
    int l = lang_slot(lang), i;
    const profile_qp_problem_t *first =
        &APR_ARRAY_IDX(problems, 0, profile_qp_problem_t);
    json_t *obj, *list = json_array();
    const char *detail;

    if (first->reason == PROFILE_QP_UNKNOWN && param == NULL) {
        detail = apr_psprintf(p, query_details[l][7], first->name);
    }
    else {
        detail = apr_psprintf(p, query_details[l][first->reason],
                              first->name, param);
    }
    for (i = 0; i < problems->nelts; i++) {
        const profile_qp_problem_t *pr =
            &APR_ARRAY_IDX(problems, i, profile_qp_problem_t);
        int r = pr->reason == PROFILE_QP_UNKNOWN && param == NULL
                ? 7 : (int)pr->reason;

        json_array_append_new(list,
                              json_pack("{s:s,s:s}", "name", pr->name,
                                        "reason", query_reasons[l][r]));
    }
    obj = problem(400, l, detail);
    json_object_set_new(obj, "invalid-params", list);
    return finish(len, obj, p);
}

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
