import Foundation
import SMSKitRecords
import Testing

/// Inputs that crashed `Fuzz/Sources/RecordReaderFuzz`, replayed with the fuzzer's decoding: byte 0
/// picks the format (`% 3`) and the maximum record size (`1 + (byte / 3) % 64`), byte 1 the
/// block size, the rest is the file.
@Suite struct RecordReaderFuzzRegressionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var base64: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // A record of exactly the maximum with CRLF, whose CR was the last byte read: it was
        // reported as too long (the skip test did not allow for the CR).
        Case(name: "lines: maximum-size record, CR at a block end", base64: "DABhYmNkZQ0KYWJjZGVmCmFiY2RlDQ=="),
        // The same, found by the fuzzer in CSV with a byte order mark and quoted CRLFs.
        Case(name: "csv: quoted CRLFs, CR at a block end",
             base64: "LhTvu79uYW1lLHBobxAeIix5DQoieA0KDQoiLHkNCiJ4DQoNCiIsHiJ4DQoieQ0KIngNCssQHiJ4DQoiCg0KLyx5DQomeAUKDQoiLHsNCiIkeA0KDQoiLG5lAAAAAP////////97DQ=="),
    ]

    @Test(arguments: cases)
    func replay(_ test: Case) throws {
        let input = try #require(Data(base64Encoded: test.base64)).map { $0 }
        let format = InputFormat.allCases[Int(input[0]) % 3]
        let maximum = 1 + Int(input[0] / 3) % 64
        let data = Array(input[2...])
        let expected = model(data, format: format, maximum: maximum)
        for capacity in [Int(input[1]), 1 << 20] {
            let records = try readRecords(data, format: format, maximumRecordBytes: maximum, capacity: capacity)
            #expect(records == expected, "block size \(capacity)")
        }
    }

    @Test func maximumSizeRecordWithCRLFAtABlockEnd() throws {
        // 20 bytes in a 26-byte buffer: the last record's CR is the last byte of the first read.
        let records = try readRecords(Array("abcde\r\nabcdef\nabcde\r".utf8), format: .lines, maximumRecordBytes: 5, capacity: 0)
        #expect(records.map(\.description) == ["1:\"abcde\"", "2:<too long>", "3:\"abcde\""])
    }
}

