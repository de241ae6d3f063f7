import PhoneNumbers

/// Why `validate` could not hand a record to the engine. Each gives the record an `error` value.
enum _RecordProblem: UInt8 {
    /// The number or region field is not valid UTF-8: error `invalid_utf8`.
    case invalidUTF8
    /// The record is longer than 64 KiB: error `line_too_long` (the input field is left empty).
    case lineTooLong
    /// The number field holds a NUL byte, which no phone number has: error `not_a_number`.
    case nulByte

    var errorName: String {
        switch self {
        case .invalidUTF8: "invalid_utf8"
        case .lineTooLong: "line_too_long"
        case .nulByte: "not_a_number"
        }
    }
}

/// One input record of `validate`, before or after checking.
struct _Row {
    /// The line the record starts on (1-based, per file; the header is line 1 when there is one).
    var line: Int
    /// The number field as given (U+FFFD for invalid UTF-8; empty for over-long records).
    var input: String
    /// Set when the record never reaches the engine.
    var problem: _RecordProblem?
    /// The default region for the number.
    var region: RegionCode?
}

/// Counts for `--summary`.
struct _Tally {
    var records = 0
    var parsed = 0
    var valid = 0
    var fictional = 0
    var written = 0
    var byRegion: [String: Int] = [:]
    var byType: [PhoneNumberType: Int] = [:]
    var byFictionalKind: [String: Int] = [:]
    var errors: [String: Int] = [:]

    mutating func merge(_ other: _Tally) {
        records += other.records
        parsed += other.parsed
        valid += other.valid
        fictional += other.fictional
        written += other.written
        byRegion.merge(other.byRegion, uniquingKeysWith: +)
        byType.merge(other.byType, uniquingKeysWith: +)
        byFictionalKind.merge(other.byFictionalKind, uniquingKeysWith: +)
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}

/// `--only valid|invalid`.
enum RecordFilter: String, CaseIterable {
    case valid, invalid
}

/// Turns rows and their checks into output bytes in one of the ``RecordFormat``s.
///
/// Fields, in order: `line`, `input`, `ok`, `error`, `e164`, `possible`, `valid`, `type`,
/// `region`, `fictional`. Absent values are `null` in JSON and empty in CSV, TSV and text.
struct _RecordFormatter {
    static let fieldNames = ["line", "input", "ok", "error", "e164", "possible", "valid", "type", "region", "fictional"]

    let format: RecordFormat
    let filter: RecordFilter?
    let tallies: Bool

    /// What comes before the first record: the header row (CSV, TSV) or `[` (JSON).
    var prologue: String {
        switch format {
        case .csv: Self.fieldNames.joined(separator: ",") + "\n"
        case .tsv: Self.fieldNames.joined(separator: "\t") + "\n"
        case .json: "["
        case .jsonl, .text: ""
        }
    }

    /// What comes after the last record.
    func epilogue(wroteRecords: Bool) -> String {
        format == .json ? (wroteRecords ? "\n]\n" : "]\n") : ""
    }

    /// Appends the records `rows[range]` to `out`; JSON records start with `",\n"`, which the
    /// writer drops before the first record of the output.
    func append(rows: UnsafeBufferPointer<_Row>, resultIndex: UnsafeBufferPointer<Int32>,
                results: UnsafeBufferPointer<PhoneNumberCheck>, to out: inout [UInt8], tally: inout _Tally) {
        for position in rows.indices {
            let row = rows[position]
            let index = Int(resultIndex[position])
            let check: PhoneNumberCheck? = index >= 0 ? results[index] : nil
            let parsed = check?.number != nil
            let valid = check?.isValid ?? false
            if tallies { count(row: row, check: check, into: &tally) }
            if let filter {
                if filter == .valid && !valid { continue }
                if filter == .invalid && valid { continue }
            }
            tally.written += 1
            let error = row.problem?.errorName ?? check?.error?.code.name
            let fields = Fields(
                line: row.line, input: row.input, ok: parsed, error: error, e164: check?.e164,
                possible: parsed ? check?.possibility?.rawValue : nil, valid: valid,
                type: parsed ? check?.type.rawValue : nil, region: check?.region?.identifier,
                fictional: check?.fictional?.kind.rawValue)
            switch format {
            case .jsonl: appendJSON(fields, to: &out); out.append(UInt8(ascii: "\n"))
            case .json: out.append(UInt8(ascii: ",")); out.append(UInt8(ascii: "\n")); appendJSON(fields, to: &out)
            case .csv: appendSeparated(fields, separator: UInt8(ascii: ","), to: &out)
            case .tsv: appendSeparated(fields, separator: UInt8(ascii: "\t"), to: &out)
            case .text: appendText(fields, to: &out)
            }
        }
    }

    private func count(row: _Row, check: PhoneNumberCheck?, into tally: inout _Tally) {
        tally.records += 1
        guard let check else {
            tally.errors[row.problem!.errorName, default: 0] += 1
            return
        }
        if let error = check.error { tally.errors[error.code.name, default: 0] += 1 }
        guard check.number != nil else { return }
        tally.parsed += 1
        if check.isValid { tally.valid += 1 }
        tally.byRegion[check.region?.identifier ?? "no region", default: 0] += 1
        tally.byType[check.type, default: 0] += 1
        if let fictional = check.fictional {
            tally.fictional += 1
            tally.byFictionalKind[fictional.kind.rawValue, default: 0] += 1
        }
    }

    struct Fields {
        var line: Int
        var input: String
        var ok: Bool
        var error: String?
        var e164: String?
        var possible: String?
        var valid: Bool
        var type: String?
        var region: String?
        var fictional: String?
    }

    // MARK: Formats

    private func appendJSON(_ fields: Fields, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"line":"#.utf8)
        appendInt(fields.line, to: &out)
        out.append(contentsOf: #","input":"#.utf8)
        appendJSONString(fields.input, to: &out)
        out.append(contentsOf: (fields.ok ? #","ok":true,"error":"# : #","ok":false,"error":"#).utf8)
        appendJSONOptional(fields.error, to: &out)
        out.append(contentsOf: #","e164":"#.utf8)
        appendJSONOptional(fields.e164, to: &out)
        out.append(contentsOf: #","possible":"#.utf8)
        appendJSONOptional(fields.possible, to: &out)
        out.append(contentsOf: (fields.valid ? #","valid":true,"type":"# : #","valid":false,"type":"#).utf8)
        appendJSONOptional(fields.type, to: &out)
        out.append(contentsOf: #","region":"#.utf8)
        appendJSONOptional(fields.region, to: &out)
        out.append(contentsOf: #","fictional":"#.utf8)
        appendJSONOptional(fields.fictional, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func appendSeparated(_ fields: Fields, separator: UInt8, to out: inout [UInt8]) {
        appendInt(fields.line, to: &out)
        out.append(separator)
        var input = fields.input
        input.withUTF8 { bytes in
            if separator == UInt8(ascii: ",") {
                _JSONText.appendCSV(bytes: bytes, to: &out)
            } else {
                _JSONText.appendTSV(bytes: bytes, to: &out)
            }
        }
        out.append(separator)
        out.append(contentsOf: (fields.ok ? "true" : "false").utf8)
        for value in [fields.error, fields.e164, fields.possible] {
            out.append(separator)
            if let value { out.append(contentsOf: value.utf8) }
        }
        out.append(separator)
        out.append(contentsOf: (fields.valid ? "true" : "false").utf8)
        for value in [fields.type, fields.region, fields.fictional] {
            out.append(separator)
            if let value { out.append(contentsOf: value.utf8) }
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// `  line  input  e164  valid|invalid|error  type|error  region  fictional`, padded columns.
    private func appendText(_ fields: Fields, to out: inout [UInt8]) {
        let line = String(fields.line)
        pad(line, width: 6, left: false, to: &out)
        out.append(contentsOf: "  ".utf8)
        var shown = ""
        for scalar in fields.input.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                shown += scalar.escaped(asASCII: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        pad(shown.isEmpty ? "\"\"" : shown, width: 22, left: true, to: &out)
        out.append(contentsOf: "  ".utf8)
        pad(fields.e164 ?? "-", width: 16, left: true, to: &out)
        out.append(contentsOf: "  ".utf8)
        let verdict = !fields.ok ? "error" : fields.valid ? "valid" : "invalid"
        pad(verdict, width: 7, left: true, to: &out)
        out.append(contentsOf: "  ".utf8)
        if fields.ok {
            pad(fields.type ?? "", width: 20, left: true, to: &out)
            out.append(contentsOf: "  ".utf8)
            pad(fields.region ?? "", width: 3, left: true, to: &out)
            if let fictional = fields.fictional {
                out.append(contentsOf: "  fictional: ".utf8)
                out.append(contentsOf: fictional.utf8)
            }
        } else {
            out.append(contentsOf: (fields.error ?? "").utf8)
        }
        while out.last == UInt8(ascii: " ") { out.removeLast() }
        out.append(UInt8(ascii: "\n"))
    }

    private func pad(_ text: String, width: Int, left: Bool, to out: inout [UInt8]) {
        let count = text.unicodeScalars.count
        if !left { for _ in count..<max(count, width) { out.append(UInt8(ascii: " ")) } }
        out.append(contentsOf: text.utf8)
        if left { for _ in count..<max(count, width) { out.append(UInt8(ascii: " ")) } }
    }

    private func appendInt(_ value: Int, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var remaining = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    private func appendJSONString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { _JSONText.appendString(bytes: $0, to: &out) }
    }

    private func appendJSONOptional(_ text: String?, to out: inout [UInt8]) {
        if let text {
            appendJSONString(text, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }
}
