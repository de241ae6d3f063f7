import Foundation
import Testing

/// `smskit serve` as a process: the built binary on a free loopback port, called with curl.
final class ServeProcess {
    let process = Process()
    let directory: URL
    let stderrURL: URL
    private(set) var port = 0

    /// A server in a fresh directory (its working directory: the default SQLite store and outbox
    /// land there), with a random verification secret unless `environment` gives one.
    init(_ arguments: [String] = [], keys: String = "e2e-key-0123456789abcdef", environment extra: [String: String] = [:]) throws {
        let binary = try #require(Self.executable, "the smskit binary was not found next to the test bundle")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stderrURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--log-level", "error"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = keys
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        environment.merge(extra) { _, new in new }
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            if let range = stderr.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(stderr[range].split(separator: ":").last ?? "") ?? 0
                break
            }
            usleep(20_000)
        }
        try #require(port > 0, "smskit serve did not report its port; stderr: \(stderr)")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The peak resident memory of the server, in KiB (VmHWM).
    var peakResidentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Waits for the process to end, up to `seconds`; its status, or nil if it is still running.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, process.isRunning { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    static let executable: URL? = {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var current = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = current.appendingPathComponent("smskit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            current = current.deletingLastPathComponent()
        }
        return nil
    }()
}

/// curl's output: the body, and the status from `-w`.
struct Curl {
    var status: Int
    var body: String

    @discardableResult
    static func run(_ arguments: [String], stdin: FileHandle? = nil) throws -> Curl {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "-o", "-", "-w", "\n%{http_code}"] + (arguments.contains("--max-time") ? [] : ["--max-time", "120"]) + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        let statusLine = text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        text.removeLast(statusLine.count + 1)
        return Curl(status: Int(statusLine) ?? 0, body: text)
    }
}

@Suite("smskit serve (the binary)", .serialized)
struct ServeBinaryTests {
    static let key = "e2e-key-0123456789abcdef"

    @Test("Serves on a free loopback port: health, keys, numbers, segments, render")
    func endToEnd() throws {
        let server = try ServeProcess()
        #expect(try Curl.run(["\(server.url)/healthz"]).status == 200)
        let unauthorized = try Curl.run(["-H", "Content-Type: application/json", "-d", #"{"number":"+442079460000"}"#, "\(server.url)/v1/numbers/check"])
        #expect(unauthorized.status == 401)
        #expect(unauthorized.body.contains(#""code":"missing_api_key""#))
        let checked = try Curl.run(["-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/json",
                                    "-d", #"{"number":"020 7946 0000","region":"GB"}"#, "\(server.url)/v1/numbers/check"])
        #expect(checked.status == 200)
        #expect(checked.body.contains(#""e164":"+442079460000""#))
        #expect(checked.body.contains(#""national":"020 7946 0000""#))
        let segments = try Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", #"{"text":"Ваш код 123456"}"#, "\(server.url)/v1/segments"])
        #expect(segments.status == 200)
        #expect(segments.body.contains(#""encoding":"ucs2""#))
        let rendered = try Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", #"{"lang":"tr","code":"123456","app":"Acme"}"#, "\(server.url)/v1/messages/render"])
        #expect(rendered.status == 200)
        #expect(rendered.body.contains("123456"))
        #expect(try Curl.run(["-X", "PUT", "\(server.url)/healthz"]).status == 405)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    /// `smskit` run with `arguments`: its standard output.
    static func cli(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = try #require(ServeProcess.executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "smskit \(arguments.joined(separator: " "))")
        return data
    }

    /// The same document, whatever the whitespace: both parsed and written again with sorted keys.
    static func sameJSON(_ a: Data, _ b: Data, without ignored: Set<String> = []) throws -> Bool {
        var left = try #require(JSONSerialization.jsonObject(with: a) as? [String: Any])
        let right = try #require(JSONSerialization.jsonObject(with: b) as? [String: Any])
        for key in ignored { left[key] = nil }
        return try JSONSerialization.data(withJSONObject: left, options: [.sortedKeys])
            == JSONSerialization.data(withJSONObject: right, options: [.sortedKeys])
    }

    @Test("/v1/segments and /v1/messages/render answer with the CLI's documents, field for field")
    func sameDocumentsAsTheCLI() throws {
        let server = try ServeProcess()
        func post(_ path: String, _ body: [String: Any]) throws -> Data {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let answer = try Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", json, "\(server.url)\(path)"])
            #expect(answer.status == 200, "\(path): \(answer.body)")
            return Data(answer.body.utf8)
        }
        // GSM with an escape, UCS-2 with a character GSM lacks, and a multipart message with smart encoding.
        let texts: [(String, [String], [String: Any])] = [
            ("Your code: [123456] €", [], [:]),
            ("Ваш код 123456 — не сообщайте его", [], [:]),
            (String(repeating: "“Quoted” text… ", count: 14), ["--smart-encoding"], ["smart_encoding": true]),
        ]
        for (text, flags, options) in texts {
            let cli = try Self.cli(["segments", "--format", "json"] + flags + [text])
            let served = try post("/v1/segments", options.merging(["text": text]) { a, _ in a })
            #expect(try Self.sameJSON(cli, served), "\(text)")
        }
        let cli = try Self.cli(["render", "--lang", "pt-BR", "--code", "042917", "--app", "Acme", "--minutes", "10", "--format", "json"])
        let served = try post("/v1/messages/render", ["lang": "pt-BR", "code": "042917", "app": "Acme", "minutes": 10])
        // The CLI also says where the language came from (a flag or a number's region).
        #expect(try Self.sameJSON(cli, served, without: ["language_source", "number_region"]))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("check-stream: 150,000 lines in, 150,000 lines out, memory flat")
    func streamMemory() throws {
        let server = try ServeProcess(["--rate-limit", "0"])
        // Large enough that holding the output (about 39 MiB) would stand far above the fixed
        // cost of answering on every core (a few MiB of thread arenas and chunks in flight).
        let count = 150_000
        let input = server.directory.appendingPathComponent("numbers.ndjson")
        var text = ""
        text.reserveCapacity(count * 40)
        for index in 0..<count { text += #"{"number":"+1 650 253 \#(String(format: "%04d", index % 10_000))"}"# + "\n" }
        try text.write(to: input, atomically: false, encoding: .utf8)
        let before = server.peakResidentKiB
        let result = try Curl.run(["--max-time", "900", "-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/x-ndjson",
                                   "--data-binary", "@\(input.path)", "\(server.url)/v1/numbers/check-stream"])
        #expect(result.status == 200)
        let lines = result.body.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.last?.hasPrefix(#"{"line":\#(count),"#) == true)
        let growth = server.peakResidentKiB - before
        let outputKiB = result.body.utf8.count / 1024
        #expect(growth < outputKiB / 2, "peak RSS grew by \(growth) KiB for \(outputKiB) KiB of output")
        print("check-stream: \(count) lines, \(outputKiB) KiB out, peak RSS growth \(growth) KiB")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("SIGTERM lets an in-flight request finish, then exits 0")
    func drain() throws {
        let server = try ServeProcess()
        let pipe = Pipe()
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "--max-time", "60", "-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/x-ndjson",
                          "-X", "POST", "-T", "-", "\(server.url)/v1/numbers/check-stream"]
        let output = Pipe()
        curl.standardInput = pipe
        curl.standardOutput = output
        try curl.run()
        pipe.fileHandleForWriting.write(Data((#"{"number":"+442079460000"}"# + "\n").utf8))
        usleep(500_000)
        kill(server.process.processIdentifier, SIGTERM)
        usleep(500_000)
        #expect(server.process.isRunning, "the server exited with a request in flight")
        pipe.fileHandleForWriting.write(Data((#"{"number":"+16502530000"}"# + "\n").utf8))
        try pipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("+16502530000") == true)
        #expect(server.waitForExit(seconds: 30) == 0)
        // New connections are refused once it has gone.
        #expect(try Curl.run(["--max-time", "5", "\(server.url)/healthz"]).status == 0)
    }

    @Test("Refuses to start without keys, with a usage error")
    func noKeys() throws {
        let binary = try #require(ServeProcess.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = nil
        environment["SMSKIT_KEYS_FILE"] = nil
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.contains("No API keys"))
    }
}
