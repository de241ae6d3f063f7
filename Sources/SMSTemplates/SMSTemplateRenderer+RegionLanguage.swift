extension SMSTemplateRenderer {
    /// The language to write to a phone number's region in, as a BCP 47 tag: the language its
    /// SMS are commonly sent in, from SMSKit's table of exceptions, else CLDR's likely subtags
    /// through ICU.
    ///
    /// Use it when the caller gives no language code: pass the region of the recipient's number
    /// (from `PhoneNumbers`) and render with the tag it returns. A language code the caller gives
    /// (`smskit render --lang`, a verification's language) always wins over this guess.
    ///
    /// ```swift
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "BR")  // "pt-BR"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "IN")  // "en-IN"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "CD")  // "fr-CD"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "ZZ")  // nil
    /// ```
    ///
    /// CLDR's likely language is the language most people *speak*, which is not always the one
    /// SMS, one-time codes above all, are written in: most Indians do not read Hindi and Indian
    /// banks send English; French, not Swahili, is written across the DRC. ``smsLanguageExceptions``
    /// lists every region where SMSKit departs from CLDR, each with its reason (the catalog docs,
    /// `Resources/Catalogs/README.md`, carry the same table). For every other region the language
    /// is CLDR's likely language for `und-REGION` (ICU's `uloc_addLikelySubtags`).
    ///
    /// The tag keeps the region when the language is the likely language of more than one region,
    /// because the region then picks a variant or the digits (`pt-BR` and `pt-PT`, `es-MX` and
    /// `es-ES`, `en-IN`); it is just the language when the region is the only one (`tr`, `ja`,
    /// `uk`). A script is kept when it is not the language's default (`und-TW` → `zh-Hant-TW`,
    /// `RS` → `sr-Latn-RS`).
    ///
    /// - Parameter region: An ISO 3166-1 alpha-2 region code, any case (`"BR"`, `"br"`).
    /// - Returns: A BCP 47 tag that `render(_:locale:...)` resolves, or nil when the region is not
    ///   a current ISO 3166-1 code ICU knows, or neither SMSKit nor CLDR has a language for it
    ///   (`AQ`, `BV`, `HM`).
    /// - Complexity: O(1) after the first call, which reads ICU's likely subtags for every region.
    public static func defaultLanguageCode(forRegion region: String) -> String? {
        let utf8 = region.utf8
        guard utf8.count == 2, utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else {
            return nil
        }
        return regionLanguages[region.uppercased()]
    }

    /// The regions whose SMS language is not CLDR's likely language: region → (ICU locale ID of
    /// the language, without the region; why). Reviewed for every region whose likely language is
    /// not the one its SMS are commonly sent in; see `Resources/Catalogs/README.md`. BY needs no
    /// entry: CLDR's `be` has a catalog (before it had one, BY got the English fallback).
    public static let smsLanguageExceptions: [String: (language: String, reason: String)] = [
        "IN": ("en", "most Indians do not read Hindi; Indian banks and apps send one-time codes in English"),
        "PK": ("en", "Pakistani banks and apps send one-time codes in English; Urdu script is read by fewer and is UCS-2"),
        "CD": ("fr", "French is the written language across the DRC; Swahili is spoken in the east only"),
        "AE": ("en", "about nine in ten residents are expatriates who do not read Arabic; UAE banks send English"),
        "RS": ("sr_Latn", "Serbian SMS are written in Latin script far more often than in Cyrillic"),
        "KE": ("en", "Kenyan banks and mobile money send English; CLDR ranks Swahili first by speakers"),
        "UG": ("en", "English is the written language of Uganda; few read Swahili"),
        "PH": ("en", "Philippine banks and apps send one-time codes in English"),
        "NA": ("en", "English is Namibia's official and written language; CLDR ranks Afrikaans first"),
        "NE": ("fr", "French is Niger's written language; Hausa is spoken far more than it is read in SMS"),
        "ML": ("fr", "French is Mali's written language; SMSKit has no Bambara catalog"),
        "DJ": ("fr", "French is Djibouti's written language; SMSKit has no Afar catalog"),
        "BI": ("fr", "French is Burundi's written language of business; SMSKit has no Kirundi catalog"),
        "KM": ("fr", "French is the written language of Comoros SMS; Comorian is rarely written"),
        "SC": ("en", "English is the language of business in Seychelles"),
        "GH": ("en", "English is Ghana's written language; SMSKit has no Akan catalog"),
        "LS": ("en", "English is Lesotho's written language of business; SMSKit has no Sesotho catalog"),
        "ZW": ("en", "English is Zimbabwe's written language; SMSKit has no Shona catalog"),
        "MT": ("en", "Maltese SMS from banks and apps are mostly English; SMSKit has no Maltese catalog"),
        "MU": ("en", "English is Mauritius's written official language; SMSKit has no Morisien catalog"),
        "MV": ("en", "Maldivian banks send English; SMSKit has no Dhivehi catalog"),
        "BT": ("en", "English is Bhutan's written language of business; SMSKit has no Dzongkha catalog"),
        "PG": ("en", "English is the written language of Papua New Guinea; SMSKit has no Tok Pisin catalog"),
        "VU": ("en", "English is a written official language of Vanuatu; SMSKit has no Bislama catalog"),
        "WS": ("en", "Samoan SMS from banks and apps are mostly English; SMSKit has no Samoan catalog"),
        "AS": ("en", "English is American Samoa's written official language"),
        "TO": ("en", "Tongan SMS from banks and apps are mostly English; SMSKit has no Tongan catalog"),
        "PY": ("es", "Spanish is Paraguay's written language; Guarani is mostly spoken"),
        "GL": ("da", "Danish is read by Greenlanders; SMSKit has no Greenlandic catalog"),
        "FO": ("da", "Danish is read by Faroese; SMSKit has no Faroese catalog"),
        "CW": ("nl", "Dutch is Curaçao's written official language; SMSKit has no Papiamentu catalog"),
        "BQ": ("nl", "Dutch is the written official language of the Caribbean Netherlands"),
    ]

    /// Region code → language tag, for every current ISO region with an SMS language.
    static let regionLanguages: [String: String] = {
        var likely: [(region: String, key: String)] = []
        for region in _ICU.isoRegions() {
            if let exception = smsLanguageExceptions[region] {
                likely.append((region, exception.language))
                continue
            }
            guard let maximized = _ICU.addLikelySubtags("und_" + region) else { continue }
            let parts = _ICU.subtags(maximized)
            guard !parts.language.isEmpty, parts.language != "und", parts.region.map(String.init) == region else { continue }
            var key = String(parts.language)
            if let script = parts.script, script != _LocaleKey.likelyScript(of: parts.language) { key += "_" + script }
            likely.append((region, key))
        }
        var regionsPerKey: [String: Int] = [:]
        for entry in likely { regionsPerKey[entry.key, default: 0] += 1 }
        var table: [String: String] = [:]
        for entry in likely {
            let id = regionsPerKey[entry.key, default: 0] > 1 ? entry.key + "_" + entry.region : entry.key
            if let tag = _ICU.languageTag(id) { table[entry.region] = tag }
        }
        return table
    }()
}
