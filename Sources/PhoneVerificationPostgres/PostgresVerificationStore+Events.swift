import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore: VerificationEventStore {
    var events: String { tablePrefix + "_events" }

    /// The event log's table and functions.
    ///
    /// A cursor is the appending transaction's ID (`pg_current_xact_id()`) times 2^16 plus the
    /// event's place in that transaction, so no store-wide lock is needed to draw one; readers take
    /// only cursors below `eventHorizon`, the oldest transaction still running in their snapshot
    /// (`pg_snapshot_xmin`) times 2^16. Every transaction under it has ended, and every transaction
    /// that has not is at or above it: a reader that goes on from the last cursor it saw never skips
    /// an event that commits later, whichever of two writers commits first.
    ///
    /// Order per verification: every transaction that appends a verification's events takes the
    /// verification's event lock (`<prefix>_lock_events`) before it writes anything, and holds it
    /// to its commit, so the next writer's transaction ID, drawn after that commit, is higher:
    /// sequences and cursors of one verification increase together. `<prefix>_append_event` checks
    /// it and refuses (SQLSTATE 40001) an event that would sort before one already stored, which a
    /// transaction that wrote before it locked could cause. 2^16 events a transaction and
    /// transaction IDs below 2^37 keep cursors exact in JSON numbers (doubles).
    static func eventSchema(_ p: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(p)_events (
                cursor BIGINT PRIMARY KEY,
                verification_id TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                kind TEXT NOT NULL,
                time BIGINT NOT NULL,
                details TEXT NOT NULL,
                UNIQUE (verification_id, sequence)
            )
            """,
            // Earlier versions drew cursors from an identity column under a store-wide lock; their
            // cursors count events, so they stay below those of transaction IDs (old cursors work).
            "ALTER TABLE \(p)_events ALTER COLUMN cursor DROP IDENTITY IF EXISTS",
            "CREATE INDEX IF NOT EXISTS \(p)_events_time ON \(p)_events (time)",
            """
            CREATE OR REPLACE FUNCTION \(p)_lock_events(p_vid TEXT) RETURNS VOID LANGUAGE sql AS $$
                SELECT pg_advisory_xact_lock(hashtextextended('\(p)_events:' || p_vid, 0))
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(p)_event_horizon() RETURNS BIGINT LANGUAGE sql STABLE AS $$
                SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 65536
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(p)_append_event(p_vid TEXT, p_kind TEXT, p_time BIGINT, p_details TEXT)
            RETURNS BIGINT LANGUAGE plpgsql AS $$
            DECLARE
                seq INTEGER;
                last_cursor BIGINT;
                base BIGINT;
                c BIGINT;
            BEGIN
                PERFORM \(p)_lock_events(p_vid);
                SELECT e.sequence, e.cursor INTO seq, last_cursor FROM \(p)_events e WHERE e.verification_id = p_vid
                    ORDER BY e.sequence DESC LIMIT 1;
                base := pg_current_xact_id()::text::bigint;
                IF base >= 137438953472 THEN
                    RAISE EXCEPTION 'transaction IDs have outgrown event cursors' USING ERRCODE = 'program_limit_exceeded';
                END IF;
                base := base * 65536;
                -- Cursors from base up are this transaction's own (the next comes after them).
                IF last_cursor >= base + 65536 THEN
                    RAISE EXCEPTION 'an event of this verification was appended by a later transaction; retry'
                        USING ERRCODE = 'serialization_failure';
                END IF;
                SELECT coalesce(max(e.cursor) + 1, base) INTO c FROM \(p)_events e
                    WHERE e.cursor >= base AND e.cursor < base + 65536;
                IF c >= base + 65536 THEN
                    RAISE EXCEPTION 'too many events in one transaction' USING ERRCODE = 'program_limit_exceeded';
                END IF;
                INSERT INTO \(p)_events (cursor, verification_id, sequence, kind, time, details)
                VALUES (c, p_vid, coalesce(seq, 0) + 1, p_kind, p_time, p_details);
                RETURN c;
            END $$
            """,
            // CheckRequest.events(for:) for a wrong code: incorrect_code, then max_attempts when none is left.
            """
            CREATE OR REPLACE FUNCTION \(p)_append_incorrect(p_vid TEXT, p_time BIGINT, p_left INTEGER)
            RETURNS BIGINT LANGUAGE plpgsql AS $$
            DECLARE
                c BIGINT;
            BEGIN
                c := \(p)_append_event(p_vid, 'incorrect_code', p_time, json_build_object('attempts_left', p_left)::text);
                IF p_left = 0 THEN c := \(p)_append_event(p_vid, 'max_attempts', p_time, '{}'); END IF;
                RETURN c;
            END $$
            """,
            // VerificationEventStore.expiryLookback: expired, once each, for open verifications that ended.
            """
            CREATE OR REPLACE FUNCTION \(p)_report_expiries(p_now BIGINT, p_since BIGINT)
            RETURNS BIGINT LANGUAGE plpgsql AS $$
            DECLARE
                v RECORD;
                n BIGINT := 0;
            BEGIN
                FOR v IN SELECT x.id, x.expires_at FROM \(p)_verifications x
                    WHERE x.expires_at <= p_now AND x.expires_at > p_since AND x.state = 'open'
                      AND x.attempts < x.max_attempts
                      AND NOT EXISTS (SELECT 1 FROM \(p)_events e WHERE e.verification_id = x.id AND e.kind = 'expired')
                    ORDER BY x.expires_at, x.id LIMIT 10000
                LOOP
                    -- After its first event this transaction has an ID, so a verification another
                    -- transaction holds or wrote to since is left to the next sweep (a transaction
                    -- of its own) rather than waited for or ordered before that event.
                    CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('\(p)_events:' || v.id, 0));
                    CONTINUE WHEN pg_current_xact_id_if_assigned() IS NOT NULL AND EXISTS (
                        SELECT 1 FROM \(p)_events e WHERE e.verification_id = v.id
                          AND e.cursor >= (pg_current_xact_id_if_assigned()::text::bigint + 1) * 65536);
                    PERFORM \(p)_append_event(v.id, 'expired', v.expires_at, '{}');
                    n := n + 1;
                END LOOP;
                RETURN n;
            END $$
            """,
        ]
    }

    /// What `dropSchema()` removes for events.
    static func eventSchemaDrop(_ p: String) -> [String] {
        ["DROP FUNCTION IF EXISTS \(p)_append_event, \(p)_append_incorrect, \(p)_report_expiries, \(p)_lock_events, \(p)_event_horizon",
         "DROP TABLE IF EXISTS \(p)_events"]
    }

    @discardableResult
    public func appendEvents(_ new: [VerificationEvent]) async throws -> [VerificationEvent] {
        guard !new.isEmpty else { return [] }
        return try await runEvents {
            try await self.client.withTransaction(logger: self.logger) { connection in
                try await self.append(new, connection: connection)
            }
        }
    }

    /// Appends events in the caller's transaction, which took each verification's event lock
    /// (``lockEvents(of:connection:)``) before its first write.
    func append(_ new: [VerificationEvent], connection: PostgresConnection) async throws -> [VerificationEvent] {
        var stored: [VerificationEvent] = []
        for var event in new {
            let appended = try await connection.query("""
                SELECT \(unescaped: tablePrefix)_append_event(\(event.verificationID), \(event.kind.name),
                    \(VerificationEvent.milliseconds(event.time)), \(event.details.storedJSON))
                """, logger: logger).collect()
            guard let cursor = try appended.first?.decode(Int64.self) else {
                throw VerificationStoreError(.unavailable, "the event was not appended")
            }
            // A statement of its own: the function's row is not in the snapshot of the statement that called it.
            let rows = try await connection.query(
                "SELECT sequence FROM \(unescaped: events) WHERE cursor = \(cursor)", logger: logger).collect()
            guard let sequence = try rows.first?.decode(Int32.self) else {
                throw VerificationStoreError(.unavailable, "the event was not appended")
            }
            event.cursor = cursor
            event.sequence = Int(sequence)
            stored.append(event)
        }
        return stored
    }

    public func events(after cursor: Int64, limit: Int) async throws -> [VerificationEvent] {
        try await runEvents {
            let rows = try await client.query("""
                SELECT cursor, verification_id, sequence, kind, time, details FROM \(unescaped: events)
                WHERE cursor > \(cursor) AND cursor < \(unescaped: tablePrefix)_event_horizon()
                ORDER BY cursor LIMIT \(Int64(max(0, limit)))
                """, logger: logger).collect()
            return try rows.map { row in
                let (cursor, id, sequence, kind, time, details) = try row.decode((Int64, String, Int32, String, Int64, String).self)
                guard let kind = VerificationEvent.Kind(name: kind) else {
                    throw VerificationStoreError(.corrupted, "an event has an unknown kind")
                }
                return VerificationEvent(verificationID: id, sequence: Int(sequence), cursor: cursor, kind: kind,
                                         time: Date(millisecondsSince1970: time), details: .init(storedJSON: details))
            }
        }
    }

    /// Takes the event lock of a verification for the rest of the transaction: first, before the
    /// transaction writes anything (see ``eventSchema(_:)``).
    func lockEvents(of id: String, connection: PostgresConnection) async throws {
        try await connection.query("SELECT \(unescaped: tablePrefix)_lock_events(\(id))", logger: logger)
    }

    /// Appends the `expired` events of the retention sweep.
    func reportExpiries(now ms: Int64) async throws {
        let since = ms - Self.expiryLookback.milliseconds
        _ = try await runEvents {
            try await client.query("SELECT \(unescaped: tablePrefix)_report_expiries(\(ms), \(since))", logger: logger)
        }
    }

    func runEvents<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as VerificationStoreError {
            throw error
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError as? VerificationStoreError { throw inner }
            let state = (error.closureError as? PSQLError)?.serverInfo?[.sqlState] ?? "none"
            throw VerificationStoreError(.unavailable, "PostgreSQL refused the event operation (SQLSTATE \(state))")
        } catch is CancellationError {
            throw VerificationStoreError(.timeout, "the PostgreSQL operation was cancelled")
        } catch let error as PSQLError {
            let state = error.serverInfo?[.sqlState] ?? "none"
            throw VerificationStoreError(.unavailable, "PostgreSQL refused the event operation (SQLSTATE \(state))")
        } catch {
            throw VerificationStoreError(.unavailable, "the PostgreSQL event operation failed")
        }
    }
}
