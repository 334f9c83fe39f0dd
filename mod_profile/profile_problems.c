/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_problems.c -- the problems of a refused data file (CONTRACT
 * §9): the list that keeps the first ones and counts the rest, and each
 * problem as the one line a person reads, "NAME:LINE:COL: $.path: TEXT".
 * What makes a problem is decided in profile_validate.c, where its line
 * and column are found in profile_locate.c.
 *
 * Pure core: no httpd headers.
 */
#include <apr_strings.h>

#include "profile_problems.h"

profile_problems_t *profile_problems_make(apr_pool_t *p, int keep)
{
    profile_problems_t *pr = apr_palloc(p, sizeof(*pr));

    pr->keep = keep > 0 ? keep : 1;
    pr->list = apr_array_make(p, pr->keep < 16 ? pr->keep : 16,
                              sizeof(profile_data_problem_t));
    pr->total = 0;
    return pr;
}

profile_data_problem_t *profile_problems_add(profile_problems_t *to)
{
    to->total++;
    if (to->list->nelts >= to->keep) {
        return NULL;
    }
    return apr_array_push(to->list);
}

int profile_problems_full(const profile_problems_t *to)
{
    return to->list->nelts >= to->keep;
}

void profile_problems_cat(profile_problems_t *to,
                          const profile_problems_t *from)
{
    int i;

    for (i = 0; i < from->list->nelts && to->list->nelts < to->keep; i++) {
        *(profile_data_problem_t *)apr_array_push(to->list) =
            APR_ARRAY_IDX(from->list, i, profile_data_problem_t);
    }
    to->total += from->total;
}

const char *profile_data_problem_line(const profile_data_problem_t *pr,
                                      const char *name, apr_pool_t *p)
{
    if (pr->line > 0 && pr->path != NULL) {
        return apr_psprintf(p, "%s:%d:%d: %s: %s", name, pr->line,
                            pr->column, pr->path, pr->text);
    }
    if (pr->line > 0) {
        return apr_psprintf(p, "%s:%d:%d: %s", name, pr->line, pr->column,
                            pr->text);
    }
    if (pr->path != NULL) {
        return apr_psprintf(p, "%s: %s: %s", name, pr->path, pr->text);
    }
    return apr_psprintf(p, "%s: %s", name, pr->text);
}

const char *profile_data_problems_message(const profile_problems_t *problems,
                                          int shown, const char *name,
                                          apr_pool_t *p)
{
    apr_array_header_t *lines = apr_array_make(p, shown + 1, sizeof(char *));
    int i;

    for (i = 0; i < problems->list->nelts && i < shown; i++) {
        APR_ARRAY_PUSH(lines, const char *) = profile_data_problem_line(
            &APR_ARRAY_IDX(problems->list, i, profile_data_problem_t), name,
            p);
    }
    if (problems->total > (apr_size_t)i) {
        APR_ARRAY_PUSH(lines, const char *) =
            apr_psprintf(p, "and %" APR_SIZE_T_FMT " more",
                         problems->total - (apr_size_t)i);
    }
    return apr_array_pstrcat(p, lines, '\n');
}

const char *profile_data_problems_summary(const profile_problems_t *problems,
                                          const char *err, const char *name,
                                          apr_pool_t *p)
{
    if (problems == NULL || problems->total <= 1
        || problems->list->nelts == 0) {
        return apr_pstrdup(p, err);
    }
    return apr_psprintf(p, "%s (and %" APR_SIZE_T_FMT " more problem%s: "
                        "apachectl configtest lists them)",
                        profile_data_problem_line(
                            &APR_ARRAY_IDX(problems->list, 0,
                                           profile_data_problem_t), name, p),
                        problems->total - 1,
                        problems->total == 2 ? "" : "s");
}
