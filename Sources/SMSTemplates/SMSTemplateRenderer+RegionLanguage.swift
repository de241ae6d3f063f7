extension SMSTemplateRenderer {
    /// The language to write to a phone number's region in, as a BCP 47 tag, from CLDR's likely
    /// subtags through ICU.
    ///
    /// Use it when the caller gives no language code: pass the region of the recipient's number
    /// (from `PhoneNumbers`) and render with the tag it returns. A language code the caller gives
    /// always wins over this guess.
    ///
    /// ```swift
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "BR")  // "pt-BR"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "EG")  // "ar-EG"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "TR")  // "tr"
    /// SMSTemplateRenderer.defaultLanguageCode(forRegion: "ZZ")  // nil
    /// ```
    ///
    /// The language is CLDR's likely language for `und-REGION` (ICU's `uloc_addLikelySubtags`).
    /// The tag keeps the region when the language is the likely language of more than one region,
    /// because the region then picks a variant or the digits (`pt-BR` and `pt-PT`, `ar-EG` with
    /// Arabic-Indic digits and `ar-MA` with Latin ones, `es-MX` and `es-ES`); it is just the
    /// language when the region is the only one (`tr`, `ja`, `hi`, `uk`). A script is kept when it
    /// is not the language's default (`und-TW` → `zh-Hant-TW`, `und-ME` → `sr-Latn`).
    ///
    /// Multilingual regions get one language, the one CLDR ranks first by population of
    /// speakers, not necessarily the one your users read:
    ///
    /// | Region | CLDR picks | Also widely used |
    /// |---|---|---|
    /// | IN | `hi` | en, bn, te, mr, ta, ur, gu, kn, ml, pa |
    /// | CH | `de-CH` | fr, it |
    /// | BE | `nl-BE` | fr, de |
    /// | CA | `en-CA` | fr (Québec) |
    /// | ES | `es-ES` | ca, gl, eu |
    /// | LU | `fr-LU` | lb, de |
    /// | SG | `en-SG` | zh-Hans, ms, ta |
    /// | ZA | `en-ZA` | zu, xh, af |
    /// | NG | `en-NG` | ha, yo, ig |
    /// | KE | `sw-KE` | en |
    /// | PH | `fil` | en |
    /// | PK | `ur` | en |
    /// | MA, DZ, TN | `ar-MA`, `ar-DZ`, `ar-TN` | fr |
    /// | HK | `zh-Hant-HK` | en |
    /// | IL | `he` | ar |
    /// | NO | `nb-NO` | nn |
    ///
    /// When the number's region is one of these, prefer a language the user chose.
    ///
    /// - Parameter region: An ISO 3166-1 alpha-2 region code, any case (`"BR"`, `"br"`).
    /// - Returns: A BCP 47 tag that `render(_:locale:...)` resolves, or nil when the region is not
    ///   a current ISO 3166-1 code ICU knows, or CLDR has no language for it (`AQ`, `BV`, `HM`).
    /// - Complexity: O(1) after the first call, which reads ICU's likely subtags for every region.
    public static func defaultLanguageCode(forRegion region: String) -> String? {
        let utf8 = region.utf8
        guard utf8.count == 2, utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else {
            return nil
        }
        return regionLanguages[region.uppercased()]
    }

    /// Region code → language tag, for every current ISO region with a CLDR likely language.
    static let regionLanguages: [String: String] = {
        var likely: [(region: String, key: String)] = []
        for region in _ICU.isoRegions() {
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
