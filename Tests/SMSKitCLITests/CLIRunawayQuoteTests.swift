import Foundation
import Testing

/// A quoted field that runs over 100 lines, or past the 64 KiB record limit, is reported on
/// stderr with the line where it starts and counted; the records after it are read.
@Suite struct CLIRunawayQuoteTests {
    @Test func aQuoteOpenOverMoreThanAHundredLines() throws {
        let rows = ["name,phone", "a,+442079460000", "b,\"+44 20 7946 0001"] + (0..<150).map { "filler \($0)" } + ["c,+442079460002"]
        let path = try CLI.file("overlines.csv", rows.joined(separator: "\n") + "\n")
        let result = try CLI.run(["validate", path, "--format", "csv", "--summary"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("overlines.csv line 3: a quote opened there is never closed"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("(1 such record, error unclosed_quote)"))
        #expect(result.stderr.contains("errors     not_a_number 150, unclosed_quote 1"))
        let lines = result.lines
        #expect(lines.count == 1 + 153)
        #expect(lines[2] == "3,+44 20 7946 0001,false,unclosed_quote,,,false,,,")
        #expect(lines.last?.hasPrefix("154,+442079460002,true,") == true)
    }

    @Test func aQuotedFieldPastTheRecordLimit() throws {
        let rows = ["name,phone", "a,+442079460000", "b,\"" + String(repeating: "x", count: 40_000),
                    String(repeating: "y", count: 40_000) + "\",z", "c,+442079460002"]
        let path = try CLI.file("overlimit.csv", rows.joined(separator: "\n") + "\n")
        let result = try CLI.run(["validate", path, "--format", "jsonl", "--summary"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("overlimit.csv line 3: a quote opened there is never closed"), "stderr: \(result.stderr)")
        // Line 4's quote is not at a field's start: read again, it is an ordinary character.
        #expect(result.stderr.contains("errors     not_a_number 1, unclosed_quote 1"), "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [2, 3, 4, 5])
        #expect(records.map { $0["error"] as? String } == [nil, "unclosed_quote", "not_a_number", nil])
        #expect(records.last?["e164"] as? String == "+442079460002")
    }
}
