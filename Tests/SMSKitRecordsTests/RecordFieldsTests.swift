import SMSKitRecords
import Testing

@Suite struct RecordFieldsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var record: String
        var format: InputFormat
        var expected: [String]
        var testDescription: String { "\(format): \(record.debugDescription)" }
    }

    static let cases: [Case] = [
        Case(record: "", format: .csv, expected: [""]),
        Case(record: "", format: .tsv, expected: [""]),
        Case(record: "a,b", format: .lines, expected: ["a,b"]),
        Case(record: "a\tb\t", format: .tsv, expected: ["a", "b", ""]),
        Case(record: "\"a\tb\"\tc", format: .tsv, expected: ["\"a", "b\"", "c"]),
        Case(record: "a,,b", format: .csv, expected: ["a", "", "b"]),
        Case(record: "\"a,b\",c", format: .csv, expected: ["a,b", "c"]),
        Case(record: "\"say \"\"hi\"\"\",x", format: .csv, expected: ["say \"hi\"", "x"]),
        Case(record: "\"ab\"c,d", format: .csv, expected: ["abc", "d"]),
        Case(record: "\"a\nb\"", format: .csv, expected: ["a\nb"]),
        Case(record: "\"unterminated,x", format: .csv, expected: ["unterminated,x"]),
        Case(record: ",", format: .csv, expected: ["", ""]),
    ]

    @Test(arguments: cases)
    func split(_ test: Case) {
        #expect(fields(test.record, test.format) == test.expected)
    }

    @Test func aMissingFieldIsReported() {
        var out: [UInt8] = [1, 2]
        let found = Array("a,b".utf8).withUnsafeBytes { RecordFields.extract(2, from: $0, format: .csv, into: &out) }
        #expect(!found)
        #expect(out.isEmpty)
    }
}
