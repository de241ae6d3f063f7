import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers
import SMSKitCommandLine

/// One number of a record, checked: its field bytes, why it was not checked (`problem`) or the
/// engine's answer, and which number column it came from.
struct _CheckedNumber {
    var input: UnsafeBufferPointer<UInt8>
    var problem: _RecordProblem?
    var check: PhoneNumberCheck
    var slot: Int
}

/// Writes the output records of an ``_OutputPlan`` into a slice's buffer, and, with `--unique`,
/// where each record ends and the numbers it holds (the writer of the output drops the records
/// whose numbers were all seen before: see ``_UniqueFilter``).
struct _PlanWriter {
    let plan: _OutputPlan
    let engine: PhoneNumberEngine
    let out: _ByteBuffer
    let result: _SliceResult
    /// The file's name, for the `file` field.
    let file: [UInt8]

    /// Writes one output record for `numbers` (all the record's numbers without `--split`, one
    /// with it) unless `--only` leaves it out; returns whether it was written.
    @discardableResult
    func write(line: Int, record: Int, kept: [UInt8], keptRanges: [Range<Int>], numbers: ArraySlice<_CheckedNumber>,
               tally: inout _Tally) -> Bool {
        if let only = plan.only, !numbers.contains(where: { only.accepts($0.check, problem: $0.problem) }) { return false }
        tally.written += 1
        var first = true
        switch plan.format {
        case .json: put(",\n{")
        case .jsonl: put("{")
        case .csv, .tsv, .text: break
        }
        for (position, column) in plan.columns.enumerated() {
            if !first {
                switch plan.format {
                case .json, .jsonl, .csv: put(",")
                case .tsv: put("\t")
                case .text: put("  ")
                }
            }
            first = false
            if plan.format == .json || plan.format == .jsonl {
                plan.jsonKeys[position].withUnsafeBufferPointer { bytes($0) }
            }
            switch column {
            case .record(let field):
                switch field {
                case .file: file.withUnsafeBufferPointer { string($0) }
                case .line: int(line)
                default: int(record)
                }
            case .kept(let index):
                if index < keptRanges.count {
                    kept.withUnsafeBufferPointer { string(UnsafeBufferPointer(rebasing: $0[keptRanges[index]])) }
                } else {
                    absent()
                }
            case .number(let slot, let field):
                let wanted = plan.split ? numbers.first : numbers.first { $0.slot == slot }
                if let number = wanted { value(field, of: number) } else { absent() }
            }
        }
        switch plan.format {
        case .json: put("}")
        case .jsonl: put("}\n")
        case .csv, .tsv, .text: put("\n")
        }
        if plan.unique {
            for number in numbers where number.problem == nil { if let key = Self.key(number.check) { result.keys.append(key) } }
            result.marks.append(_UniqueMark(end: out.count, keysEnd: result.keys.count))
        }
        return true
    }

    /// A number's key for `--unique`: the same number as ``PhoneNumbers/PhoneNumber/dedupeKey``
    /// (calling code, national number with its leading zeros, extension), kept as its E.164
    /// digits as an integer, times 32, plus their count (so that +39 06... and +39 6... differ),
    /// and the extension, which few numbers have.
    static func key(_ check: PhoneNumberCheck) -> _UniqueKey? {
        guard let number = check.number else { return nil }
        var digits: UInt64 = 0
        var count: UInt64 = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            let written = number.writeE164(into: UnsafeMutableRawBufferPointer(buffer))
            for byte in buffer[..<written] where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits = digits &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                count += 1
            }
        }
        let ext = number.extension.flatMap { $0.isEmpty ? nil : $0 }
        return _UniqueKey(number: digits &<< 5 | (count & 31), extension: ext)
    }

    // MARK: Values

    private func value(_ field: _OutputField, of number: _CheckedNumber) {
        let check = number.check
        let parsed = number.problem == nil ? check.number : nil
        switch field {
        case .file, .line, .record:
            absent()
        case .column:
            string(plan.labels.indices.contains(number.slot) ? plan.labels[number.slot] : "")
        case .input:
            string(number.input)
        case .ok:
            bool(parsed != nil)
        case .error:
            if let problem = number.problem { string(problem.errorName) } else if let error = check.error { string(error.code.name) } else { absent() }
        case .e164:
            if parsed != nil {
                out.reserve(80)
                var w = _ByteWriter(out.end)
                if plan.format == .json || plan.format == .jsonl { w.byte(UInt8(ascii: "\"")) }
                w.e164(of: check)
                if plan.format == .json || plan.format == .jsonl { w.byte(UInt8(ascii: "\"")) }
                out.count &+= w.count
            } else {
                absent()
            }
        case .national, .international, .rfc3966:
            guard let parsed else { return absent() }
            let format: PhoneNumberFormat = field == .national ? .national : field == .international ? .international : .rfc3966
            string(engine.format(parsed, as: format))
        case .possible:
            if parsed != nil, let possibility = check.possibility { string(possibility.rawValue) } else { absent() }
        case .valid:
            bool(number.problem == nil && check.isValid)
        case .type:
            if parsed != nil { string(check.type.rawValue) } else { absent() }
        case .region:
            if number.problem == nil, let region = check.region { string(region.identifier) } else { absent() }
        case .fictional:
            if number.problem == nil, let fictional = check.fictional { string(fictional.kind.rawValue) } else { absent() }
        case .timeZones:
            guard let parsed else { return absent() }
            let zones = engine.timeZones(of: parsed)
            if plan.format == .json || plan.format == .jsonl {
                put("[")
                for (index, zone) in zones.enumerated() {
                    if index > 0 { put(",") }
                    string(zone.identifier)
                }
                put("]")
            } else {
                string(zones.map(\.identifier).joined(separator: "&"))
            }
        case .carrier:
            if let parsed, let name = engine.carrierName(of: parsed, locale: plan.carrierLocale) { string(name.text) } else { absent() }
        case .shortNumber:
            bool(number.problem == nil && check.shortNumber?.isValid == true)
        case .cost:
            if number.problem == nil, let info = check.shortNumber { string(info.cost.rawValue) } else { absent() }
        }
    }

    private func put(_ text: StaticString) {
        out.reserve(text.utf8CodeUnitCount)
        var w = _ByteWriter(out.end)
        w.literal(text)
        out.count &+= w.count
    }

    private func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        out.reserve(source.count)
        var w = _ByteWriter(out.end)
        w.bytes(source)
        out.count &+= w.count
    }

    private func absent() {
        switch plan.format {
        case .json, .jsonl: put("null")
        case .text: put("-")
        case .csv, .tsv: break
        }
    }

    private func bool(_ value: Bool) {
        if value { put("true") } else { put("false") }
    }

    private func int(_ value: Int) {
        out.reserve(24)
        var w = _ByteWriter(out.end)
        w.int(value)
        out.count &+= w.count
    }

    private func string(_ text: String) {
        var copy = text
        copy.withUTF8 { string($0) }
    }

    /// A string field: quoted and escaped for JSON (bytes that are not UTF-8 become U+FFFD),
    /// quoted as RFC 4180 needs for CSV, escaped for TSV and text.
    private func string(_ source: UnsafeBufferPointer<UInt8>) {
        switch plan.format {
        case .json, .jsonl:
            if _Scan.isASCIIWithoutNUL(source) || (try? UTF8Span(validating: source.span)) != nil {
                out.reserve(source.count &* 6 &+ 2)
                var w = _ByteWriter(out.end)
                w.jsonString(source)
                out.count &+= w.count
            } else {
                var repaired = String(decoding: source, as: UTF8.self)
                repaired.withUTF8 { string($0) }
            }
        case .csv:
            out.reserve(source.count &* 2 &+ 2)
            var w = _ByteWriter(out.end)
            w.csvField(source)
            out.count &+= w.count
        case .tsv, .text:
            out.reserve(source.count &* 2)
            var w = _ByteWriter(out.end)
            w.tsvField(source)
            out.count &+= w.count
        }
    }
}

/// Where one output record of a slice ends, and where its `--unique` keys end in
/// ``_SliceResult/keys``.
struct _UniqueMark {
    var end: Int
    var keysEnd: Int
}

/// The key of one number for `--unique` (``_PlanWriter/key(_:)``).
struct _UniqueKey: Hashable {
    var number: UInt64
    var `extension`: String?
}

/// `--unique`: the numbers already written, as keys (``_PlanWriter/key(_:)``) in one hash set,
/// owned by the writer of the output, which sees the records in input order. A record whose
/// numbers were all written before is dropped; one without a number that parsed is kept.
/// Memory grows with the distinct numbers, not with the records.
struct _UniqueFilter {
    private var seen = Set<_UniqueKey>()
    private(set) var dropped = 0

    /// Whether a record with these keys is written (and its keys remembered).
    mutating func admit(_ keys: ArraySlice<_UniqueKey>) -> Bool {
        guard !keys.isEmpty else { return true }
        var fresh = false
        for key in keys where seen.insert(key).inserted { fresh = true }
        if !fresh { dropped += 1 }
        return fresh
    }
}
