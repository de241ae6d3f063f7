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
/// damaged) gives ``VerificationStoreError/Kind/corrupted``; the schema is created when missing.
///
/// ```swift
/// let store = try SQLiteVerificationStore(path: "smskit-verify.sqlite")
/// let verifier = try PhoneVerifier(store: store, sender: OutboxSender(path: "smskit-outbox.jsonl"),
///                                  secret: secret)
/// ```
public final class SQLiteVerificationStore: VerificationStore {
    private let pool: DatabasePool

    /// The database file.
    public let path: String

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

    /// The schema version this store writes (kept in `PRAGMA user_version`).
    public static let schemaVersion = 1

    /// Opens (or creates) the store.
    ///
    /// - Parameters:
    ///   - path: The database file; created with its tables when missing.
    ///   - busyTimeout: How long a write waits for another process's write; 5 seconds by default.
    ///   - durability: Whether each commit is synced to disk (`.full`) or only at WAL checkpoints
    ///     (`.normal`, the default).
    /// - Throws: ``VerificationStoreError``: `.corrupted` when the file is not a SQLite database or
    ///   was written by a newer schema, `.unavailable` when it cannot be opened.
    public init(path: String, busyTimeout: Duration = .seconds(5),
                durability: Durability = .normal) throws(VerificationStoreError) {
        self.path = path
        var configuration = Configuration()
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        configuration.busyMode = .timeout(TimeInterval(busyTimeout.components.seconds))
        configuration.label = "smskit-verify"
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Self.migrate(db)
                    return .commit
                }
            }
        } catch {
            throw Self.mapped(error)
        }
    }

    private static func migrate(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version > schemaVersion {
            throw VerificationStoreError(.corrupted, "the store was written by a newer schema (\(version))")
        }
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
            CREATE TABLE IF NOT EXISTS counters (
                key TEXT PRIMARY KEY NOT NULL,
                value INTEGER NOT NULL,
                window_end INTEGER NOT NULL
            );
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// One immediate transaction, its errors mapped to ``VerificationStoreError``.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
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

    private static let columns = """
        id, e164, digest, key_id, sealed_code, locale, is_test, created_at, expires_at, attempts, \
        max_attempts, send_count, last_sent_at, state
        """

    private static func record(_ row: Row) throws -> VerificationRecord {
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
            lastSentAt: Date(millisecondsSince1970: row["last_sent_at"]), state: state)
    }

    private static func fetch(_ db: Database, id: String) throws -> VerificationRecord? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM verifications WHERE id = ?", arguments: [id]).map(record)
    }

    public func insert(_ record: VerificationRecord) async throws {
        try await transaction { db in
            try db.execute(
                sql: "INSERT INTO verifications (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [record.id, record.e164, Data(record.digest), record.keyID, record.sealedCode.map { Data($0) },
                            record.locale, record.isTest, record.createdAt.millisecondsSince1970,
                            record.expiresAt.millisecondsSince1970, record.attempts, record.maxAttempts,
                            record.sendCount, record.lastSentAt.millisecondsSince1970, record.state.rawValue])
        }
    }

    public func openVerification(e164: String, now: Date) async throws -> VerificationRecord? {
        let ms = now.millisecondsSince1970
        return try await transaction { db in
            try Row.fetchOne(db, sql: """
                SELECT \(Self.columns) FROM verifications
                WHERE e164 = ? AND state = 'open' AND expires_at > ? AND attempts < max_attempts
                ORDER BY created_at DESC LIMIT 1
                """, arguments: [e164, ms]).map(Self.record)
        }
    }

    public func claimResend(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date,
                            lastSentNotAfter notAfter: Date) async throws -> ResendClaim {
        try await transaction { db in
            guard let record = try Self.fetch(db, id: id), record.isOpen(at: now) else { return .notOpen }
            guard record.lastSentAt <= notAfter else {
                return .tooEarly(now.addingTimeInterval(record.lastSentAt.timeIntervalSince(notAfter)))
            }
            try db.execute(sql: """
                UPDATE verifications SET digest = ?, sealed_code = ?, key_id = ?, send_count = send_count + 1,
                last_sent_at = ? WHERE id = ?
                """, arguments: [Data(digest), sealedCode.map { Data($0) }, keyID, now.millisecondsSince1970, id])
            return try Self.fetch(db, id: id).map { .claimed($0) } ?? .notOpen
        }
    }

    public func countAttempt(id: String, now: Date) async throws -> AttemptOutcome {
        try await transaction { db in
            guard let record = try Self.fetch(db, id: id) else { return .notFound }
            if let refusal = record.refusal(at: now) { return refusal }
            try db.execute(sql: "UPDATE verifications SET attempts = attempts + 1 WHERE id = ?", arguments: [id])
            var counted = record
            counted.attempts += 1
            return .counted(counted)
        }
    }

    public func approve(id: String, now: Date) async throws -> Bool {
        try await transaction { db in
            try db.execute(sql: "UPDATE verifications SET state = 'approved' WHERE id = ? AND state = 'open' AND expires_at > ?",
                           arguments: [id, now.millisecondsSince1970])
            return db.changesCount == 1
        }
    }

    public func close(id: String) async throws {
        try await transaction { db in
            try db.execute(sql: "UPDATE verifications SET state = 'closed' WHERE id = ? AND state = 'open'", arguments: [id])
        }
    }

    public func consume(counter key: String, limit: Int, window: Duration, now: Date) async throws -> CounterDecision {
        let ms = now.millisecondsSince1970
        let end = ms + window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000
        return try await transaction { db in
            var value = 0
            var windowEnd = end
            if let row = try Row.fetchOne(db, sql: "SELECT value, window_end FROM counters WHERE key = ?", arguments: [key]),
               (row["window_end"] as Int64) > ms {
                value = row["value"]
                windowEnd = row["window_end"]
            }
            guard value < limit else {
                return CounterDecision(allowed: false, value: value, windowEnd: Date(millisecondsSince1970: windowEnd))
            }
            try db.execute(sql: """
                INSERT INTO counters (key, value, window_end) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, window_end = excluded.window_end
                """, arguments: [key, value + 1, windowEnd])
            return CounterDecision(allowed: true, value: value + 1, windowEnd: Date(millisecondsSince1970: windowEnd))
        }
    }

    public func counter(_ key: String, now: Date) async throws -> CounterState? {
        let ms = now.millisecondsSince1970
        return try await transaction { db in
            try Row.fetchOne(db, sql: "SELECT value, window_end FROM counters WHERE key = ? AND window_end > ?",
                             arguments: [key, ms]).map {
                CounterState(value: $0["value"], windowEnd: Date(millisecondsSince1970: $0["window_end"]))
            }
        }
    }

    public func setCounter(_ key: String, value: Int, until: Date) async throws {
        try await transaction { db in
            try db.execute(sql: """
                INSERT INTO counters (key, value, window_end) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, window_end = excluded.window_end
                """, arguments: [key, value, until.millisecondsSince1970])
        }
    }

    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        let ms = now.millisecondsSince1970
        return try await transaction { db in
            try db.execute(sql: "DELETE FROM verifications WHERE expires_at <= ?", arguments: [ms])
            var removed = db.changesCount
            try db.execute(sql: "DELETE FROM counters WHERE window_end <= ?", arguments: [ms])
            removed += db.changesCount
            return removed
        }
    }
}
