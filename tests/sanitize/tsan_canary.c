/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tsan_canary.c -- a deliberate data race: two threads increment one int
 * with nothing between them.  tests/sanitize/tsan.sh requires that
 * ThreadSanitizer reports it, and that the report fails the run, before
 * it trusts a clean run of the loader's test.
 */
#include <pthread.h>
#include <stdio.h>

static int shared;

static void *bump(void *arg)
{
    (void)arg;
    shared++;
    return NULL;
}

int main(void)
{
    pthread_t t;

    if (pthread_create(&t, NULL, bump, NULL) != 0) {
        return 99;
    }
    shared++;
    pthread_join(t, NULL);
    printf("%d\n", shared);
    return 0;
}
