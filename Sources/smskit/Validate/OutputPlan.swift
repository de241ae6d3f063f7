import PhoneNumberCarriers
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON

/// `--fields`: the number answer's fields (``SMSKitJSON/NumberAnswerField``), by name.
extension NumberAnswerField {
    /// The names for a usage error.
    static let namesText = allCases.map(\.rawValue).joined(separator: ", ")

    /// Parses `--fields` values: names separated by commas, in the order given, each once.
    static func parse(_ values: [String]) throws -> [NumberAnswerField] {
        var fields: [NumberAnswerField] = []
        for value in values {
            for name in value.split(separator: ",", omittingEmptySubsequences: true) {
                let trimmed = String(name).trimmingSpaces.lowercased()
                guard let field = NumberAnswerField(rawValue: trimmed) else {
                    throw CLIError.usage("unknown field '\(trimmed)' for --fields; valid fields: \(namesText)")
                }
                if !fields.contains(field) { fields.append(field) }
            }
        }
        guard !fields.isEmpty else { throw CLIError.usage("--fields needs at least one field; valid fields: \(namesText)") }
        return fields
    }
}

/// `--only`: the records to write, by verdict (`valid`, `invalid`) or by type (`mobile`,
/// `fixed_line`, ...). Several values: a record is written when it matches any of them.
struct _Only: Equatable {
    /// One bit per type (``PhoneNumberType/allCases`` order), then valid, then invalid.
    private var bits: UInt32 = 0

    private static let validBit: UInt32 = 1 << 30
    private static let invalidBit: UInt32 = 1 << 31

    static let namesText = (["valid", "invalid"] + PhoneNumberType.allCases.map(\.rawValue)).joined(separator: ", ")

    /// Parses `--only` values (each may hold several names separated by commas).
    static func parse(_ values: [String]) throws -> _Only? {
        guard !values.isEmpty else { return nil }
        var only = _Only()
        for value in values {
            for name in value.split(separator: ",", omittingEmptySubsequences: true) {
                let trimmed = String(name).trimmingSpaces.lowercased()
                if trimmed == "valid" {
                    only.bits |= validBit
                } else if trimmed == "invalid" {
                    only.bits |= invalidBit
                } else if let index = PhoneNumberType.allCases.firstIndex(where: { $0.rawValue == trimmed }) {
                    only.bits |= 1 << UInt32(index)
                } else {
                    throw CLIError.usage("unknown value '\(trimmed)' for --only; valid values: \(namesText)")
                }
            }
        }
        return only
    }

    /// Whether a number with this check is written. Errors count as invalid; a type matches
    /// only a number that parsed.
    @inline(__always)
    func accepts(_ check: PhoneNumberCheck, problem: _RecordProblem?) -> Bool {
        let valid = problem == nil && check.isValid
        if valid ? bits & Self.validBit != 0 : bits & Self.invalidBit != 0 { return true }
        guard bits & ~(Self.validBit | Self.invalidBit) != 0, problem == nil, check.number != nil else { return false }
        return bits & (1 << UInt32(Self.typeIndex(check.type))) != 0
    }

    private static func typeIndex(_ type: PhoneNumberType) -> Int {
        PhoneNumberType.allCases.firstIndex(of: type) ?? 0
    }
}

/// What `validate` writes: which output columns, in which format, for which records. Every
/// layout, the default one included, is written by ``_PlanWriter`` through the number answer's
/// one field writer (``SMSKitJSON/SpanWriter/write(_:of:as:)``).
///
/// The default layout is the fields ``SMSKitJSON/NumberAnswerField/standard``; its `text` format
/// is one padded line per number for people (``textLines``). Kept input columns (`--keep`),
/// several number columns (`--column` more than once), several numbers per cell (`--split`),
/// chosen fields (`--fields`), `--unique` and several files (a `file` field) choose others.
///
/// Output columns, in order: the record fields (`file`, `line`, `record`, as chosen), the kept
/// input columns, then the number fields. With several number columns and without `--split`,
/// each number column has its own number fields, named `<column>.<field>` (`<column>` is the
/// header name, or the 1-based position without a header): `Phone 1 - Value.e164`. With
/// `--split`, each number is an output record of its own, and the `column` field says where it
/// came from.
struct _OutputPlan {
    /// One output column.
    enum Column {
        case record(NumberAnswerField)
        case kept(Int)
        /// A number field of number column `slot`; with `--split`, slot 0 is the current number.
        case number(slot: Int, NumberAnswerField)
    }

    let format: RecordFormat
    let wire: WireFormat
    let columns: [Column]
    /// The output names of ``columns``.
    let names: [String]
    /// What each column before the number columns starts with: the separator after the column
    /// before it, and in JSON the key with its quotes and colon (`,"line":`); the row's fields
    /// are placeholders.
    let leading: NumberAnswerRow
    /// The labels of the number columns (`column` field values).
    let labels: [String]
    /// How many input columns are kept (0 without `--keep`).
    let keptCount: Int
    let split: Bool
    let only: _Only?
    let unique: Bool
    let headerRow: Bool
    /// Whether `text` is one padded line per number (``SMSKitJSON/SpanWriter/writeTextLine(line:of:colour:)``),
    /// the default layout's, rather than the columns separated by two spaces.
    let textLines: Bool
    /// Whether the text lines colour the verdict (a terminal, and `NO_COLOR` not set).
    let colour: Bool
    let carrierLocale: CarrierLocale
    let needsColumn: Bool
    let needsTimeZones: Bool
    let needsCarrier: Bool
    /// Which formatted forms of a number the fields need.
    let formats: (national: Bool, international: Bool, rfc3966: Bool)
    /// The number fields written per number column.
    let numberFieldCount: Int
    /// Where the number columns start in ``columns`` (after the record fields and kept columns).
    let numberStart: Int
    /// The number columns by number: which number (its slot), and its fields as a row.
    let numberGroups: [(slot: Int, row: NumberAnswerRow)]
    /// Room for one output record but its values: the prefixes, the record's ends, and the
    /// `line` and `record` values.
    let recordRoom: Int

    init(format: RecordFormat, fields: [NumberAnswerField], keptNames: [String]?, labels: [String], split: Bool, only: _Only?,
         unique: Bool, headerRow: Bool, textLines: Bool = false, colour: Bool = false, carrierLocale: CarrierLocale) {
        self.format = format
        wire = format.wire
        self.labels = labels
        self.split = split
        self.only = only
        self.unique = unique
        self.headerRow = headerRow
        self.textLines = format == .text && textLines
        self.colour = colour
        self.carrierLocale = carrierLocale
        keptCount = keptNames?.count ?? 0
        var columns: [Column] = []
        var names: [String] = []
        for field in fields where field.isRecordField {
            columns.append(.record(field))
            names.append(field.rawValue)
        }
        for (index, name) in (keptNames ?? []).enumerated() {
            columns.append(.kept(index))
            names.append(name)
        }
        let numberFields = fields.filter { !$0.isRecordField }
        if split || labels.count == 1 {
            for field in numberFields {
                columns.append(.number(slot: 0, field))
                names.append(field.rawValue)
            }
            numberFieldCount = numberFields.count
        } else {
            for (slot, label) in labels.enumerated() {
                for field in numberFields where field != .column {
                    columns.append(.number(slot: slot, field))
                    names.append("\(label).\(field.rawValue)")
                }
            }
            numberFieldCount = numberFields.filter { $0 != .column }.count
        }
        self.columns = columns
        self.names = names
        numberStart = columns.firstIndex { if case .number = $0 { true } else { false } } ?? columns.count
        let prefixes = names.enumerated().map { position, name in
            var prefix: [UInt8] = []
            if position > 0 {
                switch format {
                case .json, .jsonl, .csv: prefix.append(UInt8(ascii: ","))
                case .tsv: prefix.append(UInt8(ascii: "\t"))
                case .text: prefix += [UInt8(ascii: " "), UInt8(ascii: " ")]
                }
            }
            if format == .json || format == .jsonl {
                prefix += _encoded(name) { w, utf8 in w.jsonString(utf8) }
                prefix.append(UInt8(ascii: ":"))
            }
            return prefix
        }
        recordRoom = prefixes.reduce(16) { $0 + $1.count + 24 }
        var groups: [(slot: Int, fields: [NumberAnswerField], prefixes: [[UInt8]])] = []
        for (position, column) in columns.enumerated() {
            guard case .number(let slot, let field) = column else { continue }
            if groups.last?.slot != slot { groups.append((slot, [], [])) }
            groups[groups.count - 1].fields.append(field)
            groups[groups.count - 1].prefixes.append(prefixes[position])
        }
        numberGroups = groups.map { ($0.slot, NumberAnswerRow(fields: $0.fields, prefixes: $0.prefixes, format: format.wire)) }
        leading = NumberAnswerRow(fields: Array(repeating: .line, count: numberStart), prefixes: Array(prefixes[..<numberStart]),
                                  format: format.wire)
        needsColumn = fields.contains(.column)
        needsTimeZones = fields.contains(.timeZones)
        needsCarrier = fields.contains(.carrier)
        formats = (fields.contains(.national), fields.contains(.international), fields.contains(.rfc3966))
    }

    /// The header row (CSV, TSV) or `[` (JSON).
    var prologue: String {
        switch format {
        case .csv, .tsv:
            guard headerRow else { return "" }
            var line: [UInt8] = []
            for (position, name) in names.enumerated() {
                if position > 0 { line.append(format == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }
                line += _encoded(name) { w, utf8 in if format == .csv { w.csvField(utf8) } else { w.tsvField(utf8) } }
            }
            line.append(UInt8(ascii: "\n"))
            return String(decoding: line, as: UTF8.self)
        case .json: return "["
        case .jsonl, .text: return ""
        }
    }

    /// What comes after the last record: `]` closes a JSON array (its records start with `",\n"`,
    /// which the output drops before the first one).
    func epilogue(wroteRecords: Bool) -> String {
        format == .json ? (wroteRecords ? "\n]\n" : "]\n") : ""
    }
}

/// `text` written by `write` (a ``SpanWriter`` method that writes at most 6 bytes per byte, plus 2).
func _encoded(_ text: String, _ write: (inout SpanWriter, UnsafeBufferPointer<UInt8>) -> Void) -> [UInt8] {
    var copy = text
    return copy.withUTF8 { utf8 in
        [UInt8](unsafeUninitializedCapacity: utf8.count * 6 + 2) { buffer, initialized in
            var w = SpanWriter(buffer.baseAddress!)
            write(&w, utf8)
            initialized = w.count
        }
    }
}
