import Foundation
import GRDB
import PhoneVerification

extension SQLiteVerificationStore {
    /// Reads both tables and their indexes, and inserts and deletes a row in each, in one
    /// committed transaction: a damaged page, a file that cannot be written or a full disk
    /// fails here as it would fail a start. The rows use the key `readyz`, never a verification
    /// ID nor a counter key, and are gone when it returns.
    ///
    /// - Throws: ``VerificationStoreError`` (`.corrupted` for a damaged file).
    public func probeReadiness(now: Date) async throws {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        try await transaction { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM verifications ORDER BY e164, created_at LIMIT 1)")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM verifications ORDER BY expires_at LIMIT 1)")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM windows ORDER BY expires_at LIMIT 1)")
            try db.execute(sql: """
                INSERT OR REPLACE INTO verifications (id, e164, digest, key_id, sealed_code, locale, is_test, created_at,
                    expires_at, attempts, max_attempts, send_count, last_sent_at, state)
                VALUES ('readyz', '', x'', '', NULL, '', 0, ?, ?, 0, 0, 0, ?, 'closed')
                """, arguments: [millis, millis, millis])
            try db.execute(sql: "DELETE FROM verifications WHERE id = 'readyz'")
            try db.execute(sql: """
                INSERT OR REPLACE INTO windows (key, bucket_start, current_count, previous_count, blocked_until, expires_at)
                VALUES ('readyz', 0, 0, 0, 0, ?)
                """, arguments: [millis])
            try db.execute(sql: "DELETE FROM windows WHERE key = 'readyz'")
        }
    }
}
