import SMSKitRecords
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every way of reading a record's fields (`all`, `forEachField`, `extract`, `locate` and
/// `withField` by index) against each other and against a plain reference, on seeded random
/// records in random dialects: delimiters, quotes (or none), doubled quotes, empty fields,
/// delimiters and CRLF inside quotes, bytes after a closing quote, stray quotes.
@Suite struct RecordFieldsPropertyTests {
    /// The field rules as the documentation states them (Python's `csv`), one byte at a time:
    /// a quote opens a quoted part only as a field's first byte; inside one, a doubled quote is
    /// one quote, a delimiter is text and a single quote closes it; outside one a delimiter ends
    /// the field and every other byte, a quote included, is the field's.
    static func reference(_ record: [UInt8], _ dialect: CSVDialect) -> [[UInt8]] {
        var fields: [[UInt8]] = [[]]
        var atStart = true
        var inQuotes = false
        var position = 0
        while position < record.count {
            let byte = record[position]
            if inQuotes {
                if byte == dialect.quote {
                    if position + 1 < record.count, record[position + 1] == byte {
                        fields[fields.count - 1].append(byte)
                        position += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    fields[fields.count - 1].append(byte)
                }
            } else if byte == dialect.delimiter {
                fields.append([])
                atStart = true
                position += 1
                continue
            } else if atStart, byte == dialect.quote {
                inQuotes = true
            } else {
                fields[fields.count - 1].append(byte)
            }
            atStart = false
            position += 1
        }
        return fields
    }

    static let dialects: [CSVDialect] = {
        let delimiters = Array(",;\t| :".utf8)
        let quotes: [UInt8?] = [UInt8(ascii: "\""), UInt8(ascii: "'"), nil]
        return delimiters.flatMap { delimiter in quotes.compactMap { CSVDialect(delimiter: delimiter, quote: $0) } }
    }()

    /// A record made field by field, with the fields it was made from (`nil` when a stray
    /// quote was put in, which leaves the split to the rules).
    static func makeRecord(_ dialect: CSVDialect, _ generator: inout Generator) -> (record: [UInt8], fields: [[UInt8]]?) {
        // Text that needs no quoting: letters, digits, a two-byte letter, and the other dialects' delimiters.
        let plain = (Array("a7+ .".utf8) + [0xC3, 0xA9] + Array(",;\t|:'\"".utf8)).filter { $0 != dialect.delimiter && $0 != dialect.quote }
        func text(_ alphabet: [UInt8], _ length: Int) -> [UInt8] {
            (0..<generator.next(length + 1)).map { _ in alphabet[generator.next(alphabet.count)] }
        }
        var record: [UInt8] = []
        var fields: [[UInt8]]? = []
        for index in 0..<(1 + generator.next(6)) {
            if index > 0 { record.append(dialect.delimiter) }
            let kind = generator.next(dialect.quote == nil ? 2 : 5)
            switch (kind, dialect.quote) {
            case (0, _):
                fields?.append([])
            case (1, _), (_, nil):
                let field = text(plain, 8)
                record += field
                fields?.append(field)
            case (2, let quote?), (3, let quote?):
                // Quoted: delimiters, CRLF, LF and doubled quotes inside; with kind 3, bytes after the closing quote.
                let inside = text(plain + [dialect.delimiter, quote, UInt8(ascii: "\r"), UInt8(ascii: "\n")], 10)
                let after = kind == 3 ? text(plain, 3) : []
                record.append(quote)
                for byte in inside {
                    record.append(byte)
                    if byte == quote { record.append(quote) }
                }
                record.append(quote)
                record += after
                fields?.append(inside + after)
            case (_, let quote?):
                // A stray quote somewhere in plain text: text in the middle, a quoted part at the start.
                var field = text(plain, 6)
                field.insert(quote, at: generator.next(field.count + 1))
                record += field
                fields = nil
            }
        }
        return (record, fields)
    }

    /// Every reader's fields of `record`, each checked against `expected`.
    static func expectAllReadersAgree(_ record: [UInt8], _ dialect: CSVDialect, _ expected: [[UInt8]]) {
        let comment: Comment = "\(dialect) \(String(decoding: record, as: UTF8.self).debugDescription)"
        var scratch: [UInt8] = []
        record.withUnsafeBytes { bytes in
            #expect(RecordFields.all(bytes, dialect: dialect) == expected.map { String(decoding: $0, as: UTF8.self) }, comment)
            var seen: [[UInt8]] = []
            RecordFields.forEachField(of: bytes, dialect: dialect, scratch: &scratch) { index, field in
                #expect(index == seen.count, comment)
                seen.append(Array(field))
            }
            #expect(seen == expected, comment)
            for index in 0...expected.count {
                let wanted = index < expected.count ? expected[index] : nil
                var out: [UInt8] = [0xFF]
                let found = RecordFields.extract(index, from: bytes, dialect: dialect, into: &out)
                #expect(found == (wanted != nil) && out == (wanted ?? []), "\(comment) extract \(index)")
                var viaWithField: [UInt8]?
                RecordFields.withField(index, of: bytes, dialect: dialect, scratch: &scratch) { viaWithField = $0.map(Array.init) }
                #expect(viaWithField == wanted, "\(comment) withField \(index)")
                switch RecordFields.locate(index, in: bytes, dialect: dialect) {
                case .missing:
                    #expect(wanted == nil, "\(comment) locate \(index)")
                case .bytes(let range):
                    #expect(Array(record[range]) == wanted, "\(comment) locate \(index)")
                    #expect(dialect.quote.map { record[range].first != $0 } ?? true, "\(comment) locate \(index)")
                case .quoted:
                    #expect(wanted != nil && dialect.quote != nil, "\(comment) locate \(index)")
                }
            }
        }
    }

    @Test func recordsMadeFieldByField() {
        var generator = Generator(state: 4180)
        var made = 0
        for round in 0..<3000 {
            let dialect = Self.dialects[round % Self.dialects.count]
            let (record, fields) = Self.makeRecord(dialect, &generator)
            let expected = Self.reference(record, dialect)
            if let fields {
                #expect(expected == fields, "reference: \(dialect) \(String(decoding: record, as: UTF8.self).debugDescription)")
                made += 1
            }
            Self.expectAllReadersAgree(record, dialect, expected)
        }
        #expect(made > 1500)
    }

    /// Random bytes over the ones that matter: stray and doubled quotes anywhere.
    @Test func randomBytes() {
        var generator = Generator(state: 28)
        for round in 0..<3000 {
            let dialect = Self.dialects[round % Self.dialects.count]
            let alphabet = [UInt8(ascii: "a"), dialect.delimiter, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0xC3]
            let record = (0..<generator.next(24)).map { _ in alphabet[generator.next(alphabet.count)] }
            Self.expectAllReadersAgree(record, dialect, Self.reference(record, dialect))
        }
    }

    /// The records of a CRLF file read back with `RecordReader`: each record's fields are the
    /// ones it was made from (quoted fields hold CRLF, so records span lines).
    @Test(arguments: [CSVDialect.comma, .semicolon, .tab, .plainTab, CSVDialect(delimiter: UInt8(ascii: "|"), quote: UInt8(ascii: "'"))!])
    func aCRLFFileReadBack(_ dialect: CSVDialect) throws {
        var generator = Generator(state: 1)
        var file: [UInt8] = []
        var made: [[[UInt8]]] = []
        while made.count < 300 {
            let (record, fields) = Self.makeRecord(dialect, &generator)
            guard let fields else { continue }
            file += record + Array("\r\n".utf8)
            made.append(fields)
        }
        let fd = temporaryFile(file)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "test", dialect: dialect, encoding: .utf8)
        var scratch: [UInt8] = []
        var read: [[[UInt8]]] = []
        while let record = try reader.next() {
            #expect(record.problem == nil)
            var fields: [[UInt8]] = []
            RecordFields.forEachField(of: record.bytes, dialect: dialect, scratch: &scratch) { _, field in fields.append(Array(field)) }
            read.append(fields)
        }
        #expect(read == made)
    }
}
