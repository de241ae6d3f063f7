import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers' PhoneNumberMatcher, same metadata version) on
/// every text and leniency of Fixtures/matcher_texts.tsv and Fixtures/matcher.tsv
/// (tools/oracle/gen_matcher_fixture.py): the same matches, in order, with the same offsets
/// (code points), raw text and number.
///
/// The one named difference: libphonenumber's alternate formats (PhoneNumberAlternateFormats),
/// which only the grouping levels read, are not shipped, so the rows the oracle finds only with
/// them (`oracle` = `full`) are not expected and the rows it finds only without them (`noalt`)
/// are.
@Suite struct MatcherOracleTests {
    let engine = PhoneNumberEngine()

    /// `+CC NSN` and `;ext=` with the extension, as the fixture writes numbers.
    func e164(_ number: PhoneNumber) -> String {
        engine.formatE164(number) + (number.extension.map { ";ext=" + $0 } ?? "")
    }

    @Test func everyTextAgreesWithTheOracle() throws {
        let texts = try Fixture("matcher_texts.tsv")
        let matches = try Fixture("matcher.tsv")
        #expect(texts.header == ["id", "region", "text"])
        #expect(matches.header == ["id", "leniency", "start", "end", "raw", "e164", "oracle"])
        #expect(texts.rows.count >= 5_000)
        // Expected matches per "id leniency", in order.
        var expected: [String: [String]] = [:]
        var onlyWithAlternateFormats = 0
        for row in matches.rows {
            if row[6] == "full" { onlyWithAlternateFormats += 1; continue }
            expected["\(row[0]) \(row[1])", default: []].append([row[2], row[3], row[4], row[5]].joined(separator: "|"))
        }
        // The named difference stays small (16 rows of about 48,000 at 9.0.43).
        #expect(onlyWithAlternateFormats <= 40)
        var mismatches: [String] = []
        var agreeing = 0, total = 0
        for row in texts.rows {
            let region = row[1] == "ZZ" ? nil : RegionCode(row[1])
            for leniency in PhoneNumberLeniency.allCases {
                total += 1
                let got = engine.findNumbers(in: row[2], defaultRegion: region, leniency: leniency).map {
                    ["\($0.range.lowerBound)", "\($0.range.upperBound)", $0.rawString, e164($0.number)].joined(separator: "|")
                }
                let want = expected["\(row[0]) \(leniency.rawValue)"] ?? []
                if got == want {
                    agreeing += 1
                } else if mismatches.count < 30 {
                    mismatches.append("#\(row[0]) \(row[1]) \(leniency.rawValue) \"\(row[2])\": got \(got) want \(want)")
                }
            }
        }
        #expect(agreeing == total, "\(total - agreeing) of \(total) disagree:\n\(mismatches.joined(separator: "\n"))")
    }

    @Test func offsetsInBothUnits() {
        let text = "Tél. ☎️ +33 1 23 45 67 89 𝄞 ou 01 23 45 67 90"
        let found = engine.findNumbers(in: text, defaultRegion: "FR")
        #expect(found.count == 2)
        let bytes = Array(text.utf8)
        let scalars = Array(text.unicodeScalars)
        for match in found {
            #expect(String(decoding: bytes[match.utf8Range], as: UTF8.self) == match.rawString)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[match.range])
            #expect(String(view) == match.rawString)
        }
        #expect(found.map { engine.formatE164($0.number) } == ["+33123456789", "+33123456790"])
    }

    @Test func badInputNeverTraps() {
        // Invalid UTF-8 reads as U+FFFD; unknown or absent regions find only "+" numbers.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x20] + Array("+44 20 7946 0123".utf8) + [0xC3, 0x28, 0x80]
        let found = engine.findNumbers(inUTF8: bytes, defaultRegion: nil)
        #expect(found.map { engine.formatE164($0.number) } == ["+442079460123"])
        #expect(found.first?.utf8Range == 7..<23)  // two U+FFFD of 3 bytes each, then a space
        #expect(found.first?.range == 3..<19)
        #expect(engine.findNumbers(in: "020 7946 0123", defaultRegion: nil).isEmpty)
        #expect(engine.findNumbers(in: "", defaultRegion: "US").isEmpty)
        #expect(engine.findNumbers(in: "650 253 0000", defaultRegion: "US", maxTries: -5).isEmpty)
        // Degenerate text: long runs of digits, punctuation and brackets end, and quickly.
        for text in [String(repeating: "1", count: 200_000), String(repeating: "(1) ", count: 50_000),
                     String(repeating: "1-", count: 100_000), String(repeating: "+", count: 100_000),
                     String(repeating: "12/12/12 ", count: 20_000), String(repeating: "x1 ", count: 50_000),
                     // Extension separators are unbounded: one candidate as long as the text.
                     "650 253 0000" + String(repeating: " ", count: 300_000) + "x1",
                     "650 253 0000 x" + String(repeating: " -", count: 150_000) + "1"] {
            _ = engine.findNumbers(in: text, defaultRegion: "US", leniency: .possible)
        }
    }

    @Test func longExtensionSeparatorsAsTheOracle() {
        // The oracle's answers (phonenumbers 9.0.43, leniency POSSIBLE) on shorter forms of the
        // degenerate texts above.
        let spaces = "650 253 0000" + String(repeating: " ", count: 3_000) + "x1"
        #expect(engine.findNumbers(in: spaces, defaultRegion: "US", leniency: .possible).isEmpty)
        let dashes = "650 253 0000 x" + String(repeating: " -", count: 1_500) + "1"
        #expect(engine.findNumbers(in: dashes, defaultRegion: "US", leniency: .possible).map(\.range) == [0..<14])
    }

    @Test func maxTriesBoundsTheWork() {
        // 1,000 candidates that fail, then a number: the search gives up before it with 10 tries.
        let text = String(repeating: "12 abc ", count: 1_000) + "650 253 0000"
        #expect(engine.findNumbers(in: text, defaultRegion: "US").count == 1)
        #expect(engine.findNumbers(in: text, defaultRegion: "US", maxTries: 10).isEmpty)
    }
}
