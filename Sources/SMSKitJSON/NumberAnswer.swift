import PhoneNumbers

/// A field of the number answer: a record of `smskit validate` (its `--fields` list) and an
/// answer of the service's `/v1/numbers/check` and `check-stream`. The raw values are the output
/// names, in JSON keys, CSV and TSV headers alike; the C API's result and the Python package's
/// `CheckResult` name theirs after ``bindingNames``.
package enum NumberAnswerField: String, CaseIterable, Sendable {
    case file, line, record, column, input, ok, error
    case errorMessage = "error_message"
    case e164, national, international, rfc3966, possible, valid, type, region, fictional
    case timeZones = "time_zones"
    case carrier
    case shortNumber = "short_number"
    case cost

    /// Fields of the input record rather than of one of its numbers (`file`, `line`, `record`):
    /// the writer of the record writes them, once, before the number's fields.
    package var isRecordField: Bool { self == .file || self == .line || self == .record }

    /// The fields of `smskit validate` without `--fields`.
    package static let standard: [NumberAnswerField] = [.line, .input, .ok, .error, .e164, .possible, .valid, .type, .region, .fictional]

    /// The fields of the service's answer (`check-stream` puts `line` first).
    package static let service: [NumberAnswerField] = [
        .input, .ok, .error, .errorMessage, .e164, .national, .international, .possible, .valid, .type, .region, .fictional,
    ]

    /// The names of the fields that the C API's `smskit_check_result` and the Python package's
    /// `CheckResult` carry, by field: the bindings spell two of them their own way (`possibility`,
    /// `is_valid` in Python), and a test holds the header and the package to this table.
    package static let bindingNames: [(field: NumberAnswerField, c: String, python: String)] = [
        (.error, "error", "error"), (.e164, "e164", "e164"), (.possible, "possibility", "possibility"),
        (.valid, "valid", "is_valid"), (.type, "type", "type"), (.region, "region", "region"),
        (.fictional, "fictional", "fictional"),
    ]
}

/// The output formats of records: JSON lines, one JSON array, CSV and TSV with a header row, and
/// text for people.
package enum WireFormat: Sendable {
    case jsonl, json, csv, tsv, text

    package var isJSON: Bool { self == .json || self == .jsonl }
}

/// One number's answer, ready to write field by field: the number as given, why it never reached
/// the engine (`refusal`) or the engine's answer, and the values that cost work to compute
/// (formats, time zones, carrier), computed by the caller for the fields it writes.
package struct NumberAnswer {
    /// The number as given (valid UTF-8; JSON repairs anything else to U+FFFD).
    package var input: UnsafeBufferPointer<UInt8>
    /// Why the number was not checked (an error code and message), or nil.
    package var refusal: (code: String, message: String)?
    /// The engine's answer (any value with `number == nil` when ``refusal`` is set).
    package var check: PhoneNumberCheck
    package var national: String?
    package var international: String?
    package var rfc3966: String?
    /// The `column` field: which number column of the record the number came from.
    package var column: String?
    package var timeZones: [String]?
    package var carrier: String?

    /// The answer; `formats` says which of the national, international and RFC 3966 forms to
    /// compute (the others are written as absent).
    package init(input: UnsafeBufferPointer<UInt8>, refusal: (code: String, message: String)?, check: PhoneNumberCheck,
                 engine: PhoneNumberEngine, formats: (national: Bool, international: Bool, rfc3966: Bool) = (false, false, false)) {
        self.input = input
        self.refusal = refusal
        self.check = check
        if refusal == nil, let number = check.number {
            if formats.national { national = engine.format(number, as: .national) }
            if formats.international { international = engine.format(number, as: .international) }
            if formats.rfc3966 { rfc3966 = engine.format(number, as: .rfc3966) }
        }
    }

    /// The check of a number that never reached the engine (see ``refusal``).
    package static let unchecked = PhoneNumberCheck(
        number: nil, error: nil, possibility: nil, isValid: false, type: .unknown, region: nil, fictional: nil)

    /// The number when it reached the engine and parsed.
    package var parsed: PhoneNumber? { refusal == nil ? check.number : nil }

    /// The most bytes ``SpanWriter/write(_:of:as:)`` writes for one field of this answer: every
    /// string escaped at 6 bytes a byte, with its quotes, and room for the fixed names.
    package var maximumFieldCount: Int {
        var longest = input.count
        for text in [refusal?.message, check.error?.message, national, international, rfc3966, carrier, column] {
            if let text { longest = max(longest, text.utf8.count) }
        }
        let zones = timeZones?.reduce(0) { $0 + $1.utf8.count + 3 } ?? 0
        return JSONEscaping.maximumQuotedCount(max(longest, zones)) &+ 6 &* zones &+ 128
    }
}

extension SpanWriter {
    /// Writes one field's value of `answer` as `format` writes it: JSON values (absent is `null`),
    /// CSV and TSV fields (absent is empty), or text (absent is `-`). Record fields (`file`,
    /// `line`, `record`) are the record writer's: here they are absent. The room needed is
    /// ``NumberAnswer/maximumFieldCount``.
    package mutating func write(_ field: NumberAnswerField, of answer: NumberAnswer, as format: WireFormat) {
        let check = answer.check
        let parsed = answer.parsed
        let checked = answer.refusal == nil
        switch field {
        case .file, .line, .record:
            absent(format)
        case .column:
            if let column = answer.column { string(column, as: format) } else { string("", as: format) }
        case .input:
            string(answer.input, as: format)
        case .ok:
            literal(parsed != nil ? "true" : "false")
        case .error:
            if let refusal = answer.refusal { string(refusal.code, as: format) }
            else if let error = check.error { string(error.code.name, as: format) }
            else { absent(format) }
        case .errorMessage:
            if let refusal = answer.refusal { string(refusal.message, as: format) }
            else if let error = check.error { string(error.message, as: format) }
            else { absent(format) }
        case .e164:
            guard parsed != nil else { return absent(format) }
            if format.isJSON { byte(UInt8(ascii: "\"")) }
            e164(of: check)
            if format.isJSON { byte(UInt8(ascii: "\"")) }
        case .national:
            if let text = answer.national { string(text, as: format) } else { absent(format) }
        case .international:
            if let text = answer.international { string(text, as: format) } else { absent(format) }
        case .rfc3966:
            if let text = answer.rfc3966 { string(text, as: format) } else { absent(format) }
        case .possible:
            if parsed != nil, let possibility = check.possibility { string(possibility.rawValue, as: format) } else { absent(format) }
        case .valid:
            literal(checked && check.isValid ? "true" : "false")
        case .type:
            if parsed != nil { string(check.type.rawValue, as: format) } else { absent(format) }
        case .region:
            if checked, let region = check.region { string(region.identifier, as: format) } else { absent(format) }
        case .fictional:
            if checked, let fictional = check.fictional { string(fictional.kind.rawValue, as: format) } else { absent(format) }
        case .timeZones:
            guard parsed != nil, let zones = answer.timeZones else { return absent(format) }
            if format.isJSON {
                byte(UInt8(ascii: "["))
                for (index, zone) in zones.enumerated() {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    string(zone, as: format)
                }
                byte(UInt8(ascii: "]"))
            } else {
                string(zones.joined(separator: "&"), as: format)
            }
        case .carrier:
            if parsed != nil, let name = answer.carrier { string(name, as: format) } else { absent(format) }
        case .shortNumber:
            literal(checked && check.shortNumber?.isValid == true ? "true" : "false")
        case .cost:
            if checked, let info = check.shortNumber { string(info.cost.rawValue, as: format) } else { absent(format) }
        }
    }

    /// An absent value: `null` in JSON, `-` in text, nothing in CSV and TSV.
    package mutating func absent(_ format: WireFormat) {
        switch format {
        case .json, .jsonl: literal("null")
        case .text: byte(UInt8(ascii: "-"))
        case .csv, .tsv: break
        }
    }

    /// A string value (at most 6 bytes a byte, plus 2).
    package mutating func string(_ text: String, as format: WireFormat) {
        var text = text
        text.withUTF8 { string($0, as: format) }
    }

    /// A string value: quoted and escaped for JSON (bytes that are not UTF-8 become U+FFFD),
    /// quoted as RFC 4180 needs for CSV, escaped for TSV and text (at most 6 bytes a byte, plus 2).
    package mutating func string(_ source: UnsafeBufferPointer<UInt8>, as format: WireFormat) {
        switch format {
        case .json, .jsonl:
            if source.allSatisfy({ $0 < 0x80 }) || (try? UTF8Span(validating: source.span)) != nil {
                jsonString(source)
            } else {
                var repaired = String(decoding: source, as: UTF8.self)
                repaired.withUTF8 { jsonString($0) }
            }
        case .csv: csvField(source)
        case .tsv, .text: tsvField(source)
        }
    }
}
