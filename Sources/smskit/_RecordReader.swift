#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `validate` splits its input into records and fields.
enum InputFormat: String, CaseIterable {
    /// One number per line, the whole line (no fields).
    case lines
    /// RFC 4180 CSV: comma-separated fields, quoted fields with doubled quotes and embedded newlines.
    case csv
    /// Tab-separated fields, no quoting.
    case tsv
}

/// Reads a file descriptor in large blocks and splits it into records at bytes.
///
/// Records end at LF; a CR before the LF is dropped (CRLF files). In CSV, a newline inside a
/// quoted field does not end the record (quote parity: `""` inside quotes toggles twice). A
/// UTF-8 byte order mark at the start is skipped. The last record needs no final newline.
///
/// A record longer than ``maximumRecordBytes`` is not kept: its bytes are skipped up to its end
/// and it is reported with ``Record/isTooLong`` so that the caller can emit an error record
/// for it. Memory stays at one buffer whatever the input size.
final class _RecordReader {
    /// The longest record kept, in bytes (64 KiB); longer records become `line_too_long`.
    static let maximumRecordBytes = 65_536

    /// One record: its first line number (1-based, counting physical lines) and its bytes without
    /// the line terminator. The bytes are valid until the next call of ``next()``.
    struct Record {
        var line: Int
        var bytes: UnsafeRawBufferPointer
        var isTooLong: Bool
    }

    let fd: Int32
    let name: String
    let format: InputFormat
    private let storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var eof = false
    private var atFileStart = true
    private var nextLine = 1
    /// Bytes read from the descriptor so far.
    private(set) var bytesRead = 0
    /// Bytes handed out as records so far, terminators included (for progress).
    var bytesConsumed: Int { bytesRead - (end - start) }

    /// - Parameters:
    ///   - fd: An open descriptor; the reader does not close it.
    ///   - name: The file name for error messages (`<stdin>` for standard input).
    ///   - format: How records end (CSV honours quotes).
    ///   - capacity: The block size; at least twice ``maximumRecordBytes``.
    init(fd: Int32, name: String, format: InputFormat, capacity: Int = 1 << 20) {
        self.fd = fd
        self.name = name
        self.format = format
        self.storage = .allocate(byteCount: max(capacity, 2 * Self.maximumRecordBytes + 16), alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The next record, or `nil` at the end of the input.
    /// - Throws: ``CLIError`` (a failure) when reading fails.
    func next() throws -> Record? {
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
            if end - start > Self.maximumRecordBytes {
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
            isTooLong: count > Self.maximumRecordBytes
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
    private func skipRest(inQuotes: Bool, newlines: inout Int) throws {
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
    private func fill() throws {
        if start > 0 {
            if end > start, let base = storage.baseAddress {
                memmove(base, base + start, end - start)
            }
            end -= start
            start = 0
        }
        guard end < storage.count, let base = storage.baseAddress else { return }
        while true {
            let count = read(fd, base + end, storage.count - end)
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.failure("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { eof = true }
            end += count
            bytesRead += count
            return
        }
    }
}

/// Reads all of stdin (at most `limit` bytes) as UTF-8, dropping one final newline.
func _readAllStdin(limit: Int, what: String) throws -> String {
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = block.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw CLIError.failure("cannot read stdin: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        bytes.append(contentsOf: block[0..<count])
        if bytes.count > limit {
            throw CLIError.failure("\(what) on stdin is longer than \(limit / 1024) KiB")
        }
    }
    if bytes.last == UInt8(ascii: "\n") {
        bytes.removeLast()
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw CLIError.failure("\(what) on stdin is not valid UTF-8")
    }
    return text
}
