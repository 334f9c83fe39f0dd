/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mod_profile_config.c -- the directives: the per-directory and
 * per-server configuration (create, merge), the module's configuration
 * of a generation (the data files it names, where each request-time
 * directive is written: the sections a line stands in, as httpd parsed
 * them; its server-wide directives).  What each directive resolves to
 * is in the getters (mod_profile_settings.c).  httpd owns every setting
 * (CONTRACT §1): nothing here re-creates its section walk.
 */
#include <string.h>

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"

#include <apr_fnmatch.h>
#include <apr_strings.h>

#include "mod_profile.h"
#include "profile_args.h"

#define DEFAULT_MAX_DATA_SIZE (64 * 1024 * 1024)

/* The module's configuration of the generation being read or served:
 * made in its pool, forgotten when that pool is cleared (as mod_md's
 * md_mod_conf_get()). */
static profile_mod_conf_t *mod_conf;

static apr_status_t forget_mod_conf(void *data)
{
    (void)data;
    mod_conf = NULL;
    return APR_SUCCESS;
}

profile_mod_conf_t *profile_mod_conf(apr_pool_t *pconf)
{
    if (mod_conf == NULL && pconf != NULL) {
        mod_conf = apr_pcalloc(pconf, sizeof(*mod_conf));
        mod_conf->files = apr_hash_make(pconf);
        mod_conf->settings = apr_array_make(pconf, 8,
                                            sizeof(profile_setting_t));
        mod_conf->pool = pconf;
        mod_conf->max_data_size = DEFAULT_MAX_DATA_SIZE;
        mod_conf->server_status = 1;
        apr_pool_cleanup_register(pconf, NULL, forget_mod_conf,
                                  apr_pool_cleanup_null);
    }
    return mod_conf;
}

void *profile_create_dir_conf(apr_pool_t *p, char *dir)
{
    profile_dir_conf_t *conf = apr_pcalloc(p, sizeof(*conf));

    (void)dir;
    conf->max_age = conf->log_variables = -1;
    return conf;
}

void *profile_merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    profile_dir_conf_t *base = basev, *add = addv;
    profile_dir_conf_t *conf = apr_pcalloc(p, sizeof(*conf));

    /* The data and its base travel together: a section naming its own
     * data file is the base of its API, whatever ProfileBasePath a
     * section above it set. */
    *conf = add->use != NULL || add->many != NULL ? *add : *base;
    if (add->use == NULL && add->many == NULL) {
        conf->base_path = add->base_path ? add->base_path : base->base_path;
    }
    conf->origins_set = add->origins_set || base->origins_set;
    conf->origins = add->origins_set ? add->origins : base->origins;
    conf->max_age = add->max_age != -1 ? add->max_age : base->max_age;
    conf->cache_control = add->max_age != -1 ? add->cache_control
                                             : base->cache_control;
    conf->log_variables = add->log_variables != -1 ? add->log_variables
                                                   : base->log_variables;
    return conf;
}

void *profile_create_srv_conf(apr_pool_t *p, server_rec *s)
{
    profile_srv_conf_t *sc = apr_pcalloc(p, sizeof(*sc));

    (void)s;
    sc->refuse = sc->compress = -1;
    return sc;
}

void *profile_merge_srv_conf(apr_pool_t *p, void *basev, void *addv)
{
    profile_srv_conf_t *base = basev, *add = addv;
    profile_srv_conf_t *sc = apr_pmemdup(p, add, sizeof(*sc));

    if (add->refuse == -1) {
        sc->refuse = base->refuse;
        sc->refuse_at = base->refuse_at;
    }
    if (add->compress == -1) {
        sc->compress = base->compress;
        sc->compress_at = base->compress_at;
    }
    return sc;
}

/* The sections directive `d` stands in, as written ("<Location /a>
 * <If ...>"; NULL: none), leaving out <VirtualHost> (the server says
 * it). */
const char *profile_conf_section_of(const ap_directive_t *d, apr_pool_t *p)
{
    const char *s = NULL;

    for (d = d->parent; d != NULL; d = d->parent) {
        if (strcasecmp(d->directive, "<VirtualHost") != 0) {
            s = apr_pstrcat(p, d->directive, " ", d->args,
                            s ? " " : NULL, s, NULL);
        }
    }
    return s;
}

/* The path of the <Location> section `d` stands in (through <If>),
 * where it applies to every URL below it; else NULL. */
const char *profile_conf_location_of(const ap_directive_t *d,
                                     apr_pool_t *p)
{
    const char *args, *path;

    for (d = d->parent;
         d != NULL && (strcasecmp(d->directive, "<If") == 0
                       || strcasecmp(d->directive, "<ElseIf") == 0
                       || strcasecmp(d->directive, "<Else") == 0);
         d = d->parent) {
    }
    if (d == NULL || strcasecmp(d->directive, "<Location") != 0) {
        return NULL;
    }
    args = apr_pstrndup(p, d->args, strcspn(d->args, ">"));
    path = ap_getword_conf(p, &args);
    return path[0] == '/' && !apr_fnmatch_test(path)
           ? profile_args_base(path, p) : NULL;
}

/* Where a request-time directive is written, for the reports. */
static void setting_record(cmd_parms *cmd, const profile_dir_conf_t *conf,
                           const char *value)
{
    profile_mod_conf_t *mc = profile_mod_conf(cmd->pool);
    profile_setting_t *last = mc->settings->nelts == 0 ? NULL
        : &APR_ARRAY_IDX(mc->settings, mc->settings->nelts - 1,
                         profile_setting_t);
    profile_setting_t *set;

    if (last != NULL && last->conf == conf
        && last->line == cmd->directive->line_num
        && last->file == cmd->directive->filename) {
        last->value = apr_pstrcat(cmd->pool, last->value, " ", value, NULL);
        return;                 /* a second origin on the same line */
    }
    set = apr_array_push(mc->settings);
    set->name = cmd->cmd->name;
    set->value = value;
    set->file = cmd->directive->filename;
    set->line = cmd->directive->line_num;
    set->section = profile_conf_section_of(cmd->directive, cmd->pool);
    set->location = profile_conf_location_of(cmd->directive, cmd->pool);
    set->s = cmd->server;
    set->conf = conf;
}


static const char *set_base_path(cmd_parms *cmd, void *dconf,
                                 const char *arg)
{
    profile_dir_conf_t *conf = dconf;

    if (arg[0] != '/') {
        return "ProfileBasePath: the base path must start with '/'";
    }
    conf->base_path = profile_args_base(arg, cmd->pool);
    return NULL;
}

/* One origin of ProfileCORSOrigins (called for each argument, so any
 * number of origins, on one line or several, add up in a section). */
static const char *set_origin(cmd_parms *cmd, void *dconf, const char *arg)
{
    profile_dir_conf_t *conf = dconf;
    int star = strcmp(arg, "*") == 0;

    if (conf->origins_set && (star || conf->origins == NULL)) {
        return "ProfileCORSOrigins: '*' stands alone (give either '*' or "
               "a list of origins)";
    }
    conf->origins_set = 1;
    setting_record(cmd, conf, arg);
    if (star) {
        conf->origins = NULL;
        return NULL;
    }
    if (!profile_args_origin(arg)) {
        return apr_psprintf(cmd->pool, "ProfileCORSOrigins: '%s' is not "
                            "an origin (scheme://host[:port], no path; "
                            "'*' stands alone)", arg);
    }
    if (conf->origins == NULL) {
        conf->origins = apr_array_make(cmd->pool, 4, sizeof(const char *));
    }
    APR_ARRAY_PUSH(conf->origins, const char *) = apr_pstrdup(cmd->pool, arg);
    return NULL;
}

static const char *set_max_age(cmd_parms *cmd, void *dconf, const char *arg)
{
    profile_dir_conf_t *conf = dconf;

    if (profile_args_seconds(&conf->max_age, arg) != 0) {
        return "ProfileMaxAge: expected a number of seconds (0 to "
               "2147483647)";
    }
    conf->cache_control = apr_psprintf(cmd->pool, "public, max-age=%d",
                                       conf->max_age);
    setting_record(cmd, conf, arg);
    return NULL;
}

/* The context check of ProfileBadData and ProfileCompression, the
 * defaults of a server's ProfileData lines: in a <Location> or
 * <Directory>, httpd's own check refuses them, and the message names
 * the new form, the line's option. */
static const char *server_default_only(cmd_parms *cmd, const char *option)
{
    const char *err = ap_check_cmd_context(cmd, NOT_IN_DIR_LOC_FILE);

    return err == NULL ? NULL
           : apr_psprintf(cmd->pool, "%s; it is a server config and "
                          "<VirtualHost> default now: say it on the "
                          "ProfileData line (ProfileData PATH %s)", err,
                          option);
}

/* Where a server default is written, for the reports. */
static const char *written_at(cmd_parms *cmd, const char *arg)
{
    return apr_psprintf(cmd->pool, "%s %s on line %d of %s",
                        cmd->cmd->name, arg, cmd->directive->line_num,
                        cmd->directive->filename);
}

/* A server default of the ProfileData lines' `option`: `yes` sets
 * *field to 1, `no` to 0, anything else is `usage`. */
static const char *server_default(cmd_parms *cmd, const char *arg,
                                  const char *option, const char *yes,
                                  const char *no, const char *usage,
                                  int *field, const char **at)
{
    const char *err = server_default_only(cmd, option);

    if (err != NULL) {
        return err;
    }
    if (strcasecmp(arg, yes) != 0 && strcasecmp(arg, no) != 0) {
        return usage;
    }
    *field = strcasecmp(arg, yes) == 0;
    *at = written_at(cmd, arg);
    return NULL;
}

static const char *set_bad_data(cmd_parms *cmd, void *dconf,
                                const char *arg)
{
    profile_srv_conf_t *sc = ap_get_module_config(cmd->server->module_config,
                                                  &profile_module);

    (void)dconf;
    return server_default(cmd, arg, "bad=keep|refuse", "refuse", "keep",
                          "ProfileBadData: expected keep or refuse",
                          &sc->refuse, &sc->refuse_at);
}

static const char *set_compression(cmd_parms *cmd, void *dconf,
                                   const char *arg)
{
    profile_srv_conf_t *sc = ap_get_module_config(cmd->server->module_config,
                                                  &profile_module);

    (void)dconf;
    return server_default(cmd, arg, "compress=on|off", "on", "off",
                          "ProfileCompression: expected On or Off",
                          &sc->compress, &sc->compress_at);
}

static const char *set_max_data_size(cmd_parms *cmd, void *dconf,
                                     const char *arg)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);
    apr_off_t v;

    (void)dconf;
    if (err != NULL) {
        return err;
    }
    if (profile_args_size(&v, arg) != 0) {
        return "ProfileMaxDataSize: expected a size in bytes greater than "
               "0 and at most 1G, optionally followed by K, M or G "
               "(e.g. 64M)";
    }
    profile_mod_conf(cmd->pool)->max_data_size = v;
    return NULL;
}

static const char *set_compiled_dir(cmd_parms *cmd, void *dconf,
                                    const char *arg)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void)dconf;
    if (err == NULL) {
        profile_mod_conf(cmd->pool)->compiled_dir =
            strcasecmp(arg, "off") == 0 ? ""
            : ap_server_root_relative(cmd->pool, arg);
        if (profile_mod_conf(cmd->pool)->compiled_dir == NULL) {
            return apr_pstrcat(cmd->pool, "ProfileCompiledDir: invalid "
                               "path ", arg, NULL);
        }
    }
    return err;
}

static const char *set_server_status(cmd_parms *cmd, void *dconf, int on)
{
    const char *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void)dconf;
    if (err == NULL) {
        profile_mod_conf(cmd->pool)->server_status = on;
    }
    return err;
}

const command_rec profile_cmds[] = {
    AP_INIT_TAKE_ARGV("ProfileData", profile_set_data, NULL, RSRC_CONF | ACCESS_CONF,
                      "PATH [bad=keep|refuse] [compress=on|off]: the "
                      "profile data file (JSON) this location serves"),
    AP_INIT_ITERATE("ProfileCORSOrigins", set_origin, NULL,
                    RSRC_CONF | ACCESS_CONF,
                    "'*' or the origins allowed by CORS (any number, on "
                    "one line or several)"),
    AP_INIT_TAKE1("ProfileMaxAge", set_max_age, NULL, RSRC_CONF | ACCESS_CONF,
                  "seconds for Cache-Control max-age (default 300)"),
    AP_INIT_FLAG("ProfileLogVariables", ap_set_flag_slot,
                 (void *)APR_OFFSETOF(profile_dir_conf_t, log_variables),
                 RSRC_CONF | ACCESS_CONF,
                 "On: the access-log values are also environment variables "
                 "of the request; Off (default): request notes only"),
    AP_INIT_TAKE1("ProfileCompression", set_compression, NULL,
                  RSRC_CONF | ACCESS_CONF,
                  "On (default) or Off: the default of ProfileData's "
                  "compress= (server config and <VirtualHost> only)"),
    AP_INIT_TAKE1("ProfileBadData", set_bad_data, NULL,
                  RSRC_CONF | ACCESS_CONF,
                  "keep (default) or refuse: the default of ProfileData's "
                  "bad= (server config and <VirtualHost> only)"),
    AP_INIT_TAKE1("ProfileMaxDataSize", set_max_data_size, NULL, RSRC_CONF,
                  "largest data file accepted, in bytes (K, M, G allowed; "
                  "default 64M, at most 1G)"),
    AP_INIT_TAKE1("ProfileCompiledDir", set_compiled_dir, NULL, RSRC_CONF,
                  "where the data files' compiled forms are kept (default "
                  "mod_profile in DefaultRuntimeDir), or Off"),
    AP_INIT_FLAG("ProfileServerStatus", set_server_status, NULL, RSRC_CONF,
                 "On (default): a section in mod_status's page; Off: none"),
    AP_INIT_TAKE1("ProfileBasePath", set_base_path, NULL,
                  RSRC_CONF | ACCESS_CONF,
                  "URL path of the API base, where it is not the "
                  "<Location> holding ProfileData"),
    {NULL, {NULL}, NULL, 0, RAW_ARGS, NULL}
};
