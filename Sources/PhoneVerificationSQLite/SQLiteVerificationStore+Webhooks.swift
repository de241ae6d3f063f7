import Foundation
import GRDB
import PhoneVerification

extension SQLiteVerificationStore: WebhookOutbox {
    /// Per webhook, the last event cursor queued and the queued deliveries (delivered ones are deleted).
    static func createWebhookTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS webhook_cursors (
                webhook TEXT PRIMARY KEY NOT NULL,
                cursor INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS webhook_deliveries (
                webhook TEXT NOT NULL,
                cursor INTEGER NOT NULL,
                verification_id TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                queued_at INTEGER NOT NULL,
                due_at INTEGER NOT NULL,
                lease_until INTEGER NOT NULL,
                dead INTEGER NOT NULL,
                PRIMARY KEY (webhook, cursor)
            );
            CREATE INDEX IF NOT EXISTS webhook_deliveries_verification
                ON webhook_deliveries (webhook, verification_id, cursor);
            CREATE INDEX IF NOT EXISTS webhook_deliveries_queued ON webhook_deliveries (queued_at);
            """)
    }

    /// The retention sweep's part: deliveries queued before the cutoff, or whose event is gone.
    static func sweepWebhookDeliveries(cutoff: Int64, in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM webhook_deliveries WHERE queued_at <= ?
                OR NOT EXISTS (SELECT 1 FROM events e WHERE e.cursor = webhook_deliveries.cursor)
            """, arguments: [cutoff])
    }

    public func claimWebhookDeliveries(webhook: String, now: Date, lease: Duration,
                                       limit: Int) async throws -> [WebhookDelivery] {
        let ms = VerificationEvent.milliseconds(now)
        let leaseUntil = ms + lease.milliseconds
        return try await transaction { db in
            try db.execute(sql: "INSERT OR IGNORE INTO webhook_cursors (webhook, cursor) VALUES (?, 0)", arguments: [webhook])
            let last = try Int64.fetchOne(db, sql: "SELECT cursor FROM webhook_cursors WHERE webhook = ?", arguments: [webhook]) ?? 0
            // Queue what was appended since, a bounded batch per call.
            try db.execute(sql: """
                INSERT OR IGNORE INTO webhook_deliveries (webhook, cursor, verification_id, attempts, queued_at, due_at, lease_until, dead)
                SELECT ?, cursor, verification_id, 0, ?, ?, 0, 0 FROM events WHERE cursor > ? ORDER BY cursor LIMIT 1000
                """, arguments: [webhook, ms, ms, last])
            if let newest = try Int64.fetchOne(db, sql: """
                SELECT max(cursor) FROM (SELECT cursor FROM events WHERE cursor > ? ORDER BY cursor LIMIT 1000)
                """, arguments: [last]) {
                try db.execute(sql: "UPDATE webhook_cursors SET cursor = ? WHERE webhook = ?", arguments: [newest, webhook])
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.attempts, d.queued_at, e.cursor, e.verification_id, e.sequence, e.kind, e.time, e.details
                FROM webhook_deliveries d JOIN events e ON e.cursor = d.cursor
                WHERE d.webhook = ?1 AND d.dead = 0 AND d.due_at <= ?2 AND d.lease_until <= ?2
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook = ?1
                                  AND p.verification_id = d.verification_id AND p.cursor < d.cursor AND p.dead = 0)
                ORDER BY d.cursor LIMIT ?3
                """, arguments: [webhook, ms, max(0, limit)])
            var claimed: [WebhookDelivery] = []
            for row in rows {
                let event = try Self.event(row)
                try db.execute(sql: "UPDATE webhook_deliveries SET lease_until = ? WHERE webhook = ? AND cursor = ?",
                               arguments: [leaseUntil, webhook, event.cursor])
                claimed.append(WebhookDelivery(event: event, attempts: row["attempts"],
                                               queuedAt: Date(millisecondsSince1970: row["queued_at"])))
            }
            return claimed
        }
    }

    public func finishWebhookDelivery(webhook: String, cursor: Int64, result: WebhookDeliveryResult,
                                      now: Date) async throws {
        try await transaction { db in
            switch result {
            case .delivered:
                try db.execute(sql: "DELETE FROM webhook_deliveries WHERE webhook = ? AND cursor = ?",
                               arguments: [webhook, cursor])
            case .retry(let at):
                try db.execute(sql: """
                    UPDATE webhook_deliveries SET attempts = attempts + 1, due_at = ?, lease_until = 0
                    WHERE webhook = ? AND cursor = ?
                    """, arguments: [VerificationEvent.milliseconds(at), webhook, cursor])
            case .dead:
                try db.execute(sql: """
                    UPDATE webhook_deliveries SET attempts = attempts + 1, dead = 1 WHERE webhook = ? AND cursor = ?
                    """, arguments: [webhook, cursor])
            }
        }
    }

    public func webhookBacklog(webhook: String) async throws -> (queued: Int, dead: Int) {
        try await transaction { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*) - coalesce(sum(dead), 0), coalesce(sum(dead), 0) FROM webhook_deliveries WHERE webhook = ?
                """, arguments: [webhook])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }
}
