import Foundation
import GRDB
import PhoneVerification

extension SQLiteVerificationStore: VerificationEventStore {
    /// The event log: `cursor` is an AUTOINCREMENT key, never reused, and SQLite's writes are
    /// serialised, so cursors increase in commit order.
    static func createEventTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS events (
                cursor INTEGER PRIMARY KEY AUTOINCREMENT,
                verification_id TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                kind TEXT NOT NULL,
                time INTEGER NOT NULL,
                details TEXT NOT NULL
            );
            CREATE UNIQUE INDEX IF NOT EXISTS events_verification ON events (verification_id, sequence);
            CREATE INDEX IF NOT EXISTS events_time ON events (time);
            """)
    }

    /// Appends events inside the caller's transaction.
    static func append(_ events: [VerificationEvent], in db: Database) throws -> [VerificationEvent] {
        var stored: [VerificationEvent] = []
        for var event in events {
            let last = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT max(sequence) FROM events WHERE verification_id = ?
                """), arguments: [event.verificationID]) ?? 0
            event.sequence = last + 1
            try db.cachedStatement(sql: """
                INSERT INTO events (verification_id, sequence, kind, time, details) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [event.verificationID, event.sequence, event.kind.name,
                                         VerificationEvent.milliseconds(event.time), event.details.storedJSON])
            event.cursor = db.lastInsertedRowID
            stored.append(event)
        }
        return stored
    }

    /// Appends `expired` for open verifications whose lifetime ended within the lookback, once each.
    static func reportExpiries(now: Int64, in db: Database) throws {
        let since = now - expiryLookback.milliseconds
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, expires_at FROM verifications v
            WHERE v.expires_at <= ? AND v.expires_at > ? AND v.state = 'open' AND v.attempts < v.max_attempts
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.verification_id = v.id AND e.kind = 'expired')
            ORDER BY v.expires_at, v.id
            """), arguments: [now, since])
        _ = try append(rows.map {
            VerificationEvent(verificationID: $0[0], kind: .expired, time: Date(millisecondsSince1970: $0[1]))
        }, in: db)
    }

    @discardableResult
    public func appendEvents(_ events: [VerificationEvent]) async throws -> [VerificationEvent] {
        try await transaction { db in try Self.append(events, in: db) }
    }

    public func events(after cursor: Int64, limit: Int) async throws -> [VerificationEvent] {
        do {
            return try await pool.read { db in
                try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT cursor, verification_id, sequence, kind, time, details FROM events
                    WHERE cursor > ? ORDER BY cursor LIMIT ?
                    """), arguments: [cursor, max(0, limit)]).map(Self.event)
            }
        } catch {
            throw Self.mapped(error)
        }
    }

    static func event(_ row: Row) throws -> VerificationEvent {
        guard let kind = VerificationEvent.Kind(name: row["kind"]) else {
            throw VerificationStoreError(.corrupted, "an event has an unknown kind")
        }
        return VerificationEvent(verificationID: row["verification_id"], sequence: row["sequence"], cursor: row["cursor"],
                                 kind: kind, time: Date(millisecondsSince1970: row["time"]),
                                 details: .init(storedJSON: row["details"]))
    }
}
