import Foundation
import Testing

/// `smskit find`: the numbers in each line of text, run as a process.
@Suite("smskit find")
struct FindCLITests {
    @Test func jsonLinesFromStdin() throws {
        let input = "Call +44 20 7946 0123 or 020 7946 0124\nno number here\nTél. 01 23 45 67 89 ::: 07400 123456 ext. 12\n"
        let result = try CLI.run(["find", "--region", "GB"], stdin: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let records = try result.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [1, 1, 3])
        #expect(records.map { $0["e164"] as? String } == ["+442079460123", "+442079460124", "+447400123456"])
        #expect(records[0]["start"] as? Int == 5)
        #expect(records[0]["end"] as? Int == 21)
        #expect(records[0]["raw"] as? String == "+44 20 7946 0123")
        #expect(records[0]["valid"] as? Bool == true)
        #expect(records[0]["region"] as? String == "GB")
        // "Tél. " has a two-byte é: offsets in code points and in bytes differ by one.
        #expect(records[2]["start"] as? Int == 24)
        #expect(records[2]["utf8_start"] as? Int == 25)
        #expect(records[2]["extension"] as? String == "12")
        #expect(records[0]["file"] == nil)
    }

    @Test("find reads encodings as validate does: UTF-16 with a BOM, or --encoding")
    func encodingsAsValidate() throws {
        // UTF-16LE with a byte order mark, detected; CRLF line ends.
        var utf16 = Data([0xFF, 0xFE])
        for unit in "Call +44 20 7946 0123\r\nTél. +1 650-253-0000\r\n".utf16 {
            utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
        }
        let detected = try CLI.run(["find"], stdin: utf16)
        #expect(detected.status == 0, "\(detected.stderr)")
        let found = try detected.jsonLines()
        #expect(found.map { $0["line"] as? Int } == [1, 2])
        #expect(found.map { $0["e164"] as? String } == ["+442079460123", "+16502530000"])
        #expect(found.map { $0["utf8_start"] as? Int } == [5, 6])
        // Latin-1 given by name: é is one byte in the file and two in the UTF-8 offsets.
        let latin1 = Data("Caf".utf8) + Data([0xE9]) + Data(" +44 20 7946 0123\n+44 20 7946 0124\n".utf8)
        let named = try CLI.run(["find", "--encoding", "latin1"], stdin: latin1)
        #expect(named.status == 0, "\(named.stderr)")
        let records = try named.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [1, 2])
        #expect(records.first?["start"] as? Int == 5)
        #expect(records.first?["utf8_start"] as? Int == 6)
        let unknown = try CLI.run(["find", "--encoding", "no-such-encoding"], stdin: latin1)
        #expect(unknown.status == 64)
    }

    @Test func filesLeniencyAndCSV() throws {
        let path = try CLI.file("notes.txt", "650 2530000\r\n(650) 253-0000\n")
        let valid = try CLI.run(["find", path, "--region", "US", "--format", "csv"])
        #expect(valid.status == 0)
        #expect(valid.lines.first == "file,line,start,end,utf8_start,utf8_end,raw,e164,extension,valid,region,type")
        #expect(valid.lines.count == 3)
        #expect(valid.lines[2] == "\(path),2,0,14,0,14,(650) 253-0000,+16502530000,,true,US,fixed_line_or_mobile")
        let exact = try CLI.run(["find", path, "--region", "US", "--leniency", "exact-grouping"])
        #expect(try exact.jsonLines().map { $0["line"] as? Int } == [2])
        #expect(try exact.jsonLines().first?["file"] as? String == path)
    }

    @Test("find quotes a CSV field as validate does: one ending in a space is quoted")
    func csvQuotingAsValidate() throws {
        let path = try CLI.file("notes ", "(650) 253-0000\n")
        let found = try CLI.run(["find", path, "--region", "US", "--format", "csv"])
        #expect(found.status == 0)
        #expect(found.lines.last == "\"\(path)\",1,0,14,0,14,(650) 253-0000,+16502530000,,true,US,fixed_line_or_mobile",
                "stdout: \(found.stdout)")
        let validated = try CLI.run(["validate", "--region", "US", "--format", "csv", "--fields", "input,e164"],
                                    stdin: Data(" 650 253 0000 \n".utf8))
        #expect(validated.lines.last == "\" 650 253 0000 \",+16502530000", "stdout: \(validated.stdout)")
    }

    @Test func badInput() throws {
        // Invalid UTF-8, an unknown region, a missing file, a bad leniency, an over-long line.
        let bytes = Data([0xFF, 0x20] + Array("+1 650 253 0000".utf8) + [0x0A])
        let result = try CLI.run(["find"], stdin: bytes)
        #expect(result.status == 0)
        #expect(try result.jsonLines().map { $0["utf8_start"] as? Int } == [4])
        #expect(try result.jsonLines().map { $0["start"] as? Int } == [2])
        #expect(try CLI.run(["find", "--region", "XX9"]).status == 64)
        #expect(try CLI.run(["find", "--leniency", "sloppy"]).status == 64)
        let missing = try CLI.run(["find", "/nonexistent/file.txt"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot open /nonexistent/file.txt"))
        let long = String(repeating: "a", count: 2_000) + "\n+1 650 253 0000\n"
        let skipped = try CLI.run(["find", "--max-line-bytes", "1000"], stdin: Data(long.utf8))
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("-:1: line longer than 1000 bytes, skipped"))
        #expect(try skipped.jsonLines().map { $0["line"] as? Int } == [2])
    }
}
