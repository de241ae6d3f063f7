import Testing

@testable import PhoneNumbers

/// The generated Swift table must be exactly what the TSV says: same bytes (checksum), same rows,
/// same search entries, rebuilt here in memory from the TSV without the generator.
@Suite("Fictional ranges: generated table matches the TSV")
struct FictionalRangesTableTests {
    @Test("the checksum embedded in the generated file is the TSV's")
    func checksum() {
        #expect(
            FictionalRanges.tableChecksum == FictionalTable.checksum,
            "Resources/FictionalRanges/fictional_ranges.tsv changed: run python3 tools/generate_fictional_ranges.py")
    }

    @Test("every fictional row of the TSV is in FictionalRanges.all, in order")
    func rows() {
        let expected = FictionalTable.rows.filter { !$0.isException }.map { row in
            FictionalRange(
                region: row.region, countryCode: row.countryCode, first: row.first, last: row.last,
                kind: FictionalKind(rawValue: row.kind)!, source: row.source, note: row.note)
        }
        #expect(FictionalRanges.all == expected)
    }

    @Test("the search entries are the TSV rows, sorted by group and first number")
    func entries() {
        let publicIndex = Dictionary(
            uniqueKeysWithValues: FictionalTable.rows.filter { !$0.isException }.enumerated().map {
                ($0.element.line, $0.offset)
            })
        let expected = FictionalTable.rows.map { row in
            _FictionalRangeEntry(
                group: UInt32(row.countryCode) << 16 | UInt32(row.length) << 8 | UInt32(row.wildcards),
                first: row.firstValue, last: row.lastValue,
                row: Int16(row.isException ? -1 : publicIndex[row.line]!))
        }.sorted { ($0.group, $0.first) < ($1.group, $1.first) }
        #expect(FictionalRanges.entries == expected)

        var keys: [UInt32] = []
        var bounds: [_FictionalGroupBounds] = []
        for (index, entry) in expected.enumerated() {
            if keys.last == entry.group {
                bounds[bounds.count - 1].end = Int32(index + 1)
            } else {
                keys.append(entry.group)
                bounds.append(_FictionalGroupBounds(start: Int32(index), end: Int32(index + 1)))
            }
        }
        #expect(FictionalRanges.groupKeys == keys)
        #expect(FictionalRanges.groupBounds == bounds)
    }

    @Test("rows of one country code, length and wildcard count do not overlap")
    func disjoint() {
        let sorted = FictionalRanges.entries
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.group == b.group {
            #expect(a.last < b.first, "overlap in group \(String(a.group, radix: 16))")
        }
    }

    @Test("every row names a source and what was verified")
    func provenance() {
        for row in FictionalTable.rows {
            #expect(!row.source.isEmpty, "line \(row.line)")
            #expect(!row.verifiedBy.isEmpty, "line \(row.line)")
        }
    }

    @Test("the kinds round-trip through their raw values")
    func kinds() {
        for kind in FictionalKind.allCases {
            #expect(FictionalKind(rawValue: kind.rawValue) == kind)
        }
        #expect(FictionalKind(rawValue: "not-fictional") == nil)
        #expect(Set(FictionalRanges.all.map(\.kind)) == Set(FictionalKind.allCases))
    }
}
