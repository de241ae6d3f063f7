import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The verification endpoints of real `smskit serve` processes: SQLite by default, and two
/// processes sharing one PostgreSQL.
@Suite("smskit serve: verification processes", .serialized)
struct VerificationProcessTests {
    static let key = "e2e-key-0123456789abcdef"
    static let postgresURL = ProcessInfo.processInfo.environment["SMSKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    static func start(_ server: ServeProcess, _ number: String) async throws -> Curl {
        try await Curl.run(["-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                      "-d", #"{"number":"\#(number)","lang":"en"}"#, "\(server.url)/v1/verifications"])
    }

    static func check(_ server: ServeProcess, _ id: String, _ code: String) async throws -> Curl {
        try await check(url: server.url, id, code)
    }

    static func check(url: String, _ id: String, _ code: String) async throws -> Curl {
        try await Curl.run(["-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                      "-d", #"{"code":"\#(code)"}"#, "\(url)/v1/verifications/\(id)/check"])
    }

    static func field(_ name: String, _ body: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
        return object[name] as? String
    }

    /// The code of the last SMS to `e164` in the server's outbox (its working directory).
    static func code(_ server: ServeProcess, to e164: String) async throws -> String {
        let text = try String(contentsOf: server.directory.appendingPathComponent("smskit-outbox.jsonl"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").last { $0.contains(#""to":"\#(e164)""#) }, "no SMS to \(e164)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let sms = try #require(object["text"] as? String)
        let range = try #require(sms.range(of: "[0-9]{6}", options: .regularExpression))
        return String(sms[range])
    }

    /// Polls `/readyz` for up to a minute.
    static func waitUntilReady(_ server: ServeProcess) async throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try await Curl.run(["--max-time", "20", "\(server.url)/readyz"]).status == 200 { return true }
            usleep(200_000)
        }
        return false
    }

    /// A random valid GB mobile number (+447400xxxxxx).
    static func mobile() -> String { "+447400" + String(format: "%06d", Int.random(in: 0..<1_000_000)) }

    @Test("Default store (SQLite in the working directory): SIGTERM lets an in-flight start finish, exit 0; a restart checks it")
    func drainAndRestart() async throws {
        let secret = randomSecret()
        let server = try await ServeProcess.start(environment: ["SMSKIT_VERIFY_SECRET": secret])
        let number = "+447400123456"
        let body = #"{"number":"\#(number)","lang":"en"}"#
        let connection = try RawConnection(port: server.port)
        #expect(connection.send("POST /v1/verifications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.key)\r\n"
                                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(10)))
        usleep(300_000)
        server.signal(SIGTERM)
        usleep(500_000)
        #expect(server.isRunning, "the server exited with a request in flight")
        #expect(connection.send(String(body.dropFirst(10))))
        let response = connection.receiveAll(seconds: 30)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        let id = try #require(Self.field("id", String(response.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")))
        #expect(await server.waitForExit(seconds: 30) == 0)
        #expect(FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("smskit-verify.sqlite").path))

        // The same directory and secret: the verification survived the restart.
        let code = try await Self.code(server, to: number)
        let restarted = try await ServeProcess.start(["--store", server.directory.appendingPathComponent("smskit-verify.sqlite").path],
                                         environment: ["SMSKIT_VERIFY_SECRET": secret])
        let checked = try await Self.check(restarted, id, code)
        #expect(checked.status == 200)
        #expect(Self.field("status", checked.body) == "approved")
        restarted.signal(SIGTERM)
        #expect(await restarted.waitForExit(seconds: 30) == 0)
    }

    @Test("Refuses to start without a verification secret, or with an unknown sender scheme (exit 64)")
    func configurationErrors() async throws {
        for (arguments, secret, message) in [
            ([String](), "", "No verification secret"),
            (["--sender", "sms77://127.0.0.1:2775"], randomSecret(), "Unknown sender scheme 'sms77'"),
            (["--store", "redis://127.0.0.1"], randomSecret(), "Unknown store scheme 'redis'"),
            ([String](), "too-short", "at least 32"),
        ] {
            let refused = try await ServeProcess.refusal(arguments, store: nil, environment: [
                "SMSKIT_API_KEYS": Self.key, "SMSKIT_VERIFY_SECRET": secret, "SMSKIT_VERIFY_SECRET_FILE": "",
            ])
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    @Test("Store down (PostgreSQL on a closed port): 503 store_unavailable with Retry-After, /readyz 503, nothing sent")
    func storeDown() async throws {
        let server = try await ServeProcess.start(["--store", "postgres://smskit@127.0.0.1:1/nothing"])
        let started = try await Curl.run(["-i", "-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/json",
                                    "-d", #"{"number":"+447400123456"}"#, "\(server.url)/v1/verifications"])
        #expect(started.status == 503)
        #expect(started.body.contains(#""code":"store_unavailable""#))
        #expect(started.body.lowercased().contains("retry-after: 5"))
        let checked = try await Self.check(server, "AAAAAAAAAAAAAAAAAAAAAA", "123456")
        #expect(checked.status == 503)
        #expect(checked.body.contains(#""code":"store_unavailable""#))
        #expect(!checked.body.contains(#""status":"approved""#))
        let ready = try await Curl.run(["\(server.url)/readyz"])
        #expect(ready.status == 503)
        #expect(ready.body.contains(#""code":"store_unavailable""#))
        #expect(try await Curl.run(["\(server.url)/healthz"]).status == 200)
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("smskit-outbox.jsonl").path))
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("Secret from a private file, --dev-secret with a warning, guard flags; a readable secret file is refused")
    func secretsAndGuardFlags() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data((randomSecret() + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let fromFile = try await ServeProcess.start(["--store", "memory", "--deny-regions", "FR", "--refuse-types", "none"],
                                        environment: ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": file])
        let denied = try await Self.start(fromFile, "+33612345678")
        #expect(denied.status == 422)
        #expect(denied.body.contains(#""code":"region_not_allowed""#))
        let tollFree = try await Self.start(fromFile, "+18002345678")
        #expect(tollFree.status == 200, "\(tollFree.body)")
        fromFile.signal(SIGTERM)
        #expect(await fromFile.waitForExit(seconds: 30) == 0)

        let development = try await ServeProcess.start(["--store", "memory", "--dev-secret"], environment: ["SMSKIT_VERIFY_SECRET": ""])
        #expect(development.stderr.contains("warning: --dev-secret"))
        #expect(try await Self.start(development, "+447400123456").status == 200)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let refused = try await ServeProcess.refusal(["--secret-file", file], environment: ["SMSKIT_API_KEYS": Self.key, "SMSKIT_VERIFY_SECRET": ""])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("can be read by others"), "\(refused.stderr)")
    }

    @Test("Two processes, one PostgreSQL: started on one, checked on the other; SIGKILL of one loses nothing",
          .enabled(if: postgresURL != nil || isCI))
    func manyProcesses() async throws {
        let url = try #require(Self.postgresURL, "CI=true needs SMSKIT_TEST_POSTGRES_URL")
        // A clean slate for the service's tables (its counters would otherwise carry over runs).
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        psql.arguments = [url, "-q", "-c",
                          "DROP TABLE IF EXISTS smskit_message_parts, smskit_messages, smskit_verifications, smskit_counters"]
        psql.standardOutput = FileHandle.nullDevice
        psql.standardError = FileHandle.nullDevice
        try psql.run()
        psql.waitUntilExit()

        let secret = randomSecret()
        let a = try await ServeProcess.start(["--store", url], environment: ["SMSKIT_VERIFY_SECRET": secret])
        let b = try await ServeProcess.start(["--store", url], environment: ["SMSKIT_VERIFY_SECRET": secret])
        // Ready once each has reached PostgreSQL and made the tables (a probe, polled as a load balancer would).
        #expect(try await Self.waitUntilReady(a))
        #expect(try await Self.waitUntilReady(b))

        // Five verifications started on A.
        var started: [(id: String, e164: String, code: String)] = []
        for _ in 0..<5 {
            let number = Self.mobile()
            let response = try await Self.start(a, number)
            #expect(response.status == 200, "\(response.body)")
            let id = try #require(Self.field("id", response.body))
            started.append((id, number, try await Self.code(a, to: number)))
        }

        // Concurrent wrong codes from both processes never get more than the 5 attempts.
        let contested = started[0]
        let wrong = contested.code == "000000" ? "000001" : "000000"
        let results = Mutex<[Curl]>([])
        let urls = [a.url, b.url]
        let id = contested.id
        await withTaskGroup(of: Curl?.self) { group in
            for index in 0..<10 {
                group.addTask { try? await Self.check(url: urls[index % 2], id, wrong) }
            }
            for await result in group {
                if let result { results.withLock { $0.append(result) } }
            }
        }
        let statuses = results.withLock { $0.map { Self.field("status", $0.body) ?? "?" } }
        #expect(statuses.count == 10)
        #expect(statuses.filter { $0 == "incorrect_code" }.count == 5, "\(statuses)")
        #expect(statuses.filter { $0 == "too_many_attempts" }.count == 5, "\(statuses)")
        #expect(Self.field("status", try await Self.check(b, contested.id, contested.code).body) == "too_many_attempts")

        // A delivery report arriving at B updates the message A recorded; a replay at A is a duplicate.
        let reported = started[1]
        let outbox = try String(contentsOf: a.directory.appendingPathComponent("smskit-outbox.jsonl"), encoding: .utf8)
        let line = try #require(outbox.split(separator: "\n").last { $0.contains(#""to":"\#(reported.e164)""#) })
        let token = try #require(Self.field("delivery_token", String(line)))
        let report = "/v1/delivery-reports/kannel?token=\(token)&part=1&type=1&status=id%3A42%20stat%3ADELIVRD%20err%3A000"
        let viaB = try await Curl.run(["\(b.url)\(report)"])
        #expect(viaB.status == 200 && Self.field("status", viaB.body) == "applied", "\(viaB.body)")
        let replay = try await Curl.run(["\(a.url)\(report)"])
        #expect(replay.status == 200 && Self.field("status", replay.body) == "duplicate", "\(replay.body)")
        let status = try await Curl.run(["-H", "Authorization: Bearer \(Self.key)", "\(a.url)/v1/verifications/\(reported.id)"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])
        let messages = try #require(object["messages"] as? [[String: Any]], "\(status.body)")
        #expect(messages.first?["state"] as? String == "delivered", "\(status.body)")

        // A start in flight on A while A is killed; whatever A answered is in the store.
        let number = Self.mobile()
        let inFlight = Process()
        inFlight.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        inFlight.arguments = ["-sS", "--max-time", "30", "-H", "Authorization: Bearer \(Self.key)", "-H", "Content-Type: application/json",
                              "-d", #"{"number":"\#(number)","lang":"en"}"#, "\(a.url)/v1/verifications"]
        let output = Pipe()
        inFlight.standardOutput = output
        inFlight.standardError = FileHandle.nullDevice
        try inFlight.run()
        usleep(UInt32.random(in: 0...200_000))
        a.signal(SIGKILL)
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        inFlight.waitUntilExit()
        #expect(await a.waitForExit(seconds: 10) != nil)
        if let id = Self.field("id", answer) {
            started.append((id, number, try await Self.code(a, to: number)))
        }

        // B checks every verification A started.
        for verification in started.dropFirst() {
            let checked = try await Self.check(b, verification.id, verification.code)
            #expect(checked.status == 200, "\(checked.body)")
            #expect(Self.field("status", checked.body) == "approved")
            #expect(Self.field("e164", checked.body) == verification.e164)
        }
        #expect(try await Curl.run(["\(b.url)/readyz"]).status == 200)
        b.signal(SIGTERM)
        #expect(await b.waitForExit(seconds: 30) == 0)
    }
}
