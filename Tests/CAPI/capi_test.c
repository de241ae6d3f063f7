// End-to-end test of libsmskit's C API (Sources/CSMSKit/include/smskit.h), built and run by
// .ci/capi.sh with the system C compiler, and again under AddressSanitizer and ThreadSanitizer.
//
//   capi_test [THREADS]     exit status 0 when every check passed; failures are printed.
//
// Covers: versions, single and batch checks (three input layouts) against each other, the four
// formats, segments, rendering, every status name, the documented contract for NULL pointers,
// lengths, invalid UTF-8, NUL bytes, over-long inputs and too-small buffers (with canaries
// behind each buffer), and THREADS threads sharing one engine.
#include "smskit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define EXPECT(cond)                                                                    \
    do {                                                                                \
        checks++;                                                                       \
        if (!(cond)) {                                                                  \
            failures++;                                                                 \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                               \
    } while (0)

#define EXPECT_STR(actual, expected)                                                    \
    do {                                                                                \
        checks++;                                                                       \
        const char *a_ = (actual), *e_ = (expected);                                    \
        if (a_ == NULL || strcmp(a_, e_) != 0) {                                        \
            failures++;                                                                 \
            fprintf(stderr, "%s:%d: FAILED: %s is \"%s\", expected \"%s\"\n", __FILE__, \
                    __LINE__, #actual, a_ ? a_ : "(null)", e_);                         \
        }                                                                               \
    } while (0)

// ---- Table of numbers: input, region, expected error, e164, type, region, fictional --------

typedef struct {
    const char *input;
    const char *region;
    int32_t error;
    const char *e164;
    const char *type;
    const char *number_region;
    const char *fictional;
} number_case;

static const number_case cases[] = {
    {"+16502530000", NULL, SMSKIT_OK, "+16502530000", "fixed_line_or_mobile", "US", ""},
    {"(650) 253-0000", "US", SMSKIT_OK, "+16502530000", "fixed_line_or_mobile", "US", ""},
    {"(650) 253-0000", "us", SMSKIT_OK, "+16502530000", "fixed_line_or_mobile", "US", ""},
    {"(650) 253-0000", NULL, SMSKIT_ERR_INVALID_COUNTRY_CODE, "", "unknown", "", ""},
    {"(650) 253-0000", "ZZ", SMSKIT_ERR_INVALID_COUNTRY_CODE, "", "unknown", "", ""},
    {"(650) 253-0000", "", SMSKIT_ERR_INVALID_COUNTRY_CODE, "", "unknown", "", ""},
    {"+44 7400 123456", NULL, SMSKIT_OK, "+447400123456", "mobile", "GB", ""},
    {"020 7946 0123", "GB", SMSKIT_OK, "+442079460123", "fixed_line", "GB", "reserved-for-fiction"},
    {"202-555-0147", "US", SMSKIT_OK, "+12025550147", "fixed_line_or_mobile", "US", "reserved-for-fiction"},
    {"212-555-1234", "US", SMSKIT_OK, "+12125551234", "fixed_line_or_mobile", "US", "nanp-555-convention"},
    {"+800 1234 5678", NULL, SMSKIT_OK, "+80012345678", "toll_free", "001", ""},
    {"hello", "US", SMSKIT_ERR_NOT_A_NUMBER, "", "unknown", "", ""},
    {"", "US", SMSKIT_ERR_NOT_A_NUMBER, "", "unknown", "", ""},
    {"+1", NULL, SMSKIT_ERR_NOT_A_NUMBER, "", "unknown", "", ""},
    {"12345678901234567890123", "DE", SMSKIT_ERR_TOO_LONG, "", "unknown", "", ""},
    {"(650) 253-0000", "USA", SMSKIT_ERR_INVALID_REGION, "", "unknown", "", ""},
    {"\xff\xfe 650 253 0000", "US", SMSKIT_ERR_INVALID_UTF8, "", "unknown", "", ""},
    {"\xc3\x28", "US", SMSKIT_ERR_INVALID_UTF8, "", "unknown", "", ""},
    {"\xef\xbc\x8b\xef\xbc\x91 650 253 0000", NULL, SMSKIT_OK, "+16502530000", "fixed_line_or_mobile", "US", ""},
};
enum { case_count = sizeof cases / sizeof cases[0] };

static void expect_case(const smskit_check_result *r, const number_case *c, const char *how) {
    checks++;
    const char *type = smskit_type_name(r->type);
    const char *fictional = smskit_fictional_name(r->fictional);
    if (r->error != c->error || strcmp(r->e164, c->e164) != 0 || strcmp(type ? type : "?", c->type) != 0 ||
        strcmp(r->region, c->number_region) != 0 || strcmp(fictional ? fictional : "?", c->fictional) != 0 ||
        r->e164_length != strlen(c->e164) || r->valid != (c->error == SMSKIT_OK && strcmp(c->type, "unknown") != 0) ||
        (c->error != SMSKIT_OK && (r->possibility != SMSKIT_POSSIBILITY_NONE || r->country_code != 0))) {
        failures++;
        fprintf(stderr, "FAILED (%s) '%s' region %s: got error %s e164 '%s' type %s region '%s' fictional '%s' valid %d\n",
                how, c->input, c->region ? c->region : "NULL", smskit_status_name(r->error), r->e164, type, r->region,
                fictional, r->valid);
    }
}

static void test_versions(void) {
    EXPECT(smskit_api_version() == SMSKIT_API_VERSION);
    EXPECT_STR(smskit_metadata_version(), smskit_metadata_version());
    EXPECT(strlen(smskit_metadata_version()) >= 5);  // "9.0.43"
    EXPECT(strchr(smskit_version(), '.') != NULL);
    EXPECT(sizeof(smskit_check_result) == 44);
}

static void test_status_names(void) {
    EXPECT_STR(smskit_status_name(SMSKIT_OK), "ok");
    EXPECT_STR(smskit_status_name(SMSKIT_ERR_TOO_SHORT_NSN), "too_short_nsn");
    EXPECT_STR(smskit_status_name(SMSKIT_ERR_INVALID_UTF8), "invalid_utf8");
    EXPECT_STR(smskit_status_name(SMSKIT_ERR_INPUT_TOO_LONG), "line_too_long");
    EXPECT_STR(smskit_status_name(-5), "unknown_error");
    EXPECT_STR(smskit_status_name(1000), "unknown_error");
    for (int32_t code = 0; code < 40; code++) {
        EXPECT(smskit_status_name(code) != NULL);
        EXPECT(smskit_status_message(code) != NULL && smskit_status_message(code)[0] != '\0');
    }
    EXPECT_STR(smskit_type_name(SMSKIT_TYPE_VOICEMAIL), "voicemail");
    EXPECT(smskit_type_name(12) == NULL && smskit_type_name(-1) == NULL);
    EXPECT_STR(smskit_possibility_name(SMSKIT_POSSIBILITY_TOO_LONG), "too_long");
    EXPECT(smskit_possibility_name(7) == NULL);
    EXPECT_STR(smskit_fictional_name(SMSKIT_FICTIONAL_REPORTED), "reported");
    EXPECT(smskit_fictional_name(4) == NULL);
}

static void test_single(const smskit_engine *engine) {
    for (int i = 0; i < case_count; i++) {
        smskit_check_result r;
        memset(&r, 0xAB, sizeof r);
        int32_t status = smskit_check(engine, cases[i].input, strlen(cases[i].input), cases[i].region, &r);
        EXPECT(status == r.error);
        expect_case(&r, &cases[i], "single");
    }
    // Valid numbers have the other fields too.
    smskit_check_result r;
    EXPECT(smskit_check(engine, "+44 7400 123456", 15, NULL, &r) == SMSKIT_OK);
    EXPECT(r.country_code == 44 && r.possibility == SMSKIT_POSSIBILITY_IS_POSSIBLE && r.valid == 1);
    EXPECT(r.reserved[0] == 0 && r.reserved[1] == 0 && r.reserved[2] == 0);
    // A length shorter than the string: only those bytes are read.
    EXPECT(smskit_check(engine, "+16502530000999", 12, NULL, &r) == SMSKIT_OK);
    EXPECT_STR(r.e164, "+16502530000");
    // A NUL byte inside the given length: not a number (as smskit validate).
    EXPECT(smskit_check(engine, "+1650\0" "2530000", 13, NULL, &r) == SMSKIT_ERR_NOT_A_NUMBER);
}

static void test_null_and_lengths(const smskit_engine *engine) {
    smskit_check_result r;
    EXPECT(smskit_check(NULL, "+16502530000", 12, NULL, &r) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_check(engine, "+16502530000", 12, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_check(engine, NULL, 0, NULL, &r) == SMSKIT_ERR_NOT_A_NUMBER);  // empty input
    EXPECT(smskit_check(engine, NULL, 12, NULL, &r) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(r.error == SMSKIT_ERR_NULL_ARGUMENT && r.e164[0] == '\0');

    // Over-long input: refused by length, as smskit validate's line_too_long.
    size_t huge = SMSKIT_MAX_NUMBER_BYTES + 1;
    char *big = malloc(huge);
    memset(big, '1', huge);
    EXPECT(smskit_check(engine, big, huge, "US", &r) == SMSKIT_ERR_INPUT_TOO_LONG);
    // At the limit: read, and refused by the engine.
    EXPECT(smskit_check(engine, big, huge - 1, "US", &r) == SMSKIT_ERR_TOO_LONG);
    free(big);

    // Batch calls: NULL arrays only with count 0; a bad shared region writes nothing.
    EXPECT(smskit_check_batch(engine, NULL, NULL, 0, NULL, NULL, NULL) == SMSKIT_OK);
    EXPECT(smskit_check_batch(NULL, NULL, NULL, 0, NULL, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_check_batch(engine, NULL, NULL, 1, NULL, NULL, &r) == SMSKIT_ERR_NULL_ARGUMENT);
    const char *one[] = {"+16502530000"};
    size_t one_length[] = {12};
    EXPECT(smskit_check_batch(engine, one, one_length, 1, NULL, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    memset(&r, 0x5A, sizeof r);
    EXPECT(smskit_check_batch(engine, one, one_length, 1, NULL, "not a region", &r) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(((unsigned char *)&r)[0] == 0x5A);
    EXPECT(smskit_check_batch(NULL, one, one_length, 1, NULL, NULL, &r) == SMSKIT_ERR_NULL_ARGUMENT);

    // Packed: offsets that lie are refused before anything is written.
    const char data[] = "+16502530000+442079460123";
    int64_t bad_offsets[][3] = {{0, 12, 26}, {0, 13, 12}, {-1, 12, 25}, {0, 30, 25}};
    smskit_check_result two[2];
    for (size_t k = 0; k < 4; k++) {
        memset(two, 0x5A, sizeof two);
        EXPECT(smskit_check_packed(engine, data, 25, bad_offsets[k], 2, NULL, NULL, two) == SMSKIT_ERR_INVALID_ARGUMENT);
        EXPECT(((unsigned char *)two)[0] == 0x5A);
    }
    EXPECT(smskit_check_packed(engine, NULL, 25, bad_offsets[0], 2, NULL, NULL, two) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_check_packed(engine, data, 25, NULL, 2, NULL, NULL, two) == SMSKIT_ERR_NULL_ARGUMENT);
    int64_t empty_offsets[] = {0, 0};
    EXPECT(smskit_check_packed(engine, NULL, 0, empty_offsets, 1, NULL, NULL, two) == SMSKIT_OK);
    EXPECT(two[0].error == SMSKIT_ERR_NOT_A_NUMBER);

    // Split: the count must match the separators.
    EXPECT(smskit_check_split(engine, "a\nb\nc", 5, '\n', 2, NULL, NULL, two) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_check_split(engine, "", 0, '\n', 1, NULL, NULL, two) == SMSKIT_OK);
    EXPECT(two[0].error == SMSKIT_ERR_NOT_A_NUMBER);
    EXPECT(smskit_check_split(engine, "\n", 1, '\n', 2, NULL, NULL, two) == SMSKIT_OK);
    EXPECT(two[0].error == SMSKIT_ERR_NOT_A_NUMBER && two[1].error == SMSKIT_ERR_NOT_A_NUMBER);
}

/// The three batch layouts give exactly the single-call results.
static void test_batches(const smskit_engine *engine) {
    const char *inputs[case_count];
    size_t lengths[case_count];
    const char *regions[case_count];
    int64_t offsets[case_count + 1];
    char packed[4096];
    char joined[4096];
    size_t used = 0, joined_used = 0;
    offsets[0] = 0;
    for (int i = 0; i < case_count; i++) {
        inputs[i] = cases[i].input;
        lengths[i] = strlen(cases[i].input);
        regions[i] = cases[i].region;
        memcpy(packed + used, inputs[i], lengths[i]);
        used += lengths[i];
        offsets[i + 1] = (int64_t)used;
        memcpy(joined + joined_used, inputs[i], lengths[i]);
        joined_used += lengths[i];
        if (i + 1 < case_count) joined[joined_used++] = '\n';
    }
    smskit_check_result batch[case_count], by_offsets[case_count], by_split[case_count];
    EXPECT(smskit_check_batch(engine, inputs, lengths, case_count, regions, NULL, batch) == SMSKIT_OK);
    EXPECT(smskit_check_packed(engine, packed, used, offsets, case_count, regions, NULL, by_offsets) == SMSKIT_OK);
    EXPECT(smskit_check_split(engine, joined, joined_used, '\n', case_count, regions, NULL, by_split) == SMSKIT_OK);
    for (int i = 0; i < case_count; i++) {
        expect_case(&batch[i], &cases[i], "batch");
        expect_case(&by_offsets[i], &cases[i], "packed");
        expect_case(&by_split[i], &cases[i], "split");
    }
    EXPECT(memcmp(batch, by_offsets, sizeof batch) == 0);
    EXPECT(memcmp(batch, by_split, sizeof batch) == 0);

    // A shared default region applies where the per-input region is NULL.
    const char *national[] = {"(650) 253-0000", "020 7946 0123"};
    size_t national_lengths[] = {14, 13};
    const char *mixed_regions[] = {NULL, "GB"};
    smskit_check_result two[2];
    EXPECT(smskit_check_batch(engine, national, national_lengths, 2, mixed_regions, "US", two) == SMSKIT_OK);
    EXPECT_STR(two[0].e164, "+16502530000");
    EXPECT_STR(two[1].e164, "+442079460123");

    // Whole columns at once.
    size_t length = 0;
    char column[512];
    EXPECT(smskit_join_field(batch, 3, SMSKIT_FIELD_E164, '\n', column, sizeof column, &length) == SMSKIT_OK);
    EXPECT_STR(column, "+16502530000\n+16502530000\n+16502530000\n");
    EXPECT(length == 39);
    EXPECT(smskit_join_field(batch, 4, SMSKIT_FIELD_REGION, ',', column, sizeof column, &length) == SMSKIT_OK);
    EXPECT_STR(column, "US,US,US,,");
    EXPECT(smskit_join_field(batch, 3, SMSKIT_FIELD_E164, '\n', column, 39, &length) == SMSKIT_ERR_BUFFER_TOO_SMALL);
    EXPECT(length == 40 && column[0] == '\0');
    EXPECT(smskit_join_field(batch, 3, SMSKIT_FIELD_E164, '\n', NULL, 0, &length) == SMSKIT_ERR_BUFFER_TOO_SMALL);
    EXPECT(smskit_join_field(batch, 3, 7, '\n', column, sizeof column, &length) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_join_field(NULL, 3, SMSKIT_FIELD_E164, '\n', column, sizeof column, &length) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_join_field(NULL, 0, SMSKIT_FIELD_E164, '\n', column, sizeof column, &length) == SMSKIT_OK);
    EXPECT(length == 0 && column[0] == '\0');
}

/// A heap buffer of exactly `capacity` bytes followed by canaries (and ASan's redzone).
static char *guarded(size_t capacity) {
    char *buffer = malloc(capacity + 8);
    memset(buffer, 'X', capacity + 8);
    return buffer;
}

static int canaries_intact(const char *buffer, size_t capacity) {
    for (size_t k = capacity; k < capacity + 8; k++) {
        if (buffer[k] != 'X') return 0;
    }
    return 1;
}

static void test_format(const smskit_engine *engine) {
    static const struct {
        int32_t format;
        const char *text;
    } expected[] = {
        {SMSKIT_FORMAT_E164, "+16502530000"},
        {SMSKIT_FORMAT_INTERNATIONAL, "+1 650-253-0000"},
        {SMSKIT_FORMAT_NATIONAL, "(650) 253-0000"},
        {SMSKIT_FORMAT_RFC3966, "tel:+1-650-253-0000"},
    };
    const char *input = "650.253.0000";
    for (size_t k = 0; k < 4; k++) {
        size_t length = 99;
        char out[64];
        EXPECT(smskit_format(engine, input, strlen(input), "US", expected[k].format, out, sizeof out, &length) == SMSKIT_OK);
        EXPECT_STR(out, expected[k].text);
        EXPECT(length == strlen(expected[k].text));

        // Size query, then every too-small capacity, then the exact one: never a byte past it.
        EXPECT(smskit_format(engine, input, strlen(input), "US", expected[k].format, NULL, 0, &length) ==
               SMSKIT_ERR_BUFFER_TOO_SMALL);
        size_t needed = length;
        EXPECT(needed == strlen(expected[k].text) + 1);
        for (size_t capacity = 1; capacity <= needed; capacity++) {
            char *buffer = guarded(capacity);
            int32_t status = smskit_format(engine, input, strlen(input), "US", expected[k].format, buffer, capacity, &length);
            if (capacity < needed) {
                EXPECT(status == SMSKIT_ERR_BUFFER_TOO_SMALL && length == needed && buffer[0] == '\0');
            } else {
                EXPECT(status == SMSKIT_OK && strcmp(buffer, expected[k].text) == 0);
            }
            EXPECT(canaries_intact(buffer, capacity));
            free(buffer);
        }
    }
    char out[64];
    size_t length;
    EXPECT(smskit_format(engine, input, strlen(input), "US", 4, out, sizeof out, &length) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_format(engine, input, strlen(input), "US", -1, out, sizeof out, NULL) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_format(engine, input, strlen(input), NULL, 0, out, sizeof out, NULL) == SMSKIT_ERR_INVALID_COUNTRY_CODE);
    EXPECT(out[0] == '\0');
    EXPECT(smskit_format(engine, "\xff", 1, "US", 0, out, sizeof out, NULL) == SMSKIT_ERR_INVALID_UTF8);
    EXPECT(smskit_format(engine, input, strlen(input), "US", 0, NULL, 10, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_format(NULL, input, strlen(input), "US", 0, out, sizeof out, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_format(engine, NULL, 5, "US", 0, out, sizeof out, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
}

static void test_segments(const smskit_engine *engine) {
    smskit_segments_result s;
    EXPECT(smskit_segments(engine, "hello", 5, &s) == SMSKIT_OK);
    EXPECT(s.encoding == SMSKIT_ENCODING_GSM7 && s.segments == 1 && s.units == 5 && s.remaining == 155);
    const char *russian = "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82";  // Привет
    EXPECT(smskit_segments(engine, russian, strlen(russian), &s) == SMSKIT_OK);
    EXPECT(s.encoding == SMSKIT_ENCODING_UCS2 && s.segments == 1 && s.units == 6 && s.remaining == 64);
    char long_text[161];
    memset(long_text, 'a', sizeof long_text);
    EXPECT(smskit_segments(engine, long_text, 160, &s) == SMSKIT_OK && s.segments == 1);
    EXPECT(smskit_segments(engine, long_text, 161, &s) == SMSKIT_OK && s.segments == 2 && s.units == 161);
    EXPECT(smskit_segments(engine, "{}", 2, &s) == SMSKIT_OK && s.units == 4);  // escaped: two septets each
    EXPECT(smskit_segments(engine, NULL, 0, &s) == SMSKIT_OK && s.units == 0);
    EXPECT(smskit_segments(engine, "\xc3\x28", 2, &s) == SMSKIT_ERR_INVALID_UTF8);
    EXPECT(smskit_segments(engine, NULL, 3, &s) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_segments(engine, "hi", 2, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_segments(NULL, "hi", 2, &s) == SMSKIT_ERR_NULL_ARGUMENT);
    size_t huge = SMSKIT_MAX_TEXT_BYTES + 1;
    char *big = malloc(huge);
    memset(big, 'a', huge);
    EXPECT(smskit_segments(engine, big, huge, &s) == SMSKIT_ERR_INPUT_TOO_LONG);
    EXPECT(smskit_segments(engine, big, 40000, &s) == SMSKIT_OK && s.segments == 262 && s.exceeds_limit == 1);
    free(big);
}

static void test_render(const smskit_engine *engine) {
    char out[512];
    size_t length = 0;
    int32_t segments = 0;
    EXPECT(smskit_render(engine, "en", "123456", "Acme", -1, NULL, out, sizeof out, &length, &segments) == SMSKIT_OK);
    EXPECT(strstr(out, "123456") != NULL && strstr(out, "Acme") != NULL);
    EXPECT(length == strlen(out) && segments == 1);
    // With minutes: the expiry message mentions them.
    EXPECT(smskit_render(engine, "de", "042917", "Acme", 10, NULL, out, sizeof out, &length, NULL) == SMSKIT_OK);
    EXPECT(strstr(out, "042917") != NULL && strstr(out, "10") != NULL);
    EXPECT(smskit_render(engine, "pt_BR", "042917", "Acme", -1, "login_code", out, sizeof out, &length, NULL) == SMSKIT_OK);
    EXPECT(strstr(out, "042917") != NULL);
    // Unknown languages fall back (as smskit render), they are not errors.
    EXPECT(smskit_render(engine, "xx-YY", "1", "Acme", -1, NULL, out, sizeof out, &length, NULL) == SMSKIT_OK);

    // Too small: every capacity up to the exact one, canaries intact.
    EXPECT(smskit_render(engine, "hi", "123456", "Acme", -1, NULL, NULL, 0, &length, NULL) == SMSKIT_ERR_BUFFER_TOO_SMALL);
    size_t needed = length;
    EXPECT(needed > 10);
    for (size_t capacity = 1; capacity <= needed; capacity++) {
        char *buffer = guarded(capacity);
        int32_t status = smskit_render(engine, "hi", "123456", "Acme", -1, NULL, buffer, capacity, &length, NULL);
        EXPECT(capacity < needed ? (status == SMSKIT_ERR_BUFFER_TOO_SMALL && buffer[0] == '\0' && length == needed)
                                 : (status == SMSKIT_OK && strlen(buffer) == needed - 1));
        EXPECT(canaries_intact(buffer, capacity));
        free(buffer);
    }

    EXPECT(smskit_render(engine, "en", "12 34", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_CODE);
    EXPECT(smskit_render(engine, "en", "", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_CODE);
    EXPECT(smskit_render(engine, "en", "1234", "Acme", -1, "no_such_message", out, sizeof out, NULL, NULL) ==
           SMSKIT_ERR_UNKNOWN_MESSAGE);
    EXPECT(smskit_render(engine, "en", "1234", "Acme", -1, "verification_code_expiry", out, sizeof out, NULL, NULL) ==
           SMSKIT_ERR_MISSING_ARGUMENT);
    char long_name[100];
    memset(long_name, 'A', 99);
    long_name[99] = '\0';
    EXPECT(smskit_render(engine, "en", "1234", long_name, -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_ARGUMENT_TOO_LONG);
    EXPECT(smskit_render(engine, "en", "1234", "Ac\xffme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_UTF8);
    EXPECT(smskit_render(engine, "\xff", "1234", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_UTF8);
    EXPECT(smskit_render(engine, NULL, "1234", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_render(engine, "en", NULL, "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_render(engine, "en", "1234", NULL, -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_render(NULL, "en", "1234", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_render(engine, "en", "1234", "Acme", -2, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_render(engine, "en", "1234", "Acme", 100001, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INVALID_ARGUMENT);
    EXPECT(smskit_render(engine, "en", "1234", "Acme", -1, NULL, NULL, 5, NULL, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    // A C string argument longer than 4096 bytes is refused without reading past 4097.
    char *huge = malloc(10000);
    memset(huge, 'e', 9999);
    huge[9999] = '\0';
    EXPECT(smskit_render(engine, huge, "1234", "Acme", -1, NULL, out, sizeof out, NULL, NULL) == SMSKIT_ERR_INPUT_TOO_LONG);
    free(huge);
}

// ---- Threads: one engine, many threads, every answer compared with the single-thread one ----

typedef struct {
    const smskit_engine *engine;
    const smskit_check_result *expected;
    char expected_render[512];
    int failures;
} thread_work;

// ---- Short numbers and matching ---------------------------------------------------------------

static void test_short_numbers(const smskit_engine *engine) {
    smskit_short_number_result s;
    // Oracle (phonenumbers 9.0.43 shortnumberinfo): 112 in DE is a valid, toll-free emergency number.
    EXPECT(smskit_short_number(engine, "112", 3, "DE", &s) == SMSKIT_OK);
    EXPECT(s.error == SMSKIT_OK && s.possible == 1 && s.valid == 1 && s.cost == SMSKIT_COST_TOLL_FREE);
    EXPECT(s.emergency == 1 && s.connects_to_emergency == 1 && s.carrier_specific == 0 && s.sms_service == 0);
    EXPECT(smskit_short_number(engine, "911", 3, "us", &s) == SMSKIT_OK && s.valid == 1 && s.emergency == 1);
    // 24280 in US: a premium-rate SMS service; 33669 in FR: an SMS service of unknown cost.
    EXPECT(smskit_short_number(engine, "24280", 5, "US", &s) == SMSKIT_OK);
    EXPECT(s.valid == 1 && s.cost == SMSKIT_COST_PREMIUM_RATE && s.emergency == 0 && s.sms_service == 1);
    EXPECT(smskit_short_number(engine, "33669", 5, "FR", &s) == SMSKIT_OK);
    EXPECT(s.valid == 1 && s.cost == SMSKIT_COST_UNKNOWN && s.sms_service == 1);
    // 1120 in BR: possible, not valid, unknown cost.
    EXPECT(smskit_short_number(engine, "1120", 4, "BR", &s) == SMSKIT_OK);
    EXPECT(s.possible == 1 && s.valid == 0 && s.cost == SMSKIT_COST_UNKNOWN && s.emergency == 0);
    // "+1 911" is the short number 911 of +1, but not an emergency number as dialled.
    EXPECT(smskit_short_number(engine, "+1 911", 6, "US", &s) == SMSKIT_OK && s.valid == 1 && s.emergency == 0);
    // Not a number: a per-call error, every fact 0.
    EXPECT(smskit_short_number(engine, "abc", 3, "US", &s) == SMSKIT_OK && s.error == SMSKIT_ERR_NOT_A_NUMBER);
    EXPECT(s.possible == 0 && s.valid == 0 && s.emergency == 0);
    EXPECT(smskit_short_number(engine, "11\0002", 4, "DE", &s) == SMSKIT_OK && s.error == SMSKIT_ERR_NOT_A_NUMBER);
    // Call errors: a region is required; NULLs, bad UTF-8, too long.
    EXPECT(smskit_short_number(engine, "112", 3, NULL, &s) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(smskit_short_number(engine, "112", 3, "", &s) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(smskit_short_number(engine, "112", 3, "ZZ", &s) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(smskit_short_number(engine, "112", 3, "001", &s) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(smskit_short_number(engine, "112", 3, "Germany", &s) == SMSKIT_ERR_INVALID_REGION);
    EXPECT(s.valid == 0 && s.emergency == 0);
    EXPECT(smskit_short_number(engine, "112", 3, "DE", NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_short_number(NULL, "112", 3, "DE", &s) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_short_number(engine, NULL, 3, "DE", &s) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_short_number(engine, "\xff\xfe", 2, "DE", &s) == SMSKIT_ERR_INVALID_UTF8);
    static char big[SMSKIT_MAX_NUMBER_BYTES + 2];
    memset(big, '1', sizeof big);
    EXPECT(smskit_short_number(engine, big, sizeof big, "DE", &s) == SMSKIT_ERR_INPUT_TOO_LONG);
    EXPECT_STR(smskit_cost_name(SMSKIT_COST_PREMIUM_RATE), "premium_rate");
    EXPECT_STR(smskit_cost_name(SMSKIT_COST_UNKNOWN), "unknown_cost");
    EXPECT(smskit_cost_name(4) == NULL && smskit_cost_name(-1) == NULL);
}

static void test_match(const smskit_engine *engine) {
    // Oracle (phonenumbers 9.0.43 is_number_match) on each pair.
    static const struct { const char *a, *b; int32_t match; } pairs[] = {
        {"+1 650 253 0000", "650-253-0000", SMSKIT_MATCH_NSN_MATCH},
        {"+1 650 253 0000", "253 0000", SMSKIT_MATCH_SHORT_NSN_MATCH},
        {"+44 20 7031 3000", "020 7031 3000", SMSKIT_MATCH_NSN_MATCH},
        {"650 253 0000", "253 0000", SMSKIT_MATCH_SHORT_NSN_MATCH},
        {"+1 650 253 0000", "+44 650 253 0000", SMSKIT_MATCH_NO_MATCH},
        {"+16502530000", "+1 650-253-0000", SMSKIT_MATCH_EXACT_MATCH},
        {"+1 650 253 0000 ext 12", "+1 650 253 0000 ext 13", SMSKIT_MATCH_NO_MATCH},
        {"abc", "123", SMSKIT_MATCH_NOT_A_NUMBER},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int32_t m = -1;
        EXPECT(smskit_match(engine, pairs[i].a, strlen(pairs[i].a), pairs[i].b, strlen(pairs[i].b), &m) == SMSKIT_OK);
        if (m != pairs[i].match) fprintf(stderr, "smskit_match(%s, %s) = %d\n", pairs[i].a, pairs[i].b, m);
        EXPECT(m == pairs[i].match);
    }
    int32_t m = -1;
    EXPECT(smskit_match(engine, "+16502530000\0", 13, "+16502530000", 12, &m) == SMSKIT_OK && m == SMSKIT_MATCH_NOT_A_NUMBER);
    EXPECT(smskit_match(engine, NULL, 0, "+16502530000", 12, &m) == SMSKIT_OK && m == SMSKIT_MATCH_NOT_A_NUMBER);
    EXPECT(smskit_match(engine, NULL, 3, "+16502530000", 12, &m) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_match(engine, "+1", 2, "+1", 2, NULL) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_match(NULL, "+1", 2, "+1", 2, &m) == SMSKIT_ERR_NULL_ARGUMENT);
    EXPECT(smskit_match(engine, "\xc3", 1, "+1", 2, &m) == SMSKIT_ERR_INVALID_UTF8 && m == SMSKIT_MATCH_NOT_A_NUMBER);
    EXPECT_STR(smskit_match_name(SMSKIT_MATCH_SHORT_NSN_MATCH), "short_nsn_match");
    EXPECT(smskit_match_name(5) == NULL);
}

static void *thread_main(void *argument) {
    thread_work *work = argument;
    const char *inputs[case_count];
    size_t lengths[case_count];
    const char *regions[case_count];
    for (int i = 0; i < case_count; i++) {
        inputs[i] = cases[i].input;
        lengths[i] = strlen(cases[i].input);
        regions[i] = cases[i].region;
    }
    for (int round = 0; round < 200; round++) {
        smskit_check_result results[case_count];
        if (smskit_check_batch(work->engine, inputs, lengths, case_count, regions, NULL, results) != SMSKIT_OK ||
            memcmp(results, work->expected, sizeof results) != 0) {
            work->failures++;
        }
        char out[512];
        if (smskit_render(work->engine, "fr", "424242", "Acme", 5, NULL, out, sizeof out, NULL, NULL) != SMSKIT_OK ||
            strcmp(out, work->expected_render) != 0) {
            work->failures++;
        }
        size_t length;
        if (smskit_format(work->engine, "+442079460123", 13, NULL, SMSKIT_FORMAT_NATIONAL, out, sizeof out, &length) !=
                SMSKIT_OK ||
            strcmp(out, "020 7946 0123") != 0) {
            work->failures++;
        }
        smskit_segments_result s;
        if (smskit_segments(work->engine, out, length, &s) != SMSKIT_OK || s.units != 13) work->failures++;
        smskit_short_number_result sn;
        if (smskit_short_number(work->engine, "112", 3, "DE", &sn) != SMSKIT_OK || sn.emergency != 1 || sn.valid != 1) {
            work->failures++;
        }
        int32_t m;
        if (smskit_match(work->engine, "+44 20 7031 3000", 16, "020 7031 3000", 13, &m) != SMSKIT_OK ||
            m != SMSKIT_MATCH_NSN_MATCH) {
            work->failures++;
        }
    }
    return NULL;
}

static void test_threads(const smskit_engine *engine, int thread_count) {
    smskit_check_result expected[case_count];
    const char *inputs[case_count];
    size_t lengths[case_count];
    const char *regions[case_count];
    for (int i = 0; i < case_count; i++) {
        inputs[i] = cases[i].input;
        lengths[i] = strlen(cases[i].input);
        regions[i] = cases[i].region;
    }
    EXPECT(smskit_check_batch(engine, inputs, lengths, case_count, regions, NULL, expected) == SMSKIT_OK);
    char render[512];
    EXPECT(smskit_render(engine, "fr", "424242", "Acme", 5, NULL, render, sizeof render, NULL, NULL) == SMSKIT_OK);

    pthread_t *threads = calloc((size_t)thread_count, sizeof *threads);
    thread_work *work = calloc((size_t)thread_count, sizeof *work);
    for (int t = 0; t < thread_count; t++) {
        work[t].engine = engine;
        work[t].expected = expected;
        strcpy(work[t].expected_render, render);
        EXPECT(pthread_create(&threads[t], NULL, thread_main, &work[t]) == 0);
    }
    for (int t = 0; t < thread_count; t++) {
        pthread_join(threads[t], NULL);
        EXPECT(work[t].failures == 0);
    }
    free(threads);
    free(work);
}

int main(int argc, char **argv) {
    int thread_count = argc > 1 ? atoi(argv[1]) : 8;
    test_versions();
    test_status_names();
    smskit_engine *engine = smskit_engine_create();
    EXPECT(engine != NULL);
    if (engine == NULL) return 1;
    test_single(engine);
    test_null_and_lengths(engine);
    test_batches(engine);
    test_format(engine);
    test_segments(engine);
    test_render(engine);
    test_short_numbers(engine);
    test_match(engine);
    test_threads(engine, thread_count);
    // Engines are independent: a second one answers the same, freeing one leaves the other working.
    smskit_engine *second = smskit_engine_create();
    smskit_check_result a, b;
    smskit_check(engine, "+44 7400 123456", 15, NULL, &a);
    smskit_check(second, "+44 7400 123456", 15, NULL, &b);
    EXPECT(memcmp(&a, &b, sizeof a) == 0);
    smskit_engine_free(second);
    EXPECT(smskit_check(engine, "+44 7400 123456", 15, NULL, &b) == SMSKIT_OK && memcmp(&a, &b, sizeof a) == 0);
    smskit_engine_free(engine);
    smskit_engine_free(NULL);

    printf("capi_test: %d checks, %d failed (metadata %s, smskit %s, API %u, %d threads)\n", checks, failures,
           smskit_metadata_version(), smskit_version(), smskit_api_version(), thread_count);
    return failures == 0 ? 0 : 1;
}
