import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import SMSKitJSON
import PhoneNumbers
import Testing

import Foundation

/// One document, two front ends: the same input through the built `smskit` binary and through
/// the service in this process, and the same bytes out (the CLI's pretty JSON compacted).
@Suite("Wire goldens: the CLI and the service write the same documents")
struct WireGoldenTests {
    /// The project's sample numbers (`Resources/Samples/numbers.csv`), as (number, region) pairs.
    static func samples() throws -> (path: String, rows: [(number: String, region: String)]) {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/Samples/numbers.csv").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [(String, String)] = []
        for line in text.split(separator: "\n").dropFirst() {
            // Two fields, the first quoted when it holds a comma (the file has no doubled quotes).
            if line.hasPrefix("\"") {
                let end = try #require(line.dropFirst().firstIndex(of: "\""))
                rows.append((String(line[line.index(after: line.startIndex)..<end]), String(line[line.index(end, offsetBy: 2)...])))
            } else {
                let parts = line.split(separator: ",", omittingEmptySubsequences: false)
                rows.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
            }
        }
        return (path, rows)
    }

    /// `smskit` with `arguments`, off the cooperative pool: its standard output.
    /// `stdin`, when given, is the process's standard input (through a file, so that neither
    /// side waits on a full pipe).
    static func cli(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
                    status expected: Int32 = 0) async throws -> Data {
        let binary = try #require(ServeProcess.executable, "the smskit binary was not found next to the test bundle")
        let input: URL? = try stdin.map { data in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-wire-stdin-\(UUID().uuidString)")
            try data.write(to: url)
            return url
        }
        defer { if let input { try? FileManager.default.removeItem(at: input) } }
        let (data, status) = try await withCheckedThrowingContinuation { (done: CheckedContinuation<(Data, Int32), Error>) in
            Thread {
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                do {
                    process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
                    try process.run()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    done.resume(returning: (data, process.terminationStatus))
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
        #expect(status == expected, "smskit \(arguments.joined(separator: " "))")
        return data
    }

    /// JSON text without the whitespace between tokens (strings kept as they are).
    static func compact(_ data: Data) -> Data {
        var out = Data()
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                out.append(byte)
            } else if ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(byte) {
                out.append(byte)
            }
        }
        return out
    }

    static func post(_ app: some ApplicationProtocol, _ path: String, _ body: Data, contentType: String = "application/json",
                     accept: String? = nil) async throws -> Data {
        let headers: HTTPFields = accept.map { [.contentType: contentType, .accept: $0] } ?? [.contentType: contentType]
        return try await app.test(.router) { client in
            try await client.execute(uri: path, method: .post, headers: authorized(headers), body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok, "\(path): \(String(buffer: response.body))")
                return Data(response.body.readableBytesView)
            }
        }
    }

    /// A text for `segments`, with the CLI's flags and the same options as JSON members.
    struct SegmentsCase: Sendable, CustomTestStringConvertible {
        var text: String
        var flags: [String] = []
        var options = ""
        var testDescription: String { String(text.prefix(24)) }
    }

    @Test("Number answer: the writer's static names of types, possibilities and fictional ranges are the engine's raw values")
    func wireNames() {
        #expect(WireNames.allMatch)
    }

    @Test("Number answer: validate --fields with the service's fields is /v1/numbers/check, byte for byte")
    func numberAnswer() async throws {
        let (path, rows) = try Self.samples()
        #expect(rows.count == 1000)
        let fields = NumberAnswerField.service.map(\.rawValue).joined(separator: ",")
        let cli = try await Self.cli(["validate", path, "--format", "jsonl", "--no-progress", "--region-column", "region", "--fields", fields])
        let lines = cli.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == rows.count)

        let queries = rows.map { row -> [String: Any] in row.region.isEmpty ? ["number": row.number] : ["number": row.number, "region": row.region] }
        let app = try makeServer { $0.maxBatchCount = 1000 }.makeApplication()
        let served = try await Self.post(app, "/v1/numbers/check", try JSONSerialization.data(withJSONObject: queries))
        // The service's array holds the CLI's lines.
        let expected = Data("[".utf8) + Data(lines.map { Data($0) }.joined(separator: Data(",".utf8))) + Data("]\n".utf8)
        #expect(served == expected)
        if served != expected {
            let answers = try #require(try JSONSerialization.jsonObject(with: served) as? [Any])
            for (index, line) in lines.enumerated() where index < answers.count {
                let answer = try JSONSerialization.data(withJSONObject: answers[index], options: [.sortedKeys])
                let record = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(line)), options: [.sortedKeys])
                if answer != record {
                    Issue.record("first difference, row \(index): CLI \(String(decoding: record, as: UTF8.self)) service \(String(decoding: answer, as: UTF8.self))")
                    break
                }
            }
        }

        // check-stream: the same answers, each after its line number.
        let ndjson = try queries.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let streamed = try await Self.post(app, "/v1/numbers/check-stream", Data(ndjson.utf8), contentType: "application/x-ndjson")
        let streamedLines = streamed.split(separator: UInt8(ascii: "\n"))
        #expect(streamedLines.count == lines.count)
        for (index, (streamedLine, line)) in zip(streamedLines, lines).enumerated() {
            let prefix = Data(#"{"line":\#(index + 1),"#.utf8)
            #expect(Data(streamedLine) == prefix + Data(line.dropFirst()), "line \(index + 1)")
            if Data(streamedLine) != prefix + Data(line.dropFirst()) { break }
        }
    }

    @Test("Segments analysis: segments --format json is /v1/segments", arguments: [
        SegmentsCase(text: "Your code: [123456] €"),
        SegmentsCase(text: "Ваш код 123456 — не сообщайте его"),
        SegmentsCase(text: String(repeating: "“Quoted” text… ", count: 14), flags: ["--smart-encoding"], options: #","smart_encoding":true"#),
        SegmentsCase(text: "Kodunuz: 123456 ğüşıöç", flags: ["--national-tables", "tr"], options: #","national_tables":"tr""#),
    ])
    func segments(_ c: SegmentsCase) async throws {
        let cli = try await Self.cli(["segments", "--format", "json"] + c.flags + [c.text])
        let app = try makeServer().makeApplication()
        let text = String(decoding: try JSONSerialization.data(withJSONObject: c.text, options: [.fragmentsAllowed]), as: UTF8.self)
        let served = try await Self.post(app, "/v1/segments", Data(#"{"text":\#(text)\#(c.options)}"#.utf8))
        #expect(Self.compact(cli) == Self.compact(served))
    }

    @Test("Rendered message: render --format json is /v1/messages/render (less where the CLI took the language from)")
    func render() async throws {
        let cli = try await Self.cli(["render", "--lang", "pt-BR", "--code", "042917", "--app", "Acme", "--minutes", "10", "--format", "json"])
        let app = try makeServer().makeApplication()
        let body = try JSONSerialization.data(withJSONObject: ["lang": "pt-BR", "code": "042917", "app": "Acme", "minutes": 10])
        let served = try await Self.post(app, "/v1/messages/render", body)
        // The CLI's document has `language_source` and `number_region` after `requested_locale`.
        var expected = String(decoding: Self.compact(cli), as: UTF8.self)
        let extra = try #require(expected.range(of: #","language_source":"lang","number_region":null"#))
        expected.removeSubrange(extra)
        #expect(expected == String(decoding: Self.compact(served), as: UTF8.self))
    }

    /// A text for `find`, with the CLI's options (the service's `region` and `leniency`).
    struct FindCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var region: String?
        var leniency = "valid"
        var testDescription: String { "\(name) \(region ?? "-") \(leniency)" }
    }

    /// Realistic texts: the matcher fixture's (messages in many languages and scripts with each
    /// region's numbers written every way, next to dates, prices and URLs), each region's texts
    /// as one text of many lines, for every tenth region and a few large ones, the leniencies in
    /// turn; the sample numbers file read as text; and texts with no number, several, CRLF and
    /// empty lines, byte order marks (skipped at the start only, as find skips a file's).
    static func findCases() throws -> [FindCase] {
        let path = root.appendingPathComponent("Tests/PhoneNumbersTests/Fixtures/matcher_texts.tsv").path
        var byRegion: [String: [String]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            byRegion[String(fields[1]), default: []].append(String(fields[2]))
        }
        let regions = byRegion.keys.sorted()
        let chosen = regions.enumerated().filter { $0.offset % 10 == 0 }.map(\.element) + ["US", "DE", "GB", "IN", "BR", "ZZ"]
        let leniencies = ["possible", "valid", "strict-grouping", "exact-grouping"]
        var cases = chosen.enumerated().map { index, region in
            FindCase(name: "matcher texts", text: byRegion[region]!.joined(separator: "\n") + "\n",
                     region: region == "ZZ" ? nil : region, leniency: leniencies[index % leniencies.count])
        }
        let samples = try String(contentsOf: root.appendingPathComponent("Resources/Samples/numbers.csv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let half = samples.count / 2
        cases.append(FindCase(name: "numbers.csv 1", text: samples[..<half].joined(separator: "\n"), region: "US"))
        cases.append(FindCase(name: "numbers.csv 2", text: samples[half...].joined(separator: "\n"), region: "GB", leniency: "possible"))
        cases += [
            FindCase(name: "no number", text: "Your order 2023/11/05 ships on 12.01.2024 for $650.25.\nNo phone here.\n", region: "US"),
            FindCase(name: "several", text: "Call +44 20 7946 0123 or 020 7946 0124\r\n\r\nTél. 07400 123456 ext. 12, fax \"020 7946 0125\"\r\n",
                     region: "GB"),
            FindCase(name: "no final line end", text: "(650) 253-0000\t650 2530000", region: "US", leniency: "strict-grouping"),
            FindCase(name: "byte order marks", text: "\u{FEFF}Call +1 650 253 0000\n\u{FEFF}+1 650 253 0001\n"),
        ]
        return cases
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Find result: smskit find on standard input is /v1/numbers/find, as NDJSON, a JSON array and CSV", arguments: try findCases())
    func find(_ c: FindCase) async throws {
        let options = (c.region.map { ["--region", $0] } ?? []) + ["--leniency", c.leniency]
        let cli = try await Self.cli(["find"] + options, stdin: Data(c.text.utf8))
        var query: [String: Any] = ["text": c.text, "leniency": c.leniency]
        if let region = c.region { query["region"] = region }
        let body = try JSONSerialization.data(withJSONObject: query)
        let app = try makeServer().makeApplication()
        let ndjson = try await Self.post(app, "/v1/numbers/find", body, accept: "application/x-ndjson")
        #expect(ndjson == cli)
        if ndjson != cli {
            let served = ndjson.split(separator: UInt8(ascii: "\n")), written = cli.split(separator: UInt8(ascii: "\n"))
            if let index = Array(zip(served, written)).firstIndex(where: { $0 != $1 }) ?? (served.count == written.count ? nil : min(served.count, written.count)) {
                Issue.record("record \(index + 1): CLI \(written.count > index ? String(decoding: written[index], as: UTF8.self) : "-") service \(served.count > index ? String(decoding: served[index], as: UTF8.self) : "-")")
            }
        }
        // The JSON array holds the CLI's lines.
        let lines = cli.split(separator: UInt8(ascii: "\n"))
        let array = try await Self.post(app, "/v1/numbers/find", body)
        #expect(array == Data("[".utf8) + Data(lines.map { Data($0) }.joined(separator: Data(",".utf8))) + Data("]\n".utf8))
        let csv = try await Self.cli(["find", "--format", "csv"] + options, stdin: Data(c.text.utf8))
        #expect(try await Self.post(app, "/v1/numbers/find", body, accept: "text/csv") == csv)
    }

    /// Two inputs for `match`, with the CLI's `--region`.
    struct MatchCase: Sendable, CustomTestStringConvertible {
        var first: String
        var second: String
        var region: String?
        var testDescription: String { "\(first) | \(second) \(region ?? "")" }
    }

    @Test("Match result: smskit match --format json is /v1/numbers/match", arguments: [
        MatchCase(first: "+16502530000", second: "+1 650-253-0000"),
        MatchCase(first: "+1 650 253 0000", second: "650-253-0000"),
        MatchCase(first: "650 253 0000", second: "253 0000"),
        MatchCase(first: "+1 650 253 0000", second: "+44 650 253 0000"),
        MatchCase(first: "+1 650 253 0000 ext 12", second: "+1 650 253 0000 ext 13"),
        MatchCase(first: "abc", second: "123"),
        MatchCase(first: "020 7031 3000 ext. 5", second: "+44 20 7031 3000", region: "GB"),
        MatchCase(first: "020 7031 3000", second: "020 7031 3000", region: "gb"),
        MatchCase(first: "hello", second: "+44 20 7031 3000", region: "GB"),
        MatchCase(first: "03-1234-5678", second: "+81 3 1234 5678", region: "ZZ"),
        MatchCase(first: "٠٢٠ ٧٠٣١ ٣٠٠٠", second: "+44 20 7031 3000", region: "GB"),
        MatchCase(first: "+39 06 1234 5678", second: "06 12345678", region: "IT"),
        MatchCase(first: "tel:+1-650-253-0000;ext=7", second: "\"650\" 253\t0000 x7", region: "US"),
    ])
    func match(_ c: MatchCase) async throws {
        let region = c.region.map { ["--region", $0] } ?? []
        let expected: Int32 = NumberMatchResult(first: c.first, second: c.second, region: c.region.flatMap { $0.uppercased() == "ZZ" ? nil : RegionCode($0) },
                                                engine: PhoneNumberEngine()).match.isMatch ? 0 : 1
        let cli = try await Self.cli(["match", "--format", "json"] + region + ["--", c.first, c.second], status: expected)
        var query: [String: Any] = ["first": c.first, "second": c.second]
        if let region = c.region { query["region"] = region }
        let app = try makeServer().makeApplication()
        let served = try await Self.post(app, "/v1/numbers/match", try JSONSerialization.data(withJSONObject: query))
        #expect(Self.compact(cli) + Data("\n".utf8) == served)
    }

    @Test("Invalid input: what smskit find and match refuse as a usage error, the service refuses with 422 invalid_request")
    func refusals() async throws {
        let app = try makeServer().makeApplication()
        let cases: [(arguments: [String], path: String, body: String)] = [
            (["find", "--region", "GBR"], "/v1/numbers/find", #"{"text":"+1 650 253 0000","region":"GBR"}"#),
            (["find", "--region", "1"], "/v1/numbers/find", #"{"text":"+1 650 253 0000","region":"1"}"#),
            (["find", "--leniency", "sloppy"], "/v1/numbers/find", #"{"text":"+1 650 253 0000","leniency":"sloppy"}"#),
            (["match", "--region", "Germany", "1", "2"], "/v1/numbers/match", #"{"first":"1","second":"2","region":"Germany"}"#),
            (["match", "+16502530000"], "/v1/numbers/match", #"{"first":"+16502530000"}"#),
        ]
        for c in cases {
            let cli = try await Self.cli(c.arguments, stdin: Data("+1 650 253 0000\n".utf8), status: 64)
            #expect(cli.isEmpty)
            try await app.test(.router) { client in
                try await client.execute(uri: c.path, method: .post, headers: authorized(), body: ByteBuffer(string: c.body)) { response in
                    #expect(response.status == .unprocessableContent, "\(c.body)")
                    let code = try errorCode(response)
                    #expect(code == "invalid_request")
                }
            }
        }
    }

    /// A document with the values that differ from run to run (IDs, times) replaced by `*`.
    static func masked(_ data: Data) -> String {
        var text = String(decoding: compact(data), as: UTF8.self)
        for key in ["id", "expires_at", "resend_allowed_at"] {
            text = text.replacingOccurrences(of: #""\#(key)":"[^"]*""#, with: #""\#(key)":"*""#, options: .regularExpression)
        }
        return text
    }

    @Test("Verification documents: verify start|check --format json are the service's start and check answers")
    func verification() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = directory.appendingPathComponent("outbox.jsonl").path
        let common = ["--store", directory.appendingPathComponent("v.sqlite").path, "--format", "json"]
        let environment = ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": "", "SMSKIT_VERIFY_STORE": ""]
        func lastCode(_ path: String) throws -> String {
            let line = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last)
            let text = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String)
            return String(text[try #require(text.range(of: "[0-9]{6}", options: .regularExpression))])
        }

        let cliStart = try await Self.cli(["verify", "start", "+55 11 96123-4567", "--outbox", outbox] + common, environment: environment)
        let id = try #require((try JSONSerialization.jsonObject(with: cliStart) as? [String: Any])?["id"] as? String)
        let code = try lastCode(outbox)
        let wrong = code == "000000" ? "000001" : "000000"
        let cliWrong = try await Self.cli(["verify", "check"] + common + ["--", id, wrong], environment: environment, status: 1)
        let cliRight = try await Self.cli(["verify", "check"] + common + ["--", id, code], environment: environment)
        let cliAgain = try await Self.cli(["verify", "check"] + common + ["--", id, code], environment: environment, status: 1)

        let fixture = try VerificationFixture()
        let app = try fixture.server.makeApplication()
        let served = try await app.test(.router) { client in
            func call(_ uri: String, _ json: String) async throws -> Data {
                try await client.execute(uri: uri, method: .post, headers: authorized(), body: ByteBuffer(string: json)) { response in
                    Data(response.body.readableBytesView)
                }
            }
            let start = try await call("/v1/verifications", #"{"number":"+55 11 96123-4567"}"#)
            let serviceID = try #require((try JSONSerialization.jsonObject(with: start) as? [String: Any])?["id"] as? String)
            let serviceCode = try fixture.code(to: "+5511961234567")
            let serviceWrong = serviceCode == "000000" ? "000001" : "000000"
            return [
                start,
                try await call("/v1/verifications/\(serviceID)/check", #"{"code":"\#(serviceWrong)"}"#),
                try await call("/v1/verifications/\(serviceID)/check", #"{"code":"\#(serviceCode)"}"#),
                try await call("/v1/verifications/\(serviceID)/check", #"{"code":"\#(serviceCode)"}"#),
            ]
        }
        #expect(Self.masked(cliStart) == Self.masked(served[0]))
        #expect(Self.masked(cliWrong) == Self.masked(served[1]))
        #expect(Self.masked(cliRight) == Self.masked(served[2]))
        // A refusal: the service's answer is the CLI's document with an error object added.
        let refused = Self.masked(served[3])
        let cliRefused = Self.masked(cliAgain)
        #expect(refused.hasPrefix(String(cliRefused.dropLast()) + #","error":{"code":"already_used","#), "\(cliRefused) \(refused)")
    }
}

/// The C API and the Python package name the number answer's fields after one table
/// (``NumberAnswerField/bindingNames``): a renamed field in the header, the package or the
/// answer fails here.
@Suite("Wire names: the C header and the Python package follow the number answer")
struct WireBindingNameTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The identifiers declared in the body of `typedef struct smskit_check_result { ... }`.
    static func cResultMembers() throws -> Set<String> {
        let header = try String(contentsOf: root.appendingPathComponent("Sources/CSMSKit/include/smskit.h"), encoding: .utf8)
        let start = try #require(header.range(of: "typedef struct smskit_check_result {"))
        let end = try #require(header.range(of: "} smskit_check_result;", range: start.upperBound..<header.endIndex))
        var members: Set<String> = []
        for line in header[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let code = line.split(separator: "/*").first ?? ""
            guard let declaration = code.split(separator: ";").first else { continue }
            let words = declaration.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "*" })
            if words.count >= 2 { members.insert(String(words[1])) }
        }
        return members
    }

    /// The attributes of the Python `CheckResult` dataclass (`name: type` lines of its body).
    static func pythonResultFields() throws -> Set<String> {
        let source = try String(contentsOf: root.appendingPathComponent("bindings/python/src/smskit/_types.py"), encoding: .utf8)
        let start = try #require(source.range(of: "class CheckResult:"))
        var fields: Set<String> = []
        for line in source[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if !line.isEmpty, !line.hasPrefix(" ") { break }  // the next top-level statement
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("    "), !line.hasPrefix("     "), let colon = trimmed.firstIndex(of: ":") else { continue }
            let name = trimmed[..<colon]
            if name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { fields.insert(String(name)) }
        }
        return fields
    }

    @Test("smskit_check_result has a member for each bound field, named as the table says")
    func cHeader() throws {
        let members = try Self.cResultMembers()
        #expect(members.contains("country_code"), "the parser found \(members)")
        for entry in NumberAnswerField.bindingNames {
            #expect(members.contains(entry.c), "smskit_check_result has no '\(entry.c)' for \(entry.field.rawValue)")
        }
    }

    @Test("CheckResult has an attribute for each bound field, and the CLI agreement test maps them the same way")
    func python() throws {
        let fields = try Self.pythonResultFields()
        #expect(fields.contains("country_code"), "the parser found \(fields)")
        for entry in NumberAnswerField.bindingNames {
            #expect(fields.contains(entry.python), "CheckResult has no '\(entry.python)' for \(entry.field.rawValue)")
        }
        // The package's test compares its columns with `validate --format jsonl` through a map of
        // Python name to CLI name: the same pairs as the table.
        let test = try String(contentsOf: Self.root.appendingPathComponent("bindings/python/tests/test_cli_agreement.py"), encoding: .utf8)
        let map = try #require(test.range(of: "FIELDS = {"))
        let close = try #require(test.range(of: "}", range: map.upperBound..<test.endIndex))
        let pairs = test[map.upperBound..<close.lowerBound].split(separator: ",").compactMap { pair -> (String, String)? in
            let sides = pair.split(separator: ":").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }
            return sides.count == 2 ? (sides[0], sides[1]) : nil
        }
        let expected = NumberAnswerField.bindingNames.map { ($0.python, $0.field.rawValue) }
        #expect(pairs.map { "\($0.0)=\($0.1)" }.sorted() == expected.map { "\($0.0)=\($0.1)" }.sorted())
    }

    @Test("smskit_match_name and the SMSKIT_MATCH_* values name the match result's `match` values")
    func cMatchNames() throws {
        let header = try String(contentsOf: Self.root.appendingPathComponent("Sources/CSMSKit/include/smskit.h"), encoding: .utf8)
        var values: [String: Int] = [:]
        for line in header.split(separator: "\n") where line.hasPrefix("#define SMSKIT_MATCH_") {
            let words = line.split(separator: " ")
            values[words[1].dropFirst("SMSKIT_MATCH_".count).lowercased()] = Int(words[2])
        }
        let names = try String(contentsOf: Self.root.appendingPathComponent("Sources/CSMSKit/smskit_names.c"), encoding: .utf8)
        let table = try #require(names.range(of: "matches[] = {"))
        let close = try #require(names.range(of: "}", range: table.upperBound..<names.endIndex))
        let entries = names[table.upperBound..<close.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        }
        #expect(Set(values.keys) == Set(PhoneNumberMatchType.allCases.map(\.rawValue)), "the header defines \(values.keys.sorted())")
        #expect(Set(entries) == Set(PhoneNumberMatchType.allCases.map(\.rawValue)), "smskit_match_name knows \(entries)")
        for (name, value) in values {
            #expect(entries.indices.contains(value) && entries[value] == name, "SMSKIT_MATCH_\(name.uppercased()) is \(value)")
        }
    }
}
