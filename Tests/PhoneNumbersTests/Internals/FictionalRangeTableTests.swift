import Foundation
import SMSKitTestSupport
import Testing

@testable import PhoneNumbers

/// The generated Swift table must be exactly what the TSV says: same bytes (checksum), same rows, and
/// a compiled lookup that agrees with a naive scan of the TSV.
@Suite("Fictional ranges: generated table matches the TSV")
struct FictionalRangesTableTests {
    @Test("the checksum embedded in the generated file is the TSV's")
    func checksum() {
        #expect(
            FictionalRanges.tableChecksum == FictionalTable.checksum,
            "Resources/FictionalRanges/fictional_ranges.tsv changed: run python3 tools/generate_fictional_ranges.py")
    }

    @Test("every fictional row of the TSV is in FictionalRanges.all, in order, field by field")
    func rows() {
        let expected = FictionalTable.rows.filter { !$0.isException }.map(FictionalTable.Fields.init)
        #expect(FictionalRanges.all.map(FictionalTable.Fields.init) == expected)
    }

    @Test("rows of one country code, length and wildcard count do not overlap")
    func disjoint() {
        let rows = FictionalTable.rows.sorted {
            ($0.countryCode, $0.length, $0.wildcards, $0.firstValue) < ($1.countryCode, $1.length, $1.wildcards, $1.firstValue)
        }
        for (a, b) in zip(rows, rows.dropFirst())
        where (a.countryCode, a.length, a.wildcards) == (b.countryCode, b.length, b.wildcards) {
            #expect(a.lastValue < b.firstValue, "TSV lines \(a.line) and \(b.line) overlap")
        }
    }

    @Test("the compiled lookup agrees with the naive scan on random numbers near and inside every row")
    func randomAgainstOracle() {
        var generator = SplitMix64(seed: 0x5EED_F1C7)
        let fills = ["212", "650", "800", "833", "888", "000", "999"]
        for row in FictionalTable.rows {
            let low = row.firstValue > 2_000 ? row.firstValue - 2_000 : 0
            let limit = UInt64(pow(10.0, Double(row.length - row.wildcards))) - 1
            let high = min(row.lastValue + 2_000, limit)
            for _ in 0..<100 {
                let value = UInt64.random(in: low...high, using: &generator)
                let body = String(value)
                guard body.count <= row.length - row.wildcards else { continue }
                let padded = String(repeating: "0", count: row.length - row.wildcards - body.count) + body
                let digits = String(fills.randomElement(using: &generator)!.prefix(row.wildcards)) + padded
                let found = FictionalRanges.match(countryCode: row.countryCode, nationalNumber: digits.utf8)
                #expect(
                    found.map(FictionalTable.Fields.init)
                        == FictionalTable.expected(countryCode: row.countryCode, digits: digits),
                    "+\(row.countryCode) \(digits)")
            }
        }
    }

    @Test("every row names a source and what was verified")
    func provenance() {
        for row in FictionalTable.rows {
            #expect(!row.source.isEmpty, "line \(row.line)")
            #expect(!row.verifiedBy.isEmpty, "line \(row.line)")
        }
    }

    @Test("the kinds round-trip through their raw values, and every kind is used")
    func kinds() {
        for kind in FictionalKind.allCases {
            #expect(FictionalKind(rawValue: kind.rawValue) == kind)
        }
        #expect(FictionalKind(rawValue: "not-fictional") == nil)
        #expect(Set(FictionalRanges.all.map(\.kind)) == Set(FictionalKind.allCases))
    }

    @Test("a range encodes in full and decodes to the same row; unknown ranges are refused")
    func codable() throws {
        for range in FictionalRanges.all {
            let data = try JSONEncoder().encode(range)
            #expect(try JSONDecoder().decode(FictionalRange.self, from: data) == range)
        }
        let reserved = try #require(FictionalRanges.all.first)
        let json = String(decoding: try JSONEncoder().encode(reserved), as: UTF8.self)
        #expect(json.contains("\"first\":\"xxx5550100\""))
        #expect(json.contains("\"kind\":\"reserved-for-fiction\""))
        let unknown = #"{"region":"GB","countryCode":44,"first":"7700900000","last":"7700900998","kind":"reserved-for-fiction","source":"","note":""}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FictionalRange.self, from: Data(unknown.utf8)) }
        let wrongKind = #"{"region":"GB","countryCode":44,"first":"7700900000","last":"7700900999","kind":"reported","source":"","note":""}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FictionalRange.self, from: Data(wrongKind.utf8)) }
    }
}
