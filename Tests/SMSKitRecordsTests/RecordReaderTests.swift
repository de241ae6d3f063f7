import SMSKitRecords
import Testing

@Suite struct RecordReaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var format: InputFormat
        var expected: [String]   // "line:text", or "line:!" for a record that is too long
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "LF lines", input: "a\nb\nc", format: .lines, expected: ["1:a", "2:b", "3:c"]),
        Case(name: "final newline", input: "a\nb\n", format: .lines, expected: ["1:a", "2:b"]),
        Case(name: "CRLF", input: "a\r\nb\r\n", format: .tsv, expected: ["1:a", "2:b"]),
        Case(name: "lone CR is data", input: "a\rb\n", format: .lines, expected: ["1:a\rb"]),
        Case(name: "empty lines are records", input: "\n\nx", format: .lines, expected: ["1:", "2:", "3:x"]),
        Case(name: "byte order mark", input: "\u{FEFF}a\nb", format: .csv, expected: ["1:a", "2:b"]),
        Case(name: "only a byte order mark", input: "\u{FEFF}", format: .lines, expected: []),
        Case(name: "empty input", input: "", format: .csv, expected: []),
        Case(name: "CSV quoted newline", input: "\"a\nb\",c\nd", format: .csv, expected: ["1:\"a\nb\",c", "3:d"]),
        Case(name: "CSV doubled quotes", input: "\"a\"\"\nb\"\nc", format: .csv, expected: ["1:\"a\"\"\nb\"", "3:c"]),
        Case(name: "TSV ignores quotes", input: "\"a\nb\"", format: .tsv, expected: ["1:\"a", "2:b\""]),
        Case(name: "CSV quote open at the end over lines is cut at its line", input: "\"a\nb\nc", format: .csv, expected: ["1:?\"a", "2:b", "3:c"]),
        Case(name: "CSV quote open at the end on one line is kept", input: "a\n\"b,c", format: .csv, expected: ["1:a", "2:\"b,c"]),
        Case(name: "CSV quote in mid-field is a byte", input: "x\"y,1\nb,2\n\"z\",3", format: .csv, expected: ["1:x\"y,1", "2:b,2", "3:\"z\",3"]),
        Case(name: "CSV quote after a closing quote is a byte", input: "\"a\"b\"\nc", format: .csv, expected: ["1:\"a\"b\"", "2:c"]),
        Case(name: "CSV lone CR and CRLF end records", input: "a\rb\r\nc\r\r\nd", format: .csv, expected: ["1:a", "2:b", "3:c", "4:", "5:d"]),
        Case(name: "CSV CR inside quotes is a line", input: "\"a\rb\",c\rd", format: .csv, expected: ["1:\"a\rb\",c", "3:d"]),
        Case(name: "CSV quote after the delimiter opens", input: "a,\"b\nc\"\nd", format: .csv, expected: ["1:a,\"b\nc\"", "3:d"]),
    ]

    @Test(arguments: cases, [16, 1 << 20])
    func records(_ test: Case, capacity: Int) throws {
        let records = try readRecords(Array(test.input.utf8), format: test.format, capacity: capacity)
        #expect(records.map { "\($0.line):\($0.isTooLong ? "!" : $0.problem == .unclosedQuote ? "?" + $0.text : $0.text)" } == test.expected)
        #expect(records.map(\.record) == (0..<records.count).map { $0 + 1 })
    }

    @Test func recordsLongerThanTheMaximumAreSkipped() throws {
        let input = "abcd\n" + "abcdefgh\n" + "\"ab\ncdefgh\"\n" + "ok\n" + "abcdefghi"
        let records = try readRecords(Array(input.utf8), format: .csv, maximumRecordBytes: 4, capacity: 1)
        #expect(records.map(\.description) == ["1:\"abcd\"", "2:<too long>", "3:<unclosed>\"\\\"ab\"", "4:<too long>", "5:\"ok\"", "6:<too long>"])
        #expect(records == model(Array(input.utf8), format: .csv, maximum: 4))
    }

    @Test func aRecordOfTheMaximumSizeIsKept() throws {
        let record = String(repeating: "x", count: RecordReader.defaultMaximumRecordBytes)
        let records = try readRecords(Array((record + "\n" + record + "y\nz").utf8), format: .lines)
        #expect(records.map(\.isTooLong) == [false, true, false])
        #expect(records.first?.text == record)
        #expect(records.last?.line == 3)
    }

    @Test func aReadErrorIsTyped() throws {
        // A directory opens for reading, but read(2) fails with EISDIR.
        let fd = open("/tmp", O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "/tmp", format: .lines)
        #expect(throws: RecordReadError.self) { try reader.next() }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
