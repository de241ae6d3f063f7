extension RecordReader {
    /// One record handed out by ``RecordReader/next()`` (or, by a fed reader, to the closure of
    /// ``RecordReader/feed(_:_:)`` and ``RecordReader/finish(_:)``).
    ///
    /// The bytes point into the reader's buffer: they are valid until the next call of
    /// ``RecordReader/next()`` (for a fed reader, during the closure's call) and must be copied
    /// to be kept.
    public struct Record {
        /// The record's first line (1-based, counting physical lines: a CSV record with quoted
        /// newlines covers several).
        public var line: Int
        /// How many physical lines the record covers: 1, or more when a quoted field holds line
        /// breaks (the next record starts at line ``line`` + `lineCount`).
        public var lineCount: Int
        /// The record's 1-based number in its input, a header row included, problem records
        /// included (so that it matches what a spreadsheet calls row *n*).
        public var record: Int
        /// The record's bytes without its line terminator (LF, or CR LF). Empty when the record
        /// was too long and skipped; the first line only for ``RecordProblem/unclosedQuote``.
        public var bytes: UnsafeRawBufferPointer
        /// True when the record (without its terminator) is longer than
        /// ``RecordReader/maximumRecordBytes``; report it as an error and ignore ``bytes``.
        public var isTooLong: Bool
        /// Why the record is not a normal one, or `nil`: report it as an error record.
        public var problem: RecordProblem?

        /// Creates a record.
        public init(line: Int, bytes: UnsafeRawBufferPointer, isTooLong: Bool) {
            self.init(line: line, record: line, bytes: bytes, problem: isTooLong ? .tooLong : nil)
        }

        /// Creates a record with its record number, problem and number of lines.
        public init(line: Int, record: Int, bytes: UnsafeRawBufferPointer, problem: RecordProblem?, lineCount: Int = 1) {
            self.init(line: line, record: record, bytes: bytes, isTooLong: problem == .tooLong, problem: problem, lineCount: lineCount)
        }

        init(line: Int, record: Int, bytes: UnsafeRawBufferPointer, isTooLong: Bool, problem: RecordProblem?, lineCount: Int = 1) {
            self.line = line
            self.lineCount = lineCount
            self.record = record
            self.bytes = bytes
            self.isTooLong = isTooLong
            self.problem = problem
        }
    }
}

/// Why a record handed out by ``RecordReader/next()`` is not a normal one.
///
/// A growing set: compare with the static members, switch on ``code`` for output.
///
/// ```swift
/// if record.problem == .unclosedQuote { print("line \(record.line): \(record.problem!.message)") }
/// ```
public struct RecordProblem: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable { case tooLong, unclosedQuote }
    private let kind: Kind

    /// The record is longer than ``RecordReader/maximumRecordBytes`` and was skipped.
    public static let tooLong = RecordProblem(kind: .tooLong)
    /// A quote opened on the record's first line did not close within
    /// ``RecordReader/maximumQuotedLines`` lines, the record limit, or the input: the record is
    /// cut at the end of its first line and reading goes on from the next line.
    public static let unclosedQuote = RecordProblem(kind: .unclosedQuote)

    /// A stable code for output: `record_too_long`, `unclosed_quote`.
    public var code: String {
        switch kind {
        case .tooLong: return "record_too_long"
        case .unclosedQuote: return "unclosed_quote"
        }
    }

    /// A sentence for the user.
    public var message: String {
        switch kind {
        case .tooLong: return "the record is longer than the limit and was skipped"
        case .unclosedQuote: return "a quote opened on this line is never closed; the record was cut at the end of the line"
        }
    }

    /// The ``code``.
    public var description: String { code }
}
