import Testing
@testable import SMSTemplates

/// The second review's wording fixes, so a later edit does not bring them back.
@Suite struct WordingTests {
    static func expiry(_ locale: String, _ minutes: Int) throws -> String {
        try SMSTemplateRenderer().render(.verificationCodeWithExpiry, locale: locale, code: "042917", appName: "Acme", minutes: minutes).text
    }

    @Test func teluguSaysValidInTelugu() throws {
        let text = try Self.expiry("te", 5)
        #expect(!text.contains("వాలిడ్"), "\(text)")
        #expect(text.contains("5 నిమిషాలు చెల్లుతుంది"), "\(text)")
    }

    @Test func malayalamEndsWithTheVerb() throws {
        #expect(try Self.expiry("ml", 5).hasSuffix("സാധുവാണ്"))
    }

    @Test func hausaAddressesThePoliteYou() throws {
        for id in [MessageID.loginCode, .multiFactorCode] {
            let text = try SMSTemplateRenderer().render(id, locale: "ha", code: "042917", appName: "Acme").text
            #expect(text.contains("Kada ku") && !text.contains("Kada ka"), "\(text)")
        }
    }

    /// Kinyarwanda has one plural category (`other`), so the singular noun comes from `=1`.
    @Test func kinyarwandaOneMinuteIsSingular() throws {
        #expect(try Self.expiry("rw", 1).contains("mu munota 1"))
        #expect(try Self.expiry("rw", 5).contains("mu minota 5"))
    }

    @Test func yorubaSeparatesTheNameFromTheCode() throws {
        for id in MessageID.bundled {
            let text = try SMSTemplateRenderer().render(id, locale: "yo", code: "042917", appName: "Acme", minutes: 5).text
            #expect(text.contains("Acme: 042917"), "\(text)")
        }
    }

    /// Urdu puts the name before the noun it qualifies, not after it as English does ("code Acme").
    @Test func urduWordOrder() throws {
        for id in MessageID.bundled {
            let text = try SMSTemplateRenderer().render(id, locale: "ur", code: "042917", appName: "Acme", minutes: 5).text
            #expect(!text.contains("کوڈ Acme"), "\(text)")
        }
    }

    /// The local word for two-step verification where it fits the budget; English says two-step.
    @Test(arguments: ["en", "es", "bs", "hr", "sr-Latn", "pl", "sl", "sq", "ne", "ur", "he", "fa", "hu", "ka", "vi", "th", "ja", "ko", "zh-Hans"])
    func twoStepIsSaidInTheLanguage(locale: String) throws {
        let text = try SMSTemplateRenderer().render(.multiFactorCode, locale: locale, code: "042917", appName: "Acme").text
        #expect(!text.contains("2FA"), "\(text)")
    }
}
