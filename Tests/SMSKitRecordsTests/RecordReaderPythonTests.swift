import Foundation
import SMSKitRecords
import Testing

/// The reader and the field rules against the real Python `csv` module: tools/records/csv_oracle.py
/// writes 100,000 seeded hostile records per dialect (quotes in every position, doubled quotes,
/// CR, LF and CR LF inside and between records, empty fields and blank lines, delimiters inside
/// quotes, stray quotes that swallow the next records) and what `csv.reader` reads from them; every
/// record, its first line and its fields must be the same here.
@Suite struct RecordReaderPythonTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var delimiter: String
        var seed: Int
        var testDescription: String { "delimiter \(delimiter.debugDescription), seed \(seed)" }
        var dialect: CSVDialect { CSVDialect(delimiter: delimiter)! }
    }

    static let recordCount = 100_000

    /// python3 from PATH, or nil.
    static let python: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Without python3 the comparison is skipped, except in CI (CI=true), which must have it.
    @Test func pythonIsThereInCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(Self.python != nil, "python3 is not on PATH; .ci/run installs it")
        }
    }

    @Test(.enabled(if: python != nil), arguments: [Case(delimiter: ",", seed: 4180), Case(delimiter: ";", seed: 59), Case(delimiter: "tab", seed: 9)])
    func everyRecordAsPythonReadsIt(_ test: Case) throws {
        let python = try #require(Self.python)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-csv-oracle-\(getpid())-\(test.seed)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = python
        process.arguments = [root.appendingPathComponent("tools/records/csv_oracle.py").path, "--seed", String(test.seed),
                             "--records", String(Self.recordCount), "--delimiter", test.delimiter, directory.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "csv_oracle.py failed")
        let expected = [UInt8](try Data(contentsOf: directory.appendingPathComponent("expected.bin")))

        // The records read here, written as the oracle writes Python's.
        let dialect = test.dialect
        let fd = open(directory.appendingPathComponent("input.csv").path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "input.csv", dialect: dialect, encoding: .utf8)
        var read: [UInt8] = []
        var scratch: [UInt8] = []
        var problems = 0
        while let record = try reader.next() {
            if record.problem != nil { problems += 1 }
            var fields: [[UInt8]] = []
            // Python reads a blank line as a record of no fields.
            if !record.bytes.isEmpty {
                RecordFields.forEachField(of: record.bytes, dialect: dialect, scratch: &scratch) { _, field in fields.append(Array(field)) }
            }
            read += Array("\(record.line)\u{1F}\(fields.count)".utf8)
            for field in fields {
                read.append(0x1F)
                read += field
            }
            read.append(0x1E)
        }
        #expect(problems == 0)
        let pythonRecords = expected.split(separator: 0x1E, omittingEmptySubsequences: false).dropLast()
        let ourRecords = read.split(separator: 0x1E, omittingEmptySubsequences: false).dropLast()
        #expect(pythonRecords.count >= Self.recordCount)
        if read != expected {
            let first = zip(pythonRecords, ourRecords).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(pythonRecords.count, ourRecords.count)
            func show(_ records: ArraySlice<ArraySlice<UInt8>>) -> String {
                first < records.endIndex ? String(decoding: records[first], as: UTF8.self).debugDescription : "none"
            }
            Issue.record("record \(first + 1) of \(pythonRecords.count) (line, field count, fields): Python \(show(pythonRecords)), SMSKit \(show(ourRecords))")
        }
        // The generated file has what it is meant to have: records over several lines, quotes in mid-field.
        let text = String(decoding: expected, as: UTF8.self)
        #expect(text.contains("\n") && text.contains("\r"))
        #expect(pythonRecords.contains { $0.dropFirst().contains(UInt8(ascii: "\"")) })
    }
}
