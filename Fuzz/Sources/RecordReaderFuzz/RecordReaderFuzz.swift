// Fuzzes the record reader and the field splitter with arbitrary bytes. The first byte picks the
// format and the longest record kept (1 to 64 bytes); the second the block size, so that records,
// CRLF pairs, quotes and the byte order mark cross block boundaries. The rest is the file, read
// from an unlinked temporary file.
// Properties checked on every input:
// - the records equal those of a plain in-memory split of the whole input (same lines, same
//   bytes, too long exactly when longer than the maximum, stray quotes cut at their line),
//   whatever the block size;
// - line numbers increase; bytesConsumed never decreases and ends at the file's size;
// - a kept record is never longer than the maximum;
// - fields: as many as separators outside quoted fields plus one; TSV fields joined by tabs give the
//   record back; CSV fields quoted again split into the same fields.
import FuzzDriver
import SMSKitRecords
import SMSKitRecordsModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One temporary file for the whole run, rewritten for every input.
private let file: Int32 = {
    var template = Array("/tmp/smskit-fuzz-records-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    return fd
}()

/// Checks the field splitter on one record.
private func checkFields(_ record: UnsafeRawBufferPointer, format: InputFormat) {
    var fields: [[UInt8]] = []
    var scratch: [UInt8] = []
    while RecordFields.extract(fields.count, from: record, format: format, into: &scratch) {
        fields.append(scratch)
        if format == .lines { break }
        precondition(fields.count <= record.count + 1, "more fields than bytes")
    }
    precondition(RecordFields.all(record, format: format).count == fields.count, "all(_:format:) disagrees with extract")
    precondition(!RecordFields.extract(fields.count, from: record, format: format, into: &scratch) || format == .lines,
                 "a field past the last one")
    // Separators outside quoted fields; a quote opens one only as a field's first byte.
    // State 0: a field's start, 1: unquoted, 2: quoted, 3: just after a quote inside one.
    var separators = 0
    var state = 0
    for byte in record {
        switch format {
        case .lines: break
        case .tsv: if byte == UInt8(ascii: "\t") { separators += 1 }
        case .csv:
            if state == 2 {
                if byte == UInt8(ascii: "\"") { state = 3 }
            } else if byte == UInt8(ascii: ",") {
                separators += 1
                state = 0
            } else if byte == UInt8(ascii: "\"") {
                if state != 1 { state = 2 }
            } else {
                state = 1
            }
        }
    }
    precondition(fields.count == separators + 1, "field count is not separators + 1")
    switch format {
    case .lines:
        precondition(fields[0].elementsEqual(record), "a line is not its own field")
    case .tsv:
        precondition(Array(fields.joined(separator: [UInt8(ascii: "\t")])).elementsEqual(record), "TSV fields do not join to the record")
    case .csv:
        // Quote every field again (doubling its quotes) and split that: the same fields.
        var quotedRecord: [UInt8] = []
        for (position, field) in fields.enumerated() {
            if position > 0 { quotedRecord.append(UInt8(ascii: ",")) }
            quotedRecord.append(UInt8(ascii: "\""))
            for byte in field {
                quotedRecord.append(byte)
                if byte == UInt8(ascii: "\"") { quotedRecord.append(byte) }
            }
            quotedRecord.append(UInt8(ascii: "\""))
        }
        quotedRecord.withUnsafeBytes { again in
            for (position, field) in fields.enumerated() {
                precondition(RecordFields.extract(position, from: again, format: .csv, into: &scratch) && scratch == field,
                             "CSV field \(position) changed when quoted again")
            }
            precondition(!RecordFields.extract(fields.count, from: again, format: .csv, into: &scratch), "quoting added a field")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let format = InputFormat.allCases[Int(data[0]) % 3]
    let maximum = 1 + Int(data[0] / 3) % 64
    let capacity = Int(data[1])   // raised by the reader to 2 * maximum + 16 at least
    let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))

    precondition(ftruncate(file, 0) == 0 && lseek(file, 0, SEEK_SET) == 0, "cannot reset the temporary file")
    let written = input.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    precondition(written == input.count && lseek(file, 0, SEEK_SET) == 0, "cannot write the temporary file")

    let expected = recordsModel(input, format: format, maximum: maximum)
    let reader = RecordReader(fd: file, name: "fuzz", format: format, maximumRecordBytes: maximum, capacity: capacity, encoding: .utf8)
    var count = 0
    var lastLine = 0
    var consumed = 0
    while let record = try! reader.next() {
        precondition(count < expected.count, "more records than the model: \(count + 1) > \(expected.count)")
        let want = expected[count]
        precondition(record.line == want.line, "record \(count + 1): line \(record.line), model \(want.line)")
        precondition(record.line > lastLine, "line numbers do not increase")
        precondition(record.isTooLong == want.isTooLong, "record \(count + 1): isTooLong \(record.isTooLong), model \(want.isTooLong)")
        if !record.isTooLong {
            precondition(record.bytes.count <= maximum, "a kept record is longer than the maximum")
            precondition(record.bytes.elementsEqual(want.bytes), "record \(count + 1): bytes differ from the model")
            checkFields(record.bytes, format: format)
        }
        precondition(reader.bytesConsumed >= consumed && reader.bytesConsumed <= reader.bytesRead, "bytesConsumed went back")
        consumed = reader.bytesConsumed
        lastLine = record.line
        count += 1
    }
    precondition(count == expected.count, "fewer records than the model: \(count) < \(expected.count)")
    precondition(reader.bytesRead == input.count && reader.bytesConsumed == input.count, "not all bytes were read")
    precondition(try! reader.next() == nil, "a record after the end")
    return 0
}

@_cdecl("RecordReaderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
