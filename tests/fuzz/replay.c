/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c -- a plain main() for the fuzz targets: links all of them
 * (built with FUZZ_REPLAY, which renames their entry points, fuzz.h) and
 * runs each once over every file of its corpus, so the seeds (and every
 * crash found and saved there) are checked by `make check` with any
 * compiler.
 *
 *     replay                       every target over its corpus
 *     replay TARGET [FILE|DIR...]  one target over its corpus, or over
 *                                  the files given
 *
 * A target's corpus is FUZZ_CORPUS/TARGET (tests/fuzz/corpus/TARGET).
 * Exits 0 when every input ran, 2 for an unknown target, 99 (automake
 * hard error) when a target had nothing to run or a file could not be
 * read; a broken invariant or a sanitizer report aborts.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_CORPUS
#error "FUZZ_CORPUS must name the directory of the targets' corpora"
#endif

/* The targets, each tests/fuzz/fuzz_NAME.c. */
#define FUZZ_TARGETS(X) X(store) X(lang) X(query) X(route) X(api) \
    X(jrdate) X(linkedin) X(compiled)

typedef int (*one_input_fn)(const uint8_t *data, size_t size);

#define DECLARE(name)                                                   \
    int fuzz_##name##_initialize(int *argc, char ***argv);              \
    int fuzz_##name##_one_input(const uint8_t *data, size_t size);
FUZZ_TARGETS(DECLARE)

static const struct target {
    const char *name;
    int (*initialize)(int *argc, char ***argv);
    one_input_fn one_input;
} targets[] = {
#define ENTRY(name) {#name, fuzz_##name##_initialize, fuzz_##name##_one_input},
    FUZZ_TARGETS(ENTRY)
};

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

static int run_file(one_input_fn one_input, const char *path)
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
        one_input(exact, len);
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
static int run_path(one_input_fn one_input, const char *path, int *count)
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
        if (run_file(one_input, path) != 0) {
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
        if (rc == 0 && run_file(one_input, names[i]) != 0) {
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

/* Replays `t` over paths[] (NULL-terminated; its corpus when empty). */
static int replay(const struct target *t, char **paths, int argc, char **argv)
{
    char corpus[4096];
    char *defaults[] = {corpus, NULL};
    int count = 0, i;

    if (paths[0] == NULL) {
        snprintf(corpus, sizeof(corpus), "%s/%s", FUZZ_CORPUS, t->name);
        paths = defaults;
    }
    t->initialize(&argc, &argv);
    for (i = 0; paths[i] != NULL; i++) {
        if (run_path(t->one_input, paths[i], &count) != 0) {
            return 99;
        }
    }
    if (count == 0) {
        fprintf(stderr, "%s: no input to replay\n", t->name);
        return 99;
    }
    printf("%s: %d inputs replayed without a finding\n", t->name, count);
    return 0;
}

int main(int argc, char **argv)
{
    size_t i;
    int rc = 0;

    if (argc > 1) {
        for (i = 0; i < NTARGETS; i++) {
            if (strcmp(argv[1], targets[i].name) == 0) {
                return replay(&targets[i], argv + 2, argc, argv);
            }
        }
        fprintf(stderr, "usage: %s [TARGET [FILE|DIR...]]\ntargets:",
                argv[0]);
        for (i = 0; i < NTARGETS; i++) {
            fprintf(stderr, " %s", targets[i].name);
        }
        fputc('\n', stderr);
        return 2;
    }
    for (i = 0; i < NTARGETS && rc == 0; i++) {
        rc = replay(&targets[i], argv + 1, argc, argv);
    }
    return rc;
}
