import Foundation
import GRDB
import PhoneVerification

/// A ``VerificationStore`` in one SQLite file, through GRDB: the embedded default, persistent
/// across restarts and shared by the processes of one machine.
///
/// The file is opened in WAL mode (readers never block the writer). Every operation is one
/// `BEGIN IMMEDIATE` transaction, so check-and-count is atomic across threads and processes;
/// a writer waits up to `busyTimeout` for another. Commits sync to disk at WAL checkpoints by
/// default (``Durability/normal``); pass ``Durability/full`` to sync every commit. A file that is not a SQLite database (or is
/// damaged) gives ``VerificationStoreError/Kind/corrupted``; the schema is created or brought up to
/// date by GRDB's `DatabaseMigrator` when the file is opened.
///
/// ```swift
/// let store = try SQLiteVerificationStore(path: "smskit-verify.sqlite")
/// let verifier = try PhoneVerifier(store: store, sender: OutboxSender(path: "smskit-outbox.jsonl"),
///                                  secret: secret)
/// ```
public final class SQLiteVerificationStore: VerificationStore {
    let pool: DatabasePool

    /// The database file.
    public let path: String

    /// Warnings about the database file and its `-wal` and `-shm` files: those that let other
    /// local users read them (the store creates them `0600`; see ``PhoneVerification/PrivateFile``).
    public let permissionWarnings: [String]

    /// How hard a commit waits for the disk.
    public enum Durability: String, Sendable {
        /// `PRAGMA synchronous = FULL`: every commit is synced to disk (an fsync per operation);
        /// nothing committed is lost on power failure.
        case full
        /// `PRAGMA synchronous = NORMAL`, SQLite's recommendation for WAL: commits survive a crash
        /// of the process, and the file stays consistent on power failure, but the last commits
        /// before a power failure can be lost (syncs happen at checkpoints). The default.
        case normal
    }

    /// The schema version this store writes (kept in `PRAGMA user_version` as well as in GRDB's
    /// `grdb_migrations`, so that versions from before the migrator refuse a newer file).
    public static let schemaVersion = 4

    /// Opens (or creates) the store.
    ///
    /// - Parameters:
    ///   - path: The database file; created with its tables when missing.
    ///   - busyTimeout: How long a write waits for another process's write; 5 seconds by default.
    ///   - durability: Whether each commit is synced to disk (`.full`) or only at WAL checkpoints
    ///     (`.normal`, the default).
    /// - Throws: ``VerificationStoreError``: `.corrupted` when the file is not a SQLite database or
    ///   was written by a newer schema, `.unavailable` when it cannot be opened.
    ///
    /// A new file (and its `-wal` and `-shm` files) gets mode `0600`; an existing one keeps its
    /// mode, and ``permissionWarnings`` says when others can read it.
    public init(path: String, busyTimeout: Duration = .seconds(5),
                durability: Durability = .normal) throws(VerificationStoreError) {
        self.path = path
        var configuration = Configuration()
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        configuration.busyMode = .timeout(TimeInterval(busyTimeout.components.seconds))
        configuration.label = "smskit-verify"
        // SQLite gives the -wal and -shm files the mode of the database file.
        try PrivateFile.create(path)
        var opened: DatabasePool?
        var attempt = 0
        while opened == nil {
            do {
                let candidate = try DatabasePool(path: path, configuration: configuration)
                try Self.migrate(candidate)
                opened = candidate
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 20 {
                // While another connection turns a new file to WAL mode or rebuilds its WAL index,
                // SQLite answers busy at once, without the busy handler: stores opening one new
                // file together would fail where waiting a moment succeeds.
                attempt += 1
                usleep(UInt32(2_000 * attempt))
            } catch {
                throw Self.mapped(error)
            }
        }
        pool = opened!
        permissionWarnings = [path, path + "-wal", path + "-shm"].compactMap(PrivateFile.warning(for:))
    }

    /// Brings the file to the current schema, refusing one written by a newer version.
    ///
    /// Files written before the migrator existed have no `grdb_migrations` table: every migration
    /// is therefore written to be a no-op on the schema it creates, so such a file runs them all and
    /// keeps its rows. Two processes that open a new file at once can both find a migration
    /// unapplied; the one that loses fails to record its identifier (its transaction rolls back),
    /// and a second pass finds everything applied.
    static func migrate(_ pool: DatabasePool) throws {
        let migrator = Self.migrator
        try pool.read { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if try version > schemaVersion || migrator.hasBeenSuperseded(db) {
                throw VerificationStoreError(.corrupted, "the store was written by a newer schema (\(version))")
            }
        }
        do {
            try migrator.migrate(pool)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            try migrator.migrate(pool)
        }
    }

    /// The schema's history, oldest first. A new table or column is a new migration appended here
    /// (idempotent, see ``migrate(_:)``) and a bump of ``schemaVersion``.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS verifications (
                    id TEXT PRIMARY KEY NOT NULL,
                    e164 TEXT NOT NULL,
                    digest BLOB NOT NULL,
                    key_id TEXT NOT NULL,
                    sealed_code BLOB,
                    locale TEXT NOT NULL,
                    is_test INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    attempts INTEGER NOT NULL,
                    max_attempts INTEGER NOT NULL,
                    send_count INTEGER NOT NULL,
                    last_sent_at INTEGER NOT NULL,
                    state TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS verifications_e164 ON verifications (e164, created_at);
                CREATE INDEX IF NOT EXISTS verifications_expires ON verifications (expires_at);
                """)
        }
        // Sliding windows replace the fixed-window counters (transient data, dropped), and a
        // verification keeps its number range for the velocity detector.
        migrator.registerMigration("v2 sliding windows and ranges") { db in
            if try !db.columns(in: "verifications").contains(where: { $0.name == "range_key" }) {
                try db.execute(sql: "ALTER TABLE verifications ADD COLUMN range_key TEXT")
            }
            try db.execute(sql: """
                DROP TABLE IF EXISTS counters;
                CREATE TABLE IF NOT EXISTS windows (
                    key TEXT PRIMARY KEY NOT NULL,
                    bucket_start INTEGER NOT NULL,
                    current_count INTEGER NOT NULL,
                    previous_count INTEGER NOT NULL,
                    blocked_until INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS windows_expires ON windows (expires_at);
                PRAGMA user_version = 2;
                """)
        }
        // The SMS of each verification and their delivery states.
        migrator.registerMigration("v3 messages and delivery states") { db in
            try migrateDelivery(db)
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        // The event log and the webhooks' delivery state.
        migrator.registerMigration("v4 events and webhook deliveries") { db in
            try createEventTables(db)
            try createWebhookTables(db)
            try db.execute(sql: "PRAGMA user_version = 4")
        }
        return migrator
    }

    /// One immediate transaction, its errors mapped to ``VerificationStoreError``.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw Self.mapped(error)
        }
    }

    static func mapped(_ error: any Error) -> VerificationStoreError {
        if let error = error as? VerificationStoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return VerificationStoreError(.corrupted, "the SQLite file is damaged or is not a database")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return VerificationStoreError(.timeout, "the SQLite file stayed locked by another writer")
            case .SQLITE_FULL:
                return VerificationStoreError(.full, "the disk holding the SQLite file is full")
            default:
                return VerificationStoreError(.unavailable, "SQLite error \(error.resultCode.primaryResultCode.rawValue)")
            }
        }
        if error is CancellationError { return VerificationStoreError(.timeout, "cancelled") }
        return VerificationStoreError(.unavailable, "the SQLite store failed")
    }

    static let columns = """
        id, e164, digest, key_id, sealed_code, locale, is_test, created_at, expires_at, attempts, \
        max_attempts, send_count, last_sent_at, state, range_key
        """

    static func record(_ row: Row) throws -> VerificationRecord {
        guard let state = VerificationState(rawValue: row["state"]) else {
            throw VerificationStoreError(.corrupted, "a verification has an unknown state")
        }
        let digest: Data = row["digest"]
        let sealed: Data? = row["sealed_code"]
        return VerificationRecord(
            id: row["id"], e164: row["e164"], digest: Array(digest), keyID: row["key_id"],
            sealedCode: sealed.map { Array($0) }, locale: row["locale"], isTest: row["is_test"],
            createdAt: Date(millisecondsSince1970: row["created_at"]),
            expiresAt: Date(millisecondsSince1970: row["expires_at"]), attempts: row["attempts"],
            maxAttempts: row["max_attempts"], sendCount: row["send_count"],
            lastSentAt: Date(millisecondsSince1970: row["last_sent_at"]), state: state, rangeKey: row["range_key"])
    }

    public func start(_ request: StartRequest) async throws -> StartOutcome {
        try await transaction { db in
            var transaction = Transaction(db: db)
            let outcome = try request.apply(to: &transaction)
            _ = try Self.append(request.events(for: outcome), in: db)
            return outcome
        }
    }

    public func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String,
                            now: Date) async throws -> Bool {
        try await transaction { db in
            try db.cachedStatement(sql: """
                UPDATE verifications SET digest = ?, sealed_code = ?, key_id = ?
                WHERE id = ? AND state = 'open' AND expires_at > ? AND attempts < max_attempts
                """).execute(arguments: [Data(digest), sealedCode.map { Data($0) }, keyID, id, now.millisecondsSince1970])
            return db.changesCount == 1
        }
    }

    public func check(_ request: CheckRequest) async throws -> CheckOutcome {
        try await transaction { db in
            var transaction = Transaction(db: db)
            let outcome = try request.apply(to: &transaction)
            _ = try Self.append(request.events(for: outcome), in: db)
            // In the check's transaction: the approval and its count commit together.
            if let conversion = request.conversion {
                try transaction.count(request.conversionKeys(for: outcome), window: conversion.window, now: conversion.now)
            }
            return outcome
        }
    }

    public func close(id: String) async throws {
        try await transaction { db in
            try db.execute(sql: "UPDATE verifications SET state = 'closed' WHERE id = ? AND state = 'open'", arguments: [id])
        }
    }

    @discardableResult
    public func removeExpired(now: Date, retention: Duration) async throws -> Int {
        let ms = now.millisecondsSince1970
        let cutoff = ms - retention.milliseconds
        return try await transaction { db in
            try Self.reportExpiries(now: ms, in: db)
            try db.execute(sql: "DELETE FROM events WHERE time <= ?", arguments: [cutoff])
            try Self.sweepWebhookDeliveries(cutoff: cutoff, in: db)
            // Messages and their parts go with their verification (foreign keys cascade).
            try db.execute(sql: "DELETE FROM verifications WHERE expires_at <= ?", arguments: [cutoff])
            var removed = db.changesCount
            try db.execute(sql: "DELETE FROM windows WHERE expires_at <= ?", arguments: [ms])
            removed += db.changesCount
            return removed
        }
    }

    public func count(_ keys: [String], window: Duration, now: Date) async throws {
        try await transaction { db in
            var transaction = Transaction(db: db)
            try transaction.count(keys, window: window, now: now)
        }
    }

    public func counters(_ keys: [String]) async throws -> [String: WindowCounter] {
        try await transaction { db in
            let transaction = Transaction(db: db)
            var found: [String: WindowCounter] = [:]
            for key in keys { if let counter = try transaction.counter(key) { found[key] = counter } }
            return found
        }
    }

    public func topCounters(prefix: String, limit: Int, now: Date) async throws -> [(key: String, counter: WindowCounter)] {
        // substr, not LIKE: a prefix may hold LIKE's wildcards (`_`).
        let rows = try await transaction { db in
            try Row.fetchAll(db, sql: """
                SELECT key, bucket_start, current_count, previous_count, blocked_until FROM windows
                WHERE substr(key, 1, ?) = ? AND expires_at > ?
                ORDER BY current_count + previous_count DESC, key LIMIT ?
                """, arguments: [prefix.utf8.count, prefix, now.millisecondsSince1970, max(0, limit)])
                .map { row -> (String, Int64, Int64, Int64, Int64) in (row[0], row[1], row[2], row[3], row[4]) }
        }
        return rows.map { (key: $0.0, counter: WindowCounter(bucketStart: $0.1, current: $0.2, previous: $0.3, blockedUntil: $0.4)) }
    }

    /// How many verifications and windows the file holds (for tests and monitoring).
    package func entryCounts() async throws -> (verifications: Int, windows: Int) {
        try await transaction { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM verifications") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM windows") ?? 0)
        }
    }
}

/// The store's primitives inside one SQLite transaction (cached statements).
struct Transaction: VerificationTransaction {
    let db: Database

    func insert(_ message: DeliveryMessage) throws { try SQLiteVerificationStore.insert(message, db: db) }

    func record(id: String) throws -> VerificationRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(SQLiteVerificationStore.columns) FROM verifications WHERE id = ?"),
                         arguments: [id]).map(SQLiteVerificationStore.record)
    }

    func newestRecord(e164: String) throws -> VerificationRecord? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(SQLiteVerificationStore.columns) FROM verifications WHERE e164 = ?
            ORDER BY created_at DESC, rowid DESC LIMIT 1
            """), arguments: [e164]).map(SQLiteVerificationStore.record)
    }

    func insert(_ record: VerificationRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO verifications (\(SQLiteVerificationStore.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                record.id, record.e164, Data(record.digest), record.keyID, record.sealedCode.map { Data($0) },
                record.locale, record.isTest, record.createdAt.millisecondsSince1970,
                record.expiresAt.millisecondsSince1970, record.attempts, record.maxAttempts,
                record.sendCount, record.lastSentAt.millisecondsSince1970, record.state.rawValue, record.rangeKey])
    }

    func update(_ record: VerificationRecord) throws {
        try db.cachedStatement(sql: """
            UPDATE verifications SET digest = ?, key_id = ?, sealed_code = ?, attempts = ?, send_count = ?,
                last_sent_at = ?, state = ? WHERE id = ?
            """).execute(arguments: [
                Data(record.digest), record.keyID, record.sealedCode.map { Data($0) }, record.attempts,
                record.sendCount, record.lastSentAt.millisecondsSince1970, record.state.rawValue, record.id])
    }

    func counter(_ key: String) throws -> WindowCounter? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT bucket_start, current_count, previous_count, blocked_until FROM windows WHERE key = ?
            """), arguments: [key]).map {
            WindowCounter(bucketStart: $0[0], current: $0[1], previous: $0[2], blockedUntil: $0[3])
        }
    }

    func setCounter(_ key: String, _ counter: WindowCounter, expiresAt: Int64) throws {
        try db.cachedStatement(sql: """
            INSERT INTO windows (key, bucket_start, current_count, previous_count, blocked_until, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET bucket_start = excluded.bucket_start,
                current_count = excluded.current_count, previous_count = excluded.previous_count,
                blocked_until = excluded.blocked_until, expires_at = excluded.expires_at
            """).execute(arguments: [key, counter.bucketStart, counter.current, counter.previous,
                                     counter.blockedUntil, expiresAt])
    }
}
