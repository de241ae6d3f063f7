import Testing
@testable import SMSTemplates

@Suite struct RegionLanguageTests {
    /// Region → (expected tag, the catalog it renders with). CLDR's likely subtags via ICU 72–78.
    static let cases: [(region: String, tag: String, catalog: String)] = [
        ("BR", "pt-BR", "pt-BR"), ("PT", "pt-PT", "pt-PT"), ("AO", "pt-AO", "pt-PT"),
        ("EG", "ar-EG", "ar"), ("MA", "ar-MA", "ar"), ("SA", "ar-SA", "ar"),
        ("TR", "tr", "tr"), ("JP", "ja", "ja"), ("UA", "uk", "uk"), ("IN", "en-IN", "en"),
        ("MX", "es-MX", "es-419"), ("ES", "es-ES", "es"), ("AR", "es-AR", "es-419"),
        ("DE", "de-DE", "de"), ("CH", "de-CH", "de"), ("AT", "de-AT", "de"),
        ("BE", "nl-BE", "nl"), ("CA", "en-CA", "en"), ("US", "en-US", "en"), ("GB", "en-GB", "en"),
        ("FR", "fr-FR", "fr"), ("LU", "fr-LU", "fr"),
        ("CN", "zh", "zh-Hans"), ("TW", "zh-Hant-TW", "zh-Hant"), ("HK", "zh-Hant-HK", "zh-Hant"),
        ("IL", "he", "he"), ("IR", "fa-IR", "fa"), ("PK", "en-PK", "en"), ("PH", "en-PH", "en"),
        ("KE", "en-KE", "en"), ("TZ", "sw", "sw"), ("ID", "id", "id"), ("VN", "vi", "vi"),
        ("TH", "th", "th"), ("KR", "ko-KR", "ko"), ("RU", "ru-RU", "ru"), ("PL", "pl", "pl"),
        ("BD", "bn", "bn"),
        // SMSKit's exceptions to CLDR (SMSTemplateRenderer.smsLanguageExceptions).
        ("CD", "fr-CD", "fr"), ("BY", "be", "be"), ("AE", "en-AE", "en"), ("RS", "sr-Latn-RS", "sr-Latn"),
        ("ME", "sr-Latn-ME", "sr-Latn"), ("UG", "en-UG", "en"), ("NA", "en-NA", "en"), ("ML", "fr-ML", "fr"),
        ("PY", "es-PY", "es-419"), ("GL", "da-GL", "da"),
        // The second pass's languages, from CLDR.
        ("TJ", "tg", "tg"), ("TM", "tk", "tk"), ("MN", "mn", "mn"), ("SO", "so", "so"), ("IS", "is", "is"),
        ("HT", "ht", "ht"), ("MG", "mg", "mg"), ("ER", "ti", "ti"),
    ]

    @Test(arguments: cases)
    func regionLanguage(_ row: (region: String, tag: String, catalog: String)) throws {
        #expect(SMSTemplateRenderer.defaultLanguageCode(forRegion: row.region) == row.tag)
        #expect(SMSTemplateRenderer.defaultLanguageCode(forRegion: row.region.lowercased()) == row.tag)
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale(row.tag).locale == row.catalog)
    }

    /// Every exception names a language SMSKit has a catalog for, gives its reason, and differs
    /// from CLDR's likely language, so the table holds only real decisions.
    @Test func exceptionsAreRealDecisions() throws {
        let renderer = try SMSTemplateRenderer()
        #expect(SMSTemplateRenderer.smsLanguageExceptions.count >= 6)
        for (region, exception) in SMSTemplateRenderer.smsLanguageExceptions {
            #expect(exception.reason.count > 20, "\(region)")
            let tag = try #require(SMSTemplateRenderer.defaultLanguageCode(forRegion: region), "\(region)")
            let resolution = renderer.resolveLocale(tag)
            #expect(!resolution.diagnostics.contains { $0.code == .defaultLocale }, "\(region) → \(tag) has no catalog")
            let likely = try #require(_ICU.addLikelySubtags("und_" + region))
            let cldr = String(_ICU.subtags(likely).language)
            let ours = String(_ICU.subtags(exception.language).language)
            let ourScript = _ICU.subtags(exception.language).script.map(String.init)
            #expect(cldr != ours || (ourScript != nil && ourScript != _ICU.subtags(likely).script.map(String.init)),
                    "\(region): CLDR already says \(likely)")
        }
    }

    /// Every region in the table gives a tag the renderer can canonicalize.
    @Test func everyKnownRegionGivesAWellFormedTag() throws {
        let renderer = try SMSTemplateRenderer()
        #expect(SMSTemplateRenderer.regionLanguages.count > 230)
        for (region, tag) in SMSTemplateRenderer.regionLanguages {
            let resolution = renderer.resolveLocale(tag)
            #expect(resolution.canonical != nil, "\(region) → \(tag)")
        }
    }

    @Test(arguments: ["", "B", "BRA", "ZZ", "QQ", "XX", "001", "AQ", "BV", "HM", "YU", "UK", "b1", "é1", "ÉG",
                      String(repeating: "A", count: 10_000), "\u{0}B"])
    func unknownRegions(_ region: String) {
        #expect(SMSTemplateRenderer.defaultLanguageCode(forRegion: region) == nil)
    }
}
