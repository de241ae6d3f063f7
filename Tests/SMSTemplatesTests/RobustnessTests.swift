import SMSKitTestSupport
import Testing
@testable import SMSTemplates

/// Random garbage in every string input: the renderer answers with text or a typed error.
@Suite struct RobustnessTests {
    static func garbage(_ generator: inout SplitMix64, maxLength: Int) -> String {
        let pools: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0x0600...0x06FF, 0x2000...0x206F, 0x1F600...0x1F64F, 0xE000...0xFFFF]
        var text = ""
        for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
            let pool = pools.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &generator)) { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    @Test func randomInputsNeverCrash() throws {
        let renderer = try SMSTemplateRenderer()
        var generator = SplitMix64(seed: 20_261_121)
        let tags = ["en", "ar", "he", "ru", "zh-TW", "es-MX", "pt_BR", "iw", "sr-Latn"]
        var rendered = 0
        for round in 0..<2_000 {
            let locale = round % 3 == 0 ? tags[round % tags.count] : Self.garbage(&generator, maxLength: 40)
            let code = round % 4 == 0 ? Self.garbage(&generator, maxLength: 20) : String(round)
            let appName = Self.garbage(&generator, maxLength: 80)
            var options = RenderOptions(segmentBudget: 1)
            if round % 5 == 0 { options.webOTPOrigin = Self.garbage(&generator, maxLength: 20) }
            if round % 7 == 0 { options.smsRetrieverAppHash = Self.garbage(&generator, maxLength: 12) }
            do {
                let sms = try renderer.render(MessageID.bundled[round % 4], locale: locale, code: code, appName: appName,
                                              minutes: round % 120, options: options)
                rendered += 1
                #expect(!sms.text.isEmpty)
                for scalar in sms.text.unicodeScalars where scalar.value < 0x20 {
                    #expect(scalar == "\n", "control character in output")
                }
            } catch {
                // Typed by signature; make sure it says something.
                #expect(!error.message.isEmpty)
            }
        }
        #expect(rendered > 500)
    }

    @Test func randomCatalogTextNeverCrashes() {
        var generator = SplitMix64(seed: 7)
        let fragments = ["{", "}", "'", "#", "=", "\\", "\\n", "{code}", "{appName}", "{n, plural, one {#} other {#}}",
                         "{x, select, a {b} other {c}}", "{0}", "{d, date}", "\n", "id", " = ", "verification_code", "é", "😀"]
        for _ in 0..<1_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text += fragments.randomElement(using: &generator)! }
            do {
                let catalog = try TemplateCatalog(parsing: text, locale: "en", file: "fuzz.txt")
                _ = catalog.messageIDs
            } catch {
                #expect(error.file == "fuzz.txt")
                #expect(error.line != nil)
            }
        }
    }
}
