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

    /// Appends one record to `out`: its line, its number field (valid UTF-8), and either why it
    /// never reached the engine or the engine's answer. JSON records start with `",\n"`, which
    /// the writer drops before the first record of the output.
    func append(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?, check: _RecordCheck?,
                to out: inout [UInt8], tally: inout _Tally) {
        let valid = check?.isValid ?? false
        if tallies { count(problem: problem, check: check, into: &tally) }
        if let filter {
            if filter == .valid && !valid { return }
            if filter == .invalid && valid { return }
        }
        tally.written += 1
        switch format {
        case .jsonl:
            appendJSON(line: line, input: input, problem: problem, check: check, to: &out)
            out.append(UInt8(ascii: "\n"))
        case .json:
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\n"))
            appendJSON(line: line, input: input, problem: problem, check: check, to: &out)
        case .csv:
            appendSeparated(line: line, input: input, problem: problem, check: check, separator: UInt8(ascii: ","), to: &out)
        case .tsv:
            appendSeparated(line: line, input: input, problem: problem, check: check, separator: UInt8(ascii: "\t"), to: &out)
        case .text:
            let parsed = check?.number != nil
            let fields = Fields(
                line: line, input: String(decoding: input, as: UTF8.self), ok: parsed,
                error: problem?.errorName ?? check?.error?.name,
                e164: check?.withE164 { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) },
                possible: parsed ? check?.possibility.rawValue : nil, valid: valid,
                type: parsed ? check?.type.rawValue : nil, region: check?.region?.identifier,
                fictional: check?.fictional?.kind.rawValue)
            appendText(fields, to: &out)
        }
    }

    private func count(problem: _RecordProblem?, check: _RecordCheck?, into tally: inout _Tally) {
        tally.records += 1
        guard let check else {
            tally.errors[problem!.errorName, default: 0] += 1
            return
        }
        if let error = check.error { tally.errors[error.name, default: 0] += 1 }
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
    /// most 6 bytes per byte) and the other fields (under 300 bytes).
    private static func recordCapacity(_ count: Int) -> Int { count &* 6 &+ 512 }

    private func appendJSON(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?,
                            check: _RecordCheck?, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.recordCapacity(input.count)) { buffer in
            var w = _ByteWriter(buffer)
            let parsed = check?.number != nil
            w.literal(#"{"line":"#)
            w.int(line)
            w.literal(#","input":"#)
            w.jsonString(input)
            w.literal(parsed ? #","ok":true,"error":"# : #","ok":false,"error":"#)
            if let name = problem?.errorName ?? check?.error?.name { w.quoted(name) } else { w.literal("null") }
            w.literal(#","e164":"#)
            if let check, parsed {
                w.byte(UInt8(ascii: "\""))
                check.withE164 { w.bytes($0) }
                w.byte(UInt8(ascii: "\""))
            } else {
                w.literal("null")
            }
            w.literal(#","possible":"#)
            if let check, parsed { w.quoted(check.possibility.rawValue) } else { w.literal("null") }
            w.literal(check?.isValid == true ? #","valid":true,"type":"# : #","valid":false,"type":"#)
            if let check, parsed { w.quoted(check.type.rawValue) } else { w.literal("null") }
            w.literal(#","region":"#)
            if let region = check?.region {
                w.byte(UInt8(ascii: "\""))
                region.withIdentifierBytes { w.bytes($0) }
                w.byte(UInt8(ascii: "\""))
            } else {
                w.literal("null")
            }
            w.literal(#","fictional":"#)
            if let fictional = check?.fictional { w.quoted(fictional.kind.rawValue) } else { w.literal("null") }
            w.byte(UInt8(ascii: "}"))
            out.append(contentsOf: w.written)
        }
    }

    private func appendSeparated(line: Int, input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?,
                                 check: _RecordCheck?, separator: UInt8, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.recordCapacity(input.count)) { buffer in
            var w = _ByteWriter(buffer)
            let parsed = check?.number != nil
            w.int(line)
            w.byte(separator)
            if separator == UInt8(ascii: ",") { w.csvField(input) } else { w.tsvField(input) }
            w.byte(separator)
            w.literal(parsed ? "true" : "false")
            w.byte(separator)
            if let name = problem?.errorName ?? check?.error?.name { w.raw(name) }
            w.byte(separator)
            if let check, parsed {
                check.withE164 { w.bytes($0) }
                w.byte(separator)
                w.raw(check.possibility.rawValue)
            } else {
                w.byte(separator)
            }
            w.byte(separator)
            w.literal(check?.isValid == true ? "true" : "false")
            w.byte(separator)
            if let check, parsed { w.raw(check.type.rawValue) }
            w.byte(separator)
            check?.region?.withIdentifierBytes { w.bytes($0) }
            w.byte(separator)
            if let fictional = check?.fictional { w.raw(fictional.kind.rawValue) }
            w.byte(UInt8(ascii: "\n"))
            out.append(contentsOf: w.written)
        }
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
}
