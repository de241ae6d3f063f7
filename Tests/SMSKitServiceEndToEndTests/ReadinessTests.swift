import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `/readyz` runs the store's readiness probe: a read and a write on its tables.
@Suite("smskit serve: readiness", .serialized)
struct ReadinessTests {
    /// Overwrites the first page of the table `table` in the SQLite file at `path` with garbage
    /// (python3's sqlite3 finds the page), the way a bad disk or a botched copy damages a file.
    static func damage(table: String, in path: String) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (sys.argv[2],)).fetchone()[0]
            size = db.execute("PRAGMA page_size").fetchone()[0]
            db.close()
            with open(sys.argv[1], "r+b") as f:
                f.seek((page - 1) * size)
                f.write(bytes([0xA5]) * size)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, table]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 could not damage the file")
    }

    @Test("A damaged SQLite file makes /readyz 503, as it makes starts 503")
    func damagedSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-readyz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("verify.sqlite").path
        let arguments = ["--store", "sqlite:\(path)", "--sender", "outbox:\(directory.appendingPathComponent("outbox.jsonl").path)"]
        let secret = randomSecret()
        func start(_ server: ServeProcess) async throws -> Int {
            try await Curl.run(["-H", "Authorization: Bearer \(ServeBinaryTests.key)", "-H", "Content-Type: application/json",
                          "-d", #"{"number":"+447400123456"}"#, "\(server.url)/v1/verifications"]).status
        }
        do {
            let server = try await ServeProcess.start(arguments, environment: ["SMSKIT_VERIFY_SECRET": secret])
            #expect(try await Curl.run(["\(server.url)/readyz"]).status == 200)
            #expect(try await start(server) == 200)
            server.signal(SIGTERM)
            #expect(await server.waitForExit(seconds: 30) == 0)
        }
        try await Self.damage(table: "windows", in: path)
        let server = try await ServeProcess.start(arguments, environment: ["SMSKIT_VERIFY_SECRET": secret])
        let ready = try await Curl.run(["\(server.url)/readyz"])
        #expect(ready.status == 503, "\(ready.body)")
        #expect(ready.body.contains(#""code":"store_unavailable""#))
        #expect(try await start(server) == 503)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }
}
