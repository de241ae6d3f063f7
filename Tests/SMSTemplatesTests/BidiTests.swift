import Testing
@testable import SMSTemplates

/// FSI…PDI isolates only where the bidi algorithm needs them, and right-to-left messages that
/// start with a right-to-left character.
@Suite struct BidiTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let locale: String
        let appName: String
        let isolated: Bool
        var testDescription: String { "\(locale) \(appName.debugDescription) \(isolated ? "isolated" : "bare")" }
        init(_ locale: String, _ appName: String, _ isolated: Bool) {
            self.locale = locale
            self.appName = appName
            self.isolated = isolated
        }
    }

    static let cases: [Case] = [
        // Right-to-left messages: a name bounded by letters of one direction is one run already.
        Case("ar", "Acme", false), Case("ar", "Acme Bank", false), Case("he", "Acme-Pay", false),
        Case("fa", "Café", false), Case("ar", "متجري", false), Case("he", "אקמה", false),
        Case("ar", "Acme 2", true), Case("ar", "2GIS", true), Case("he", "24", true), Case("fa", "(Acme)", true),
        Case("ar", "Acme!", true), Case("he", "Acme متجر", true), Case("ar", "متجر 24", true),
        Case("ur", "Acme", false), Case("ur", "Acme.", true),
        // Left-to-right messages: Latin and digit-only names never; any name with right-to-left
        // letters always (the colon and code after a Hebrew name join its run, UBA N1/I1; digits
        // after Arabic letters become Arabic numbers, W2).
        Case("en", "Acme", false), Case("en", "24", false), Case("de", "(Acme)", false),
        Case("en", "אקמה", true), Case("ru", "אקמה", true), Case("en", "אקמה 2", true), Case("en", "متجري", true),
        Case("fr", "Acme متجر", true), Case("en", "Café", false),
    ]

    @Test(arguments: cases)
    func isolatesOnlyWhereNeeded(_ test: Case) throws {
        let renderer = try SMSTemplateRenderer()
        let sms = try renderer.render(.verificationCode, locale: test.locale, code: "042917", appName: test.appName)
        let scalars = sms.text.unicodeScalars
        #expect(sms.text.contains("\u{2068}\(test.appName)\u{2069}") == test.isolated, "\(sms.text.debugDescription)")
        #expect(scalars.filter { $0 == "\u{2068}" }.count == (test.isolated ? 1 : 0))
        #expect(sms.diagnostics.contains { $0.code == .bidiIsolated } == test.isolated)
    }

    /// Every right-to-left message, bundled or custom, starts with a right-to-left letter (or an
    /// RLM), also when the app name is Latin: handsets lay a message out by its first strong letter.
    @Test(arguments: ["ar", "ar-MA", "fa", "he", "ur"])
    func rightToLeftMessagesStartRightToLeft(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        for id in MessageID.bundled {
            for name in ["Acme", "Acme 2", "متجري", "24"] {
                let sms = try renderer.render(id, locale: locale, code: "042917", appName: name, minutes: 5)
                #expect(_ICU.firstStrongDirection(sms.text) == .rightToLeft, "\(sms.text.debugDescription)")
            }
        }
    }

    @Test func customCatalogStartingWithTheNameGetsAMark() throws {
        let catalog = try TemplateCatalog(parsing: "verification_code = {appName}: رمز التحقق {code}", locale: "ar")
        let renderer = try SMSTemplateRenderer(catalogs: [catalog])
        let sms = try renderer.render(.verificationCode, locale: "ar", code: "042917", appName: "Acme")
        #expect(sms.text == "\u{200F}Acme: رمز التحقق 042917")
        #expect(sms.diagnostics.contains { $0.code == .rightToLeftMark })
        let arabic = try renderer.render(.verificationCode, locale: "ar", code: "042917", appName: "متجري")
        #expect(arabic.text == "متجري: رمز التحقق 042917")
        let never = try renderer.render(.verificationCode, locale: "ar", code: "042917", appName: "Acme",
                                        options: RenderOptions(bidiIsolation: .never))
        #expect(never.text == "Acme: رمز التحقق 042917")
        // Left-to-right messages never get a right-to-left mark.
        let english = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "متجري")
        #expect(!english.text.unicodeScalars.contains("\u{200F}"))
    }

    /// A left-to-right message that would start with right-to-left letters (the app name first)
    /// gets an LRM, so a handset that takes the direction from the first letter, isolates or not,
    /// lays it out left to right; one that starts with its own words or a Latin name gets none.
    @Test func leftToRightMessageStartingWithAHebrewNameGetsAMark() throws {
        let catalog = try TemplateCatalog(parsing: "verification_code = {appName}: your code is {code}", locale: "en")
        let renderer = try SMSTemplateRenderer(catalogs: [catalog])
        let hebrew = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "אקמה")
        #expect(hebrew.text == "\u{200E}\u{2068}אקמה\u{2069}: your code is 042917")
        #expect(hebrew.diagnostics.contains { $0.code == .leftToRightMark })
        #expect(_ICU.firstStrongDirection(hebrew.text) == .leftToRight)
        let latin = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "Acme")
        #expect(latin.text == "Acme: your code is 042917")
        #expect(!latin.diagnostics.contains { $0.code == .leftToRightMark })
        let never = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "אקמה",
                                        options: RenderOptions(bidiIsolation: .never))
        #expect(never.text == "אקמה: your code is 042917")
        // The bundled Russian message starts with its own words: the name is isolated, no mark.
        let russian = try SMSTemplateRenderer().render(.loginCode, locale: "ru", code: "042917", appName: "אקמה")
        #expect(russian.text.hasPrefix("Вход в \u{2068}אקמה\u{2069}: 042917"))
    }

    @Test func profileIgnoresCombiningMarks() {
        // "Café" with a combining acute accent still ends with a letter.
        let profile = _Bidi.profile("Cafe\u{301}")
        #expect(profile.startsStrong && profile.endsStrong && profile.hasLeftToRight && !profile.hasRightToLeft)
        let arabic = _Bidi.profile("مُتجرٌ")
        #expect(arabic.hasArabicLetter && arabic.endsStrong)
        #expect(!_Bidi.profile("").startsStrong)
    }
}
