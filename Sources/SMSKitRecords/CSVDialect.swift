/// How the fields of a delimited record are separated and quoted.
///
/// Any single ASCII character may separate fields (`,` `;` tab `|` ...); a quote character, when
/// there is one, lets a field hold separators, quotes (doubled) and newlines, as in RFC 4180.
/// Excel's "Unicode text" export is tab-separated with quotes: ``tab``.
///
/// ```swift
/// let dialect = CSVDialect(delimiter: ";")!            // a semicolon Excel export
/// var field: [UInt8] = []
/// Array(#"Ann;"+33 1 23 45 67 89""#.utf8).withUnsafeBytes {
///     RecordFields.extract(1, from: $0, dialect: dialect, into: &field)   // true: +33 1 23 45 67 89
/// }
/// ```
public struct CSVDialect: Hashable, Sendable, CustomStringConvertible {
    /// The byte between fields: an ASCII character other than CR, LF and the quote.
    public let delimiter: UInt8
    /// The quote byte, or `nil` when fields are never quoted (plain TSV).
    public let quote: UInt8?

    /// Creates a dialect, or `nil` when a byte is not ASCII, is CR or LF, or both are the same.
    ///
    /// - Parameters:
    ///   - delimiter: The byte between fields.
    ///   - quote: The quote byte (`"` by default), or `nil` for no quoting.
    public init?(delimiter: UInt8, quote: UInt8? = UInt8(ascii: "\"")) {
        func usable(_ byte: UInt8) -> Bool { byte < 0x80 && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") }
        guard usable(delimiter), quote.map(usable) ?? true, quote != delimiter else { return nil }
        self.delimiter = delimiter
        self.quote = quote
    }

    /// Creates a dialect from the spelling a user gives on a command line, or `nil`.
    ///
    /// `delimiter` is one ASCII character, or `tab`, `\t`, `comma`, `semicolon`, `pipe`, `space`;
    /// `quote` is one ASCII character, or `nil` or the empty string for no quoting.
    ///
    /// ```swift
    /// CSVDialect(delimiter: "tab")        // tab-separated, quoted with "
    /// CSVDialect(delimiter: "§")          // nil: not ASCII
    /// ```
    public init?(delimiter: String, quote: String? = "\"") {
        let names: [String: UInt8] = [
            "tab": 0x09, "\\t": 0x09, "comma": 0x2C, "semicolon": 0x3B, "pipe": 0x7C, "space": 0x20,
        ]
        func single(_ text: String) -> UInt8? {
            let bytes = Array(text.utf8)
            return bytes.count == 1 ? bytes[0] : nil
        }
        guard let byte = names[delimiter.lowercased()] ?? single(delimiter) else { return nil }
        var quoteByte: UInt8?
        if let quote, !quote.isEmpty {
            guard let single = single(quote) else { return nil }
            quoteByte = single
        }
        self.init(delimiter: byte, quote: quoteByte)
    }

    /// A dialect whose bytes are known to be valid (no checks, no optional: for constants).
    init(validDelimiter delimiter: UInt8, quote: UInt8?) {
        self.delimiter = delimiter
        self.quote = quote
    }

    /// Comma-separated, quoted with `"` (RFC 4180).
    public static let comma = CSVDialect(delimiter: UInt8(ascii: ","))!
    /// Semicolon-separated, quoted with `"` (Excel's CSV where the decimal separator is a comma).
    public static let semicolon = CSVDialect(delimiter: UInt8(ascii: ";"))!
    /// Tab-separated, quoted with `"` (Excel's "Unicode text").
    public static let tab = CSVDialect(delimiter: UInt8(ascii: "\t"))!
    /// Pipe-separated, quoted with `"`.
    public static let pipe = CSVDialect(delimiter: UInt8(ascii: "|"))!
    /// Tab-separated without quoting (``InputFormat/tsv``).
    public static let plainTab = CSVDialect(delimiter: UInt8(ascii: "\t"), quote: nil)!

    /// A readable name for the delimiter: `','`, `';'`, `tab`, `'|'`.
    public var delimiterName: String { Self.name(of: delimiter) }

    /// `delimiter ';', quote '"'`.
    public var description: String {
        "delimiter \(delimiterName), " + (quote.map { "quote \(Self.name(of: $0))" } ?? "no quoting")
    }

    static func name(of byte: UInt8) -> String {
        switch byte {
        case 0x09: return "tab"
        case 0x20: return "space"
        case 0x00..<0x20, 0x7F: return "byte \(byte)"
        default: return "'" + String(UnicodeScalar(byte)) + "'"
        }
    }
}

extension InputFormat {
    /// The dialect that splits this format's fields, or `nil` for ``lines`` (one field).
    public var dialect: CSVDialect? {
        switch self {
        case .lines: return nil
        case .csv: return CSVDialect(validDelimiter: UInt8(ascii: ","), quote: UInt8(ascii: "\""))
        case .tsv: return CSVDialect(validDelimiter: 0x09, quote: nil)
        }
    }
}
