import Testing
@testable import SMSTemplates

/// Fallbacks beyond CLDR's parent chain: Norwegian, Cantonese, Serbian's two scripts.
@Suite struct LanguageFallbackTests {
    /// Custom catalogs for locales the bundle may or may not have, so the table holds whatever
    /// the bundled set is. Each catalog's text names its locale.
    static func renderer() throws -> SMSTemplateRenderer {
        let catalogs = try ["nb", "sr", "sr-Latn", "zh-Hant", "zh-Hans"].map { locale in
            try TemplateCatalog(parsing: "verification_code = \(locale) {appName} {code}", locale: locale, file: "\(locale).txt")
        }
        return try SMSTemplateRenderer(catalogs: catalogs)
    }

    static let cases: [(requested: String, catalog: String)] = [
        ("nb", "nb"), ("nb-NO", "nb"), ("no", "nb"), ("no-NO", "nb"), ("nn", "nb"), ("nn-NO", "nb"), ("NO_no", "nb"),
        ("nb-SJ", "nb"),
        ("yue", "zh-Hant"), ("yue-HK", "zh-Hant"), ("yue-Hant", "zh-Hant"), ("yue-MO", "zh-Hant"), ("zh-yue", "zh-Hant"),
        ("yue-Hans", "zh-Hans"), ("yue-CN", "zh-Hans"),
        ("sr", "sr"), ("sr-RS", "sr"), ("sr-Cyrl", "sr"), ("sr-Cyrl-RS", "sr"), ("sr-Cyrl-BA", "sr"),
        ("sr-Latn", "sr-Latn"), ("sr-Latn-RS", "sr-Latn"), ("sr-Latn-BA", "sr-Latn"), ("sr-Latn-ME", "sr-Latn"),
        ("sr-ME", "sr-Latn"), ("sh", "sr-Latn"),
    ]

    @Test(arguments: cases)
    func fallback(_ row: (requested: String, catalog: String)) throws {
        let renderer = try Self.renderer()
        let sms = try renderer.render(.verificationCode, locale: row.requested, code: "1", appName: "A")
        #expect(sms.locale == row.catalog)
        #expect(sms.text == "\(row.catalog) A 1")
        #expect(!sms.diagnostics.contains { $0.code == .defaultLocale })
    }

    /// The bundled zh-Hant serves Cantonese without any custom catalog.
    @Test func cantoneseUsesBundledTraditionalChinese() throws {
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale("yue-HK").locale == "zh-Hant")
        #expect(renderer.resolveLocale("yue").locale == "zh-Hant")
    }

    /// One step up the parent chain: CLDR's parentLocales from the table generated from ICU's
    /// data (tools/icu/generate_locale_parents.cpp), including an alias bundle's (zh_MO), and
    /// truncation for the rest, from many threads at once (the shim opens no bundle any more).
    @Test func parentLocales() async {
        let expected: [(String, String)] = [
            ("en_AU", "en_001"), ("en_001", "en"), ("en_150", "en_001"), ("es_MX", "es_419"), ("es_419", "es"),
            ("pt_AO", "pt_PT"), ("pt_PT", "pt"), ("zh_Hant_MO", "zh_Hant_HK"), ("zh_MO", "zh_Hant_HK"),
            ("zh_Hant", "root"), ("sr_Latn", "root"), ("sr_Cyrl", "sr"), ("de_AT", "de"), ("en", "root"),
            ("xx_YY", "xx"), ("root", "root"),
        ]
        await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { expected.map { _ICU.parent($0.0) ?? "nil" } }
            }
            for await parents in group {
                #expect(parents == expected.map(\.1))
            }
        }
    }

    /// ICU's data has alias cycles (no_NO); resolution must end, whatever the tag.
    @Test(arguments: ["no-NO", "no", "nn-NO", "nb-NO", "no-SJ", "sh-RS", "sr-Cyrl-ME", "zh-min-nan", "art-lojban",
                      "cmn-Hant-TW", "yue-Hans-HK", "mo", "iw-IL-u-nu-arab"])
    func resolutionEnds(_ tag: String) throws {
        let renderer = try SMSTemplateRenderer()
        let resolution = renderer.resolveLocale(tag)
        #expect(resolution.chain.count <= 14)
    }
}
