import ArgumentParser
import SMSEncoding
import SMSKitBatch
import SMSKitCommandLine
import SMSKitJSON
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output formats of `segments`: text or json for one text, jsonl, csv or tsv with `--lines`.
enum SegmentsFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, jsonl, csv, tsv
}

/// Output formats of `segments --lines`.
enum SegmentsLinesFormat: String, CaseIterable {
    case jsonl, csv, tsv
}

/// `segments --lines`: one message per line (or per CSV record with `--column`), one result per
/// message in input order, and totals on stderr.
///
/// Records are read in batches; each batch is analysed in slices on all cores (an
/// ``OrderedBatchLoop`` with a window of one) while the next one is read, and written in order,
/// so memory is bounded by two batches whatever the input size.
struct _SegmentsLines {
    let encoder: SMSEncoder
    let format: SegmentsLinesFormat
    /// The message's column (0-based) and the dialect, for CSV input; `nil` for plain lines.
    var column: ColumnArgument?
    var summaryJSON = false
    /// `--encoding`.
    var encoding: InputEncoding = .automatic

    /// Messages per batch, and the bytes after which a batch is cut sooner.
    static let batchRecords = 8_192
    static let batchBytes = 4 << 20

    /// One message of a batch: where it came from, where its bytes are in the batch's ``Batch/texts``,
    /// or why it has none.
    struct Message {
        var line: Int
        var record: Int
        var start: Int
        var end: Int
        var error: String?
    }

    /// The messages read and not yet written, with their bytes in one buffer: one copy per
    /// message on the reading thread; the UTF-8 check and the String are made on the workers.
    struct Batch {
        var messages: [Message] = []
        var texts: [UInt8] = []
    }

    /// Counts over all messages.
    struct Totals {
        var messages = 0
        var errors = 0
        var segments = 0
        var gsm7 = (messages: 0, segments: 0)
        var ucs2 = (messages: 0, segments: 0)
        var multipart = 0
        /// Per character that forced UCS-2: the messages it appears in.
        var forcing: [UInt32: Int] = [:]

        mutating func merge(_ other: Totals) {
            messages += other.messages
            errors += other.errors
            segments += other.segments
            gsm7.messages += other.gsm7.messages
            gsm7.segments += other.gsm7.segments
            ucs2.messages += other.ucs2.messages
            ucs2.segments += other.ucs2.segments
            multipart += other.multipart
            for (scalar, count) in other.forcing { forcing[scalar, default: 0] += count }
        }
    }

    func run(fd: Int32, name: String) throws {
        let started = _now()
        var output = _Output()
        var totals = Totals()
        var layout = TableLayout.lines
        var index = 0
        if let column {
            // Fields: CSV (its delimiter from the first row) unless the name says TSV; a header
            // when the column is given by name.
            layout = TableLayout(format: TableLayout.format(forPath: name, otherwise: .csv))
            if case .index(let position) = column { index = position }
        }
        let reader = RecordReader(fd: fd, name: name, dialect: layout.dialect, encoding: encoding)
        reader.willRead = { _Interrupt.waitForInput(fd) }
        var batch = Batch()
        let loop = OrderedBatchLoop<_Analysis>(window: 1)
        var field: [UInt8] = []
        var first = column != nil
        if format != .jsonl { try output.write(Self.header(format)) }
        while true {
            let next: RecordReader.Record?
            do { next = try reader.next() } catch { throw CLIError.failure(error.description) }
            guard let record = next else { break }
            if first {
                first = false
                layout.settle(on: record, reader: reader)
                if case .name(let wanted) = column, layout.isHeader(record, namesColumn: true) {
                    let header = layout.header(record)
                    guard let found = header.position(of: wanted) else {
                        throw CLIError.usage("\(name) has no column named '\(wanted)'; its header: \(header.names.joined(separator: ", "))")
                    }
                    index = found
                    continue
                }
            }
            let start = batch.texts.count
            if record.problem == nil {
                if let dialect = layout.dialect {
                    _ = RecordFields.extract(index, from: record.bytes, dialect: dialect, into: &field)
                    batch.texts.append(contentsOf: field)
                } else {
                    batch.texts.append(contentsOf: record.bytes.assumingMemoryBound(to: UInt8.self))
                }
            }
            batch.messages.append(Message(line: record.line, record: record.record, start: start, end: batch.texts.count, error: record.problem?.code))
            if batch.messages.count >= Self.batchRecords || batch.texts.count >= Self.batchBytes {
                // The batch is analysed on the workers while the next one is read.
                let bytes = batch.texts.count
                try analyse(batch, in: loop, totals: &totals, to: &output)
                batch = Batch()
                batch.messages.reserveCapacity(Self.batchRecords)
                batch.texts.reserveCapacity(bytes)
            }
        }
        if !batch.messages.isEmpty { try analyse(batch, in: loop, totals: &totals, to: &output) }
        while let analysis = loop.next() { try Self.write(analysis, totals: &totals, to: &output) }
        try output.flush()
        let seconds = _now() - started
        _Stderr.write(summaryJSON ? Self.totalsJSON(totals, seconds: seconds) : Self.totalsText(totals, seconds: seconds))
        if let signal = _Interrupt.received {
            throw CLIError.interrupted(signal, records: totals.messages)
        }
    }

    /// A batch on the workers: its messages and each slice's output and counts, written by that
    /// slice only.
    private final class _Analysis: @unchecked Sendable {
        let messages: [Message]
        let texts: [UInt8]
        let slices: Int
        var outputs: [[UInt8]]
        var totals: [Totals]

        init(_ batch: Batch, slices: Int) {
            messages = batch.messages
            texts = batch.texts
            self.slices = slices
            outputs = Array(repeating: [], count: slices)
            totals = Array(repeating: Totals(), count: slices)
        }
    }

    /// Starts analysing a batch in slices on all cores, after taking (and writing) the batch in
    /// flight before it if any: one batch is read while the other is analysed.
    private func analyse(_ batch: Batch, in loop: OrderedBatchLoop<_Analysis>, totals: inout Totals, to output: inout _Output) throws {
        let slices = batch.messages.count >= 512 ? OrderedBatchLoop<_Analysis>.slices(for: .max, minimumPerSlice: 1) : 1
        let encoder = self.encoder
        let format = self.format
        try loop.submit(_Analysis(batch, slices: slices), slices: slices, work: { analysis, slice in
            let messages = analysis.messages
            let lower = messages.count * slice / analysis.slices
            let upper = messages.count * (slice + 1) / analysis.slices
            var out: [UInt8] = []
            out.reserveCapacity((upper - lower) * 96)
            var local = Totals()
            analysis.texts.withUnsafeBufferPointer { texts in
                for message in messages[lower..<upper] {
                    Self.append(message, texts: texts, encoder: encoder, format: format, to: &out, totals: &local)
                }
            }
            analysis.outputs.withUnsafeMutableBufferPointer { $0[slice] = out }
            analysis.totals.withUnsafeMutableBufferPointer { $0[slice] = local }
        }, whenFull: { try Self.write($0, totals: &totals, to: &output) })
    }

    /// Writes an analysed batch's results in order.
    private static func write(_ analysis: _Analysis, totals: inout Totals, to output: inout _Output) throws {
        for slice in 0..<analysis.slices {
            try output.write(analysis.outputs[slice])
            totals.merge(analysis.totals[slice])
        }
    }

    static func header(_ format: SegmentsLinesFormat) -> String {
        let names = ["line", "record", "encoding", "length", "segments", "remaining", "forced_ucs2_by", "error"]
        return names.joined(separator: format == .tsv ? "\t" : ",") + "\n"
    }

    /// One result: `line`, `record`, `encoding` (gsm7 or ucs2), `length` (septets or UTF-16
    /// units), `segments`, `remaining` (in the last segment), `forced_ucs2_by` (the distinct
    /// characters no GSM table encodes, in text order) and `error` (invalid_utf8,
    /// record_too_long, unclosed_quote; the other fields empty).
    ///
    /// The message is measured (``SMSEncoder/measure(_:)``: no parts, changes or suggestions) and
    /// its row written straight into bytes.
    static func append(
        _ message: Message, texts: UnsafeBufferPointer<UInt8>, encoder: SMSEncoder, format: SegmentsLinesFormat,
        to out: inout [UInt8], totals: inout Totals
    ) {
        totals.messages += 1
        var measurement: SMSMeasurement?
        var error = message.error
        if error == nil {
            if let text = String(validating: UnsafeBufferPointer(rebasing: texts[message.start..<message.end]), as: UTF8.self) {
                let result = encoder.measure(text)
                for scalar in result.unencodableCharacters { totals.forcing[scalar.value, default: 0] += 1 }
                totals.segments += result.segmentCount
                if result.segmentCount > 1 { totals.multipart += 1 }
                switch result.encoding {
                case .gsm7: totals.gsm7.messages += 1; totals.gsm7.segments += result.segmentCount
                case .ucs2: totals.ucs2.messages += 1; totals.ucs2.segments += result.segmentCount
                }
                measurement = result
            } else {
                error = "invalid_utf8"
            }
        }
        if error != nil { totals.errors += 1 }
        // The forcing characters' UTF-8 (at most 4 bytes each); a row's fixed part is under 240
        // bytes and an escape takes at most 6 bytes a byte.
        let forcing = measurement?.unencodableCharacters ?? []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * forcing.count) { characters in
            var count = 0
            for scalar in forcing {
                for byte in UTF8.encode(scalar)! {
                    characters[count] = byte
                    count += 1
                }
            }
            let characters = UnsafeBufferPointer(rebasing: characters[..<count])
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 240 + 6 * count + (error?.utf8.count ?? 0)) { buffer in
                var w = SpanWriter(buffer.baseAddress!)
                switch format {
                case .jsonl:
                    w.literal(#"{"line":"#)
                    w.int(message.line)
                    w.literal(#","record":"#)
                    w.int(message.record)
                    if let measurement {
                        w.literal(#","encoding":""#)
                        w.literal(measurement.encoding == .gsm7 ? "gsm7" : "ucs2")
                        w.literal(#"","length":"#)
                        w.int(measurement.length)
                        w.literal(#","segments":"#)
                        w.int(measurement.segmentCount)
                        w.literal(#","remaining":"#)
                        w.int(measurement.remainingInLastSegment)
                        w.literal(#","forced_ucs2_by":"#)
                        w.jsonString(characters)
                        w.literal(#","error":null}"#)
                    } else {
                        w.literal(#","encoding":null,"length":null,"segments":null,"remaining":null,"forced_ucs2_by":null,"error":""#)
                        w.raw(error ?? "")
                        w.literal(#""}"#)
                    }
                case .csv, .tsv:
                    let separator = format == .tsv ? UInt8(ascii: "\t") : UInt8(ascii: ",")
                    w.int(message.line)
                    w.byte(separator)
                    w.int(message.record)
                    w.byte(separator)
                    if let measurement {
                        w.literal(measurement.encoding == .gsm7 ? "gsm7" : "ucs2")
                        w.byte(separator)
                        w.int(measurement.length)
                        w.byte(separator)
                        w.int(measurement.segmentCount)
                        w.byte(separator)
                        w.int(measurement.remainingInLastSegment)
                        w.byte(separator)
                        if format == .csv {
                            w.csvField(characters)
                        } else {
                            // TSV has no quoting: a tab (the only separator no GSM table has) becomes a space.
                            for byte in characters { w.byte(byte == UInt8(ascii: "\t") ? UInt8(ascii: " ") : byte) }
                        }
                        w.byte(separator)
                    } else {
                        for _ in 0..<5 { w.byte(separator) }
                        w.raw(error ?? "")
                    }
                }
                w.byte(UInt8(ascii: "\n"))
                out.append(contentsOf: w.written)
            }
        }
    }

    /// The characters that forced UCS-2 in the most messages, most first (ties by code point).
    static func topForcing(_ totals: Totals, limit: Int = 10) -> [(scalar: UInt32, messages: Int)] {
        totals.forcing.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map { ($0.key, $0.value) }
    }

    static func totalsText(_ totals: Totals, seconds: Double) -> String {
        let rate = seconds > 0 ? Int(Double(totals.messages) / seconds) : 0
        var lines = ["smskit segments totals"]
        lines.append("  messages   \(_grouped(totals.messages))\(totals.errors > 0 ? " (\(_grouped(totals.errors)) not analysed: errors)" : "")")
        lines.append("  segments   \(_grouped(totals.segments)) (\(_grouped(totals.multipart)) messages of several segments)")
        lines.append("  gsm7       \(_grouped(totals.gsm7.messages)) messages, \(_grouped(totals.gsm7.segments)) segments")
        lines.append("  ucs2       \(_grouped(totals.ucs2.messages)) messages, \(_grouped(totals.ucs2.segments)) segments")
        let top = topForcing(totals)
        if !top.isEmpty {
            lines.append("  forced UCS-2 most often by (messages):")
            for entry in top {
                let character = SegmentsCommand.visible(String(Unicode.Scalar(entry.scalar).map(Character.init) ?? "?"))
                lines.append("    \(JSONValue.codePoint(entry.scalar))  \(character)  \(_grouped(entry.messages))")
            }
        }
        lines.append("  time       \(String(format3: seconds)) s, \(_grouped(rate)) messages/s")
        return lines.joined(separator: "\n") + "\n"
    }

    static func totalsJSON(_ totals: Totals, seconds: Double) -> String {
        JSONValue.object([
            ("messages", .int(totals.messages)),
            ("errors", .int(totals.errors)),
            ("segments", .int(totals.segments)),
            ("multipart_messages", .int(totals.multipart)),
            ("by_encoding", .object([
                ("gsm7", .object([("messages", .int(totals.gsm7.messages)), ("segments", .int(totals.gsm7.segments))])),
                ("ucs2", .object([("messages", .int(totals.ucs2.messages)), ("segments", .int(totals.ucs2.segments))])),
            ])),
            ("forced_ucs2_by", .array(topForcing(totals, limit: 50).map { entry in
                .object([
                    ("character", .string(String(Unicode.Scalar(entry.scalar).map(Character.init) ?? "?"))),
                    ("code_point", .string(JSONValue.codePoint(entry.scalar))),
                    ("messages", .int(entry.messages)),
                ])
            })),
            ("seconds", .string(String(format3: seconds))),
        ]).rendered
    }
}
