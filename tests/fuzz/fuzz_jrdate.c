/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_jrdate.c -- the dates of profilectl's JSON Resume commands
 * (profilectl/common/dates.c): pc_jr_read_date() on any text, as
 * import-jsonresume reads a startDate or endDate, then the period written
 * from it and read back, as export-jsonresume does.
 *
 * Input: 1 byte (bit 0: an end date; bit 1: Spanish, else English; bits
 * 2-3: an order of day and month for pc_jr_read_date_in), then the
 * date's text.  Invariants: the result is one of the documented codes; a
 * date read is "" or a calendar date YYYY[-MM[-DD]] that reads as
 * itself; "" only for an empty text or an end; the period written from a
 * date in en or es reads back to it; a start never reads as now; an
 * order changes only what is ambiguous, which it reads when it names one
 * order (unless the year is none), and the order told is one order or none.
 */
#include <apr_lib.h>

#define FUZZ_NAME jrdate
#include "fuzz.h"
#include "common/common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

static const char *const langs[] = {"en", "es", "de", "fr", "pt", "nl",
                                    "en", "es"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *p;
    const char *text, *iso, *again, *period, *start, *end;
    const char *lang;
    int is_end, rv, rv2, blank = 1, order, told;
    size_t i;

    if (size < 1) {
        return 0;
    }
    is_end = data[0] & 1;
    /* Bit 1 and bits 4-5: the period's language (each locale of
     * common/period.c, and one without). */
    lang = langs[((data[0] >> 1) & 1) | (((data[0] >> 4) & 3) << 1)];
    order = (data[0] >> 2) & 3;
    apr_pool_create(&p, fuzz_root);
    text = fuzz_cstr(data + 1, size - 1, p);
    for (i = 0; text[i]; i++) {
        blank = blank && apr_isspace(text[i]);
    }
    rv = pc_jr_read_date(&iso, text, is_end, p);
    FUZZ_CHECK(rv >= -3
               && rv <= (JR_DATE_MONTH | JR_DATE_REMARK | JR_DATE_SINCE),
               "\"%s\": %d", text, rv);
    FUZZ_CHECK(iso != NULL, "\"%s\": NULL", text);
    FUZZ_CHECK(rv >= 0 || *iso == '\0', "\"%s\": %d with \"%s\"", text, rv,
               iso);
    FUZZ_CHECK(rv != -3 || !is_end, "\"%s\": now refused as an end", text);
    rv2 = pc_jr_read_date_in(&again, text, is_end,
                             order | JR_ORDER_AFTER_YEAR(order), &told, p);
    FUZZ_CHECK(told == 0 || told == JR_ORDER_DAY || told == JR_ORDER_MONTH
               || told == JR_ORDER_AFTER_YEAR(JR_ORDER_DAY)
               || told == JR_ORDER_AFTER_YEAR(JR_ORDER_MONTH),
               "\"%s\": told %d", text, told);
    if (rv != -2) {
        FUZZ_CHECK(rv2 == rv && strcmp(again, iso) == 0,
                   "\"%s\": %d \"%s\" in order %d, %d \"%s\" without",
                   text, rv2, again, order, rv, iso);
    }
    else if (order == JR_ORDER_DAY || order == JR_ORDER_MONTH) {
        /* -1: the year is none (02-06-4050). */
        FUZZ_CHECK(rv2 == -1 || ((rv2 & ~(JR_DATE_REMARK | JR_DATE_SINCE))
                                 == JR_DATE_ORDER && pc_jr_is_date(again)),
                   "\"%s\": %d \"%s\" in order %d", text, rv2, again,
                   order);
    }
    else {
        FUZZ_CHECK(rv2 == -2, "\"%s\": %d in order %d", text, rv2, order);
    }
    if (rv >= 0 && *iso == '\0') {
        FUZZ_CHECK(is_end || blank, "\"%s\": no date for a start", text);
    }
    if (rv >= 0 && *iso) {
        FUZZ_CHECK(pc_jr_is_date(iso), "\"%s\" gave \"%s\"", text, iso);
        rv2 = pc_jr_read_date(&again, iso, is_end, p);
        FUZZ_CHECK(rv2 == 0 && strcmp(again, iso) == 0,
                   "\"%s\" reads as \"%s\" (%d)", iso, again, rv2);
        period = pc_jr_format_period(iso, is_end ? iso : "", lang, p);
        FUZZ_CHECK(pc_jr_parse_period(&start, &end, period, p) == 0,
                   "%s period \"%s\" of %s does not read back", lang,
                   period, iso);
        FUZZ_CHECK(strcmp(start, iso) == 0
                   && strcmp(end, is_end ? iso : "") == 0,
                   "%s period \"%s\" of %s reads as %s, %s", lang, period,
                   iso, start, end);
    }
    apr_pool_destroy(p);
    return 0;
}
