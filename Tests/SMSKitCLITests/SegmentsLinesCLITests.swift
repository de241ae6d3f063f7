import Foundation
import Testing

/// `smskit segments --lines`: one result per message of a file or stdin, in order, with totals
/// on stderr (pricing a campaign without a process per message).
@Suite("smskit: segments --lines")
struct SegmentsLinesCLITests {
    static let messages = [
        "Your code is 123456",
        "Votre code — 123456, valable 5 min’",
        "Ваш код 123456",
        String(repeating: "a", count: 161),
        "Price: 5€ {promo}",
        "",
    ]

    @Test("one JSON line per message, the same counts as `segments` on each text")
    func jsonLinesMatchSingleTexts() throws {
        let result = try CLI.run(["segments", "--lines"], stdin: Data((Self.messages.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.count == Self.messages.count)
        for (index, message) in Self.messages.enumerated() {
            let single = try CLI.run(["segments", "--format", "json", message.isEmpty ? "-" : message])
            let expected = try #require(try single.json() as? [String: Any])
            let record = records[index]
            #expect(record["line"] as? Int == index + 1)
            #expect(record["record"] as? Int == index + 1)
            #expect(record["encoding"] as? String == expected["encoding"] as? String, "message \(index + 1)")
            #expect(record["length"] as? Int == expected["length"] as? Int, "message \(index + 1)")
            #expect(record["segments"] as? Int == expected["segments"] as? Int, "message \(index + 1)")
            #expect(record["remaining"] as? Int == expected["remaining_in_last_segment"] as? Int, "message \(index + 1)")
        }
        #expect(records[1]["forced_ucs2_by"] as? String == "—’")
        #expect(records[3]["segments"] as? Int == 2)
        #expect(result.stderr.contains("  messages   6\n"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("  segments   7 (1 messages of several segments)"))
        #expect(result.stderr.contains("  gsm7       4 messages, 5 segments"))
        #expect(result.stderr.contains("  ucs2       2 messages, 2 segments"))
    }

    /// `segments --lines` over `path` with `--column` and csv output: its rows after the header.
    func csvRows(_ path: String, column: String) throws -> [String] {
        let result = try CLI.run(["segments", "--lines", path, "--column", column, "--format", "csv"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines.first == "line,record,encoding,length,segments,remaining,forced_ucs2_by,error")
        return Array(result.lines.dropFirst())
    }

    @Test("CSV input with --column NAME: quoted commas and line breaks stay in the message; csv output")
    func csvColumn() throws {
        let path = try CLI.file("campaign.csv", "name;message\r\nAnn;\"Hello; see you\nat 5\"\r\nBob;Привет\r\nCy;\r\n")
        #expect(try csvRows(path, column: "Message") == [
            "2,2,gsm7,19,1,141,,",
            "4,3,ucs2,6,1,64,Привет,",
            "5,4,gsm7,0,1,160,,",
        ])
    }

    @Test("a .tsv file with --column is read as validate reads TSV: tab-separated, quotes are text")
    func tsvColumnAsValidateReadsIt() throws {
        let path = try CLI.file("campaign.tsv", "1\t\"Hi\" there\n2\t\"a\tb\"\n")
        // `"Hi" there` is 10 characters and `"a` 2, as validate --keep shows the cells.
        #expect(try csvRows(path, column: "2") == [
            "1,1,gsm7,10,1,150,,",
            "2,2,gsm7,2,1,158,,",
        ])
        let kept = try CLI.run(["validate", path, "--no-progress", "--no-header", "--keep", "--format", "tsv"])
        #expect(kept.lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false)[3] } == ["\"Hi\" there", "\"a"])
    }

    @Test("--column by position splits every record, even when the first was too long to detect the delimiter")
    func positionAfterTooLongFirstRecord() throws {
        let path = try CLI.file("long-first.csv", String(repeating: "x", count: 70_000) + "\nAnn,Hello\n")
        #expect(try csvRows(path, column: "2") == [
            "1,1,,,,,,record_too_long",
            "2,2,gsm7,5,1,155,,",
        ])
    }

    @Test("bad records are error results and the run goes on; totals as JSON")
    func errorsAndJSONTotals() throws {
        var input = Data("ok\n".utf8)
        input.append(contentsOf: [0xFF, 0xFE, 0x0A])
        input.append(Data((String(repeating: "x", count: 70_000) + "\nlast €\n").utf8))
        let result = try CLI.run(["segments", "--lines", "--summary-format", "json"], stdin: input)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.map { $0["error"] as? String } == [nil, "invalid_utf8", "record_too_long", nil])
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(records[3]["length"] as? Int == 7)
        let totals = try #require(try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
        #expect(totals["messages"] as? Int == 4)
        #expect(totals["errors"] as? Int == 2)
        #expect(totals["segments"] as? Int == 2)
    }

    @Test("the characters that forced UCS-2 in the most messages come first")
    func forcingCharacters() throws {
        let lines = Array(repeating: "Don’t miss it", count: 5) + Array(repeating: "Fin — bientot", count: 3) + ["Plain"]
        let result = try CLI.run(["segments", "--lines", "--summary-format", "json"], stdin: Data(lines.joined(separator: "\n").utf8))
        let totals = try #require(try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
        let forcing = try #require(totals["forced_ucs2_by"] as? [[String: Any]])
        #expect(forcing.map { $0["code_point"] as? String } == ["U+2019", "U+2014"])
        #expect(forcing.map { $0["messages"] as? Int } == [5, 3])
        #expect(((totals["by_encoding"] as? [String: Any])?["ucs2"] as? [String: Any])?["messages"] as? Int == 8)
    }

    @Test("usage errors: csv output without --lines, --column without --lines, a missing file",
          arguments: [
            (["segments", "--format", "csv", "hi"], Int32(64)),
            (["segments", "--column", "2", "hi"], Int32(64)),
            (["segments", "--lines", "--format", "text"], Int32(64)),
            (["segments", "--lines", "/nonexistent/messages.txt"], Int32(1)),
          ])
    func usage(arguments: [String], status: Int32) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == status, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
