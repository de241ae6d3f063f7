import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore: VerificationEventStore {
    var events: String { tablePrefix + "_events" }

    /// The event log's table and functions. `<prefix>_append_event` takes a transaction-scoped
    /// advisory lock before it draws a cursor, so cursors increase in commit order (a reader that
    /// pulls after the last cursor it saw never skips an event that commits later) and sequences
    /// per verification are `max + 1` without a race. The lock is the last one a start, a check, a
    /// cancel or a delivery report takes, so it adds no lock cycle. Known limit: it serialises the
    /// event-writing transactions of all verifications from their event to their commit
    /// (docs/webhooks.md).
    static func eventSchema(_ p: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(p)_events (
                cursor BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                verification_id TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                kind TEXT NOT NULL,
                time BIGINT NOT NULL,
                details TEXT NOT NULL,
                UNIQUE (verification_id, sequence)
            )
            """,
            "CREATE INDEX IF NOT EXISTS \(p)_events_time ON \(p)_events (time)",
            """
            CREATE OR REPLACE FUNCTION \(p)_append_event(p_vid TEXT, p_kind TEXT, p_time BIGINT, p_details TEXT)
            RETURNS BIGINT LANGUAGE plpgsql AS $$
            DECLARE
                seq INTEGER;
                c BIGINT;
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtextextended('\(p)_events', 0));
                SELECT coalesce(max(e.sequence), 0) + 1 INTO seq FROM \(p)_events e WHERE e.verification_id = p_vid;
                INSERT INTO \(p)_events (verification_id, sequence, kind, time, details)
                VALUES (p_vid, seq, p_kind, p_time, p_details) RETURNING cursor INTO c;
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
                    ORDER BY x.expires_at, x.id
                LOOP
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
        ["DROP FUNCTION IF EXISTS \(p)_append_event, \(p)_append_incorrect, \(p)_report_expiries",
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

    /// Appends events in the caller's transaction (after the row locks it took: the events lock
    /// comes last).
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
                WHERE cursor > \(cursor) ORDER BY cursor LIMIT \(Int64(max(0, limit)))
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
