import Testing
@testable import SMSTemplates

@Suite struct LocaleResolutionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let requested: String
        let used: String
        let diagnostic: TemplateDiagnostic.Code?
        var testDescription: String { "\(requested.prefix(20)) → \(used)" }
    }

    static let cases: [Case] = [
        Case(requested: "en", used: "en", diagnostic: nil),
        Case(requested: "pt_BR", used: "pt-BR", diagnostic: nil),
        Case(requested: "pt-BR", used: "pt-BR", diagnostic: nil),
        Case(requested: "pt", used: "pt-BR", diagnostic: .parentLocale),        // CLDR: pt is Brazilian
        Case(requested: "pt-AO", used: "pt-PT", diagnostic: .parentLocale),     // CLDR parent, not truncation
        Case(requested: "pt-MZ", used: "pt-PT", diagnostic: .parentLocale),
        Case(requested: "es-MX", used: "es-419", diagnostic: .parentLocale),
        Case(requested: "es_AR", used: "es-419", diagnostic: .parentLocale),
        Case(requested: "es-ES", used: "es", diagnostic: .parentLocale),
        Case(requested: "zh-TW", used: "zh-Hant", diagnostic: .parentLocale),
        Case(requested: "zh-HK", used: "zh-Hant", diagnostic: .parentLocale),
        Case(requested: "zh-Hant-HK", used: "zh-Hant", diagnostic: .parentLocale),
        Case(requested: "zh-MO", used: "zh-Hant", diagnostic: .parentLocale),   // zh_Hant_MO → zh_Hant_HK → zh_Hant
        Case(requested: "zh-CN", used: "zh-Hans", diagnostic: .parentLocale),
        Case(requested: "zh", used: "zh-Hans", diagnostic: nil),
        Case(requested: "zh-SG", used: "zh-Hans", diagnostic: .parentLocale),
        Case(requested: "iw", used: "he", diagnostic: .localeCanonicalized),
        Case(requested: "iw-IL", used: "he", diagnostic: .localeCanonicalized),
        Case(requested: "in", used: "id", diagnostic: .localeCanonicalized),
        Case(requested: "tl", used: "fil", diagnostic: .localeCanonicalized),
        Case(requested: "EN-us", used: "en", diagnostic: .parentLocale),
        Case(requested: "en-IN", used: "en", diagnostic: .parentLocale),       // en_IN → en_001 → en
        Case(requested: "ar-EG", used: "ar", diagnostic: .parentLocale),
        Case(requested: "fr-CA", used: "fr", diagnostic: .parentLocale),
        Case(requested: "de-AT", used: "de", diagnostic: .parentLocale),
        Case(requested: "sr-Latn", used: "sr-Latn", diagnostic: nil),
        Case(requested: "sr-Latn-ME", used: "sr-Latn", diagnostic: .parentLocale),
        Case(requested: "sh", used: "sr-Latn", diagnostic: .localeCanonicalized),
        Case(requested: "sr-RS", used: "sr", diagnostic: .parentLocale),
        Case(requested: "sw-KE", used: "sw", diagnostic: .parentLocale),
        Case(requested: "ms-MY", used: "ms", diagnostic: .parentLocale),
        Case(requested: "", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "garbage!!", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "und", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "x-private", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: String(repeating: "a", count: 10_240), used: "en", diagnostic: .localeNotRecognized),
        Case(requested: String(repeating: "en-", count: 3_413) + "x", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "en\u{0}US", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "😀", used: "en", diagnostic: .localeNotRecognized),
        Case(requested: "qq", used: "en", diagnostic: .defaultLocale),          // well-formed, unknown language
    ]

    @Test(arguments: cases)
    func resolves(_ test: Case) throws {
        let renderer = try SMSTemplateRenderer()
        let resolution = renderer.resolveLocale(test.requested)
        #expect(resolution.locale == test.used)
        if let code = test.diagnostic {
            #expect(resolution.diagnostics.contains { $0.code == code }, "\(resolution.diagnostics)")
        } else {
            #expect(resolution.diagnostics.isEmpty, "\(resolution.diagnostics)")
        }
        #expect(resolution.requested.unicodeScalars.count <= 65)
        // Rendering takes the same path and never fails for a locale.
        let sms = try renderer.render(.verificationCode, locale: test.requested, code: "123456", appName: "Acme")
        #expect(sms.locale == test.used)
    }

    /// `und` is a well-formed tag that names no language: the warning says so, not that it is invalid.
    @Test(arguments: ["und", "UND"])
    func undeterminedLanguageIsExplained(_ tag: String) throws {
        let renderer = try SMSTemplateRenderer()
        let resolution = renderer.resolveLocale(tag)
        #expect(resolution.locale == "en")
        let warning = try #require(resolution.diagnostics.first { $0.code == .localeNotRecognized })
        #expect(warning.message.contains("undetermined language"), "\(warning.message)")
        #expect(!warning.message.contains("not a BCP 47"))
    }

    @Test func chainFollowsCLDRParentsNotTruncation() throws {
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale("es-MX").chain == ["es-MX", "es-419", "es"])
        #expect(renderer.resolveLocale("pt-AO").chain == ["pt-AO", "pt-PT", "pt"])
        #expect(renderer.resolveLocale("zh-TW").chain == ["zh-Hant-TW", "zh-Hant"])
        #expect(renderer.resolveLocale("zh-Hant-HK").chain == ["zh-Hant-HK", "zh-Hant"])
        #expect(renderer.resolveLocale("sr-Latn").chain == ["sr-Latn", "sr-Latn-RS"])
        // The likely region's key comes before the parents CLDR gives the script variant.
        #expect(renderer.resolveLocale("hi-Latn").chain == ["hi-Latn", "hi-Latn-IN", "en-IN", "en-001", "en"])
        #expect(renderer.resolveLocale("iw").canonical == "he")
        #expect(renderer.resolveLocale("pt_BR").canonical == "pt-BR")
    }

    @Test func defaultLocaleIsConfigurable() throws {
        let renderer = try SMSTemplateRenderer(defaultLocale: "fr")
        let sms = try renderer.render(.verificationCode, locale: "qq", code: "1234", appName: "Acme")
        #expect(sms.locale == "fr")
        #expect(sms.diagnostics.contains { $0.code == .defaultLocale && $0.severity == .warning })
        #expect(throws: TemplateError.self) { try SMSTemplateRenderer(defaultLocale: "qq") }
        #expect(throws: TemplateError.self) { try SMSTemplateRenderer(defaultLocale: "!!") }
    }

    @Test func numberingKeywordInTheRequest() throws {
        let renderer = try SMSTemplateRenderer()
        let latin = try renderer.render(.verificationCodeWithExpiry, locale: "ar-u-nu-latn", code: "1", appName: "A", minutes: 5)
        #expect(latin.text.contains("5 دقائق"))
        let other = try renderer.render(.verificationCodeWithExpiry, locale: "en-u-nu-roman", code: "1", appName: "A", minutes: 5)
        #expect(other.text.contains("5 minutes"))
        #expect(other.diagnostics.contains { $0.code == .numberingSystemIgnored })
    }
}
