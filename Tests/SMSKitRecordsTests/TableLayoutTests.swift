import SMSKitRecords
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TableLayout`: the one decision of format, dialect and header that validate, find and
/// segments --lines share.
@Suite("TableLayout")
struct TableLayoutTests {
    /// Reads `text` with a layout settled on its first record: the layout, whether that record is
    /// a header, and every record's fields.
    func read(_ text: String, _ layout: TableLayout, given: Bool? = nil, namesColumn: Bool = false,
              parses: ((String) -> Bool)? = nil) throws -> (layout: TableLayout, header: Bool, rows: [[String]]) {
        let fd = temporaryFile(Array(text.utf8))
        defer { close(fd) }
        var layout = layout
        let reader = RecordReader(fd: fd, name: "t", dialect: layout.dialect)
        guard let first = try reader.next() else { return (layout, false, []) }
        layout.settle(on: first, reader: reader)
        let header = layout.isHeader(first, given: given, namesColumn: namesColumn, parsesAsNumber: parses)
        var rows = [RecordFields.all(first.bytes, dialect: layout.dialect)]
        while let record = try reader.next() { rows.append(RecordFields.all(record.bytes, dialect: layout.dialect)) }
        return (layout, header, rows)
    }

    @Test("the format a file's name suggests", arguments: [
        ("a.csv", InputFormat.csv), ("A.CSV", .csv), ("b.tsv", .tsv), ("c.tab", .tsv), ("d.txt", .lines), ("<stdin>", .lines),
    ])
    func formatForPath(path: String, format: InputFormat) {
        #expect(TableLayout.format(forPath: path) == format)
        #expect(TableLayout.format(forPath: path, otherwise: .csv) == (format == .lines ? .csv : format))
    }

    @Test("CSV: the delimiter is detected on the first record and the reader splits the rest with it")
    func detectsDelimiter() throws {
        let (layout, header, rows) = try read("name;phone\nAnn;\"+44 20; 7946 0000\"\n", TableLayout(format: .csv),
                                              parses: { $0.hasPrefix("+") })
        #expect(layout.dialect == CSVDialect.semicolon)
        #expect(layout.detection?.reason.hasPrefix("';' detected in the first row") == true)
        #expect(header)
        #expect(rows == [["name", "phone"], ["Ann", "+44 20; 7946 0000"]])
    }

    @Test("a given delimiter is kept; TSV is never quoted; lines are one field")
    func givenAndFixedDialects() throws {
        let given = try read("a;b,c\n", TableLayout(format: .csv, dialect: .comma, detectsDelimiter: false))
        #expect(given.layout.dialect == .comma && given.layout.detection == nil)
        #expect(given.rows == [["a;b", "c"]])
        let tsv = try read("1\t\"quoted\" text\n", TableLayout(format: .tsv))
        #expect(tsv.layout.dialect == .plainTab)
        #expect(tsv.rows == [["1", "\"quoted\" text"]])
        let lines = try read("a,b;c\n", .lines)
        #expect(lines.layout.dialect == nil)
        #expect(lines.rows == [["a,b;c"]])
    }

    @Test("header: the user's choice first, then none for lines, a named column, then the content")
    func header() throws {
        let numbers: (String) -> Bool = { $0.allSatisfy(\.isNumber) && $0.count > 5 }
        #expect(try read("title\n123456\n", .lines, given: true).header)
        #expect(try !read("name,phone\n", .lines, parses: numbers).header)
        #expect(try read("123456,789012\n", TableLayout(format: .csv), namesColumn: true).header)
        #expect(try !read("name,phone\n", TableLayout(format: .csv), given: false).header)
        #expect(try read("name,phone\n", TableLayout(format: .csv), parses: numbers).header)
        #expect(try !read("Ann,123456789\n", TableLayout(format: .csv), parses: numbers).header)
        // Without a predicate (messages are not numbers) only a named column makes a header.
        #expect(try !read("name,message\n", TableLayout(format: .csv)).header)
    }

    @Test("a first record that was not read whole decides neither delimiter nor header")
    func problemFirstRecord() throws {
        let fd = temporaryFile(Array((String(repeating: "x;", count: 100) + "\na;b\n").utf8))
        defer { close(fd) }
        var layout = TableLayout(format: .csv)
        let reader = RecordReader(fd: fd, name: "t", dialect: layout.dialect, maximumRecordBytes: 50)
        let first = try #require(try reader.next())
        #expect(first.isTooLong)
        layout.settle(on: first, reader: reader)
        #expect(layout.dialect == .comma && layout.detection == nil)
        #expect(!layout.isHeader(first, parsesAsNumber: { _ in false }))
    }
}
