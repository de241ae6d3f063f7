import Foundation
import Testing

/// `smskit validate -e/--encoding` and the automatic decision, end to end: the same decision for
/// bad bytes at the start, in the middle and at the end of a file over 64 KiB; a file
/// consistently in a legacy encoding refused before anything is written, naming the encoding;
/// any ICU converter name read.
@Suite struct ValidateEncodingCLITests {
    /// About 1.3 MB: past the first 64 KiB, and past the reader's first 1 MiB block, so that the
    /// rest of the file is looked at with pread.
    static let rows = 50_000

    /// An export of `rows` rows whose rows in `latin1Rows` are in Latin-1: a name with é and,
    /// when `damagedNumbers`, a no-break space after the number (byte A0, as a spreadsheet leaves
    /// it); with `utf8Names`, every seventh other row has a name in UTF-8.
    static func export(latin1Rows: Set<Int>, utf8Names: Bool = true, damagedNumbers: Bool = true) -> Data {
        var data = Data("name,phone\n".utf8)
        for row in 2...(rows + 1) {
            let line = "\(utf8Names && row % 7 == 0 ? "Zoë" : "Bob") \(row),+34 612 \(String(format: "%03d %03d", row / 1000, row % 1000))\n"
            if latin1Rows.contains(row) {
                data += Data(line.replacingOccurrences(of: "Zoë", with: "José").replacingOccurrences(of: "Bob", with: "José")
                    .replacingOccurrences(of: "\n", with: damagedNumbers ? "\u{A0}\n" : "\n").unicodeScalars.map { UInt8($0.value) })
            } else {
                data += Data(line.utf8)
            }
        }
        return data
    }

    @Test(arguments: [("start", [2]), ("middle", [25_001, 25_002]), ("end", [Self.rows + 1])])
    func aDamagedRecordOrTwoAreErrorRecordsWhereverTheyAre(_ position: String, _ damaged: [Int]) throws {
        let path = try CLI.file("damaged-\(position).csv", Self.export(latin1Rows: Set(damaged)))
        let result = try CLI.run(["validate", path, "--format", "jsonl", "--summary"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.count == Self.rows)
        let errors = records.filter { $0["error"] as? String != nil }
        #expect(errors.map { $0["line"] as? Int } == damaged)
        #expect(errors.allSatisfy { $0["error"] as? String == "invalid_utf8" })
        #expect(records.filter { $0["valid"] as? Bool == true }.count == Self.rows - damaged.count)
    }

    /// Every fifth row in Latin-1, from the first row or only after the first 1 MiB: refused,
    /// nothing written, the message naming the --encoding that reads it.
    @Test(arguments: [2, 45_000])
    func aLegacyFileIsRefusedWhereverItsLegacyRowsStart(_ firstLatin1Row: Int) throws {
        let latin1 = Set(stride(from: firstLatin1Row, through: Self.rows + 1, by: 5))
        let path = try CLI.file("legacy-\(firstLatin1Row).csv", Self.export(latin1Rows: latin1, utf8Names: false, damagedNumbers: false))
        let result = try CLI.run(["validate", path, "--format", "csv"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("looks like windows-1252"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("read it with --encoding windows-1252"), "stderr: \(result.stderr)")

        let read = try CLI.run(["validate", path, "--encoding", "windows-1252", "--format", "jsonl"])
        #expect(read.status == 0, "stderr: \(read.stderr)")
        let records = try read.jsonLines()
        #expect(records.count == Self.rows)
        #expect(records.allSatisfy { $0["valid"] as? Bool == true })
    }

    /// Names ICU knows, with text that only they decode: the names are read, not guessed.
    @Test(arguments: [
        ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B] as [UInt8], "日本"),
        ("KOI8-R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        ("GB18030", [0xD6, 0xD0, 0xB9, 0xFA], "中国"),
        ("latin1", [0x4A, 0x6F, 0x73, 0xE9], "José"),
    ])
    func anyICUConverterName(_ name: String, _ bytes: [UInt8], _ text: String) throws {
        let data = Data("name,phone\n".utf8) + Data(bytes) + Data(",+34 612 345 678\n".utf8)
        let path = try CLI.file("named.csv", data)
        let result = try CLI.run(["validate", path, "-e", name, "--keep", "--format", "jsonl", "--summary"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.first?["name"] as? String == text)
        #expect(records.first?["e164"] as? String == "+34612345678")
        #expect(result.stderr.contains("named.csv: \(name), decoded"), "stderr: \(result.stderr)")
    }

    @Test func anUnknownEncodingIsAUsageError() throws {
        let path = try CLI.file("plain.csv", "name,phone\nAnn,+34 612 345 678\n")
        let result = try CLI.run(["validate", path, "--encoding", "klingon-8"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown encoding 'klingon-8'"), "stderr: \(result.stderr)")
    }

    /// `segments --lines` reads its messages with the same reader, so it takes --encoding too.
    @Test func segmentsLinesTakesAnEncoding() throws {
        let koi8: [UInt8] = [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]   // Привет
        let path = try CLI.file("messages.txt", Data(koi8 + [0x0A] + Array("Hello\n".utf8)))
        let result = try CLI.run(["segments", "--lines", path, "--encoding", "KOI8-R"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.map { $0["encoding"] as? String } == ["ucs2", "gsm7"])
        #expect(records.map { $0["length"] as? Int } == [6, 5])
        let usage = try CLI.run(["segments", "Hello", "--encoding", "KOI8-R"])
        #expect(usage.status == 64)
    }
}
