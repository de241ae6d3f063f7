/// A range of telephone numbers kept out of service for fiction, tests or examples.
///
/// Ranges come from the table in `Resources/FictionalRanges/fictional_ranges.tsv`, compiled into the
/// library by `tools/generate_fictional_ranges.py`; ``FictionalRanges/all`` lists them. Each range
/// covers the national significant numbers (no trunk prefix, no country code) of one length from
/// ``first`` to ``last`` inclusive.
///
/// A range may start with a run of `x`, meaning "any digit": the NANP block reserved for fiction is
/// `xxx5550100` to `xxx5550199`, that is 555-0100 to 555-0199 behind every area code.
///
/// A value is a handle on a row of the compiled table, so copying one costs nothing and the text
/// properties are read from the table when asked for. Two values are equal when they are the same row.
///
/// ```swift
/// let engine = PhoneNumberEngine()
/// let range = engine.fictionalRange(of: try engine.parse(e164: "+442079460123"))
/// range?.first            // "2079460000"
/// range?.kind.rawValue    // "reserved-for-fiction"
/// ```
///
/// When encoded, a range is written out in full (region, country code, first, last, kind, source,
/// note); decoding looks the row up again by country code, first and last, and fails for a range
/// this version of the table does not have.
public struct FictionalRange: Sendable, Hashable {
    let _row: UInt16

    /// Why the numbers of this range are fictional, and how strong that claim is.
    public let kind: FictionalKind

    init(_row row: UInt16, kind: FictionalKind) {
        self._row = row
        self.kind = kind
    }

    var _data: _FictionalRowData { FictionalRanges._rowData[Int(_row)] }

    /// The ISO 3166-1 alpha-2 region the range belongs to, or `NANP` for a range that applies to every
    /// country of calling code 1.
    public var region: String { _data.region }

    /// The ITU country calling code, such as 44 for the United Kingdom.
    public var countryCode: Int { _data.countryCode }

    /// The first national significant number of the range, as digits, possibly led by `x` wildcards.
    public var first: String { _data.first }

    /// The last national significant number of the range: same length and same wildcards as ``first``.
    /// Equal to ``first`` for a single number.
    public var last: String { _data.last }

    /// The regulator, document and URL the range comes from.
    public var source: String { _data.source }

    /// A human description of the range, with the number as written nationally.
    public var note: String { _data.note }

    /// Whether the range is a single number (``first`` equals ``last``).
    public var isSingleNumber: Bool { first == last }
}

extension FictionalRange: Codable {
    private enum CodingKeys: String, CodingKey {
        case region, countryCode, first, last, kind, source, note
    }

    /// Encodes every field of the range.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(region, forKey: .region)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(first, forKey: .first)
        try container.encode(last, forKey: .last)
        try container.encode(kind, forKey: .kind)
        try container.encode(source, forKey: .source)
        try container.encode(note, forKey: .note)
    }

    /// Decodes a range and finds it in the table by country code, first and last.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the table has no such range, or when its kind
    ///   differs from the table's; the decoder's errors otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let countryCode = try container.decode(Int.self, forKey: .countryCode)
        let first = try container.decode(String.self, forKey: .first)
        let last = try container.decode(String.self, forKey: .last)
        let kind = try container.decode(FictionalKind.self, forKey: .kind)
        guard
            let row = FictionalRanges._rowData.firstIndex(where: {
                $0.countryCode == countryCode && $0.first == first && $0.last == last
            })
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .first, in: container,
                debugDescription: "No fictional range +\(countryCode) \(first)...\(last) in this version of the table.")
        }
        guard FictionalRanges._rowData[row].kind == kind else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription:
                    "The range +\(countryCode) \(first)...\(last) is \(FictionalRanges._rowData[row].kind.rawValue) in this version of the table, not \(kind.rawValue).")
        }
        self.init(_row: UInt16(row), kind: kind)
    }
}
