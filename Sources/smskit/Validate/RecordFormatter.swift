@_spi(Tools) import PhoneNumbers
import SMSKitJSON

/// Why `validate` could not hand a record to the engine. Each gives the record an `error` value.
enum _RecordProblem: UInt8 {
    /// The number or region field is not valid UTF-8: error `invalid_utf8`.
    case invalidUTF8
    /// The record is longer than 64 KiB: error `line_too_long` (the input field is left empty).
    case lineTooLong
    /// The number field holds a NUL byte, which no phone number has: error `not_a_number`.
    case nulByte
    /// A quote opened on the record's line never closed (the record was cut at its line):
    /// error `unclosed_quote`.
    case unclosedQuote
    /// The number is in scientific notation, as Excel writes long numbers: its trailing digits
    /// are lost. Error `spreadsheet_number`.
    case spreadsheetNumber

    var errorName: String {
        switch self {
        case .invalidUTF8: "invalid_utf8"
        case .lineTooLong: "line_too_long"
        case .nulByte: "not_a_number"
        case .unclosedQuote: "unclosed_quote"
        case .spreadsheetNumber: "spreadsheet_number"
        }
    }

    /// What the `error_message` field says.
    var message: String {
        switch self {
        case .invalidUTF8: "The number field is not valid UTF-8."
        case .lineTooLong: "The record is longer than 64 KiB."
        case .nulByte: "The input is not a phone number."
        case .unclosedQuote: "A quote opened on this line never closed; the record was cut at the end of its line."
        case .spreadsheetNumber: "The number is in scientific notation, as spreadsheets write long numbers: its last digits are lost."
        }
    }
}

/// Counts for `--summary`.
struct _Tally {
    var records = 0
    var parsed = 0
    var valid = 0
    var fictional = 0
    var written = 0
    /// Parsed numbers per region (keyed by code: no String per record) and without a region.
    var byRegionCode: [RegionCode: Int] = [:]
    var withoutRegion = 0
    var byType: [PhoneNumberType: Int] = [:]
    var byFictionalKind: [String: Int] = [:]
    var errors: [String: Int] = [:]
    /// Records with more cells than the kept columns (`--keep`): the extra cells are not written.
    var cutRecords = 0

    mutating func merge(_ other: _Tally) {
        records += other.records
        parsed += other.parsed
        valid += other.valid
        fictional += other.fictional
        written += other.written
        byRegionCode.merge(other.byRegionCode, uniquingKeysWith: +)
        withoutRegion += other.withoutRegion
        byType.merge(other.byType, uniquingKeysWith: +)
        byFictionalKind.merge(other.byFictionalKind, uniquingKeysWith: +)
        errors.merge(other.errors, uniquingKeysWith: +)
        cutRecords += other.cutRecords
    }

    mutating func countRegion(_ region: RegionCode?) {
        if let region { byRegionCode[region, default: 0] += 1 } else { withoutRegion += 1 }
    }

    /// Parsed numbers per region identifier, "no region" for numbers without one.
    var byRegion: [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: byRegionCode.map { ($0.key.identifier, $0.value) })
        if withoutRegion > 0 { counts["no region"] = withoutRegion }
        return counts
    }
}

/// Turns rows and their checks into output bytes in one of the ``RecordFormat``s.
///
/// Fields, in order: `line`, `input`, `ok`, `error`, `e164`, `possible`, `valid`, `type`,
/// `region`, `fictional`. Absent values are `null` in JSON and empty in CSV, TSV and text.
struct _RecordFormatter {
    static let fieldNames = ["line", "input", "ok", "error", "e164", "possible", "valid", "type", "region", "fictional"]

    let format: RecordFormat
    let filter: _Only?
    let tallies: Bool
    /// Whether the text format colours the verdict (a terminal, and `NO_COLOR` not set).
    var colour = false
    /// Whether CSV and TSV start with a header row (not with `--strict-lines`, whose output has
    /// exactly one line per input line).
    var headerRow = true

    /// What comes before the first record: the header row (CSV, TSV, unless ``headerRow`` is
    /// false) or `[` (JSON).
    var prologue: String {
        switch format {
        case .csv: headerRow ? Self.fieldNames.joined(separator: ",") + "\n" : ""
        case .tsv: headerRow ? Self.fieldNames.joined(separator: "\t") + "\n" : ""
        case .json: "["
        case .jsonl, .text: ""
        }
    }

    /// What comes after the last record.
    func epilogue(wroteRecords: Bool) -> String {
        format == .json ? (wroteRecords ? "\n]\n" : "]\n") : ""
    }

    /// The check of a record that never reached the engine (`problem` says why).
    static let unchecked = PhoneNumberCheck(number: nil, error: nil, possibility: nil, isValid: false, type: .unknown,
                                            region: nil, fictional: nil)

    /// Appends one record to `out`: its line, its number field (valid UTF-8), and either why it
    /// never reached the engine (`problem`, with ``unchecked``) or the engine's answer. JSON records start with `",\n"`, which
    /// the writer drops before the first record of the output.
    func append(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?, check: PhoneNumberCheck,
                to out: _ByteBuffer, tally: inout _Tally) {
        let valid = check.isValid
        if tallies { count(problem: problem, check: check, into: &tally) }
        if let filter, !filter.accepts(check, problem: problem) { return }
        tally.written += 1
        switch format {
        case .jsonl, .json:
            out.reserve(Self.recordCapacity(input.count))
            var w = SpanWriter(out.end)
            if format == .json { w.literal(",\n") }
            appendJSON(line: line, input: input, problem: problem, check: check, to: &w)
            if format == .jsonl { w.byte(UInt8(ascii: "\n")) }
            out.count &+= w.count
        case .csv, .tsv:
            out.reserve(Self.recordCapacity(input.count))
            var w = SpanWriter(out.end)
            appendSeparated(line: line, input: input, problem: problem, check: check,
                            separator: format == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t"), to: &w)
            out.count &+= w.count
        case .text:
            let parsed = check.number != nil
            let fields = Fields(
                line: line, input: String(decoding: input, as: UTF8.self), ok: parsed,
                error: problem?.errorName ?? check.error?.code.name,
                e164: check.e164,
                possible: parsed ? check.possibility?.rawValue : nil, valid: valid,
                type: parsed ? check.type.rawValue : nil, region: check.region?.identifier,
                fictional: check.fictional?.kind.rawValue)
            var text: [UInt8] = []
            appendText(fields, to: &text)
            text.withUnsafeBytes { out.append($0) }
        }
    }

    func count(problem: _RecordProblem?, check: PhoneNumberCheck, into tally: inout _Tally) {
        tally.records += 1
        if let problem {
            tally.errors[problem.errorName, default: 0] += 1
            return
        }
        if let error = check.error { tally.errors[error.code.name, default: 0] += 1 }
        guard check.number != nil else { return }
        tally.parsed += 1
        if check.isValid { tally.valid += 1 }
        tally.countRegion(check.region)
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

    /// Room for one JSON, CSV or TSV record of an input of `count` bytes: the escaped input (at
    /// most 6 bytes per byte) and the other fields (under 300 bytes, the JSON separator included).
    private static func recordCapacity(_ count: Int) -> Int { count &* 6 &+ 512 }

    /// What the JSON, CSV and TSV writers need of a check, as plain values: binding the check
    /// itself (`if let check`) copies it, references and all, once per use.
    private struct Answer {
        var parsed = false
        var valid = false
        var possibility = PhoneNumberPossibility.invalidLength
        var type = PhoneNumberType.unknown
        var region: RegionCode?
        var fictional: FictionalKind?

        @inline(__always)
        init(_ check: PhoneNumberCheck) {
            valid = check.isValid
            region = check.region
            fictional = check.fictional?.kind
            guard check.number != nil else { return }
            parsed = true
            possibility = check.possibility ?? .invalidLength
            type = check.type
        }
    }

    /// The error name: smskit's problem, else the engine's.
    @inline(__always)
    private static func writeError(_ problem: _RecordProblem?, _ check: PhoneNumberCheck, quoted: Bool, to w: inout SpanWriter) -> Bool {
        if let problem {
            if quoted { w.byte(UInt8(ascii: "\"")) }
            w.literal(_Names.name(problem))
            if quoted { w.byte(UInt8(ascii: "\"")) }
            return true
        }
        if let name = check.error?.code.name {
            if quoted { w.quoted(name) } else { w.raw(name) }
            return true
        }
        return false
    }

    private func appendJSON(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?,
                            check: PhoneNumberCheck, to w: inout SpanWriter) {
        let answer = Answer(check)
        w.literal(#"{"line":"#)
        w.int(line)
        w.literal(#","input":"#)
        w.jsonString(input)
        w.literal(answer.parsed ? #","ok":true,"error":"# : #","ok":false,"error":"#)
        if !Self.writeError(problem, check, quoted: true, to: &w) { w.literal("null") }
        if answer.parsed {
            w.literal(#","e164":""#)
            w.e164(of: check)
            w.literal(#"","possible":""#)
            w.literal(_Names.name(answer.possibility))
            w.literal(answer.valid ? #"","valid":true,"type":""# : #"","valid":false,"type":""#)
            w.literal(_Names.name(answer.type))
            w.literal(#"","region":"#)
        } else {
            w.literal(answer.valid ? #","e164":null,"possible":null,"valid":true,"type":null,"region":"#
                                   : #","e164":null,"possible":null,"valid":false,"type":null,"region":"#)
        }
        if let region = answer.region {
            w.byte(UInt8(ascii: "\""))
            w.region(region)
            w.byte(UInt8(ascii: "\""))
        } else {
            w.literal("null")
        }
        w.literal(#","fictional":"#)
        if let fictional = answer.fictional {
            w.byte(UInt8(ascii: "\""))
            w.literal(_Names.name(fictional))
            w.literal(#""}"#)
        } else {
            w.literal("null}")
        }
    }

    private func appendSeparated(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?,
                                 check: PhoneNumberCheck, separator: UInt8, to w: inout SpanWriter) {
        let answer = Answer(check)
        w.int(line)
        w.byte(separator)
        if separator == UInt8(ascii: ",") { w.csvField(input) } else { w.tsvField(input) }
        w.byte(separator)
        w.literal(answer.parsed ? "true" : "false")
        w.byte(separator)
        _ = Self.writeError(problem, check, quoted: false, to: &w)
        w.byte(separator)
        if answer.parsed {
            w.e164(of: check)
            w.byte(separator)
            w.literal(_Names.name(answer.possibility))
        } else {
            w.byte(separator)
        }
        w.byte(separator)
        w.literal(answer.valid ? "true" : "false")
        w.byte(separator)
        if answer.parsed { w.literal(_Names.name(answer.type)) }
        w.byte(separator)
        if let region = answer.region { w.region(region) }
        w.byte(separator)
        if let fictional = answer.fictional { w.literal(_Names.name(fictional)) }
        w.byte(UInt8(ascii: "\n"))
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
        if colour {
            // Green, yellow, red; the padding stays outside the escape codes.
            out.append(contentsOf: (!fields.ok ? "\u{1B}[31m" : fields.valid ? "\u{1B}[32m" : "\u{1B}[33m").utf8)
            out.append(contentsOf: verdict.utf8)
            out.append(contentsOf: "\u{1B}[0m".utf8)
            pad("", width: 7 - verdict.count, left: true, to: &out)
        } else {
            pad(verdict, width: 7, left: true, to: &out)
        }
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
}
