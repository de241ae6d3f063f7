#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor in large blocks and splits it into records at bytes.
///
/// Records end at LF; a CR before the LF is dropped (CRLF files). In CSV, a newline inside a
/// quoted field does not end the record (quote parity: `""` inside quotes toggles twice). A
/// UTF-8 byte order mark at the start is skipped. The last record needs no final newline.
///
/// A record longer than ``maximumRecordBytes`` is not kept: its bytes are skipped up to its end
/// and it is reported with ``Record/isTooLong`` so that the caller can emit an error record
/// for it. Memory stays at one buffer whatever the input size.
///
/// ```swift
/// let reader = RecordReader(fd: fd, name: "contacts.csv", format: .csv)
/// var field: [UInt8] = []
/// while let record = try reader.next() {
///     guard !record.isTooLong else { print("line \(record.line): too long"); continue }
///     if RecordFields.extract(1, from: record.bytes, format: .csv, into: &field) { /* column 2 */ }
/// }
/// ```
///
/// A reader is not thread-safe; use one per descriptor.
public final class RecordReader {
    /// The default longest record kept, in bytes (64 KiB).
    public static let defaultMaximumRecordBytes = 65_536

    /// The descriptor read; the reader does not close it.
    public let fd: Int32
    /// The input's name for error messages (`<stdin>` for standard input).
    public let name: String
    /// How records end (CSV honours quotes).
    public let format: InputFormat
    /// The longest record kept, in bytes, without its terminator; longer ones are skipped and
    /// reported with ``Record/isTooLong``.
    public let maximumRecordBytes: Int

    private let storage: UnsafeMutableRawBufferPointer
    // The reader is used by one thread and never re-entered, so the runtime's exclusivity
    // checks on these (a call into the Swift runtime per record) have nothing to find.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var eof = false
    @exclusivity(unchecked) private var atFileStart = true
    @exclusivity(unchecked) private var nextLine = 1
    /// Bytes read from the descriptor so far.
    @exclusivity(unchecked) public private(set) var bytesRead = 0
    /// Bytes handed out as records so far, terminators and a skipped byte order mark included
    /// (for progress). Never decreases.
    public var bytesConsumed: Int { bytesRead - (end - start) }
    /// Called before each `read(2)` of the descriptor, when no whole record is left in the
    /// buffer: a filter that must answer what it has read before waiting for more input
    /// (`smskit validate --strict-lines`) acts here. Returning `false` ends the input there, as
    /// if the descriptor had ended (the caller stops on an error of its own). `nil` (the
    /// default) costs nothing per record.
    public var willRead: (() -> Bool)?

    /// Creates a reader; nothing is read until ``next()``.
    ///
    /// - Parameters:
    ///   - fd: An open descriptor; the reader does not close it.
    ///   - name: The input's name for error messages (`<stdin>` for standard input).
    ///   - format: How records end (CSV honours quotes).
    ///   - maximumRecordBytes: The longest record kept (default 64 KiB).
    ///   - capacity: The block size (default 1 MiB). It is raised to at least
    ///     `2 * maximumRecordBytes + 16` bytes, so that a record of the maximum size always fits.
    public init(fd: Int32, name: String, format: InputFormat,
                maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes, capacity: Int = 1 << 20) {
        precondition(maximumRecordBytes >= 0, "maximumRecordBytes must not be negative")
        self.fd = fd
        self.name = name
        self.format = format
        self.maximumRecordBytes = maximumRecordBytes
        self.storage = .allocate(byteCount: max(capacity, 2 * maximumRecordBytes + 16), alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The next record, or `nil` at the end of the input.
    ///
    /// - Returns: The record; its bytes are valid until the next call.
    /// - Throws: ``RecordReadError`` when `read(2)` fails (other than `EINTR`, which is retried).
    /// - Complexity: O(*n*) in the record's length; amortized one `read(2)` per block.
    public func next() throws(RecordReadError) -> Record? {
        if atFileStart {
            atFileStart = false
            while end - start < 3 && !eof { try fill() }
            if end - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
                start += 3
            }
        }
        var scanned = 0
        var inQuotes = false
        var newlines = 0
        while true {
            if let recordEnd = findEnd(from: start + scanned, inQuotes: &inQuotes, newlines: &newlines) {
                let record = makeRecord(start..<recordEnd, newlines: newlines)
                start = recordEnd + 1
                return record
            }
            scanned = end - start
            if eof {
                guard start < end else { return nil }
                let record = makeRecord(start..<end, newlines: newlines)
                start = end
                return record
            }
            // More than the maximum plus one byte, which may be the CR of a CRLF: too long
            // whatever follows. (With `> maximumRecordBytes`, a record of exactly the maximum
            // whose CR ended a block was called too long: found by RecordReaderFuzz.)
            if end - start > maximumRecordBytes + 1 {
                let line = nextLine
                try skipRest(inQuotes: inQuotes, newlines: &newlines)
                nextLine += 1 + newlines
                return Record(line: line, bytes: UnsafeRawBufferPointer(start: nil, count: 0), isTooLong: true)
            }
            try fill()
        }
    }

    private func makeRecord(_ range: Range<Int>, newlines: Int) -> Record {
        var upper = range.upperBound
        if upper > range.lowerBound, storage[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        let line = nextLine
        nextLine += 1 + newlines
        let count = upper - range.lowerBound
        return Record(
            line: line,
            bytes: UnsafeRawBufferPointer(rebasing: storage[range.lowerBound..<upper]),
            isTooLong: count > maximumRecordBytes
        )
    }

    /// The index of the LF that ends the record, scanning `[from, end)`; `inQuotes` and
    /// `newlines` (newlines inside quotes) carry over between calls.
    @inline(__always)
    private func findEnd(from: Int, inQuotes: inout Bool, newlines: inout Int) -> Int? {
        guard from < end, let base = storage.baseAddress else { return nil }
        switch format {
        case .lines, .tsv:
            guard let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), end - from) else { return nil }
            return base.distance(to: hit)
        case .csv:
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            var index = from
            var quoted = inQuotes
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if byte == UInt8(ascii: "\n") {
                    if !quoted {
                        inQuotes = false
                        return index
                    }
                    newlines += 1
                }
                index += 1
            }
            inQuotes = quoted
            return nil
        }
    }

    /// Drops the rest of an over-long record, through its terminator.
    private func skipRest(inQuotes: Bool, newlines: inout Int) throws(RecordReadError) {
        var quoted = inQuotes
        start = end
        while true {
            if start == end {
                if eof { return }
                try fill()
                continue
            }
            if let recordEnd = findEnd(from: start, inQuotes: &quoted, newlines: &newlines) {
                start = recordEnd + 1
                return
            }
            start = end
        }
    }

    /// Moves the unread bytes to the front and reads one block after them.
    private func fill() throws(RecordReadError) {
        if start > 0 {
            if end > start, let base = storage.baseAddress {
                memmove(base, base + start, end - start)
            }
            end -= start
            start = 0
        }
        guard end < storage.count, let base = storage.baseAddress else { return }
        if let willRead, !willRead() { eof = true; return }
        while true {
            let count = read(fd, base + end, storage.count - end)
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordReadError(name: name, code: errno)
            }
            if count == 0 { eof = true }
            end += count
            bytesRead += count
            return
        }
    }
}
