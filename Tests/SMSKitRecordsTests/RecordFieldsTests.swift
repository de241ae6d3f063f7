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
        // A quote that is not a field's first byte is an ordinary byte, as Python's csv reads it.
        Case(record: "5\" tablet,+34 612 345 678", format: .csv, expected: ["5\" tablet", "+34 612 345 678"]),
        Case(record: "x\"y,\"a,b\",z", format: .csv, expected: ["x\"y", "a,b", "z"]),
        Case(record: "\"ab\"c\"d,e", format: .csv, expected: ["abc\"d", "e"]),
        Case(record: " \"a,b\"", format: .csv, expected: [" \"a", "b\""]),
    ]

    @Test(arguments: cases)
    func split(_ test: Case) {
        #expect(fields(test.record, test.format) == test.expected)
    }

    /// `forEachField` (one pass, for --keep) gives what `extract` gives field by field.
    @Test(arguments: cases)
    func forEachField(_ test: Case) {
        var scratch: [UInt8] = []
        var seen: [String] = []
        Array(test.record.utf8).withUnsafeBytes { record in
            RecordFields.forEachField(of: record, dialect: test.format.dialect, scratch: &scratch) { index, field in
                #expect(index == seen.count)
                seen.append(String(decoding: field, as: UTF8.self))
            }
        }
        #expect(seen == test.expected)
    }

    /// The same over every record of up to five bytes from a small alphabet, against `all`.
    @Test(arguments: [CSVDialect.comma, .plainTab])
    func forEachFieldMatchesAll(_ dialect: CSVDialect) {
        let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "\""), dialect.delimiter, UInt8(ascii: "\n")]
        var records: [[UInt8]] = [[]]
        for _ in 0..<5 { records += records.filter { $0.count == records.last!.count }.flatMap { record in alphabet.map { record + [$0] } } }
        var scratch: [UInt8] = []
        for record in records {
            var seen: [String] = []
            let expected = record.withUnsafeBytes { bytes -> [String] in
                RecordFields.forEachField(of: bytes, dialect: dialect, scratch: &scratch) { _, field in
                    seen.append(String(decoding: field, as: UTF8.self))
                }
                return RecordFields.all(bytes, dialect: dialect)
            }
            #expect(seen == expected, "\(record)")
        }
    }

    @Test func aMissingFieldIsReported() {
        var out: [UInt8] = [1, 2]
        let found = Array("a,b".utf8).withUnsafeBytes { RecordFields.extract(2, from: $0, format: .csv, into: &out) }
        #expect(!found)
        #expect(out.isEmpty)
    }
}

/// `locate` against a plain model of the field rules, on every record of up to six bytes over
/// the bytes that matter (a letter, comma, quote, tab).
@Suite struct RecordFieldsLocateTests {
    /// Field `index` by the documented rules, or nil when the record has fewer fields.
    static func model(_ record: [UInt8], _ index: Int, _ format: InputFormat) -> [UInt8]? {
        switch format {
        case .lines:
            return index == 0 ? record : nil
        case .tsv:
            let fields = record.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            return index < fields.count ? Array(fields[index]) : nil
        case .csv:
            let fields = RecordFieldsPropertyTests.reference(record, .comma)
            return index < fields.count ? fields[index] : nil
        }
    }

    static var records: [[UInt8]] {
        let alphabet = Array("a,\"\t".utf8)
        var all: [[UInt8]] = [[]]
        var previous: [[UInt8]] = [[]]
        for _ in 0..<6 {
            previous = previous.flatMap { record in alphabet.map { record + [$0] } }
            all += previous
        }
        return all
    }

    @Test(arguments: InputFormat.allCases)
    func locateAgreesWithTheModel(_ format: InputFormat) {
        var scratch: [UInt8] = []
        for record in Self.records {
            record.withUnsafeBytes { bytes in
                for index in 0..<5 {
                    let expected = Self.model(record, index, format)
                    let location = RecordFields.locate(index, in: bytes, format: format)
                    switch location {
                    case .missing:
                        #expect(expected == nil, "\(record) field \(index)")
                    case .bytes(let range):
                        #expect(expected == Array(record[range]), "\(record) field \(index)")
                        #expect(record[range].first != UInt8(ascii: "\"") || format != .csv)
                    case .quoted:
                        #expect(format == .csv && expected != nil, "\(record) field \(index)")
                    }
                    let found = RecordFields.extract(index, from: bytes, format: format, into: &scratch)
                    #expect(found == (expected != nil) && scratch == (expected ?? []), "\(record) field \(index)")
                }
            }
        }
    }

    @Test func anEmptyRecordWithoutABaseAddress() {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        for format in InputFormat.allCases {
            #expect(RecordFields.locate(0, in: empty, format: format) == .bytes(0..<0))
            #expect(RecordFields.locate(1, in: empty, format: format) == .missing)
        }
    }
}
