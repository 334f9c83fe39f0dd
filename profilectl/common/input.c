/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/input.c -- the one way profilectl opens a file it reads (the
 * rules are profilectl.1's, FILES READ): the module's own opener,
 * profile_data_open() (mod_profile/profile_data.c), which asks the type
 * first and refuses anything but a regular file, opens without blocking
 * (a FIFO put at the path meanwhile never makes the open wait) and
 * checks that the file opened is the one looked at.  A link to a regular
 * file is read; a link to anything else is refused like what it points
 * to.  Each input is read once, whole, into memory; what is made of it
 * (the store, the JSON tree, the texts) is made from those bytes.
 *
 * Its messages are profilectl's ("PATH: cannot read it: a FIFO, not a
 * regular file"), not the module's, which speak of "the data file".  It
 * does not include httpd headers and knows nothing of JSON or CSV.
 */
#include <apr_file_io.h>
#include <apr_strings.h>

#include "profile_data.h"
#include "profile_store.h"
#include "common/common.h"

/* What a file that is not regular is, for messages. */
static const char *kind(apr_filetype_e t)
{
    return t == APR_DIR ? "a directory" : t == APR_PIPE ? "a FIFO"
           : t == APR_CHR ? "a character device"
           : t == APR_BLK ? "a block device"
           : t == APR_SOCK ? "a socket" : "not a file";
}

static int refuse(const char **err, const char *path, apr_status_t rv,
                  apr_pool_t *p)
{
    char ebuf[256];

    *err = apr_psprintf(p, "%s: cannot read it: %s", path,
                        apr_strerror(rv, ebuf, sizeof(ebuf)));
    return -1;
}

int pc_input_open(apr_file_t **f, apr_finfo_t *fi, const char **err,
                  const char *path, apr_pool_t *p)
{
    const char *why;
    apr_status_t rv;

    fi->filetype = APR_NOFILE;
    rv = profile_data_open(f, fi, &why, path, p);
    if (rv == APR_SUCCESS) {
        return 0;
    }
    /* The opener says APR_EBADF for a file that is not regular, its type
     * in *fi, or for one replaced by another meanwhile. */
    if (rv == APR_EBADF && fi->filetype != APR_REG
        && fi->filetype != APR_NOFILE) {
        *err = apr_psprintf(p, "%s: cannot read it: %s, not a regular file",
                            path, kind(fi->filetype));
        return -1;
    }
    if (rv == APR_EBADF) {
        *err = apr_psprintf(p, "%s: cannot read it: it was replaced while "
                            "being opened", path);
        return -1;
    }
    return refuse(err, path, rv, p);
}

int pc_input_load(pc_input_t *in, const char **err, const char *path,
                  apr_size_t max, apr_pool_t *p)
{
    apr_file_t *f;
    apr_finfo_t fi;
    apr_size_t size, got = 0;
    apr_status_t rv;
    char *b;

    if (pc_input_open(&f, &fi, err, path, p) < 0) {
        return -1;
    }
    size = (apr_size_t)fi.size;
    if (max > 0 && (apr_uint64_t)fi.size > max) {
        apr_file_close(f);
        *err = apr_psprintf(p, "%s: larger than %" APR_SIZE_T_FMT " MB",
                            path, max / (1024 * 1024));
        return -1;
    }
    /* The size the opener saw: a file that grows meanwhile is read as it
     * was. */
    b = apr_palloc(p, size + 1);
    rv = apr_file_read_full(f, b, size, &got);
    apr_file_close(f);
    if (rv != APR_SUCCESS && rv != APR_EOF) {
        return refuse(err, path, rv, p);
    }
    b[got] = '\0';
    in->path = path;
    in->buf = b;
    in->len = got;
    in->mtime = fi.mtime;
    return 0;
}

int pc_input_read(char **buf, apr_size_t *len, const char **err,
                  const char *path, apr_size_t max, apr_pool_t *p)
{
    pc_input_t in;

    if (pc_input_load(&in, err, path, max, p) < 0) {
        return -1;
    }
    *buf = in.buf;
    *len = in.len;
    return 0;
}
