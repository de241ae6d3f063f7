import CSMSKitICU

/// Which digits `{minutes}` and other numbers are written with. Internal: not API.
///
/// The digits follow the *requested* locale, region included (`ar-MA` → Latin, `ar-EG` →
/// Arabic-Indic), not the catalog's (`ar`), and the numbering system is pinned explicitly
/// (`@numbers=…` on the ICU locale every pattern is compiled for) from the table below rather than
/// taken from the host ICU's data, so the output is the same on any ICU from 70 on.
///
/// The table is CLDR 42's `defaultNumberingSystem` (ICU 72) for every locale whose default is not
/// `latn`, with one deliberate change: languages of India and Nepal written in Brahmic scripts
/// (`bn`, `as`, `mr`, `ne`, `mni`, `sa`, `bho`, `raj`, `bgc`) use Latin digits, because their
/// SMS, one-time-code messages above all, write numbers in ASCII next to the ASCII code; native
/// digits there look like a different number from the code. Arabic (`ar`, every region) takes
/// Latin digits for the same reason. Other Arabic-script languages, Burmese,
/// Dzongkha, Santali and Adlam Fula keep CLDR's native digits, which their messages use.
/// A caller who wants native digits asks for them with `-u-nu-` (`bn-u-nu-beng`); one who wants
/// Latin digits everywhere sets `RenderOptions.latinDigits` or `-u-nu-latn`.
enum _NumberingSystems {
    /// Keys: `language`, `language_Script` or `language_REGION` (most specific wins).
    static let table: [String: String] = [
        // Arabic: SMSKit's choice is latn everywhere (CLDR: arab outside the Maghreb and the UAE),
        // because Arabic one-time-code SMS, Gulf and Egyptian ones included, write the minutes in
        // the same Latin digits as the code beside them; `ar-u-nu-arab` still asks for arab.
        "ar": "latn",
        "ckb": "arab", "sd": "arab",
        "fa": "arabext", "ps": "arabext", "ks": "arabext", "lrc": "arabext", "mzn": "arabext",
        "pa_Arab": "arabext", "uz_Arab": "arabext", "ur_IN": "arabext",
        "my": "mymr", "dz": "tibt", "sat": "olck", "ccp": "cakm", "ff_Adlm": "adlm",
        // SMSKit's choice over CLDR's native digits (see above): bn, as, mni beng; mr, ne, sa, bho, raj, bgc deva.
        "bn": "latn", "as": "latn", "mni": "latn", "mr": "latn", "ne": "latn", "sa": "latn",
        "bho": "latn", "raj": "latn", "bgc": "latn",
    ]

    /// The pinned numbering system for an ICU locale ID (keywords ignored).
    static func system(forLocaleID id: String) -> String {
        let base = id.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = _ICU.subtags(String(base))
        let language = String(parts.language)
        var script = parts.script.map(String.init)
        if script == nil, let maximized = _ICU.addLikelySubtags(String(base)) {
            script = _ICU.subtags(maximized).script.map(String.init)
        }
        if let region = parts.region, let system = table[language + "_" + region] { return system }
        if let script, script != _LocaleKey.likelyScript(of: parts.language).map(String.init),
           let system = table[language + "_" + script] { return system }
        if let script, script != _LocaleKey.likelyScript(of: parts.language).map(String.init) {
            return "latn" // another script than the table's entry for the language (e.g. pa_Guru is latn anyway)
        }
        return table[language] ?? "latn"
    }

    /// Whether ICU can write numbers with this numbering system's ten digits.
    static func isDecimal(_ name: String) -> Bool {
        // BCP 47 type subtags: 3 to 8 lower-case letters or digits (and no NUL for the C call).
        guard (3...8).contains(name.utf8.count), name.utf8.allSatisfy({
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        }) else { return false }
        return smskit_icu_numbering_system_is_decimal(name) != 0
    }
}
