import SMSKitRecords
import SMSKitRecordsModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A seeded pseudo-random source (SplitMix64), so that a failing random test can be replayed.
struct Generator {
    var state: UInt64
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// One record read back, copied out of the reader's buffer (no text when too long).
struct ReadRecord: Equatable, CustomStringConvertible {
    var line: Int
    var text: String
    var isTooLong: Bool
    var problem: RecordProblem? = nil
    var record: Int = 0

    var description: String {
        if isTooLong { return "\(line):<too long>" }
        if problem == .unclosedQuote { return "\(line):<unclosed>\(text.debugDescription)" }
        return "\(line):\(text.debugDescription)"
    }
}

/// Writes `bytes` to an unlinked temporary file and returns its descriptor, at offset 0.
func temporaryFile(_ bytes: [UInt8]) -> Int32 {
    var template = Array("/tmp/smskit-records-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
        precondition(count > 0, "write failed")
        written += count
    }
    lseek(fd, 0, SEEK_SET)
    return fd
}

/// Reads every record of `reader`, copying them out.
func drain(_ reader: RecordReader) throws -> [ReadRecord] {
    var records: [ReadRecord] = []
    while let record = try reader.next() {
        let text = record.isTooLong ? "" : String(decoding: record.bytes, as: UTF8.self)
        records.append(ReadRecord(line: record.line, text: text, isTooLong: record.isTooLong, problem: record.problem, record: record.record))
    }
    return records
}

/// Writes `bytes` to an unlinked temporary file and reads it back with a `RecordReader`.
func readRecords(_ bytes: [UInt8], format: InputFormat, maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes,
                 capacity: Int = 1 << 20, maximumQuotedLines: Int = RecordReader.defaultMaximumQuotedLines,
                 encoding: InputEncoding = .utf8) throws -> [ReadRecord] {
    let fd = temporaryFile(bytes)
    defer { close(fd) }
    let reader = RecordReader(fd: fd, name: "test", format: format, maximumRecordBytes: maximumRecordBytes, capacity: capacity,
                              maximumQuotedLines: maximumQuotedLines, encoding: encoding)
    return try drain(reader)
}

/// Every field of a record given as text.
func fields(_ record: String, _ format: InputFormat) -> [String] {
    Array(record.utf8).withUnsafeBytes { RecordFields.all($0, format: format) }
}

/// The records of the whole-input model (SMSKitRecordsModel, which the fuzzer checks against too),
/// as the tests compare them.
func model(_ data: [UInt8], format: InputFormat, maximum: Int, quotedLines: Int = RecordReader.defaultMaximumQuotedLines) -> [ReadRecord] {
    recordsModel(data, format: format, maximum: maximum, quotedLines: quotedLines).map {
        ReadRecord(line: $0.line, text: $0.isTooLong ? "" : String(decoding: $0.bytes, as: UTF8.self),
                   isTooLong: $0.isTooLong, problem: $0.problem, record: $0.record)
    }
}
