import Foundation
import PhoneVerification
@testable import PhoneVerificationPostgres
import PhoneVerificationSQLite
import PostgresNIO
import Testing

/// `probeReadiness(now:)`: passes on a healthy store and leaves nothing behind; fails when a
/// table the starts need is gone.
@Suite("Store readiness probes")
struct ReadinessProbeTests {
    @Test("SQLite: passes and leaves no row behind")
    func sqlite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteVerificationStore(path: directory + "/verify.sqlite")
        let now = Date()
        try await store.probeReadiness(now: now)
        try await store.probeReadiness(now: now)
        // The probe's rows are gone: nothing to remove, and the store's own operations work.
        #expect(try await store.removeExpired(now: now.addingTimeInterval(86_400 * 365)) == 0)
        #expect(try await store.check(CheckRequest(id: "readyz", digest: Array(repeating: 0, count: 32), keyID: "k", now: now)) == .notFound)
    }

    @Test("PostgreSQL: passes on its tables, fails once the windows table is gone",
          .enabled(if: PostgresTestServer.enabled, "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
    func postgres() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            let store = stores[0]
            try await store.probeReadiness(now: Date())
            #expect(try await store.check(CheckRequest(id: "readyz", digest: Array(repeating: 0, count: 32), keyID: "k", now: Date())) == .notFound)
            try await store.client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(store.windows)"), logger: store.logger)
            await #expect(throws: (any Error).self) { try await store.probeReadiness(now: Date()) }
        }
    }
}
