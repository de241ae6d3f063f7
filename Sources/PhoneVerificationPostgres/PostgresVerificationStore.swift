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
/// request: row locks alone cannot lock a row that does not exist yet). The functions
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

    /// Creates the tables, indexes and functions when missing; safe to call from many processes at once.
    public func createSchema() async throws {
        let lockKey = Int64(0x534D_534B_6974)  // "SMSKit"
        let p = tablePrefix
        let statements = [
            """
            CREATE TABLE IF NOT EXISTS \(p)_verifications (
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
            "ALTER TABLE \(p)_verifications ADD COLUMN IF NOT EXISTS range_key TEXT",
            "CREATE INDEX IF NOT EXISTS \(p)_verifications_e164 ON \(p)_verifications (e164, created_at)",
            "CREATE INDEX IF NOT EXISTS \(p)_verifications_expires ON \(p)_verifications (expires_at)",
            // Version 1's fixed-window counters (transient data) give way to sliding windows.
            "DROP TABLE IF EXISTS \(p)_counters",
            """
            CREATE TABLE IF NOT EXISTS \(p)_windows (
                key TEXT PRIMARY KEY,
                bucket_start BIGINT NOT NULL,
                current_count BIGINT NOT NULL,
                previous_count BIGINT NOT NULL,
                blocked_until BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS \(p)_windows_expires ON \(p)_windows (expires_at)",
        ] + Self.deliverySchema(prefix: p) + [
            // WindowCounter.rolled(to:window:) then weighted(at:window:).
            """
            CREATE OR REPLACE FUNCTION \(p)_weighted(p_bucket BIGINT, p_cur BIGINT, p_prev BIGINT, p_window BIGINT,
                                                     p_now BIGINT) RETURNS BIGINT LANGUAGE plpgsql IMMUTABLE AS $$
            DECLARE
                b BIGINT := p_now - ((p_now % p_window) + p_window) % p_window;
                bucket BIGINT := p_bucket;
                cur BIGINT := p_cur;
                prev BIGINT := p_prev;
            BEGIN
                IF b = bucket + p_window THEN prev := cur; cur := 0; bucket := b;
                ELSIF b > bucket + p_window THEN RETURN 0;
                END IF;
                RETURN prev * (p_window - least(greatest(p_now - bucket, 0), p_window)) + cur * p_window;
            END $$
            """,
            // WindowCounter.hit(limit:window:now:) on the row, which it locks.
            """
            CREATE OR REPLACE FUNCTION \(p)_hit(p_key TEXT, p_limit BIGINT, p_window BIGINT, p_now BIGINT,
                OUT allowed BOOLEAN, OUT bucket BIGINT, OUT cur BIGINT, OUT prev BIGINT, OUT blocked BIGINT)
            LANGUAGE plpgsql AS $$
            DECLARE
                b BIGINT := p_now - ((p_now % p_window) + p_window) % p_window;
            BEGIN
                INSERT INTO \(p)_windows (key, bucket_start, current_count, previous_count, blocked_until, expires_at)
                VALUES (p_key, b, 0, 0, 0, b + 2 * p_window) ON CONFLICT (key) DO NOTHING;
                SELECT w.bucket_start, w.current_count, w.previous_count, w.blocked_until INTO bucket, cur, prev, blocked
                    FROM \(p)_windows w WHERE w.key = p_key FOR UPDATE;
                IF b = bucket + p_window THEN prev := cur; cur := 0; bucket := b;
                ELSIF b > bucket + p_window THEN prev := 0; cur := 0; bucket := b;
                END IF;
                allowed := p_limit IS NULL OR prev * (p_window - least(greatest(p_now - bucket, 0), p_window))
                    + cur * p_window + p_window <= p_limit * p_window;
                IF allowed THEN cur := cur + 1; END IF;
                UPDATE \(p)_windows w SET bucket_start = bucket, current_count = cur, previous_count = prev,
                    expires_at = greatest(bucket + 2 * p_window, blocked) WHERE w.key = p_key;
            END $$
            """,
            // Version 1 of the start and check functions took fewer arguments (overloads would stay).
            """
            DROP FUNCTION IF EXISTS \(p)_start(BIGINT, TEXT, TEXT, BIGINT, BIGINT, TEXT, BIGINT, BIGINT, TEXT, BIGINT,
                BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, BYTEA, BYTEA, TEXT, BOOLEAN, BIGINT, INTEGER, TEXT)
            """,
            "DROP FUNCTION IF EXISTS \(p)_check(TEXT, BYTEA, TEXT, BIGINT, BIGINT)",
            // Whether one more hit fits in a window (WindowCounter.allows on the rolled row); counts nothing.
            // A refusal answers the row as stored: the caller rolls it to compute when to retry.
            """
            CREATE OR REPLACE FUNCTION \(p)_peek(p_key TEXT, p_limit BIGINT, p_window BIGINT, p_now BIGINT,
                OUT allowed BOOLEAN, OUT bucket BIGINT, OUT cur BIGINT, OUT prev BIGINT)
            LANGUAGE plpgsql AS $$
            BEGIN
                SELECT w.bucket_start, w.current_count, w.previous_count INTO bucket, cur, prev
                    FROM \(p)_windows w WHERE w.key = p_key;
                allowed := NOT FOUND
                    OR \(p)_weighted(bucket, cur, prev, p_window, p_now) + p_window <= p_limit * p_window;
            END $$
            """,
            // StartRequest.apply(to:): reads first, so that a refusal writes nothing; serialised per
            // number by an advisory lock, so that concurrent starts for one number see each other.
            """
            CREATE OR REPLACE FUNCTION \(p)_start(
                p_now BIGINT, p_key_id TEXT,
                p_client_key TEXT, p_client_limit BIGINT, p_client_window BIGINT,
                p_number_key TEXT, p_number_limit BIGINT, p_number_window BIGINT,
                p_daily_key TEXT, p_daily_limit BIGINT, p_daily_window BIGINT,
                p_fail_key TEXT, p_fail_limit BIGINT, p_fail_window BIGINT,
                p_range TEXT, p_threshold BIGINT, p_range_window BIGINT, p_ratio BIGINT, p_block BIGINT,
                p_cooldown BIGINT,
                p_id TEXT, p_e164 TEXT, p_digest BYTEA, p_sealed BYTEA, p_locale TEXT, p_is_test BOOLEAN,
                p_expires BIGINT, p_max_attempts INTEGER, p_range_key TEXT,
                OUT outcome TEXT, OUT at_ms BIGINT, OUT c_bucket BIGINT, OUT c_cur BIGINT, OUT c_prev BIGINT,
                OUT r_id TEXT, OUT r_digest BYTEA, OUT r_sealed BYTEA, OUT r_locale TEXT, OUT r_is_test BOOLEAN,
                OUT r_created BIGINT, OUT r_expires BIGINT, OUT r_attempts INTEGER, OUT r_max INTEGER,
                OUT r_sends INTEGER, OUT r_range TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                h RECORD;
                v RECORD;
                has_open BOOLEAN := false;
                s BIGINT;
                a BIGINT;
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtextextended('\(p)_start:' || p_e164, 0));
                IF p_range IS NOT NULL THEN
                    SELECT w.blocked_until INTO a FROM \(p)_windows w WHERE w.key = 'rs:' || p_range;
                    IF a > p_now THEN outcome := 'blocked'; at_ms := a; RETURN; END IF;
                END IF;
                IF p_cooldown IS NOT NULL THEN
                    SELECT * INTO v FROM \(p)_verifications x WHERE x.e164 = p_e164
                        ORDER BY x.created_at DESC LIMIT 1 FOR UPDATE;
                    IF FOUND AND v.state = 'open' AND v.expires_at > p_now AND v.attempts < v.max_attempts
                       AND v.key_id = p_key_id THEN
                        IF p_now < v.last_sent_at + p_cooldown THEN
                            outcome := 'cooldown'; at_ms := v.last_sent_at + p_cooldown; RETURN;
                        END IF;
                        has_open := true;
                    END IF;
                END IF;
                IF p_number_key IS NOT NULL THEN
                    SELECT * INTO h FROM \(p)_peek(p_number_key, p_number_limit, p_number_window, p_now);
                    IF NOT h.allowed THEN
                        outcome := 'number'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
                    END IF;
                END IF;
                IF p_daily_key IS NOT NULL THEN
                    SELECT * INTO h FROM \(p)_peek(p_daily_key, p_daily_limit, p_daily_window, p_now);
                    IF NOT h.allowed THEN
                        outcome := 'daily'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
                    END IF;
                END IF;
                -- WindowCounter.allowsInFull: both buckets count in full.
                IF p_fail_key IS NOT NULL AND NOT has_open THEN
                    SELECT w.bucket_start, w.current_count, w.previous_count INTO c_bucket, c_cur, c_prev
                        FROM \(p)_windows w WHERE w.key = p_fail_key;
                    IF FOUND THEN
                        a := p_now - ((p_now % p_fail_window) + p_fail_window) % p_fail_window;
                        s := CASE WHEN a <= c_bucket THEN c_prev + c_cur WHEN a = c_bucket + p_fail_window THEN c_cur
                                  ELSE 0 END;
                        IF s + 1 > p_fail_limit THEN outcome := 'failures'; RETURN; END IF;
                    END IF;
                    c_bucket := NULL; c_cur := NULL; c_prev := NULL;
                END IF;
                IF p_client_key IS NOT NULL THEN
                    SELECT * INTO h FROM \(p)_hit(p_client_key, p_client_limit, p_client_window, p_now);
                    IF NOT h.allowed THEN
                        outcome := 'client'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
                    END IF;
                END IF;
                IF p_range IS NOT NULL THEN
                    SELECT * INTO h FROM \(p)_hit('rs:' || p_range, NULL, p_range_window, p_now);
                    s := h.prev * (p_range_window - least(greatest(p_now - h.bucket, 0), p_range_window))
                        + h.cur * p_range_window;
                    IF s > p_threshold * p_range_window THEN
                        SELECT \(p)_weighted(w.bucket_start, w.current_count, w.previous_count, p_range_window, p_now)
                            INTO a FROM \(p)_windows w WHERE w.key = 'ra:' || p_range;
                        IF coalesce(a, 0) * 10000 < s * p_ratio THEN
                            UPDATE \(p)_windows w SET blocked_until = p_now + p_block,
                                expires_at = greatest(w.expires_at, p_now + p_block) WHERE w.key = 'rs:' || p_range;
                            outcome := 'blocked_now'; at_ms := p_now + p_block; RETURN;
                        END IF;
                    END IF;
                END IF;
                IF p_number_key IS NOT NULL THEN
                    PERFORM \(p)_hit(p_number_key, NULL, p_number_window, p_now);
                END IF;
                IF p_daily_key IS NOT NULL THEN
                    PERFORM \(p)_hit(p_daily_key, NULL, p_daily_window, p_now);
                END IF;
                IF has_open THEN
                    UPDATE \(p)_verifications x SET send_count = x.send_count + 1, last_sent_at = p_now WHERE x.id = v.id;
                    outcome := 'resend'; r_id := v.id; r_digest := v.digest; r_sealed := v.sealed_code;
                    r_locale := v.locale; r_is_test := v.is_test; r_created := v.created_at; r_expires := v.expires_at;
                    r_attempts := v.attempts; r_max := v.max_attempts; r_sends := v.send_count + 1; r_range := v.range_key;
                    RETURN;
                END IF;
                INSERT INTO \(p)_verifications (id, e164, digest, key_id, sealed_code, locale, is_test, created_at,
                    expires_at, attempts, max_attempts, send_count, last_sent_at, state, range_key)
                VALUES (p_id, p_e164, p_digest, p_key_id, p_sealed, p_locale, p_is_test, p_now, p_expires, 0,
                    p_max_attempts, 1, p_now, 'open', p_range_key);
                outcome := 'created';
            END $$
            """,
            // CheckRequest.apply(to:).
            """
            CREATE OR REPLACE FUNCTION \(p)_check(p_id TEXT, p_digest BYTEA, p_key_id TEXT, p_now BIGINT, p_window BIGINT,
                p_fail_window BIGINT, OUT outcome TEXT, OUT r_e164 TEXT, OUT r_left INTEGER)
            LANGUAGE plpgsql AS $$
            DECLARE
                v RECORD;
            BEGIN
                SELECT x.e164, x.digest, x.key_id, x.state, x.expires_at, x.attempts, x.max_attempts, x.range_key,
                    x.is_test INTO v
                    FROM \(p)_verifications x WHERE x.id = p_id FOR UPDATE;
                IF NOT FOUND THEN outcome := 'not_found'; RETURN; END IF;
                IF v.state = 'approved' THEN outcome := 'already_used'; RETURN; END IF;
                IF v.state <> 'open' THEN outcome := 'closed'; RETURN; END IF;
                IF p_now >= v.expires_at THEN outcome := 'expired'; RETURN; END IF;
                IF v.attempts >= v.max_attempts THEN outcome := 'too_many_attempts'; RETURN; END IF;
                IF v.key_id <> p_key_id THEN
                    UPDATE \(p)_verifications x SET attempts = x.attempts + 1, state = 'closed' WHERE x.id = p_id;
                    outcome := 'secret_changed'; RETURN;
                END IF;
                -- Constant time: every byte is compared (bit_or over all of them, no early exit).
                IF length(v.digest) = length(p_digest) AND (
                    SELECT bit_or(get_byte(v.digest, i) # get_byte(p_digest, i))
                    FROM generate_series(0, length(p_digest) - 1) AS i) = 0 THEN
                    UPDATE \(p)_verifications x SET attempts = x.attempts + 1, state = 'approved' WHERE x.id = p_id;
                    IF v.range_key IS NOT NULL AND p_window IS NOT NULL THEN
                        PERFORM \(p)_hit('ra:' || v.range_key, NULL, p_window, p_now);
                    END IF;
                    outcome := 'approved'; r_e164 := v.e164; RETURN;
                END IF;
                UPDATE \(p)_verifications x SET attempts = x.attempts + 1 WHERE x.id = p_id;
                IF p_fail_window IS NOT NULL AND NOT v.is_test THEN
                    PERFORM \(p)_hit('f:' || v.e164, NULL, p_fail_window, p_now);
                END IF;
                outcome := 'incorrect'; r_left := greatest(0, v.max_attempts - v.attempts - 1);
            END $$
            """,
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

    /// Drops the tables and functions (for tests and benchmarks that use a table prefix of their own).
    public func dropSchema() async throws {
        let p = tablePrefix
        _ = try await run {
            try await self.client.query(PostgresQuery(
                unsafeSQL: "DROP FUNCTION IF EXISTS \(p)_start, \(p)_check, \(p)_hit, \(p)_peek, \(p)_weighted"), logger: self.logger)
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
            try await self.client.query(PostgresQuery(unsafeSQL: "TRUNCATE \(self.verifications), \(self.windows), \(self.tablePrefix)_messages, \(self.tablePrefix)_message_parts"),
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
        let sealed = record.sealedCode.map { Data($0) }
        let query: PostgresQuery = try """
            SELECT * FROM \(unescaped: tablePrefix)_start(
                \(ms), \(record.keyID),
                \(client?.key), \(client.map { Int64($0.limit) }), \(client?.window.windowMilliseconds),
                \(number?.key), \(number.map { Int64($0.limit) }), \(number?.window.windowMilliseconds),
                \(daily?.key), \(daily.map { Int64($0.limit) }), \(daily?.window.windowMilliseconds),
                \(failures?.key), \(failures.map { Int64($0.limit) }), \(failures?.window.windowMilliseconds),
                \(range?.range), \(range.map { Int64($0.threshold) }), \(range?.window.windowMilliseconds),
                \(range.map { Int64($0.minimumSuccessBasisPoints) }), \(range?.block.milliseconds),
                \(request.resendCooldown?.milliseconds),
                \(record.id), \(record.e164), \(Data(record.digest)), \(sealed), \(record.locale), \(record.isTest),
                \(record.expiresAt.millisecondsSince1970), \(Int32(record.maxAttempts)), \(record.rangeKey))
            """
        return try await run {
            guard let row = try await self.client.query(query, logger: logger).collect().first else {
                throw VerificationStoreError(.unavailable, "the start function returned nothing")
            }
            let cells = row.makeRandomAccess()
            let outcome = try cells["outcome"].decode(String.self)
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
            case "created": return .created
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
                return .resend(VerificationRecord(
                    id: try cells["r_id"].decode(String.self), e164: record.e164,
                    digest: Array(try cells["r_digest"].decode(Data.self)), keyID: record.keyID,
                    sealedCode: try cells["r_sealed"].decode(Data?.self).map { Array($0) },
                    locale: try cells["r_locale"].decode(String.self), isTest: try cells["r_is_test"].decode(Bool.self),
                    createdAt: Date(millisecondsSince1970: try cells["r_created"].decode(Int64.self)),
                    expiresAt: Date(millisecondsSince1970: try cells["r_expires"].decode(Int64.self)),
                    attempts: Int(try cells["r_attempts"].decode(Int32.self)),
                    maxAttempts: Int(try cells["r_max"].decode(Int32.self)),
                    sendCount: Int(try cells["r_sends"].decode(Int32.self)), lastSentAt: request.now, state: .open,
                    rangeKey: try cells["r_range"].decode(String?.self)))
            default:
                throw VerificationStoreError(.corrupted, "the start function answered an unknown outcome")
            }
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
            SELECT * FROM \(unescaped: tablePrefix)_check(\(request.id), \(Data(request.digest)), \(request.keyID),
                \(request.now.millisecondsSince1970), \(request.approvalWindow?.windowMilliseconds),
                \(request.failureWindow?.windowMilliseconds))
            """
        return try await run {
            guard let row = try await client.query(query, logger: logger).collect().first else {
                throw VerificationStoreError(.unavailable, "the check function returned nothing")
            }
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
        return try await run {
            // Messages and their parts go with their verification (foreign keys cascade).
            let rows = try await client.query("""
                WITH v AS (DELETE FROM \(unescaped: verifications) WHERE expires_at <= \(cutoff) RETURNING 1),
                     c AS (DELETE FROM \(unescaped: windows) WHERE expires_at <= \(ms) RETURNING 1)
                SELECT (SELECT count(*) FROM v) + (SELECT count(*) FROM c)
                """, logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }
}
