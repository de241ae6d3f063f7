import Foundation
import SMSKitRecords
import Testing

/// UTF-16 decoding while streaming, and the encodings that are refused with an `iconv` hint.
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
        DetectionCase(name: "UTF-32LE with a mark", bytes: [0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0], iconvName: "UTF-32LE"),
        DetectionCase(name: "UTF-32BE with a mark", bytes: [0, 0, 0xFE, 0xFF, 0, 0, 0, 0x61], iconvName: "UTF-32BE"),
        DetectionCase(name: "UTF-32LE without a mark", bytes: Array("Name,Phone\n".unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }), iconvName: "UTF-32LE"),
        DetectionCase(name: "UTF-32BE without a mark", bytes: Array("Name,Phone\n".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }), iconvName: "UTF-32BE"),
        DetectionCase(name: "Latin-1", bytes: latin1, iconvName: "WINDOWS-1252"),
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
            #expect(error.description.contains("iconv -f \(unsupported.iconvName) -t UTF-8 < list.csv > list-utf8.csv"), "\(error)")
            #expect(throws: RecordReadError.self) { try reader.next() }   // and on every call
        case .utf8, .utf16:
            #expect(test.iconvName == nil, "\(detected)")
            _ = try readRecords(test.bytes, format: .csv, encoding: .automatic)
        }
    }

    @Test func theMessageForStandardInput() {
        let encoding = UnsupportedEncoding(iconvName: "UTF-16LE", evidence: "a NUL in every other byte, no byte order mark")
        #expect(encoding.message(for: "<stdin>")
            == "<stdin> looks like UTF-16LE (a NUL in every other byte, no byte order mark); convert it to UTF-8 first: iconv -f UTF-16LE -t UTF-8")
    }
}
