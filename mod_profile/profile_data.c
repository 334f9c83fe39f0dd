/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_data.c -- the data file opened as CONTRACT §9 says (only a
 * regular file, never blocking), and the pools a load goes into, whose
 * memory goes back to malloc when they are destroyed
 * (profile_data.h; profile_store.c loads).
 *
 * Pure core: no httpd headers.
 */
#include <apr_file_io.h>
#include <apr_strings.h>

#include "profile_data.h"

apr_status_t profile_pool_create_own(apr_pool_t **out, apr_pool_t *parent)
{
    apr_allocator_t *alloc;
    apr_status_t rv;

    *out = NULL;
    if ((rv = apr_allocator_create(&alloc)) != APR_SUCCESS) {
        return rv;
    }
    if ((rv = apr_pool_create_ex(out, parent, NULL, alloc)) != APR_SUCCESS) {
        apr_allocator_destroy(alloc);
        *out = NULL;
        return rv;
    }
    apr_allocator_owner_set(alloc, *out);
    return APR_SUCCESS;
}

apr_status_t profile_data_open(apr_file_t **f, apr_finfo_t *fi,
                               const char **why, const char *path,
                               apr_pool_t *p)
{
    const apr_int32_t wanted = APR_FINFO_TYPE | APR_FINFO_SIZE
                               | APR_FINFO_MTIME | APR_FINFO_CTIME
                               | APR_FINFO_DEV | APR_FINFO_INODE;
    apr_finfo_t opened;
    apr_status_t rv;
    char ebuf[256];

    *f = NULL;
    *why = NULL;
    /* The type first, through any link: opening a FIFO blocks until a
     * writer comes, and a device reads forever. */
    rv = apr_stat(fi, path, wanted, p);
    if (rv != APR_SUCCESS && rv != APR_INCOMPLETE) {
        *why = apr_pstrcat(p, "cannot read the data file: ",
                           apr_strerror(rv, ebuf, sizeof(ebuf)), NULL);
        return rv;
    }
    if (fi->filetype != APR_REG) {
        *why = apr_pstrcat(p, "the data file is not a regular file (",
                           fi->filetype == APR_DIR ? "a directory"
                           : fi->filetype == APR_PIPE ? "a FIFO"
                           : fi->filetype == APR_CHR
                             || fi->filetype == APR_BLK ? "a device"
                           : fi->filetype == APR_SOCK ? "a socket"
                           : "not a file", "): only a regular file is read",
                           NULL);
        return APR_EBADF;
    }
    /* Without blocking, should the path have become a FIFO since; and it
     * must still be the file just looked at. */
    rv = apr_file_open(f, path, APR_FOPEN_READ | APR_FOPEN_BINARY
                       | APR_FOPEN_NONBLOCK, APR_OS_DEFAULT, p);
    if (rv == APR_SUCCESS) {
        rv = apr_file_info_get(&opened, wanted, *f);
        if (rv == APR_INCOMPLETE) {
            rv = APR_SUCCESS;
        }
    }
    if (rv != APR_SUCCESS) {
        *why = apr_pstrcat(p, "cannot read the data file: ",
                           apr_strerror(rv, ebuf, sizeof(ebuf)), NULL);
    }
    else if (opened.filetype != APR_REG || opened.device != fi->device
             || opened.inode != fi->inode) {
        *why = "the data file was replaced while it was opened";
        rv = APR_EBADF;
    }
    else {
        *fi = opened;
        return APR_SUCCESS;
    }
    if (*f != NULL) {
        apr_file_close(*f);
        *f = NULL;
    }
    return rv;
}
