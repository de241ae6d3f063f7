import Foundation
import SMSKitServer
import Testing
@testable import smskit_service

/// The composition root of `smskit serve` and `smskit verify`: one reading of store and sender
/// locations for both, so that `SMSKIT_VERIFY_STORE` means the same thing to each.
@Suite("Store and sender locations")
struct ServiceLocationTests {
    @Test("Store and sender locations parse, with clear errors for unknown schemes")
    func locations() throws {
        #expect(try VerificationStoreLocation(parsing: "memory") == .memory)
        #expect(try VerificationStoreLocation(parsing: "sqlite:/tmp/a.sqlite") == .sqlite(path: "/tmp/a.sqlite"))
        #expect(try VerificationStoreLocation(parsing: "data/v.sqlite") == .sqlite(path: "data/v.sqlite"))
        #expect(try VerificationStoreLocation(parsing: "postgres://u@h:5432/d") == .postgres(url: "postgres://u@h:5432/d"))
        #expect(VerificationStoreLocation.postgres(url: "postgres://u:hunter2@h/d").description == "postgres://u:***@h/d")
        #expect(throws: ServiceConfigurationError.self) { try VerificationStoreLocation(parsing: "redis://h") }
        #expect(try SMSSenderLocation(parsing: "outbox:/tmp/o.jsonl") == .outbox(path: "/tmp/o.jsonl"))
        do {
            _ = try SMSSenderLocation(parsing: "carrier-pigeon:h:2775")
            Issue.record("an unknown scheme was accepted")
        } catch {
            #expect(error.description.contains("Unknown sender scheme 'carrier-pigeon'"))
        }
        let smpp = try SMSSenderLocation(parsing: "smpp://esme:hunter2@127.0.0.1:2775?source=Acme&window=50",
                                         environment: [:])
        #expect(smpp.description == "smpp://esme@127.0.0.1:2775")
        let smpps = try SMSSenderLocation(parsing: "smpps://esme:hunter2@smsc.example:3550?source=Acme&ca_file=/etc/smsc-ca.pem&bind=pair",
                                          environment: [:])
        #expect(smpps.description == "smpps://esme@smsc.example:3550")
        #expect(throws: ServiceConfigurationError.self) { try SMSSenderLocation(parsing: "smpp://esme@127.0.0.1:2775") }
        #expect(throws: ServiceConfigurationError.self) { try SMSSenderLocation(parsing: "outbox:") }
        #expect(throws: ServiceConfigurationError.self) { try SMSSenderLocation(parsing: "no-scheme") }
    }

    /// `smskit` with `arguments` in a fresh directory; `environment` over the test's own, where an
    /// empty value removes a variable.
    static func smskit(_ arguments: [String], environment extra: [String: String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in extra { environment[name] = value.isEmpty ? nil : value }
        return try await ChildProcess.run(try #require(ServeProcess.executable), arguments, environment: environment)
    }

    @Test("smskit verify reads SMSKIT_VERIFY_STORE as smskit serve does: a PostgreSQL URL works")
    func verifyOnPostgres() async throws {
        guard let url = ProcessInfo.processInfo.environment["SMSKIT_TEST_POSTGRES_URL"], !url.isEmpty else {
            print("skipped: SMSKIT_TEST_POSTGRES_URL is not set (.ci/postgres.sh starts a server)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-location-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = directory.appendingPathComponent("outbox.jsonl").path
        let secret = String((0..<64).map { _ in "0123456789abcdef".randomElement()! })
        let environment = ["SMSKIT_VERIFY_STORE": url, "SMSKIT_VERIFY_SECRET": secret, "SMSKIT_VERIFY_SECRET_FILE": ""]
        let number = "+447400" + String(format: "%06d", Int.random(in: 0..<1_000_000))
        let start = try await Self.smskit(["verify", "start", number, "--sender", "outbox:" + outbox, "--format", "json"],
                                          environment: environment)
        #expect(start.status == 0, "\(start.stderr)")
        let started = try JSONSerialization.jsonObject(with: Data(start.stdout.utf8)) as? [String: Any]
        let id = try #require(started?["id"] as? String)
        let line = try #require(try String(contentsOfFile: outbox, encoding: .utf8).split(separator: "\n").last)
        let text = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String)
        let code = String(text.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
        let check = try await Self.smskit(["verify", "check", id, code], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "approved\n")
        // Without a secret there is no file to keep one beside: a clear usage error.
        let noSecret = try await Self.smskit(["verify", "start", number, "--store", url],
                                             environment: ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": ""])
        #expect(noSecret.status == 64)
        #expect(noSecret.stderr.contains("needs the server's secret"), "\(noSecret.stderr)")
    }
}

/// `smskit serve` reads and checks every flag before it opens the store: a usage error leaves no
/// new SQLite file behind.
@Suite("serve opens its store last")
struct ServeStoreOpeningTests {
    @Test("a usage error after --store creates no store file", arguments: [
        ["--monitor", "no-such-rule"], ["--port", "70000"], ["--max-batch", "0"], [],
    ])
    func usageErrorLeavesNoFile(_ extra: [String]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-store-last-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("v.sqlite").path
        // No API keys: the last check of all, after the store location and the guard flags.
        let result = try await ServiceLocationTests.smskit(
            ["serve", "--store", "sqlite:\(path)", "--sender", "outbox:\(directory.path)/o.jsonl"] + extra,
            environment: ["SMSKIT_VERIFY_SECRET": String(repeating: "ab12", count: 16), "SMSKIT_API_KEYS": "", "SMSKIT_KEYS_FILE": ""])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "\(result.stderr)")
    }
}
