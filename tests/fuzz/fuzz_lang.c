/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_lang.c -- Accept-Language: the list tokenizer (profile_hdr) and the
 * choice of language (profile_lang), CONTRACT §4.
 *
 * Input: one byte choosing the data file's languages, then the header
 * value.  Invariants: the tokenizer stays inside the value and always
 * advances; weights are 0-1000 and agree with RFC 9110's qvalue grammar;
 * the choice is a declared language; a header naming one declared
 * language exactly picks it; "L;q=1, " in front of any value picks L.
 */
#include <strings.h>

#include <apr_lib.h>

#define FUZZ_NAME lang
#include "fuzz.h"
#include "profile_hdr.h"
#include "profile_lang.h"

static const char *const set_en_es[] = {"en", "es"};
static const char *const set_es_en[] = {"es", "en"};
static const char *const set_en[] = {"en"};
static const char *const set_many[PROFILE_LANG_MAX] = {
    "en", "es", "pt", "fr", "de", "it", "ca", "eu",
    "gl", "nl", "sv", "tlh", "zh", "sgn", "x", "abcdefgh"
};

static const struct {
    const char *const *langs;
    int n;
} sets[] = {
    {set_en_es, 2}, {set_es_en, 2}, {set_en, 1}, {set_many, PROFILE_LANG_MAX}
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

/* RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] )
 *                          / ( "1" [ "." 0*3("0") ] ) */
static int oracle_qvalue(const char *s, size_t len)
{
    int q = 0, scale = 100;
    size_t i;

    if (len == 0 || len > 5 || (s[0] != '0' && s[0] != '1')) {
        return -1;
    }
    if (len > 1 && s[1] != '.') {
        return -1;
    }
    for (i = 2; i < len; i++) {
        if (!apr_isdigit(s[i]) || (s[0] == '1' && s[i] != '0')) {
            return -1;
        }
        q += (s[i] - '0') * scale;
        scale /= 10;
    }
    return s[0] == '1' ? 1000 : q;
}

static void check_tokenizer(const char *header)
{
    const char *cursor = header, *prev = header;
    const char *end = header + strlen(header);
    profile_hdr_elem_t e;
    size_t rounds = 0;

    while (profile_hdr_next(&cursor, &e)) {
        FUZZ_CHECK(++rounds <= (size_t)(end - header) + 1,
                   "no progress in \"%s\"", header);
        FUZZ_CHECK(cursor > prev && cursor <= end,
                   "cursor at %td of %td", cursor - header, end - header);
        FUZZ_CHECK(e.token >= prev && e.token + e.token_len <= cursor,
                   "token outside the element in \"%s\"", header);
        FUZZ_CHECK(e.token_len == 0 || (e.token[0] != ' '
                                        && e.token[0] != '\t'
                                        && e.token[e.token_len - 1] != ' '
                                        && e.token[e.token_len - 1]
                                           != '\t'),
                   "untrimmed token in \"%s\"", header);
        FUZZ_CHECK(memchr(e.token, ',', e.token_len) == NULL,
                   "token spans a comma in \"%s\"", header);
        FUZZ_CHECK(e.q >= 0 && e.q <= 1000, "q %d", e.q);
        prev = cursor;
    }
    FUZZ_CHECK(*cursor == '\0', "stopped before the end of \"%s\"", header);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p = NULL;
    const char *header;
    const char *const *langs;
    int n, i, got, q;

    if (size < 1) {
        return 0;
    }
    apr_pool_create(&p, fuzz_root);
    langs = sets[data[0] % (sizeof(sets) / sizeof(sets[0]))].langs;
    n = sets[data[0] % (sizeof(sets) / sizeof(sets[0]))].n;
    header = fuzz_cstr(data + 1, size - 1, p);

    check_tokenizer(header);

    q = profile_hdr_qvalue(header, strlen(header));
    FUZZ_CHECK(q == oracle_qvalue(header, strlen(header)),
               "qvalue \"%s\": %d, RFC 9110 says %d", header, q,
               oracle_qvalue(header, strlen(header)));

    got = profile_lang_choose(header, langs, n);
    FUZZ_CHECK(got >= 0 && got < n, "chose %d of %d", got, n);
    for (i = 0; i < n; i++) {
        if (strcasecmp(header, langs[i]) == 0) {
            FUZZ_CHECK(got == i, "\"%s\" chose %s", header, langs[got]);
        }
    }

    /* A first range naming L with the highest weight wins whatever
     * follows. */
    i = (int)(size % (size_t)n);
    got = profile_lang_choose(apr_pstrcat(p, langs[i], ";q=1, ", header,
                                          NULL), langs, n);
    FUZZ_CHECK(got == i, "\"%s;q=1, %s\" chose %s", langs[i], header,
               langs[got]);

    apr_pool_destroy(p);
    return 0;
}
