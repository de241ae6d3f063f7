import Foundation
import PhoneNumbers

/// The fictional-range table read straight from the TSV, independently of the generator, and a naive
/// linear-scan oracle over it.
enum FictionalTable {
    struct Row: Equatable {
        var line: Int
        var region: String
        var countryCode: Int
        var first: String
        var last: String
        var kind: String
        var source: String
        var verifiedBy: String
        var note: String

        var wildcards: Int { first.prefix { $0 == "x" }.count }
        var length: Int { first.count }
        var firstValue: UInt64 { UInt64(first.dropFirst(wildcards))! }
        var lastValue: UInt64 { UInt64(last.dropFirst(wildcards))! }
        var isException: Bool { kind == "not-fictional" }

        /// Whether this row covers the digits (same length, wildcards ignored).
        func covers(_ digits: String) -> Bool {
            guard digits.count == length, let value = UInt64(digits.dropFirst(wildcards)) else { return false }
            return firstValue <= value && value <= lastValue
        }

        /// The row's first or last number with its wildcards replaced by `fill` (cycled).
        func concrete(_ number: String, fill: String) -> String {
            let prefix = String(fill.prefix(wildcards))
            return prefix + number.dropFirst(wildcards)
        }
    }

    static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PhoneNumbersTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Resources/FictionalRanges/fictional_ranges.tsv")

    static let bytes: [UInt8] = {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("cannot read \(url.path)")
        }
        return [UInt8](data)
    }()

    static let rows: [Row] = {
        let text = String(decoding: bytes, as: UTF8.self)
        var rows: [Row] = []
        var headerSeen = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if !headerSeen {
                headerSeen = true
                continue
            }
            precondition(fields.count == 8, "line \(index + 1): \(fields.count) fields")
            rows.append(
                Row(
                    line: index + 1, region: fields[0], countryCode: Int(fields[1])!, first: fields[2],
                    last: fields[3], kind: fields[4], source: fields[5], verifiedBy: fields[6], note: fields[7]))
        }
        return rows
    }()

    /// FNV-1a 64 over the TSV bytes, as the generator computes it.
    static var checksum: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Naive oracle: the row a number falls in, exact rows before wildcard rows, by linear scan.
    static func oracle(countryCode: Int, digits: String) -> Row? {
        let candidates = rows.filter { $0.countryCode == countryCode && $0.covers(digits) }
        return candidates.min { $0.wildcards < $1.wildcards }
    }

    /// The public fields of a range, for comparisons.
    struct Fields: Equatable, CustomStringConvertible {
        var region: String
        var countryCode: Int
        var first: String
        var last: String
        var kind: String
        var source: String
        var note: String

        init(_ row: Row) {
            (region, countryCode, first, last, kind, source, note) =
                (row.region, row.countryCode, row.first, row.last, row.kind, row.source, row.note)
        }

        init(_ range: FictionalRange) {
            (region, countryCode, first, last, kind, source, note) =
                (range.region, range.countryCode, range.first, range.last, range.kind.rawValue, range.source, range.note)
        }

        var description: String { "+\(countryCode) \(first)...\(last) \(kind)" }
    }

    /// The fields of the range the oracle expects, or nil for no row or an exception row.
    static func expected(countryCode: Int, digits: String) -> Fields? {
        guard let row = oracle(countryCode: countryCode, digits: digits), !row.isException else { return nil }
        return Fields(row)
    }

    /// `digits` plus `delta`, kept at the same length, or nil when it would leave that length.
    static func offset(_ digits: String, by delta: Int64) -> String? {
        guard let value = UInt64(digits) else { return nil }
        let shifted = Int64(value) + delta
        guard shifted >= 0 else { return nil }
        let text = String(shifted)
        guard text.count <= digits.count else { return nil }
        return String(repeating: "0", count: digits.count - text.count) + text
    }
}
