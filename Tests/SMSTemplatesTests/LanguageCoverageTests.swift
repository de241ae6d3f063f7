import Testing
@testable import SMSTemplates

/// Which languages the bundled catalogs serve: at least 60, a superset of the language lists of
/// Twilio Verify's default templates and WhatsApp's message templates, and every language a review
/// asks for, each with its own catalog.
@Suite struct LanguageCoverageTests {
    /// The languages a review asked for (sr twice: Cyrillic as `sr`, Latin as `sr-Latn`).
    static let requestedLanguages = [
        "af", "am", "as", "az", "bg", "bs", "ca", "cs", "da", "el", "et", "fi", "gu", "ha", "hr", "hu",
        "hy", "ig", "ka", "kk", "km", "kn", "lo", "lt", "lv", "mk", "ml", "my", "nb", "ne", "or", "pa",
        "ps", "ro", "si", "sk", "sl", "sq", "sr", "sr-Latn", "sv", "uz", "yo", "zu",
    ]

    /// Request tags from the two services' published lists, as a caller would pass them, and the
    /// catalog each must get (never the English fallback). Twilio Verify's `tl` is ICU's alias
    /// of `fil`.
    static let servicesTags: [(tag: String, catalog: String)] = [
        // Twilio Verify
        ("af", "af"), ("ar", "ar"), ("ca", "ca"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-HK", "zh-Hant"),
        ("hr", "hr"), ("cs", "cs"), ("da", "da"), ("nl", "nl"), ("en", "en"), ("en-GB", "en"), ("et", "et"),
        ("fi", "fi"), ("fr", "fr"), ("de", "de"), ("el", "el"), ("he", "he"), ("hi", "hi"), ("hu", "hu"),
        ("id", "id"), ("it", "it"), ("ja", "ja"), ("kn", "kn"), ("ko", "ko"), ("lt", "lt"), ("ms", "ms"),
        ("mr", "mr"), ("nb", "nb"), ("pl", "pl"), ("pt-BR", "pt-BR"), ("pt", "pt-BR"), ("ro", "ro"), ("ru", "ru"),
        ("sk", "sk"), ("es", "es"), ("sv", "sv"), ("tl", "fil"), ("te", "te"), ("th", "th"), ("tr", "tr"),
        ("uk", "uk"), ("vi", "vi"), ("bn", "bn"), ("gu", "gu"), ("ml", "ml"), ("pa", "pa"), ("ta", "ta"), ("ur", "ur"),
        // WhatsApp message templates
        ("sq", "sq"), ("az", "az"), ("bg", "bg"), ("zh_CN", "zh-Hans"), ("zh_HK", "zh-Hant"), ("zh_TW", "zh-Hant"),
        ("en_US", "en"), ("fil", "fil"), ("ka", "ka"), ("ha", "ha"), ("ga", "ga"), ("kk", "kk"), ("rw_RW", "rw"),
        ("ky_KG", "ky"), ("lo", "lo"), ("lv", "lv"), ("mk", "mk"), ("fa", "fa"), ("pt_PT", "pt-PT"), ("sr", "sr"),
        ("sl", "sl"), ("es_AR", "es-419"), ("es_ES", "es"), ("es_MX", "es-419"), ("sw", "sw"), ("uz", "uz"), ("zu", "zu"),
    ]

    /// The languages of the second pass, in which SMS are really sent: each has its own catalog,
    /// the plural categories CLDR gives it (ICU 72) and the digits SMSKit writes its minutes in.
    static let secondPass: [(locale: String, plurals: [String], digits: String, five: String)] = [
        ("be", ["few", "many", "one", "other"], "latn", "5"), ("so", ["one", "other"], "latn", "5"),
        ("om", ["one", "other"], "latn", "5"), ("ku", ["one", "other"], "latn", "5"),
        ("ckb", ["one", "other"], "arab", "٥"), ("mn", ["one", "other"], "latn", "5"),
        ("mg", ["one", "other"], "latn", "5"), ("ht", ["other"], "latn", "5"),
        ("ti", ["one", "other"], "latn", "5"), ("tg", ["other"], "latn", "5"),
        ("tk", ["one", "other"], "latn", "5"), ("sd", ["one", "other"], "arab", "٥"),
        ("cy", ["few", "many", "one", "other", "two", "zero"], "latn", "5"), ("is", ["one", "other"], "latn", "5"),
    ]

    @Test func atLeastEightySevenLanguages() {
        let languages = Set(SMSTemplateRenderer.bundledLocales.map { $0.split(separator: "-")[0] })
        #expect(languages.count >= 87, "\(languages.count) languages: \(languages.sorted())")
    }

    @Test(arguments: secondPass)
    func secondPassLanguages(_ row: (locale: String, plurals: [String], digits: String, five: String)) throws {
        #expect(SMSTemplateRenderer.bundledLocales.contains(row.locale))
        let renderer = try SMSTemplateRenderer()
        let resolution = renderer.resolveLocale(row.locale, for: .verificationCodeWithExpiry)
        #expect(resolution.locale == row.locale)
        #expect(resolution.numberingSystem == row.digits)
        let id = try #require(_ICU.canonicalize(row.locale))
        #expect(_ICU.pluralCategories(id, ordinal: false)?.sorted() == row.plurals.sorted())
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: row.locale, code: "042917", appName: "Acme", minutes: 5)
        #expect(sms.text.contains(row.five), "\(sms.text)")
        #expect(sms.text.contains("042917"))
    }

    @Test func atLeastSixtyLanguages() {
        let languages = Set(SMSTemplateRenderer.bundledLocales.map { $0.split(separator: "-")[0] })
        #expect(languages.count >= 60, "\(languages.count) languages: \(languages.sorted())")
    }

    @Test(arguments: requestedLanguages)
    func everyLanguageOfTheIssueHasItsOwnCatalog(locale: String) throws {
        #expect(SMSTemplateRenderer.bundledLocales.contains(locale))
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale(locale).locale == locale)
    }

    @Test func theServicesListsAreCovered() throws {
        let renderer = try SMSTemplateRenderer()
        for (tag, catalog) in Self.servicesTags {
            for id in MessageID.bundled {
                #expect(renderer.resolveLocale(tag, for: id).locale == catalog, "\(tag) \(id)")
            }
        }
    }

    /// Serbian in both scripts: the tag picks the script, and the default script is Cyrillic.
    @Test func serbianScripts() throws {
        let renderer = try SMSTemplateRenderer()
        #expect(renderer.resolveLocale("sr").locale == "sr")
        #expect(renderer.resolveLocale("sr-RS").locale == "sr")
        #expect(renderer.resolveLocale("sr-Cyrl").locale == "sr")
        #expect(renderer.resolveLocale("sr-Latn").locale == "sr-Latn")
        #expect(renderer.resolveLocale("sr-Latn-RS").locale == "sr-Latn")
        let latin = try renderer.render(.loginCode, locale: "sr-Latn-ME", code: "042917", appName: "Acme")
        #expect(latin.text == "Acme kod za prijavu: 042917. Ne delite ga ni sa kim.")
        let cyrillic = try renderer.render(.loginCode, locale: "sr-RS", code: "042917", appName: "Acme")
        #expect(cyrillic.text == "Acme пријава: 042917. Никоме га не дајте")
    }
}
