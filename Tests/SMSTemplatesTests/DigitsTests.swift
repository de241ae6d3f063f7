import Testing
@testable import SMSTemplates

/// `{minutes}` is written in the requested locale's digits, region included, pinned by SMSKit's
/// table (CLDR 42) rather than the host ICU's default. The checks look at digits only, so catalog
/// wording can change without touching this table.
@Suite struct DigitsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let locale: String
        let latinOption: Bool
        let digits: String      // 45 as the message must write it
        let system: String      // LocaleResolution.numberingSystem
        var testDescription: String { "\(locale)\(latinOption ? " +latinDigits" : "") → \(system)" }
        init(_ locale: String, _ digits: String, _ system: String, latinOption: Bool = false) {
            self.locale = locale
            self.digits = digits
            self.system = system
            self.latinOption = latinOption
        }
    }

    static let cases: [Case] = [
        // Arabic: CLDR's default is Arabic-Indic, Latin in the Maghreb, Libya and the UAE.
        Case("ar", "٤٥", "arab"), Case("ar-EG", "٤٥", "arab"), Case("ar-SA", "٤٥", "arab"),
        Case("ar-IQ", "٤٥", "arab"), Case("ar-001", "٤٥", "arab"),
        Case("ar-MA", "45", "latn"), Case("ar-DZ", "45", "latn"), Case("ar-TN", "45", "latn"),
        Case("ar-AE", "45", "latn"), Case("ar-LY", "45", "latn"), Case("ar_MA", "45", "latn"),
        Case("ar-EG", "45", "arab", latinOption: true), Case("ar-u-nu-latn", "45", "latn"),
        Case("ar-MA-u-nu-arab", "٤٥", "arab"),
        // Persian: Extended Arabic-Indic; Urdu: Latin in Pakistan, Extended in India (CLDR).
        Case("fa", "۴۵", "arabext"), Case("fa-AF", "۴۵", "arabext"), Case("fa", "45", "arabext", latinOption: true),
        Case("ur", "45", "latn"), Case("ur-PK", "45", "latn"), Case("ur-IN", "۴۵", "arabext"),
        // Bengali and Marathi: SMSKit's choice is Latin (CLDR: beng, deva); native on request.
        Case("bn", "45", "latn"), Case("bn-IN", "45", "latn"), Case("bn-u-nu-beng", "৪৫", "beng"),
        Case("mr", "45", "latn"), Case("mr-u-nu-deva", "४५", "deva"),
        Case("hi", "45", "latn"), Case("th", "45", "latn"), Case("ta", "45", "latn"),
        Case("en", "45", "latn"), Case("en-u-nu-thai", "๔๕", "thai"), Case("he", "45", "latn"),
        // A fallback to another language's catalog takes that catalog's digits.
        Case("xx-EG", "45", "latn"),
    ]

    @Test(arguments: cases)
    func minutesUseTheRequestedLocalesDigits(_ test: Case) throws {
        let renderer = try SMSTemplateRenderer()
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: test.locale, code: "123", appName: "Acme",
                                      minutes: 45, options: RenderOptions(latinDigits: test.latinOption))
        #expect(sms.text.contains(test.digits), "\(sms.text)")
        let otherDigits = ["45", "٤٥", "۴۵", "৪৫", "४५", "๔๕"].filter { $0 != test.digits }
        #expect(!otherDigits.contains { sms.text.contains($0) }, "\(sms.text)")
        #expect(sms.text.contains("123"))
        #expect(renderer.resolveLocale(test.locale, for: .verificationCodeWithExpiry).numberingSystem == test.system)
    }

    /// The table is what pins the digits: check it against facts from CLDR 42 directly, so a host
    /// ICU with other defaults cannot change the expected values.
    @Test(arguments: [
        ("ar", "arab"), ("ar_EG", "arab"), ("ar_MA", "latn"), ("ar_Arab_MA", "latn"), ("ar_AE", "latn"),
        ("fa_IR", "arabext"), ("ps", "arabext"), ("ur_IN", "arabext"), ("ur", "latn"), ("pa_Arab_PK", "arabext"),
        ("pa", "latn"), ("pa_Guru_IN", "latn"), ("sd", "arab"), ("sd_Deva", "latn"), ("my", "mymr"),
        ("bn_BD", "latn"), ("ne_NP", "latn"), ("ja", "latn"), ("zh_Hant_TW", "latn"),
    ])
    func pinnedTable(_ row: (String, String)) {
        #expect(_NumberingSystems.system(forLocaleID: row.0) == row.1)
    }

    @Test(arguments: ["latn", "arab", "arabext", "beng", "deva", "thai", "mymr", "tamldec"])
    func decimalSystems(_ name: String) { #expect(_NumberingSystems.isDecimal(name)) }

    @Test(arguments: ["", "roman", "hebr", "bogus", "LATN", "latn\u{0}", String(repeating: "a", count: 1000)])
    func notDecimalSystems(_ name: String) { #expect(!_NumberingSystems.isDecimal(name)) }

    @Test func ignoredNumberingSystemIsReported() throws {
        let renderer = try SMSTemplateRenderer()
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: "ar-EG-u-nu-roman", code: "1", appName: "A", minutes: 45)
        #expect(sms.text.contains("٤٥"))
        #expect(sms.diagnostics.contains { $0.code == .numberingSystemIgnored })
    }
}
