/* SPDX-License-Identifier: Apache-2.0 */
/*
 * show.c -- `profilectl show FILE ROUTE`: what the module sends for a
 * GET of ROUTE, decided by the module's own code (profile_store_load and
 * profile_api_answer), filled in as mod_profile.c's handler fills it:
 * the body only, or with -i the status line and the header fields the
 * module sets (httpd adds Date, Server and connection fields of its
 * own).  Also pc_answer(), which `diff` uses.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <apr_date.h>
#include <apr_getopt.h>
#include <apr_strings.h>

#include "profilectl.h"
#include "profile_problem.h"

void pc_answer(profile_response_t *resp, const profile_store_t *store,
               const char *base, const char *route, const char *args,
               const char *lang, const char *coding, apr_pool_t *p)
{
    profile_site_t site;
    profile_request_t req;

    /* A <Location> with the directives' defaults. */
    memset(&site, 0, sizeof(site));
    site.store = store;
    site.origins = NULL;
    site.max_age = PROFILE_DEFAULT_MAX_AGE;
    site.cache_control = NULL;
    site.compress = 1;

    memset(&req, 0, sizeof(req));
    req.method = PROFILE_M_GET;
    req.method_name = "GET";
    req.uri = apr_pstrcat(p, base, route, NULL);
    req.path = route;
    req.args = args;
    req.accept_language = lang;
    req.accept_encoding = coding;
    req.now = apr_time_now();
    profile_api_answer(resp, &site, &req, p);
}

static int print_field(void *out, const char *key, const char *val)
{
    const char *c;

    if (strcasecmp(key, "Vary") != 0) {
        fprintf(out, "%s: %s\r\n", key, val);
        return 1;
    }
    /* httpd rewrites Vary as its tokens joined by "," (fixup_vary()). */
    fprintf(out, "%s: ", key);
    for (c = val; *c != '\0'; c++) {
        if (*c != ' ' && *c != '\t') {
            fputc(*c, out);
        }
    }
    fputs("\r\n", out);
    return 1;
}

/* The status line and the header fields, as mod_profile.c's
 * send_answer() and apply_conditions() set them. */
static void print_head(const profile_response_t *resp,
                       const profile_store_t *store, apr_pool_t *p)
{
    fprintf(stdout, "HTTP/1.1 %d %s\r\n", resp->status,
            resp->status == 200 ? "OK"
                                : profile_problem_reason(resp->status));
    apr_table_do(print_field, stdout, resp->headers, NULL);
    if (resp->conditional) {
        /* httpd's ap_set_last_modified(): the file's time, or now if
         * that is in the future. */
        apr_time_t now = apr_time_now();
        char *date = apr_palloc(p, APR_RFC822_DATE_LEN);

        print_field(stdout, "ETag", resp->etag);
        apr_rfc822_date(date, store->mtime < now ? store->mtime : now);
        print_field(stdout, "Last-Modified", date);
    }
    if (resp->content_encoding != NULL) {
        print_field(stdout, "Content-Encoding", resp->content_encoding);
    }
    print_field(stdout, "Content-Length",
                apr_psprintf(p, "%" APR_SIZE_T_FMT, resp->len));
    if (resp->content_type != NULL) {
        print_field(stdout, "Content-Type", resp->content_type);
    }
    fputs("\r\n", stdout);
}

int pc_cmd_show(int argc, char **argv)
{
    static const apr_getopt_option_t options[] = {
        {"include", 'i', 0, "the status line and header fields too"},
        {"lang", 'l', 1, "Accept-Language"},
        {"coding", 'c', 1, "gzip, br or identity"},
        {"query", 'q', 1, "the query string"},
        {"base", 'b', 1, "the API's base path (/api/v1)"},
        {NULL, 0, 0, NULL}
    };
    apr_pool_t *p = pc_pool();
    apr_getopt_t *os;
    apr_status_t rv;
    const char *optarg, *lang = NULL, *coding = NULL, *args = NULL;
    const char *base = "/api/v1", *route;
    const profile_store_t *store;
    profile_response_t resp;
    char *q;
    int optch, head = 0, status;

    os = pc_getopt(argc, argv, p);
    while ((rv = apr_getopt_long(os, options, &optch, &optarg))
           == APR_SUCCESS) {
        switch (optch) {
        case 'i': head = 1; break;
        case 'l': lang = optarg; break;
        case 'c': coding = optarg; break;
        case 'q': args = optarg[0] == '?' ? optarg + 1 : optarg; break;
        case 'b': base = optarg; break;
        }
    }
    if (rv != APR_EOF || argc - os->ind != 2) {
        return pc_fail("show", "usage: %s show [-i] [--lang L] [--coding "
                       "gzip|br|identity] [--query 'q=...'] [--base PATH] "
                       "FILE ROUTE", pc_progname);
    }
    if (coding != NULL && strcmp(coding, "gzip") != 0
        && strcmp(coding, "br") != 0 && strcmp(coding, "identity") != 0) {
        return pc_fail("show", "--coding is gzip, br or identity, not "
                       "\"%s\"", coding);
    }
    route = os->argv[os->ind + 1];
    /* "/skills?q=C" is ROUTE --query 'q=C'. */
    if ((q = strchr(route, '?')) != NULL) {
        if (args != NULL) {
            return pc_fail("show", "a query in ROUTE and --query: give one");
        }
        route = apr_pstrmemdup(p, route, (apr_size_t)(q - route));
        args = q + 1;
    }
    store = pc_load("show", os->argv[os->ind], p);
    if (store == NULL) {
        return PC_EXIT_USAGE;
    }
    pc_answer(&resp, store, base, route, args, lang, coding, p);
    if (head) {
        print_head(&resp, store, p);
    }
    if (resp.len > 0) {
        fwrite(resp.body, 1, resp.len, stdout);
    }
    /* main() checks that it was written (pc_stdout_done). */
    status = resp.status == 200 ? PC_EXIT_OK : PC_EXIT_PROBLEMS;
    apr_pool_destroy(p);
    return status;
}
