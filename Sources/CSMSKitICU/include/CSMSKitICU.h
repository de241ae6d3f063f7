#ifndef CSMSKITICU_H
#define CSMSKITICU_H
// SMSKit's small C interface over the system ICU (libicu-dev).
//
// Swift cannot call ICU directly on Debian: the library exports version-suffixed symbols
// (umsg_open_72) that only the C/C++ headers map. This layer is compiled against the headers and
// exposes unsuffixed, C-callable functions. Named MessageFormat arguments need ICU's C++ API, so
// the implementation is C++ (smskit_icu.cpp) behind this extern "C" interface.
//
// Strings crossing this boundary are UTF-8 with explicit lengths unless stated otherwise.
// Locale identifiers are ICU locale IDs ("pt_BR", "zh_Hant_HK", "ar@numbers=latn").

#include <stdint.h>
#include "smskit_icu_convert.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the version of the system ICU this binary is linked against, e.g. "72.1".
const char *smskit_icu_version(void);

// MARK: - Locales

/// Parses a BCP 47 tag, or a common variant of one ("pt_BR", "EN-us", "iw"), and canonicalizes it
/// with ICU's CLDR alias data (iw -> he, in -> id, tl -> fil, cmn -> zh).
/// Writes the ICU locale ID (e.g. "pt_BR") to `out`, NUL-terminated.
/// Returns the length written, or -1 when the tag is not well-formed, empty, or longer than
/// `out` allows (the caller reports a diagnostic; nothing is guessed).
int32_t smskit_icu_locale_canonicalize(const char *tag, int32_t tagLength, char *out, int32_t capacity);

/// Adds likely subtags ("zh_TW" -> "zh_Hant_TW"). Returns the length, or -1 on failure.
int32_t smskit_icu_locale_add_likely(const char *localeID, char *out, int32_t capacity);

/// The CLDR parent of a locale ID as ICU's data records it: the "%%Parent" of its resource bundle
/// when present ("es_MX" -> "es_419", "pt_AO" -> "pt_PT", "zh_Hant" -> "root"), otherwise
/// truncation of the last subtag ("pt_BR" -> "pt"). Writes "root" at the top.
/// Returns the length, or -1 on failure.
int32_t smskit_icu_locale_parent(const char *localeID, char *out, int32_t capacity);

/// The current ISO 3166-1 region codes ICU knows (deprecated codes such as "YU" excluded),
/// space-separated in ICU's order. Returns the length, or -1 when `capacity` is too small.
int32_t smskit_icu_iso_regions(char *out, int32_t capacity);

/// The BCP 47 form of an ICU locale ID ("zh_Hant" -> "zh-Hant"). Returns the length, or -1.
int32_t smskit_icu_locale_to_tag(const char *localeID, char *out, int32_t capacity);

/// Reads a Unicode extension keyword value ("numbers" for -u-nu-). Returns the length (0 if absent).
int32_t smskit_icu_locale_keyword(const char *localeID, const char *keyword, char *out, int32_t capacity);

/// 1 when the locale's script is written right to left ("ar", "he", "fa", "ur"), else 0.
int32_t smskit_icu_locale_is_rtl(const char *localeID);

/// The plural categories ICU's CLDR rules give for a locale, space-separated in ICU's order
/// (e.g. "few many one other" for "ru"). `ordinal` selects ordinal rules.
/// Returns the length, or -1 on failure.
int32_t smskit_icu_plural_keywords(const char *localeID, int32_t ordinal, char *out, int32_t capacity);

/// 1 when `name` is a numbering system ICU knows that writes decimal digits with its own ten
/// characters ("latn", "arab", "arabext", "beng", "deva"...), 0 otherwise (unknown names and
/// algorithmic systems such as "roman" or "hebr").
int32_t smskit_icu_numbering_system_is_decimal(const char *name);

// MARK: - Characters

/// The decimal digit value of a code point (0...9) when it is a Unicode decimal digit
/// (general category Nd, any script), else -1.
int32_t smskit_icu_digit_value(uint32_t codePoint);

/// First-strong direction of UTF-8 text by the Unicode Bidirectional Algorithm's P2/P3:
/// 0 = no strong character, 1 = left to right, 2 = right to left.
int32_t smskit_icu_first_strong_direction(const char *utf8, int32_t length);

/// Bidi classes of UTF-8 text, as a bit set: SMSKIT_BIDI_HAS_L (a strong left-to-right
/// character), SMSKIT_BIDI_HAS_R (Hebrew-like R), SMSKIT_BIDI_HAS_AL (Arabic letter, which turns
/// following European digits into Arabic numbers, UBA rule W2), SMSKIT_BIDI_STARTS_STRONG and
/// SMSKIT_BIDI_ENDS_STRONG (the first/last character, ignoring combining marks, is L, R or AL).
/// 0 for empty or invalid input.
enum {
    SMSKIT_BIDI_HAS_L = 1,
    SMSKIT_BIDI_HAS_R = 2,
    SMSKIT_BIDI_HAS_AL = 4,
    SMSKIT_BIDI_STARTS_STRONG = 8,
    SMSKIT_BIDI_ENDS_STRONG = 16
};
int32_t smskit_icu_bidi_profile(const char *utf8, int32_t length);

/// Lays out one paragraph of UTF-16 text with ICU's Unicode Bidirectional Algorithm (ubidi), its
/// direction taken from the first strong character (P2/P3, isolates skipped) as a handset does,
/// left to right when there is none. Writes to `visual[i]` the visual position (0 = leftmost) of
/// logical UTF-16 unit `i` (`capacity` >= `length`; units ubidi removes get -1) and to
/// `*paragraphLevel` 0 (left to right) or 1 (right to left). Returns `length`, or -1 on failure.
int32_t smskit_icu_bidi_layout(const uint16_t *utf16, int32_t length, int32_t *visual, int32_t capacity,
                               int32_t *paragraphLevel);

// MARK: - Messages

/// A compiled ICU MessageFormat with named arguments. Opaque; thread-safe (see smskit_icu.cpp).
typedef struct smskit_icu_message smskit_icu_message;

/// Why a pattern did not compile.
typedef struct smskit_icu_message_error {
    /// The ICU error code (UErrorCode), 0 when there was no error.
    int32_t status;
    /// The UTF-16 offset in the pattern where the problem is, or -1 when unknown.
    int32_t offset;
    /// A short reason, e.g. "U_UNMATCHED_BRACES" or "numbered argument {0}".
    char reason[96];
} smskit_icu_message_error;

/// Argument kinds, as a bit set (an argument may appear several times in a message).
enum {
    SMSKIT_ARG_TEXT = 1,          // {name}
    SMSKIT_ARG_NUMBER = 2,        // {name, number} or {name, number, ::skeleton}
    SMSKIT_ARG_PLURAL = 4,        // {name, plural, ...}
    SMSKIT_ARG_SELECT = 8,        // {name, select, ...}
    SMSKIT_ARG_SELECTORDINAL = 16 // {name, selectordinal, ...}
};

/// Compiles `pattern` (UTF-8) for `localeID`. Returns NULL and fills `error` on failure.
/// Numbered arguments ({0}), and argument types other than number/plural/select/selectordinal
/// (date, time, choice, spellout...) are rejected: templates take named text and number values.
smskit_icu_message *smskit_icu_message_open(const char *pattern, int32_t length, const char *localeID,
                                            smskit_icu_message_error *error);
void smskit_icu_message_close(smskit_icu_message *message);

/// The number of distinct argument names, in order of first appearance.
int32_t smskit_icu_message_argument_count(const smskit_icu_message *message);
/// The UTF-8 name of argument `index`; valid while the message lives.
const char *smskit_icu_message_argument_name(const smskit_icu_message *message, int32_t index);
/// The SMSKIT_ARG_* kinds argument `index` is used with.
int32_t smskit_icu_message_argument_kinds(const smskit_icu_message *message, int32_t index);
/// The UTF-16 offset of the first use of argument `index` in the pattern.
int32_t smskit_icu_message_argument_offset(const smskit_icu_message *message, int32_t index);

/// Describes every plural/selectordinal argument, one per line: "name TAB ordinal(0|1) TAB selectors",
/// selectors space-separated as written ("=0 one few other"). Returns the length, or the needed
/// length when `capacity` is too small.
int32_t smskit_icu_message_plural_selectors(const smskit_icu_message *message, char *out, int32_t capacity);

/// Text-only messages as literal pieces, for formatting without a MessageFormat call.
///
/// When every argument of a message is a plain `{name}` (no number, plural or select), ICU's
/// MessageFormat output for text values is the pattern's literal text (with ICU's apostrophe
/// quoting resolved by MessagePattern) interleaved with the values. The pieces are that literal
/// text, split at the arguments: piece i is a UTF-8 literal followed by argument
/// `*argumentIndex` (-1 after the last piece). Returns the number of pieces, or 0 when the
/// message has number, plural or select arguments (format it with smskit_icu_message_format).
int32_t smskit_icu_message_piece_count(const smskit_icu_message *message);
const char *smskit_icu_message_piece(const smskit_icu_message *message, int32_t index, int32_t *length, int32_t *argumentIndex);

/// One argument value. `kind`: 0 = text (utf8/length), 1 = integer, 2 = double.
typedef struct smskit_icu_value {
    int32_t kind;
    int32_t length;
    const char *utf8;
    int64_t integer;
    double real;
} smskit_icu_value;

/// Formats with one value per argument, in the message's argument order.
/// Writes UTF-8 to `out` (no terminator) and returns its length; returns the needed length with
/// *status = 15 (U_BUFFER_OVERFLOW_ERROR) when `capacity` is too small; -1 on other errors.
int32_t smskit_icu_message_format(smskit_icu_message *message, const smskit_icu_value *values, int32_t count,
                                  char *out, int32_t capacity, int32_t *status);

/// The name of an ICU error code, e.g. "U_UNMATCHED_BRACES".
const char *smskit_icu_error_name(int32_t status);

#ifdef __cplusplus
}
#endif
#endif
