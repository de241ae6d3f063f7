import SMSKitRecords
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reading side end to end on real-shaped exports (Tests/SMSKitRecordsTests/Fixtures,
/// written by make_fixtures.py): encoding, delimiter, header, phone column, cells.
@Suite struct ContactExportTests {
    static let fixtures = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/Fixtures/"

    /// A stand-in for the engine: a cell is a number when, without an apostrophe, it has 7 to
    /// 15 digits and nothing but `+ ( ) - . /` and spaces besides.
    static func parses(_ cell: String) -> Bool {
        let text = SpreadsheetMangling.strippingApostrophe(cell)
        var digits = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal { digits += 1 } else if !"+()-./ ".unicodeScalars.contains(scalar) { return false }
        }
        return (7...15).contains(digits)
    }

    struct Export: CustomTestStringConvertible, Sendable {
        var file: String
        var encoding: String            // what the reader found
        var delimiter: String
        var records: Int
        var isHeader: Bool
        var column: Int
        var method: HeaderDetection.ColumnChoice.Method
        var reason: String
        var numbers: [String]           // the chosen column's cells, split
        var testDescription: String { file }
    }

    static let exports: [Export] = [
        Export(file: "google-contacts.csv", encoding: "utf8(byteOrderMarkLength: 0)", delimiter: "','", records: 6, isHeader: true,
               column: 32, method: .headerName,
               reason: "column 33 'Phone 1 - Value', by its name ('phone'); other phone columns: 'Phone 2 - Value'",
               numbers: ["+44 7700 900123", "+44 7700 900456", "+44 20 7946 0001", "(202) 555-0100", "+49 30 1234567"]),
        Export(file: "outlook.csv", encoding: "utf8(byteOrderMarkLength: 0)", delimiter: "','", records: 4, isHeader: true,
               column: 15, method: .headerName,
               reason: "column 16 'Mobile Phone', by its name ('mobile'); other phone columns: 'Home Phone', 'Home Phone 2', 'Business Phone', ...",
               numbers: ["+44 7700 900789", "+49 1512 3456789", "+34 612 34 56 78"]),
        Export(file: "excel-semicolon.csv", encoding: "utf8(byteOrderMarkLength: 3)", delimiter: "';'", records: 6, isHeader: true,
               column: 3, method: .headerName, reason: "column 4 'Handy', by its name ('handy'); other phone columns: 'Telefon'",
               numbers: ["0151 23456789", "4,47911E+11", "'+33 6 12 34 56 78", "+34 612 34 56 78", "+43 664 1234567"]),
        Export(file: "excel-unicode-text.txt", encoding: "utf16(bigEndian: false, byteOrderMarkLength: 2)", delimiter: "tab", records: 5,
               isHeader: true, column: 1, method: .headerName, reason: "column 2 'Mobile Phone', by its name ('mobile')",
               numbers: ["+44 7700 900321", "+7 912 345-67-89", "+86 138 0013 8000", "+1 202 555 0101"]),
        Export(file: "no-header.csv", encoding: "utf8(byteOrderMarkLength: 0)", delimiter: "','", records: 4, isHeader: false,
               column: 1, method: .content, reason: "column 2, by content: 3 of 4 sampled rows parse as numbers there",
               numbers: ["+44 7700 900111", "+44 7700 900222", "07700 900333", "not a number"]),
    ]

    @Test(arguments: exports)
    func readAnExport(_ export: Export) throws {
        let fd = open(Self.fixtures + export.file, O_RDONLY)
        try #require(fd >= 0, "cannot open \(export.file)")
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: export.file, dialect: .comma)
        var dialect: CSVDialect?
        var rows: [[String]] = []
        while let record = try reader.next() {
            #expect(record.problem == nil, "line \(record.line)")
            if dialect == nil { dialect = DelimiterDetection.detect(in: record.bytes).dialect }
            rows.append(RecordFields.all(record.bytes, dialect: dialect))
        }
        #expect(reader.detectedEncoding.map { "\($0)" } == export.encoding)
        #expect(dialect?.delimiterName == export.delimiter)
        #expect(rows.count == export.records)
        #expect(Set(rows.map(\.count)).count == 1, "every row has as many cells as the header")
        let isHeader = HeaderDetection.isHeader(rows[0], parsesAsNumber: Self.parses)
        #expect(isHeader == export.isHeader)
        let data = isHeader ? Array(rows.dropFirst()) : rows
        let choice = try #require(isHeader
            ? HeaderDetection.phoneColumn(header: rows[0])
            : HeaderDetection.phoneColumn(byContent: data, parsesAsNumber: Self.parses))
        #expect(choice.index == export.column)
        #expect(choice.method == export.method)
        #expect(choice.reason == export.reason)
        let numbers = data.flatMap { row in
            let cell = row[choice.index]
            return NumberCellSplitter.split(cell).map { String(decoding: Array(cell.utf8)[$0], as: UTF8.self) }
        }
        #expect(numbers == export.numbers)
    }

    @Test func theUTF16ExportKeepsItsQuotedTabAndNewline() throws {
        let fd = open(Self.fixtures + "excel-unicode-text.txt", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "excel-unicode-text.txt", dialect: .tab)
        var names: [String] = []
        var lines: [Int] = []
        while let record = try reader.next() {
            names.append(RecordFields.all(record.bytes, dialect: .tab)[0])
            lines.append(record.line)
        }
        #expect(names == ["Name", "Zoë Example", "Иван Пример", "王小明", "Multi\tline\nname"])
        #expect(lines == [1, 2, 3, 4, 5])
    }

    @Test(arguments: [("excel-unicode-text-no-bom.txt", "UTF-16LE"), ("latin1.csv", "windows-1252")])
    func exportsInOtherEncodingsAreRefusedWithIconv(_ file: String, _ iconvName: String) throws {
        let fd = open(Self.fixtures + file, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: file, dialect: .comma)
        let error = try #require(throws: RecordReadError.self) { try reader.next() }
        #expect(error.unsupportedEncoding?.iconvName == iconvName)
        #expect(error.description.contains("read it with --encoding \(iconvName), or convert it to UTF-8 first: iconv -f \(iconvName) -t UTF-8"))
    }
}
