import Foundation
import SMSKitRecords
import Testing

/// Stray quotes and very large records: nothing swallows the rest of a file, nothing grows.
@Suite struct RecordReaderRobustnessTests {
    /// The 100,006-line file of the runaway-quote report: a header, 100,005 rows, a stray quote in row 7.
    static func strayQuoteFile() -> [UInt8] {
        var text = "name,phone,region\n"
        for row in 2...100_006 {
            let name = row % 3 == 0 ? "\"Ann \(row)\"" : "Bob \(row)"
            text += row == 7 ? "Bob 7,\"+44 20 7946 0007,GB\n" : "\(name),+44 20 7946 \(String(row % 10_000).leftPadded(to: 4)),GB\n"
        }
        return Array(text.utf8)
    }

    /// Row 7's quote is at a field's start: as Python's csv reads it, it opens a quoted field
    /// that the next quote (row 9's `"Ann 9"`) closes, so rows 7 to 9 are one record of three
    /// lines, and the lines and record numbers after it say so.
    @Test func aQuoteAtAFieldStartInRow7OfA100006LineFileSpansToTheNextQuote() throws {
        let data = Self.strayQuoteFile()
        let fd = temporaryFile(data)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "stray.csv", format: .csv)
        let records = try drain(reader)
        #expect(records.count == 100_004)
        #expect(records.allSatisfy { $0.problem == nil })
        #expect(records[6].line == 7 && records[6].record == 7)
        #expect(fields(records[6].text, .csv) == ["Bob 7", "+44 20 7946 0007,GB\nBob 8,+44 20 7946 0008,GB\nAnn 9\"", "+44 20 7946 0009", "GB"])
        #expect(records[7].line == 10 && records[7].record == 8)
        #expect(records[7].text == "Bob 10,+44 20 7946 0010,GB")
        #expect(records.last?.line == 100_006)
        #expect(records.last?.record == 100_004)
        #expect(reader.unclosedQuoteCount == 0 && reader.tooLongCount == 0)
        #expect(reader.bytesConsumed == data.count)
    }

    /// A 100,000-row export whose row 7 has `x"y` in an unquoted name and whose row 20 starts with
    /// a quoted name: a quote in mid-field is a byte (as Python's csv reads it), so every row is
    /// read, none as an error.
    @Test func aQuoteInMidFieldSwallowsNothing() throws {
        var text = "name,phone\n"
        for row in 2...100_000 {
            let name = row == 7 ? "x\"y" : row == 20 ? "\"Ann, 20\"" : row == 30 ? "5\" tablet" : "Bob \(row)"
            text += "\(name),+34 612 345 \(String(row % 1000).leftPadded(to: 3))\n"
        }
        let records = try readRecords(Array(text.utf8), format: .csv)
        #expect(records.count == 100_000)
        #expect(records.allSatisfy { $0.problem == nil })
        #expect(records.map(\.line) == Array(1...100_000))
        #expect(fields(records[6].text, .csv) == ["x\"y", "+34 612 345 007"])
        #expect(fields(records[19].text, .csv) == ["Ann, 20", "+34 612 345 020"])
        #expect(fields(records[29].text, .csv) == ["5\" tablet", "+34 612 345 030"])
    }

    /// A quoted field still open at the end of the input: its record is cut at its first line and
    /// reported, and the lines after it are read again as records, wherever the input ends.
    @Test(arguments: [1 << 20, 64])
    func aQuoteOpenAtTheEndLosesNoLine(_ capacity: Int) throws {
        // (Any quote after the opening one would close the quoted field.)
        let input = "a,1\n\"b,2\nc,3\r\nd,4\re,5"
        let records = try readRecords(Array(input.utf8), format: .csv, capacity: capacity)
        #expect(records.map(\.description) == [#"1:"a,1""#, #"2:<unclosed>"\"b,2""#, #"3:"c,3""#, #"4:"d,4""#, #"5:"e,5""#])
        #expect(records.map(\.record) == [1, 2, 3, 4, 5])
    }

    @Test func aQuotedFieldOverTheLineLimitIsCutAndCounted() throws {
        let body = (1...5).map { "line \($0)" }.joined(separator: "\n")
        let input = "a,\"\(body)\"\nb\n"
        // Five lines, four line breaks inside the quotes.
        let cut = try readRecords(Array(input.utf8), format: .csv, maximumQuotedLines: 3)
        // Line 5's quote is not at a field's start: an ordinary byte once the lines are read again.
        #expect(cut.map(\.description) == [
            #"1:<unclosed>"a,\"line 1""#, #"2:"line 2""#, #"3:"line 3""#, #"4:"line 4""#, #"5:"line 5\"""#, #"6:"b""#,
        ])
        #expect(cut == model(Array(input.utf8), format: .csv, maximum: RecordReader.defaultMaximumRecordBytes, quotedLines: 3))
        let kept = try readRecords(Array(input.utf8), format: .csv, maximumQuotedLines: 4)
        #expect(kept.map(\.line) == [1, 6])
        #expect(kept.first?.problem == nil)
    }

    /// Streams `lines` lines of `line` bytes through a pipe from a writer thread.
    static func stream(line: [UInt8], lines: Int, format: InputFormat) throws -> (count: Int, problems: Int, longest: Int) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        let writer = fds[1]
        let thread = Thread {
            let record = line + [UInt8(ascii: "\n")]
            for _ in 0..<lines {
                var offset = 0
                while offset < record.count {
                    let written = record.withUnsafeBytes { write(writer, $0.baseAddress! + offset, record.count - offset) }
                    if written <= 0 { close(writer); return }
                    offset += written
                }
            }
            close(writer)
        }
        thread.start()
        defer { close(fds[0]) }
        let reader = RecordReader(fd: fds[0], name: "<stdin>", format: format)
        var count = 0, problems = 0, longest = 0
        while let record = try reader.next() {
            count += 1
            if record.problem != nil { problems += 1 }
            longest = max(longest, record.bytes.count)
        }
        return (count, problems, longest)
    }

    @Test func recordsOf65000DigitsStreamThroughOneBuffer() throws {
        let digits = (0..<65_000).map { UInt8(ascii: "0") + UInt8($0 % 10) }
        let lines = try Self.stream(line: digits, lines: 40_000, format: .lines)
        #expect(lines.count == 40_000 && lines.problems == 0 && lines.longest == 65_000)
        let csv = try Self.stream(line: digits, lines: 2_000, format: .csv)
        #expect(csv.count == 2_000 && csv.problems == 0 && csv.longest == 65_000)
    }

    @Test func linesOfControlBytesStreamThroughOneBuffer() throws {
        let control = (0..<65_000).map { index -> UInt8 in
            // No LF, and no CR: a CR ends a CSV record too, as in Python's csv.
            let byte = UInt8(1 + index % 31)
            return byte == 0x0A || byte == 0x0D ? 0x0B : byte
        }
        let result = try Self.stream(line: control, lines: 4_000, format: .csv)
        #expect(result.count == 4_000 && result.problems == 0 && result.longest == 65_000)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
