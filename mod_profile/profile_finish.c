/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_finish.c -- the thread pool that hashes and compresses: the
 * ETag and the gzip and br forms of every body rendered at load time.
 * Independent per body, so for large data shared among threads (one per
 * usable CPU besides the loading thread, at most 8) that start while the
 * bodies are still being rendered and write only their own job; the
 * results are copied into the store's pool by the loading thread once
 * all are done.
 *
 * Fork safety: httpd loads the data in its parent and then forks the
 * children, and a fork copies only the calling thread.  So every thread
 * started here is joined before loading returns (profile_finish_all(),
 * which the loader calls on every path after profile_finish_start()),
 * and the workers allocate with malloc only (the compressed forms),
 * never from an APR pool: pools, mutex and threads are created and
 * destroyed by the loading thread alone, and no thread is left holding
 * a lock or an allocator when the process forks.
 *
 * Pure core: no httpd headers.
 */
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#if !defined(WIN32)
#include <pthread.h>
#include <signal.h>
#endif
#if defined(__linux__)
#include <sched.h>
#endif

#include <apr_strings.h>
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>
#include <apr_thread_proc.h>

#include "profile_enc.h"
#include "profile_etag.h"
#include "profile_finish.h"

#define MAX_THREADS 8

typedef struct {
    profile_body_t *body;
    int hash;                   /* 0: a collection (ETag from elements) */
    int compress;
    char etag[PROFILE_ETAG_SIZE];
    char *coded[PROFILE_ENC_COUNT];     /* malloc'd; NULL: not kept */
    apr_size_t coded_len[PROFILE_ENC_COUNT];
    char coded_etag[PROFILE_ENC_COUNT][PROFILE_ETAG_SIZE];
} job_t;

struct profile_finish {
    apr_pool_t *pool;           /* for this and the jobs; gone after all */
    job_t *jobs;                /* [cap], filled in order */
    apr_size_t cap;
    apr_size_t queued;          /* jobs filled in */
    apr_size_t published;       /* jobs ready to run (in batches) */
    apr_size_t next;            /* the next job to take */
    int done;                   /* no more jobs will come */
    int compress;
    int level;                  /* profile_enc level for this load */
    apr_thread_mutex_t *mu;     /* NULL: no threads, all at the end */
    apr_thread_cond_t *cv;
    apr_thread_t *threads[MAX_THREADS];
    int nthreads;
};

/* The next job to run, waiting for one while more may come; NULL when
 * none is left. */
static job_t *next_job(profile_finish_t *w)
{
    job_t *j = NULL;

    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        while (w->next >= w->published && !w->done) {
            apr_thread_cond_wait(w->cv, w->mu);
        }
    }
    if (w->next < w->published) {
        j = &w->jobs[w->next++];
    }
    if (w->mu != NULL) {
        apr_thread_mutex_unlock(w->mu);
    }
    return j;
}

/* Writes only into *j, and allocates with malloc only. */
static void run_job(const profile_finish_t *w, job_t *j)
{
    int enc;

    if (j->hash) {
        profile_etag_into(j->etag, j->body->sha1, j->body->data,
                          j->body->len);
    }
    for (enc = PROFILE_ENC_GZIP; j->compress && enc < PROFILE_ENC_COUNT;
         enc++) {
        j->coded[enc] = profile_enc_compress(&j->coded_len[enc],
                                             (profile_enc_e)enc, w->level,
                                             j->body->data, j->body->len);
        if (j->coded[enc] != NULL) {
            profile_etag_into(j->coded_etag[enc], NULL, j->coded[enc],
                              j->coded_len[enc]);
        }
    }
}

/* A thread of the pool: runs jobs until none is left (t NULL: the
 * loading thread, at the end). */
static void *APR_THREAD_FUNC finish_thread(apr_thread_t *t, void *data)
{
    profile_finish_t *w = data;
    job_t *j;

    (void)t;
    while ((j = next_job(w)) != NULL) {
        run_job(w, j);
    }
    return NULL;
}

/* The CPUs this process may run on (its affinity mask, which taskset or
 * a cpuset may narrow), else those online. */
static long usable_cpus(void)
{
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        return CPU_COUNT(&set);
    }
#endif
    return sysconf(_SC_NPROCESSORS_ONLN);
}

/* The strongest levels cost seconds per megabyte (br); beyond a small
 * profile, fast levels keep loading within a second.  Threads start
 * only above 256 KB and with two usable CPUs or more. */
profile_finish_t *profile_finish_start(apr_size_t cap, apr_size_t size,
                                       int compress, apr_pool_t *p)
{
    long ncpu = usable_cpus();
    apr_pool_t *pool;
    profile_finish_t *w;
    int i;
#if !defined(WIN32)
    sigset_t all, old;
#endif

    apr_pool_create(&pool, p);
    w = apr_pcalloc(pool, sizeof(*w));
    w->pool = pool;
    w->cap = cap;
    w->jobs = apr_pcalloc(w->pool, sizeof(job_t) * (cap + 1));
    w->compress = compress;
    w->level = size <= PROFILE_ENC_BEST_LIMIT ? PROFILE_ENC_LEVEL_BEST
                                              : PROFILE_ENC_LEVEL_FAST;
    if (size <= 256 * 1024 || ncpu < 2
        || apr_thread_mutex_create(&w->mu, APR_THREAD_MUTEX_DEFAULT,
                                   w->pool) != APR_SUCCESS
        || apr_thread_cond_create(&w->cv, w->pool) != APR_SUCCESS) {
        w->mu = NULL;
        return w;
    }
    /* The threads start with every signal blocked (a new thread inherits
     * its creator's mask): httpd's SIGHUP, SIGTERM... go to the loading
     * thread alone, from the threads' first instruction on. */
#if !defined(WIN32)
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
#endif
    for (i = 1; i < ncpu && w->nthreads < MAX_THREADS; i++) {
        if (apr_thread_create(&w->threads[w->nthreads], NULL, finish_thread,
                              w, w->pool) == APR_SUCCESS) {
            w->nthreads++;
        }
    }
#if !defined(WIN32)
    pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
    return w;
}

/* Hands the jobs queued so far to the threads (in batches: waking a
 * thread per job would cost more than some jobs). */
static void publish(profile_finish_t *w)
{
    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        w->published = w->queued;
        apr_thread_cond_broadcast(w->cv);
        apr_thread_mutex_unlock(w->mu);
    }
    else {
        w->published = w->queued;
    }
}

void profile_finish_later(profile_finish_t *w, profile_body_t *body,
                          int hash, int served)
{
    job_t *j;

    if (w->queued >= w->cap) {
        abort();                /* the loader's count of bodies is wrong */
    }
    j = &w->jobs[w->queued++];
    j->body = body;
    j->hash = hash;
    j->compress = served && w->compress;
    if (w->queued - w->published >= 64) {
        publish(w);
    }
}

void profile_finish_all(profile_finish_t *w, apr_pool_t *p)
{
    apr_size_t i;
    int t;

    if (w->mu != NULL) {
        apr_thread_mutex_lock(w->mu);
        w->published = w->queued;
        w->done = 1;
        apr_thread_cond_broadcast(w->cv);
        apr_thread_mutex_unlock(w->mu);
    }
    else {
        w->published = w->queued;
        w->done = 1;
    }
    finish_thread(NULL, w);
    for (t = 0; t < w->nthreads; t++) {
        apr_status_t rv;

        apr_thread_join(&rv, w->threads[t]);
    }
    for (i = 0; i < w->published; i++) {
        job_t *j = &w->jobs[i];
        int enc;

        if (j->hash) {
            j->body->etag = apr_pstrmemdup(p, j->etag,
                                           PROFILE_ETAG_SIZE - 1);
        }
        for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
            if (j->coded[enc] != NULL) {
                profile_bytes_t *c = &j->body->coded[enc];

                c->data = apr_pmemdup(p, j->coded[enc], j->coded_len[enc]);
                c->len = j->coded_len[enc];
                c->etag = apr_pstrmemdup(p, j->coded_etag[enc],
                                         PROFILE_ETAG_SIZE - 1);
                free(j->coded[enc]);
            }
        }
    }
    apr_pool_destroy(w->pool);
}
