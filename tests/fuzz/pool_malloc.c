/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pool_malloc.c -- makes APR pool allocations visible to AddressSanitizer
 * in the fuzz and replay programs.
 *
 * APR hands out pool memory from 8 KiB blocks it mallocs itself, so ASan
 * cannot see a write past the end of one allocation into the next.  This
 * file defines apr_palloc() and apr_pcalloc() in the program, which the
 * dynamic linker then prefers to libapr's own (for calls from libapr
 * too: apr_pstrdup, apr_array_push, apr_table_make...): each allocation
 * is a malloc() of its own, freed by a cleanup when its pool is cleared
 * or destroyed.  The pool's bookkeeping (its cleanups and user data) still
 * comes from libapr's allocator, reached through dlsym(RTLD_NEXT).
 *
 * Test code only: never linked into the module.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_pools.h>
#include <apr_strings.h>

#undef apr_palloc
#undef apr_pcalloc

int fuzz_pool_malloc_active(void);
APR_DECLARE(void *) apr_palloc(apr_pool_t *p, apr_size_t size);
APR_DECLARE(void *) apr_pcalloc(apr_pool_t *p, apr_size_t size);

/* Every allocation is preceded by this header; a pool's allocations form
 * a list whose head lives in the pool's user data. */
typedef union chunk {
    union chunk *next;
    max_align_t align;
} chunk_t;

typedef struct {
    chunk_t *head;
} chunks_t;

static const char KEY[] = "fuzz_pool_malloc";
static void *(*real_palloc)(apr_pool_t *, apr_size_t);
static int inside;              /* the programs are single-threaded */
static int used;

static apr_status_t free_chunks(void *data)
{
    chunks_t *list = data;
    chunk_t *c = list->head;

    while (c != NULL) {
        chunk_t *next = c->next;
        free(c);
        c = next;
    }
    list->head = NULL;
    return APR_SUCCESS;
}

static void *bookkeeping_alloc(apr_pool_t *p, apr_size_t size)
{
    if (real_palloc == NULL) {
        *(void **)&real_palloc = dlsym(RTLD_NEXT, "apr_palloc");
        if (real_palloc == NULL) {
            fprintf(stderr, "pool_malloc: no apr_palloc after this one\n");
            abort();
        }
    }
    return real_palloc(p, size);
}

APR_DECLARE(void *) apr_palloc(apr_pool_t *p, apr_size_t size)
{
    chunks_t *list = NULL;
    chunk_t *c;

    if (inside) {
        return bookkeeping_alloc(p, size);
    }
    inside = 1;
    apr_pool_userdata_get((void **)&list, KEY, p);
    if (list == NULL) {
        /* Registered before anything else the pool's user registers
         * (that needs apr_palloc too), so it runs after their cleanups. */
        list = bookkeeping_alloc(p, sizeof(*list));
        list->head = NULL;
        apr_pool_userdata_setn(list, KEY, NULL, p);
        apr_pool_cleanup_register(p, list, free_chunks,
                                  apr_pool_cleanup_null);
    }
    inside = 0;
    c = malloc(sizeof(chunk_t) + (size ? size : 1));
    if (c == NULL) {
        abort();
    }
    c->next = list->head;
    list->head = c;
    used = 1;
    return c + 1;
}

APR_DECLARE(void *) apr_pcalloc(apr_pool_t *p, apr_size_t size)
{
    void *mem = apr_palloc(p, size);

    memset(mem, 0, size);
    return mem;
}

/* Non-zero when an allocation through libapr came here, and ASan (when
 * present) sees the byte after a one-byte allocation as out of bounds. */
int fuzz_pool_malloc_active(void)
{
    apr_pool_t *p = NULL;
    int ok;

    apr_pool_create(&p, NULL);
    used = 0;
    ok = apr_pstrdup(p, "") != NULL && used;
    apr_pool_destroy(p);
    return ok;
}
