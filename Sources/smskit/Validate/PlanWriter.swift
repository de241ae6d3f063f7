import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON

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

    /// A number field, by the number answer's one writer.
    private func value(_ field: NumberAnswerField, of number: _CheckedNumber) {
        let parsed = number.problem == nil ? number.check.number : nil
        var answer = NumberAnswer(
            input: number.input, refusal: number.problem.map { ($0.errorName, $0.message) }, check: number.check, engine: engine,
            formats: (field == .national, field == .international, field == .rfc3966))
        switch field {
        case .column: answer.column = plan.labels.indices.contains(number.slot) ? plan.labels[number.slot] : ""
        case .timeZones: answer.timeZones = parsed.map { engine.timeZones(of: $0).map(\.identifier) }
        case .carrier: answer.carrier = parsed.flatMap { engine.carrierName(of: $0, locale: plan.carrierLocale)?.text }
        default: break
        }
        out.reserve(answer.maximumFieldCount)
        var w = SpanWriter(out.end)
        w.write(field, of: answer, as: plan.format.wire)
        out.count &+= w.count
    }

    private func put(_ text: StaticString) {
        out.reserve(text.utf8CodeUnitCount)
        var w = SpanWriter(out.end)
        w.literal(text)
        out.count &+= w.count
    }

    private func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        out.reserve(source.count)
        var w = SpanWriter(out.end)
        w.bytes(source)
        out.count &+= w.count
    }

    private func absent() {
        out.reserve(4)
        var w = SpanWriter(out.end)
        w.absent(plan.format.wire)
        out.count &+= w.count
    }

    private func int(_ value: Int) {
        out.reserve(24)
        var w = SpanWriter(out.end)
        w.int(value)
        out.count &+= w.count
    }

    /// A string field (``SMSKitJSON/SpanWriter/string(_:as:)``).
    private func string(_ source: UnsafeBufferPointer<UInt8>) {
        out.reserve(JSONEscaping.maximumQuotedCount(source.count))
        var w = SpanWriter(out.end)
        w.string(source, as: plan.format.wire)
        out.count &+= w.count
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
