import SMSKitRecords

/// A record as the plain model sees it: its first line, its bytes (none when too long), its problem
/// and its number.
package struct ModelRecord: Equatable, Sendable {
    package var line: Int
    package var bytes: ArraySlice<UInt8>
    package var problem: RecordProblem?
    package var record: Int
    package var isTooLong: Bool { problem == .tooLong }
}

/// The reader's documented behaviour as a plain walk over the whole input, without blocks
/// (what the fuzzer checks too). Lines and TSV: records end at LF (a CR before it dropped). CSV:
/// records end at LF, CR LF or CR outside a quoted field, a quote opening one only as a field's
/// first byte; a quoted field still open over more than `quotedLines` line breaks, at the end
/// of the input after a line break, or after `maximum + 2` bytes after a line break, cuts the
/// record at its first line (unclosed quote); a record without a line break after `maximum + 2`
/// bytes is skipped to its first line's end; one with a closed quoted field by the field rules
/// (at most `quotedLines` more line breaks).
package func recordsModel(_ data: [UInt8], format: InputFormat, maximum: Int,
                          quotedLines: Int = RecordReader.defaultMaximumQuotedLines) -> [ModelRecord] {
    let quote: UInt8? = format == .csv ? UInt8(ascii: "\"") : nil
    let delimiter = format.dialect?.delimiter ?? UInt8(ascii: ",")
    let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
    var records: [ModelRecord] = []
    var index = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var line = 1
    func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        slice.last == cr ? slice.dropLast() : slice
    }
    func isLineEnd(_ byte: UInt8) -> Bool { byte == lf || (quote != nil && byte == cr) }
    /// Past the line end at `position` (a CR LF is one).
    func after(_ position: Int) -> Int {
        data[position] == cr && position + 1 < data.count && data[position + 1] == lf ? position + 2 : position + 1
    }
    func add(_ content: ArraySlice<UInt8>?, problem: RecordProblem?) {
        var problem = problem
        if let content, content.count > maximum { problem = .tooLong }
        let isTooLong = problem == .tooLong
        records.append(ModelRecord(line: line, bytes: isTooLong ? [] : content ?? [], problem: problem, record: records.count + 1))
    }
    enum Step { case next, end, runaway }
    // 0: a field's start, 1: unquoted, 2: quoted, 3: just after a quote inside a quoted field.
    func step(_ position: Int, _ state: inout Int, _ newlines: inout Int, _ firstNewline: inout Int) -> Step {
        let byte = data[position]
        guard let quote else { return byte == lf ? .end : .next }
        if state == 2 {
            if byte == quote {
                state = 3
            } else if byte == cr || (byte == lf && data[position - 1] != cr) {
                newlines += 1
                if firstNewline < 0 { firstNewline = position }
                if newlines > quotedLines { return .runaway }
            }
        } else if byte == delimiter {
            state = 0
        } else if isLineEnd(byte) {
            return .end
        } else if byte == quote {
            if state != 1 { state = 2 }
        } else {
            state = 1
        }
        return .next
    }
    while index < data.count {
        let limit = maximum + 2
        var position = index
        var state = 0
        var newlines = 0
        var firstNewline = -1
        enum Outcome { case end(Int), cut, skipFirstLine, skipByRules }
        var outcome: Outcome
        while true {
            if position - index >= limit {
                outcome = newlines > 0 && state == 2 ? .cut : newlines == 0 ? .skipFirstLine : .skipByRules
                break
            }
            if position == data.count { outcome = newlines > 0 && state == 2 ? .cut : .end(position); break }
            switch step(position, &state, &newlines, &firstNewline) {
            case .end: outcome = .end(position)
            case .runaway: outcome = .cut
            case .next: position += 1; continue
            }
            break
        }
        switch outcome {
        case .end(let end):
            add(trimmed(data[index..<end]), problem: nil)
            line += 1 + newlines
            index = end < data.count ? after(end) : end
        case .cut:
            add(trimmed(data[index..<firstNewline]), problem: .unclosedQuote)
            line += 1
            index = after(firstNewline)
        case .skipFirstLine:
            add(nil, problem: .tooLong)
            line += 1
            index = data[position...].firstIndex(where: isLineEnd).map(after) ?? data.count
        case .skipByRules:
            add(nil, problem: .tooLong)
            var lines = 0
            var ignored = 0
            while position < data.count {
                let result = step(position, &state, &newlines, &ignored)
                if result == .end { lines = 1 + newlines; position = after(position); break }
                if result == .runaway { lines = newlines; position = after(position); break }
                position += 1
            }
            if lines == 0 { lines = 1 + newlines }
            line += lines
            index = position
        }
    }
    return records
}
