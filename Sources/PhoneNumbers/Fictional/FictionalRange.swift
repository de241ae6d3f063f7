/// A range of telephone numbers kept out of service for fiction, tests or examples.
///
/// Ranges come from the table in `Resources/FictionalRanges/fictional_ranges.tsv`, compiled into the
/// library by `tools/generate_fictional_ranges.py`. Each range covers the national significant numbers
/// (no trunk prefix, no country code) of one length from ``first`` to ``last`` inclusive.
///
/// A range may start with a run of `x`, meaning "any digit": the NANP block reserved for fiction is
/// `xxx5550100` to `xxx5550199`, that is 555-0100 to 555-0199 behind every area code.
///
/// ```swift
/// let london = FictionalRanges.all.first { $0.note.hasPrefix("London") }
/// print(london?.first ?? "")    // "2079460000"
/// print(london?.kind.rawValue ?? "")  // "reserved-for-fiction"
/// ```
public struct FictionalRange: Sendable, Hashable, Codable {
    /// The ISO 3166-1 alpha-2 region the range belongs to, or `NANP` for a range that applies to every
    /// country of calling code 1.
    public var region: String

    /// The ITU country calling code, such as 44 for the United Kingdom.
    public var countryCode: Int

    /// The first national significant number of the range, as digits, possibly led by `x` wildcards.
    public var first: String

    /// The last national significant number of the range: same length and same wildcards as ``first``.
    /// Equal to ``first`` for a single number.
    public var last: String

    /// Why the numbers of this range are fictional, and how strong that claim is.
    public var kind: FictionalKind

    /// The regulator, document and URL the range comes from.
    public var source: String

    /// A human description of the range, with the number as written nationally.
    public var note: String

    /// Creates a range.
    ///
    /// The library's own ranges are in ``FictionalRanges/all``; this initializer exists for values that
    /// are decoded or built by hand (for example in tests).
    ///
    /// - Parameters:
    ///   - region: ISO 3166-1 alpha-2 region, or `NANP`.
    ///   - countryCode: ITU country calling code.
    ///   - first: First national significant number of the range.
    ///   - last: Last national significant number of the range.
    ///   - kind: Why the numbers are fictional.
    ///   - source: Regulator, document and URL.
    ///   - note: Human description.
    public init(
        region: String, countryCode: Int, first: String, last: String, kind: FictionalKind,
        source: String, note: String
    ) {
        self.region = region
        self.countryCode = countryCode
        self.first = first
        self.last = last
        self.kind = kind
        self.source = source
        self.note = note
    }

    /// Whether the range is a single number (``first`` equals ``last``).
    public var isSingleNumber: Bool { first == last }
}
