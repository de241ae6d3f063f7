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

/// A record as the plain model sees it.
private struct Expected {
    var line: Int
    var bytes: ArraySlice<UInt8>
    var isTooLong: Bool
}

/// Splits the whole input at once: the reader's documented behaviour without any buffering
/// (the same walk as `model` in Tests/SMSKitRecordsTests/_Records.swift). Lines and TSV end at LF;
/// CSV records end at LF, CR LF or CR outside a quoted field, which a quote opens only as a
/// field's first byte.
private func model(_ data: [UInt8], format: InputFormat, maximum: Int, quotedLines: Int = RecordReader.defaultMaximumQuotedLines) -> [Expected] {
    let quote: UInt8? = format == .csv ? UInt8(ascii: "\"") : nil
    let delimiter = format.dialect?.delimiter ?? UInt8(ascii: ",")
    let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
    var records: [Expected] = []
    var index = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var line = 1
    func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        slice.last == cr ? slice.dropLast() : slice
    }
    func isLineEnd(_ byte: UInt8) -> Bool { byte == lf || (quote != nil && byte == cr) }
    func after(_ position: Int) -> Int {
        data[position] == cr && position + 1 < data.count && data[position + 1] == lf ? position + 2 : position + 1
    }
    func add(_ content: ArraySlice<UInt8>?) {
        let isTooLong = content.map { $0.count > maximum } ?? true
        records.append(Expected(line: line, bytes: isTooLong ? [] : content ?? [], isTooLong: isTooLong))
    }
    enum Step { case next, end, runaway }
    // 0: a field's start, 1: unquoted, 2: quoted, 3: just after a quote inside a quoted field.
    func step(_ position: Int, _ state: inout Int, _ newlines: inout Int, _ firstNewline: inout Int) -> Step {
        let byte = data[position]
        guard let quote else { return byte == lf ? .end : .next }
        if state == 2 {
            if byte == quote {
                state = 3
            } else if byte == cr || (byte == lf && data[position - 1] != cr) {
                newlines += 1
                if firstNewline < 0 { firstNewline = position }
                if newlines > quotedLines { return .runaway }
            }
        } else if byte == delimiter {
            state = 0
        } else if isLineEnd(byte) {
            return .end
        } else if byte == quote {
            if state != 1 { state = 2 }
        } else {
            state = 1
        }
        return .next
    }
    while index < data.count {
        let limit = maximum + 2
        var position = index
        var state = 0
        var newlines = 0
        var firstNewline = -1
        enum Outcome { case end(Int), cut, skipFirstLine, skipByRules }
        var outcome: Outcome
        while true {
            if position - index >= limit {
                outcome = newlines > 0 && state == 2 ? .cut : newlines == 0 ? .skipFirstLine : .skipByRules
                break
            }
            if position == data.count { outcome = newlines > 0 && state == 2 ? .cut : .end(position); break }
            switch step(position, &state, &newlines, &firstNewline) {
            case .end: outcome = .end(position)
            case .runaway: outcome = .cut
            case .next: position += 1; continue
            }
            break
        }
        switch outcome {
        case .end(let end):
            add(trimmed(data[index..<end]))
            line += 1 + newlines
            index = end < data.count ? after(end) : end
        case .cut:
            add(trimmed(data[index..<firstNewline]))
            line += 1
            index = after(firstNewline)
        case .skipFirstLine:
            add(nil)
            line += 1
            index = data[position...].firstIndex(where: isLineEnd).map(after) ?? data.count
        case .skipByRules:
            add(nil)
            var lines = 0
            var ignored = 0
            while position < data.count {
                let result = step(position, &state, &newlines, &ignored)
                if result == .end { lines = 1 + newlines; position = after(position); break }
                if result == .runaway { lines = newlines; position = after(position); break }
                position += 1
            }
            if lines == 0 { lines = 1 + newlines }
            line += lines
            index = position
        }
    }
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

    let expected = model(input, format: format, maximum: maximum)
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
