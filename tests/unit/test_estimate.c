/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_estimate.c -- the pre-scan's estimate of a parse (CONTRACT §9,
 * profile_estimate_parse() in profile_estimate.c) against the jansson
 * that is linked: a counting allocator, installed for this binary only
 * (json_set_alloc_funcs is process-wide: never in the module), counts
 * the live bytes of json_loadb(..., JSON_REJECT_DUPLICATES) as the
 * module calls it and keeps their peak.
 *
 * For each shape that sits on one of jansson's worst cases (an array
 * or a hash table just after it grew, a lexer buffer just past a power
 * of two, keys held along a deep path, nested empties) the estimate is
 * at least the peak plus the input, and at most three times it.  The
 * shapes are large enough that the constants of the estimate matter:
 * lowering one per value by 10 % fails the shape it dominates
 * (docs/performance.md), so a jansson that takes more than the model
 * fails here, not in a parent that loads a file.  Two cannot be that
 * tight: PARSE_PER_KEY is the overhead of one block, and PARSE_FIXED is
 * what a counting allocator does not see (malloc's own state).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "unit.h"
#include "profile_estimate.h"

/* ------------------------------------------------ the counting allocator */

/* Live bytes of jansson's allocations and their peak.  A block counts as
 * glibc's chunk: the usable size and the size word before it. */
static size_t live, peak;

static size_t chunk(void *ptr)
{
    return malloc_usable_size(ptr) + sizeof(size_t);
}

static void *counting_malloc(size_t n)
{
    void *ptr = malloc(n);

    if (ptr != NULL) {
        live += chunk(ptr);
        if (live > peak) {
            peak = live;
        }
    }
    return ptr;
}

static void counting_free(void *ptr)
{
    if (ptr != NULL) {
        live -= chunk(ptr);
        free(ptr);
    }
}

/* ------------------------------------------------------------- the texts */

typedef struct {
    char *s;
    size_t len, cap;
} text_t;

static void put(text_t *t, const char *bytes, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->len, bytes, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void puts_(text_t *t, const char *str)
{
    put(t, str, strlen(str));
}

static void put_n(text_t *t, char c, size_t n)
{
    while (n-- > 0) {
        put(t, &c, 1);
    }
}

/* [item,item,...]: n items. */
static void array_of(text_t *t, const char *item, size_t n)
{
    size_t i;

    puts_(t, "[");
    for (i = 0; i < n; i++) {
        if (i > 0) {
            puts_(t, ",");
        }
        puts_(t, item);
    }
    puts_(t, "]");
}

/* ---------------------------------------------------------- the verdict */

/* Parses t as the module does, the allocator counting, and checks the
 * estimate against the peak plus the input: at least it and, when
 * `tight`, at most three times it (a small file's estimate is mostly the
 * fixed part); frees t. */
static void check_shape(text_t *t, const char *shape, int tight)
{
    profile_parse_estimate_t est;
    json_error_t err;
    json_t *root;
    apr_uint64_t actual;

    live = peak = 0;
    root = json_loadb(t->s, t->len, JSON_REJECT_DUPLICATES, &err);
    json_decref(root);
    assert_int_equal(live, 0);
    actual = (apr_uint64_t)peak + t->len;
    profile_estimate_parse(&est, t->s, t->len);
    print_message("  %-44s %9zu B  peak+input %7.2f MB  estimate %7.2f MB"
                  "  %.2f%s\n", shape, t->len, actual / 1048576.0,
                  est.bytes / 1048576.0, (double)est.bytes / actual,
                  root ? "" : "  (refused by jansson)");
    if (est.bytes < actual || (tight && est.bytes > 3 * actual)) {
        fail_msg("%s: estimate %llu, peak plus input %llu", shape,
                 (unsigned long long)est.bytes, (unsigned long long)actual);
    }
    free(t->s);
}

#define check(t, shape) check_shape((t), (shape), 1)

/* ------------------------------------------------------------ the shapes */

/* An array's table just after it doubled: the old and new tables alive at
 * once, the new one half empty (PARSE_PER_SLOT, PARSE_GROWTH_PER_SLOT). */
static void array_of_nulls_after_a_growth(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "null", (1 << 20) + 1);
    check(&t, "[null,...], 2^20+1 elements");
}

/* Numbers (PARSE_PER_NUMBER). */
static void array_of_ints_after_a_growth(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "1", (1 << 19) + 1);
    check(&t, "[1,...], 2^19+1 elements");
}

/* Empty strings (PARSE_PER_STRING). */
static void array_of_empty_strings(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "\"\"", (1 << 19) + 1);
    check(&t, "[\"\",...], 2^19+1 elements");
}

/* Empty objects (PARSE_PER_OBJECT). */
static void array_of_empty_objects(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "{}", (1 << 17) + 1);
    check(&t, "[{},...], 2^17+1 elements");
}

/* Empty arrays (PARSE_PER_ARRAY). */
static void array_of_empty_arrays(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "[]", (1 << 17) + 1);
    check(&t, "[[],...], 2^17+1 elements");
}

/* One object just after its hash table doubled, distinct keys of 16
 * bytes (a pair's size is then exactly its key plus 80): PARSE_PER_MEMBER
 * and PARSE_GROWTH_PER_MEMBER. */
static void object_after_a_rehash(void **state)
{
    text_t t = {0};
    char item[64];
    size_t i, n = (1 << 18) + 1;

    (void)state;
    puts_(&t, "{");
    for (i = 0; i < n; i++) {
        snprintf(item, sizeof(item), "%s\"k%015zu\":null", i ? "," : "", i);
        puts_(&t, item);
    }
    puts_(&t, "}");
    check(&t, "{\"k...\":null,...}, 2^18+1 members");
}

/* The same with short keys and numbers (the review's shape). */
static void object_of_ints_after_a_rehash(void **state)
{
    text_t t = {0};
    char item[64];
    size_t i, n = (1 << 17) + 1;

    (void)state;
    puts_(&t, "{");
    for (i = 0; i < n; i++) {
        snprintf(item, sizeof(item), "%s\"%zx\":0", i ? "," : "", i);
        puts_(&t, item);
    }
    puts_(&t, "}");
    check(&t, "{\"k\":0,...}, 2^17+1 members");
}

/* Objects of 9 members: each one's table doubled from 8 buckets. */
static void objects_of_nine_members(void **state)
{
    text_t t = {0};

    (void)state;
    array_of(&t, "{\"a\":0,\"b\":0,\"c\":0,\"d\":0,\"e\":0,\"f\":0,\"g\":0,"
             "\"h\":0,\"i\":0}", (1 << 15) + 1);
    check(&t, "[{9 members},...], 2^15+1 objects");
}

/* One long string whose token (quotes included) is a power of two: the
 * lexer's buffer doubles to twice it, the old one alive meanwhile, and
 * the value is as long again (PARSE_LEXER_MIN, the powers of two). */
static void one_long_string(void **state)
{
    text_t t = {0};

    (void)state;
    puts_(&t, "[\"");
    put_n(&t, 'x', (4 << 20) - 2);
    puts_(&t, "\"]");
    check(&t, "[\"x...\"], a token of 4 MB");
}

/* One long key: held while its value is parsed, then alive with the pair
 * it is copied into (PARSE_PER_KEY). */
static void one_long_key(void **state)
{
    text_t t = {0};

    (void)state;
    puts_(&t, "{\"");
    put_n(&t, 'k', (4 << 20) - 2);
    puts_(&t, "\":null}");
    check(&t, "{\"k...\":null}, a key of 4 MB");
}

/* The long string, then the densest array after a growth. */
static void long_string_then_ints(void **state)
{
    text_t t = {0};
    size_t i;

    (void)state;
    puts_(&t, "[\"");
    put_n(&t, 'x', (2 << 20) - 2);
    puts_(&t, "\",[");
    for (i = 0; i < (1 << 18) + 1; i++) {
        puts_(&t, i ? ",1" : "1");
    }
    puts_(&t, "]]");
    check(&t, "a 2 MB string, then [1,...] of 2^18+1");
}

/* A long bare word (a number would do the same): the lexer keeps it all
 * before jansson refuses it, and doubled its buffer for it. */
static void long_bare_word(void **state)
{
    text_t t = {0};

    (void)state;
    puts_(&t, "[");
    put_n(&t, 'x', (4 << 20) - 1);
    puts_(&t, "]");
    check(&t, "[xxx...], a bare word of 4 MB");
}

/* Arrays nested to jansson's depth limit, and past it (jansson builds
 * 2048 levels, then refuses). */
static void nested_arrays_to_the_limit(void **state)
{
    text_t t = {0};

    (void)state;
    put_n(&t, '[', JSON_PARSER_MAX_DEPTH);
    put_n(&t, ']', JSON_PARSER_MAX_DEPTH);
    check(&t, "[[[...]]], 2048 deep");
    memset(&t, 0, sizeof(t));
    put_n(&t, '[', 100000);
    put_n(&t, ']', 100000);
    check(&t, "[[[...]]], 100,000 deep");
}

/* Objects nested to the limit, each holding its key while its value is
 * parsed: short keys, then keys of 1 KB. */
static void nested_objects_hold_their_keys(void **state)
{
    text_t t = {0};
    size_t i, depth = JSON_PARSER_MAX_DEPTH - 1;

    (void)state;
    for (i = 0; i < depth; i++) {
        puts_(&t, "{\"k\":");
    }
    puts_(&t, "{}");
    put_n(&t, '}', depth);
    check(&t, "{\"k\":{\"k\":...}}, 2048 deep");
    memset(&t, 0, sizeof(t));
    for (i = 0; i < depth; i++) {
        puts_(&t, "{\"");
        put_n(&t, 'k', 1024);
        puts_(&t, "\":");
    }
    puts_(&t, "{}");
    put_n(&t, '}', depth);
    check(&t, "{\"k...\":{\"k...\":...}}, keys of 1 KB, 2048 deep");
}

/* The sample data: realistic text is an upper bound too. */
static void the_sample(void **state)
{
    text_t t = {0};
    FILE *f = fopen(SAMPLE_PATH, "rb");
    char buf[65536];
    size_t n;

    (void)state;
    assert_non_null(f);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        put(&t, buf, n);
    }
    fclose(f);
    check_shape(&t, "data/profile.json", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(array_of_nulls_after_a_growth),
        cmocka_unit_test(array_of_ints_after_a_growth),
        cmocka_unit_test(array_of_empty_strings),
        cmocka_unit_test(array_of_empty_objects),
        cmocka_unit_test(array_of_empty_arrays),
        cmocka_unit_test(object_after_a_rehash),
        cmocka_unit_test(object_of_ints_after_a_rehash),
        cmocka_unit_test(objects_of_nine_members),
        cmocka_unit_test(one_long_string),
        cmocka_unit_test(one_long_key),
        cmocka_unit_test(long_string_then_ints),
        cmocka_unit_test(long_bare_word),
        cmocka_unit_test(nested_arrays_to_the_limit),
        cmocka_unit_test(nested_objects_hold_their_keys),
        cmocka_unit_test(the_sample),
    };

    /* Before any other jansson call, and only in this binary. */
    json_set_alloc_funcs(counting_malloc, counting_free);
    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
