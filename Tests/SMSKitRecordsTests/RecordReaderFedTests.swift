import SMSKitRecords
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A record with everything the reader says about it, bytes copied out (too long ones too).
struct FullRecord: Equatable, CustomStringConvertible {
    var line: Int
    var lineCount: Int
    var record: Int
    var bytes: [UInt8]
    var isTooLong: Bool
    var problem: RecordProblem?

    init(_ read: RecordReader.Record) {
        line = read.line
        lineCount = read.lineCount
        record = read.record
        bytes = Array(read.bytes)
        isTooLong = read.isTooLong
        problem = read.problem
    }

    var description: String {
        "\(line)+\(lineCount) #\(record) \(problem.map { "<\($0)>" } ?? "")\(String(decoding: bytes, as: UTF8.self).debugDescription)"
    }
}

/// The records of a fed reader given `chunks`, checking after every call that it holds no more
/// than one record's worth of unread bytes.
func fedRecords(_ chunks: [ArraySlice<UInt8>], format: InputFormat, maximum: Int,
                quotedLines: Int = RecordReader.defaultMaximumQuotedLines) -> [FullRecord] {
    let reader = RecordReader(name: "fed", format: format, maximumRecordBytes: maximum, maximumQuotedLines: quotedLines)
    var records: [FullRecord] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { reader.feed($0) { records.append(FullRecord($0)) } }
        #expect(reader.bytesRead - reader.bytesConsumed <= maximum + 2, "the reader holds more than a record")
    }
    reader.finish { records.append(FullRecord($0)) }
    #expect(reader.bytesRead == chunks.reduce(0) { $0 + $1.count } && reader.bytesConsumed == reader.bytesRead)
    return records
}

/// The records of a reader of a file holding `bytes` (pull mode).
func pulledRecords(_ bytes: [UInt8], format: InputFormat, maximum: Int, capacity: Int,
                   quotedLines: Int = RecordReader.defaultMaximumQuotedLines) throws -> [FullRecord] {
    let fd = temporaryFile(bytes)
    defer { close(fd) }
    let reader = RecordReader(fd: fd, name: "file", format: format, maximumRecordBytes: maximum, capacity: capacity,
                              maximumQuotedLines: quotedLines, encoding: .utf8)
    var records: [FullRecord] = []
    while let record = try reader.next() { records.append(FullRecord(record)) }
    return records
}

/// The push mode (``RecordReader/feed(_:_:)``) against the pull mode over a file, on the same bytes.
@Suite struct RecordReaderFedTests {
    struct SplitCase: Sendable {
        var chunks: [String]
        var lines: [String]  // "!" for too long
    }

    @Test("Lines split across chunks, CRLF, over-long lines and a missing final newline", arguments: [
        SplitCase(chunks: ["ab", "c\nde", "f\n"], lines: ["abc", "def"]),
        SplitCase(chunks: ["abc\r", "\n", "\r\n"], lines: ["abc", ""]),
        SplitCase(chunks: ["12345", "6789", "0abc\nok"], lines: ["!", "ok"]),
        SplitCase(chunks: ["1234567890", "\n"], lines: ["1234567890"]),
        SplitCase(chunks: ["12345678901\n", "x"], lines: ["!", "x"]),
        SplitCase(chunks: ["\n\n"], lines: ["", ""]),
        SplitCase(chunks: [], lines: []),
    ])
    func lines(_ c: SplitCase) {
        let records = fedRecords(c.chunks.map { Array($0.utf8)[...] }, format: .lines, maximum: 10)
        #expect(records.map { $0.isTooLong ? "!" : String(decoding: $0.bytes, as: UTF8.self) } == c.lines)
        #expect(records.map(\.line) == Array(0..<c.lines.count).map { $0 + 1 })
    }

    struct BoundaryCase: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var format: InputFormat
        var maximum: Int
        var quotedLines = RecordReader.defaultMaximumQuotedLines
        var testDescription: String { name }
    }

    static let boundaryCases: [BoundaryCase] = [
        BoundaryCase(name: "at the limit and one over, with and without CR", input: "abcdef\nabcdefg\nabcdef\r\nabcdefg\r\nabcdefgh\r\nok",
                     format: .lines, maximum: 6),
        BoundaryCase(name: "multi-byte UTF-8 at the limit and one over", input: "é€😀\né€😀x\n€€€\r\n😀😀\r", format: .lines, maximum: 9),
        BoundaryCase(name: "lone CRs, empty lines, CR CR LF", input: "\r\n\r\n\r\r\n\ra\rb\n\n\r", format: .lines, maximum: 4),
        BoundaryCase(name: "too long at the end without a newline", input: "ab\nabcdefghijklmnop", format: .lines, maximum: 5),
        BoundaryCase(name: "at the limit with a CR at the end", input: "x\nabcde\r", format: .lines, maximum: 5),
        BoundaryCase(name: "JSON lines", input: "{\"number\":\"+44 20 7946 0000\"}\r\n\n{\"number\":\"é\"}\n{\"number\":\"+1 650 253 0000 and more\"}",
                     format: .lines, maximum: 30),
        BoundaryCase(name: "CSV quotes over lines, a stray quote, CR line ends", input: "\"a\r\nb\",c\r\n\"x\ny\nz\rw\n\"q,\"\"\r\"é\"",
                     format: .csv, maximum: 8, quotedLines: 1),
        BoundaryCase(name: "CSV record too long inside quotes", input: "a,\"bcdefghij\nk\"\nl\r\n", format: .csv, maximum: 6),
        BoundaryCase(name: "CSV record too long over quoted lines, skipped by the field rules",
                     input: "\"a\nb\",cdefghij,\"x\r\ny\"\nz\n\"q\n", format: .csv, maximum: 6),
        BoundaryCase(name: "TSV", input: "a\tb\r\nabcdefg\t\nx\"y\n\t€", format: .tsv, maximum: 6),
    ]

    @Test("Every way to cut the bytes into two or three chunks gives the records of the file", arguments: boundaryCases)
    func everyBoundary(_ c: BoundaryCase) throws {
        let bytes = Array(c.input.utf8)
        let expected = try pulledRecords(bytes, format: c.format, maximum: c.maximum, capacity: 1 << 16, quotedLines: c.quotedLines)
        // The pull mode agrees with the whole-input model and with itself in small blocks.
        #expect(expected.map { ReadRecord(line: $0.line, text: $0.isTooLong ? "" : String(decoding: $0.bytes, as: UTF8.self),
                                          isTooLong: $0.isTooLong, problem: $0.problem, record: $0.record) }
            == model(bytes, format: c.format, maximum: c.maximum, quotedLines: c.quotedLines))
        #expect(try pulledRecords(bytes, format: c.format, maximum: c.maximum, capacity: 0, quotedLines: c.quotedLines) == expected)
        func check(_ cuts: [Int]) -> Bool {
            let bounds = [0] + cuts + [bytes.count]
            let chunks = zip(bounds, bounds.dropFirst()).map { bytes[$0..<$1] }
            let records = fedRecords(chunks, format: c.format, maximum: c.maximum, quotedLines: c.quotedLines)
            #expect(records == expected, "cut at \(cuts)")
            return records == expected
        }
        guard check([]) else { return }
        guard check(Array(1..<max(1, bytes.count))) else { return }   // a byte at a time
        for first in 0...bytes.count {
            for second in first...bytes.count {
                guard check(first == second ? [first] : [first, second]) else { return }
            }
        }
    }

    @Test("A 100 MB line without a newline is reported once, holding no more than the limit")
    func hugeLine() {
        let maximum = 4096
        let reader = RecordReader(name: "fed", dialect: nil, maximumRecordBytes: maximum)
        let block = [UInt8](repeating: UInt8(ascii: "1"), count: 1 << 20)
        var records: [FullRecord] = []
        for _ in 0..<100 {
            block.withUnsafeBytes { reader.feed($0) { records.append(FullRecord($0)) } }
            #expect(reader.bytesRead - reader.bytesConsumed <= maximum + 2)
        }
        #expect(records.isEmpty)
        Array("\r\n{}".utf8).withUnsafeBytes { reader.feed($0) { records.append(FullRecord($0)) } }
        reader.finish { records.append(FullRecord($0)) }
        #expect(records.map(\.description) == ["1+1 #1 <record_too_long>\"\"", "2+1 #2 \"{}\""])
        #expect(reader.tooLongCount == 1 && reader.bytesRead == 100 << 20 + 4)
    }
}
