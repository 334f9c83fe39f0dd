/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_notes.c -- what the module tells the access log about each
 * answer (docs/operations.md, "The access log"): the request notes
 * profile-lang, profile-route, profile-coding and profile-stale, always,
 * and the same values as variables of the request's environment where
 * the configuration reads them.  Setting four variables costs every
 * request a search of its environment; a configuration that names none
 * of them outside a note's %{NAME}n does not pay it.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"

#include <apr_strings.h>

#include "mod_profile.h"

static const char *const names[] = {
    "profile-lang", "profile-route", "profile-coding", "profile-stale"
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* Whether `args` names one of the values other than as a note, %{NAME}n
 * (as %{NAME}e, env=NAME, reqenv('NAME'), ...). */
static int names_variable(const char *args)
{
    const char *p;
    apr_size_t i, len;

    for (p = args; *p; p++) {
        if (*p != 'p' && *p != 'P') {
            continue;
        }
        for (i = 0; i < NNAMES; i++) {
            len = strlen(names[i]);
            if (strncasecmp(p, names[i], len) == 0
                && !(p > args && p[-1] == '{' && p[len] == '}'
                     && p[len + 1] == 'n')) {
                return 1;
            }
        }
    }
    return 0;
}

static int tree_names_variable(const ap_directive_t *d)
{
    for (; d != NULL; d = d->next) {
        if ((d->args != NULL && names_variable(d->args))
            || tree_names_variable(d->first_child)) {
            return 1;
        }
    }
    return 0;
}

void profile_notes_configure(profile_mod_conf_t *mc)
{
    mc->variables_read = tree_names_variable(ap_conftree);
}

void profile_notes_set(request_rec *r, const char *lang, const char *route,
                       const char *coding, const char *stale)
{
    const profile_mod_conf_t *mc = profile_mod_conf(NULL);
    const char *vals[NNAMES];
    apr_size_t i;

    vals[0] = lang;
    vals[1] = route;
    vals[2] = coding;
    vals[3] = stale;
    for (i = 0; i < NNAMES; i++) {
        if (vals[i] == NULL) {
            continue;
        }
        /* Only this module names notes so, and the handler runs once
         * per request: added, not looked for first. */
        apr_table_addn(r->notes, names[i], vals[i]);
        if (mc != NULL && mc->variables_read) {
            /* SetEnv or mod_rewrite may have set one before. */
            apr_table_setn(r->subprocess_env, names[i], vals[i]);
        }
    }
}
