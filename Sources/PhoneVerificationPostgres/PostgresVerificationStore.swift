import Foundation
import PhoneVerification
import PostgresNIO

/// A ``VerificationStore`` in PostgreSQL, through postgres-nio: one state shared by many gateway
/// processes on many machines.
///
/// A start and a check are each one round trip: a call of a PL/pgSQL function
/// (`<prefix>_start`, `<prefix>_check`) that runs the rules of ``StartRequest`` and
/// ``CheckRequest`` in one transaction, locking the rows it counts (`SELECT ... FOR UPDATE`), so
/// concurrent checks (from any process) never get more than the permitted attempts. A start first
/// takes a transaction-scoped advisory lock on a hash of the number, so concurrent starts for one
/// number run one after the other and see each other's verification (one SMS, not one per
/// request: row locks alone cannot lock a row that does not exist yet). A start that creates a
/// verification records its first message and appends its `started` event in the same statement;
/// with conversion tracking, a check is a transaction whose second statement counts the approval,
/// and a delivery report counts a message that became final in its own transaction, so that each
/// change and its count commit together (see ``ConversionCounting``). The functions
/// compute the sliding windows with the same integer formulas as ``WindowCounter``; the shared store
/// tests hold the three stores equal. ``createSchema()`` creates the tables and functions
/// idempotently under an advisory lock (safe when several processes start at once). Times are kept
/// as milliseconds since 1970 (`BIGINT`), digests as `BYTEA`.
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
    let client: PostgresClient
    let logger: Logger
    /// The name prefix of the tables (`<prefix>_verifications`, `<prefix>_windows`) and functions.
    public let tablePrefix: String

    var verifications: String { tablePrefix + "_verifications" }
    var windows: String { tablePrefix + "_windows" }

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

    /// Creates the tables, indexes and functions when missing (the target's `schema.sql`); safe to
    /// call from many processes at once.
    public func createSchema() async throws {
        let lockKey = Int64(0x534D_534B_6974)  // "SMSKit"
        let statements = PostgresSchema.statements(prefix: tablePrefix)
        _ = try await run {
            try await self.client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: self.logger)
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
            }
        }
    }

    /// Drops the tables and functions (for tests and benchmarks that use a table prefix of their own).
    public func dropSchema() async throws {
        let p = tablePrefix
        _ = try await run {
            try await self.client.query(PostgresQuery(
                unsafeSQL: "DROP FUNCTION IF EXISTS \(p)_start, \(p)_check, \(p)_hit, \(p)_peek, \(p)_weighted, \(p)_record_message"), logger: self.logger)
            for statement in Self.webhookSchemaDrop(p) + Self.eventSchemaDrop(p) {
                try await self.client.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
            }
            try await self.client.query(PostgresQuery(
                unsafeSQL: "DROP TABLE IF EXISTS \(p)_message_parts, \(p)_messages, \(p)_verifications, \(p)_windows, \(p)_counters"),
                logger: self.logger)
        }
    }

    /// How many verifications and windows the tables hold (for tests and monitoring).
    package func entryCounts() async throws -> (verifications: Int, windows: Int) {
        try await run {
            let rows = try await client.query("""
                SELECT (SELECT count(*) FROM \(unescaped: verifications)), (SELECT count(*) FROM \(unescaped: windows))
                """, logger: logger).collect()
            guard let (v, w) = try rows.first?.decode((Int64, Int64).self) else { return (0, 0) }
            return (Int(v), Int(w))
        }
    }

    /// Deletes every verification and window (for tests and benchmarks).
    public func removeAll() async throws {
        _ = try await run {
            try await self.client.query(PostgresQuery(unsafeSQL: "TRUNCATE \(self.verifications), \(self.windows), \(self.tablePrefix)_messages, \(self.tablePrefix)_message_parts, \(self.events), \(self.webhookDeliveries), \(self.tablePrefix)_webhook_cursors"),
                                        logger: self.logger)
        }
    }

    func run<T>(_ body: () async throws -> T) async throws -> T {
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

    public func start(_ request: StartRequest) async throws -> StartOutcome {
        let record = request.record
        let ms = request.now.millisecondsSince1970
        let client = request.clientLimit
        let number = request.numberLimit
        let daily = request.dailyNumberLimit
        let failures = request.failureLimit
        let range = request.range
        let cap = request.regionCap
        let holds = request.holds
        let sealed = record.sealedCode.map { Data($0) }
        // The start's event (StartRequest.events(for:)) is appended in the same statement, so in
        // the same transaction as the state change.
        let started = request.events(for: .created).first?.details.storedJSON ?? "{}"
        // A created verification's first SMS is recorded in the same statement too.
        let message = request.message
        let query: PostgresQuery = try """
            WITH s AS (SELECT * FROM \(unescaped: tablePrefix)_start(
                \(ms), \(record.keyID),
                \(client?.key), \(client.map { Int64($0.limit) }), \(client?.window.windowMilliseconds),
                \(number?.key), \(number.map { Int64($0.limit) }), \(number?.window.windowMilliseconds),
                \(daily?.key), \(daily.map { Int64($0.limit) }), \(daily?.window.windowMilliseconds),
                \(failures?.key), \(failures.map { Int64($0.limit) }), \(failures?.window.windowMilliseconds),
                \(range?.range), \(range.map { Int64($0.threshold) }), \(range?.window.windowMilliseconds),
                \(range.map { Int64($0.minimumSuccessBasisPoints) }), \(range?.block.milliseconds),
                \(request.resendCooldown?.milliseconds),
                \(record.id), \(record.e164), \(Data(record.digest)), \(sealed), \(record.locale), \(record.isTest),
                \(record.expiresAt.millisecondsSince1970), \(Int32(record.maxAttempts)), \(record.rangeKey),
                \(cap?.key), \(cap.map { Int64($0.limit) }), \(cap?.window.windowMilliseconds), \(request.regionCapMonitor),
                \(holds.map(\.key)), \(holds.map { $0.window.windowMilliseconds }),
                \(holds.map { Int64($0.minimumSent) }), \(holds.map { Int64($0.minimumApprovedBasisPoints) }),
                \(holds.map { Int64($0.minimumDeliveredBasisPoints ?? -1) }),
                \(holds.map { $0.duration.milliseconds }), \(holds.map(\.monitor)),
                \(request.sentKeys), \(request.sentWindow.windowMilliseconds), \(range?.monitor ?? false)))
            SELECT s.*, CASE s.outcome
                WHEN 'created' THEN \(unescaped: tablePrefix)_append_event(\(record.id), 'started', \(ms), \(started))
                WHEN 'resend' THEN \(unescaped: tablePrefix)_append_event(s.r_id, 'resent', \(ms), \(started))
                END AS event_cursor,
                CASE WHEN s.outcome = 'created' AND \(message.map { Data($0.tokenDigest) })::BYTEA IS NOT NULL THEN
                    \(unescaped: tablePrefix)_record_message(\(message.map { Data($0.tokenDigest) })::BYTEA, \(record.id),
                        \(message.map { Int32($0.sequence) })::INTEGER, \(message?.createdAt.millisecondsSince1970)::BIGINT,
                        \(message?.locale)::TEXT, \(message.map { $0.parts.map { Int32($0.number) } })::INTEGER[],
                        \(message.map { $0.parts.map(\.state.rawValue) })::TEXT[],
                        \(message.map { $0.parts.map(\.updatedAt.millisecondsSince1970) })::BIGINT[])
                END AS message_parts FROM s
            """
        return try await run {
            guard let row = try await self.client.query(query, logger: logger).collect().first else {
                throw VerificationStoreError(.unavailable, "the start function returned nothing")
            }
            let cells = row.makeRandomAccess()
            let outcome = try cells["outcome"].decode(String.self)
            let monitored = try cells["monitored"].decode(String?.self)?.split(separator: ",").map(String.init) ?? []
            func wrapped(_ outcome: StartOutcome) -> StartOutcome {
                monitored.isEmpty ? outcome : .monitored(monitored, outcome)
            }
            func at() throws -> Date { Date(millisecondsSince1970: try cells["at_ms"].decode(Int64.self)) }
            func retry(_ limit: WindowLimit?) throws -> Date {
                let counter = WindowCounter(bucketStart: try cells["c_bucket"].decode(Int64.self),
                                            current: try cells["c_cur"].decode(Int64.self),
                                            previous: try cells["c_prev"].decode(Int64.self))
                let window = limit?.window.windowMilliseconds ?? 1
                let rolled = counter.rolled(to: ms, window: window)
                return Date(millisecondsSince1970: rolled.retryAt(limit: Int64(limit?.limit ?? 0), window: window, now: ms))
            }
            switch outcome {
            case "created": return wrapped(.created)
            case "capped": return .regionCapped(retryAt: try retry(cap))
            case "held": return .held(key: try cells["held_key"].decode(String.self), until: try at(), newly: false)
            case "held_now": return .held(key: try cells["held_key"].decode(String.self), until: try at(), newly: true)
            case "client": return .clientLimited(retryAt: try retry(client))
            case "number": return .numberLimited(retryAt: try retry(number))
            case "daily": return .numberLimited(retryAt: try retry(daily))
            case "failures":
                let window = failures?.window.windowMilliseconds ?? 1
                let counter = WindowCounter(bucketStart: try cells["c_bucket"].decode(Int64.self),
                                            current: try cells["c_cur"].decode(Int64.self),
                                            previous: try cells["c_prev"].decode(Int64.self)).rolled(to: ms, window: window)
                return .failureLimited(retryAt: Date(millisecondsSince1970: counter.retryInFullAt(
                    limit: Int64(failures?.limit ?? 0), window: window)))
            case "blocked": return .rangeBlocked(until: try at(), newly: false)
            case "blocked_now": return .rangeBlocked(until: try at(), newly: true)
            case "cooldown": return .cooldown(until: try at())
            case "resend":
                return wrapped(.resend(VerificationRecord(
                    id: try cells["r_id"].decode(String.self), e164: record.e164,
                    digest: Array(try cells["r_digest"].decode(Data.self)), keyID: record.keyID,
                    sealedCode: try cells["r_sealed"].decode(Data?.self).map { Array($0) },
                    locale: try cells["r_locale"].decode(String.self), isTest: try cells["r_is_test"].decode(Bool.self),
                    createdAt: Date(millisecondsSince1970: try cells["r_created"].decode(Int64.self)),
                    expiresAt: Date(millisecondsSince1970: try cells["r_expires"].decode(Int64.self)),
                    attempts: Int(try cells["r_attempts"].decode(Int32.self)),
                    maxAttempts: Int(try cells["r_max"].decode(Int32.self)),
                    sendCount: Int(try cells["r_sends"].decode(Int32.self)), lastSentAt: request.now, state: .open,
                    rangeKey: try cells["r_range"].decode(String?.self))))
            default:
                throw VerificationStoreError(.corrupted, "the start function answered an unknown outcome")
            }
        }
    }

    public func count(_ keys: [String], window: Duration, now: Date) async throws {
        guard !keys.isEmpty else { return }
        _ = try await run { try await client.query(countQuery(keys, window: window, now: now), logger: logger).collect() }
    }

    /// One hit in each counter, in one statement; keys are hit in the order given (the verifier
    /// always gives region, range, carrier), so concurrent counts lock rows in one order.
    func countQuery(_ keys: [String], window: Duration, now: Date) -> PostgresQuery {
        """
        SELECT count(*) FROM unnest(\(keys)::TEXT[]) WITH ORDINALITY AS k(key, n),
            LATERAL \(unescaped: tablePrefix)_hit(k.key, NULL, \(window.windowMilliseconds), \(now.millisecondsSince1970)) AS h
        """
    }

    public func counters(_ keys: [String]) async throws -> [String: WindowCounter] {
        guard !keys.isEmpty else { return [:] }
        return try await run {
            var found: [String: WindowCounter] = [:]
            let rows = try await client.query("""
                SELECT key, bucket_start, current_count, previous_count, blocked_until FROM \(unescaped: windows)
                WHERE key = ANY(\(keys)::TEXT[])
                """, logger: logger)
            for try await (key, bucket, current, previous, blocked) in rows.decode((String, Int64, Int64, Int64, Int64).self) {
                found[key] = WindowCounter(bucketStart: bucket, current: current, previous: previous, blockedUntil: blocked)
            }
            return found
        }
    }

    public func topCounters(prefix: String, limit: Int, now: Date) async throws -> [(key: String, counter: WindowCounter)] {
        let ms = now.millisecondsSince1970
        return try await run {
            var found: [(key: String, counter: WindowCounter)] = []
            let rows = try await client.query("""
                SELECT key, bucket_start, current_count, previous_count, blocked_until FROM \(unescaped: windows)
                WHERE left(key, \(Int64(prefix.count))::INTEGER) = \(prefix) AND expires_at > \(ms)
                ORDER BY current_count + previous_count DESC, key COLLATE "C" LIMIT \(Int64(max(0, limit)))
                """, logger: logger)
            for try await (key, bucket, current, previous, blocked) in rows.decode((String, Int64, Int64, Int64, Int64).self) {
                found.append((key: key, counter: WindowCounter(bucketStart: bucket, current: current, previous: previous,
                                                               blockedUntil: blocked)))
            }
            return found
        }
    }

    public func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String,
                            now: Date) async throws -> Bool {
        let ms = now.millisecondsSince1970
        let sealed = sealedCode.map { Data($0) }
        return try await run {
            try await client.query("""
                UPDATE \(unescaped: verifications) SET digest = \(Data(digest)), sealed_code = \(sealed), key_id = \(keyID)
                WHERE id = \(id) AND state = 'open' AND expires_at > \(ms) AND attempts < max_attempts
                RETURNING id
                """, logger: logger).collect().count == 1
        }
    }

    public func check(_ request: CheckRequest) async throws -> CheckOutcome {
        let query: PostgresQuery = try """
            WITH s AS (SELECT * FROM \(unescaped: tablePrefix)_check(\(request.id), \(Data(request.digest)), \(request.keyID),
                \(request.now.millisecondsSince1970), \(request.approvalWindow?.windowMilliseconds),
                \(request.failureWindow?.windowMilliseconds)))
            SELECT s.*, CASE s.outcome
                WHEN 'approved' THEN \(unescaped: tablePrefix)_append_event(\(request.id), 'approved', \(request.now.millisecondsSince1970), '{}')
                WHEN 'incorrect' THEN \(unescaped: tablePrefix)_append_incorrect(\(request.id), \(request.now.millisecondsSince1970), s.r_left)
                END AS event_cursor FROM s
            """
        // Without conversion counting a check is one statement, so one transaction. With it, an
        // approval's count runs in the check's transaction: the approval and its count commit together.
        guard let conversion = request.conversion else {
            return try await run {
                guard let row = try await client.query(query, logger: logger).collect().first else {
                    throw VerificationStoreError(.unavailable, "the check function returned nothing")
                }
                return try Self.checkOutcome(row)
            }
        }
        return try await runEvents {
            try await client.withTransaction(logger: logger) { connection in
                guard let row = try await connection.query(query, logger: logger).collect().first else {
                    throw VerificationStoreError(.unavailable, "the check function returned nothing")
                }
                let outcome = try Self.checkOutcome(row)
                let keys = request.conversionKeys(for: outcome)
                if !keys.isEmpty {
                    try await connection.query(countQuery(keys, window: conversion.window, now: conversion.now), logger: logger)
                }
                return outcome
            }
        }
    }

    private static func checkOutcome(_ row: PostgresRow) throws -> CheckOutcome {
        let cells = row.makeRandomAccess()
        switch try cells["outcome"].decode(String.self) {
        case "approved": return .approved(e164: try cells["r_e164"].decode(String.self))
        case "incorrect": return .incorrect(attemptsLeft: Int(try cells["r_left"].decode(Int32.self)))
        case "not_found": return .notFound
        case "already_used": return .alreadyUsed
        case "closed": return .closed
        case "expired": return .expired
        case "too_many_attempts": return .tooManyAttempts
        case "secret_changed": return .secretChanged
        default: throw VerificationStoreError(.corrupted, "the check function answered an unknown outcome")
        }
    }

    public func close(id: String) async throws {
        _ = try await run {
            try await client.query(
                "UPDATE \(unescaped: verifications) SET state = 'closed' WHERE id = \(id) AND state = 'open'",
                logger: logger)
        }
    }

    @discardableResult
    public func removeExpired(now: Date, retention: Duration) async throws -> Int {
        let ms = now.millisecondsSince1970
        let cutoff = ms - retention.milliseconds
        try await reportExpiries(now: ms)
        return try await run {
            // Messages and their parts go with their verification (foreign keys cascade).
            let rows = try await client.query("""
                WITH v AS (DELETE FROM \(unescaped: verifications) WHERE expires_at <= \(cutoff) RETURNING 1),
                     ev AS (DELETE FROM \(unescaped: events) WHERE time <= \(cutoff) RETURNING cursor),
                     wd AS (DELETE FROM \(unescaped: webhookDeliveries) d WHERE d.queued_at <= \(cutoff)
                            OR d.cursor IN (SELECT cursor FROM ev)),
                     c AS (DELETE FROM \(unescaped: windows) WHERE expires_at <= \(ms) RETURNING 1)
                SELECT (SELECT count(*) FROM v) + (SELECT count(*) FROM c)
                """, logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }
}
