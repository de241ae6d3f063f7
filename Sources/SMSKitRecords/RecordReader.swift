import CSMSKitICU
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor in large blocks and splits it into records at bytes.
///
/// Without a quote byte (lines, TSV) records end at LF, and a CR before the LF is dropped (CRLF
/// files). With a quote byte (CSV) records end as RFC 4180 readers (Python's `csv`, Excel) end
/// them: at LF, CR LF or a lone CR outside a quoted field; a quote opens a quoted field only as a
/// field's first byte (elsewhere it is an ordinary byte), a doubled quote inside one is one quote,
/// and line breaks inside one are the field's. ``Record/line`` counts physical lines (LF, CR LF
/// and a lone CR each end one), so a record that spans lines is told apart from the next. A UTF-8 byte order mark at the start is skipped. Other
/// encodings are decoded to UTF-8 through ICU block by block: one asked for by name
/// (``InputEncoding``), or, in ``InputEncoding/automatic``, UTF-16 or UTF-32 with a byte order
/// mark. In ``InputEncoding/automatic`` a regular file is first read through once (with
/// `pread(2)`, in blocks) to count its lines with bytes that are not UTF-8 (``UTF8Census``): a
/// file consistently in a legacy encoding is refused with a ``RecordReadError`` naming the
/// `--encoding` to give, before any record is handed out, wherever its first bad byte is; a few
/// bad bytes stay in their records. From a pipe the decision is made on the first block read.
/// The last record needs no final newline.
///
/// Bad input never takes the rest of the file with it:
/// - a record longer than ``maximumRecordBytes`` is not kept: its bytes are skipped up to its
///   end and it is reported with ``RecordProblem/tooLong``;
/// - a quoted field that is still open over more than ``maximumQuotedLines`` line breaks, past
///   the record limit, or at the end of the input, was opened by a stray quote: the record is cut
///   at the end of its first line and reported with ``RecordProblem/unclosedQuote``, and the
///   lines it would have swallowed are read again as records from the next line, so that no
///   line is lost without a report.
///
/// Memory stays at one buffer (two when decoding UTF-16) whatever the input and record sizes.
///
/// ```swift
/// let reader = RecordReader(fd: fd, name: "contacts.csv", dialect: .semicolon)
/// var field: [UInt8] = []
/// while let record = try reader.next() {
///     if let problem = record.problem { print("line \(record.line): \(problem.message)"); continue }
///     if RecordFields.extract(1, from: record.bytes, dialect: .semicolon, into: &field) { /* column 2 */ }
/// }
/// ```
///
/// A reader created without a descriptor is fed instead (push mode, for a body that arrives in
/// chunks, such as an HTTP request's): ``feed(_:_:)`` hands out every record that the bytes fed so
/// far complete, and ``finish(_:)`` the last one. Its records are those the pull mode gives for
/// the same bytes, wherever the chunks end, since both run the same splitting over the same
/// buffer: the fed bytes are copied into it as a descriptor's are read into it. A fed reader
/// takes its bytes as UTF-8 as they are: it neither decodes nor skips a byte order mark.
///
/// ```swift
/// let reader = RecordReader(name: "request body", dialect: nil, maximumRecordBytes: 4096)
/// for chunk in chunks { chunk.withUnsafeBytes { reader.feed($0) { record in /* … */ } } }
/// reader.finish { record in /* … */ }
/// ```
///
/// A reader is not thread-safe; use one per descriptor or stream.
public final class RecordReader {
    /// The default longest record kept, in bytes (64 KiB).
    public static let defaultMaximumRecordBytes = 65_536
    /// The default number of line breaks a quoted field may span (100).
    public static let defaultMaximumQuotedLines = 100

    /// The descriptor read; the reader does not close it. -1 for a reader that is fed.
    public let fd: Int32
    /// The input's name for error messages (`<stdin>` for standard input).
    public let name: String
    /// How records end: ``InputFormat/csv`` when a quote byte is honoured.
    public let format: InputFormat
    /// The quote byte whose fields may hold newlines, or `nil`.
    public let quote: UInt8?
    /// The delimiter, which tells where a field (and so a quoted field) may start. Set it once
    /// the delimiter is known, such as after detecting it from the header row; records already
    /// handed out are not read again.
    @exclusivity(unchecked) public var delimiter: UInt8
    /// The longest record kept, in bytes, without its terminator; longer ones are skipped and
    /// reported with ``Record/isTooLong``.
    public let maximumRecordBytes: Int
    /// How many line breaks one quoted field may span before its quote is taken as stray.
    public let maximumQuotedLines: Int
    /// The encoding asked for.
    public let encoding: InputEncoding
    /// What was found at the input's start (after the first ``next()``).
    public private(set) var detectedEncoding: EncodingDetection?
    /// How many records were reported with ``RecordProblem/unclosedQuote`` so far.
    @exclusivity(unchecked) public private(set) var unclosedQuoteCount = 0
    /// How many records were reported with ``RecordProblem/tooLong`` so far.
    @exclusivity(unchecked) public private(set) var tooLongCount = 0

    private let storage: UnsafeMutableRawBufferPointer
    // The reader is used by one thread and never re-entered, so the runtime's exclusivity
    // checks on these (a call into the Swift runtime per record) have nothing to find.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var eof = false
    @exclusivity(unchecked) private var atFileStart = true
    @exclusivity(unchecked) private var nextLine = 1
    @exclusivity(unchecked) private var nextRecord = 1
    /// The last record ended at a CR: an LF right after it belongs to that line end.
    @exclusivity(unchecked) private var pendingLF = false
    private var failure: RecordReadError?
    /// Set while a fed reader waits for more bytes inside a record: where ``next()`` goes on.
    @exclusivity(unchecked) private var suspension: Suspension?

    /// What a fed reader that ran out of bytes inside a record keeps to go on where it stopped.
    private enum Suspension {
        /// Scanning a record: how far (from `start`), and the scan's state.
        case scanning(scanned: Int, state: FieldState, newlines: Int, firstNewline: Int)
        /// Skipping a record that is too long (`start` is one byte behind where skipping goes on).
        case skipping(SkipState)
    }

    /// A fed reader's bytes: the chunk that ``feed(_:_:)`` was given, and how much of it was
    /// taken into the buffer.
    private var fed = UnsafeRawBufferPointer(start: nil, count: 0)
    private var fedTaken = 0
    private var isFed = false

    // Decoding: raw bytes from the descriptor, decoded into `storage` by `fill()` through ICU.
    private var raw: UnsafeMutableRawBufferPointer?
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false
    private var decoder: OpaquePointer?
    private var decoderPending = false
    private var rawDecoded = 0       // raw bytes decoded so far, byte order mark included
    private var decodedBytes = 0     // UTF-8 bytes they gave
    private var consumedHighWater = 0

    /// Bytes read from the descriptor (or taken from what was fed) so far.
    @exclusivity(unchecked) public private(set) var bytesRead = 0
    /// Bytes handed out as records so far, terminators and a skipped byte order mark included
    /// (for progress; estimated from the decoding ratio for UTF-16). Never decreases.
    public var bytesConsumed: Int {
        guard raw != nil else { return bytesRead - (end - start) }
        let unread = decodedBytes == 0 ? 0 : (end - start) * rawDecoded / decodedBytes
        consumedHighWater = max(consumedHighWater, min(bytesRead, rawDecoded - unread))
        return consumedHighWater
    }
    /// Called before each `read(2)` of the descriptor, when no whole record is left in the
    /// buffer: a filter that must answer what it has read before waiting for more input
    /// (`smskit validate --strict-lines`) acts here, and so does a caller that waits for input
    /// itself so as to notice a signal (`poll(2)` with a timeout). Returning `false` ends the
    /// input there, as if the descriptor had ended (the caller stops on an error or a signal of
    /// its own). `nil` (the default) costs nothing per record.
    public var willRead: (() -> Bool)?

    /// Creates a reader for a format; nothing is read until ``next()``.
    ///
    /// - Parameters:
    ///   - fd: An open descriptor; the reader does not close it.
    ///   - name: The input's name for error messages (`<stdin>` for standard input).
    ///   - format: How records end (CSV honours `"` quotes).
    ///   - maximumRecordBytes: The longest record kept (default 64 KiB).
    ///   - capacity: The block size (default 1 MiB). It is raised to at least
    ///     `2 * maximumRecordBytes + 16` bytes, so that a record of the maximum size always fits.
    ///   - maximumQuotedLines: How many line breaks a quoted field may span (default 100).
    ///   - encoding: The input's encoding (default ``InputEncoding/automatic``).
    public convenience init(fd: Int32, name: String, format: InputFormat,
                            maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes, capacity: Int = 1 << 20,
                            maximumQuotedLines: Int = RecordReader.defaultMaximumQuotedLines,
                            encoding: InputEncoding = .automatic) {
        self.init(fd: fd, name: name, format: format, quote: format == .csv ? UInt8(ascii: "\"") : nil,
                  delimiter: format.dialect?.delimiter ?? UInt8(ascii: ","), maximumRecordBytes: maximumRecordBytes, capacity: capacity,
                  maximumQuotedLines: maximumQuotedLines, encoding: encoding)
    }

    /// Creates a reader for a dialect (its quote byte, and its delimiter for where a quoted field
    /// may start, tell where records end).
    ///
    /// - Parameters:
    ///   - fd: An open descriptor; the reader does not close it.
    ///   - name: The input's name for error messages (`<stdin>` for standard input).
    ///   - dialect: The fields' dialect; `nil` for one record per line, no quoting.
    ///   - maximumRecordBytes: The longest record kept (default 64 KiB).
    ///   - capacity: The block size (default 1 MiB), raised to at least `2 * maximumRecordBytes + 16`.
    ///   - maximumQuotedLines: How many line breaks a quoted field may span (default 100).
    ///   - encoding: The input's encoding (default ``InputEncoding/automatic``).
    public convenience init(fd: Int32, name: String, dialect: CSVDialect?,
                            maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes, capacity: Int = 1 << 20,
                            maximumQuotedLines: Int = RecordReader.defaultMaximumQuotedLines,
                            encoding: InputEncoding = .automatic) {
        let format: InputFormat = dialect == nil ? .lines : dialect?.quote == nil ? .tsv : .csv
        self.init(fd: fd, name: name, format: format, quote: dialect?.quote,
                  delimiter: dialect?.delimiter ?? UInt8(ascii: ","), maximumRecordBytes: maximumRecordBytes, capacity: capacity,
                  maximumQuotedLines: maximumQuotedLines, encoding: encoding)
    }

    /// Creates a reader that is fed bytes with ``feed(_:_:)`` and ``finish(_:)`` (push mode).
    ///
    /// - Parameters:
    ///   - name: The input's name for error messages.
    ///   - format: How records end (CSV honours `"` quotes).
    ///   - maximumRecordBytes: The longest record kept (default 64 KiB).
    ///   - capacity: The buffer's size (default 0), raised to at least `2 * maximumRecordBytes + 16`:
    ///     what the reader holds whatever the input, however long a record.
    ///   - maximumQuotedLines: How many line breaks a quoted field may span (default 100).
    public convenience init(name: String, format: InputFormat,
                            maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes, capacity: Int = 0,
                            maximumQuotedLines: Int = RecordReader.defaultMaximumQuotedLines) {
        self.init(fd: -1, name: name, format: format, maximumRecordBytes: maximumRecordBytes, capacity: capacity,
                  maximumQuotedLines: maximumQuotedLines, encoding: .utf8)
        startFed()
    }

    /// Creates a reader for a dialect that is fed bytes with ``feed(_:_:)`` and ``finish(_:)``
    /// (push mode).
    ///
    /// - Parameters:
    ///   - name: The input's name for error messages.
    ///   - dialect: The fields' dialect; `nil` for one record per line, no quoting.
    ///   - maximumRecordBytes: The longest record kept (default 64 KiB).
    ///   - capacity: The buffer's size (default 0), raised to at least `2 * maximumRecordBytes + 16`.
    ///   - maximumQuotedLines: How many line breaks a quoted field may span (default 100).
    public convenience init(name: String, dialect: CSVDialect?,
                            maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes, capacity: Int = 0,
                            maximumQuotedLines: Int = RecordReader.defaultMaximumQuotedLines) {
        self.init(fd: -1, name: name, dialect: dialect, maximumRecordBytes: maximumRecordBytes, capacity: capacity,
                  maximumQuotedLines: maximumQuotedLines, encoding: .utf8)
        startFed()
    }

    /// A fed reader has no input start to read: its bytes are UTF-8 as they come.
    private func startFed() {
        isFed = true
        atFileStart = false
        detectedEncoding = .utf8(byteOrderMarkLength: 0)
    }

    private init(fd: Int32, name: String, format: InputFormat, quote: UInt8?, delimiter: UInt8, maximumRecordBytes: Int, capacity: Int,
                 maximumQuotedLines: Int, encoding: InputEncoding) {
        precondition(maximumRecordBytes >= 0, "maximumRecordBytes must not be negative")
        precondition(maximumQuotedLines >= 0, "maximumQuotedLines must not be negative")
        self.fd = fd
        self.name = name
        self.format = format
        self.quote = quote
        self.delimiter = delimiter
        self.maximumRecordBytes = maximumRecordBytes
        self.maximumQuotedLines = maximumQuotedLines
        self.encoding = encoding
        self.storage = .allocate(byteCount: max(capacity, 2 * maximumRecordBytes + 16), alignment: 16)
    }

    deinit {
        storage.deallocate()
        raw?.deallocate()
        if let decoder { smskit_icu_decoder_close(decoder) }
    }

    /// The next record, or `nil` at the end of the input.
    ///
    /// A fed reader's ``feed(_:_:)`` and ``finish(_:)`` hand out its records through this: there,
    /// `nil` before ``finish(_:)`` means that the bytes fed so far end inside a record.
    ///
    /// - Returns: The record; its bytes are valid until the next call.
    /// - Throws: ``RecordReadError`` when `read(2)` fails (other than `EINTR`, which is retried),
    ///   or when the input is in an encoding the reader does not decode (then on every call).
    /// - Complexity: O(*n*) in the record's length; amortized one `read(2)` per block.
    public func next() throws(RecordReadError) -> Record? {
        if atFileStart {
            if let failure { throw failure }
            try begin()
        }
        var scanned = 0
        var state = FieldState.fieldStart
        var newlines = 0
        var firstNewline = -1
        if let suspension {
            self.suspension = nil
            switch suspension {
            case .scanning(let atScanned, let atState, let atNewlines, let atFirstNewline):
                (scanned, state, newlines, firstNewline) = (atScanned, atState, atNewlines, atFirstNewline)
            case .skipping(let skip):
                return try continueSkipping(skip, from: start + 1)
            }
        } else if pendingLF {
            if start == end && !eof {
                guard try fill() else { return nil }
            }
            pendingLF = false
            if start < end, storage[start] == UInt8(ascii: "\n") { start += 1 }
        }
        // Scanning stops after the maximum plus a CR and an LF: a record that has not ended
        // by then is too long whatever follows. (A record of exactly the maximum whose CR
        // ended a block was once called too long: found by RecordReaderFuzz.)
        let limit = maximumRecordBytes &+ 2
        while true {
            let stop = end - start > limit ? start + limit : end
            switch scan(from: start + scanned, to: stop, state: &state, newlines: &newlines, firstNewline: &firstNewline) {
            case .recordEnd(let found):
                let record = makeRecord(start..<found, lines: 1 + newlines)
                endLine(at: found)
                return record
            case .runaway:
                return cutAtFirstLine(firstNewline)
            case .notFound:
                break
            }
            scanned = stop - start
            if scanned >= limit {
                if newlines > 0 && state == .quoted { return cutAtFirstLine(firstNewline) }
                return try skipTooLong(from: stop, state: state, newlines: newlines)
            }
            if eof {
                guard start < end else { return nil }
                if newlines > 0 && state == .quoted { return cutAtFirstLine(firstNewline) }
                let record = makeRecord(start..<end, lines: 1 + newlines)
                start = end
                return record
            }
            guard try fill() else {
                suspension = .scanning(scanned: scanned, state: state, newlines: newlines, firstNewline: firstNewline)
                return nil
            }
        }
    }

    /// Hands out every record that `bytes` completes, with what was fed before (push mode).
    ///
    /// The bytes are copied into the reader's buffer, as much as it has room for at a time, so
    /// a chunk may be of any size and need not end at a record's end; what is left of an
    /// unfinished record waits for the next call.
    ///
    /// - Parameters:
    ///   - bytes: The input's next bytes.
    ///   - emit: Called with each record, in order; the record's bytes are valid only during the call.
    /// - Precondition: The reader was created without a descriptor and ``finish(_:)`` was not called.
    /// - Complexity: O(*n*) in the bytes fed.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Record) -> Void) {
        precondition(isFed && !eof, "feed(_:_:) is for a reader created without a descriptor, before finish(_:)")
        fed = bytes
        fedTaken = 0
        defer { fed = UnsafeRawBufferPointer(start: nil, count: 0) }
        handOut(emit)
    }

    /// Ends a fed reader's input: hands out the last record, which needs no final newline, and
    /// the report of a record cut short by the end.
    ///
    /// - Parameter emit: Called with each record, in order; the record's bytes are valid only during the call.
    /// - Precondition: The reader was created without a descriptor.
    public func finish(_ emit: (Record) -> Void) {
        precondition(isFed, "finish(_:) is for a reader created without a descriptor")
        eof = true
        handOut(emit)
    }

    private func handOut(_ emit: (Record) -> Void) {
        do {
            while let record = try next() { emit(record) }
        } catch {
            // A fed reader neither reads a descriptor nor decodes, the only things that throw.
            preconditionFailure("a fed reader threw \(error)")
        }
    }

    /// Where ``scan(from:to:inQuotes:newlines:firstNewline:)`` stopped.
    private enum ScanStop {
        /// At the LF (this index) that ends the record.
        case recordEnd(Int)
        /// At the LF (this index) past `maximumQuotedLines` line breaks inside quotes.
        case runaway(Int)
        /// At the end of the range, the record still open.
        case notFound
    }

    /// Where the CSV scan is within the current field.
    enum FieldState {
        /// At a field's first byte: a quote here opens a quoted field.
        case fieldStart
        /// In a field that is not quoted (or after a quoted part's closing quote and more bytes):
        /// a quote is an ordinary byte.
        case unquoted
        /// Inside a quoted field: delimiters and line breaks are the field's.
        case quoted
        /// Just after a quote inside a quoted field: another quote makes a doubled quote, anything
        /// else means the quote closed the quoted part.
        case afterQuote
    }

    /// Finds the line end that ends the record in `[from, stop)`: without a quote byte the first
    /// LF; with one, the first LF or CR outside a quoted field (see ``FieldState``), or the line
    /// break that takes a quoted field over `maximumQuotedLines` line breaks (CR LF is one).
    /// `state`, `newlines` (inside quotes) and `firstNewline` (the first one's offset from
    /// `start`) carry over between calls.
    @inline(__always)
    private func scan(from: Int, to stop: Int, state: inout FieldState, newlines: inout Int, firstNewline: inout Int) -> ScanStop {
        guard from < stop, let base = storage.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .notFound }
        guard let quote else {
            guard let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), stop - from) else { return .notFound }
            return .recordEnd(UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)))
        }
        let delimiter = self.delimiter
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var index = from
        var current = state
        defer { state = current }
        while index < stop {
            let byte = base[index]
            if current == .quoted {
                if byte == quote {
                    current = .afterQuote
                } else if byte == lf || byte == cr, byte == cr || index == start || base[index - 1] != cr {
                    newlines &+= 1
                    if firstNewline < 0 { firstNewline = index - start }
                    if newlines > maximumQuotedLines { return .runaway(index) }
                }
            } else if byte == delimiter {
                current = .fieldStart
            } else if byte == lf || byte == cr {
                return .recordEnd(index)
            } else if byte == quote {
                if current != .unquoted { current = .quoted }
            } else {
                current = .unquoted
            }
            index &+= 1
        }
        return .notFound
    }

    /// Moves past the line end at `index`; a CR there may be the first half of a CR LF.
    @inline(__always)
    private func endLine(at index: Int) {
        if storage[index] == UInt8(ascii: "\r") { pendingLF = true }
        start = index + 1
    }

    private func makeRecord(_ range: Range<Int>, lines: Int, unclosedQuote: Bool = false) -> Record {
        var upper = range.upperBound
        if upper > range.lowerBound, storage[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        let line = nextLine
        nextLine += lines
        let number = nextRecord
        nextRecord += 1
        let bytes = UnsafeRawBufferPointer(rebasing: storage[range.lowerBound..<upper])
        if bytes.count > maximumRecordBytes {
            tooLongCount += 1
            return Record(line: line, record: number, bytes: bytes, isTooLong: true, problem: .tooLong, lineCount: lines)
        }
        if unclosedQuote {
            unclosedQuoteCount += 1
            return Record(line: line, record: number, bytes: bytes, isTooLong: false, problem: .unclosedQuote, lineCount: lines)
        }
        return Record(line: line, record: number, bytes: bytes, isTooLong: false, problem: nil, lineCount: lines)
    }

    /// A stray quote: the record is its first line; reading goes on from the next line.
    private func cutAtFirstLine(_ firstNewline: Int) -> Record {
        let lineEnd = start + firstNewline
        let record = makeRecord(start..<lineEnd, lines: 1, unclosedQuote: true)
        endLine(at: lineEnd)
        return record
    }

    /// Skips a record that is too long, from `position` (all before it scanned): to the end of
    /// its first line when no line break was seen yet (an open quote there is dropped), else
    /// to its end by the field rules, or to the line break past `maximumQuotedLines`.
    private func skipTooLong(from position: Int, state: FieldState, newlines: Int) throws(RecordReadError) -> Record? {
        // `start` stays one byte behind `from`, so that the scan sees whether an LF at `from`
        // is the second half of a CR LF.
        start = position - 1
        return try continueSkipping(SkipState(line: nextLine, number: nextRecord, state: state, newlines: newlines, firstLineOnly: newlines == 0),
                        from: position)
    }

    /// Where skipping a record that is too long is.
    private struct SkipState {
        var line: Int
        var number: Int
        var state: FieldState
        var newlines: Int
        var firstLineOnly: Bool
    }

    /// Goes on skipping from `from` (with `start` one byte behind it); `nil` when a fed reader
    /// ran out of bytes before the record's end.
    private func continueSkipping(_ skip: SkipState, from position: Int) throws(RecordReadError) -> Record? {
        let (line, number, firstLineOnly) = (skip.line, skip.number, skip.firstLineOnly)
        var state = skip.state
        var newlines = skip.newlines
        var lines = 1 + newlines
        var from = position
        scanning: while true {
            if from == end {
                if eof { lines = 1 + newlines; start = end; break }
                guard try fill() else {
                    suspension = .skipping(SkipState(line: line, number: number, state: state, newlines: newlines, firstLineOnly: firstLineOnly))
                    return nil
                }
                from = start + 1
                continue
            }
            if firstLineOnly || quote == nil {
                guard let base = storage.baseAddress?.assumingMemoryBound(to: UInt8.self) else { break }
                var found: Int?
                if quote == nil {
                    if let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), end - from) {
                        found = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    }
                } else {
                    found = (from..<end).first { base[$0] == UInt8(ascii: "\n") || base[$0] == UInt8(ascii: "\r") }
                }
                if let found {
                    endLine(at: found)
                    lines = 1
                    break
                }
                from = end
                start = from - 1
                continue
            }
            var firstNewline = 0 // a cut record has no use for it
            switch scan(from: from, to: end, state: &state, newlines: &newlines, firstNewline: &firstNewline) {
            case .recordEnd(let found):
                endLine(at: found)
                lines = 1 + newlines
                break scanning
            case .runaway(let found):
                endLine(at: found)
                lines = newlines
                break scanning
            case .notFound:
                from = end
                start = from - 1
            }
        }
        nextLine = line + lines
        nextRecord = number + 1
        tooLongCount += 1
        return Record(line: line, record: number, bytes: UnsafeRawBufferPointer(start: nil, count: 0), isTooLong: true, problem: .tooLong,
                      lineCount: lines)
    }

    /// Reads the input's start and settles its encoding.
    private func begin() throws(RecordReadError) {
        atFileStart = false
        while end - start < 4 && !eof { _ = try fill() }
        let available = UnsafeRawBufferPointer(rebasing: storage[start..<end])
        let detection: EncodingDetection
        switch encoding.kind {
        case .automatic:
            detection = EncodingDetection.marks(available) ?? census(available).detection
        case .utf8:
            detection = .utf8(byteOrderMarkLength: available.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        case .icu:
            detection = .decoded(encoding, byteOrderMarkLength: 0)
        }
        detectedEncoding = detection
        switch detection {
        case .utf8(let length):
            start += length
        case .utf16(let isBigEndian, let length):
            try startDecoding(isBigEndian ? "UTF-16BE" : "UTF-16LE", skipping: length)
        case .decoded(let decoded, let length):
            try startDecoding(decoded.name, skipping: length)
        case .unsupported(let unsupported):
            let error = RecordReadError(name: name, unsupportedEncoding: unsupported)
            failure = error
            atFileStart = true   // so that every later call throws it again
            throw error
        }
    }

    /// The census of the bytes in the buffer and, for a regular file, of the rest of it (read
    /// with `pread(2)`, which leaves the descriptor's offset where it is, into a temporary block).
    /// A quick pass that stops at the first bad byte comes first: a UTF-8 file costs one read
    /// through and no line counting.
    private func census(_ available: UnsafeRawBufferPointer) -> UTF8Census {
        var info = stat()
        let regular = !eof && fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let offset = regular ? lseek(fd, 0, SEEK_CUR) : -1
        var quick = UTF8Census(countingLines: false)
        quick.add(available)
        if offset >= 0 && !quick.sawBadByte {
            readRest(from: offset) { piece in
                quick.add(piece)
                return !quick.sawBadByte
            }
        }
        guard quick.sawBadByte || offset < 0 else { return quick }
        var census = UTF8Census()
        census.add(available)
        if eof {
            census.finish()
        } else if offset >= 0 {
            readRest(from: offset) { piece in
                census.add(piece)
                return true
            }
            census.finish()
        }
        return census
    }

    /// Reads the file from `offset` to its end in 1 MiB blocks with `pread(2)`, while `body`
    /// returns true. A failed read ends it (the reads proper will report it).
    private func readRest(from offset: off_t, _ body: (UnsafeRawBufferPointer) -> Bool) {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        var offset = offset
        while true {
            let count = pread(fd, block.baseAddress, block.count, offset)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            if count == 0 || !body(UnsafeRawBufferPointer(rebasing: block[0..<count])) { return }
            offset += off_t(count)
        }
    }

    /// From here on, `fill()` decodes `encodingName` through ICU: what was read moves to the raw
    /// buffer, `skipping` bytes of a byte order mark. A U+FEFF that decoding gives first is
    /// skipped too.
    private func startDecoding(_ encodingName: String, skipping length: Int) throws(RecordReadError) {
        guard let opened = smskit_icu_decoder_open(encodingName, nil, 0) else {
            let error = RecordReadError(name: name, unsupportedEncoding: UnsupportedEncoding(iconvName: encodingName, evidence: "ICU cannot open a converter for it"))
            failure = error
            atFileStart = true
            throw error
        }
        decoder = opened
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count, alignment: 16)
        let count = end - start
        if count > 0, let from = storage.baseAddress, let to = buffer.baseAddress {
            memcpy(to, from + start, count)
        }
        raw = buffer
        rawStart = min(length, count)
        rawEnd = count
        rawEOF = eof
        rawDecoded = rawStart
        eof = false
        start = 0
        end = 0
        while end - start < 3 && !eof { _ = try fill() }
        if UnsafeRawBufferPointer(rebasing: storage[start..<end]).starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
    }

    /// Moves the unread bytes to the front and reads (or decodes, or takes from what was fed)
    /// one block after them.
    ///
    /// - Returns: `false` when a fed reader has taken all it was fed (there is nothing to wait
    ///   for: the caller keeps where it is and returns); otherwise `true`.
    private func fill() throws(RecordReadError) -> Bool {
        if start > 0 {
            if end > start, let base = storage.baseAddress {
                memmove(base, base + start, end - start)
            }
            end -= start
            start = 0
        }
        guard end < storage.count, let base = storage.baseAddress else { return true }
        if isFed {
            let count = min(storage.count - end, fed.count - fedTaken)
            guard count > 0, let from = fed.baseAddress else { return false }
            memcpy(base + end, from + fedTaken, count)
            fedTaken += count
            bytesRead += count
            end += count
            return true
        }
        guard let raw else {
            let count = try readSome(into: base + end, count: storage.count - end)
            if count == 0 { eof = true }
            end += count
            return true
        }
        while true {
            if rawEnd - rawStart < 4 && !rawEOF, let rawBase = raw.baseAddress {
                if rawStart > 0 {
                    if rawEnd > rawStart { memmove(rawBase, rawBase + rawStart, rawEnd - rawStart) }
                    rawEnd -= rawStart
                    rawStart = 0
                }
                let count = try readSome(into: rawBase + rawEnd, count: raw.count - rawEnd)
                if count == 0 { rawEOF = true }
                rawEnd += count
            }
            let before = end
            decode()
            if end > before { return true }
            if rawEOF && rawStart == rawEnd && !decoderPending { eof = true; return true }
            if storage.count - end < 4 { return true }
        }
    }

    /// One `read(2)`, retried on `EINTR`; 0 (the end) when ``willRead`` says so.
    private func readSome(into pointer: UnsafeMutableRawPointer, count: Int) throws(RecordReadError) -> Int {
        if let willRead, !willRead() { return 0 }
        while true {
            let result = read(fd, pointer, count)
            if result < 0 {
                if errno == EINTR { continue }
                throw RecordReadError(name: name, code: errno)
            }
            bytesRead += result
            return result
        }
    }

    /// Decodes the raw bytes into `storage` through ICU, as far as there is room; ICU keeps a
    /// character cut by the end of what was read until the next call. Bytes that are not valid
    /// in the encoding become U+FFFD.
    private func decode() {
        guard let decoder, let rawBase = raw?.baseAddress?.assumingMemoryBound(to: CChar.self),
              let out = storage.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
        var source: UnsafePointer<CChar>? = UnsafePointer(rawBase + rawStart)
        var target: UnsafeMutablePointer<CChar>? = out + end
        let status = smskit_icu_decoder_convert(decoder, &source, rawBase + rawEnd, &target, out + storage.count, rawEOF ? 1 : 0)
        let consumed = source.map { $0 - UnsafePointer(rawBase) } .map { $0 - rawStart } ?? 0
        let produced = target.map { $0 - out - end } ?? 0
        rawStart += consumed
        rawDecoded += consumed
        end += produced
        decodedBytes += produced
        decoderPending = status == 1
        if status < 0 {
            // ICU gave up on the input: end it here rather than loop.
            rawStart = rawEnd
            rawEOF = true
            decoderPending = false
        }
    }
}
