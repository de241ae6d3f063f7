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
    /// The plan's rows, read per record without a reference count (the plan keeps them).
    let leading: NumberAnswerRow.View
    let numberRows: [(slot: Int, row: NumberAnswerRow.View)]
    let engine: PhoneNumberEngine
    let out: _ByteBuffer
    let result: _SliceResult
    /// The file's name, for the `file` field.
    let file: [UInt8]

    /// Writes one output record for `numbers` (all the record's numbers without `--split`, one
    /// with it) unless `--only` leaves it out; returns whether it was written.
    @discardableResult
    func write<Numbers: Collection<_CheckedNumber>>(line: Int, record: Int, kept: _KeptCells?,
                                                    numbers: Numbers, tally: inout _Tally) -> Bool {
        if let only = plan.only, !numbers.contains(where: { only.accepts($0.check, problem: $0.problem) }) { return false }
        tally.written += 1
        if plan.textLines {
            // One number per record: the default layout has one number column and no --split.
            if !numbers.isEmpty { writeTextLine(line: line, answer(numbers[numbers.startIndex])) }
            return true
        }
        var w = beginRecord(line: line, record: record, kept: kept)
        for (slot, row) in numberRows {
            if let index = plan.split ? numbers.startIndex : numbers.firstIndex(where: { $0.slot == slot }), index != numbers.endIndex {
                write(row, of: answer(numbers[index]), to: &w)
            } else {
                // A record with fewer number cells than number columns.
                for field in 0..<row.count { w.writeAbsent(row, field: field) }
            }
        }
        endRecord(&w)
        if plan.unique {
            for number in numbers where number.problem == nil { if let key = Self.key(number.check) { result.keys.append(key) } }
            result.marks.append(_UniqueMark(end: out.count, keysEnd: result.keys.count))
        }
        return true
    }

    /// Writes the output record of a record with one number (one number column, no `--split`):
    /// the same record as ``write(line:record:kept:keptRanges:numbers:tally:)`` with that one
    /// number, without making a ``_CheckedNumber`` of it.
    @discardableResult
    func write(line: Int, record: Int, kept: _KeptCells?, input: UnsafeBufferPointer<UInt8>,
               problem: _RecordProblem?, check: borrowing PhoneNumberCheck, tally: inout _Tally) -> Bool {
        if let only = plan.only, !only.accepts(check, problem: problem) { return false }
        tally.written += 1
        let key = plan.unique && problem == nil ? Self.key(check) : nil
        let answer = self.answer(input: input, problem: problem, check: check, slot: 0)
        if plan.textLines {
            writeTextLine(line: line, answer)
            return true
        }
        var w = beginRecord(line: line, record: record, kept: kept)
        // One number column, no --split: one row, or none when no number field was asked for.
        for (_, row) in numberRows { write(row, of: answer, to: &w) }
        endRecord(&w)
        if plan.unique {
            if let key { result.keys.append(key) }
            result.marks.append(_UniqueMark(end: out.count, keysEnd: result.keys.count))
        }
        return true
    }

    private func writeTextLine(line: Int, _ answer: borrowing NumberAnswer) {
        out.reserve(answer.maximumFieldCount &+ 256)
        var w = SpanWriter(out.end)
        w.writeTextLine(line: line, of: answer, colour: plan.colour)
        out.count &+= w.count
    }

    /// Starts an output record: room for all but the number fields, the record's opening, its
    /// record fields and kept cells.
    private func beginRecord(line: Int, record: Int, kept: _KeptCells?) -> SpanWriter {
        let format = plan.wire
        out.reserve(plan.recordRoom &+ (kept?.bytes.count ?? 0) &* 6 &+ plan.keptCount &* 2 &+ file.count &* 6)
        var w = SpanWriter(out.end)
        switch plan.format {
        case .json: w.literal(",\n{")
        case .jsonl: w.byte(UInt8(ascii: "{"))
        case .csv, .tsv, .text: break
        }
        for position in 0..<plan.numberStart {
            w.bytes(leading.prefix(position))
            switch plan.columns[position] {
            case .record(.file): file.withUnsafeBufferPointer { w.string($0, as: format) }
            case .record(.line): w.int(line)
            case .record: w.int(record)
            case .kept(let index):
                if let kept, index < kept.ranges.count {
                    kept.bytes.withUnsafeBufferPointer { w.string(UnsafeBufferPointer(rebasing: $0[kept.ranges[index]]), as: format) }
                } else {
                    w.absent(format)
                }
            case .number: break
            }
        }
        return w
    }

    /// One number's fields, with room for them and, again, for what may still come.
    private func write(_ row: NumberAnswerRow.View, of answer: borrowing NumberAnswer, to w: inout SpanWriter) {
        out.count &+= w.count
        out.reserve(plan.recordRoom &+ row.maximumCount(of: answer))
        w = SpanWriter(out.end)
        w.write(row, of: answer)
    }

    private func endRecord(_ w: inout SpanWriter) {
        switch plan.format {
        case .json: w.byte(UInt8(ascii: "}"))
        case .jsonl: w.literal("}\n")
        case .csv, .tsv, .text: w.byte(UInt8(ascii: "\n"))
        }
        out.count &+= w.count
    }

    /// A number's answer, with the values the plan's fields need.
    private func answer(_ number: _CheckedNumber) -> NumberAnswer {
        answer(input: number.input, problem: number.problem, check: number.check, slot: number.slot)
    }

    private func answer(input: UnsafeBufferPointer<UInt8>, problem: _RecordProblem?, check: borrowing PhoneNumberCheck, slot: Int) -> NumberAnswer {
        var answer = NumberAnswer(input: input, refusal: problem.map { ($0.errorName, $0.message) }, check: check, engine: engine,
                                  formats: plan.formats)
        if plan.needsColumn { answer.column = plan.labels.indices.contains(slot) ? plan.labels[slot] : "" }
        if plan.needsTimeZones || plan.needsCarrier, problem == nil, let number = check.number {
            if plan.needsTimeZones { answer.timeZones = engine.timeZones(of: number).map(\.identifier) }
            if plan.needsCarrier { answer.carrier = engine.carrierName(of: number, locale: plan.carrierLocale)?.text }
        }
        return answer
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
}

/// The kept cells of a record (`--keep`): their bytes one after another, and where each is.
struct _KeptCells {
    var bytes: [UInt8]
    var ranges: [Range<Int>]
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
