import CSMSKitICU
import SMSEncoding
import Testing
@testable import SMSTemplates

@Suite struct RenderingTests {
    let renderer: SMSTemplateRenderer

    init() throws { renderer = try SMSTemplateRenderer() }

    // MARK: Plurals and numbers through ICU

    struct PluralCase: CustomTestStringConvertible, Sendable {
        let locale: String
        let minutes: Int
        let latinDigits: Bool
        let expected: String
        var testDescription: String { "\(locale) \(minutes)\(latinDigits ? " latn" : "")" }
    }

    static let pluralCases: [PluralCase] = [
        PluralCase(locale: "en", minutes: 1, latinDigits: false, expected: "expires in 1 minute."),
        PluralCase(locale: "en", minutes: 5, latinDigits: false, expected: "expires in 5 minutes."),
        PluralCase(locale: "ru", minutes: 1, latinDigits: false, expected: "действует 1 минуту"),
        PluralCase(locale: "ru", minutes: 3, latinDigits: false, expected: "действует 3 минуты"),
        PluralCase(locale: "ru", minutes: 5, latinDigits: false, expected: "действует 5 минут"),
        PluralCase(locale: "ru", minutes: 21, latinDigits: false, expected: "действует 21 минуту"),
        PluralCase(locale: "pl", minutes: 2, latinDigits: false, expected: "Ważny 2 minuty."),
        PluralCase(locale: "pl", minutes: 12, latinDigits: false, expected: "Ważny 12 minut."),
        PluralCase(locale: "uk", minutes: 11, latinDigits: false, expected: "дійсний 11 хвилин"),
        // Arabic: six forms, Arabic-Indic digits by default.
        PluralCase(locale: "ar", minutes: 0, latinDigits: false, expected: "صالح 0 دقيقة"),
        PluralCase(locale: "ar", minutes: 1, latinDigits: false, expected: "صالح دقيقة واحدة"),
        PluralCase(locale: "ar", minutes: 2, latinDigits: false, expected: "صالح دقيقتين"),
        PluralCase(locale: "ar-u-nu-arab", minutes: 3, latinDigits: false, expected: "صالح ٣ دقائق"),
        PluralCase(locale: "ar", minutes: 11, latinDigits: false, expected: "صالح 11 دقيقة"),
        PluralCase(locale: "ar-EG-u-nu-arab", minutes: 100, latinDigits: false, expected: "صالح ١٠٠ دقيقة"),
        PluralCase(locale: "ar", minutes: 10, latinDigits: true, expected: "صالح 10 دقائق"),
        PluralCase(locale: "he", minutes: 2, latinDigits: false, expected: "תקף לשתי דקות"),
        PluralCase(locale: "he", minutes: 10, latinDigits: false, expected: "תקף ל-10 דקות"),
        PluralCase(locale: "fa", minutes: 5, latinDigits: false, expected: "اعتبار ۵ دقیقه"),
        PluralCase(locale: "fa", minutes: 5, latinDigits: true, expected: "اعتبار 5 دقیقه"),
        PluralCase(locale: "fr", minutes: 1, latinDigits: false, expected: "Il expire dans 1 minute."),
        PluralCase(locale: "fr", minutes: 1_000_000, latinDigits: false, expected: "Il expire dans 1\u{202F}000\u{202F}000 minutes."),
        PluralCase(locale: "de", minutes: 1500, latinDigits: false, expected: "Er ist 1.500 Minuten gültig."),
        PluralCase(locale: "ja", minutes: 5, latinDigits: false, expected: "（有効期限5分）"),
    ]

    @Test(arguments: pluralCases)
    func pluralsAndLocaleDigits(_ test: PluralCase) throws {
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: test.locale, code: "042917", appName: "Acme",
                                      minutes: test.minutes, options: RenderOptions(latinDigits: test.latinDigits))
        #expect(sms.text.contains(test.expected), "\(sms.text)")
        // The code is text: ASCII digits in every locale, whatever the locale's digits are.
        #expect(sms.text.contains("042917"))
    }

    @Test func exactEnglish() throws {
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: "en-GB", code: "042917", appName: "Acme", minutes: 10)
        #expect(sms.text == "042917 is your Acme verification code. It expires in 10 minutes.")
        #expect(sms.locale == "en")
        #expect(sms.encoding?.encoding == .gsm7)
        #expect(sms.segmentCount == 1)
    }

    @Test(arguments: ["ar", "fa", "bn", "mr", "hi", "th", "ur"])
    func codeStaysASCIIEvenWhenTheLocaleHasItsOwnDigits(locale: String) throws {
        for id in MessageID.bundled {
            let sms = try renderer.render(id, locale: locale, code: "9081726354", appName: "Acme", minutes: 5)
            #expect(sms.text.contains("9081726354"), "\(locale) \(id): \(sms.text)")
        }
    }

    @Test func codeDigitsFromOtherScriptsAreFoldedToASCII() throws {
        let sms = try renderer.render(.verificationCode, locale: "ar", code: "٠٤٢٩١٧", appName: "Acme")
        #expect(sms.text.contains("042917"))
        #expect(sms.diagnostics.contains { $0.code == .codeDigitsFolded })
        let bengali = try renderer.render(.verificationCode, locale: "en", code: "০৪২৯১৭", appName: "Acme")
        #expect(bengali.text.hasPrefix("042917 "))
    }

    @Test(arguments: ["", "12 34", "12345678901234567", "123\u{FFFD}", "١٢٣x!", "{code}"])
    func invalidCodesAreErrors(code: String) {
        #expect { try renderer.render(.verificationCode, locale: "en", code: code, appName: "Acme") } throws: {
            ($0 as? TemplateError)?.code == .invalidCode
        }
    }

    // MARK: Values are values

    @Test func argumentValuesAreNeverTemplateSyntax() throws {
        let names = ["{code}", "{minutes, plural, other {#}}", "'{'", "It's #1", "} {", "{0}"]
        for name in names {
            let sms = try renderer.render(.verificationCodeWithExpiry, locale: "en", code: "1234", appName: name, minutes: 3)
            #expect(sms.text == "1234 is your \(name) verification code. It expires in 3 minutes.")
        }
    }

    @Test func controlAndBidiCharactersAreRemovedFromValues() throws {
        let hostile = "Ac\u{202E}me\u{0}\u{7}\n\u{2066}\u{200F}\u{061C}\u{9F}"
        let sms = try renderer.render(.verificationCode, locale: "en", code: "1234\u{200E}", appName: hostile)
        #expect(sms.text == "1234 is your Acme verification code.")
        #expect(sms.diagnostics.filter { $0.code == .argumentSanitized }.count == 2)
        for scalar in sms.text.unicodeScalars {
            #expect(!_Sanitizer.isRemoved(scalar.value))
        }
    }

    @Test func lengthsAreCapped() throws {
        let sixtyFour = String(repeating: "é", count: 64)
        _ = try renderer.render(.verificationCode, locale: "fr", code: "1234", appName: sixtyFour)
        for name in [String(repeating: "é", count: 65), String(repeating: "A", count: 10_000)] {
            #expect { try renderer.render(.verificationCode, locale: "fr", code: "1234", appName: name) } throws: {
                let error = $0 as? TemplateError
                return error?.code == .argumentTooLong && error?.argument == "appName"
            }
        }
        #expect { try renderer.render(.verificationCode, locale: "fr", code: "1234", appName: "\u{202E}\u{0}") } throws: {
            ($0 as? TemplateError)?.code == .invalidArgument
        }
    }

    // MARK: Right to left

    /// In an Arabic, Hebrew, Persian or Urdu message a Latin app name followed by ": 042917" would
    /// form one left-to-right run with the code (UBA rules W7/N1: digits after a Latin letter are
    /// resolved as Latin), so the name and code could be shown in the wrong order relative to the
    /// surrounding text. SMSKit wraps the name in FSI…PDI so it is resolved on its own. The code
    /// itself is left bare: after Arabic letters its digits already resolve as a separate number
    /// run (W2), and autofill reads it best without neighbours. The isolates cost two UCS-2 units,
    /// in messages that are UCS-2 anyway because of the Arabic/Hebrew script.
    @Test(arguments: ["ar", "he", "fa", "ur"])
    func latinAppNameIsIsolatedInRightToLeftMessages(locale: String) throws {
        let sms = try renderer.render(.verificationCode, locale: locale, code: "042917", appName: "Acme 2")
        #expect(sms.text.contains("\u{2068}Acme 2\u{2069}"))
        #expect(sms.text.unicodeScalars.filter { $0 == "\u{2068}" }.count == 1)
        #expect(sms.text.unicodeScalars.filter { $0 == "\u{2069}" }.count == 1)
        #expect(!sms.text.contains("\u{2069}042917") && !sms.text.contains("042917\u{2069}"))
        #expect(sms.encoding?.encoding == .ucs2)
        #expect(sms.diagnostics.contains { $0.code == .bidiIsolated })
    }

    @Test func sameDirectionNamesAreLeftAlone() throws {
        let arabicName = try renderer.render(.verificationCode, locale: "ar", code: "042917", appName: "متجري")
        #expect(!arabicName.text.unicodeScalars.contains("\u{2068}"))
        let latin = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "Acme")
        #expect(!latin.text.unicodeScalars.contains("\u{2068}"))
        #expect(latin.encoding?.encoding == .gsm7)
    }

    @Test func rightToLeftNameIsIsolatedInLeftToRightMessages() throws {
        let sms = try renderer.render(.verificationCode, locale: "en", code: "042917", appName: "متجري")
        #expect(sms.text == "042917 is your \u{2068}متجري\u{2069} verification code.")
        let never = try renderer.render(.verificationCode, locale: "ar", code: "042917", appName: "Acme",
                                        options: RenderOptions(bidiIsolation: .never))
        #expect(never.text == "رمز التحقق لـAcme: 042917")
    }

    @Test func digitsOnlyNameIsIsolatedInRightToLeftMessages() throws {
        // "24" next to ": 042917" would read as one number in an RTL run.
        let sms = try renderer.render(.verificationCode, locale: "he", code: "042917", appName: "24")
        #expect(sms.text.contains("\u{2068}24\u{2069}: 042917"))
    }

    // MARK: Delivery formats

    @Test func webOTPLineIsLast() throws {
        let sms = try renderer.render(.verificationCode, locale: "ar", code: "٠٤٢٩١٧", appName: "Acme",
                                      options: RenderOptions(webOTPOrigin: "Login.Example.com"))
        let lines = sms.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "@login.example.com #042917")
        #expect(lines.count == 2)
        let port = try renderer.render(.loginCode, locale: "en", code: "1234", appName: "Acme",
                                       options: RenderOptions(webOTPOrigin: "example.com:8443"))
        #expect(port.text.hasSuffix("\n@example.com:8443 #1234"))
    }

    @Test(arguments: ["", "https://example.com", "example.com/login", "exa mple.com", "例子.com", "-a.com", "a-.com",
                      "a..com", "example.com.", "example.com:", "example.com:123456", "@example.com", "a\nb.com",
                      String(repeating: "a", count: 64) + ".com"])
    func invalidWebOTPOrigins(origin: String) {
        #expect { try renderer.render(.verificationCode, locale: "en", code: "1234", appName: "Acme",
                                      options: RenderOptions(webOTPOrigin: origin)) } throws: {
            ($0 as? TemplateError)?.code == .invalidOrigin
        }
    }

    @Test func smsRetrieverHash() throws {
        let sms = try renderer.render(.verificationCode, locale: "en", code: "1234", appName: "Acme",
                                      options: RenderOptions(smsRetrieverAppHash: "FA+9qCX9VSu"))
        #expect(sms.text == "1234 is your Acme verification code.\nFA+9qCX9VSu")
        let both = try renderer.render(.verificationCode, locale: "en", code: "1234", appName: "Acme",
                                       options: RenderOptions(webOTPOrigin: "example.com", smsRetrieverAppHash: "FA+9qCX9VSu"))
        #expect(both.text == "1234 is your Acme verification code.\nFA+9qCX9VSu\n@example.com #1234")
        #expect(both.diagnostics.contains { $0.code == .deliveryOrder })
        for bad in ["FA+9qCX9VS", "FA+9qCX9VSuu", "FA-9qCX9VSu", "FA+9qCX9VS\u{E9}", ""] {
            #expect { try renderer.render(.verificationCode, locale: "en", code: "1234", appName: "Acme",
                                          options: RenderOptions(smsRetrieverAppHash: bad)) } throws: {
                ($0 as? TemplateError)?.code == .invalidAppHash
            }
        }
    }

    @Test func segmentBudget() throws {
        let fits = try renderer.render(.verificationCode, locale: "en", code: "1234", appName: "Acme",
                                       options: RenderOptions(segmentBudget: 1))
        #expect(fits.segmentCount == 1)
        #expect(!fits.diagnostics.contains { $0.code == .overSegmentBudget })

        // Russian is UCS-2 (70 units per SMS); a 60-character app name pushes it to two segments.
        let long = try renderer.render(.verificationCodeWithExpiry, locale: "ru", code: "1234",
                                       appName: String(repeating: "Щ", count: 60), minutes: 5,
                                       options: RenderOptions(webOTPOrigin: "example.com", segmentBudget: 1))
        #expect(long.encoding?.encoding == .ucs2)
        #expect(long.segmentCount > 1)
        #expect(long.diagnostics.contains { $0.code == .overSegmentBudget && $0.severity == .warning })
        #expect(long.encoding?.parts.count == long.segmentCount)

        // The count-only mode gives the same count and warning without the full analysis.
        let countOnly = try renderer.render(.verificationCodeWithExpiry, locale: "ru", code: "1234",
                                            appName: String(repeating: "Щ", count: 60), minutes: 5,
                                            options: RenderOptions(webOTPOrigin: "example.com", segmentBudget: 1,
                                                                   encodingAnalysis: .segmentCountOnly))
        #expect(countOnly.encoding == nil)
        #expect(countOnly.segmentCount == long.segmentCount)
        #expect(countOnly.text == long.text)
        #expect(countOnly.diagnostics.contains { $0.code == .overSegmentBudget })
    }

    // MARK: Arguments

    @Test func missingAndUnusedArguments() throws {
        #expect { try renderer.render(.verificationCodeWithExpiry, locale: "en", code: "1", appName: "A") } throws: {
            let error = $0 as? TemplateError
            return error?.code == .missingArgument && error?.argument == "minutes"
        }
        let sms = try renderer.render(.verificationCode, locale: "en", arguments: ["code": "1", "appName": "A", "appname": "typo"])
        #expect(sms.diagnostics.contains { $0.code == .unusedArgument && $0.message.contains("appname") })
        #expect { try renderer.render(.verificationCodeWithExpiry, locale: "en",
                                      arguments: ["code": "1", "appName": "A", "minutes": "five"]) } throws: {
            ($0 as? TemplateError)?.code == .argumentType
        }
        let decimal = try renderer.render(.verificationCodeWithExpiry, locale: "en",
                                          arguments: ["code": "1", "appName": "A", "minutes": 1.5])
        #expect(decimal.text.hasSuffix("It expires in 1.5 minutes."))
    }

    @Test func unknownMessage() {
        #expect { try renderer.render(MessageID(rawValue: "nope")!, locale: "en", code: "1", appName: "A") } throws: {
            ($0 as? TemplateError)?.code == .unknownMessage
        }
    }

    // MARK: Threads and caching

    @Test func concurrentRendersShareFormattersSafely() async throws {
        let renderer = self.renderer
        let locales = ["en", "ar", "ru", "pt-BR", "zh-TW", "he", "bn", "es-MX"]
        var expected: [String: String] = [:]
        for locale in locales {
            expected[locale] = try renderer.render(.verificationCodeWithExpiry, locale: locale, code: "042917",
                                                   appName: "Acme", minutes: 7).text
        }
        let reference = expected
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var bad = 0
                    for i in 0..<400 {
                        let locale = locales[(task + i) % locales.count]
                        let text = try? renderer.render(.verificationCodeWithExpiry, locale: locale, code: "042917",
                                                        appName: "Acme", minutes: 7).text
                        if text != reference[locale] { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func uncachedRenderingGivesTheSameText() throws {
        let uncached = try SMSTemplateRenderer(caching: .disabled)
        for locale in ["en", "ar", "pl"] {
            let a = try renderer.render(.verificationCodeWithExpiry, locale: locale, code: "1", appName: "A", minutes: 22)
            let b = try uncached.render(.verificationCodeWithExpiry, locale: locale, code: "1", appName: "A", minutes: 22)
            #expect(a == b)
        }
    }
}

/// Text-only messages are rendered from ICU's parsed literal pieces; this checks the pieces give
/// exactly what ICU's MessageFormat gives, for every bundled message and for quoting corner cases.
@Suite struct PieceFormattingTests {
    static let patterns = [
        "Code {code} for {appName}.", "It''s {code}", "'{'literal'}' {code} '{appName}'", "{code}{appName}",
        "a '' b ''{code}'' c", "#1 {code} | x", "{code}", "no arguments at all", "'{code}' is {code}",
        "𝟘 {code} 😀 {appName} \u{202F}", "{code, select, other {{appName}}}",
    ]

    @Test(arguments: patterns)
    func piecesMatchICU(pattern: String) throws {
        try Self.check(pattern: pattern, localeID: "en")
    }

    @Test func everyBundledTextOnlyMessage() throws {
        var checked = 0
        for catalog in SMSTemplateRenderer.bundledCatalogs() {
            for (_, message) in catalog.messages {
                if try Self.check(pattern: message.pattern, localeID: catalog.localeID) { checked += 1 }
            }
        }
        #expect(checked == SMSTemplateRenderer.bundledLocales.count * 3)
    }

    /// Returns whether the message had pieces (was text-only).
    @discardableResult
    static func check(pattern: String, localeID: String) throws -> Bool {
        let compiled = try #require(try? _CompiledMessage(pattern: pattern, localeID: localeID))
        if compiled.pieces.isEmpty {
            #expect(compiled.arguments.contains { $0.kinds != 1 }, "\(pattern) is text-only but has no pieces")
            return false
        }
        let values = ["042917", "A'{b}#", "x", "y"]
        var joined = ""
        var spans: [Range<Int>] = []
        for index in compiled.arguments.indices {
            let start = joined.utf8.count
            joined += values[index % values.count]
            spans.append(start..<joined.utf8.count)
        }
        let viaICU: String = try joined.withUTF8 { utf8 in
            let base = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let cValues = spans.map { span in
                smskit_icu_value(kind: 0, length: Int32(span.count), utf8: base.map { $0 + span.lowerBound }, integer: 0, real: 0)
            }
            return try cValues.withUnsafeBufferPointer { try compiled.format($0).get() }
        }
        var copy = joined
        let viaPieces = copy.withUTF8 { compiled.formatPieces(values: $0, spans: { spans[$0] }) }
        #expect(viaPieces == viaICU, "\(pattern)")
        return true
    }
}
