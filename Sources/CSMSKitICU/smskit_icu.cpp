// SMSKit's C interface over the system ICU; see include/CSMSKitICU.h.
//
// Everything here is a thin, bounded call into ICU: no locale data, plural rules or formatting
// logic of our own (the parent-locale table is generated from ICU's data). Inputs are
// length-checked before ICU sees them; no function throws.

#include "CSMSKitICU.h"
#include "smskit_icu_locale_parents.h"

#include <unicode/bytestream.h>
#include <unicode/locid.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/numsys.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/unistr.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using icu::Formattable;
using icu::Locale;
using icu::MessageFormat;
using icu::MessagePattern;
using icu::UnicodeString;

namespace {

// Longest locale tag we hand to ICU. Real tags are far shorter (ULOC_FULLNAME_CAPACITY is 157);
// anything longer is refused before ICU parses it, so a 10 KB string costs nothing.
constexpr int32_t kMaxTagLength = 128;
// The deepest nesting of plural/select sub-messages accepted; real messages use two or three.
constexpr int32_t kMaxNesting = 16;

int32_t copyOut(const std::string &value, char *out, int32_t capacity) {
    if (static_cast<int32_t>(value.size()) + 1 > capacity) return -1;
    value.copy(out, value.size());
    out[value.size()] = '\0';
    return static_cast<int32_t>(value.size());
}

// The language, script, region and variants of a locale ID, without keywords.
std::string baseName(const char *localeID) {
    char buffer[ULOC_FULLNAME_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_getBaseName(localeID, buffer, sizeof buffer, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return std::string();
    return std::string(buffer, static_cast<size_t>(length));
}

} // namespace

// MARK: - Locales

extern "C" int32_t smskit_icu_locale_canonicalize(const char *tag, int32_t tagLength, char *out, int32_t capacity) {
    if (tag == nullptr || tagLength <= 0 || tagLength > kMaxTagLength) return -1;
    // Accept the POSIX/Java spelling ("pt_BR") by reading '_' as '-'; ICU's BCP 47 parser is strict.
    char buffer[kMaxTagLength + 1];
    for (int32_t i = 0; i < tagLength; ++i) {
        char c = tag[i];
        if (c == '\0') return -1;
        buffer[i] = (c == '_') ? '-' : c;
    }
    buffer[tagLength] = '\0';

    UErrorCode status = U_ZERO_ERROR;
    Locale parsed = Locale::forLanguageTag(icu::StringPiece(buffer, tagLength), status);
    if (U_FAILURE(status) || parsed.isBogus()) return -1;
    // CLDR alias canonicalization: iw -> he, in -> id, tl -> fil, sh -> sr_Latn, cmn -> zh.
    parsed.canonicalize(status);
    if (U_FAILURE(status) || parsed.isBogus()) return -1;
    // "und", private-use-only tags and the like name no language: nothing to match.
    if (parsed.getLanguage()[0] == '\0') return -1;

    // Keep the base name and only the numbering-system keyword (-u-nu-), which rendering honours.
    std::string result = baseName(parsed.getName());
    if (result.empty()) return -1;
    char numbers[32];
    UErrorCode keywordStatus = U_ZERO_ERROR;
    int32_t numbersLength = parsed.getKeywordValue("numbers", numbers, sizeof numbers, keywordStatus);
    if (U_SUCCESS(keywordStatus) && numbersLength > 0 && keywordStatus != U_STRING_NOT_TERMINATED_WARNING) {
        result += "@numbers=";
        result.append(numbers, static_cast<size_t>(numbersLength));
    }
    return copyOut(result, out, capacity);
}

extern "C" int32_t smskit_icu_locale_add_likely(const char *localeID, char *out, int32_t capacity) {
    if (localeID == nullptr || out == nullptr || capacity <= 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_addLikelySubtags(localeID, out, capacity, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

extern "C" int32_t smskit_icu_locale_parent(const char *localeID, char *out, int32_t capacity) {
    if (localeID == nullptr) return -1;
    std::string base = baseName(localeID);
    if (base.empty() || base == "root") return copyOut("root", out, capacity);

    // 1. CLDR parentLocales (en_AU -> en_001, es_MX -> es_419, pt_AO -> pt_PT), from a table
    //    generated from this ICU's own data: opening bundles here (ures_openDirect) once hung a
    //    full test run inside ICU 72's bundle cache. See tools/icu/generate_locale_parents.cpp.
    const LocaleParent *end = std::end(kLocaleParents);
    const LocaleParent *found = std::lower_bound(
        std::begin(kLocaleParents), end, base,
        [](const LocaleParent &entry, const std::string &name) { return std::strcmp(entry.locale, name.c_str()) < 0; });
    if (found != end && base == found->locale) return copyOut(found->parent, out, capacity);

    // 2. Truncation, with CLDR's rule for scripts: "xx_Scrp" falls back to "xx" only when Scrp is
    //    the language's default script (sr_Cyrl -> sr); otherwise straight to root (sr_Latn -> root).
    char truncated[ULOC_FULLNAME_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_getParent(base.c_str(), truncated, sizeof truncated, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    if (length == 0) return copyOut("root", out, capacity);

    char script[ULOC_SCRIPT_CAPACITY];
    char country[ULOC_COUNTRY_CAPACITY];
    UErrorCode partStatus = U_ZERO_ERROR;
    int32_t scriptLength = uloc_getScript(base.c_str(), script, sizeof script, &partStatus);
    int32_t countryLength = uloc_getCountry(base.c_str(), country, sizeof country, &partStatus);
    if (U_SUCCESS(partStatus) && scriptLength > 0 && countryLength == 0) {
        char likely[ULOC_FULLNAME_CAPACITY];
        char likelyScript[ULOC_SCRIPT_CAPACITY];
        UErrorCode likelyStatus = U_ZERO_ERROR;
        uloc_addLikelySubtags(truncated, likely, sizeof likely, &likelyStatus);
        int32_t likelyLength = uloc_getScript(likely, likelyScript, sizeof likelyScript, &likelyStatus);
        if (U_FAILURE(likelyStatus) || likelyLength != scriptLength ||
            std::string(likelyScript, likelyLength) != std::string(script, scriptLength)) {
            return copyOut("root", out, capacity);
        }
    }
    return copyOut(std::string(truncated, static_cast<size_t>(length)), out, capacity);
}

extern "C" int32_t smskit_icu_iso_regions(char *out, int32_t capacity) {
    if (out == nullptr || capacity <= 0) return -1;
    std::string result;
    for (const char *const *region = uloc_getISOCountries(); *region != nullptr; ++region) {
        if (!result.empty()) result += ' ';
        result += *region;
    }
    return copyOut(result, out, capacity);
}

extern "C" int32_t smskit_icu_locale_to_tag(const char *localeID, char *out, int32_t capacity) {
    if (localeID == nullptr || out == nullptr || capacity <= 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_toLanguageTag(localeID, out, capacity, true, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

extern "C" int32_t smskit_icu_locale_keyword(const char *localeID, const char *keyword, char *out, int32_t capacity) {
    if (localeID == nullptr || keyword == nullptr || out == nullptr || capacity <= 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_getKeywordValue(localeID, keyword, out, capacity, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

extern "C" int32_t smskit_icu_locale_is_rtl(const char *localeID) {
    if (localeID == nullptr) return 0;
    return uloc_isRightToLeft(localeID) ? 1 : 0;
}

extern "C" int32_t smskit_icu_plural_keywords(const char *localeID, int32_t ordinal, char *out, int32_t capacity) {
    if (localeID == nullptr) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_openForType(localeID, ordinal ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, &status);
    if (U_FAILURE(status)) return -1;
    UEnumeration *keywords = uplrules_getKeywords(rules, &status);
    std::string result;
    if (U_SUCCESS(status)) {
        int32_t length = 0;
        while (const char *keyword = uenum_next(keywords, &length, &status)) {
            if (U_FAILURE(status)) break;
            if (!result.empty()) result += ' ';
            result.append(keyword, static_cast<size_t>(length));
        }
        uenum_close(keywords);
    }
    uplrules_close(rules);
    if (U_FAILURE(status)) return -1;
    return copyOut(result, out, capacity);
}

extern "C" int32_t smskit_icu_numbering_system_is_decimal(const char *name) {
    if (name == nullptr || name[0] == '\0' || std::strlen(name) > 8) return 0;
    for (const char *p = name; *p; ++p) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))) return 0;
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::NumberingSystem *system = icu::NumberingSystem::createInstanceByName(name, status);
    if (U_FAILURE(status) || system == nullptr) {
        delete system;
        return 0;
    }
    const bool decimal = !system->isAlgorithmic() && system->getRadix() == 10 &&
                         system->getDescription().countChar32() == 10;
    delete system;
    return decimal ? 1 : 0;
}

// MARK: - Characters

extern "C" int32_t smskit_icu_digit_value(uint32_t codePoint) {
    if (codePoint > 0x10FFFF) return -1;
    return u_charDigitValue(static_cast<UChar32>(codePoint));
}

extern "C" int32_t smskit_icu_first_strong_direction(const char *utf8, int32_t length) {
    if (utf8 == nullptr || length <= 0) return 0;
    int32_t index = 0;
    while (index < length) {
        UChar32 c;
        U8_NEXT(reinterpret_cast<const uint8_t *>(utf8), index, length, c);
        if (c < 0) continue;
        switch (u_charDirection(c)) {
        case U_LEFT_TO_RIGHT: return 1;
        case U_RIGHT_TO_LEFT:
        case U_RIGHT_TO_LEFT_ARABIC: return 2;
        default: break;
        }
    }
    return 0;
}

extern "C" int32_t smskit_icu_bidi_profile(const char *utf8, int32_t length) {
    if (utf8 == nullptr || length <= 0) return 0;
    int32_t flags = 0;
    int32_t index = 0;
    bool first = true;
    bool lastStrong = false;
    while (index < length) {
        UChar32 c;
        U8_NEXT(reinterpret_cast<const uint8_t *>(utf8), index, length, c);
        if (c < 0) return 0;
        UCharDirection direction = u_charDirection(c);
        // Combining marks and boundary neutrals take the class of what precedes them (UBA W1, X9).
        if (!first && (direction == U_DIR_NON_SPACING_MARK || direction == U_BOUNDARY_NEUTRAL)) continue;
        bool strong = true;
        switch (direction) {
        case U_LEFT_TO_RIGHT: flags |= SMSKIT_BIDI_HAS_L; break;
        case U_RIGHT_TO_LEFT: flags |= SMSKIT_BIDI_HAS_R; break;
        case U_RIGHT_TO_LEFT_ARABIC: flags |= SMSKIT_BIDI_HAS_AL; break;
        default: strong = false; break;
        }
        if (first && strong) flags |= SMSKIT_BIDI_STARTS_STRONG;
        first = false;
        lastStrong = strong;
    }
    if (lastStrong) flags |= SMSKIT_BIDI_ENDS_STRONG;
    return flags;
}

extern "C" int32_t smskit_icu_bidi_layout(const uint16_t *utf16, int32_t length, int32_t *visual, int32_t capacity,
                                          int32_t *paragraphLevel) {
    if (utf16 == nullptr || visual == nullptr || paragraphLevel == nullptr || length <= 0 || capacity < length) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status) || bidi == nullptr) return -1;
    ubidi_setPara(bidi, reinterpret_cast<const UChar *>(utf16), length, UBIDI_DEFAULT_LTR, nullptr, &status);
    if (U_SUCCESS(status)) *paragraphLevel = ubidi_getParaLevel(bidi) & 1;
    for (int32_t index = 0; U_SUCCESS(status) && index < length; ++index) {
        visual[index] = ubidi_getVisualIndex(bidi, index, &status);
        if (visual[index] == UBIDI_MAP_NOWHERE) visual[index] = -1;
    }
    ubidi_close(bidi);
    return U_SUCCESS(status) ? length : -1;
}

// MARK: - Messages

struct smskit_icu_message {
    // ICU's MessageFormat::format is const but not safe to call concurrently on one instance:
    // it creates its default NumberFormat and each plural argument's PluralRules lazily, on
    // first use, inside the const call. So one compiled message is formatted under its own
    // mutex; callers on other messages never contend.
    std::mutex lock;
    MessageFormat *format = nullptr;
    std::vector<std::string> names;      // UTF-8, in order of first appearance
    std::vector<UnicodeString> icuNames; // the same names, for MessageFormat::format
    std::vector<int32_t> kinds;
    std::vector<int32_t> offsets;
    std::string pluralSelectors;         // see smskit_icu_message_plural_selectors
    std::vector<std::string> pieces;     // see smskit_icu_message_piece_count; empty if not text-only
    std::vector<int32_t> pieceArguments;

    ~smskit_icu_message() { delete format; }
};

namespace {

void setError(smskit_icu_message_error *error, int32_t status, int32_t offset, const std::string &reason) {
    if (error == nullptr) return;
    error->status = status;
    error->offset = offset;
    size_t n = reason.size() < sizeof error->reason - 1 ? reason.size() : sizeof error->reason - 1;
    reason.copy(error->reason, n);
    error->reason[n] = '\0';
}

std::string toUTF8(const UnicodeString &s) {
    std::string out;
    s.toUTF8String(out);
    return out;
}

// Reads the arguments of a parsed pattern into `message`; returns false (with `error` set) on
// an argument form templates do not support.
bool describeArguments(const MessagePattern &pattern, smskit_icu_message *message, smskit_icu_message_error *error) {
    const int32_t count = pattern.countParts();
    for (int32_t i = 0; i < count; ++i) {
        const MessagePattern::Part &part = pattern.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_ARG_START) continue;
        const MessagePattern::Part &namePart = pattern.getPart(i + 1);
        if (namePart.getType() == UMSGPAT_PART_TYPE_ARG_NUMBER) {
            setError(error, U_PATTERN_SYNTAX_ERROR, namePart.getIndex(),
                     "numbered argument {" + toUTF8(pattern.getSubstring(namePart)) + "}; use a name");
            return false;
        }
        std::string name = toUTF8(pattern.getSubstring(namePart));
        int32_t kind = 0;
        switch (part.getArgType()) {
        case UMSGPAT_ARG_TYPE_NONE: kind = SMSKIT_ARG_TEXT; break;
        case UMSGPAT_ARG_TYPE_PLURAL: kind = SMSKIT_ARG_PLURAL; break;
        case UMSGPAT_ARG_TYPE_SELECT: kind = SMSKIT_ARG_SELECT; break;
        case UMSGPAT_ARG_TYPE_SELECTORDINAL: kind = SMSKIT_ARG_SELECTORDINAL; break;
        case UMSGPAT_ARG_TYPE_SIMPLE: {
            const MessagePattern::Part &typePart = pattern.getPart(i + 2);
            UnicodeString type = pattern.getSubstring(typePart);
            if (type == UNICODE_STRING_SIMPLE("number")) { kind = SMSKIT_ARG_NUMBER; break; }
            setError(error, U_UNSUPPORTED_ERROR, typePart.getIndex(),
                     "unsupported argument type '" + toUTF8(type) + "' for {" + name + "}");
            return false;
        }
        default: {
            setError(error, U_UNSUPPORTED_ERROR, part.getIndex(),
                     "unsupported argument type (choice) for {" + name + "}; use plural or select");
            return false;
        }
        }

        size_t index = 0;
        while (index < message->names.size() && message->names[index] != name) ++index;
        if (index == message->names.size()) {
            message->names.push_back(name);
            // getSubstring() returns a read-only alias into the MessagePattern, which is freed when
            // smskit_icu_message_open returns: take an owned copy of the characters.
            UnicodeString alias = pattern.getSubstring(namePart);
            message->icuNames.push_back(UnicodeString(alias.getBuffer(), alias.length()));
            message->kinds.push_back(kind);
            message->offsets.push_back(namePart.getIndex());
        } else {
            message->kinds[index] |= kind;
        }

        if (kind == SMSKIT_ARG_PLURAL || kind == SMSKIT_ARG_SELECTORDINAL) {
            std::string line = name + '\t' + (kind == SMSKIT_ARG_SELECTORDINAL ? "1" : "0") + '\t';
            const int32_t limit = pattern.getLimitPartIndex(i);
            bool first = true;
            for (int32_t j = i + 2; j < limit; ++j) {
                const MessagePattern::Part &inner = pattern.getPart(j);
                if (inner.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR) {
                    if (!first) line += ' ';
                    line += toUTF8(pattern.getSubstring(inner));
                    first = false;
                } else if (inner.getType() == UMSGPAT_PART_TYPE_MSG_START) {
                    j = pattern.getLimitPartIndex(j); // skip the sub-message; nested args are seen by the outer loop
                }
            }
            message->pluralSelectors += line;
            message->pluralSelectors += '\n';
        }
    }
    return true;
}

// Splits a text-only message into literal pieces around its arguments, resolving quoting the
// way MessageFormat::format does: literal text runs between parts, SKIP_SYNTAX parts (quoting
// apostrophes) are dropped, INSERT_CHAR parts have no length and add nothing, and an argument
// spans ARG_START..ARG_LIMIT.
void splitIntoPieces(const MessagePattern &pattern, smskit_icu_message *message) {
    for (int32_t kind : message->kinds) {
        if (kind != SMSKIT_ARG_TEXT) return;
    }
    const UnicodeString &source = pattern.getPatternString();
    UnicodeString literal;
    int32_t previous = pattern.getPart(0).getLimit();
    const int32_t count = pattern.countParts();
    for (int32_t i = 1; i < count; ++i) {
        const MessagePattern::Part &part = pattern.getPart(i);
        literal.append(source, previous, part.getIndex() - previous);
        if (part.getType() == UMSGPAT_PART_TYPE_MSG_LIMIT) break;
        if (part.getType() == UMSGPAT_PART_TYPE_ARG_START) {
            std::string name = toUTF8(pattern.getSubstring(pattern.getPart(i + 1)));
            int32_t argument = 0;
            while (argument < static_cast<int32_t>(message->names.size()) && message->names[argument] != name) ++argument;
            message->pieces.push_back(toUTF8(literal));
            message->pieceArguments.push_back(argument);
            literal.remove();
            i = pattern.getLimitPartIndex(i);
            previous = pattern.getPart(i).getLimit();
            continue;
        }
        previous = part.getLimit();
    }
    message->pieces.push_back(toUTF8(literal));
    message->pieceArguments.push_back(-1);
}

} // namespace

extern "C" int32_t smskit_icu_message_piece_count(const smskit_icu_message *message) {
    return message ? static_cast<int32_t>(message->pieces.size()) : 0;
}

extern "C" const char *smskit_icu_message_piece(const smskit_icu_message *message, int32_t index, int32_t *length,
                                                int32_t *argumentIndex) {
    if (message == nullptr || index < 0 || index >= static_cast<int32_t>(message->pieces.size())) {
        if (length) *length = 0;
        if (argumentIndex) *argumentIndex = -1;
        return "";
    }
    const std::string &piece = message->pieces[static_cast<size_t>(index)];
    if (length) *length = static_cast<int32_t>(piece.size());
    if (argumentIndex) *argumentIndex = message->pieceArguments[static_cast<size_t>(index)];
    return piece.c_str();
}

extern "C" smskit_icu_message *smskit_icu_message_open(const char *pattern, int32_t length, const char *localeID,
                                                       smskit_icu_message_error *error) {
    setError(error, 0, -1, "");
    if (pattern == nullptr || length < 0 || localeID == nullptr) {
        setError(error, U_ILLEGAL_ARGUMENT_ERROR, -1, "invalid arguments");
        return nullptr;
    }
    UnicodeString source = UnicodeString::fromUTF8(icu::StringPiece(pattern, length));

    UParseError parseError = {};
    UErrorCode status = U_ZERO_ERROR;
    MessagePattern parsed(source, &parseError, status);
    if (U_FAILURE(status)) {
        setError(error, status, parseError.offset, u_errorName(status));
        return nullptr;
    }

    // ICU formats nested arguments recursively, two stack frames per level: a catalog message of
    // thousands of nested selects (ICU parses up to 32,767 levels) overflows the stack of the
    // thread that renders it. A sub-message's MSG_START value is its nesting level.
    for (int32_t i = 0; i < parsed.countParts(); ++i) {
        const MessagePattern::Part &part = parsed.getPart(i);
        if (part.getType() == UMSGPAT_PART_TYPE_MSG_START && part.getValue() > kMaxNesting) {
            setError(error, U_PATTERN_SYNTAX_ERROR, part.getIndex(),
                     "arguments nested more than " + std::to_string(kMaxNesting) + " levels deep");
            return nullptr;
        }
    }

    smskit_icu_message *message = new (std::nothrow) smskit_icu_message();
    if (message == nullptr) {
        setError(error, U_MEMORY_ALLOCATION_ERROR, -1, "out of memory");
        return nullptr;
    }
    if (!describeArguments(parsed, message, error)) {
        delete message;
        return nullptr;
    }
    splitIntoPieces(parsed, message);

    status = U_ZERO_ERROR;
    parseError = {};
    // UObject::operator new does not throw; it returns nullptr on failure.
    message->format = new MessageFormat(source, Locale(localeID), parseError, status);
    if (message->format == nullptr || U_FAILURE(status)) {
        setError(error, message->format == nullptr ? U_MEMORY_ALLOCATION_ERROR : status, parseError.offset,
                 u_errorName(status));
        delete message;
        return nullptr;
    }
    return message;
}

extern "C" void smskit_icu_message_close(smskit_icu_message *message) { delete message; }

extern "C" int32_t smskit_icu_message_argument_count(const smskit_icu_message *message) {
    return message ? static_cast<int32_t>(message->names.size()) : 0;
}

extern "C" const char *smskit_icu_message_argument_name(const smskit_icu_message *message, int32_t index) {
    if (message == nullptr || index < 0 || index >= static_cast<int32_t>(message->names.size())) return "";
    return message->names[static_cast<size_t>(index)].c_str();
}

extern "C" int32_t smskit_icu_message_argument_kinds(const smskit_icu_message *message, int32_t index) {
    if (message == nullptr || index < 0 || index >= static_cast<int32_t>(message->kinds.size())) return 0;
    return message->kinds[static_cast<size_t>(index)];
}

extern "C" int32_t smskit_icu_message_argument_offset(const smskit_icu_message *message, int32_t index) {
    if (message == nullptr || index < 0 || index >= static_cast<int32_t>(message->offsets.size())) return -1;
    return message->offsets[static_cast<size_t>(index)];
}

extern "C" int32_t smskit_icu_message_plural_selectors(const smskit_icu_message *message, char *out, int32_t capacity) {
    if (message == nullptr) return -1;
    const std::string &value = message->pluralSelectors;
    if (out == nullptr || static_cast<int32_t>(value.size()) > capacity) return static_cast<int32_t>(value.size());
    value.copy(out, value.size());
    return static_cast<int32_t>(value.size());
}

extern "C" int32_t smskit_icu_message_format(smskit_icu_message *message, const smskit_icu_value *values, int32_t count,
                                             char *out, int32_t capacity, int32_t *statusOut) {
    int32_t dummy = 0;
    int32_t *statusPtr = statusOut ? statusOut : &dummy;
    *statusPtr = U_ZERO_ERROR;
    if (message == nullptr || count != static_cast<int32_t>(message->names.size()) || (count > 0 && values == nullptr)) {
        *statusPtr = U_ILLEGAL_ARGUMENT_ERROR;
        return -1;
    }
    // Formattables on the stack for the common case (templates have a handful of arguments).
    constexpr int32_t kInline = 8;
    Formattable inlineValues[kInline];
    std::vector<Formattable> heapValues;
    Formattable *arguments = inlineValues;
    if (count > kInline) {
        heapValues.resize(static_cast<size_t>(count));
        arguments = heapValues.data();
    }
    for (int32_t i = 0; i < count; ++i) {
        const smskit_icu_value &value = values[i];
        switch (value.kind) {
        case 0:
            // A value, never syntax: the text goes in as a Formattable string, not into the pattern.
            arguments[i].setString(UnicodeString::fromUTF8(icu::StringPiece(value.utf8 ? value.utf8 : "", value.length)));
            break;
        case 1: arguments[i].setInt64(value.integer); break;
        case 2: arguments[i].setDouble(value.real); break;
        default: *statusPtr = U_ILLEGAL_ARGUMENT_ERROR; return -1;
        }
    }

    UnicodeString result;
    UErrorCode status = U_ZERO_ERROR;
    {
        std::lock_guard<std::mutex> guard(message->lock);
        message->format->format(message->icuNames.data(), arguments, count, result, status);
    }
    if (U_FAILURE(status)) {
        *statusPtr = status;
        return -1;
    }
    int32_t length = 0;
    status = U_ZERO_ERROR;
    u_strToUTF8(out, capacity, &length, result.getBuffer(), result.length(), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        *statusPtr = U_BUFFER_OVERFLOW_ERROR;
        return length;
    }
    if (U_FAILURE(status)) {
        *statusPtr = status;
        return -1;
    }
    return length;
}

extern "C" const char *smskit_icu_error_name(int32_t status) { return u_errorName(static_cast<UErrorCode>(status)); }
