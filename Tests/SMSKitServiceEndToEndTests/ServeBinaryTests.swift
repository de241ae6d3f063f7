import Foundation
import Testing

/// `smskit serve` as a process: the built binary on a free loopback port (it binds port 0 and
/// logs the one it got), ready once its log says so, called with curl.
final class ServeProcess: Sendable {
    let child: ChildProcess
    let port: Int

    /// A server in a fresh directory (its working directory: the default SQLite store and outbox
    /// land there), with a random verification secret unless `environment` gives one.
    static func start(_ arguments: [String] = [], keys: String = "e2e-key-0123456789abcdef",
                      environment extra: [String: String] = [:]) async throws -> ServeProcess {
        let binary = try #require(executable, "the smskit binary was not found next to the test bundle")
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = keys
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        environment.merge(extra) { _, new in new }
        let child = try ChildProcess(binary, ["serve", "--port", "0", "--log-level", "error"] + arguments, environment: environment)
        var port = 0
        await child.wait(upTo: 60) {
            let log = child.stderr
            if let range = log.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(log[range].split(separator: ":").last ?? "") ?? 0
            }
            return port > 0 || !child.isRunning
        }
        try #require(port > 0, "smskit serve did not report its port; stderr: \(child.stderr)")
        return ServeProcess(child: child, port: port)
    }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// `smskit serve` with `arguments` (and `--store memory` unless `store` is nil) that it must
    /// refuse: its exit status and standard error. An empty value in `environment` removes the variable.
    static func refusal(_ arguments: [String], store: String? = "memory",
                        environment extra: [String: String] = [:]) async throws -> (status: Int32, stderr: String) {
        let binary = try #require(executable, "the smskit binary was not found next to the test bundle")
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = "e2e-key-0123456789abcdef"
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        for (name, value) in extra { environment[name] = value.isEmpty ? nil : value }
        let storeArguments = store.map { ["--store", $0] } ?? []
        let result = try await ChildProcess.run(binary, ["serve", "--port", "0"] + storeArguments + arguments,
                                                environment: environment, seconds: 60)
        return (result.status, result.stderr)
    }

    var directory: URL { child.directory }
    var processIdentifier: Int32 { child.processIdentifier }
    var isRunning: Bool { child.isRunning }
    var stderr: String { child.stderr }
    var url: String { "http://127.0.0.1:\(port)" }

    /// The peak resident memory of the server, in KiB (VmHWM).
    var peakResidentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    func signal(_ signal: Int32) { child.signal(signal) }

    /// Waits for the process to end, up to `seconds`; its status, or nil if it is still running.
    func waitForExit(seconds: Double) async -> Int32? { await child.waitForExit(seconds: seconds) }

    /// SIGTERM, then its exit status within 30 seconds.
    @discardableResult
    func stop() async -> Int32? { await child.stop() }

    static let executable = BuiltProduct.url("smskit")
}

/// curl's output: the body, and the status from `-w`.
struct Curl {
    var status: Int
    var body: String

    @discardableResult
    static func run(_ arguments: [String], stdin: Data = Data()) async throws -> Curl {
        let maxTime = arguments.contains("--max-time") ? [] : ["--max-time", "120"]
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                                ["-sS", "-o", "-", "-w", "\n%{http_code}"] + maxTime + arguments, stdin: stdin, seconds: 900)
        var text = result.stdout
        let statusLine = text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        text.removeLast(statusLine.count + 1)
        return Curl(status: Int(statusLine) ?? 0, body: text)
    }
}

@Suite("smskit serve (the binary)", .serialized)
struct ServeBinaryTests {
    static let key = "e2e-key-0123456789abcdef"

    @Test("Serves on a free loopback port: health, keys, numbers, segments, render")
    func endToEnd() async throws {
        let server = try await ServeProcess.start()
        #expect(try await Curl.run(["\(server.url)/healthz"]).status == 200)
        let unauthorized = try await Curl.run(["-H", "Content-Type: application/json", "-d", #"{"number":"+442079460000"}"#, "\(server.url)/v1/numbers/check"])
        #expect(unauthorized.status == 401)
        #expect(unauthorized.body.contains(#""code":"missing_api_key""#))
        let checked = try await Curl.run(["-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/json",
                                    "-d", #"{"number":"020 7946 0000","region":"GB"}"#, "\(server.url)/v1/numbers/check"])
        #expect(checked.status == 200)
        #expect(checked.body.contains(#""e164":"+442079460000""#))
        #expect(checked.body.contains(#""national":"020 7946 0000""#))
        let segments = try await Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", #"{"text":"Ваш код 123456"}"#, "\(server.url)/v1/segments"])
        #expect(segments.status == 200)
        #expect(segments.body.contains(#""encoding":"ucs2""#))
        let rendered = try await Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", #"{"lang":"tr","code":"123456","app":"Acme"}"#, "\(server.url)/v1/messages/render"])
        #expect(rendered.status == 200)
        #expect(rendered.body.contains("123456"))
        #expect(try await Curl.run(["-X", "PUT", "\(server.url)/healthz"]).status == 405)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    /// `smskit` run with `arguments`: its standard output.
    static func cli(_ arguments: [String]) async throws -> Data {
        let result = try await ChildProcess.run(try #require(ServeProcess.executable), arguments)
        #expect(result.status == 0, "smskit \(arguments.joined(separator: " ")): \(result.stderr)")
        return Data(result.stdout.utf8)
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
    func sameDocumentsAsTheCLI() async throws {
        let server = try await ServeProcess.start()
        func post(_ path: String, _ body: [String: Any]) async throws -> Data {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let answer = try await Curl.run(["-H", "X-API-Key: \(Self.key)", "-H", "Content-Type: application/json", "-d", json, "\(server.url)\(path)"])
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
            let cli = try await Self.cli(["segments", "--format", "json"] + flags + [text])
            let served = try await post("/v1/segments", options.merging(["text": text]) { a, _ in a })
            #expect(try Self.sameJSON(cli, served), "\(text)")
        }
        let cli = try await Self.cli(["render", "--lang", "pt-BR", "--code", "042917", "--app", "Acme", "--minutes", "10", "--format", "json"])
        let served = try await post("/v1/messages/render", ["lang": "pt-BR", "code": "042917", "app": "Acme", "minutes": 10])
        // The CLI also says where the language came from (a flag or a number's region).
        #expect(try Self.sameJSON(cli, served, without: ["language_source", "number_region"]))
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("check-stream: 150,000 lines in, 150,000 lines out, memory flat")
    func streamMemory() async throws {
        let server = try await ServeProcess.start(["--rate-limit", "0"])
        // Large enough that holding the output (about 39 MiB) would stand far above the fixed
        // cost of answering on every core (a few MiB of thread arenas and chunks in flight).
        let count = 150_000
        let input = server.directory.appendingPathComponent("numbers.ndjson")
        var text = ""
        text.reserveCapacity(count * 40)
        for index in 0..<count { text += #"{"number":"+1 650 253 \#(String(format: "%04d", index % 10_000))"}"# + "\n" }
        try text.write(to: input, atomically: false, encoding: .utf8)
        let before = server.peakResidentKiB
        let result = try await Curl.run(["--max-time", "900", "-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/x-ndjson",
                                   "--data-binary", "@\(input.path)", "\(server.url)/v1/numbers/check-stream"])
        #expect(result.status == 200)
        let lines = result.body.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.last?.hasPrefix(#"{"line":\#(count),"#) == true)
        let growth = server.peakResidentKiB - before
        let outputKiB = result.body.utf8.count / 1024
        #expect(growth < outputKiB / 2, "peak RSS grew by \(growth) KiB for \(outputKiB) KiB of output")
        print("check-stream: \(count) lines, \(outputKiB) KiB out, peak RSS growth \(growth) KiB")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("check-stream: a 100 MB line without a newline is one line_too_long, memory flat")
    func streamHugeLine() async throws {
        let server = try await ServeProcess.start(["--rate-limit", "0", "--max-stream-bytes", "\(200 << 20)"])
        let input = server.directory.appendingPathComponent("one-line.ndjson")
        #expect(FileManager.default.createFile(atPath: input.path, contents: nil))
        let file = try FileHandle(forWritingTo: input)
        let block = Data(repeating: UInt8(ascii: "1"), count: 1 << 20)
        for _ in 0..<100 { file.write(block) }
        try file.close()
        let before = server.peakResidentKiB
        // -T streams the file (as --data-binary would not: it reads it whole first).
        let result = try await Curl.run(["--max-time", "600", "-X", "POST", "-H", "Authorization: Bearer \(Self.key)",
                                         "-H", "Content-Type: application/x-ndjson", "-T", input.path, "\(server.url)/v1/numbers/check-stream"])
        #expect(result.status == 200)
        #expect(result.body == #"{"line":1,"ok":false,"error":"line_too_long","error_message":"The line is longer than 4096 bytes."}"# + "\n")
        // Holding the line would take 100 MiB; the reader holds twice the line limit.
        let growth = server.peakResidentKiB - before
        #expect(growth < 32 << 10, "peak RSS grew by \(growth) KiB for a 100 MiB line")
        print("check-stream: a 100 MiB line, peak RSS growth \(growth) KiB")
        try? FileManager.default.removeItem(at: input)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("SIGTERM lets an in-flight request finish, then exits 0")
    func drain() async throws {
        let server = try await ServeProcess.start()
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
        server.signal(SIGTERM)
        usleep(500_000)
        #expect(server.isRunning, "the server exited with a request in flight")
        pipe.fileHandleForWriting.write(Data((#"{"number":"+16502530000"}"# + "\n").utf8))
        try pipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("+16502530000") == true)
        #expect(await server.waitForExit(seconds: 30) == 0)
        // New connections are refused once it has gone.
        #expect(try await Curl.run(["--max-time", "5", "\(server.url)/healthz"]).status == 0)
    }

    @Test("Refuses to start without keys, with a usage error")
    func noKeys() async throws {
        let refused = try await ServeProcess.refusal([], store: nil, environment: ["SMSKIT_API_KEYS": "", "SMSKIT_KEYS_FILE": ""])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("No API keys"))
    }
}
