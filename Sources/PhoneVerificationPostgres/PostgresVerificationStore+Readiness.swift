import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore {
    /// One round trip that reads both tables and updates each (a row that cannot exist, so
    /// nothing changes): a missing table, a lost privilege or a read-only server (a replica
    /// after a failover) fails here as it would fail a start.
    ///
    /// - Throws: the client's error when the server cannot be reached or refuses.
    public func probeReadiness(now: Date) async throws {
        let sql = """
            WITH v AS (UPDATE \(verifications) SET attempts = attempts WHERE id = 'readyz' RETURNING 1),
                 w AS (UPDATE \(windows) SET current_count = current_count WHERE key = 'readyz' RETURNING 1)
            SELECT (SELECT count(*) FROM v) + (SELECT count(*) FROM w)
                 + (SELECT count(*) FROM (SELECT 1 FROM \(verifications) LIMIT 1) AS a)
                 + (SELECT count(*) FROM (SELECT 1 FROM \(windows) LIMIT 1) AS b)
            """
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await _ in rows {}
    }
}
