/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_input.c -- the one way profilectl opens a file it reads (the rules
 * are profilectl.1's, FILES READ): the type is asked first and anything
 * but a regular file is refused; the file is opened with O_NONBLOCK, so
 * that a FIFO put at the path after the check never makes open() wait;
 * the file opened must be the one checked (fstat: the same device and
 * inode).  A link to a regular file is read; a link to anything else is
 * refused like what it points to.
 *
 * It does not include httpd headers and knows nothing of JSON or CSV.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <apr_strings.h>

#include "common/common.h"

/* What a file that is not regular is, for messages. */
static const char *kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device"
           : S_ISSOCK(m) ? "a socket" : "not a file";
}

static int refuse_type(const char **err, const char *path, mode_t m,
                       apr_pool_t *p)
{
    *err = apr_psprintf(p, "%s: cannot read it: %s, not a regular file",
                        path, kind(m));
    return -1;
}

static int refuse_errno(const char **err, const char *path, int e,
                        apr_pool_t *p)
{
    *err = apr_psprintf(p, "%s: cannot read it: %s", path, strerror(e));
    return -1;
}

int pc_input_check(const char **err, const char *path, apr_pool_t *p)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        return refuse_errno(err, path, errno, p);
    }
    if (!S_ISREG(st.st_mode)) {
        return refuse_type(err, path, st.st_mode, p);
    }
    return 0;
}

int pc_input_open(int *fd, const char **err, const char *path,
                  apr_pool_t *p)
{
    struct stat before, after;
    int e;

    *fd = -1;
    if (stat(path, &before) != 0) {
        return refuse_errno(err, path, errno, p);
    }
    if (!S_ISREG(before.st_mode)) {
        return refuse_type(err, path, before.st_mode, p);
    }
    if ((*fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC))
        < 0) {
        return refuse_errno(err, path, errno, p);
    }
    if (fstat(*fd, &after) != 0) {
        e = errno;
        close(*fd);
        *fd = -1;
        return refuse_errno(err, path, e, p);
    }
    if (!S_ISREG(after.st_mode) || after.st_dev != before.st_dev
        || after.st_ino != before.st_ino) {
        close(*fd);
        *fd = -1;
        *err = apr_psprintf(p, "%s: cannot read it: it was replaced while "
                            "being opened", path);
        return -1;
    }
    return 0;
}

int pc_input_read(char **buf, apr_size_t *len, const char **err,
                  const char *path, apr_size_t max, apr_pool_t *p)
{
    struct stat st;
    apr_size_t size, have = 0;
    ssize_t n;
    char *b;
    int fd, e;

    if (pc_input_open(&fd, err, path, p) < 0) {
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        e = errno;
        close(fd);
        return refuse_errno(err, path, e, p);
    }
    size = (apr_size_t)st.st_size;
    if (max > 0 && (apr_uint64_t)st.st_size > max) {
        close(fd);
        *err = apr_psprintf(p, "%s: larger than %" APR_SIZE_T_FMT " MB",
                            path, max / (1024 * 1024));
        return -1;
    }
    /* The size fstat gave: a file that grows meanwhile is read as it
     * was. */
    b = apr_palloc(p, size + 1);
    while (have < size) {
        n = read(fd, b + have, size - have);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            e = errno;
            close(fd);
            return refuse_errno(err, path, e, p);
        }
        if (n == 0) {
            break;
        }
        have += (apr_size_t)n;
    }
    close(fd);
    b[have] = '\0';
    *buf = b;
    *len = have;
    return 0;
}
