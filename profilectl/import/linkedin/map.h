/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/map.h -- what import-linkedin's mapping files share,
 * private to import/linkedin/: linkedin.c (the command, and the mapping
 * of positions, schools, skills and projects) and extras.c (what the
 * export has beyond them: websites, Twitter handles, the location,
 * certifications, spoken languages), both over map.c (a file, a column,
 * a date, rows).  Both write the export as a JSON Resume document that
 * pc_jr_import_docs imports.
 */
#ifndef PC_LI_MAP_H
#define PC_LI_MAP_H

#include <apr_hash.h>
#include <jansson.h>

#include "import/import.h"
#include "import/linkedin/linkedin.h"

/* A column the mapping reads: its names in the layouts LinkedIn has
 * used ("Started On", then the 2016-2017 "Start Date"). */
typedef struct {
    const char *names[3];
    int required;
} li_col_t;

typedef struct {
    jr_import_t im;
    apr_hash_t *files;
    const char *path;
    int bad;
} li_t;

/* File `name` when the export has it and its header is a layout the
 * mapping knows (every required column of cols); else NULL (a problem
 * set when the layout is unknown). */
pc_li_table_t *pc_li_table(li_t *li, const char *name,
                           const li_col_t *cols);
/* Column c of row r of t, trimmed ("" when the file lacks it). */
const char *pc_li_col(li_t *li, const pc_li_table_t *t,
                      const pc_li_row_t *r, const li_col_t *c);
/* Sets obj[key] to the ISO form of LinkedIn date column c of row r
 * (nothing when it is empty; a problem set when it is no date). */
void pc_li_put_date(li_t *li, json_t *obj, const char *key,
                    const pc_li_table_t *t, const pc_li_row_t *r,
                    const li_col_t *c);
/* Counts the non-empty values of every column of t that cols does not
 * read as not imported ("3 × Education.csv Notes"). */
void pc_li_drop_columns(li_t *li, const pc_li_table_t *t,
                        const li_col_t *cols);
/* Builds one JSON Resume entry from row r of t. */
typedef void (*li_row_fn)(li_t *li, const pc_li_table_t *t,
                          const pc_li_row_t *r, json_t *e);
/* One entry per row of file `name` (an empty array without it). */
json_t *pc_li_rows(li_t *li, const char *name, const li_col_t *cols,
                   li_row_fn fill);

/* extras.c */
/* Sets obj["url"] to URL column c of row r as a link (https:// before
 * a host without a scheme); one the module would refuse is counted as
 * not imported ("Projects.csv Url (relative)"). */
void pc_li_put_url(li_t *li, json_t *obj, const pc_li_table_t *t,
                   const pc_li_row_t *r, const li_col_t *c);
/* Profile.csv Websites, Twitter Handles, and Geo Location (with the
 * 2018 Country) into basics (JSON Resume's url, profiles, location). */
void pc_li_websites(li_t *li, json_t *basics, const char *field);
void pc_li_twitter(li_t *li, json_t *basics, const char *field);
void pc_li_location(li_t *li, json_t *basics, const char *geo,
                    const char *country);
/* Certifications.csv and Languages.csv as JSON Resume's certificates
 * and languages. */
json_t *pc_li_certificates(li_t *li);
json_t *pc_li_languages(li_t *li);

#endif
