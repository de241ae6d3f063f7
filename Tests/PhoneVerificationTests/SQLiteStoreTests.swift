import Foundation
import GRDB
import Synchronization
import PhoneVerification
import PhoneVerificationSQLite
import Testing

/// A fresh folder for one test's files.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "smskit-verify-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("SQLiteVerificationStore")
struct SQLiteStoreTests {
    @Test("concurrent checks never allow more than the permitted attempts")
    func concurrentChecks() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await StoreScenarios.concurrentChecks(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("two stores on one file (as two processes): one starts, the other checks")
    func twoInstances() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        let second = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        try await StoreScenarios.twoInstances(first: first, second: second)
    }

    @Test("sliding windows, range velocity, resend claims and secret changes")
    func storeRules() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await StoreScenarios.rules(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("a verification survives closing and reopening the file; the file is in WAL mode")
    func survivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        let clock = ManualClock()
        let sender = RecordingSender()
        var id = ""
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            id = try await verifier.start(phoneNumber: Numbers.us).id
        }
        let code = try #require(sender.lastCode(to: Numbers.us))
        let reopened = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
        #expect(try await reopened.check(id: id, code: code) == .approved(e164: Numbers.us))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    struct Garbage: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let garbage: [Garbage] = [
        Garbage(name: "text", bytes: Array("this is not a database\n".utf8)),
        Garbage(name: "random 64 KiB", bytes: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        Garbage(name: "a SQLite header over garbage",
                bytes: Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xFF, count: 8176)),
    ]

    @Test("a corrupted file gives a typed error, never a crash", arguments: garbage)
    func corrupted(_ garbage: Garbage) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        FileManager.default.createFile(atPath: path, contents: Data(garbage.bytes))
        do {
            let store = try SQLiteVerificationStore(path: path)
            // Opened (SQLite reads lazily): every use must fail as a store fault, never approve.
            let verifier = try makeVerifier(store: store, sender: RecordingSender(), clock: ManualClock())
            let error = await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }
            #expect(error?.code.isStoreFault == true)
        } catch let error as VerificationStoreError {
            #expect(error.kind == .corrupted)
        }
    }

    @Test("a file damaged after use gives a typed error")
    func damagedAfterUse() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        let clock = ManualClock()
        let sender = RecordingSender()
        var id = ""
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            id = try await verifier.start(phoneNumber: Numbers.us).id
        }
        // Checkpointed and closed; now overwrite the pages after the header.
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16_000))
        try handle.close()
        let code = try #require(sender.lastCode(to: Numbers.us))
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            let error = await caught { try await verifier.check(id: id, code: code) }
            #expect(error?.code.isStoreFault == true)
        } catch let error as VerificationStoreError {
            #expect(error.kind == .corrupted)
        }
    }

    /// The schemas that versions before the migrator wrote (by their `user_version`), verbatim.
    static let legacySchemas: [Int: String] = [
        1: """
            CREATE TABLE verifications (
                id TEXT PRIMARY KEY NOT NULL, e164 TEXT NOT NULL, digest BLOB NOT NULL, key_id TEXT NOT NULL,
                sealed_code BLOB, locale TEXT NOT NULL, is_test INTEGER NOT NULL, created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL, attempts INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
                send_count INTEGER NOT NULL, last_sent_at INTEGER NOT NULL, state TEXT NOT NULL);
            CREATE INDEX verifications_e164 ON verifications (e164, created_at);
            CREATE INDEX verifications_expires ON verifications (expires_at);
            CREATE TABLE counters (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL, window_end INTEGER NOT NULL);
            PRAGMA user_version = 1;
            """,
        2: """
            CREATE TABLE verifications (
                id TEXT PRIMARY KEY NOT NULL, e164 TEXT NOT NULL, digest BLOB NOT NULL, key_id TEXT NOT NULL,
                sealed_code BLOB, locale TEXT NOT NULL, is_test INTEGER NOT NULL, created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL, attempts INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
                send_count INTEGER NOT NULL, last_sent_at INTEGER NOT NULL, state TEXT NOT NULL);
            CREATE INDEX verifications_e164 ON verifications (e164, created_at);
            CREATE INDEX verifications_expires ON verifications (expires_at);
            ALTER TABLE verifications ADD COLUMN range_key TEXT;
            CREATE TABLE windows (
                key TEXT PRIMARY KEY NOT NULL, bucket_start INTEGER NOT NULL, current_count INTEGER NOT NULL,
                previous_count INTEGER NOT NULL, blocked_until INTEGER NOT NULL, expires_at INTEGER NOT NULL);
            CREATE INDEX windows_expires ON windows (expires_at);
            PRAGMA user_version = 2;
            """,
    ]

    @Test("a file written before the migrator opens, migrates and keeps its verifications", arguments: [1, 2])
    func migratesLegacyFile(version: Int) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let sender = RecordingSender()
        // A verification as the store writes it, copied into a file that has the old schema.
        let current = directory + "/current.sqlite"
        let id = try await makeVerifier(store: SQLiteVerificationStore(path: current), sender: sender, clock: clock)
            .start(phoneNumber: Numbers.us).id
        let code = try #require(sender.lastCode(to: Numbers.us))
        let legacy = directory + "/legacy.sqlite"
        let schema = try #require(Self.legacySchemas[version])
        let columns = "id, e164, digest, key_id, sealed_code, locale, is_test, created_at, expires_at, attempts, "
            + "max_attempts, send_count, last_sent_at, state" + (version >= 2 ? ", range_key" : "")
        do {
            let queue = try DatabaseQueue(path: legacy)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: schema)
                try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current])
                try db.execute(sql: "INSERT INTO main.verifications (\(columns)) SELECT \(columns) FROM current.verifications")
                if version == 1 { try db.execute(sql: "INSERT INTO counters VALUES ('n:x', 3, 0)") }
                try db.execute(sql: "DETACH DATABASE current")
            }
            try queue.close()
        }
        let store = try SQLiteVerificationStore(path: legacy)
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        #expect(try await verifier.check(id: id, code: code) == .approved(e164: Numbers.us))
        let check = try DatabaseQueue(path: legacy)
        let (userVersion, tables, migrated, migrations) = try await check.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
             try db.columns(in: "verifications").map(\.name),
             try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        }
        try check.close()
        #expect(userVersion == SQLiteVerificationStore.schemaVersion)
        #expect(tables == ["events", "grdb_migrations", "message_parts", "messages", "sqlite_sequence", "verifications",
                           "webhook_cursors", "webhook_deliveries", "windows"])
        #expect(migrated.contains("range_key"))
        #expect(migrations.count == 4)
        // Opening again runs nothing and keeps the row.
        _ = try SQLiteVerificationStore(path: legacy)
        #expect(try await store.entryCounts().verifications == 1)
    }

    @Test("a file migrated by a newer version is refused as corrupted, untouched")
    func newerFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        _ = try SQLiteVerificationStore(path: path)
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99 from the future')") }
            try queue.close()
        }
        #expect(throws: VerificationStoreError.self) { _ = try SQLiteVerificationStore(path: path) }
        do { _ = try SQLiteVerificationStore(path: path) } catch { #expect(error.kind == .corrupted) }
    }

    @Test("stores opening one new file at once all migrate it")
    func concurrentOpens() async throws {
        // Forty new files, six stores opening each at once: SQLite answers busy at once (without
        // the busy handler) to a few of them while another turns the file to WAL mode.
        for _ in 0..<40 {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/v.sqlite"
            // Off the cooperative pool: opening waits on SQLite's locks.
            let failures = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
                DispatchQueue.global().async {
                    let results = Mutex([String]())
                    DispatchQueue.concurrentPerform(iterations: 6) { _ in
                        do { _ = try SQLiteVerificationStore(path: path) } catch { results.withLock { $0.append("\(error)") } }
                    }
                    continuation.resume(returning: results.withLock { $0 })
                }
            }
            #expect(failures.isEmpty)
        }
    }
}
