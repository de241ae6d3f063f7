// Static names and messages of libsmskit's codes (smskit.h): C string literals, so that every
// pointer returned stays valid for the life of the process and nothing is allocated.
#include "smskit.h"

typedef struct {
    int32_t code;
    const char *name;
    const char *message;
} smskit_code_text;

static const smskit_code_text codes[] = {
    {SMSKIT_OK, "ok", "success"},
    {SMSKIT_ERR_NULL_ARGUMENT, "null_argument", "a required pointer argument was NULL"},
    {SMSKIT_ERR_INVALID_ARGUMENT, "invalid_argument", "an argument is out of range"},
    {SMSKIT_ERR_BUFFER_TOO_SMALL, "buffer_too_small", "the output buffer is too small; retry with the length returned"},
    {SMSKIT_ERR_INVALID_UTF8, "invalid_utf8", "the input is not valid UTF-8"},
    {SMSKIT_ERR_INPUT_TOO_LONG, "line_too_long", "the input is longer than the documented maximum"},
    {SMSKIT_ERR_INVALID_REGION, "invalid_region", "the default region is not an ISO 3166-1 code, 001 or ZZ"},
    {SMSKIT_ERR_INTERNAL, "internal_error", "internal error in smskit; please report it"},
    {SMSKIT_ERR_INVALID_COUNTRY_CODE, "invalid_country_code",
     "the country calling code is unknown, or the number is national and no default region was given"},
    {SMSKIT_ERR_NOT_A_NUMBER, "not_a_number", "the input does not look like a phone number"},
    {SMSKIT_ERR_TOO_SHORT_AFTER_IDD, "too_short_after_idd", "too few digits after the international prefix"},
    {SMSKIT_ERR_TOO_SHORT_NSN, "too_short_nsn", "too few digits for a national number"},
    {SMSKIT_ERR_TOO_LONG, "too_long", "too many digits for a phone number"},
    {SMSKIT_ERR_INVALID_LOCALE, "invalid_locale", "the language is not a valid BCP 47 tag"},
    {SMSKIT_ERR_UNKNOWN_MESSAGE, "unknown_message", "no message has this ID"},
    {SMSKIT_ERR_MISSING_ARGUMENT, "missing_argument", "the message needs an argument that was not given (minutes?)"},
    {SMSKIT_ERR_INVALID_CODE, "invalid_code", "the code must be 1 to 16 ASCII letters, digits or hyphens"},
    {SMSKIT_ERR_ARGUMENT_TOO_LONG, "argument_too_long", "an argument is too long (app name: at most 64 characters)"},
    {SMSKIT_ERR_TEMPLATE_ARGUMENT, "invalid_template_argument", "the template refused an argument"},
    {SMSKIT_ERR_TEMPLATE, "template_error", "the message could not be rendered"},
};

static const smskit_code_text *find(int32_t code) {
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (codes[i].code == code) return &codes[i];
    }
    return NULL;
}

const char *smskit_status_name(int32_t code) {
    const smskit_code_text *found = find(code);
    return found ? found->name : "unknown_error";
}

const char *smskit_status_message(int32_t code) {
    const smskit_code_text *found = find(code);
    return found ? found->message : "unknown error code";
}

static const char *const possibilities[] = {
    "", "is_possible", "is_possible_local_only", "invalid_country_code", "too_short", "invalid_length", "too_long",
};

static const char *const types[] = {
    "unknown", "fixed_line", "mobile", "fixed_line_or_mobile", "toll_free", "premium_rate",
    "shared_cost", "voip", "personal_number", "pager", "uan", "voicemail",
};

static const char *const fictional[] = {"", "reserved-for-fiction", "nanp-555-convention", "reported"};

static const char *const costs[] = {"unknown_cost", "toll_free", "standard_rate", "premium_rate"};

static const char *const matches[] = {"not_a_number", "no_match", "short_nsn_match", "nsn_match", "exact_match"};

#define LOOKUP(table, value) \
    ((value) >= 0 && (size_t)(value) < sizeof(table) / sizeof((table)[0]) ? (table)[(value)] : NULL)

const char *smskit_possibility_name(int32_t possibility) { return LOOKUP(possibilities, possibility); }
const char *smskit_type_name(int32_t type) { return LOOKUP(types, type); }
const char *smskit_fictional_name(int32_t kind) { return LOOKUP(fictional, kind); }
const char *smskit_cost_name(int32_t cost) { return LOOKUP(costs, cost); }
const char *smskit_match_name(int32_t match) { return LOOKUP(matches, match); }

uint32_t smskit_api_version(void) { return SMSKIT_API_VERSION; }

const char *smskit_version(void) { return SMSKIT_VERSION; }
