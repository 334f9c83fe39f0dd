/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c -- a plain main() for the fuzz targets: runs the target once
 * over every file of its corpus, so the seeds (and every crash found and
 * saved there) are checked by `make check` with any compiler.
 *
 *     replay-TARGET [FILE|DIR...]
 *
 * Without arguments it replays FUZZ_CORPUS, the target's directory in
 * tests/fuzz/corpus.  Exits 0 when every input ran, 99 (automake hard
 * error) when there was nothing to run or a file could not be read; a
 * broken invariant or a sanitizer report aborts.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_CORPUS
#error "FUZZ_CORPUS must name the target's corpus directory"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;

    if (f == NULL) {
        perror(path);
        return -1;
    }
    do {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            buf = realloc(buf, cap);
            if (buf == NULL) {
                abort();
            }
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) {
        perror(path);
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    /* An exact-size copy: ASan then sees a read past the input's end. */
    {
        uint8_t *exact = malloc(len ? len : 1);

        if (exact == NULL) {
            abort();
        }
        memcpy(exact, buf, len);
        free(buf);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs `path`, or every regular file in it (sorted) when a directory.
 * Adds to *count; returns -1 on a read error. */
static int run_path(const char *path, int *count)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int rc = 0;

    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (run_file(path) != 0) {
            return -1;
        }
        ++*count;
        return 0;
    }
    d = opendir(path);
    if (d == NULL) {
        perror(path);
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        char *full;

        if (e->d_name[0] == '.') {
            continue;
        }
        full = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (full == NULL) {
            abort();
        }
        sprintf(full, "%s/%s", path, e->d_name);
        if (stat(full, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(full);
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof(*names));
            if (names == NULL) {
                abort();
            }
        }
        names[n++] = full;
    }
    closedir(d);
    if (n > 0) {
        qsort(names, n, sizeof(*names), cmp);
    }
    for (i = 0; i < n; i++) {
        if (rc == 0 && run_file(names[i]) != 0) {
            rc = -1;
        }
        else if (rc == 0) {
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    static char *defaults[] = {FUZZ_CORPUS, NULL};
    char **paths = argc > 1 ? argv + 1 : defaults;
    int count = 0, i;

    LLVMFuzzerInitialize(&argc, &argv);
    for (i = 0; paths[i] != NULL; i++) {
        if (run_path(paths[i], &count) != 0) {
            return 99;
        }
    }
    if (count == 0) {
        fprintf(stderr, "no input to replay\n");
        return 99;
    }
    printf("%s: %d inputs replayed without a finding\n", argv[0], count);
    return 0;
}
