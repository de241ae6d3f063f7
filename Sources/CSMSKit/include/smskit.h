/*
 * smskit.h: the C API of libsmskit (SMSKit's phone numbers, SMS segments and OTP templates).
 *
 * Build the library with `swift build -c release --product smskit-c` (add --static-swift-stdlib
 * for a copy that needs no Swift toolchain at run time); it is `.build/release/libsmskit-c.so`
 * (SwiftPM names it after the product; the executable holds the name `smskit`). Compile with
 * `-I Sources/CSMSKit/include`, link with `-L .build/release -lsmskit-c`.
 *
 *   smskit_engine *engine = smskit_engine_create();
 *   smskit_check_result r;
 *   smskit_check(engine, "(650) 253-0000", 14, "US", &r);
 *   if (r.error == SMSKIT_OK && r.valid) printf("%s %s\n", r.e164, r.region);  // +16502530000 US
 *   smskit_engine_free(engine);
 *
 * CONTRACT, for every function:
 * - Text inputs are UTF-8 given as a pointer and a byte length; the bytes need no NUL
 *   terminator and may hold anything (invalid UTF-8 and NUL bytes give a per-call or per-record
 *   error, never undefined behaviour). A pointer may be NULL only when its length is 0 (an empty
 *   text). Lengths must not exceed the memory behind the pointer ("lengths that lie" beyond it are
 *   undefined behaviour, as for memcpy); lengths above the documented maximums are refused with
 *   SMSKIT_ERR_INPUT_TOO_LONG without reading the bytes.
 * - Small arguments documented as "C string" (regions, languages, codes) are NUL-terminated; NULL
 *   means "none" where that is documented, else SMSKIT_ERR_NULL_ARGUMENT.
 * - Output buffers: `capacity` bytes at `buffer`. On success the text and a NUL are written and
 *   `*length_out` (when not NULL) gets the text's length without the NUL. When the text and its
 *   NUL do not fit, nothing but a NUL at buffer[0] (if capacity > 0) is written, the function
 *   returns SMSKIT_ERR_BUFFER_TOO_SMALL and `*length_out` gets the capacity needed (the text's
 *   length plus one, for the NUL). `buffer` may be NULL when capacity is 0 (a size query).
 * - Functions return an int32_t status: SMSKIT_OK (0) or one of SMSKIT_ERR_*; smskit_status_name()
 *   and smskit_status_message() describe every code. Nothing else crosses the boundary: no Swift
 *   types, no exceptions, no longjmp, no allocation the caller must free (but the engine).
 * - An engine is immutable after creation: share one between any number of threads without
 *   locking. The library keeps no global mutable state; each engine is independent.
 */
#ifndef SMSKIT_H
#define SMSKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this API. Bumped on any incompatible change; compare with smskit_api_version(). */
#define SMSKIT_API_VERSION 1

/** SMSKit's version: what smskit_version() returns and `smskit --version` prints (its one home). */
#define SMSKIT_VERSION "0.1.0"

/** Room for E.164 text in a result: "+", at most 20 digits, a NUL. */
#define SMSKIT_E164_CAPACITY 24
/** Longest phone-number input, in bytes (as `smskit validate`'s longest record: 64 KiB). */
#define SMSKIT_MAX_NUMBER_BYTES 65536
/** Longest text for smskit_segments, in bytes (as `smskit segments`: 1 MiB). */
#define SMSKIT_MAX_TEXT_BYTES 1048576

/* ---- Status and per-record error codes ---------------------------------------------------- */

#define SMSKIT_OK 0
/* Call errors. */
#define SMSKIT_ERR_NULL_ARGUMENT 1      /* a required pointer was NULL (or NULL with a length > 0) */
#define SMSKIT_ERR_INVALID_ARGUMENT 2   /* an argument is out of range (format, count, minutes...) */
#define SMSKIT_ERR_BUFFER_TOO_SMALL 3   /* the output did not fit; *length_out says how much is needed */
#define SMSKIT_ERR_INVALID_UTF8 4       /* an input is not UTF-8 */
#define SMSKIT_ERR_INPUT_TOO_LONG 5     /* an input is longer than its documented maximum */
#define SMSKIT_ERR_INVALID_REGION 6     /* a default region is not "", "ZZ", "001" or an ISO 3166-1 code */
#define SMSKIT_ERR_INTERNAL 7           /* a bug in smskit; please report it */
/* Phone-number errors (libphonenumber's parse errors, and a NUL byte: not a number). */
#define SMSKIT_ERR_INVALID_COUNTRY_CODE 10
#define SMSKIT_ERR_NOT_A_NUMBER 11
#define SMSKIT_ERR_TOO_SHORT_AFTER_IDD 12
#define SMSKIT_ERR_TOO_SHORT_NSN 13
#define SMSKIT_ERR_TOO_LONG 14
/* Template errors (smskit_render). */
#define SMSKIT_ERR_INVALID_LOCALE 20    /* the language is not a BCP 47 tag */
#define SMSKIT_ERR_UNKNOWN_MESSAGE 21   /* no such message ID */
#define SMSKIT_ERR_MISSING_ARGUMENT 22  /* e.g. minutes for verification_code_expiry */
#define SMSKIT_ERR_INVALID_CODE 23      /* the code is not 1-16 ASCII letters, digits or hyphens */
#define SMSKIT_ERR_ARGUMENT_TOO_LONG 24 /* e.g. an app name over 64 characters */
#define SMSKIT_ERR_TEMPLATE_ARGUMENT 25 /* another argument the template refused */
#define SMSKIT_ERR_TEMPLATE 26          /* the template could not be rendered */

/** The code's name ("too_short_nsn", "invalid_utf8"...; `smskit validate`'s error names where it has
 *  them), or "unknown_error" for a code this version does not know. Static storage; never NULL. */
const char *smskit_status_name(int32_t code);
/** An English sentence for the code. Static storage; never NULL. */
const char *smskit_status_message(int32_t code);

/* ---- Enumerations (values are stable; names match `smskit validate`) ----------------------- */

/* possibility */
#define SMSKIT_POSSIBILITY_NONE 0               /* not parsed */
#define SMSKIT_POSSIBILITY_IS_POSSIBLE 1
#define SMSKIT_POSSIBILITY_IS_POSSIBLE_LOCAL_ONLY 2
#define SMSKIT_POSSIBILITY_INVALID_COUNTRY_CODE 3
#define SMSKIT_POSSIBILITY_TOO_SHORT 4
#define SMSKIT_POSSIBILITY_INVALID_LENGTH 5
#define SMSKIT_POSSIBILITY_TOO_LONG 6
/* type */
#define SMSKIT_TYPE_UNKNOWN 0                   /* not parsed, or no type matched */
#define SMSKIT_TYPE_FIXED_LINE 1
#define SMSKIT_TYPE_MOBILE 2
#define SMSKIT_TYPE_FIXED_LINE_OR_MOBILE 3
#define SMSKIT_TYPE_TOLL_FREE 4
#define SMSKIT_TYPE_PREMIUM_RATE 5
#define SMSKIT_TYPE_SHARED_COST 6
#define SMSKIT_TYPE_VOIP 7
#define SMSKIT_TYPE_PERSONAL_NUMBER 8
#define SMSKIT_TYPE_PAGER 9
#define SMSKIT_TYPE_UAN 10
#define SMSKIT_TYPE_VOICEMAIL 11
/* fictional kind */
#define SMSKIT_FICTIONAL_NONE 0
#define SMSKIT_FICTIONAL_RESERVED_FOR_FICTION 1
#define SMSKIT_FICTIONAL_NANP_555_CONVENTION 2
#define SMSKIT_FICTIONAL_REPORTED 3
/* format */
#define SMSKIT_FORMAT_E164 0
#define SMSKIT_FORMAT_INTERNATIONAL 1
#define SMSKIT_FORMAT_NATIONAL 2
#define SMSKIT_FORMAT_RFC3966 3
/* encoding */
#define SMSKIT_ENCODING_GSM7 1
#define SMSKIT_ENCODING_UCS2 2

/** "is_possible"..., "" for NONE; NULL for a value out of range. Static storage. */
const char *smskit_possibility_name(int32_t possibility);
/** "fixed_line"..., "unknown"; NULL for a value out of range. Static storage. */
const char *smskit_type_name(int32_t type);
/** "reserved-for-fiction"..., "" for NONE; NULL for a value out of range. Static storage. */
const char *smskit_fictional_name(int32_t kind);

/* ---- Versions ----------------------------------------------------------------------------- */

/** SMSKIT_API_VERSION of the library actually loaded. */
uint32_t smskit_api_version(void);
/** SMSKIT_VERSION of the library actually loaded, e.g. "0.1.0". Static storage. */
const char *smskit_version(void);
/** The libphonenumber metadata version the numbers are checked against, e.g. "9.0.43".
 *  Static storage (made once, thread-safely, on first call; never freed). */
const char *smskit_metadata_version(void);

/* ---- Engine ------------------------------------------------------------------------------- */

/** An immutable engine: phone-number metadata, the SMS encoder and the bundled templates. */
typedef struct smskit_engine smskit_engine;

/** A new engine, or NULL when out of memory. Free it with smskit_engine_free. */
smskit_engine *smskit_engine_create(void);
/** Frees an engine (NULL is ignored). No call may be using it, on any thread. */
void smskit_engine_free(smskit_engine *engine);

/* ---- Checking numbers --------------------------------------------------------------------- */

/** One number's answers: the same fields as a record of `smskit validate`. Plain data. */
typedef struct smskit_check_result {
    int32_t error;          /* SMSKIT_OK when the number parsed, else why not (SMSKIT_ERR_*) */
    int32_t country_code;   /* e.g. 44; 0 when not parsed */
    uint8_t possibility;    /* SMSKIT_POSSIBILITY_*; NONE when not parsed */
    uint8_t type;           /* SMSKIT_TYPE_*; UNKNOWN when not parsed or not valid */
    uint8_t valid;          /* 1 when the number is valid (a type matched), else 0 */
    uint8_t fictional;      /* SMSKIT_FICTIONAL_*: reserved for drama, 555 convention, reported */
    uint8_t e164_length;    /* strlen(e164) */
    uint8_t reserved[3];    /* zero */
    char region[4];         /* "GB", "001" for non-geographic numbers, "" when none; NUL-terminated */
    char e164[SMSKIT_E164_CAPACITY]; /* "+447400123456", "" when not parsed; NUL-terminated */
} smskit_check_result;

/**
 * Checks one number: parse, possibility, validity, type, region, fictional ranges, E.164.
 *
 * `default_region` (C string, may be NULL) is used for national numbers: "US", "gb"; NULL, ""
 * and "ZZ" mean none. The whole `*result` is always written when `engine` and `result` are not
 * NULL; the return value is `result->error`.
 * Per-record errors: SMSKIT_ERR_INVALID_UTF8, SMSKIT_ERR_NOT_A_NUMBER (also for a NUL byte),
 * SMSKIT_ERR_INPUT_TOO_LONG (over SMSKIT_MAX_NUMBER_BYTES), SMSKIT_ERR_INVALID_REGION, the parse
 * errors, SMSKIT_ERR_NULL_ARGUMENT (input NULL with length > 0).
 */
int32_t smskit_check(const smskit_engine *engine, const char *input, size_t length,
                     const char *default_region, smskit_check_result *result);

/**
 * Checks `count` numbers, one result per input in order: inputs[i] with lengths[i] bytes, region
 * default_regions[i] when `default_regions` is not NULL and that entry is not NULL, else
 * `default_region` (C string, may be NULL). `results` has room for `count` results.
 * Returns SMSKIT_OK when every result was written (each has its own `error`), else a call error
 * (SMSKIT_ERR_NULL_ARGUMENT, SMSKIT_ERR_INVALID_REGION for `default_region`) and writes nothing.
 * `inputs` and `lengths` may be NULL only when count is 0. Runs on the calling thread.
 */
int32_t smskit_check_batch(const smskit_engine *engine, const char *const *inputs, const size_t *lengths,
                           size_t count, const char *const *default_regions, const char *default_region,
                           smskit_check_result *results);

/**
 * smskit_check_batch over one buffer: input i is data[offsets[i] ..< offsets[i + 1]] (Apache
 * Arrow's layout for a string array; `offsets` has count + 1 entries, non-decreasing, within
 * 0...data_length, else SMSKIT_ERR_INVALID_ARGUMENT and nothing is written).
 */
int32_t smskit_check_packed(const smskit_engine *engine, const char *data, size_t data_length,
                            const int64_t *offsets, size_t count, const char *const *default_regions,
                            const char *default_region, smskit_check_result *results);

/**
 * smskit_check_batch over one buffer of inputs separated by the byte `separator` (such as '\n'):
 * `data_length` bytes make exactly `count` inputs (count - 1 separators; an empty buffer is one
 * empty input), else SMSKIT_ERR_INVALID_ARGUMENT and nothing is written.
 */
int32_t smskit_check_split(const smskit_engine *engine, const char *data, size_t data_length, char separator,
                           size_t count, const char *const *default_regions, const char *default_region,
                           smskit_check_result *results);

/**
 * Writes field `field` (SMSKIT_FIELD_E164 or SMSKIT_FIELD_REGION) of `count` results into
 * `buffer`, each followed by `separator`: a whole column in one call, for bindings that build
 * strings in bulk. Returns as the other output-buffer functions (see CONTRACT).
 */
#define SMSKIT_FIELD_E164 0
#define SMSKIT_FIELD_REGION 1
int32_t smskit_join_field(const smskit_check_result *results, size_t count, int32_t field, char separator,
                          char *buffer, size_t capacity, size_t *length_out);

/**
 * Parses a number and writes it in `format` (SMSKIT_FORMAT_*): "+16502530000",
 * "+1 650-253-0000", "(650) 253-0000", "tel:+1-650-253-0000". Errors: the per-record errors of
 * smskit_check, SMSKIT_ERR_INVALID_ARGUMENT (format), SMSKIT_ERR_BUFFER_TOO_SMALL (64 bytes
 * always suffice for E.164; use the size query for the others, or 256 bytes).
 */
int32_t smskit_format(const smskit_engine *engine, const char *input, size_t length, const char *default_region,
                      int32_t format, char *buffer, size_t capacity, size_t *length_out);

/* ---- Short numbers and matching ----------------------------------------------------------- */

/* short-number cost (libphonenumber's ShortNumberCost) */
#define SMSKIT_COST_UNKNOWN 0
#define SMSKIT_COST_TOLL_FREE 1
#define SMSKIT_COST_STANDARD_RATE 2
#define SMSKIT_COST_PREMIUM_RATE 3
/** "unknown_cost", "toll_free", "standard_rate", "premium_rate"; NULL for a value out of range. */
const char *smskit_cost_name(int32_t cost);

/** What the short-number data says of an input dialled in a region (libphonenumber's ShortNumberInfo). */
typedef struct smskit_short_number_result {
    int32_t error;                 /* SMSKIT_OK when the input parsed in the region, else why not; the
                                      fields below but the two emergency ones are then 0 */
    uint8_t possible;              /* 1: a possible short number of the region (its lengths) */
    uint8_t valid;                 /* 1: a valid short number of the region (its patterns) */
    uint8_t cost;                  /* SMSKIT_COST_*: the expected cost in the region */
    uint8_t emergency;             /* 1: the input, as dialled, is an emergency number of the region */
    uint8_t connects_to_emergency; /* 1: dialling it reaches an emergency number (it may start with one) */
    uint8_t carrier_specific;      /* 1: it works on some carriers' networks only */
    uint8_t sms_service;           /* 1: it is an SMS service of the region */
    uint8_t reserved[1];           /* zero */
} smskit_short_number_result;

/**
 * The short-number facts of `input` (at most SMSKIT_MAX_NUMBER_BYTES of UTF-8) dialled in `region`
 * (C string: an ISO 3166-1 code such as "US"; NULL, "", "ZZ" and "001" are refused with
 * SMSKIT_ERR_INVALID_REGION). The emergency fields read the text as dialled ("+1 911" is not an
 * emergency number, "911" is) and are set even when the input does not parse. Returns SMSKIT_OK
 * when `result` was written (its `error` says whether the input parsed), else a call error
 * (SMSKIT_ERR_NULL_ARGUMENT, SMSKIT_ERR_INVALID_REGION, SMSKIT_ERR_INPUT_TOO_LONG,
 * SMSKIT_ERR_INVALID_UTF8) with `result` zeroed.
 *
 *   smskit_short_number_result s;
 *   smskit_short_number(engine, "112", 3, "DE", &s);   // s.valid == 1, s.emergency == 1, s.cost == SMSKIT_COST_TOLL_FREE
 */
int32_t smskit_short_number(const smskit_engine *engine, const char *input, size_t length, const char *region,
                            smskit_short_number_result *result);

/* number match (libphonenumber's MatchType) */
#define SMSKIT_MATCH_NOT_A_NUMBER 0
#define SMSKIT_MATCH_NO_MATCH 1
#define SMSKIT_MATCH_SHORT_NSN_MATCH 2
#define SMSKIT_MATCH_NSN_MATCH 3
#define SMSKIT_MATCH_EXACT_MATCH 4
/** "not_a_number", "no_match", "short_nsn_match", "nsn_match", "exact_match"; NULL out of range. */
const char *smskit_match_name(int32_t match);

/**
 * How closely two texts (each at most SMSKIT_MAX_NUMBER_BYTES of UTF-8) agree as phone numbers,
 * libphonenumber's isNumberMatch with no default region: `*match_out` gets SMSKIT_MATCH_*
 * (a text that is not a number, or holds a NUL byte, gives SMSKIT_MATCH_NOT_A_NUMBER). Returns
 * SMSKIT_OK or a call error (SMSKIT_ERR_NULL_ARGUMENT, SMSKIT_ERR_INPUT_TOO_LONG,
 * SMSKIT_ERR_INVALID_UTF8), with *match_out then SMSKIT_MATCH_NOT_A_NUMBER.
 *
 *   int32_t m;
 *   smskit_match(engine, "+1 650 253 0000", 15, "650-253-0000", 12, &m);   // m == SMSKIT_MATCH_NSN_MATCH
 */
int32_t smskit_match(const smskit_engine *engine, const char *first, size_t first_length, const char *second,
                     size_t second_length, int32_t *match_out);

/* ---- SMS ---------------------------------------------------------------------------------- */

/** How a text goes over the air. */
typedef struct smskit_segments_result {
    int32_t encoding;            /* SMSKIT_ENCODING_GSM7 or SMSKIT_ENCODING_UCS2 */
    int32_t segments;            /* SMS parts (1 for a single SMS, 0 never) */
    int64_t units;               /* length: GSM 7-bit septets (escapes count 2) or UTF-16 units */
    int32_t remaining;           /* units still free in the last part */
    uint8_t exceeds_limit;       /* 1 when over 255 parts: too long for one concatenated SMS */
    uint8_t reserved[3];
} smskit_segments_result;

/** Analyses `text` (UTF-8, at most SMSKIT_MAX_TEXT_BYTES) with the default options (smart
 *  encoding, national language tables off). Errors: NULL_ARGUMENT, INVALID_UTF8, INPUT_TOO_LONG. */
int32_t smskit_segments(const smskit_engine *engine, const char *text, size_t length,
                        smskit_segments_result *result);

/**
 * Renders a one-time-code SMS from the bundled templates into `buffer` (UTF-8, NUL-terminated).
 * `language` (C string: BCP 47 such as "de-AT", "pt_BR"; unknown ones fall back, as in
 * `smskit render`), `code` (C string, 1-16 ASCII letters, digits or hyphens), `app_name`
 * (C string, at most 64 characters), `minutes` (-1 for none; 0...100000 selects
 * verification_code_expiry), `message_id` (C string or NULL: "verification_code",
 * "verification_code_expiry", "login_code", "mfa_code"; NULL picks by `minutes`).
 * `segments_out` (may be NULL) receives the SMS parts of the rendered text.
 */
int32_t smskit_render(const smskit_engine *engine, const char *language, const char *code, const char *app_name,
                      int32_t minutes, const char *message_id, char *buffer, size_t capacity, size_t *length_out,
                      int32_t *segments_out);

#ifdef __cplusplus
}
#endif

#endif /* SMSKIT_H */
