import Foundation
import SMSKitRecords
import Testing

/// UTF-16 decoding while streaming, and the encodings that are refused with an `--encoding` hint.
@Suite struct EncodingTests {
    static let text = "Name,Phone\r\nZoë,\"+44 20 7946 0000\"\r\n中国,+86 10 1234 5678\r\n\"😀 smile\nline\",+1 202 555 0100\r\nΩ,\"a \"\"q\"\" 🇬🇧\"\r\nend"

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in (byteOrderMark ? [0xFEFF] : []) + Array(text.utf16) {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }
        return bytes
    }

    @Test(arguments: [false, true], [0, 40, 97, 1 << 20])
    func utf16WithAByteOrderMarkIsDecoded(bigEndian: Bool, capacity: Int) throws {
        let expected = try readRecords(Array(Self.text.utf8), format: .csv, maximumRecordBytes: 40)
        let records = try readRecords(Self.utf16(Self.text, bigEndian: bigEndian), format: .csv, maximumRecordBytes: 40,
                                      capacity: capacity, encoding: .automatic)
        #expect(records == expected)
        #expect(records.count == 6)
        #expect(records[3].text == "\"😀 smile\nline\",+1 202 555 0100")
    }

    @Test func utf16AgreesWithUTF8OnLongerInputs() throws {
        // 3,000 records mixing 1-, 2-, 3- and 4-byte UTF-8, through a small buffer.
        var text = "name;phone\r\n"
        for index in 0..<3_000 { text += "é\(index)中😀;+44 7700 900\(index % 1000)\r\n" }
        let expected = try readRecords(Array(text.utf8), format: .csv, maximumRecordBytes: 64)
        for bigEndian in [false, true] {
            let records = try readRecords(Self.utf16(text, bigEndian: bigEndian), format: .csv, maximumRecordBytes: 64,
                                          capacity: 0, encoding: .automatic)
            #expect(records == expected)
        }
    }

    @Test func utf16FromAPipeInOddPieces() throws {
        // Writes of 1 to 7 bytes, so that reads end inside code units and surrogate pairs.
        let bytes = Self.utf16(String(repeating: Self.text + "\n", count: 50), bigEndian: false)
        let expected = try readRecords(Array(String(repeating: Self.text + "\n", count: 50).utf8), format: .csv, maximumRecordBytes: 40)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        let thread = Thread {
            var offset = 0
            var size = 1
            while offset < bytes.count {
                let count = min(size, bytes.count - offset)
                let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress! + offset, count) }
                if written <= 0 { break }
                offset += written
                size = size % 7 + 1
            }
            close(writer)
        }
        thread.start()
        defer { close(fds[0]) }
        let reader = RecordReader(fd: fds[0], name: "<stdin>", format: .csv, maximumRecordBytes: 40, capacity: 0)
        #expect(try drain(reader) == expected)
    }

    struct DecodingCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]   // little-endian, after the byte order mark
        var expected: String
        var testDescription: String { name }
    }

    static let decodingCases: [DecodingCase] = [
        DecodingCase(name: "odd last byte", bytes: [0x61, 0x00, 0x62], expected: "a\u{FFFD}"),
        DecodingCase(name: "high surrogate at the end", bytes: [0x61, 0x00, 0x3D, 0xD8], expected: "a\u{FFFD}"),
        DecodingCase(name: "lone low surrogate", bytes: [0x00, 0xDE, 0x61, 0x00], expected: "\u{FFFD}a"),
        DecodingCase(name: "high surrogate then a letter", bytes: [0x3D, 0xD8, 0x61, 0x00], expected: "\u{FFFD}a"),
        DecodingCase(name: "surrogate pair", bytes: [0x3D, 0xD8, 0x00, 0xDE], expected: "😀"),
        DecodingCase(name: "NUL stays a byte", bytes: [0x61, 0x00, 0x00, 0x00], expected: "a\u{0}"),
    ]

    @Test(arguments: decodingCases)
    func badUTF16BecomesReplacementCharacters(_ test: DecodingCase) throws {
        let records = try readRecords([0xFF, 0xFE] + test.bytes, format: .lines, encoding: .automatic)
        #expect(records.map(\.text) == [test.expected])
    }

    @Test func utf16IsDecodedWhenAskedWithoutAByteOrderMark() throws {
        let records = try readRecords(Self.utf16("a,b\nc", bigEndian: true, byteOrderMark: false), format: .csv,
                                      encoding: .utf16BigEndian)
        #expect(records.map(\.text) == ["a,b", "c"])
    }

    struct DetectionCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var iconvName: String?   // nil: decoded
        var testDescription: String { name }
    }

    static let latin1: [UInt8] = Array("Name;Téléphone\nJosé Müller;+49 30 1234567\nFrançois;+33 1 23 45 67 89\n".unicodeScalars.map { UInt8($0.value) })

    static let detectionCases: [DetectionCase] = [
        DetectionCase(name: "ASCII", bytes: Array("a,b\n1,2\n".utf8), iconvName: nil),
        DetectionCase(name: "UTF-8 with accents", bytes: Array("Zoë,Ωmega,中\n".utf8), iconvName: nil),
        DetectionCase(name: "UTF-8 with two stray bytes", bytes: Array("Zoë,x\n".utf8) + [0xFF, 0x0A, 0xFE] + Array("ok\n".utf8), iconvName: nil),
        DetectionCase(name: "control bytes", bytes: (0..<4000).map { UInt8(1 + $0 % 31) }, iconvName: nil),
        DetectionCase(name: "UTF-16LE without a mark", bytes: utf16("Name,Phone\n+44 20\n", bigEndian: false, byteOrderMark: false), iconvName: "UTF-16LE"),
        DetectionCase(name: "UTF-16BE without a mark", bytes: utf16("Name,Phone\n+44 20\n", bigEndian: true, byteOrderMark: false), iconvName: "UTF-16BE"),
        DetectionCase(name: "UTF-32LE with a mark", bytes: [0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0], iconvName: nil),
        DetectionCase(name: "UTF-32BE with a mark", bytes: [0, 0, 0xFE, 0xFF, 0, 0, 0, 0x61], iconvName: nil),
        DetectionCase(name: "UTF-32LE without a mark", bytes: Array("Name,Phone\n".unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }), iconvName: "UTF-32LE"),
        DetectionCase(name: "UTF-32BE without a mark", bytes: Array("Name,Phone\n".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }), iconvName: "UTF-32BE"),
        DetectionCase(name: "Latin-1", bytes: latin1, iconvName: "windows-1252"),
    ]

    @Test(arguments: detectionCases)
    func detection(_ test: DetectionCase) throws {
        let detected = test.bytes.withUnsafeBytes { EncodingDetection.detect(prefix: $0, isWholeInput: true) }
        switch detected {
        case .unsupported(let unsupported):
            #expect(unsupported.iconvName == test.iconvName)
            let fd = temporaryFile(test.bytes)
            defer { close(fd) }
            let reader = RecordReader(fd: fd, name: "list.csv", format: .csv)
            let error = try #require(throws: RecordReadError.self) { try reader.next() }
            #expect(error.unsupportedEncoding == unsupported)
            #expect(error.description.contains("read it with --encoding \(unsupported.iconvName), or convert it to UTF-8 first: iconv -f \(unsupported.iconvName) -t UTF-8 < list.csv > list-utf8.csv"), "\(error)")
            #expect(throws: RecordReadError.self) { try reader.next() }   // and on every call
        case .utf8, .utf16, .decoded:
            #expect(test.iconvName == nil, "\(detected)")
            _ = try readRecords(test.bytes, format: .csv, encoding: .automatic)
        }
    }

    @Test func theMessageForStandardInput() {
        let encoding = UnsupportedEncoding(iconvName: "UTF-16LE", evidence: "a NUL in every other byte, no byte order mark")
        #expect(encoding.message(for: "<stdin>")
            == "<stdin> looks like UTF-16LE (a NUL in every other byte, no byte order mark); read it with --encoding UTF-16LE, or convert it to UTF-8 first: iconv -f UTF-16LE -t UTF-8")
    }

    // MARK: The automatic decision over the whole file, and encodings by name

    /// `rows` rows of about 30 bytes (over 64 KiB for 4,000), the rows in `latin1` in Latin-1.
    static func export(rows: Int, latin1: Set<Int>) -> [UInt8] {
        var bytes = Array("name,phone\n".utf8)
        for row in 2...(rows + 1) {
            let name = latin1.contains(row) ? "José" : "Bob"
            let line = "\(name) \(row),+34 612 345 \(row % 1000)\n"
            bytes += latin1.contains(row) ? line.unicodeScalars.map { UInt8($0.value) } : Array(line.utf8)
        }
        return bytes
    }

    /// 12,000 rows (about 330 KB) read with the smallest block (128 KiB): the bad bytes are in
    /// the first block, or only in what the reader looks at with pread.
    @Test(arguments: [[2], [6_001, 6_002], [12_001]])
    func aDamagedRecordOrTwoAreReadAsUTF8WhereverTheyAre(_ damaged: [Int]) throws {
        let bytes = Self.export(rows: 12_000, latin1: Set(damaged))
        #expect(bytes.count > 2 * (2 * RecordReader.defaultMaximumRecordBytes + 16))
        let fd = temporaryFile(bytes)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "damaged.csv", format: .csv, capacity: 0)
        let records = try drain(reader)
        #expect(reader.detectedEncoding == .utf8(byteOrderMarkLength: 0))
        #expect(records.count == 12_001)
        #expect(records.filter { $0.text.contains("\u{FFFD}") }.map(\.line) == damaged)
    }

    @Test(arguments: [2, 9_000])
    func aLegacyFileIsRefusedWhereverItsLegacyRowsStart(_ first: Int) throws {
        let bytes = Self.export(rows: 12_000, latin1: Set(stride(from: first, through: 12_001, by: 5)))
        let fd = temporaryFile(bytes)
        defer { close(fd) }
        let reader = RecordReader(fd: fd, name: "legacy.csv", format: .csv, capacity: 0)
        let error = try #require(throws: RecordReadError.self) { try reader.next() }
        #expect(error.unsupportedEncoding?.iconvName == "windows-1252")
        #expect(error.description.contains("the first on line \(first)"), "\(error)")
        // The census read the file with pread(2): the descriptor's offset is where the reader left it.
        #expect(lseek(fd, 0, SEEK_CUR) == off_t(2 * RecordReader.defaultMaximumRecordBytes + 16))
    }

    @Test func aLegacyFileIsReadWithItsName() throws {
        let bytes = Self.export(rows: 4_000, latin1: Set(stride(from: 2, through: 4_001, by: 5)))
        let latin1AsUTF8 = String(String.UnicodeScalarView(bytes.map { UnicodeScalar($0) })).utf8
        let expected = try readRecords(Array(latin1AsUTF8), format: .csv)
        for capacity in [0, 1 << 20] {
            let records = try readRecords(bytes, format: .csv, capacity: capacity, encoding: try #require(InputEncoding("windows-1252")))
            #expect(records == expected)
        }
    }

    /// Multibyte legacy text from a pipe in pieces of 1 to 7 bytes: characters cut by a read are
    /// finished by the next, and memory stays at the reader's two buffers.
    @Test(arguments: [("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B] as [UInt8], "日本"), ("GB18030", [0xD6, 0xD0, 0xB9, 0xFA], "中国"),
                      ("KOI8-R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет")])
    func legacyTextFromAPipeInOddPieces(_ name: String, _ word: [UInt8], _ text: String) throws {
        let line = word + Array(",+81 3 1234 5678\r\n".utf8)
        let bytes = Array([[UInt8]](repeating: line, count: 20_000).joined())
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        let thread = Thread {
            var offset = 0
            var size = 1
            while offset < bytes.count {
                let count = min(size, bytes.count - offset)
                let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress! + offset, count) }
                if written <= 0 { break }
                offset += written
                size = size % 7 + 1
            }
            close(writer)
        }
        thread.start()
        defer { close(fds[0]) }
        let reader = RecordReader(fd: fds[0], name: "<stdin>", format: .csv, capacity: 0, encoding: try #require(InputEncoding(name)))
        let records = try drain(reader)
        #expect(records.count == 20_000)
        #expect(records.allSatisfy { $0.text == text + ",+81 3 1234 5678" })
        #expect(records.last?.line == 20_000)
    }

    @Test func encodingNames() {
        #expect(InputEncoding("auto") == .automatic)
        #expect(InputEncoding("AUTO") == .automatic)
        #expect(InputEncoding("utf-8") == .utf8)
        #expect(InputEncoding("UTF8") == .utf8)
        #expect(InputEncoding("windows-1252")?.name == "windows-1252")
        #expect(InputEncoding("klingon-8") == nil)
        #expect(InputEncoding("") == nil)
    }

    /// The census of an input in pieces of any size is the census of the whole input.
    @Test func theCensusDoesNotDependOnPieces() {
        var generator = Generator(state: 1252)
        let alphabet: [[UInt8]] = [[0x61], [0x0A], [0xE9], Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0xF0, 0x9F], [0x20]]
        for _ in 0..<300 {
            let bytes = Array((0..<generator.next(200)).map { _ in alphabet[generator.next(alphabet.count)] }.joined())
            var whole = UTF8Census()
            bytes.withUnsafeBytes { whole.add($0) }
            whole.finish()
            var pieces = UTF8Census()
            var quick = UTF8Census(countingLines: false)
            var offset = 0
            while offset < bytes.count {
                let count = min(1 + generator.next(40), bytes.count - offset)
                bytes[offset..<(offset + count)].withUnsafeBytes {
                    pieces.add($0)
                    quick.add($0)
                }
                offset += count
            }
            pieces.finish()
            quick.finish()
            // The quick pass finds a bad byte exactly when the full census has a bad line.
            #expect(quick.sawBadByte == (whole.badLines > 0), "\(bytes)")
            let piecewise: [Int] = [pieces.lines, pieces.badLines, pieces.utf8Lines]
            let atOnce: [Int] = [whole.lines, whole.badLines, whole.utf8Lines]
            #expect(piecewise == atOnce, "\(bytes)")
            #expect(whole.lines == bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count - (bytes.last == 0x0A || bytes.isEmpty ? 1 : 0))
        }
    }
}
