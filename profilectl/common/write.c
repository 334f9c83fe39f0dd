/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/write.c -- the one way profilectl writes: a file that a command
 * makes (new, import-jsonresume, export-jsonresume, any -o) and standard
 * output at the end of every command.  The rules are profilectl.1's
 * (OUTPUT FILES):
 *
 *   - a target that is one of the command's inputs (the same st_dev and
 *     st_ino, by any path, hard link or symbolic link) is refused and
 *     nothing is written;
 *   - a regular file is replaced whole: a temporary file in the
 *     target's directory is written, fsynced, renamed over the target,
 *     then the directory is fsynced; a failure leaves the old file as it
 *     was and removes the temporary file;
 *   - an existing file keeps its permission bits (not set-id bits),
 *     and its group when the caller owns it; a file of another user
 *     (root replacing a user's file) becomes the caller's: root's
 *     profilectl gives no file away, nor takes a mode from a file it
 *     does not own together with an owner;
 *   - a symbolic link is never followed: the link itself is replaced by
 *     the new file (rename() does not follow it), which gets 0666 &
 *     ~umask like any new file, and the file it pointed to is not
 *     touched.  A link that someone else planted can therefore never
 *     make a root-run profilectl write into another file;
 *   - a target that is not a regular file (a directory, a FIFO, a
 *     device), or a link to one, is refused: writing there is standard
 *     output's job (`> FIFO`).
 *
 * It does not include httpd headers and knows nothing of JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <apr_strings.h>

#include "common/common.h"

/* Why a write to standard output failed, when the write itself saw it
 * (a later fflush() has nothing left to say). */
static int stdout_errno;

/* The refusal of a target that is one of the inputs. */
static int refuse_input(const char *cmd, const char *target,
                        const char *input)
{
    if (strcmp(target, input) == 0) {
        return pc_fail(cmd, "cannot write %s: it is an input of this "
                       "command (nothing written)", target);
    }
    return pc_fail(cmd, "cannot write %s: it is the same file as the input "
                   "%s (nothing written)", target, input);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The input that is the file `st`, or NULL. */
static const char *input_named(const struct stat *st,
                               const char *const *inputs)
{
    struct stat ist;

    for (; inputs != NULL && *inputs != NULL; inputs++) {
        if (stat(*inputs, &ist) == 0 && same_file(st, &ist)) {
            return *inputs;
        }
    }
    return NULL;
}

/* Writes len bytes to fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t len)
{
    ssize_t n;

    while (len > 0) {
        n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* fsync of the directory that holds a renamed file, so that the rename
 * survives a crash.  Some file systems cannot sync a directory
 * (EINVAL): nothing more can be done there.  0, or an errno. */
static int sync_dir(const char *dir)
{
    int fd, err = 0;

    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return errno;
    }
    if (fsync(fd) != 0 && errno != EINVAL) {
        err = errno;
    }
    close(fd);
    return err;
}

int pc_write(const char *cmd, const char *target, const char *text,
             apr_size_t len, const char *const *inputs, int flags,
             apr_pool_t *p)
{
    struct stat st, lst;
    const char *dir, *base, *input, *slash;
    char *tmp;
    mode_t mask;
    int exists, keep, fd, err = 0;

    if (target == NULL || strcmp(target, "-") == 0) {
        /* `>> INPUT` would append to the file being read. */
        if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)
            && (input = input_named(&st, inputs)) != NULL) {
            return refuse_input(cmd, "standard output", input);
        }
        /* Errors are reported by pc_stdout_done() when the command
         * ends. */
        if (fwrite(text, 1, len, stdout) != len && stdout_errno == 0) {
            stdout_errno = errno;
        }
        return PC_EXIT_OK;
    }

    exists = lstat(target, &lst) == 0;
    if (!exists && errno != ENOENT) {
        return pc_fail(cmd, "cannot write %s: %s", target, strerror(errno));
    }
    if (exists && (flags & PC_WRITE_EXCL)) {
        return pc_fail(cmd, "%s exists (--force replaces it)", target);
    }
    /* What a link points to is looked at, never written: an input is
     * refused, a link to a directory or a device too (/dev/stdout is
     * no file to replace), a link to a file or to nothing is replaced
     * itself. */
    st = lst;
    if (exists && S_ISLNK(lst.st_mode) && stat(target, &st) != 0) {
        st = lst;
    }
    if (exists) {
        if ((input = input_named(&st, inputs)) != NULL) {
            return refuse_input(cmd, target, input);
        }
        if (S_ISDIR(st.st_mode)) {
            return pc_fail(cmd, "cannot write %s: it is a directory%s",
                           target, S_ISLNK(lst.st_mode)
                           ? " (a symbolic link to one)" : "");
        }
        if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
            return pc_fail(cmd, "cannot write %s: not a regular file%s; "
                           "write to standard output and redirect it "
                           "(> %s)", target, S_ISLNK(lst.st_mode)
                           ? " (a symbolic link to a FIFO or a device)"
                           : " (a FIFO or a device)", target);
        }
    }
    /* Mode and group are those of a regular file at the name itself;
     * its group only when the caller owns it. */
    keep = exists && S_ISREG(lst.st_mode);

    slash = strrchr(target, '/');
    dir = slash == NULL ? "."
          : slash == target ? "/" : apr_pstrmemdup(p, target,
                                                   slash - target);
    base = slash == NULL ? target : slash + 1;
    if (*base == '\0') {
        return pc_fail(cmd, "cannot write %s: not a file name", target);
    }
    tmp = apr_psprintf(p, "%s/.%s.XXXXXX", dir, base);
    fd = mkstemp(tmp);
    if (fd < 0) {
        return pc_fail(cmd, "cannot write %s: cannot create a file in %s: "
                       "%s", target, dir, strerror(errno));
    }
    if (keep) {
        if (lst.st_uid == geteuid() && lst.st_gid != getegid()) {
            (void)!fchown(fd, (uid_t)-1, lst.st_gid);
        }
        if (fchmod(fd, lst.st_mode & 0777) != 0) {
            err = errno;
        }
    }
    else {
        mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0) {
            err = errno;
        }
    }
    if (err == 0 && (write_all(fd, text, len) < 0 || fsync(fd) != 0)) {
        err = errno;
    }
    if (close(fd) != 0 && err == 0) {
        err = errno;
    }
    if (err == 0 && (flags & PC_WRITE_EXCL)) {
        /* link() fails if the name was taken meanwhile; a file system
         * without hard links gets a rename after one more look. */
        if (link(tmp, target) != 0) {
            err = errno;
            if (err == EPERM || err == ENOTSUP || err == EOPNOTSUPP) {
                err = lstat(target, &st) == 0 ? EEXIST
                      : rename(tmp, target) != 0 ? errno : 0;
            }
        }
        unlink(tmp);
        if (err == EEXIST) {
            return pc_fail(cmd, "%s exists (--force replaces it)", target);
        }
    }
    else if (err == 0 && rename(tmp, target) != 0) {
        err = errno;
    }
    if (err != 0) {
        unlink(tmp);
        return pc_fail(cmd, "cannot write %s: %s (%s)", target,
                       strerror(err), exists ? "it is unchanged"
                                             : "nothing was written");
    }
    if ((err = sync_dir(dir)) != 0) {
        return pc_fail(cmd, "%s is written, but its directory %s cannot be "
                       "synced: %s", target, dir, strerror(err));
    }
    return PC_EXIT_OK;
}

int pc_stdout_done(const char *cmd, int status)
{
    int err = 0, failed;

    /* An earlier failed write may have left nothing to flush: ferror()
     * still says so, without a reason. */
    failed = fflush(stdout) != 0;
    err = stdout_errno != 0 ? stdout_errno : failed ? errno : 0;
    failed |= ferror(stdout) != 0;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (!failed) {
        return status;
    }
    if (err != 0) {
        return pc_fail(cmd, "cannot write to standard output: %s",
                       strerror(err));
    }
    return pc_fail(cmd, "cannot write to standard output");
}
