import PhoneNumbers

/// A field of the find result: a record of `smskit find` and an element of the service's
/// `POST /v1/numbers/find` answer. The raw values are the output names, in JSON keys and CSV
/// headers alike.
package enum FoundNumberField: String, CaseIterable, Sendable {
    case file, line, start, end
    case utf8Start = "utf8_start"
    case utf8End = "utf8_end"
    case raw, e164
    case `extension`
    case valid, region, type

    /// The fields of a record, in order: `file` only when the input names files (the service's
    /// answer never does).
    package static func record(naming files: Bool) -> ArraySlice<FoundNumberField> {
        files ? allCases[...] : allCases.dropFirst()
    }
}

/// One phone number found in a line of text, with what the find result says of it: where it
/// is (in Unicode scalars and in UTF-8 bytes from the start of the line), the text matched, its
/// E.164 form and extension, and whether it is valid, its region and type.
package struct FoundNumber: Sendable {
    /// The input file's name, or nil when the input is not named (stdin, a request body).
    package var file: String?
    /// The line, 1-based.
    package var line: Int
    package var match: PhoneNumberMatch
    package var e164: String
    package var valid: Bool
    package var region: RegionCode?
    package var type: PhoneNumberType

    package init(_ match: PhoneNumberMatch, file: String?, line: Int, engine: PhoneNumberEngine) {
        self.file = file
        self.line = line
        self.match = match
        e164 = engine.formatE164(match.number)
        valid = engine.isValid(match.number)
        (region, type) = engine.classify(match.number)
    }

    /// The numbers in one line of UTF-8 text, as `smskit find` and the service find them (bytes
    /// that are not UTF-8 are read as U+FFFD).
    package static func find(inLine bytes: some Collection<UInt8>, line: Int, file: String?, region: RegionCode?,
                             leniency: PhoneNumberLeniency, engine: PhoneNumberEngine) -> [FoundNumber] {
        engine.findNumbers(inUTF8: bytes, defaultRegion: region, leniency: leniency).map {
            FoundNumber($0, file: file, line: line, engine: engine)
        }
    }

    /// Calls `body` with each line of `text` and its 1-based number, as `smskit find` reads the
    /// lines of a UTF-8 input: a byte order mark at the start is skipped, a line ends at LF, a CR
    /// right before the LF is not part of it, and the last line needs no LF (an LF at the very
    /// end starts no further line).
    package static func forEachLine(of text: String, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        var text = text
        try text.withUTF8 { bytes in
            let byteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            var start = byteOrderMark ? 3 : 0
            var line = 1
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let next = end + 1
                if end > start, end < bytes.count, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try body(UnsafeBufferPointer(rebasing: bytes[start..<end]), line)
                start = next
                line += 1
            }
        }
    }

    /// The most bytes ``SpanWriter/write(_:fields:as:)`` writes for this record: every string
    /// escaped at 6 bytes a byte with its quotes, and room for the names, numbers and separators.
    package var maximumRecordCount: Int {
        let strings = (file?.utf8.count ?? 0) + match.rawString.utf8.count + (match.number.extension?.utf8.count ?? 0)
        return JSONEscaping.maximumQuotedCount(strings) + 6 + 512
    }

    /// The record as bytes, without a line end.
    package func record(fields: ArraySlice<FoundNumberField>, as format: WireFormat) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: maximumRecordCount) { buffer, count in
            var writer = SpanWriter(buffer.baseAddress!)
            writer.write(self, fields: fields, as: format)
            count = writer.count
        }
    }

    /// The header row of CSV and TSV (names joined by the format's separator, without a line
    /// end); empty for the other formats.
    package static func header(fields: ArraySlice<FoundNumberField>, as format: WireFormat) -> String {
        switch format {
        case .csv: fields.map(\.rawValue).joined(separator: ",")
        case .tsv, .text: fields.map(\.rawValue).joined(separator: "\t")
        case .json, .jsonl: ""
        }
    }
}

extension SpanWriter {
    /// Writes one record of the find result: a JSON object with the fields' names (JSON and
    /// JSON lines), or the fields' values separated by commas (CSV) or tabs (TSV, text), with no
    /// line end. The room needed is ``FoundNumber/maximumRecordCount``.
    package mutating func write(_ found: FoundNumber, fields: ArraySlice<FoundNumberField>, as format: WireFormat) {
        if format.isJSON { byte(UInt8(ascii: "{")) }
        for (index, field) in fields.enumerated() {
            if index > 0 {
                byte(format == .csv || format.isJSON ? UInt8(ascii: ",") : UInt8(ascii: "\t"))
            }
            if format.isJSON {
                quoted(field.rawValue)
                byte(UInt8(ascii: ":"))
            }
            write(field, of: found, as: format)
        }
        if format.isJSON { byte(UInt8(ascii: "}")) }
    }

    /// Writes one field's value of `found` as `format` writes it: JSON values (absent is
    /// `null`), CSV and TSV fields (absent is empty), or text (absent is `-`).
    package mutating func write(_ field: FoundNumberField, of found: FoundNumber, as format: WireFormat) {
        switch field {
        case .file:
            if let file = found.file { string(file, as: format) } else { absent(format) }
        case .line: int(found.line)
        case .start: int(found.match.range.lowerBound)
        case .end: int(found.match.range.upperBound)
        case .utf8Start: int(found.match.utf8Range.lowerBound)
        case .utf8End: int(found.match.utf8Range.upperBound)
        case .raw: string(found.match.rawString, as: format)
        case .e164: string(found.e164, as: format)
        case .extension:
            if let value = found.match.number.extension { string(value, as: format) } else { absent(format) }
        case .valid: literal(found.valid ? "true" : "false")
        case .region:
            if let region = found.region { string(region.identifier, as: format) } else { absent(format) }
        case .type: string(found.type.rawValue, as: format)
        }
    }
}
