/// How a table is read: its input format, the dialect of its records and whether its first
/// record is a header row.
///
/// The one place where `validate`, `find` and `segments --lines` decide these: a layout is made
/// from the command's options before reading, settled on the file's first record (the delimiter
/// of a CSV file is detected there unless one was given), and then asked whether that record is
/// a header.
///
/// ```swift
/// var layout = TableLayout(format: TableLayout.format(forPath: "contacts.csv"))
/// let reader = RecordReader(fd: fd, name: "contacts.csv", dialect: layout.dialect)
/// if let first = try reader.next() {
///     layout.settle(on: first, reader: reader)   // ';' detected in the first row ...
///     let header = layout.isHeader(first, parsesAsNumber: { engine.parses($0) }) ? layout.header(first) : nil
/// }
/// ```
public struct TableLayout: Sendable, Equatable {
    /// How the input is split into records and fields.
    public let format: InputFormat
    /// The fields' dialect; `nil` for ``InputFormat/lines`` (one field a record).
    public private(set) var dialect: CSVDialect?
    /// Whether ``settle(on:reader:)`` detects a CSV file's delimiter from its first record.
    public let detectsDelimiter: Bool
    /// What ``settle(on:reader:)`` found, as a sentence for a summary; `nil` when nothing was
    /// detected.
    public private(set) var detection: DelimiterDetection?

    /// A layout for `format`.
    ///
    /// - Parameters:
    ///   - format: Lines, CSV or TSV.
    ///   - dialect: The dialect the user gave (`--delimiter`, `--quote`), if any; otherwise a
    ///     comma with `"` quotes for CSV and tab without quoting for TSV.
    ///   - detectsDelimiter: Whether a CSV file's delimiter is detected from its first record
    ///     (not when the user gave one).
    public init(format: InputFormat, dialect given: CSVDialect? = nil, detectsDelimiter: Bool = true) {
        self.format = format
        switch format {
        case .lines: dialect = nil
        case .tsv: dialect = given ?? .plainTab
        case .csv: dialect = given ?? .comma
        }
        self.detectsDelimiter = detectsDelimiter && format == .csv
    }

    /// The layout of plain lines: one record a line, the whole line one field, no header.
    public static let lines = TableLayout(format: .lines)

    /// The format a file's name suggests: `.csv` is CSV, `.tsv` and `.tab` are TSV, anything
    /// else is `otherwise`.
    public static func format(forPath path: String, otherwise: InputFormat = .lines) -> InputFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".tsv") || lower.hasSuffix(".tab") { return .tsv }
        return otherwise
    }

    /// Settles the layout on the file's first record: a CSV file's delimiter is detected there
    /// (with the quote of ``dialect``), and `reader` splits the following records with it. A
    /// first record that could not be read whole (too long, not closed) decides nothing.
    ///
    /// - Parameters:
    ///   - first: The first record read.
    ///   - reader: The reader it came from.
    public mutating func settle(on first: RecordReader.Record, reader: RecordReader) {
        guard detectsDelimiter, first.problem == nil else { return }
        let found = DelimiterDetection.detect(in: first.bytes, quote: dialect?.quote)
        dialect = found.dialect
        detection = found
        // From the second record on, a quoted field starts after the delimiter found.
        reader.delimiter = found.dialect.delimiter
    }

    /// Whether `first` is a header row.
    ///
    /// The user's choice decides when there is one (`--header`, or `--no-header`: even plain
    /// lines may start with a title line to skip). Otherwise plain lines have none; a column
    /// named by the user means there is one; else the row is read as
    /// ``HeaderDetection/isHeader(_:parsesAsNumber:)`` says, when it was read whole.
    ///
    /// - Parameters:
    ///   - first: The first record.
    ///   - given: The user's choice, if any.
    ///   - namesColumn: Whether the user named a column (`--column phone`).
    ///   - parsesAsNumber: Whether a cell parses as a phone number; `nil` for tables whose
    ///     header is known only from a named column (messages are not numbers).
    public func isHeader(_ first: RecordReader.Record, given: Bool? = nil, namesColumn: Bool = false,
                         parsesAsNumber: ((String) -> Bool)? = nil) -> Bool {
        if let given { return given }
        guard format != .lines else { return false }
        if namesColumn { return true }
        guard let parsesAsNumber, first.problem == nil else { return false }
        return HeaderDetection.isHeader(RecordFields.all(first.bytes, dialect: dialect), parsesAsNumber: parsesAsNumber)
    }

    /// The header row in `first`, split with the settled dialect.
    public func header(_ first: RecordReader.Record) -> HeaderRow {
        HeaderRow(first.bytes, dialect: dialect)
    }
}
