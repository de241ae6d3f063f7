import SMSEncoding
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
        // Arabic: Latin everywhere, SMSKit's choice (CLDR: Arabic-Indic outside the Maghreb, Libya
        // and the UAE): Gulf and Egyptian one-time-code SMS write the minutes in the code's digits.
        // A tag that asks for Arabic-Indic digits gets them.
        Case("ar", "45", "latn"), Case("ar-EG", "45", "latn"), Case("ar-SA", "45", "latn"),
        Case("ar-IQ", "45", "latn"), Case("ar-001", "45", "latn"),
        Case("ar-MA", "45", "latn"), Case("ar-DZ", "45", "latn"), Case("ar-TN", "45", "latn"),
        Case("ar-AE", "45", "latn"), Case("ar-LY", "45", "latn"), Case("ar_MA", "45", "latn"),
        Case("ar-EG", "45", "latn", latinOption: true), Case("ar-u-nu-latn", "45", "latn"),
        Case("ar-u-nu-arab", "٤٥", "arab"), Case("ar-EG-u-nu-arab", "٤٥", "arab"), Case("ar-SA-u-nu-arab", "٤٥", "arab"),
        Case("ar-MA-u-nu-arab", "٤٥", "arab"), Case("ar-u-nu-arab", "45", "arab", latinOption: true),
        // Persian: Extended Arabic-Indic; Urdu: Latin in Pakistan, Extended in India (CLDR).
        Case("fa", "۴۵", "arabext"), Case("fa-AF", "۴۵", "arabext"), Case("fa", "45", "arabext", latinOption: true),
        Case("ur", "45", "latn"), Case("ur-PK", "45", "latn"), Case("ur-IN", "۴۵", "arabext"),
        // Bengali and Marathi: SMSKit's choice is Latin (CLDR: beng, deva); native on request.
        Case("bn", "45", "latn"), Case("bn-IN", "45", "latn"), Case("bn-u-nu-beng", "৪৫", "beng"),
        Case("mr", "45", "latn"), Case("mr-u-nu-deva", "४५", "deva"),
        Case("hi", "45", "latn"), Case("th", "45", "latn"), Case("ta", "45", "latn"),
        Case("en", "45", "latn"), Case("he", "45", "latn"), Case("th-u-nu-thai", "๔๕", "thai"),
        // A GSM-7 message ignores digits that would make it UCS-2 (`en-US-u-nu-arab`: "٤٥ minutes").
        Case("en-u-nu-thai", "45", "latn"), Case("en-US-u-nu-arab", "45", "latn"), Case("de-u-nu-arab", "45", "latn"),
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
        ("ar", "latn"), ("ar_EG", "latn"), ("ar_SA", "latn"), ("ar_MA", "latn"), ("ar_Arab_MA", "latn"), ("ar_AE", "latn"),
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
        #expect(sms.text.contains("45"))
        #expect(sms.diagnostics.contains { $0.code == .numberingSystemIgnored })
    }

    /// An English message with `-u-nu-arab` stays GSM-7 and one segment: the keyword is ignored with
    /// a note, where honouring it would write "٤٥ minutes" and make the message UCS-2.
    @Test func gsmMessageIgnoresDigitsThatWouldMakeItUCS2() throws {
        let renderer = try SMSTemplateRenderer()
        let sms = try renderer.render(.verificationCodeWithExpiry, locale: "en-US-u-nu-arab", code: "042917",
                                      appName: "Acme Banking", minutes: 45)
        #expect(sms.text == "042917 is your Acme Banking verification code. It expires in 45 minutes.")
        #expect(sms.encoding?.encoding == .gsm7)
        #expect(sms.diagnostics.contains { $0.code == .numberingSystemIgnored && $0.message.contains("GSM-7") })
        // A UCS-2 message honours the same keyword.
        let arabic = try renderer.render(.verificationCodeWithExpiry, locale: "ar-u-nu-arab", code: "042917", appName: "Acme", minutes: 45)
        #expect(arabic.text.contains("٤٥"))
        #expect(!arabic.diagnostics.contains { $0.code == .numberingSystemIgnored })
    }
}
