/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_enc.c -- Accept-Encoding negotiation (RFC 9110 §12.5.3) and the
 * compressed forms: each decompresses to the input, is deterministic,
 * and is dropped when it would not be smaller.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <brotli/decode.h>
#include <zlib.h>

#include "unit.h"
#include "profile_enc.h"

#define ALL ((1u << PROFILE_ENC_GZIP) | (1u << PROFILE_ENC_BR))
#define GZ_ONLY (1u << PROFILE_ENC_GZIP)

static const struct {
    const char *ae;
    unsigned available;
    profile_enc_e want;
} choices[] = {
    /* No field, or an empty one: identity. */
    {NULL, ALL, PROFILE_ENC_IDENTITY},
    {"", ALL, PROFILE_ENC_IDENTITY},
    {" , ,", ALL, PROFILE_ENC_IDENTITY},
    /* Browsers and curl --compressed. */
    {"gzip, deflate, br", ALL, PROFILE_ENC_BR},
    {"gzip, deflate, br, zstd", ALL, PROFILE_ENC_BR},
    {"deflate, gzip", ALL, PROFILE_ENC_GZIP},
    {"gzip", ALL, PROFILE_ENC_GZIP},
    {"br", ALL, PROFILE_ENC_BR},
    {"x-gzip", ALL, PROFILE_ENC_GZIP},
    {"GZIP", ALL, PROFILE_ENC_GZIP},
    {"Br", ALL, PROFILE_ENC_BR},
    /* Only what the representation has. */
    {"br", GZ_ONLY, PROFILE_ENC_IDENTITY},
    {"br, gzip", GZ_ONLY, PROFILE_ENC_GZIP},
    {"gzip", 0, PROFILE_ENC_IDENTITY},
    /* Weights decide; br before gzip on a tie. */
    {"br;q=0.5, gzip", ALL, PROFILE_ENC_GZIP},
    {"br;q=0.9, gzip;q=0.9", ALL, PROFILE_ENC_BR},
    {"gzip;q=0.1, br;q=0.2", ALL, PROFILE_ENC_BR},
    /* q=0 means "not acceptable". */
    {"br;q=0, gzip", ALL, PROFILE_ENC_GZIP},
    {"br;q=0, gzip;q=0", ALL, PROFILE_ENC_IDENTITY},
    {"gzip;q=0", GZ_ONLY, PROFILE_ENC_IDENTITY},
    /* "*" stands for every coding not named. */
    {"*", ALL, PROFILE_ENC_BR},
    {"*, br;q=0", ALL, PROFILE_ENC_GZIP},
    {"*;q=0", ALL, PROFILE_ENC_IDENTITY},
    {"*;q=0.5, identity", ALL, PROFILE_ENC_IDENTITY},
    /* identity wins only with a higher weight than any coding. */
    {"identity", ALL, PROFILE_ENC_IDENTITY},
    {"identity, gzip", ALL, PROFILE_ENC_GZIP},
    {"identity;q=1, gzip;q=0.5", ALL, PROFILE_ENC_IDENTITY},
    {"identity;q=0.5, gzip", ALL, PROFILE_ENC_GZIP},
    /* identity;q=0 and nothing else acceptable: identity all the same
     * (a server may send it rather than 406). */
    {"identity;q=0", ALL, PROFILE_ENC_IDENTITY},
    {"identity;q=0, gzip", ALL, PROFILE_ENC_GZIP},
    /* Malformed elements are skipped, the rest counts. */
    {"br;q=2, gzip", ALL, PROFILE_ENC_GZIP},
    {"br;q=x", ALL, PROFILE_ENC_IDENTITY},
    {"br;;, gzip;q=0.5", ALL, PROFILE_ENC_GZIP},
    {"gzipx, brotli, zstd", ALL, PROFILE_ENC_IDENTITY},
    /* The highest weight given to a name counts. */
    {"gzip;q=0, gzip;q=1", GZ_ONLY, PROFILE_ENC_GZIP},
};

static void choose_follows_rfc_9110(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
        profile_enc_e got = profile_enc_choose(choices[i].ae,
                                               choices[i].available);
        if (got != choices[i].want) {
            print_error("Accept-Encoding \"%s\" (available %u): got %s, "
                        "want %s\n", choices[i].ae ? choices[i].ae : "(none)",
                        choices[i].available, profile_enc_names[got],
                        profile_enc_names[choices[i].want]);
        }
        assert_int_equal(got, choices[i].want);
    }
}

static void choose_survives_huge_fields(void **state)
{
    apr_pool_t *p = *state;
    apr_size_t n = 100000, i;
    char *ae = apr_palloc(p, n * 8 + 16);
    char *o = ae;

    for (i = 0; i < n; i++) {
        memcpy(o, "x;q=0.5,", 8);
        o += 8;
    }
    strcpy(o, "gzip;q=0.001");
    assert_int_equal(profile_enc_choose(ae, ALL), PROFILE_ENC_GZIP);
}

/* A JSON-like text that compresses well. */
static char *sample_text(apr_pool_t *p, apr_size_t *len)
{
    const char *piece = "{\"title\":\"Moving telemetry to Kubernetes\","
                        "\"summary\":\"Una migraci\xC3\xB3n por fases\"},";
    apr_size_t n = strlen(piece), reps = 200, i;
    char *s = apr_palloc(p, n * reps);

    for (i = 0; i < reps; i++) {
        memcpy(s + i * n, piece, n);
    }
    *len = n * reps;
    return s;
}

static char *gunzip(apr_size_t *out_len, const char *src, apr_size_t len,
                    apr_size_t cap, apr_pool_t *p)
{
    z_stream zs;
    char *out = apr_palloc(p, cap);

    memset(&zs, 0, sizeof(zs));
    assert_int_equal(inflateInit2(&zs, 16 + 15), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)len;
    zs.next_out = (Bytef *)out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
    assert_int_equal(zs.avail_in, 0);
    *out_len = zs.total_out;
    inflateEnd(&zs);
    return out;
}

static char *unbrotli(apr_size_t *out_len, const char *src, apr_size_t len,
                      apr_size_t cap, apr_pool_t *p)
{
    char *out = apr_palloc(p, cap);
    size_t n = cap;

    assert_int_equal(BrotliDecoderDecompress(len, (const uint8_t *)src, &n,
                                             (uint8_t *)out),
                     BROTLI_DECODER_RESULT_SUCCESS);
    *out_len = n;
    return out;
}

static void compressed_forms_round_trip_at_each_level(void **state)
{
    apr_pool_t *p = *state;
    apr_size_t len, n, back;
    char *text = sample_text(p, &len);
    int level;

    for (level = PROFILE_ENC_LEVEL_BEST; level <= PROFILE_ENC_LEVEL_FAST;
         level++) {
        char *gz = profile_enc_compress(&n, PROFILE_ENC_GZIP, level, text,
                                        len);
        char *out;

        assert_non_null(gz);
        assert_true(n < len / 4);
        /* RFC 1952 header: magic, deflate, no flags, no time. */
        assert_int_equal((unsigned char)gz[0], 0x1f);
        assert_int_equal((unsigned char)gz[1], 0x8b);
        assert_int_equal(gz[3], 0);
        assert_int_equal(gz[4] | gz[5] | gz[6] | gz[7], 0);
        out = gunzip(&back, gz, n, len + 1, p);
        assert_int_equal(back, len);
        assert_memory_equal(out, text, len);
        free(gz);

        gz = profile_enc_compress(&n, PROFILE_ENC_BR, level, text, len);
        assert_non_null(gz);
        assert_true(n < len / 4);
        out = unbrotli(&back, gz, n, len + 1, p);
        assert_int_equal(back, len);
        assert_memory_equal(out, text, len);
        free(gz);
    }
}

static void compressed_forms_are_deterministic(void **state)
{
    apr_pool_t *p = *state;
    apr_size_t len, n1, n2;
    char *text = sample_text(p, &len);
    int enc;

    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        char *a = profile_enc_compress(&n1, (profile_enc_e)enc,
                                       PROFILE_ENC_LEVEL_BEST, text, len);
        char *b = profile_enc_compress(&n2, (profile_enc_e)enc,
                                       PROFILE_ENC_LEVEL_BEST, text, len);

        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        free(a);
        free(b);
    }
}

static void incompressible_or_empty_input_is_not_kept(void **state)
{
    apr_size_t n = 99;
    int enc;

    (void)state;
    for (enc = PROFILE_ENC_GZIP; enc < PROFILE_ENC_COUNT; enc++) {
        /* Too short to shrink: the header alone outweighs it. */
        assert_null(profile_enc_compress(&n, (profile_enc_e)enc,
                                         PROFILE_ENC_LEVEL_BEST, "[]", 2));
        assert_int_equal(n, 0);
        n = 99;
        assert_null(profile_enc_compress(&n, (profile_enc_e)enc,
                                         PROFILE_ENC_LEVEL_BEST, "", 0));
        assert_int_equal(n, 0);
    }
    n = 99;
    assert_null(profile_enc_compress(&n, PROFILE_ENC_IDENTITY,
                                     PROFILE_ENC_LEVEL_BEST, "abcabcabc", 9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(choose_follows_rfc_9110),
        cmocka_unit_test_setup_teardown(choose_survives_huge_fields,
                                        unit_setup, unit_teardown),
        cmocka_unit_test_setup_teardown(
            compressed_forms_round_trip_at_each_level, unit_setup,
            unit_teardown),
        cmocka_unit_test_setup_teardown(compressed_forms_are_deterministic,
                                        unit_setup, unit_teardown),
        cmocka_unit_test(incompressible_or_empty_input_is_not_kept),
    };

    return cmocka_run_group_tests(tests, unit_group_setup,
                                  unit_group_teardown);
}
