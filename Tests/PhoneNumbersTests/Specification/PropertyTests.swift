import PhoneNumbers
import SMSKitTestSupport
import Testing

/// Properties over generated numbers: every format of a valid number parses back to the number.
///
/// The numbers are generated from every example number of every region and type
/// (Fixtures/examples.tsv, 246 regions and non-geographic entities): the leading digits of an
/// example are kept and the rest drawn at random, and only the candidates the engine calls valid
/// are used, so the inputs reach number ranges and formatting rules that no fixture row names.
/// A fixed seed makes every run check the same numbers; a failure prints the number.
///
/// The exceptions are libphonenumber's own, as documented in
/// `FormattingTests.formattedNumbersRoundTripThroughParsing` (checked there against the oracle):
/// national text is parsed with the number's region, so non-geographic entities (001) have none;
/// national text of GA keeps a 0 that GA's national prefix for parsing does not strip; national
/// text starting with "00" is read as an international call in some regions; an extension of more
/// than 9 digits is not read back from " x" or " ext. " text. E.164 has no extension.
@Suite struct PhoneNumbersPropertyTests {
    let engine = PhoneNumberEngine()

    typealias Generated = GeneratedNumbers.Number

    /// Generated valid numbers (see ``GeneratedNumbers``).
    static func generate(engine: PhoneNumberEngine, seed: UInt64, perExample: Int) throws -> [Generated] {
        try GeneratedNumbers.generate(engine: engine, seed: seed, perExample: perExample)
    }

    @Test("parse(format(n, f)) == n for every format, over generated valid numbers", arguments: [UInt64(0x5EED_0001), 0x5EED_0002])
    func formatThenParseIsIdentity(seed: UInt64) throws {
        let numbers = try Self.generate(engine: engine, seed: seed, perExample: 6)
        // Valid candidates are most of them; a collapse means the generator or validity broke.
        #expect(numbers.count > 3_000, "only \(numbers.count) valid numbers generated")
        #expect(Set(numbers.compactMap(\.region)).count > 200)

        let formats: [PhoneNumberFormat] = [.e164, .international, .national, .rfc3966]
        var checked = [Int](repeating: 0, count: formats.count)
        var exempt = [Int](repeating: 0, count: formats.count)
        var failures: [String] = []
        for item in numbers {
            for (k, format) in formats.enumerated() {
                let text = engine.format(item.number, as: format)
                var want = item.number
                if format == .e164 { want.extension = nil }
                if format == .national {
                    guard let region = item.region, region != .nonGeographic, region != "GA", !text.hasPrefix("00") else {
                        exempt[k] += 1
                        continue
                    }
                }
                let region: RegionCode? = format == .national ? item.region : nil
                let got = try? engine.parse(text, defaultRegion: region)
                checked[k] += 1
                if got != want, failures.count < 20 {
                    failures.append("\(format): \(engine.format(item.number, as: .e164)) ext \(item.number.extension ?? "-") -> '\(text)' -> \(String(describing: got))")
                }
                if format == .e164 {
                    let strict = try? engine.parse(e164: text)
                    if strict != want, failures.count < 20 {
                        failures.append("parse(e164:) '\(text)' -> \(String(describing: strict))")
                    }
                }
                // Formatting what was parsed back gives the same text (a fixed point).
                if let got, engine.format(got, as: format) != text, failures.count < 20 {
                    failures.append("\(format): '\(text)' formats again as '\(engine.format(got, as: format))'")
                }
            }
        }
        let summary = formats.indices.map { "\(formats[$0]): \(checked[$0]) checked, \(exempt[$0]) exempt" }
        print("PhoneNumbersPropertyTests seed \(seed): \(numbers.count) numbers; \(summary.joined(separator: "; "))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(checked[2] > numbers.count * 9 / 10, "national text exempted for too many numbers")
    }

    @Test("every generated valid number keeps its region and type through E.164")
    func regionAndTypeSurviveE164() throws {
        let numbers = try Self.generate(engine: engine, seed: 0x5EED_0003, perExample: 3)
        var failures: [String] = []
        for item in numbers {
            let text = engine.formatE164(item.number)
            guard let back = try? engine.parse(e164: text) else {
                failures.append("\(text) does not parse")
                continue
            }
            if engine.region(of: back) != item.region || engine.type(of: back) != engine.type(of: item.number) || !engine.isValid(back) {
                failures.append("\(text): region or type or validity changed")
            }
            if failures.count >= 20 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

