import PhoneNumbers
import Testing

/// `format(_:as:)` against the oracle (PyPI phonenumbers' `format_number`, same metadata version):
/// every parsed row of Fixtures/parse.tsv, hand-checked golden cases, and round trips.
@Suite struct FormattingTests {
    let engine = PhoneNumberEngine()

    /// The parsed rows of parse.tsv as numbers (from the e164 and extension columns) with the
    /// oracle's four formats.
    struct Row {
        let line: Int
        let number: PhoneNumber
        let international: String
        let national: String
        let rfc3966: String
        let e164: String
        /// Rebuilt from the E.164 text because parsing that text gives another number.
        let rebuilt: Bool
    }

    func parsedRows() throws -> [Row] {
        let fixture = try Fixture("parse.tsv")
        let error = fixture.column("error"), e164 = fixture.column("e164")
        let international = fixture.column("international"), national = fixture.column("national")
        let rfc3966 = fixture.column("rfc3966"), ext = fixture.column("extension")
        var rows: [Row] = []
        for (i, row) in fixture.rows.enumerated() where row[error].isEmpty {
            var number = try engine.parse(e164: row[e164])
            let rebuilt = engine.formatE164(number) != row[e164]
            if rebuilt {
                // libphonenumber's parse is not idempotent here: the original input kept a zero
                // (or a national prefix) that parsing the E.164 text strips again. Rebuild the
                // oracle's number from the E.164 text: the calling code, then the national
                // significant number with its leading zeros.
                number = Self.number(countryCode: number.countryCode, e164: row[e164])
            }
            number.extension = row[ext].isEmpty ? nil : row[ext]
            rows.append(Row(
                line: i + 2, number: number, international: row[international], national: row[national],
                rfc3966: row[rfc3966], e164: row[e164], rebuilt: rebuilt))
        }
        return rows
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

    @Test func everyParsedFixtureRowFormatsAsTheOracle() throws {
        let rows = try parsedRows()
        #expect(rows.count >= 100_000)
        let formats: [(PhoneNumberFormat, KeyPath<Row, String>)] = [
            (.international, \.international), (.national, \.national), (.rfc3966, \.rfc3966), (.e164, \.e164),
        ]
        var agree = [Int](repeating: 0, count: formats.count)
        var mismatches: [String] = []
        for row in rows {
            for (k, (format, want)) in formats.enumerated() {
                let got = engine.format(row.number, as: format)
                if got == row[keyPath: want] {
                    agree[k] += 1
                } else if mismatches.count < 20 {
                    mismatches.append("line \(row.line) \(format): got \(got) want \(row[keyPath: want])")
                }
            }
        }
        let summary = zip(formats, agree).map { "\($0.0): \($1)/\(rows.count)" }.joined(separator: ", ")
        print("FormattingTests agreement: \(summary) (\(rows.filter(\.rebuilt).count) numbers rebuilt from E.164)")
        for (k, _) in formats.enumerated() {
            #expect(agree[k] == rows.count, "\(summary)\n\(mismatches.joined(separator: "\n"))")
        }
    }

    @Test func e164RoundTripsThroughParsing() throws {
        var failures: [String] = []
        // Rebuilt rows are numbers that libphonenumber itself does not parse back from E.164.
        for row in try parsedRows() where !row.rebuilt {
            let text = engine.format(row.number, as: .e164)
            var want = row.number
            want.extension = nil
            do {
                let back = try engine.parse(e164: text)
                if back != want { failures.append("line \(row.line): \(text) parsed as \(back)") }
            } catch {
                failures.append("line \(row.line): \(text) failed: \(error)")
            }
            if failures.count >= 20 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
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
