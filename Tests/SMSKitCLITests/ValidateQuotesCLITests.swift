import Foundation
import Testing

/// `smskit validate` reads quotes as RFC 4180 readers (Python's csv, Excel) do, end to end: a quote
/// in mid-field is a character, a quoted field may span lines (and the summary then tells lines
/// from records), and a quote still open at the end loses no line.
@Suite struct ValidateQuotesCLITests {
    /// A 100,000-row export whose row 7 has `x"y` in an unquoted name cell, whose row 20 starts
    /// with a quoted name, and whose row 30 has `5" tablet`: every row is checked.
    @Test func aQuoteInMidFieldSwallowsNoRow() throws {
        var text = "name,phone\n"
        for row in 2...100_000 {
            let name = row == 7 ? "x\"y" : row == 20 ? "\"Smith, Ann\"" : row == 30 ? "5\" tablet" : "Bob \(row)"
            text += "\(name),+34 612 345 \(String(format: "%03d", row % 1000))\n"
        }
        let path = try CLI.file("midquote.csv", text)
        let result = try CLI.run(["validate", path, "--format", "csv", "--summary"])
        #expect(result.status == 0)
        let lines = result.lines
        #expect(lines.count == 100_000)
        #expect(lines[6].hasPrefix("7,+34 612 345 007,true,,+34612345007,"), "\(lines[6])")
        #expect(lines[19].hasPrefix("20,+34 612 345 020,true,,+34612345020,"), "\(lines[19])")
        #expect(lines[29].hasPrefix("30,+34 612 345 030,true,,+34612345030,"), "\(lines[29])")
        #expect(!result.stderr.contains("never closed"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("lines      99,999"))
        #expect(result.stderr.contains("valid      99,999"))
    }

    /// Google Contacts quotes multi-line addresses: records span lines, `line` says where each
    /// starts, and the summary counts lines and records apart.
    @Test func quotedFieldsOverLinesAreCountedApart() throws {
        let text = "Name,Address,Phone\r\n"
            + "Ann,\"1 High St\r\nLondon\r\nUK\",+44 20 7946 0000\r\n"
            + "Bob,\"2 Rue\nParis\",+33 1 23 45 67 89\r\n"
            + "Cy,,+1 650 253 0000\r\n"
        let path = try CLI.file("contacts.csv", text)
        let result = try CLI.run(["validate", path, "--column", "Phone", "--fields", "line,record,e164", "--format", "jsonl", "--summary"])
        #expect(result.status == 0)
        let records = try result.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [2, 5, 7])
        #expect(records.map { $0["record"] as? Int } == [2, 3, 4])
        #expect(records.map { $0["e164"] as? String } == ["+442079460000", "+33123456789", "+16502530000"])
        #expect(result.stderr.contains("lines      6 (quoted fields span lines)"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("records    3\n"), "stderr: \(result.stderr)")

        let summaryPath = try CLI.file("contacts-summary.json", "")
        let json = try CLI.run(["validate", path, "--column", "Phone", "--summary-format", "json", "--summary-file", summaryPath])
        #expect(json.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: summaryPath))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(summary["lines"] as? Int == 6)
        #expect(summary["records"] as? Int == 3)
    }

    /// A quote opened at a field's start and never closed: its record is cut at its line and
    /// reported, and the lines after it are read again, through to the last one.
    @Test func aQuoteOpenAtTheEndLosesNoLine() throws {
        let text = "name,phone\nAnn,+44 20 7946 0000\n\"Bob,+44 20 7946 0001\nCy,+44 20 7946 0002\nDi,+44 20 7946 0003\n"
        let path = try CLI.file("openquote.csv", text)
        let result = try CLI.run(["validate", path, "--format", "jsonl", "--summary"])
        #expect(result.status == 0)
        let records = try result.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [2, 3, 4, 5])
        #expect(records.map { $0["error"] as? String } == [nil, "unclosed_quote", nil, nil])
        #expect(records.last?["e164"] as? String == "+442079460003")
        #expect(result.stderr.contains("openquote.csv line 3: a quote opened there is never closed"), "stderr: \(result.stderr)")
    }
}
