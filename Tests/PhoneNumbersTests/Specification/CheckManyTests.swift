import PhoneNumbers
import Testing

/// The batch API gives one result per input, in input order, equal to checking each input alone,
/// whatever the number of threads.
@Suite struct BatchTests {
    let engine = PhoneNumberEngine()

    @Test(arguments: [1, 2, 3, 8])
    func batchEqualsOneByOne(concurrency: Int) throws {
        let fixture = try Fixture("parse.tsv")
        let inputs = fixture.rows.prefix(20_000).map {
            PhoneNumberInput($0[0], defaultRegion: $0[1] == "ZZ" ? nil : RegionCode($0[1]))
        }
        let batch = engine.checkBatch(Array(inputs), concurrency: concurrency)
        #expect(batch.count == inputs.count)
        var differences = 0
        for (input, result) in zip(inputs, batch) where engine.check(input.text, defaultRegion: input.defaultRegion) != result {
            differences += 1
        }
        #expect(differences == 0)
        // Failures are results, never dropped.
        #expect(batch.contains { $0.error != nil })
        #expect(batch.contains { $0.isValid })
    }

    /// check(_:) computes everything in one pass; it must equal the separate calls.
    @Test func checkEqualsTheSeparateCalls() throws {
        let fixture = try Fixture("parse.tsv")
        var compared = 0
        for row in fixture.rows.prefix(30_000) {
            guard let number = try? engine.parse(row[0], defaultRegion: row[1] == "ZZ" ? nil : RegionCode(row[1])) else { continue }
            let result = engine.check(number)
            let (region, type) = engine.classify(number)
            #expect(result.region == region && result.type == type && result.isValid == engine.isValid(number))
            #expect(result.possibility == engine.possibility(of: number))
            #expect(result.fictional == engine.fictionalRange(of: number))
            #expect(result.e164 == engine.formatE164(number) && result.e164 == engine.format(number, as: .e164))
            compared += 1
        }
        #expect(compared > 20_000)
    }

    @Test func emptyAndTinyBatches() {
        #expect(engine.checkBatch([]).isEmpty)
        let one = engine.checkBatch([PhoneNumberInput("+16505553434")])
        #expect(one.count == 1)
        #expect(one[0].e164 == "+16505553434")
        #expect(one[0].fictional?.kind == .nanp555Convention)
    }

    @Test func checkReportsTheError() {
        let result = engine.check("12", defaultRegion: nil)
        #expect(result.error?.code == .invalidCountryCode)
        #expect(result.number == nil && !result.isValid && result.type == .unknown)
    }

    @Test func hostileInputGivesTypedErrors() {
        let cases = [
            String(repeating: "9", count: 1_000_000),           // 1 MB of digits
            String(repeating: "(", count: 300),                 // only punctuation
            "\u{0}\u{0}\u{0}",                                  // NUL bytes
            String(repeating: "1", count: 200),                 // hundreds of digits
            "+" + String(repeating: "٣", count: 240),           // Arabic-Indic digits, too long
            "tel:;phone-context=;isub=",                        // empty RFC 3966 parts
        ]
        for text in cases {
            let result = engine.check(text, defaultRegion: "US")
            #expect(result.error != nil, "\(text.prefix(20))")
        }
        // Invalid UTF-8 through the byte entry point.
        let bytes: [UInt8] = [0x2B, 0x31, 0xFF, 0xFE, 0x36, 0x35, 0x30, 0xC3]
        _ = bytes.withUnsafeBufferPointer { buffer in
            #expect(throws: PhoneNumberError.self) { try engine.parse(utf8: buffer, defaultRegion: "US") }
        }
    }
}
