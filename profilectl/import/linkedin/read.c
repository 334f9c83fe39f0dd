/* SPDX-License-Identifier: Apache-2.0 */
/*
 * import/linkedin/read.c -- reads a LinkedIn data export ("Get a copy of
 * your data"): the ZIP as LinkedIn delivers it (libzip) or its unpacked
 * folder, and in it only the profile's CSV files (pc_li_files), each
 * parsed by libcsv as RFC 4180 CSV (csv.c).  Nothing is extracted to disk: the
 * named entries are read into memory, at most PC_LI_MAX_BYTES in all,
 * and what the CSV holds is bounded too (PC_LI_MAX_FIELDS_PER_ROW,
 * PC_LI_MAX_ROWS, PC_LI_MAX_FIELDS): a few bytes of commas would
 * otherwise cost memory many times their size.  The export and its
 * files are opened as every input of profilectl is (common/input.c).
 * Messages name the file and the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_portable.h>
#include <apr_strings.h>
#include <zip.h>

#include "common/common.h"
#include "import/linkedin/linkedin.h"

const char *const pc_li_files[] = {
    "Profile.csv", "Positions.csv", "Education.csv", "Skills.csv",
    "Projects.csv", "Languages.csv", "Certifications.csv", "Honors.csv",
    "Courses.csv", "Publications.csv", "Volunteering.csv",
    "Organizations.csv", "Patents.csv", "Test Scores.csv",
    "Recommendations_Received.csv", NULL
};

/* The file of pc_li_files that `path` (an entry of a ZIP) is, or NULL. */
static const char *known_name(const char *path)
{
    const char *base = strrchr(path, '/');
    int i;

    base = base ? base + 1 : path;
    for (i = 0; pc_li_files[i]; i++) {
        if (strcmp(base, pc_li_files[i]) == 0) {
            return pc_li_files[i];
        }
    }
    return NULL;
}

static int add_table(apr_hash_t *files, const char **err, const char *name,
                     const char *label, const char *text, apr_size_t len,
                     apr_size_t *budget, apr_pool_t *p)
{
    pc_li_table_t *t;

    if (pc_li_parse_csv_within(&t, err, apr_pstrcat(p, label, name, NULL),
                               text, len, budget, p) < 0) {
        return -1;
    }
    t->name = name;
    apr_hash_set(files, name, APR_HASH_KEY_STRING, t);
    return 0;
}

/* Reads up to `size` bytes of entry zf into *buf (malloc'd: the caller
 * frees it): memory grows with what the entry holds, not with the size
 * its header claims, and by realloc, so that the peak is the entry's
 * size, not twice it.  The bytes read, -1 (libzip's error) or -2 (out of
 * memory). */
static zip_int64_t read_entry(char **buf, zip_file_t *zf, zip_uint64_t size)
{
    zip_uint64_t cap = size < 65536 ? size : 65536, have = 0;
    zip_int64_t got;
    char *b = malloc(cap + 1), *nb;

    *buf = b;
    if (b == NULL) {
        return -2;
    }
    while (have < size) {
        if (have == cap) {
            cap = cap * 2 < size ? cap * 2 : size;
            if ((nb = realloc(b, cap + 1)) == NULL) {
                return -2;
            }
            *buf = b = nb;
        }
        got = zip_fread(zf, b + have, cap - have);
        if (got < 0) {
            return -1;
        }
        if (got == 0) {
            break;
        }
        have += got;
    }
    return (zip_int64_t)have;
}

static int read_zip(apr_hash_t *files, const char **err, const char *label,
                    zip_t *z, apr_pool_t *p)
{
    zip_int64_t i, count = zip_get_num_entries(z, 0);
    zip_uint64_t total = 0;
    apr_size_t budget = PC_LI_MAX_FIELDS;
    zip_stat_t zs;
    zip_file_t *zf;
    zip_int64_t got;
    const char *name, *prefix;
    char *buf, extra;
    int rv;

    for (i = 0; i < count; i++) {
        if (zip_stat_index(z, i, 0, &zs) != 0
            || !(zs.valid & ZIP_STAT_NAME)
            || (name = known_name(zs.name)) == NULL) {
            continue;
        }
        prefix = apr_pstrcat(p, label, ":", zs.name, NULL);
        if (apr_hash_get(files, name, APR_HASH_KEY_STRING) != NULL) {
            *err = apr_psprintf(p, "%s: a second %s in the archive; which "
                                "is the export?", prefix, name);
            return -1;
        }
        if (!(zs.valid & ZIP_STAT_SIZE) || zs.size > PC_LI_MAX_BYTES
            || total + zs.size > PC_LI_MAX_BYTES) {
            *err = apr_psprintf(p, "%s: larger than the %d MB an export's "
                                "profile files may take together", prefix,
                                PC_LI_MAX_BYTES / (1024 * 1024));
            return -1;
        }
        total += zs.size;
        if ((zf = zip_fopen_index(z, i, 0)) == NULL) {
            *err = apr_psprintf(p, "%s: cannot read it: %s", prefix,
                                zip_strerror(z));
            return -1;
        }
        got = read_entry(&buf, zf, zs.size);
        /* An entry that holds more than it says is refused, not read. */
        if (got < 0 || (zip_uint64_t)got != zs.size
            || zip_fread(zf, &extra, 1) != 0) {
            *err = apr_psprintf(p, "%s: cannot read it: %s", prefix,
                                got == -2 ? "out of memory"
                                : got < 0 ? zip_file_strerror(zf)
                                : "not the size the archive says");
            free(buf);
            zip_fclose(zf);
            return -1;
        }
        zip_fclose(zf);
        rv = add_table(files, err, name, "", buf, zs.size, &budget, p);
        free(buf);
        if (rv < 0) {
            *err = apr_pstrcat(p, label, ":", zs.name, ":",
                               *err + strlen(name) + 1, NULL);
            return -1;
        }
    }
    return 0;
}

int pc_li_read_zip_buffer(apr_hash_t **files, const char **err,
                          const char *label, const void *data,
                          apr_size_t len, apr_pool_t *p)
{
    zip_error_t ze;
    zip_source_t *src;
    zip_t *z;
    int rv;

    *files = apr_hash_make(p);
    zip_error_init(&ze);
    if ((src = zip_source_buffer_create(data, len, 0, &ze)) == NULL) {
        *err = apr_psprintf(p, "%s: %s", label, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return -1;
    }
    if ((z = zip_open_from_source(src, ZIP_RDONLY, &ze)) == NULL) {
        *err = apr_psprintf(p, "%s: not a ZIP archive: %s", label,
                            zip_error_strerror(&ze));
        zip_source_free(src);
        zip_error_fini(&ze);
        return -1;
    }
    zip_error_fini(&ze);
    rv = read_zip(*files, err, label, z, p);
    zip_discard(z);
    return rv;
}

int pc_li_read_export(apr_hash_t **files, const char **err,
                      const char *path, apr_pool_t *p)
{
    apr_finfo_t fi, ofi;
    apr_status_t rv;
    apr_size_t len, total = 0, budget = PC_LI_MAX_FIELDS;
    apr_file_t *f;
    apr_os_file_t osfd;
    const char *file;
    char *buf, msg[120];
    int i, fd, e, zerr;
    zip_t *z;

    *files = apr_hash_make(p);
    if ((rv = apr_stat(&fi, path, APR_FINFO_TYPE, p)) != APR_SUCCESS) {
        *err = apr_psprintf(p, "%s: cannot read it: %s", path,
                            apr_strerror(rv, msg, sizeof(msg)));
        return -1;
    }
    if (fi.filetype != APR_DIR) {
        /* The one opener (common/input.c); libzip wants a descriptor it
         * owns (zip_discard closes it): a duplicate of the opener's. */
        if (pc_input_open(&f, &ofi, err, path, p) < 0) {
            return -1;
        }
        apr_os_file_get(&osfd, f);
        fd = fcntl(osfd, F_DUPFD_CLOEXEC, 0);
        e = errno;
        apr_file_close(f);
        if (fd < 0) {
            *err = apr_psprintf(p, "%s: cannot read it: %s", path,
                                strerror(e));
            return -1;
        }
        if ((z = zip_fdopen(fd, 0, &zerr)) == NULL) {
            zip_error_t ze;

            close(fd);
            zip_error_init_with_code(&ze, zerr);
            *err = apr_psprintf(p, "%s: neither a folder nor a ZIP archive "
                                "(%s)", path, zip_error_strerror(&ze));
            zip_error_fini(&ze);
            return -1;
        }
        i = read_zip(*files, err, path, z, p);
        zip_discard(z);
        return i;
    }
    for (i = 0; pc_li_files[i]; i++) {
        file = apr_pstrcat(p, path, "/", pc_li_files[i], NULL);
        if (apr_stat(&fi, file, APR_FINFO_TYPE, p) != APR_SUCCESS) {
            continue;
        }
        if (pc_input_read(&buf, &len, err, file, PC_LI_MAX_BYTES, p) < 0) {
            return -1;
        }
        if ((total += len) > PC_LI_MAX_BYTES) {
            *err = apr_psprintf(p, "%s: its profile files take more than "
                                "%d MB", path,
                                PC_LI_MAX_BYTES / (1024 * 1024));
            return -1;
        }
        if (add_table(*files, err, pc_li_files[i], "", buf, len, &budget,
                      p) < 0) {
            *err = apr_pstrcat(p, path, "/", *err, NULL);
            return -1;
        }
    }
    return 0;
}
