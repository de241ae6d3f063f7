import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore: VerificationEventStore {
    var events: String { tablePrefix + "_events" }

    // The event log's table and functions are in schema.sql: cursors are transaction IDs times
    // 2^16, readers stop at `<prefix>_event_horizon()`, and writers of one verification take
    // `<prefix>_lock_events` first (why is written there).

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
    /// transaction writes anything (see the event log in schema.sql).
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
