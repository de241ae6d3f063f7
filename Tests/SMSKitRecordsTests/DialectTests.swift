import SMSKitRecords
import Testing

@Suite struct DialectTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var record: String
        var dialect: CSVDialect
        var expected: [String]
        var testDescription: String { "\(dialect): \(record.debugDescription)" }
    }

    static let cases: [Case] = [
        Case(record: "a;\"b;c\";d", dialect: .semicolon, expected: ["a", "b;c", "d"]),
        Case(record: "a,b;c", dialect: .semicolon, expected: ["a,b", "c"]),
        Case(record: "a\t\"b\tc\"\t", dialect: .tab, expected: ["a", "b\tc", ""]),
        Case(record: "a\t\"b\tc\"", dialect: .plainTab, expected: ["a", "\"b", "c\""]),
        Case(record: "a|'b|''c'''|d", dialect: CSVDialect(delimiter: UInt8(ascii: "|"), quote: UInt8(ascii: "'"))!, expected: ["a", "b|'c'", "d"]),
        Case(record: "\"x\" y", dialect: CSVDialect(delimiter: UInt8(ascii: " "))!, expected: ["x", "y"]),
    ]

    @Test(arguments: cases)
    func split(_ test: Case) {
        let fields = Array(test.record.utf8).withUnsafeBytes { RecordFields.all($0, dialect: test.dialect) }
        #expect(fields == test.expected)
    }

    @Test func spellings() {
        #expect(CSVDialect(delimiter: "tab") == .tab)
        #expect(CSVDialect(delimiter: "\\t") == .tab)
        #expect(CSVDialect(delimiter: "\t") == .tab)
        #expect(CSVDialect(delimiter: ";") == .semicolon)
        #expect(CSVDialect(delimiter: "|", quote: nil) == CSVDialect(delimiter: UInt8(ascii: "|"), quote: nil))
        #expect(CSVDialect(delimiter: "§") == nil)
        #expect(CSVDialect(delimiter: ",,") == nil)
        #expect(CSVDialect(delimiter: "\n") == nil)
        #expect(CSVDialect(delimiter: "\"") == nil)
        #expect(CSVDialect(delimiter: ",", quote: "''") == nil)
        #expect(CSVDialect.semicolon.description == "delimiter ';', quote '\"'")
        #expect(InputFormat.csv.dialect == .comma)
        #expect(InputFormat.tsv.dialect == .plainTab)
        #expect(InputFormat.lines.dialect == nil)
    }

    struct DetectionCase: CustomTestStringConvertible, Sendable {
        var header: String
        var delimiter: String
        var reason: String
        var testDescription: String { header.debugDescription }
    }

    static let detectionCases: [DetectionCase] = [
        DetectionCase(header: "Name,Given Name,Phone 1 - Value", delimiter: "','",
                      reason: "',' detected in the first row (2 ',', 0 ';', 0 tab, 0 '|')"),
        DetectionCase(header: "Nom;Prénom;Téléphone, mobile", delimiter: "';'",
                      reason: "';' detected in the first row (1 ',', 2 ';', 0 tab, 0 '|')"),
        DetectionCase(header: "\"a;b;c\",d", delimiter: "','", reason: "',' detected in the first row (1 ',', 0 ';', 0 tab, 0 '|')"),
        DetectionCase(header: "Name\tPhone", delimiter: "tab", reason: "tab detected in the first row (0 ',', 0 ';', 1 tab, 0 '|')"),
        DetectionCase(header: "name|phone|region", delimiter: "'|'", reason: "'|' detected in the first row (0 ',', 0 ';', 0 tab, 2 '|')"),
        DetectionCase(header: "a,b;c", delimiter: "','", reason: "',' detected in the first row (1 ',', 1 ';', 0 tab, 0 '|')"),
        DetectionCase(header: "phone", delimiter: "','", reason: "no ',' ';' tab or '|' in the first row: one column"),
    ]

    @Test(arguments: detectionCases)
    func detection(_ test: DetectionCase) {
        let detection = Array(test.header.utf8).withUnsafeBytes { DelimiterDetection.detect(in: $0) }
        #expect(detection.dialect.delimiterName == test.delimiter)
        #expect(detection.reason == test.reason)
    }
}
