/// The delimiter chosen from a header row, and why: see ``DelimiterDetection/detect(in:quote:)``.
///
/// ```swift
/// let header: [UInt8] = Array("Name;Given Name;Mobile Phone".utf8)
/// let detection = header.withUnsafeBytes { DelimiterDetection.detect(in: $0) }
/// detection.dialect.delimiterName   // "';'"
/// detection.reason                   // "';' detected in the first row (2 ';', 0 ',', 0 tab, 0 '|')"
/// ```
public struct DelimiterDetection: Hashable, Sendable {
    /// The dialect to read the file with.
    public var dialect: CSVDialect
    /// One sentence for a summary: what was chosen and from which counts.
    public var reason: String
    /// How often each candidate occurs outside quotes, in the order `,` `;` tab `|`.
    public var counts: [Int]

    /// The candidates, in the order of ``counts``; on a tie the earlier one wins.
    public static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// Picks `,` `;` tab or `|` from a header row: the one found most often outside quoted fields.
    ///
    /// A pure function of the row's bytes. A row without any of them is read as one column,
    /// with a comma (the reason says so).
    ///
    /// - Parameters:
    ///   - header: The first record's bytes, without its terminator.
    ///   - quote: The quote byte (`"` by default), or `nil`.
    /// - Returns: The dialect (with `quote`) and the reason.
    /// - Complexity: O(*n*) in the row's length.
    public static func detect(in header: UnsafeRawBufferPointer, quote: UInt8? = UInt8(ascii: "\"")) -> DelimiterDetection {
        var counts = [0, 0, 0, 0]
        // As the reader splits fields: a quote opens a quoted part only at a field's start (here:
        // the row's start or right after a candidate), and a doubled quote inside one is text.
        var inQuotes = false
        var atFieldStart = true
        var previousWasQuote = false
        for byte in header {
            if inQuotes {
                if byte == quote { inQuotes = false; previousWasQuote = true }
                continue
            }
            if let quote, byte == quote, atFieldStart || previousWasQuote {
                inQuotes = true
                atFieldStart = false
                previousWasQuote = false
                continue
            }
            previousWasQuote = false
            if let index = candidates.firstIndex(of: byte) {
                counts[index] += 1
                atFieldStart = true
            } else {
                atFieldStart = false
            }
        }
        var best = 0
        for index in 1..<counts.count where counts[index] > counts[best] { best = index }
        let summary = zip(candidates, counts).map { "\($1) \(CSVDialect.name(of: $0))" }.joined(separator: ", ")
        guard counts[best] > 0 else {
            let dialect = CSVDialect(delimiter: UInt8(ascii: ","), quote: quote) ?? .comma
            return DelimiterDetection(dialect: dialect, reason: "no ',' ';' tab or '|' in the first row: one column", counts: counts)
        }
        let delimiter = candidates[best]
        let dialect = CSVDialect(delimiter: delimiter, quote: quote == delimiter ? nil : quote) ?? .comma
        return DelimiterDetection(dialect: dialect, reason: "\(CSVDialect.name(of: delimiter)) detected in the first row (\(summary))", counts: counts)
    }
}
