import Testing

@testable import PhoneNumbers

/// Lookup by (country code, national significant number digits).
@Suite("Fictional ranges: lookup")
struct FictionalRangesMatchTests {
    static func match(_ countryCode: Int, _ digits: String) -> FictionalRange? {
        FictionalRanges.match(countryCode: countryCode, nationalNumber: digits.utf8)
    }

    /// Area codes substituted for the `xxx` of any-NPA rows: geographic, toll-free, and invalid ones
    /// (the lookup works on invalid numbers too).
    static let areaCodes = ["212", "650", "800", "844", "000", "555", "999"]

    /// One row of the TSV, with the concrete numbers to probe at its edges.
    struct EdgeCase: CustomTestStringConvertible, Sendable {
        var line: Int
        var countryCode: Int
        var numbers: [String]
        var testDescription: String { "TSV line \(line)" }
    }

    static let edgeCases: [EdgeCase] = FictionalTable.rows.map { row in
        let fills = row.wildcards == 0 ? [""] : areaCodes
        var numbers: [String] = []
        for fill in fills {
            let first = row.concrete(row.first, fill: fill)
            let last = row.concrete(row.last, fill: fill)
            numbers += [first, last]
            numbers += [FictionalTable.offset(first, by: -1), FictionalTable.offset(last, by: 1)].compactMap { $0 }
        }
        return EdgeCase(line: row.line, countryCode: row.countryCode, numbers: numbers)
    }

    @Test("first, last, one below and one above every row agree with the naive oracle", arguments: edgeCases)
    func edges(_ edge: EdgeCase) {
        for digits in edge.numbers {
            #expect(
                Self.match(edge.countryCode, digits).map(FictionalTable.Fields.init)
                    == FictionalTable.expected(countryCode: edge.countryCode, digits: digits),
                "+\(edge.countryCode) \(digits)")
        }
    }

    @Test("the first and last number of every fictional row without wildcards match that row")
    func exactRowsMatchThemselves() {
        for row in FictionalTable.rows where row.wildcards == 0 && !row.isException {
            for digits in [row.first, row.last] {
                let found = Self.match(row.countryCode, digits)
                #expect(found?.first == row.first && found?.last == row.last, "+\(row.countryCode) \(digits)")
                #expect(found?.kind.rawValue == row.kind)
            }
        }
    }

    struct Known: CustomTestStringConvertible, Sendable {
        var countryCode: Int
        var digits: String
        var kind: FictionalKind?
        var why: String
        var testDescription: String { "+\(countryCode) \(digits): \(why)" }
    }

    static let known: [Known] = [
        // Firebase's seed examples and the NANP rules.
        Known(countryCode: 1, digits: "6505553434", kind: .nanp555Convention, why: "Firebase example +1 650-555-3434"),
        Known(countryCode: 1, digits: "6505554567", kind: .nanp555Convention, why: "Firebase example +16505554567"),
        Known(countryCode: 1, digits: "2125550100", kind: .reservedForFiction, why: "first of 555-0100..0199"),
        Known(countryCode: 1, digits: "2125550199", kind: .reservedForFiction, why: "last of 555-0100..0199"),
        Known(countryCode: 1, digits: "2125550099", kind: .nanp555Convention, why: "just below the reserved block"),
        Known(countryCode: 1, digits: "2125550200", kind: .nanp555Convention, why: "just above the reserved block"),
        Known(countryCode: 1, digits: "2125551212", kind: nil, why: "directory assistance"),
        Known(countryCode: 1, digits: "6505551212", kind: nil, why: "directory assistance, any NPA"),
        Known(countryCode: 1, digits: "2125551211", kind: .nanp555Convention, why: "below 555-1212"),
        Known(countryCode: 1, digits: "2125551213", kind: .nanp555Convention, why: "above 555-1212"),
        Known(countryCode: 1, digits: "2125554334", kind: nil, why: "555-4334 still in use"),
        Known(countryCode: 1, digits: "2125564334", kind: nil, why: "not the 555 exchange"),
        Known(countryCode: 1, digits: "2125450100", kind: nil, why: "exchange 545"),
        Known(countryCode: 1, digits: "8005550199", kind: .reported, why: "toll-free 800-555-0199"),
        Known(countryCode: 1, digits: "8005550150", kind: nil, why: "toll-free 800: only 0199 reported"),
        Known(countryCode: 1, digits: "8005553434", kind: nil, why: "toll-free 800-555 is assignable"),
        Known(countryCode: 1, digits: "8445550150", kind: .reported, why: "toll-free 844-555"),
        Known(countryCode: 1, digits: "0005550150", kind: .reservedForFiction, why: "invalid NPA still matches"),
        Known(countryCode: 1, digits: "212555010", kind: nil, why: "nine digits"),
        Known(countryCode: 1, digits: "21255501000", kind: nil, why: "eleven digits"),
        // United Kingdom.
        Known(countryCode: 44, digits: "7700900123", kind: .reservedForFiction, why: "07700 900123 (invalid for libphonenumber)"),
        Known(countryCode: 44, digits: "7700900000", kind: .reservedForFiction, why: "07700 900000"),
        Known(countryCode: 44, digits: "7700900999", kind: .reservedForFiction, why: "07700 900999"),
        Known(countryCode: 44, digits: "7700899999", kind: nil, why: "below 07700 900000"),
        Known(countryCode: 44, digits: "7700901000", kind: nil, why: "above 07700 900999"),
        Known(countryCode: 44, digits: "2079460123", kind: .reservedForFiction, why: "020 7946 0123"),
        Known(countryCode: 44, digits: "1632960000", kind: .reservedForFiction, why: "01632 960000"),
        Known(countryCode: 44, digits: "1614960999", kind: .reservedForFiction, why: "0161 496 0999"),
        Known(countryCode: 44, digits: "2896496500", kind: .reported, why: "028 9649 6500, sources disagree"),
        Known(countryCode: 1, digits: "7700900123", kind: nil, why: "UK digits under +1"),
        // Australia.
        Known(countryCode: 61, digits: "491570006", kind: .reservedForFiction, why: "0491 570 006"),
        Known(countryCode: 61, digits: "491570007", kind: nil, why: "0491 570 007 is not in the list"),
        Known(countryCode: 61, digits: "491570100", kind: nil, why: "006..156 is not a range"),
        Known(countryCode: 61, digits: "255509988", kind: .reservedForFiction, why: "(02) 5550 9988"),
        Known(countryCode: 61, digits: "870100000", kind: .reservedForFiction, why: "(08) 7010 0000"),
        Known(countryCode: 61, digits: "1900654321", kind: .reservedForFiction, why: "1900 654 321"),
        Known(countryCode: 61, digits: "1300975709", kind: .reported, why: "1300 975 709"),
        // Germany.
        Known(countryCode: 49, digits: "3023125000", kind: .reservedForFiction, why: "030 23125 000"),
        Known(countryCode: 49, digits: "8999998999", kind: .reservedForFiction, why: "089 99998 999"),
        Known(countryCode: 49, digits: "3023126000", kind: nil, why: "030 23126 000"),
        Known(countryCode: 49, digits: "15228817386", kind: .reported, why: "0152 28817386"),
    ]

    @Test("known numbers", arguments: known)
    func knownNumbers(_ known: Known) {
        #expect(Self.match(known.countryCode, known.digits)?.kind == known.kind)
    }

    @Test("the seed examples carry their range and source")
    func seedDetails() throws {
        let firebase = try #require(Self.match(1, "6505553434"))
        #expect(firebase.region == "NANP")
        #expect(firebase.first == "xxx5551213" && firebase.last == "xxx5554333")
        let reserved = try #require(Self.match(1, "2125550100"))
        #expect(reserved.first == "xxx5550100" && reserved.last == "xxx5550199")
        #expect(reserved.source.contains("nanpa.com"))
    }

    @Test(
        "garbage matches nothing and never traps",
        arguments: [
            (1, ""), (1, "212555010x"), (1, "212-555-0100"), (1, " 2125550100"), (1, "+12125550100"),
            (1, "٢١٢٥٥٥٠١٠٠"), (44, "77009001234567890123"), (44, String(repeating: "9", count: 10_000)),
            (0, "7700900123"), (-44, "7700900123"), (1000, "7700900123"), (Int.max, "2125550100"),
            (Int.min, "2125550100"), (44, "99999999999999999"), (44, "999999999999999999"),
        ])
    func garbage(_ countryCode: Int, _ digits: String) {
        #expect(Self.match(countryCode, digits) == nil)
    }

    @Test("value and length form agrees with the digit form, leading zeros included")
    func valueForm() {
        #expect(FictionalRanges.match(countryCode: 44, value: 7_700_900_123, length: 10)?.kind == .reservedForFiction)
        #expect(FictionalRanges.match(countryCode: 44, value: 7_700_900_123, length: 11) == nil)
        #expect(FictionalRanges.match(countryCode: 1, value: 5_550_150, length: 10)?.kind == .reservedForFiction)
        #expect(Self.match(1, "0005550150") == FictionalRanges.match(countryCode: 1, value: 5_550_150, length: 10))
        #expect(FictionalRanges.match(countryCode: 44, value: 123, length: 2) == nil)
        #expect(FictionalRanges.match(countryCode: 44, value: 0, length: 0) == nil)
        #expect(FictionalRanges.match(countryCode: 44, value: UInt64.max, length: 17) == nil)
    }

    @Test("bytes from an UnsafeBufferPointer work like any collection")
    func bufferPointer() {
        let bytes: [UInt8] = Array("7700900555".utf8)
        let found = bytes.withUnsafeBufferPointer { FictionalRanges.match(countryCode: 44, nationalNumber: $0) }
        #expect(found?.note.hasPrefix("Mobile") == true)
    }
}
