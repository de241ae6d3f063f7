import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One record read back, copied out of the reader's buffer (no text when too long).
struct ReadRecord: Equatable, CustomStringConvertible {
    var line: Int
    var text: String
    var isTooLong: Bool

    var description: String { "\(line):\(isTooLong ? "<too long>" : text.debugDescription)" }
}

/// Writes `bytes` to an unlinked temporary file and reads it back with a `RecordReader`.
func readRecords(_ bytes: [UInt8], format: InputFormat, maximumRecordBytes: Int = RecordReader.defaultMaximumRecordBytes,
                 capacity: Int = 1 << 20) throws -> [ReadRecord] {
    var template = Array("/tmp/smskit-records-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    defer { close(fd) }
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
        precondition(count > 0, "write failed")
        written += count
    }
    lseek(fd, 0, SEEK_SET)
    let reader = RecordReader(fd: fd, name: "test", format: format, maximumRecordBytes: maximumRecordBytes, capacity: capacity)
    var records: [ReadRecord] = []
    while let record = try reader.next() {
        let text = record.isTooLong ? "" : String(decoding: record.bytes, as: UTF8.self)
        records.append(ReadRecord(line: record.line, text: text, isTooLong: record.isTooLong))
    }
    return records
}

/// Every field of a record given as text.
func fields(_ record: String, _ format: InputFormat) -> [String] {
    Array(record.utf8).withUnsafeBytes { RecordFields.all($0, format: format) }
}
