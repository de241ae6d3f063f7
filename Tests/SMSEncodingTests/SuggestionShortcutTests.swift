@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// The suggestions skip counts whose result they know (see `SMSEncoder.suggestions`); these tests
/// check the shortcuts against the encoders the option fixes stand for, through the public API.
@Suite("Suggestion shortcuts")
struct SuggestionShortcutTests {
    @Test("the national-tables fix is suggested exactly when all tables change the result", arguments: 0..<SMSEncodingPropertyTests.encoders.count)
    func nationalTables(encoderIndex: Int) {
        let encoder = SMSEncodingPropertyTests.encoders[encoderIndex]
        guard encoder.options.nationalLanguageTables != .all else { return }
        var options = encoder.options
        options.nationalLanguageTables = .all
        let all = SMSEncoder(options: options)
        var random = SplitMix64(seed: 0x7AB1_0000 + UInt64(encoderIndex))
        var texts = (0..<200).map { _ in SMSEncodingPropertyTests.text(&random, maxLength: 200) }
        texts += ["验证码 123456", "ğ中", "Doğrulama kodu: 123456 中", String(repeating: "ş", count: 200) + "😀"]
        for text in texts {
            let analysis = encoder.analyze(text)
            guard analysis.segmentCount > 1 || analysis.encoding == .ucs2 else { continue }
            let other = all.analyze(text)
            let changes = other.segmentCount != analysis.segmentCount || other.encoding != analysis.encoding
            #expect(analysis.suggestions.contains { $0.fix == .enableNationalLanguageTables } == changes, "\(text)")
        }
    }

    @Test("no smart replacement lies between U+3000 and U+FEFF, and the table is sorted")
    func smartTableGap() {
        let sources = _smartReplacements.map(\.source)
        #expect(sources == sources.sorted())
        #expect(!sources.contains { $0 > 0x3000 && $0 < 0xFEFF })
        for value: UInt32 in [0x3000, 0x3001, 0x4E2D, 0xAC00, 0xFEFE, 0xFEFF, 0xFF0C] {
            let expected = sources.contains(value) || (value >= 0xFF01 && value <= 0xFF5E)
            #expect((_smartReplacement(value).count >= 0) == expected, "U+\(String(value, radix: 16))")
        }
    }
}
