import Foundation
import Testing

// End-to-end tests of the `smskit` executable: each runs the built binary as a subprocess and
// asserts stdout, stderr and the exit code.

struct HelpCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var mustContain: [String]
    var testDescription: String { arguments.joined(separator: " ") }
}

@Suite("smskit: help, version, exit codes")
struct CLIBasicsTests {
    static let helpCases: [HelpCase] = [
        HelpCase(arguments: ["--help"], mustContain: ["USAGE: smskit <subcommand>", "validate", "parse", "render", "segments", "EXIT CODES", "64"]),
        HelpCase(arguments: ["validate", "--help"], mustContain: ["USAGE: smskit validate", "--input-format", "--column", "--region-column", "--only", "--summary", "line_too_long", "invalid_utf8", "EXIT CODES"]),
        HelpCase(arguments: ["help", "parse"], mustContain: ["USAGE: smskit parse", "--region", "metadata_version"]),
        HelpCase(arguments: ["render", "--help"], mustContain: ["USAGE: smskit render", "--lang", "--code", "--app", "--webotp", "--app-hash", "--catalog", "--national-tables", "verification_code"]),
        HelpCase(arguments: ["segments", "--help"], mustContain: ["USAGE: smskit segments", "stdin", "--national-tables", "septets"]),
    ]

    @Test("help text", arguments: helpCases)
    func help(_ test: HelpCase) throws {
        let result = try CLI.run(test.arguments)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        for text in test.mustContain {
            #expect(result.stdout.contains(text), "\(test.arguments) help lacks \(text)")
        }
    }

    @Test func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let lines = result.lines
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("smskit ") == true)
        #expect(lines.contains { $0.hasPrefix("phone metadata 9.") })
        #expect(lines.contains { $0.hasPrefix("ICU ") && $0.count > 4 })
    }

    struct ExitCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var stderr: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let exitCases: [ExitCase] = [
        ExitCase(arguments: ["validate", "/nonexistent/numbers.csv"], status: 1, stderr: "cannot open /nonexistent/numbers.csv"),
        ExitCase(arguments: ["validate", "/"], status: 1, stderr: "is a directory"),
        ExitCase(arguments: ["validate", "--frobnicate"], status: 64, stderr: "Unknown option '--frobnicate'"),
        ExitCase(arguments: ["validate", "--region", "USA"], status: 64, stderr: "--region"),
        ExitCase(arguments: ["validate", "--format", "xml"], status: 64, stderr: "--format"),
        ExitCase(arguments: ["validate", "--input-format", "lines", "--region-column", "2"], status: 64, stderr: "--region-column"),
        ExitCase(arguments: ["parse"], status: 64, stderr: "Missing expected argument"),
        ExitCase(arguments: ["render", "--lang", "de", "--code", "123456"], status: 64, stderr: "--app"),
        ExitCase(arguments: ["render", "--lang", "de", "--code", "1", "--app", "A", "--catalog", "/nonexistent"], status: 1, stderr: "cannot read"),
        ExitCase(arguments: ["bogus"], status: 64, stderr: "Unexpected argument 'bogus'"),
        // A bad value of an @OptionGroup option: under ASan this path once exited 1 (see SMSKitCommand.parseCommandLine).
        ExitCase(arguments: ["segments", "--national-tables", "bogus", "x"], status: 64, stderr: "--national-tables"),
    ]

    @Test("exit codes 1 and 64", arguments: exitCases)
    func exitCodes(_ test: ExitCase) throws {
        let result = try CLI.run(test.arguments)
        #expect(result.status == test.status)
        #expect(result.stderr.contains(test.stderr), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func writeErrorIsAFailure() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        let input = try CLI.file("n.txt", String(repeating: "+16502530000\n", count: 50_000))
        let result = try CLI.run(["validate", input], stdoutPath: "/dev/full")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write the output"))
    }

    @Test func closedPipeIsQuietAndSuccessful() throws {
        let input = try CLI.file("n.txt", String(repeating: "+16502530000\n", count: 200_000))
        let result = try CLI.shell("\"$SMSKIT\" validate '\(input)' | head -n 1")
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
    }
}

@Suite("smskit validate")
struct ValidateTests {
    static let csv = """
        number,region
        +1 650-253-0000,
        020 7946 0123,GB
        "(212) 555-0199",US
        not a number,
        030 1234567,de

        """

    @Test func jsonlFieldsAndValues() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let result = try CLI.run(["validate", path, "--format", "jsonl"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let records = try result.jsonLines()
        try #require(records.count == 5)
        for record in records {
            #expect(Set(record.keys) == ["line", "input", "ok", "error", "e164", "possible", "valid", "type", "region", "fictional"])
        }
        #expect(records.map { $0["line"] as? Int } == [2, 3, 4, 5, 6])
        #expect(records[0]["e164"] as? String == "+16502530000")
        #expect(records[0]["valid"] as? Bool == true)
        #expect(records[0]["type"] as? String == "fixed_line_or_mobile")
        #expect(records[0]["region"] as? String == "US")
        #expect(records[0]["possible"] as? String == "is_possible")
        #expect(records[0]["fictional"] is NSNull)
        #expect(records[1]["e164"] as? String == "+442079460123")
        #expect(records[1]["fictional"] as? String == "reserved-for-fiction")
        #expect(records[2]["input"] as? String == "(212) 555-0199")
        #expect(records[2]["fictional"] as? String == "reserved-for-fiction")
        #expect(records[3]["ok"] as? Bool == false)
        #expect(records[3]["error"] as? String == "not_a_number")
        #expect(records[3]["type"] is NSNull)
        #expect(records[4]["e164"] as? String == "+49301234567")
        #expect(records[4]["region"] as? String == "DE")
    }

    @Test func csvAndTSVHaveHeaderRows() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let header = "line,input,ok,error,e164,possible,valid,type,region,fictional"
        let csv = try CLI.run(["validate", path, "--format", "csv"])
        #expect(csv.status == 0)
        #expect(csv.lines.count == 6)
        #expect(csv.lines.first == header)
        #expect(csv.lines[1] == "2,+1 650-253-0000,true,,+16502530000,is_possible,true,fixed_line_or_mobile,US,")
        #expect(csv.lines[4] == "5,not a number,false,not_a_number,,,false,,,")
        let tsv = try CLI.run(["validate", path, "--format", "tsv"])
        #expect(tsv.status == 0)
        #expect(tsv.lines.count == 6)
        #expect(tsv.lines.first == header.replacingOccurrences(of: ",", with: "\t"))
        #expect(tsv.lines[2] == "3\t020 7946 0123\ttrue\t\t+442079460123\tis_possible\ttrue\tfixed_line\tGB\treserved-for-fiction")
    }

    @Test func jsonIsOneArray() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let result = try CLI.run(["validate", path, "--format", "json"])
        #expect(result.status == 0)
        let array = try #require(try result.json() as? [[String: Any]])
        #expect(array.count == 5)
        #expect(array.last?["line"] as? Int == 6)
        let empty = try CLI.run(["validate", path, "--format", "json", "--only", "valid", "--region", "ZZ", "--column", "2"])
        #expect(empty.status == 0)
        #expect((try empty.json() as? [Any])?.isEmpty == true)
    }

    @Test func textFormat() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let result = try CLI.run(["validate", path, "--format", "text"])
        #expect(result.status == 0)
        #expect(result.lines.count == 5)
        #expect(result.lines[0].contains("+16502530000"))
        #expect(result.lines[0].contains("valid"))
        #expect(result.lines[1].contains("fictional: reserved-for-fiction"))
        #expect(result.lines[3].contains("error"))
        #expect(result.lines[3].contains("not_a_number"))
    }

    @Test func stdinLinesWithRegion() throws {
        let input = "+44 20 7946 0000\n07700 900123\n\n0044 20 7946 0999\n"
        let result = try CLI.run(["validate", "--region", "gb"], stdin: Data(input.utf8))
        #expect(result.status == 0)
        let records = try result.jsonLines()
        #expect(records.count == 4)
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(records[0]["e164"] as? String == "+442079460000")
        #expect(records[1]["e164"] as? String == "+447700900123")
        #expect(records[2]["error"] as? String == "not_a_number")
        #expect(records[3]["e164"] as? String == "+442079460999")
        let dash = try CLI.run(["validate", "-", "--region", "GB", "--format", "csv"], stdin: Data(input.utf8))
        #expect(dash.lines.count == 5)
    }

    @Test func badRecordsKeepTheCount() throws {
        var data = Data()
        data.append(contentsOf: Array("+16502530000\n".utf8))                 // 1 valid
        data.append(contentsOf: [0x2B, 0x31, 0x36, 0xFF, 0xFE, 0x30, 0x0A])    // 2 invalid UTF-8
        data.append(contentsOf: Array("+1650\u{0}2530000\n".utf8))            // 3 NUL byte
        data.append(contentsOf: Array("\n".utf8))                               // 4 empty
        data.append(contentsOf: Array(String(repeating: "1", count: 1_048_576).utf8) + [0x0A]) // 5 1 MiB
        data.append(contentsOf: Array("+44 20 7946 0000\r\n".utf8))           // 6 CRLF
        data.append(contentsOf: Array("+33 1 23 45 67 89".utf8))               // 7 no final newline
        let path = try CLI.file("bad.txt", data)
        let result = try CLI.run(["validate", path, "--summary"])
        #expect(result.status == 0)
        let records = try result.jsonLines()
        try #require(records.count == 7)
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6, 7])
        #expect(records.map { $0["error"] as? String } == [nil, "invalid_utf8", "not_a_number", "not_a_number", "line_too_long", nil, nil])
        #expect(records[1]["input"] as? String == "+16\u{FFFD}\u{FFFD}0")
        #expect(records[5]["input"] as? String == "+44 20 7946 0000")
        #expect(records[6]["e164"] as? String == "+33123456789")
        #expect(result.stderr.contains("lines      7"))
        #expect(result.stderr.contains("line_too_long 1"))
        #expect(result.stderr.contains("invalid_utf8 1"))
    }

    @Test func quotedCSVWithEmbeddedNewlinesAndCRLF() throws {
        let csv = "name,phone,country\r\n\"Doe, Jane\",\"+1 650 253 0000\",US\r\n\"Multi\r\nline \"\"quoted\"\" name\",\"020 7946 0000\",GB\r\nBob,\"0301234567\",\r\n"
        let path = try CLI.file("contacts.csv", csv)
        let result = try CLI.run(["validate", path, "--column", "phone", "--region-column", "country", "--region", "DE", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 4)
        #expect(result.lines[1].hasPrefix("2,+1 650 253 0000,true,,+16502530000,"))
        #expect(result.lines[2].hasPrefix("3,020 7946 0000,true,,+442079460000,"))
        #expect(result.lines[3].hasPrefix("5,0301234567,true,,+49301234567,"))
    }

    @Test func namedColumnThatIsMissingIsAUsageError() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let result = try CLI.run(["validate", path, "--column", "telephone"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no column named 'telephone'"))
    }

    @Test func onlyFilters() throws {
        let path = try CLI.file("numbers.csv", Self.csv)
        let valid = try CLI.run(["validate", path, "--only", "valid", "--summary"])
        let invalid = try CLI.run(["validate", path, "--only", "invalid"])
        let validRecords = try valid.jsonLines()
        let invalidRecords = try invalid.jsonLines()
        #expect(validRecords.count + invalidRecords.count == 5)
        #expect(validRecords.allSatisfy { $0["valid"] as? Bool == true })
        #expect(invalidRecords.allSatisfy { $0["valid"] as? Bool == false })
        #expect(valid.stderr.contains("lines      5"))
    }

    @Test func orderIsKeptAcrossChunks() throws {
        let numbers = (0..<5000).map { "+1650253\(String(format: "%04d", $0))" }
        let path = try CLI.file("many.txt", numbers.joined(separator: "\n") + "\n")
        for chunk in ["7", "1000", "16384"] {
            let result = try CLI.run(["validate", path, "--chunk-size", chunk, "--format", "tsv"])
            #expect(result.status == 0)
            let lines = result.lines.dropFirst()
            #expect(lines.count == 5000)
            let e164 = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[4] }
            #expect(e164.map(String.init) == numbers)
        }
    }

    @Test("the chunk size changes nothing in the output: one slice, many chunks in flight, one big chunk",
          arguments: ["jsonl", "json", "csv", "tsv", "text"])
    func chunkSizeDoesNotChangeTheOutput(format: String) throws {
        // Mixed rows, region cells good and bad, so that every slice has errors, regions and warnings.
        let rows = (0..<30_000).map { index -> String in
            switch index % 6 {
            case 0: "+1650253\(String(format: "%04d", index % 10_000)),"
            case 1: "020 7946 \(String(format: "%04d", index % 10_000)),GB"
            case 2: "\"(212) 555-01\(index % 100 < 10 ? "0" : "")\(index % 100)\",US"
            case 3: "not a number \(index),"
            case 4: "030 \(1_000_000 + index),xx1"
            default: "\"+44 \"\"7700\"\" 900\(String(format: "%03d", index % 1000))\",ZZ"
            }
        }
        let path = try CLI.file("mixed.csv", "number,region\n" + rows.joined(separator: "\n") + "\n")
        var outputs: [String: (stdout: Data, stderr: String)] = [:]
        for chunk in ["7", "1024", "4194304"] {
            let result = try CLI.run(["validate", path, "--chunk-size", chunk, "--format", format, "--summary"])
            #expect(result.status == 0)
            let stderr = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("  time") }.joined(separator: "\n")
            outputs[chunk] = (result.stdoutData, stderr)
        }
        let reference = try #require(outputs["7"])
        #expect(reference.stderr.contains("lines      30,000"), "stderr: \(reference.stderr)")
        #expect(reference.stderr.contains("5,000 region cells not an ISO 3166-1 code"), "stderr: \(reference.stderr)")
        for chunk in ["1024", "4194304"] {
            #expect(outputs[chunk]?.stdout == reference.stdout, "--chunk-size \(chunk): stdout differs")
            #expect(outputs[chunk]?.stderr == reference.stderr, "--chunk-size \(chunk): stderr differs")
        }
    }

    @Test func noProgressWhenStderrIsNotATerminal() throws {
        let path = try CLI.file("many.txt", String(repeating: "+16502530000\n", count: 40_000))
        let result = try CLI.run(["validate", path, "--chunk-size", "100"], environment: ["CI": ""])
        #expect(result.status == 0)
        #expect(result.lines.count == 40_000)
        #expect(result.stderr.isEmpty)
    }

    @Test func sampleDataSummary() throws {
        // The README's main-job command, on the bundled sample data.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sample = root.appendingPathComponent("Resources/Samples/numbers.csv").path
        guard FileManager.default.fileExists(atPath: sample) else { return }
        let result = try CLI.run(["validate", sample, "--summary"])
        #expect(result.status == 0)
        let records = try result.jsonLines()
        let rows = try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n").count - 1
        #expect(records.count == rows)
        let grouped = String(rows).reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? "\($0.element)," : "\($0.element)" }.reversed().joined()
        #expect(result.stderr.contains("lines      \(grouped)\n"))
        #expect(result.stderr.contains("region from column 2 (region)"))
        #expect(result.stderr.contains("lines/s"))
    }
}

@Suite("smskit parse, segments, render")
struct DetailCommandTests {
    @Test func parseJSON() throws {
        let result = try CLI.run(["parse", "+1 650-253-0000", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["e164"] as? String == "+16502530000")
        #expect(object["international"] as? String == "+1 650-253-0000")
        #expect(object["national"] as? String == "(650) 253-0000")
        #expect(object["rfc3966"] as? String == "tel:+1-650-253-0000")
        #expect(object["possible"] as? String == "is_possible")
        #expect(object["valid"] as? Bool == true)
        #expect(object["type"] as? String == "fixed_line_or_mobile")
        #expect(object["region"] as? String == "US")
        #expect(object["country_code"] as? Int == 1)
        #expect(object["fictional"] is NSNull)
        #expect((object["metadata_version"] as? String)?.hasPrefix("9.") == true)
    }

    @Test func parseFictionalAndErrors() throws {
        let fictional = try CLI.run(["parse", "020 7946 0000", "--region", "GB", "--format", "json"])
        let object = try #require(try fictional.json() as? [String: Any])
        let range = try #require(object["fictional"] as? [String: Any])
        #expect(range["kind"] as? String == "reserved-for-fiction")
        #expect((range["source"] as? String)?.contains("Ofcom") == true)
        let text = try CLI.run(["parse", "020 7946 0000", "--region", "GB"])
        #expect(text.stdout.contains("international:   +44 20 7946 0000"))
        #expect(text.stdout.contains("fictional:       reserved-for-fiction"))
        let error = try CLI.run(["parse", "hello", "--format", "json"])
        #expect(error.status == 0)
        let failed = try #require(try error.json() as? [String: Any])
        #expect(failed["ok"] as? Bool == false)
        #expect(failed["error"] as? String == "not_a_number")
        #expect(failed["e164"] is NSNull)
    }

    @Test func segmentsGSM() throws {
        let result = try CLI.run(["segments", "Your code is 123456", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["encoding"] as? String == "gsm7")
        #expect(object["length"] as? Int == 19)
        #expect(object["segments"] as? Int == 1)
        #expect((object["unencodable_characters"] as? [Any])?.isEmpty == true)
        let long = try CLI.run(["segments", String(repeating: "a", count: 161)])
        #expect(long.stdout.contains("segments:  2"))
    }

    @Test func segmentsUCS2FromStdin() throws {
        let result = try CLI.run(["segments"], stdin: Data("Code 123456 — 验证码\n".utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("encoding:  UCS-2"))
        #expect(result.stdout.contains("length:    17 UTF-16 units"))
        #expect(result.stdout.contains("U+2014"))
        #expect(result.stdout.contains("U+9A8C"))
        let json = try CLI.run(["segments", "-", "--format", "json"], stdin: Data("验证码".utf8))
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["encoding"] as? String == "ucs2")
        let characters = try #require(object["unencodable_characters"] as? [[String: Any]])
        #expect(characters.map { $0["code_point"] as? String } == ["U+9A8C", "U+8BC1", "U+7801"])
    }

    @Test func segmentsNationalTables() throws {
        let plain = try CLI.run(["segments", "Doğrulama kodunuz: 123456 ş", "--format", "json"])
        let turkish = try CLI.run(["segments", "Doğrulama kodunuz: 123456 ş", "--national-tables", "tr", "--format", "json"])
        #expect((try plain.json() as? [String: Any])?["encoding"] as? String == "ucs2")
        #expect((try turkish.json() as? [String: Any])?["encoding"] as? String == "gsm7")
        let bad = try CLI.run(["segments", "x", "--national-tables", "klingon"])
        #expect(bad.status == 64)
    }

    @Test func render() throws {
        let result = try CLI.run(["render", "--lang", "de", "--code", "123456", "--app", "Acme", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        let text = try #require(object["text"] as? String)
        #expect(text.contains("123456"))
        #expect(text.contains("Acme"))
        #expect(object["locale"] as? String == "de")
        let encoding = try #require(object["encoding"] as? [String: Any])
        #expect(encoding["segments"] as? Int == 1)
        let fallback = try CLI.run(["render", "--lang", "xx-YY", "--code", "123456", "--app", "Acme"])
        #expect(fallback.status == 0)
        #expect(fallback.stdout.contains("locale:    en (requested xx-YY)") || fallback.stdout.contains("locale:    en"))
        #expect(fallback.stdout.contains("diagnostics:"))
    }

    @Test func renderWithExpiryAndWebOTP() throws {
        let result = try CLI.run(["render", "--lang", "en", "--code", "123456", "--app", "Acme", "--minutes", "10", "--webotp", "example.com", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["message"] as? String == "verification_code_expiry")
        let text = try #require(object["text"] as? String)
        #expect(text.contains("10"))
        #expect(text.hasSuffix("@example.com #123456"))
    }
}
