import PhoneNumbers
import Testing

/// `format(_:as:)` against the oracle (PyPI phonenumbers' `format_number`, same metadata version):
/// every parsed row of Fixtures/parse.tsv, hand-checked golden cases, and round trips.
@Suite struct FormattingTests {
    let engine = PhoneNumberEngine()

    /// The parsed rows of parse.tsv: the number parsed from the input with the row's default
    /// region, and the oracle's four formats.
    struct Row {
        let line: Int
        let number: PhoneNumber
        let international: String
        let national: String
        let rfc3966: String
        let e164: String
        let valid: Bool
        /// `region_code_for_number`, nil when none.
        let region: RegionCode?
    }

    /// Rows whose parse disagrees with the oracle (E.164 or extension); the formatting test
    /// falls back to the number rebuilt from the oracle's E.164 and extension for them.
    struct ParsedRows {
        var rows: [Row] = []
        var parseDisagreements: [String] = []
    }

    /// Loaded once for all tests of the suite.
    static let loaded = Result { () throws -> ParsedRows in try load(PhoneNumberEngine()) }

    func parsedRows() throws -> ParsedRows { try Self.loaded.get() }

    static func load(_ engine: PhoneNumberEngine) throws -> ParsedRows {
        let fixture = try Fixture("parse.tsv")
        let input = fixture.column("input"), regionColumn = fixture.column("region")
        let error = fixture.column("error"), e164 = fixture.column("e164")
        let international = fixture.column("international"), national = fixture.column("national")
        let rfc3966 = fixture.column("rfc3966"), ext = fixture.column("extension")
        let valid = fixture.column("valid"), numberRegion = fixture.column("number_region")
        var result = ParsedRows()
        for (i, row) in fixture.rows.enumerated() where row[error].isEmpty {
            let wantExtension = row[ext].isEmpty ? nil : row[ext]
            var number: PhoneNumber
            do {
                number = try engine.parse(row[input], defaultRegion: RegionCode(row[regionColumn]))
            } catch {
                number = PhoneNumber(countryCode: 0, nationalNumber: 0)
            }
            if engine.formatE164(number) != row[e164] || number.extension != wantExtension {
                result.parseDisagreements.append("line \(i + 2): parse gave \(number), oracle \(row[e164]) ext \(row[ext])")
                let fromE164 = try engine.parse(e164: row[e164])
                number = Self.number(countryCode: fromE164.countryCode, e164: row[e164])
                number.extension = wantExtension
            }
            result.rows.append(Row(
                line: i + 2, number: number, international: row[international], national: row[national],
                rfc3966: row[rfc3966], e164: row[e164], valid: row[valid] == "true",
                region: RegionCode(row[numberRegion])))
        }
        return result
    }

    /// The number whose E.164 text is `e164` under `countryCode`, as libphonenumber stores it:
    /// leading zeros of the national significant number counted apart (all but the last digit).
    static func number(countryCode: Int, e164: String) -> PhoneNumber {
        let nsn = Array(e164.utf8.dropFirst(1 + String(countryCode).utf8.count))
        var zeros = 0
        while zeros < nsn.count - 1, nsn[zeros] == UInt8(ascii: "0") { zeros += 1 }
        let value = nsn[zeros...].reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 48) }
        return PhoneNumber(countryCode: countryCode, nationalNumber: value, leadingZeros: zeros)
    }

    static var formats: [(PhoneNumberFormat, KeyPath<Row, String>)] {
        [(.international, \.international), (.national, \.national), (.rfc3966, \.rfc3966), (.e164, \.e164)]
    }

    @Test func everyParsedFixtureRowFormatsAsTheOracle() throws {
        let parsed = try parsedRows()
        let rows = parsed.rows
        #expect(rows.count >= 100_000)
        #expect(parsed.parseDisagreements.isEmpty, "\(parsed.parseDisagreements.prefix(20).joined(separator: "\n"))")
        var agree = [Int](repeating: 0, count: Self.formats.count)
        var mismatches: [String] = []
        for row in rows {
            for (k, (format, want)) in Self.formats.enumerated() {
                let got = engine.format(row.number, as: format)
                if got == row[keyPath: want] {
                    agree[k] += 1
                } else if mismatches.count < 20 {
                    mismatches.append("line \(row.line) \(format): got \(got) want \(row[keyPath: want])")
                }
            }
        }
        let summary = zip(Self.formats, agree).map { "\($0.0): \($1)/\(rows.count)" }.joined(separator: ", ")
        print("FormattingTests agreement: \(summary); parse disagreements: \(parsed.parseDisagreements.count)")
        for k in Self.formats.indices {
            #expect(agree[k] == rows.count, "\(summary)\n\(mismatches.joined(separator: "\n"))")
        }
    }

    /// Parsing each formatted form gives the number back. Asserted where libphonenumber itself
    /// round-trips (checked with the oracle on this fixture): valid numbers; for international and
    /// national text only extensions of at most 9 digits (longer ones after " x" or " int " are
    /// not read as extensions); for national text not the non-geographic entities (no region to
    /// parse in), not text that starts with "00" (read as an international prefix in BG, PA, QA,
    /// TH) and not GA (its formats add a 0 that its national prefix for parsing does not strip).
    /// The other rows are counted, not asserted.
    @Test func formattedNumbersRoundTripThroughParsing() throws {
        let rows = try parsedRows().rows
        var asserted = [Int](repeating: 0, count: Self.formats.count)
        var back = [Int](repeating: 0, count: Self.formats.count)
        var other = [Int](repeating: 0, count: Self.formats.count)
        var otherBack = [Int](repeating: 0, count: Self.formats.count)
        var failures: [String] = []
        for row in rows {
            let shortExtension = (row.number.extension?.count ?? 0) <= 9
            for (k, (format, _)) in Self.formats.enumerated() {
                let text = engine.format(row.number, as: format)
                var want = row.number
                if format == .e164 { want.extension = nil }
                let region: RegionCode? = format == .national ? row.region : nil
                var got = try? engine.parse(text, defaultRegion: region)
                if format == .e164, got != (try? engine.parse(e164: text)) {
                    got = nil  // the strict E.164 parser must agree
                }
                var mustHold = row.valid
                switch format {
                case .international: mustHold = mustHold && shortExtension
                case .national:
                    mustHold = mustHold && shortExtension && row.region != nil && row.region != .nonGeographic
                        && row.region != "GA" && !text.hasPrefix("00")
                case .e164, .rfc3966: break
                }
                if mustHold {
                    asserted[k] += 1
                    if got == want {
                        back[k] += 1
                    } else if failures.count < 20 {
                        failures.append("line \(row.line) \(format): \(text) parsed as \(String(describing: got)), want \(want)")
                    }
                } else {
                    other[k] += 1
                    if got == want { otherBack[k] += 1 }
                }
            }
        }
        let summary = Self.formats.indices.map {
            "\(Self.formats[$0].0): \(back[$0])/\(asserted[$0]) (others \(otherBack[$0])/\(other[$0]))"
        }.joined(separator: ", ")
        print("FormattingTests round trip: \(summary)")
        for k in Self.formats.indices {
            #expect(asserted[k] > 90_000)
            #expect(back[k] == asserted[k], "\(summary)\n\(failures.joined(separator: "\n"))")
        }
    }

    struct Golden: CustomTestStringConvertible, Sendable {
        let name: String
        let countryCode: Int
        let nationalNumber: UInt64
        var leadingZeros = 0
        var `extension`: String? = nil
        /// E.164, international, national, RFC 3966.
        let expected: [String]
        var testDescription: String { name }
    }

    // Values checked with phonenumbers 9.0.43's format_number.
    static let goldens: [Golden] = [
        Golden(name: "US", countryCode: 1, nationalNumber: 6502530000,
               expected: ["+16502530000", "+1 650-253-0000", "(650) 253-0000", "tel:+1-650-253-0000"]),
        Golden(name: "GB London", countryCode: 44, nationalNumber: 2079460123,
               expected: ["+442079460123", "+44 20 7946 0123", "020 7946 0123", "tel:+44-20-7946-0123"]),
        Golden(name: "DE Berlin", countryCode: 49, nationalNumber: 3012345678,
               expected: ["+493012345678", "+49 30 12345678", "030 12345678", "tel:+49-30-12345678"]),
        Golden(name: "IT leading zero", countryCode: 39, nationalNumber: 612345678, leadingZeros: 1,
               expected: ["+390612345678", "+39 06 1234 5678", "06 1234 5678", "tel:+39-06-1234-5678"]),
        Golden(name: "AR mobile (intl format differs)", countryCode: 54, nationalNumber: 91123456789,
               expected: ["+5491123456789", "+54 9 11 2345-6789", "011 15-2345-6789", "tel:+54-9-11-2345-6789"]),
        Golden(name: "BR mobile, national prefix rule without prefix", countryCode: 55, nationalNumber: 11987654321,
               expected: ["+5511987654321", "+55 11 98765-4321", "(11) 98765-4321", "tel:+55-11-98765-4321"]),
        Golden(name: "RU, national prefix 8 with parentheses", countryCode: 7, nationalNumber: 9123456789,
               expected: ["+79123456789", "+7 912 345-67-89", "8 (912) 345-67-89", "tel:+7-912-345-67-89"]),
        Golden(name: "GB extension, preferred prefix", countryCode: 44, nationalNumber: 2079460123, extension: "456",
               expected: ["+442079460123", "+44 20 7946 0123 x456", "020 7946 0123 x456", "tel:+44-20-7946-0123;ext=456"]),
        Golden(name: "US extension, default prefix", countryCode: 1, nationalNumber: 6502530000, extension: "123",
               expected: ["+16502530000", "+1 650-253-0000 ext. 123", "(650) 253-0000 ext. 123",
                          "tel:+1-650-253-0000;ext=123"]),
        Golden(name: "TW extension prefix #", countryCode: 886, nationalNumber: 223456789, extension: "12",
               expected: ["+886223456789", "+886 2 2345 6789#12", "02 2345 6789#12", "tel:+886-2-2345-6789;ext=12"]),
        Golden(name: "empty extension is none", countryCode: 1, nationalNumber: 6502530000, extension: "",
               expected: ["+16502530000", "+1 650-253-0000", "(650) 253-0000", "tel:+1-650-253-0000"]),
        Golden(name: "non-geographic +800", countryCode: 800, nationalNumber: 12345678,
               expected: ["+80012345678", "+800 1234 5678", "1234 5678", "tel:+800-1234-5678"]),
        Golden(name: "non-geographic +882", countryCode: 882, nationalNumber: 3100000000,
               expected: ["+8823100000000", "+882 31 0000 0000", "31 0000 0000", "tel:+882-31-0000-0000"]),
        Golden(name: "no format matches", countryCode: 1, nationalNumber: 123,
               expected: ["+1123", "+1 123", "123", "tel:+1-123"]),
        Golden(name: "unknown calling code: bare NSN, no extension", countryCode: 999, nationalNumber: 12345,
               extension: "1", expected: ["+99912345", "12345", "12345", "12345"]),
        Golden(name: "calling code 0", countryCode: 0, nationalNumber: 0, expected: ["+00", "0", "0", "0"]),
        Golden(name: "national number 0 with leading zeros", countryCode: 39, nationalNumber: 0, leadingZeros: 2,
               expected: ["+39000", "+39 000", "000", "tel:+39-000"]),
        Golden(name: "MX: no format", countryCode: 52, nationalNumber: 15512345678,
               expected: ["+5215512345678", "+52 15512345678", "15512345678", "tel:+52-15512345678"]),
    ]

    @Test(arguments: goldens) func golden(_ golden: Golden) {
        let number = PhoneNumber(
            countryCode: golden.countryCode, nationalNumber: golden.nationalNumber, leadingZeros: golden.leadingZeros,
            extension: golden.extension)
        let got = [PhoneNumberFormat.e164, .international, .national, .rfc3966].map { engine.format(number, as: $0) }
        #expect(got == golden.expected)
    }

    @Test func longExtensionIsWrittenInFull() {
        // Longer than the formatter's stack buffer: takes the exact-size path.
        let ext = String(repeating: "9", count: 200)
        let number = PhoneNumber(countryCode: 7, nationalNumber: 9123456789, extension: ext)
        #expect(engine.format(number, as: .national) == "8 (912) 345-67-89 ext. " + ext)
        #expect(engine.format(number, as: .international) == "+7 912 345-67-89 ext. " + ext)
        #expect(engine.format(number, as: .rfc3966) == "tel:+7-912-345-67-89;ext=" + ext)
        #expect(engine.format(number, as: .e164) == "+79123456789")
    }

    @Test func formatE164AgreesWithFormat() throws {
        for e164 in ["+16502530000", "+390612345678", "+80012345678", "+5491123456789"] {
            let number = try engine.parse(e164: e164)
            #expect(engine.formatE164(number) == e164)
            #expect(engine.format(number, as: .e164) == e164)
        }
    }

    @Test func oddValuesDoNotCrash() {
        let odd = [
            PhoneNumber(countryCode: -5, nationalNumber: 1),
            PhoneNumber(countryCode: Int.min, nationalNumber: UInt64.max, leadingZeros: Int.max),
            PhoneNumber(countryCode: Int.max, nationalNumber: UInt64.max, leadingZeros: -3),
            PhoneNumber(countryCode: 44, nationalNumber: UInt64.max, leadingZeros: 40, extension: "x\u{0}é"),
        ]
        for number in odd {
            for format in PhoneNumberFormat.allCases {
                #expect(!engine.format(number, as: format).isEmpty)
            }
        }
        #expect(engine.format(odd[0], as: .e164) == "+-51")
        #expect(engine.format(odd[0], as: .national) == "1")
    }
}
