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
// - the push mode (feed/finish), given the same bytes in chunks of pseudo-random sizes (empty ones
//   included) drawn from the input, hands out the same records (line, line count, number, bytes,
//   problem) and never holds more than a record's worth of unread bytes;
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

/// A record copied out of the reader, to compare the two modes.
private struct Copied: Equatable {
    var line: Int
    var lineCount: Int
    var record: Int
    var bytes: [UInt8]
    var problem: RecordProblem?

    init(_ read: RecordReader.Record) {
        precondition(read.isTooLong == (read.problem == .tooLong), "isTooLong disagrees with the problem")
        (line, lineCount, record, bytes, problem) = (read.line, read.lineCount, read.record, Array(read.bytes), read.problem)
    }
}

/// Feeds `input` to a reader in push mode in chunks whose sizes come from a generator seeded
/// with the input (so a run replays), and returns its records.
private func fedRecords(_ input: ArraySlice<UInt8>, format: InputFormat, maximum: Int, capacity: Int) -> [Copied] {
    var seed: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in input { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
    func next(_ bound: Int) -> Int {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    let reader = RecordReader(name: "fuzz", format: format, maximumRecordBytes: maximum, capacity: capacity)
    var records: [Copied] = []
    var position = input.startIndex
    while position < input.endIndex {
        // Mostly short chunks, so that cuts fall everywhere; now and then one past the buffer.
        let size = next(4) == 0 ? next(4 * maximum + 64) : next(maximum + 3)
        let chunk = input[position..<min(input.endIndex, position + size)]
        chunk.withUnsafeBytes { reader.feed($0) { records.append(Copied($0)) } }
        precondition(reader.bytesRead - reader.bytesConsumed <= maximum + 2, "a fed reader holds more than a record")
        position += chunk.count
    }
    reader.finish { records.append(Copied($0)) }
    precondition(reader.bytesRead == input.count && reader.bytesConsumed == input.count, "the fed reader did not take every byte")
    return records
}

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
    var pulled: [Copied] = []
    while let record = try! reader.next() {
        pulled.append(Copied(record))
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

    // The pull mode skipped a byte order mark (encoding .utf8); the push mode takes bytes as they are.
    let body = input.starts(with: [0xEF, 0xBB, 0xBF]) ? input[3...] : input[...]
    let fed = fedRecords(body, format: format, maximum: maximum, capacity: capacity)
    precondition(fed.count == pulled.count, "push mode: \(fed.count) records, pull mode \(pulled.count)")
    for (index, (pushed, read)) in zip(fed, pulled).enumerated() {
        precondition(pushed == read, "record \(index + 1): push mode \(pushed), pull mode \(read)")
    }
    return 0
}

@_cdecl("RecordReaderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
