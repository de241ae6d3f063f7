import Foundation
import Logging
import PhoneVerification
import PhoneVerificationPostgres
import PostgresNIO
import Testing

/// The PostgreSQL event log's reader rule, on real transactions: writers draw cursors without a
/// store-wide lock, so one that drew first may commit last; readers and the webhook queue must wait
/// for it rather than go past it.
@Suite("Events: PostgreSQL transaction order",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresEventOrderTests {
    static let logger = Logger(label: "smskit.tests.events")

    /// Transaction A appends its event first (the lower cursor) and commits after B. Until A
    /// commits, neither a reader nor the webhook queue sees B's event; afterwards both come, A's
    /// first, after the cursor the reader already holds: nothing is skipped.
    @Test("a writer that commits late is read after the cursor handed out, never skipped")
    func lateCommitIsNotSkipped() async throws {
        try await PostgresTestServer.withClients(2) { clients, stores, prefix in
            let store = stores[0]
            let time = Date(timeIntervalSince1970: 1_768_464_000)
            let opening = try await store.appendEvents([VerificationEvent(verificationID: "v-zero", kind: .started, time: time)])
            let start = try #require(opening.first?.cursor)
            #expect(try await store.events(after: 0, limit: 10).map(\.cursor) == [start])

            let (appended, appendedSink) = AsyncStream.makeStream(of: Int64.self)
            let (commit, commitSink) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await clients[1].withTransaction(logger: Self.logger) { connection in
                        let rows = try await connection.query(
                            "SELECT \(unescaped: prefix)_append_event('v-a', 'delivered', 0, '{}')", logger: Self.logger).collect()
                        appendedSink.yield(try #require(rows.first).decode(Int64.self))
                        for await _ in commit { break }
                    }
                }
                var positions = appended.makeAsyncIterator()
                let cursorA = try #require(await positions.next())
                let b = try await store.appendEvents([VerificationEvent(verificationID: "v-b", kind: .delivered, time: time)])
                let cursorB = try #require(b.first?.cursor)
                #expect(cursorA < cursorB, "A took its position first")

                // B has committed, A has not: B's event waits for A's.
                let held = try await store.events(after: start, limit: 10)
                #expect(held.isEmpty)
                let next = held.last?.cursor ?? start
                let queued = try await store.claimWebhookDeliveries(webhook: "w", now: time, lease: .seconds(60), limit: 10)
                #expect(queued.map(\.event.verificationID) == ["v-zero"])
                try await store.finishWebhookDelivery(webhook: "w", cursor: start, result: .delivered, now: time)

                commitSink.yield()
                try await group.waitForAll()

                let read = try await store.events(after: next, limit: 10)
                #expect(read.map(\.verificationID) == ["v-a", "v-b"])
                #expect(read.map(\.cursor) == [cursorA, cursorB])
                #expect(read.allSatisfy { $0.cursor > next })
                let claimed = try await store.claimWebhookDeliveries(webhook: "w", now: time, lease: .seconds(60), limit: 10)
                #expect(claimed.map(\.event.verificationID) == ["v-a", "v-b"])
            }
        }
    }

    /// A transaction that wrote before it took a verification's event lock may hold an older
    /// transaction ID than an event of that verification committed since: its event would sort
    /// first. The store refuses it (a retryable error) rather than break the verification's order.
    @Test("an event that would sort before its verification's committed one is refused")
    func outOfOrderAppendIsRefused() async throws {
        try await PostgresTestServer.withClients(2) { clients, stores, prefix in
            let time = Date(timeIntervalSince1970: 1_768_464_000)
            let (ready, readySink) = AsyncStream.makeStream(of: Void.self)
            let (go, goSink) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    do {
                        try await clients[1].withTransaction(logger: Self.logger) { connection in
                            // An ID drawn before the event lock, as by a write of its own.
                            _ = try await connection.query("SELECT pg_current_xact_id()", logger: Self.logger).collect()
                            readySink.yield()
                            for await _ in go { break }
                            _ = try await connection.query(
                                "SELECT \(unescaped: prefix)_append_event('v', 'delivered', 0, '{}')", logger: Self.logger).collect()
                        }
                        return nil
                    } catch let error as PostgresTransactionError {
                        return (error.closureError as? PSQLError)?.serverInfo?[.sqlState]
                    }
                }
                for await _ in ready { break }
                let later = try await stores[0].appendEvents([VerificationEvent(verificationID: "v", kind: .started, time: time)])
                #expect(later.map(\.sequence) == [1])
                goSink.yield()
                #expect(try await group.next() == "40001")
            }
            #expect(try await stores[0].events(after: 0, limit: 10).map(\.kind) == [.started])
        }
    }

    /// Earlier versions numbered events from an identity column: after the schema update their
    /// cursors still read, and a consumer's saved cursor goes on to the new events.
    @Test("an event log with identity cursors keeps them; new events come after")
    func identityCursorsMigrate() async throws {
        try await PostgresTestServer.withClients(1) { clients, stores, prefix in
            try await clients[0].query(PostgresQuery(unsafeSQL: "DROP TABLE \(prefix)_events"), logger: Self.logger)
            try await clients[0].query(PostgresQuery(unsafeSQL: """
                CREATE TABLE \(prefix)_events (
                    cursor BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, verification_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL, kind TEXT NOT NULL, time BIGINT NOT NULL, details TEXT NOT NULL,
                    UNIQUE (verification_id, sequence))
                """), logger: Self.logger)
            try await clients[0].query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(prefix)_events (verification_id, sequence, kind, time, details)
                VALUES ('v', 1, 'started', 0, '{}'), ('v', 2, 'sent', 0, '{}'), ('w', 1, 'started', 0, '{}')
                """), logger: Self.logger)
            try await stores[0].createSchema()
            let time = Date(timeIntervalSince1970: 1_768_464_000)
            let new = try await stores[0].appendEvents([VerificationEvent(verificationID: "v", kind: .approved, time: time)])
            #expect(new.map(\.sequence) == [3])
            let saved: Int64 = 2
            let read = try await stores[0].events(after: saved, limit: 10)
            #expect(read.map(\.id) == ["w.1", "v.3"])
            #expect(read.first?.cursor == 3 && (read.last?.cursor ?? 0) > 3)
            #expect(try await stores[0].events(after: 0, limit: 10).map(\.id) == ["v.1", "v.2", "w.1", "v.3"])
        }
    }

    @Test("concurrent starts with a reader pulling all the while: every event read once, in order per verification")
    func concurrentReaders() async throws {
        try await PostgresTestServer.withStores(2) { stores in
            try await EventScenarios.concurrentReaders(writer: stores[0], reader: stores[1])
        }
    }
}
