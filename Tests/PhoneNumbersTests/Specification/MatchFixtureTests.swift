import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers' is_number_match, same metadata version) on every
/// row of Fixtures/match.tsv (tools/oracle/gen_match_fixture.py), and the dedupe key's contract.
@Suite struct MatchFixtureTests {
    let engine = PhoneNumberEngine()

    /// A number of the fixture: `cc:nsn` with the leading zeros in the NSN ("000" is 0 after two
    /// zeros, as the oracle's number), then `;ext=digits` when it has an extension.
    static func number(_ text: String) -> PhoneNumber {
        let parts = text.split(separator: ";ext=", maxSplits: 1, omittingEmptySubsequences: false)
        let head = parts[0].split(separator: ":")
        let nsn = head[1]
        var zeros = nsn.prefix(while: { $0 == "0" }).count
        if zeros == nsn.count { zeros -= 1 }
        let ext = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        return PhoneNumber(countryCode: Int(head[0])!, nationalNumber: UInt64(nsn.dropFirst(zeros))!,
                           leadingZeros: zeros, extension: ext)
    }

    @Test func everyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("match.tsv")
        #expect(fixture.header == ["kind", "first", "second", "match"])
        #expect(fixture.rows.count >= 50_000)
        var mismatches: [String] = []
        var agreeing = 0
        var kinds: Set<String> = []
        for row in fixture.rows {
            let got: PhoneNumberMatchType
            switch row[0] {
            case "nn": got = engine.match(Self.number(row[1]), Self.number(row[2]))
            case "ns": got = engine.match(Self.number(row[1]), row[2])
            default: got = engine.match(row[1], row[2])
            }
            kinds.insert(row[3])
            if got.rawValue == row[3] {
                agreeing += 1
            } else if mismatches.count < 30 {
                mismatches.append("\(row[0]) \(row[1]) | \(row[2]): got \(got) want \(row[3])")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(fixture.rows.count - agreeing) rows differ:\n\(mismatches.joined(separator: "\n"))")
        #expect(kinds == Set(PhoneNumberMatchType.allCases.map(\.rawValue)))
    }

    @Test func aTextAndANumberMatchTheSameWayRoundEitherOrder() throws {
        let number = try engine.parse("+16502530000", defaultRegion: nil)
        for text in ["650 253 0000", "+1 650 253 0000", "253 0000", "+44 20 7031 3000", "hello"] {
            #expect(engine.match(number, text) == engine.match(text, number))
        }
    }

    @Test func theDedupeKeyIsTheE164TextAndTheExtension() throws {
        #expect(try engine.parse("+1 (650) 253-0000 ext. 12", defaultRegion: nil).dedupeKey == "+16502530000;ext=12")
        #expect(try engine.parse("06 1234 5678", defaultRegion: "IT").dedupeKey == "+390612345678")
        #expect(PhoneNumber(countryCode: 1, nationalNumber: 6502530000, extension: "").dedupeKey == "+16502530000")
    }

    /// Bad input gives the oracle's answer, never a trap: huge texts, invalid UTF-8, NUL bytes, lone
    /// punctuation, numbers with fields no parse gives.
    @Test func badInputNeverTraps() throws {
        let huge = String(repeating: "1", count: 1_000_000)
        #expect(engine.match(huge, "+16502530000") == .notANumber)
        #expect(engine.match("+16502530000", huge) == .notANumber)
        #expect(engine.match(PhoneNumber(countryCode: 1, nationalNumber: 6502530000), huge) == .notANumber)
        // Invalid UTF-8 reads as U+FFFD, text before the number (the oracle: nsn_match).
        #expect(engine.match(String(decoding: [0xFF, 0xFE, 0x31, 0x32, 0x33], as: UTF8.self), "123") == .nsnMatch)
        #expect(engine.match("12\u{0}34567", "1234567") == .notANumber)
        #expect(engine.match("ext. 12", "+16502530000") == .noMatch)  // "12" read in the US, as the oracle does
        for text in ["", "+", "++", "(", "x", "tel:", ";phone-context=+1", "\u{FFFD}"] {
            #expect(engine.match(text, "+16502530000") == .notANumber, "\(text)")
        }
        let odd = PhoneNumber(countryCode: 0, nationalNumber: .max, leadingZeros: 40, extension: "")
        #expect(engine.match(odd, odd) == .nsnMatch)
        #expect(engine.match(odd, "123") == .noMatch)
        #expect(!odd.dedupeKey.isEmpty)
    }

    /// Two numbers with a calling code have the same key exactly when they are an exact match:
    /// checked on every pair of numbers of the fixture.
    @Test func equalKeysAreExactMatches() throws {
        let fixture = try Fixture("match.tsv")
        var checked = 0
        for row in fixture.rows where row[0] == "nn" {
            let a = Self.number(row[1]), b = Self.number(row[2])
            guard a.countryCode != 0, b.countryCode != 0 else { continue }
            #expect((a.dedupeKey == b.dedupeKey) == (row[3] == "exact_match"), "\(row[1]) \(row[2])")
            checked += 1
        }
        #expect(checked >= 5_000)
    }
}
