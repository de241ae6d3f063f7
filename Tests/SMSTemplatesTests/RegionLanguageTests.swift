import Testing
@testable import SMSTemplates

@Suite struct RegionLanguageTests {
    /// Region → (expected tag, the catalog it renders with). CLDR's likely subtags via ICU 72–78.
    static let cases: [(region: String, tag: String, catalog: String)] = [
        ("BR", "pt-BR", "pt-BR"), ("PT", "pt-PT", "pt-PT"), ("AO", "pt-AO", "pt-PT"),
        ("EG", "ar-EG", "ar"), ("MA", "ar-MA", "ar"), ("SA", "ar-SA", "ar"),
        ("TR", "tr", "tr"), ("JP", "ja", "ja"), ("UA", "uk", "uk"), ("IN", "hi", "hi"),
        ("MX", "es-MX", "es-419"), ("ES", "es-ES", "es"), ("AR", "es-AR", "es-419"),
        ("DE", "de-DE", "de"), ("CH", "de-CH", "de"), ("AT", "de-AT", "de"),
        ("BE", "nl-BE", "nl"), ("CA", "en-CA", "en"), ("US", "en-US", "en"), ("GB", "en-GB", "en"),
        ("FR", "fr-FR", "fr"), ("LU", "fr-LU", "fr"),
        ("CN", "zh", "zh-Hans"), ("TW", "zh-Hant-TW", "zh-Hant"), ("HK", "zh-Hant-HK", "zh-Hant"),
        ("IL", "he", "he"), ("IR", "fa-IR", "fa"), ("PK", "ur", "ur"), ("PH", "fil", "fil"),
        ("KE", "sw-KE", "sw"), ("TZ", "sw-TZ", "sw"), ("ID", "id", "id"), ("VN", "vi", "vi"),
        ("TH", "th", "th"), ("KR", "ko-KR", "ko"), ("RU", "ru-RU", "ru"), ("PL", "pl", "pl"),
        ("BD", "bn", "bn"),
    ]

    @Test(arguments: cases)
    func regionLanguage(_ row: (region: String, tag: String, catalog: String)) throws {
        #expect(SMSTemplateRenderer.defaultLanguageCode(forRegion: row.region) == row.tag)
        #expect(SMSTemplateRenderer.defaultLanguageCode(forRegion: row.region.lowercased()) == row.tag)
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale(row.tag).locale == row.catalog)
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
