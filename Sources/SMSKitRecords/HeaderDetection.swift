/// Decides whether a first row is a header, and which column holds the phone numbers.
///
/// Pure functions, free of any phone-number engine: where a decision needs to know whether a cell
/// is a number, the caller passes a predicate (`smskit` passes its engine's parse).
///
/// ```swift
/// let header = ["Name", "Given Name", "Phone 1 - Type", "Phone 1 - Value"]
/// HeaderDetection.isHeader(header) { engine.parses($0) }     // true: no cell is a number
/// let choice = HeaderDetection.phoneColumn(header: header)!
/// choice.index    // 3
/// choice.reason   // "column 4 'Phone 1 - Value', by its name ('phone')"
/// ```
public enum HeaderDetection {
    /// Whether `cells`, a file's first row, is a header rather than data.
    ///
    /// It is a header when no cell parses as a number, no cell is mostly digits (six or more
    /// digits, more digits than letters: a data row with a bad number), and at least one cell
    /// has a letter. So `Phone 1 - Value` (one digit) is a name, and `+44 20 7946 0000` is data.
    ///
    /// - Parameters:
    ///   - cells: The first row's fields.
    ///   - parsesAsNumber: Whether a cell parses as a phone number (the caller's engine).
    /// - Returns: True for a header.
    public static func isHeader(_ cells: [String], parsesAsNumber: (String) -> Bool) -> Bool {
        var hasLetter = false
        for cell in cells {
            var digits = 0
            var letters = 0
            for scalar in cell.unicodeScalars {
                if scalar.properties.numericType == .decimal { digits += 1 } else if scalar.properties.isAlphabetic { letters += 1 }
            }
            if digits >= 6 && digits > letters { return false }
            if letters > 0 { hasLetter = true }
            if !cell.isEmpty && parsesAsNumber(cell) { return false }
        }
        return hasLetter
    }

    /// A column chosen for phone numbers, and why.
    public struct ColumnChoice: Hashable, Sendable {
        /// How the column was found.
        public enum Method: String, Hashable, Sendable {
            /// By the header's name (`phone`, `Mobile Phone`, `Telefon`, `電話` ...).
            case headerName
            /// By content: the column where most sampled cells parse as numbers.
            case content
        }

        /// The 0-based column.
        public var index: Int
        /// The column's header name, when there is a header.
        public var name: String?
        /// How it was found.
        public var method: Method
        /// One sentence for `--summary`.
        public var reason: String
    }

    /// The word lists behind ``phoneColumn(header:)``, lowercased; see `PhoneColumnWords.swift`.
    static func score(ofHeaderName name: String) -> (score: Int, word: String)? {
        PhoneColumnWords.score(name)
    }

    /// Every header cell that names a phone column, best first: mobile words (`Mobile Phone`,
    /// `Handy`, `Celular`, `手机`) before phone words (`Phone 1 - Value`, `Telefon`, `電話`)
    /// before bare number words (`Number`, `Nummer`); leftmost first within a rank. Cells naming
    /// a type, label, fax, pager, extension or country code are not phone columns.
    ///
    /// - Parameter header: The header row's cells.
    /// - Returns: The 0-based indices.
    public static func phoneColumns(header: [String]) -> [Int] {
        let scored = header.enumerated().compactMap { index, name in score(ofHeaderName: name).map { (index, $0.score) } }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    /// The phone column named by a header, or `nil` when no cell names one.
    ///
    /// - Parameter header: The header row's cells.
    /// - Returns: The best of ``phoneColumns(header:)``, with a reason naming the others.
    public static func phoneColumn(header: [String]) -> ColumnChoice? {
        let columns = phoneColumns(header: header)
        guard let best = columns.first, let match = score(ofHeaderName: header[best]) else { return nil }
        var reason = "column \(best + 1) '\(header[best])', by its name ('\(match.word)')"
        let others = columns.dropFirst().prefix(3).map { "'\(header[$0])'" }
        if !others.isEmpty { reason += "; other phone columns: " + others.joined(separator: ", ") + (columns.count > 4 ? ", ..." : "") }
        return ColumnChoice(index: best, name: header[best], method: .headerName, reason: reason)
    }

    /// The column where most of the sampled rows' cells parse as numbers, or `nil` when no
    /// cell does.
    ///
    /// - Parameters:
    ///   - rows: Sampled data rows (say the first 100), as cells.
    ///   - header: The header's cells, if any (for the name in the reason).
    ///   - parsesAsNumber: Whether a cell parses as a phone number (the caller's engine).
    /// - Returns: The column, with a reason giving the count.
    public static func phoneColumn(byContent rows: [[String]], header: [String]? = nil,
                                   parsesAsNumber: (String) -> Bool) -> ColumnChoice? {
        var counts: [Int] = []
        for row in rows {
            for (index, cell) in row.enumerated() where !cell.isEmpty && parsesAsNumber(cell) {
                while counts.count <= index { counts.append(0) }
                counts[index] += 1
            }
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }),
              counts[best] > 0 else { return nil }
        let name = header.flatMap { best < $0.count ? $0[best] : nil }
        let label = name.map { "column \(best + 1) '\($0)'" } ?? "column \(best + 1)"
        return ColumnChoice(index: best, name: name, method: .content,
                            reason: "\(label), by content: \(counts[best]) of \(rows.count) sampled rows parse as numbers there")
    }
}
