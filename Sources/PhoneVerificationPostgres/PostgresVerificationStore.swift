import Foundation
import PhoneVerification
import PostgresNIO

/// A ``VerificationStore`` in PostgreSQL, through postgres-nio: one state shared by many gateway
/// processes on many machines.
///
/// Every operation is one statement or one transaction; check-and-count is
/// `UPDATE ... SET attempts = attempts + 1 WHERE id = $1 AND state = 'open' AND expires_at > $2
/// AND attempts < max_attempts RETURNING ...`, so concurrent checks (from any process) never get
/// more than the permitted attempts. ``createSchema()`` creates the two tables idempotently under
/// an advisory lock (safe when several processes start at once). Times are kept as milliseconds
/// since 1970 (`BIGINT`), digests as `BYTEA`.
///
/// The caller owns the `PostgresClient` and runs it:
///
/// ```swift
/// let client = PostgresClient(configuration: try PostgresVerificationStore.configuration(url: url))
/// let running = Task { await client.run() }
/// let store = PostgresVerificationStore(client: client)
/// try await store.createSchema()
/// let verifier = try PhoneVerifier(store: store, sender: sender, secret: secret)
/// ```
public final class PostgresVerificationStore: VerificationStore {
    private let client: PostgresClient
    private let logger: Logger
    /// The name prefix of the two tables (`<prefix>_verifications`, `<prefix>_counters`).
    public let tablePrefix: String

    private var verifications: String { tablePrefix + "_verifications" }
    private var counters: String { tablePrefix + "_counters" }

    /// A store over a client the caller runs.
    ///
    /// - Parameters:
    ///   - client: The client; run it (`client.run()`) in a task for as long as the store is used.
    ///   - tablePrefix: The tables' name prefix: ASCII letters, digits and `_`, starting with a
    ///     letter; `smskit` by default. Other characters are dropped.
    ///   - logger: Where postgres-nio logs (queries at debug level).
    public init(client: PostgresClient, tablePrefix: String = "smskit",
                logger: Logger = Logger(label: "smskit.verify.postgres")) {
        self.client = client
        self.logger = logger
        let cleaned = String(tablePrefix.unicodeScalars.filter {
            $0.isASCII && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_")
        }.map(Character.init).prefix(40))
        self.tablePrefix = (cleaned.first?.isLetter ?? false) ? cleaned : "smskit"
    }

    /// A client configuration from a URL `postgres://user:password@host:port/database`
    /// (TLS is not required: use it on loopback or a private network, or set `tls` yourself).
    ///
    /// - Parameter url: The URL.
    /// - Returns: The configuration.
    /// - Throws: ``VerificationStoreError`` `.unavailable` when the URL cannot be read.
    public static func configuration(url: String) throws(VerificationStoreError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, let user = components.user, !user.isEmpty else {
            throw VerificationStoreError(.unavailable, "the PostgreSQL URL must look like postgres://user:password@host:port/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// Creates the tables and indexes when missing; safe to call from many processes at once.
    public func createSchema() async throws {
        let lockKey = Int64(0x534D_534B_6974)  // "SMSKit"
        let statements = [
            """
            CREATE TABLE IF NOT EXISTS \(verifications) (
                id TEXT PRIMARY KEY,
                e164 TEXT NOT NULL,
                digest BYTEA NOT NULL,
                key_id TEXT NOT NULL,
                sealed_code BYTEA,
                locale TEXT NOT NULL,
                is_test BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                send_count INTEGER NOT NULL,
                last_sent_at BIGINT NOT NULL,
                state TEXT NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS \(verifications)_e164 ON \(verifications) (e164, created_at)",
            "CREATE INDEX IF NOT EXISTS \(verifications)_expires ON \(verifications) (expires_at)",
            "CREATE TABLE IF NOT EXISTS \(counters) (key TEXT PRIMARY KEY, value BIGINT NOT NULL, window_end BIGINT NOT NULL)",
        ]
        _ = try await run {
            try await self.client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: self.logger)
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
            }
        }
    }

    /// Drops the two tables (for tests and benchmarks that use a table prefix of their own).
    public func dropSchema() async throws {
        _ = try await run {
            try await self.client.query(
                PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(self.verifications), \(self.counters)"), logger: self.logger)
        }
    }

    /// Deletes every verification and counter (for tests and benchmarks).
    public func removeAll() async throws {
        _ = try await run {
            try await self.client.query(PostgresQuery(unsafeSQL: "TRUNCATE \(self.verifications), \(self.counters)"),
                                        logger: self.logger)
        }
    }

    private func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as VerificationStoreError {
            throw error
        } catch is CancellationError {
            throw VerificationStoreError(.timeout, "the PostgreSQL operation was cancelled")
        } catch let error as PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed:
                throw VerificationStoreError(.unavailable, "PostgreSQL cannot be reached")
            case .queryCancelled:
                throw VerificationStoreError(.timeout, "the PostgreSQL query was cancelled")
            default:
                let state = error.serverInfo?[.sqlState] ?? "none"
                throw VerificationStoreError(.unavailable, "PostgreSQL refused the operation (SQLSTATE \(state))")
            }
        } catch {
            throw VerificationStoreError(.unavailable, "the PostgreSQL store failed")
        }
    }

    private static let columns = """
        id, e164, digest, key_id, sealed_code, locale, is_test, created_at, expires_at, attempts, \
        max_attempts, send_count, last_sent_at, state
        """

    private static func record(_ row: PostgresRow) throws -> VerificationRecord {
        let cells = row.makeRandomAccess()
        guard let state = VerificationState(rawValue: try cells["state"].decode(String.self)) else {
            throw VerificationStoreError(.corrupted, "a verification has an unknown state")
        }
        return VerificationRecord(
            id: try cells["id"].decode(String.self), e164: try cells["e164"].decode(String.self),
            digest: Array(try cells["digest"].decode(Data.self)), keyID: try cells["key_id"].decode(String.self),
            sealedCode: try cells["sealed_code"].decode(Data?.self).map { Array($0) },
            locale: try cells["locale"].decode(String.self), isTest: try cells["is_test"].decode(Bool.self),
            createdAt: Date(millisecondsSince1970: try cells["created_at"].decode(Int64.self)),
            expiresAt: Date(millisecondsSince1970: try cells["expires_at"].decode(Int64.self)),
            attempts: Int(try cells["attempts"].decode(Int32.self)),
            maxAttempts: Int(try cells["max_attempts"].decode(Int32.self)),
            sendCount: Int(try cells["send_count"].decode(Int32.self)),
            lastSentAt: Date(millisecondsSince1970: try cells["last_sent_at"].decode(Int64.self)), state: state)
    }

    private func records(_ query: PostgresQuery) async throws -> [VerificationRecord] {
        try await run {
            try await client.query(query, logger: logger).collect().map(Self.record)
        }
    }

    private func fetch(id: String) async throws -> VerificationRecord? {
        try await records("SELECT \(unescaped: Self.columns) FROM \(unescaped: verifications) WHERE id = \(id)").first
    }

    public func insert(_ record: VerificationRecord) async throws {
        let sealed = record.sealedCode.map { Data($0) }
        _ = try await run {
            try await client.query("""
                INSERT INTO \(unescaped: verifications) (\(unescaped: Self.columns)) VALUES (
                \(record.id), \(record.e164), \(Data(record.digest)), \(record.keyID), \(sealed), \(record.locale),
                \(record.isTest), \(record.createdAt.millisecondsSince1970), \(record.expiresAt.millisecondsSince1970),
                \(Int32(record.attempts)), \(Int32(record.maxAttempts)), \(Int32(record.sendCount)),
                \(record.lastSentAt.millisecondsSince1970), \(record.state.rawValue))
                """, logger: logger)
        }
    }

    public func openVerification(e164: String, now: Date) async throws -> VerificationRecord? {
        try await records("""
            SELECT \(unescaped: Self.columns) FROM \(unescaped: verifications)
            WHERE e164 = \(e164) AND state = 'open' AND expires_at > \(now.millisecondsSince1970)
              AND attempts < max_attempts
            ORDER BY created_at DESC LIMIT 1
            """).first
    }

    public func claimResend(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date,
                            lastSentNotAfter notAfter: Date) async throws -> ResendClaim {
        let ms = now.millisecondsSince1970
        let sealed = sealedCode.map { Data($0) }
        if let record = try await records("""
            UPDATE \(unescaped: verifications)
            SET digest = \(Data(digest)), sealed_code = \(sealed), key_id = \(keyID), send_count = send_count + 1,
                last_sent_at = \(ms)
            WHERE id = \(id) AND state = 'open' AND expires_at > \(ms) AND attempts < max_attempts
              AND last_sent_at <= \(notAfter.millisecondsSince1970)
            RETURNING \(unescaped: Self.columns)
            """).first {
            return .claimed(record)
        }
        guard let record = try await fetch(id: id), record.isOpen(at: now) else { return .notOpen }
        return .tooEarly(now.addingTimeInterval(record.lastSentAt.timeIntervalSince(notAfter)))
    }

    public func countAttempt(id: String, now: Date) async throws -> AttemptOutcome {
        let ms = now.millisecondsSince1970
        if let record = try await records("""
            UPDATE \(unescaped: verifications) SET attempts = attempts + 1
            WHERE id = \(id) AND state = 'open' AND expires_at > \(ms) AND attempts < max_attempts
            RETURNING \(unescaped: Self.columns)
            """).first {
            return .counted(record)
        }
        guard let record = try await fetch(id: id) else { return .notFound }
        // Not counted: say why (a state that would allow it now changed after the UPDATE; refuse anyway).
        return record.refusal(at: now) ?? .tooManyAttempts
    }

    public func approve(id: String, now: Date) async throws -> Bool {
        try await run {
            let rows = try await client.query("""
                UPDATE \(unescaped: verifications) SET state = 'approved'
                WHERE id = \(id) AND state = 'open' AND expires_at > \(now.millisecondsSince1970)
                RETURNING id
                """, logger: logger).collect()
            return rows.count == 1
        }
    }

    public func close(id: String) async throws {
        _ = try await run {
            try await client.query(
                "UPDATE \(unescaped: verifications) SET state = 'closed' WHERE id = \(id) AND state = 'open'",
                logger: logger)
        }
    }

    public func consume(counter key: String, limit: Int, window: Duration, now: Date) async throws -> CounterDecision {
        let ms = now.millisecondsSince1970
        let end = ms + window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000
        let limit64 = Int64(limit)
        return try await run {
            let rows = try await client.query("""
                INSERT INTO \(unescaped: counters) AS c (key, value, window_end) VALUES (\(key), 1, \(end))
                ON CONFLICT (key) DO UPDATE SET
                    value = CASE WHEN c.window_end <= \(ms) THEN 1 ELSE c.value + 1 END,
                    window_end = CASE WHEN c.window_end <= \(ms) THEN \(end) ELSE c.window_end END
                WHERE c.window_end <= \(ms) OR c.value < \(limit64)
                RETURNING value, window_end
                """, logger: logger).collect()
            if let row = rows.first {
                let (value, windowEnd) = try row.decode((Int64, Int64).self)
                return CounterDecision(allowed: true, value: Int(value), windowEnd: Date(millisecondsSince1970: windowEnd))
            }
            let current = try await client.query(
                "SELECT value, window_end FROM \(unescaped: counters) WHERE key = \(key)", logger: logger).collect()
            let (value, windowEnd) = try current.first?.decode((Int64, Int64).self) ?? (limit64, end)
            return CounterDecision(allowed: false, value: Int(value), windowEnd: Date(millisecondsSince1970: windowEnd))
        }
    }

    public func counter(_ key: String, now: Date) async throws -> CounterState? {
        try await run {
            let rows = try await client.query("""
                SELECT value, window_end FROM \(unescaped: counters)
                WHERE key = \(key) AND window_end > \(now.millisecondsSince1970)
                """, logger: logger).collect()
            guard let row = rows.first else { return nil }
            let (value, windowEnd) = try row.decode((Int64, Int64).self)
            return CounterState(value: Int(value), windowEnd: Date(millisecondsSince1970: windowEnd))
        }
    }

    public func setCounter(_ key: String, value: Int, until: Date) async throws {
        _ = try await run {
            try await client.query("""
                INSERT INTO \(unescaped: counters) (key, value, window_end) VALUES (\(key), \(Int64(value)), \(until.millisecondsSince1970))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, window_end = excluded.window_end
                """, logger: logger)
        }
    }

    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        let ms = now.millisecondsSince1970
        return try await run {
            let rows = try await client.query("""
                WITH v AS (DELETE FROM \(unescaped: verifications) WHERE expires_at <= \(ms) RETURNING 1),
                     c AS (DELETE FROM \(unescaped: counters) WHERE window_end <= \(ms) RETURNING 1)
                SELECT (SELECT count(*) FROM v) + (SELECT count(*) FROM c)
                """, logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }
}
