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
/// the engine (`refusal`) or what the engine answered, and the values that cost work to compute
/// (formats, time zones, carrier), computed by the caller for the fields it writes.
///
/// The engine's answer is kept as plain values (flags, names, the E.164 text inline), taken from
/// the check once: the writer reads them for every field, and reading the check's optional
/// number would copy it, and retain its strings, each time. Not copyable, for the same reason:
/// it is made once per number and lent to the writer.
package struct NumberAnswer: ~Copyable {
    /// The number as given: valid UTF-8, unless ``refusal`` is set (a refused number may hold any
    /// bytes; they are written with U+FFFD for each byte that is not UTF-8, in every format).
    package var input: UnsafeBufferPointer<UInt8>
    /// Why the number was not checked (an error code and message), or nil.
    package var refusal: (code: StaticString, message: StaticString)?
    /// Whether the number reached the engine and parsed.
    package let isParsed: Bool
    /// Why the engine could not parse it.
    package let error: PhoneNumberError?
    /// The E.164 text of a number that parsed.
    package let e164: E164Text?
    package let possibility: PhoneNumberPossibility?
    /// Whether the number is valid (false when refused or not parsed).
    package let isValid: Bool
    package let type: PhoneNumberType
    package let region: RegionCode?
    package let fictional: FictionalKind?
    /// The short-number facts of a number the engine checked.
    package let shortNumber: (isValid: Bool, cost: ShortNumberCost)?
    /// The values few fields need, in a box made when one is set: the answer stays small, and
    /// moving or dropping it touches none of them.
    private var extras: Extras?

    private final class Extras {
        var national: String?
        var international: String?
        var rfc3966: String?
        var column: String?
        var timeZones: [String]?
        var carrier: String?
    }

    private mutating func madeExtras() -> Extras {
        if let extras { return extras }
        let made = Extras()
        extras = made
        return made
    }

    package var national: String? {
        get { extras?.national }
        set { madeExtras().national = newValue }
    }
    package var international: String? {
        get { extras?.international }
        set { madeExtras().international = newValue }
    }
    package var rfc3966: String? {
        get { extras?.rfc3966 }
        set { madeExtras().rfc3966 = newValue }
    }
    /// The `column` field: which number column of the record the number came from.
    package var column: String? {
        get { extras?.column }
        set { madeExtras().column = newValue }
    }
    package var timeZones: [String]? {
        get { extras?.timeZones }
        set { madeExtras().timeZones = newValue }
    }
    package var carrier: String? {
        get { extras?.carrier }
        set { madeExtras().carrier = newValue }
    }

    /// The answer; `formats` says which of the national, international and RFC 3966 forms to
    /// compute (the others are written as absent).
    package init(input: UnsafeBufferPointer<UInt8>, refusal: (code: StaticString, message: StaticString)?, check: borrowing PhoneNumberCheck,
                 engine: PhoneNumberEngine, formats: (national: Bool, international: Bool, rfc3966: Bool) = (false, false, false)) {
        self.input = input
        self.refusal = refusal
        let checked = refusal == nil
        isValid = checked && check.isValid
        type = check.type
        region = checked ? check.region : nil
        fictional = checked ? check.fictional?.kind : nil
        shortNumber = checked ? check.shortNumber.map { ($0.isValid, $0.cost) } : nil
        error = checked ? check.error : nil
        if checked, let number = check.number {
            isParsed = true
            e164 = number.e164
            possibility = check.possibility
            if formats.national { national = engine.format(number, as: .national) }
            if formats.international { international = engine.format(number, as: .international) }
            if formats.rfc3966 { rfc3966 = engine.format(number, as: .rfc3966) }
        } else {
            isParsed = false
            e164 = nil
            possibility = nil
        }
    }

    /// The check of a number that never reached the engine (see ``refusal``).
    package static let unchecked = PhoneNumberCheck(
        number: nil, error: nil, possibility: nil, isValid: false, type: .unknown, region: nil, fictional: nil)

    /// The most bytes ``SpanWriter/write(_:of:as:)`` writes for one field of this answer, and
    /// ``SpanWriter/writeTextLine(line:of:colour:)`` for a whole line but its padding: every
    /// string escaped at 6 bytes a byte, with its quotes, and room for the fixed names.
    package var maximumFieldCount: Int {
        // No array of the optional texts: this runs once per number written.
        var longest = input.count
        if let text = refusal?.message { longest = max(longest, text.utf8CodeUnitCount) }
        if let text = error?.message { longest = max(longest, text.utf8.count) }
        var zones = 0
        if let extras {
            for text in [extras.national, extras.international, extras.rfc3966, extras.carrier, extras.column] {
                if let text { longest = max(longest, text.utf8.count) }
            }
            if let timeZones = extras.timeZones { for zone in timeZones { zones &+= zone.utf8.count &+ 3 } }
        }
        return JSONEscaping.maximumQuotedCount(max(longest, zones)) &+ 6 &* zones &+ 128
    }
}

extension SpanWriter {
    /// Writes one field's value of `answer` as `format` writes it: JSON values (absent is `null`),
    /// CSV and TSV fields (absent is empty), or text (absent is `-`). Record fields (`file`,
    /// `line`, `record`) are the record writer's: here they are absent. The room needed is
    /// ``NumberAnswer/maximumFieldCount``.
    @inline(__always)
    package mutating func write(_ field: NumberAnswerField, of answer: borrowing NumberAnswer, as format: WireFormat) {
        let checked = answer.refusal == nil
        switch field {
        case .file, .line, .record:
            absent(format)
        case .column:
            if let column = answer.column { string(column, as: format) } else { string("", as: format) }
        case .input:
            input(of: answer, as: format)
        case .ok:
            ok(of: answer)
        case .error:
            error(of: answer, as: format)
        case .errorMessage:
            if let refusal = answer.refusal { refusal.message.withUTF8Buffer { validString($0, as: format) } }
            else if let message = answer.error?.message { string(message, as: format) }
            else { absent(format) }
        case .e164:
            e164(of: answer, as: format)
        case .national:
            if let text = answer.national { string(text, as: format) } else { absent(format) }
        case .international:
            if let text = answer.international { string(text, as: format) } else { absent(format) }
        case .rfc3966:
            if let text = answer.rfc3966 { string(text, as: format) } else { absent(format) }
        case .possible:
            possible(of: answer, as: format)
        case .valid:
            valid(of: answer)
        case .type:
            type(of: answer, as: format)
        case .region:
            region(of: answer, as: format)
        case .fictional:
            fictional(of: answer, as: format)
        case .timeZones:
            guard answer.isParsed, let zones = answer.timeZones else { return absent(format) }
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
            if answer.isParsed, let name = answer.carrier { string(name, as: format) } else { absent(format) }
        case .shortNumber:
            literal(checked && answer.shortNumber?.isValid == true ? "true" : "false")
        case .cost:
            if let info = answer.shortNumber { string(info.cost.rawValue, as: format) } else { absent(format) }
        }
    }

    // The fields of the standard set, each on its own so that a row of them is written without
    // a jump per field (``write(_:of:)``).

    @inline(__always)
    private mutating func ok(of answer: borrowing NumberAnswer) {
        literal(answer.isParsed ? "true" : "false")
    }

    @inline(__always)
    private mutating func error(of answer: borrowing NumberAnswer, as format: WireFormat) {
        if let refusal = answer.refusal { name(refusal.code, as: format) }
        else if let code = answer.error?.code.name { name(code, as: format) }
        else { absent(format) }
    }

    @inline(__always)
    private mutating func e164(of answer: borrowing NumberAnswer, as format: WireFormat) {
        guard let e164 = answer.e164 else { return absent(format) }
        if format.isJSON { byte(UInt8(ascii: "\"")) }
        e164.withUTF8 { bytes($0) }
        if format.isJSON { byte(UInt8(ascii: "\"")) }
    }

    @inline(__always)
    private mutating func possible(of answer: borrowing NumberAnswer, as format: WireFormat) {
        if let possibility = answer.possibility { name(WireNames.name(possibility), as: format) } else { absent(format) }
    }

    @inline(__always)
    private mutating func valid(of answer: borrowing NumberAnswer) {
        literal(answer.isValid ? "true" : "false")
    }

    @inline(__always)
    private mutating func type(of answer: borrowing NumberAnswer, as format: WireFormat) {
        if answer.isParsed { name(WireNames.name(answer.type), as: format) } else { absent(format) }
    }

    @inline(__always)
    private mutating func region(of answer: borrowing NumberAnswer, as format: WireFormat) {
        guard let region = answer.region else { return absent(format) }
        if format.isJSON { byte(UInt8(ascii: "\"")) }
        self.region(region)
        if format.isJSON { byte(UInt8(ascii: "\"")) }
    }

    @inline(__always)
    private mutating func fictional(of answer: borrowing NumberAnswer, as format: WireFormat) {
        if let kind = answer.fictional { name(WireNames.name(kind), as: format) } else { absent(format) }
    }

    /// The number answer as one line for people, the `text` format of `smskit validate`'s
    /// default fields: the line number, the input (control characters escaped, `""` when empty),
    /// the E.164 form (`-` without one), the verdict (`valid`, `invalid`, `error`; in green,
    /// yellow or red with `colour`), then the type, the region and the fictional range of a
    /// number that parsed, or the error name of one that did not; padded columns, no trailing
    /// spaces. Needs ``NumberAnswer/maximumFieldCount`` plus 256 bytes of room.
    package mutating func writeTextLine(line: Int, of answer: borrowing NumberAnswer, colour: Bool) {
        let parsed = answer.isParsed
        let start = count
        var digits = line < 0 ? 2 : 1
        var rest = line.magnitude
        while rest >= 10 { rest /= 10; digits &+= 1 }
        spaces(6 &- digits)
        int(line)
        literal("  ")
        let shown = count
        if answer.input.isEmpty {
            literal("\"\"")
        } else if answer.refusal == nil {
            textInput(answer.input)
        } else {
            var repaired = String(decoding: answer.input, as: UTF8.self)
            repaired.withUTF8 { textInput($0) }
        }
        spaces(22 &- scalars(since: shown))
        literal("  ")
        let e164Start = count
        if let e164 = answer.e164 { e164.withUTF8 { bytes($0) } } else { byte(UInt8(ascii: "-")) }
        spaces(16 &- (count &- e164Start))
        literal("  ")
        let valid = answer.isValid
        let verdict: StaticString = !parsed ? "error" : valid ? "valid" : "invalid"
        if colour {
            // Green, yellow, red; the padding stays outside the escape codes.
            literal(!parsed ? "\u{1B}[31m" : valid ? "\u{1B}[32m" : "\u{1B}[33m")
            literal(verdict)
            literal("\u{1B}[0m")
        } else {
            literal(verdict)
        }
        spaces(7 &- verdict.utf8CodeUnitCount)
        literal("  ")
        if parsed {
            let type = WireNames.name(answer.type)
            literal(type)
            spaces(20 &- type.utf8CodeUnitCount)
            literal("  ")
            let regionStart = count
            if let region = answer.region { self.region(region) }
            spaces(3 &- (count &- regionStart))
            if let kind = answer.fictional {
                literal("  fictional: ")
                literal(WireNames.name(kind))
            }
        } else if let refusal = answer.refusal {
            literal(refusal.code)
        } else if let code = answer.error?.code.name {
            raw(code)
        }
        while count > start, base[count &- 1] == UInt8(ascii: " ") { count &-= 1 }
        byte(UInt8(ascii: "\n"))
    }

    /// `n` spaces (none when `n` is not positive).
    private mutating func spaces(_ n: Int) {
        var left = n
        while left > 0 {
            byte(UInt8(ascii: " "))
            left &-= 1
        }
    }

    /// The Unicode scalars written since `start` (valid UTF-8): its bytes that are not
    /// continuation bytes.
    private func scalars(since start: Int) -> Int {
        var scalars = 0
        for index in start..<count where base[index] & 0xC0 != 0x80 { scalars &+= 1 }
        return scalars
    }

    /// Valid UTF-8 as the text line shows it: control characters escaped as Swift writes them
    /// (`\t`, `\u{1B}`), so that a line of output stays one line.
    private mutating func textInput(_ source: UnsafeBufferPointer<UInt8>) {
        for value in source {
            if value < 0x20 || value == 0x7F {
                var escaped = Unicode.Scalar(value).escaped(asASCII: true)
                escaped.withUTF8 { bytes($0) }
            } else {
                byte(value)
            }
        }
    }

    /// The `input` field: the number's bytes, repaired (U+FFFD for each byte that is not UTF-8)
    /// when it was refused; valid UTF-8 otherwise (``NumberAnswer/input``).
    @inline(__always)
    private mutating func input(of answer: borrowing NumberAnswer, as format: WireFormat) {
        guard answer.refusal == nil else {
            var repaired = String(decoding: answer.input, as: UTF8.self)
            return repaired.withUTF8 { validString($0, as: format) }
        }
        validString(answer.input, as: format)
    }

    /// A string value from valid UTF-8: quoted and escaped for JSON, quoted as RFC 4180 needs for
    /// CSV, escaped for TSV and text (at most 6 bytes a byte, plus 2).
    private mutating func validString(_ source: UnsafeBufferPointer<UInt8>, as format: WireFormat) {
        switch format {
        case .json, .jsonl: jsonString(source)
        case .csv: csvField(source)
        case .tsv, .text: tsvField(source)
        }
    }

    /// A name (an error code, a type): quoted in JSON, as it is elsewhere; names need no escapes.
    @inline(__always)
    private mutating func name(_ text: StaticString, as format: WireFormat) {
        if format.isJSON { byte(UInt8(ascii: "\"")) }
        literal(text)
        if format.isJSON { byte(UInt8(ascii: "\"")) }
    }

    private mutating func name(_ text: String, as format: WireFormat) {
        if format.isJSON { quoted(text) } else { raw(text) }
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

/// A number answer's fields as a row of one format: each field after its prefix (the separator
/// before it and, in JSON, its key with its quote and colon), the prefixes made once for every
/// record written with them.
///
/// Its parts are held in memory of its own, read through pointers: writer threads share one row,
/// and reading arrays from it would retain and release them, from every thread, for each record.
package struct NumberAnswerRow: @unchecked Sendable {
    package let format: WireFormat
    fileprivate let storage: Storage

    fileprivate final class Storage {
        let fields: UnsafeMutableBufferPointer<NumberAnswerField>
        /// Where each prefix ends in ``bytes``.
        let ends: UnsafeMutableBufferPointer<Int>
        let bytes: UnsafeMutableBufferPointer<UInt8>
        /// Whether the fields are the number fields of ``NumberAnswerField/standard``, in order.
        let isStandard: Bool
        let count: Int

        init(fields: [NumberAnswerField], prefixes: [[UInt8]]) {
            isStandard = fields == NumberAnswerField.standard.filter { !$0.isRecordField }
            count = fields.count
            self.fields = .allocate(capacity: max(1, fields.count))
            _ = self.fields.initialize(from: fields)
            ends = .allocate(capacity: max(1, prefixes.count))
            bytes = .allocate(capacity: max(1, prefixes.reduce(0) { $0 + $1.count }))
            var end = 0
            for (index, prefix) in prefixes.enumerated() {
                for byte in prefix {
                    bytes[end] = byte
                    end += 1
                }
                ends[index] = end
            }
        }

        deinit {
            fields.deallocate()
            ends.deallocate()
            bytes.deallocate()
        }
    }

    /// `prefixes[i]` comes before `fields[i]`.
    package init(fields: [NumberAnswerField], prefixes: [[UInt8]], format: WireFormat) {
        precondition(fields.count == prefixes.count, "a prefix for each field")
        self.format = format
        storage = Storage(fields: fields, prefixes: prefixes)
    }

    /// How many fields.
    package var count: Int { storage.count }

    /// The row for a loop that writes records while the row lives: reading it retains nothing.
    package var view: View { View(storage: storage, format: format) }

    /// A row without a reference count, valid while its ``NumberAnswerRow`` lives: pointers into
    /// its memory.
    package struct View {
        fileprivate let fields: UnsafePointer<NumberAnswerField>
        fileprivate let ends: UnsafePointer<Int>
        fileprivate let bytes: UnsafePointer<UInt8>
        fileprivate let isStandard: Bool
        /// How many fields.
        package let count: Int
        package let format: WireFormat

        fileprivate init(storage: Storage, format: WireFormat) {
            fields = UnsafePointer(storage.fields.baseAddress!)
            ends = UnsafePointer(storage.ends.baseAddress!)
            bytes = UnsafePointer(storage.bytes.baseAddress!)
            isStandard = storage.isStandard
            count = storage.count
            self.format = format
        }

        /// The prefix of field `index`.
        package func prefix(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let start = index == 0 ? 0 : ends[index &- 1]
            return UnsafeBufferPointer(start: bytes + start, count: ends[index] &- start)
        }

        /// The most bytes ``SpanWriter/write(_:of:)`` writes for `answer`: the prefixes, the
        /// input and the texts of the row's fields escaped at 6 bytes a byte, and room for the names.
        package func maximumCount(of answer: borrowing NumberAnswer) -> Int {
            let prefixes = count == 0 ? 0 : ends[count &- 1]
            // The input is the only text of the standard fields: the others are names and numbers.
            return isStandard ? prefixes &+ JSONEscaping.maximumQuotedCount(answer.input.count) &+ 8 &* 64
                : prefixes &+ count &* answer.maximumFieldCount
        }
    }
}

extension SpanWriter {
    /// Writes `row`'s fields of `answer`, each after its prefix. Needs room for
    /// ``NumberAnswerRow/View/maximumCount(of:)`` bytes.
    package mutating func write(_ row: NumberAnswerRow.View, of answer: borrowing NumberAnswer) {
        // One loop per format, each with the format a constant that the field writer folds.
        switch row.format {
        case .jsonl: write(fieldsOf: row, of: answer, as: .jsonl)
        case .json: write(fieldsOf: row, of: answer, as: .json)
        case .csv: write(fieldsOf: row, of: answer, as: .csv)
        case .tsv: write(fieldsOf: row, of: answer, as: .tsv)
        case .text: write(fieldsOf: row, of: answer, as: .text)
        }
    }

    @inline(__always)
    private mutating func write(fieldsOf row: NumberAnswerRow.View, of answer: borrowing NumberAnswer, as format: WireFormat) {
        let fields = row.fields
        let ends = row.ends
        let prefixes = row.bytes
        if row.isStandard {
            // The standard fields (`smskit validate`'s default, most records written): the same
            // field writer in the same order, spelled out, so that each field's case is chosen
            // when compiling rather than by a jump per field.
            copy(prefixes, ends[0])
            input(of: answer, as: format)
            copy(prefixes + ends[0], ends[1] &- ends[0])
            ok(of: answer)
            copy(prefixes + ends[1], ends[2] &- ends[1])
            error(of: answer, as: format)
            copy(prefixes + ends[2], ends[3] &- ends[2])
            e164(of: answer, as: format)
            copy(prefixes + ends[3], ends[4] &- ends[3])
            possible(of: answer, as: format)
            copy(prefixes + ends[4], ends[5] &- ends[4])
            valid(of: answer)
            copy(prefixes + ends[5], ends[6] &- ends[5])
            type(of: answer, as: format)
            copy(prefixes + ends[6], ends[7] &- ends[6])
            region(of: answer, as: format)
            copy(prefixes + ends[7], ends[8] &- ends[7])
            fictional(of: answer, as: format)
            return
        }
        var start = 0
        for index in 0..<row.count {
            let end = ends[index]
            copy(prefixes + start, end &- start)
            write(fields[index], of: answer, as: format)
            start = end
        }
    }

    /// Writes field `index` of `row` as absent, after its prefix.
    package mutating func writeAbsent(_ row: NumberAnswerRow.View, field index: Int) {
        bytes(row.prefix(index))
        absent(row.format)
    }
}
