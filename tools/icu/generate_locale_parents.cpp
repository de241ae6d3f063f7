// Writes Sources/CSMSKitICU/smskit_icu_locale_parents.h: the CLDR parent locales ("parentLocales",
// which ICU's data carries as each locale bundle's "%%Parent") of the system ICU, as a sorted table.
//
// The shim used to read "%%Parent" at run time with ures_openDirect; a full test run once hung
// inside ICU 72's bundle cache while several threads opened bundles, so the shim now looks the
// parent up in this table and never opens a bundle itself. Run by tools/regenerate.sh:
//
//   clang++ -std=c++17 -o gen tools/icu/generate_locale_parents.cpp -licui18n -licuuc && ./gen > OUT
//
// Which names can have a "%%Parent": every installed locale bundle, and every alias bundle whose
// target has one (zh_MO -> zh_Hant_MO, whose parent is zh_Hant_HK). Alias names are not listed by
// ICU, so the generator also opens every language (ISO 639, the installed bundles' languages and
// the deprecated codes of ICU's alias metadata) with every ISO 3166 region and the installed
// language-script pairs with every region, and keeps what resolves to a parent.

#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/ures.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

namespace {

bool parentOf(const std::string &name, std::string &parent) {
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *bundle = ures_openDirect(nullptr, name.c_str(), &status);
    if (U_FAILURE(status)) return false;
    int32_t length = 0;
    UErrorCode keyStatus = U_ZERO_ERROR;
    const UChar *value = ures_getStringByKey(bundle, "%%Parent", &length, &keyStatus);
    bool found = U_SUCCESS(keyStatus) && length > 0 && length < ULOC_FULLNAME_CAPACITY;
    if (found) {
        char narrow[ULOC_FULLNAME_CAPACITY];
        u_UCharsToChars(value, narrow, length);
        parent.assign(narrow, static_cast<size_t>(length));
    }
    ures_close(bundle);
    return found;
}

std::string languageOf(const std::string &name) {
    char language[ULOC_LANG_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_getLanguage(name.c_str(), language, sizeof language, &status);
    return U_SUCCESS(status) ? std::string(language, static_cast<size_t>(length)) : std::string();
}

void fail(const char *what, UErrorCode status) {
    std::fprintf(stderr, "generate_locale_parents: %s: %s\n", what, u_errorName(status));
    std::exit(1);
}

} // namespace

int main() {
    UErrorCode status = U_ZERO_ERROR;
    std::set<std::string> installed;
    UEnumeration *names = ures_openAvailableLocales(nullptr, &status);
    if (U_FAILURE(status)) fail("installed locales", status);
    while (const char *name = uenum_next(names, nullptr, &status)) installed.insert(name);
    uenum_close(names);

    std::set<std::string> languages;
    for (const char *const *code = uloc_getISOLanguages(); *code != nullptr; ++code) languages.insert(*code);
    for (const std::string &name : installed) languages.insert(languageOf(name));
    UResourceBundle *metadata = ures_openDirect(nullptr, "metadata", &status);
    if (U_FAILURE(status)) fail("metadata", status);
    UResourceBundle *aliases = ures_getByKey(metadata, "alias", nullptr, &status);
    UResourceBundle *languageAliases = ures_getByKey(aliases, "language", nullptr, &status);
    if (U_FAILURE(status)) fail("language aliases", status);
    for (int32_t i = 0; i < ures_getSize(languageAliases); ++i) {
        UErrorCode itemStatus = U_ZERO_ERROR;
        UResourceBundle *item = ures_getByIndex(languageAliases, i, nullptr, &itemStatus);
        if (U_SUCCESS(itemStatus) && std::string(ures_getKey(item)).find('_') == std::string::npos) {
            languages.insert(ures_getKey(item));
        }
        ures_close(item);
    }
    ures_close(languageAliases);
    ures_close(aliases);
    ures_close(metadata);
    languages.erase("");

    std::set<std::string> candidates(installed);
    std::set<std::string> stems(languages);
    for (const std::string &name : installed) {
        char script[ULOC_SCRIPT_CAPACITY];
        UErrorCode partStatus = U_ZERO_ERROR;
        if (uloc_getScript(name.c_str(), script, sizeof script, &partStatus) > 0 && U_SUCCESS(partStatus)) {
            stems.insert(languageOf(name) + "_" + script);
        }
    }
    for (const std::string &stem : stems) {
        candidates.insert(stem);
        for (const char *const *region = uloc_getISOCountries(); *region != nullptr; ++region) {
            candidates.insert(stem + "_" + *region);
        }
        for (const char *region : {"001", "150", "419"}) candidates.insert(stem + "_" + region);
    }

    std::map<std::string, std::string> parents;
    for (const std::string &name : candidates) {
        std::string parent;
        if (parentOf(name, parent)) parents[name] = parent;
    }

    UVersionInfo icu;
    u_getVersion(icu);
    char icuVersion[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(icu, icuVersion);
    UVersionInfo cldr;
    status = U_ZERO_ERROR;
    ulocdata_getCLDRVersion(cldr, &status);
    char cldrVersion[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(cldr, cldrVersion);

    std::printf("// Generated by tools/icu/generate_locale_parents.cpp from the system ICU %s (Unicode CLDR %s).\n", icuVersion, cldrVersion);
    std::printf("// DO NOT EDIT. %zu locales with a CLDR parent locale, sorted by name (strcmp).\n", parents.size());
    std::printf("#pragma once\n\n");
    std::printf("namespace {\n\n");
    std::printf("struct LocaleParent {\n    const char *locale;\n    const char *parent;\n};\n\n");
    std::printf("constexpr LocaleParent kLocaleParents[] = {\n");
    for (const auto &[name, parent] : parents) std::printf("    {\"%s\", \"%s\"},\n", name.c_str(), parent.c_str());
    std::printf("};\n\n} // namespace\n");
    return 0;
}
