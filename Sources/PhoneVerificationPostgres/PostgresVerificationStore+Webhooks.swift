import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore: WebhookOutbox {
    // The webhook tables and `<prefix>_claim_webhook` are in schema.sql: it queues new events
    // under a row lock on the webhook's cursor, only below the event horizon, then leases the due
    // deliveries no earlier undelivered event of their verification holds back (SKIP LOCKED).

    static func webhookSchemaDrop(_ p: String) -> [String] {
        ["DROP FUNCTION IF EXISTS \(p)_claim_webhook", "DROP TABLE IF EXISTS \(p)_webhook_cursors, \(p)_webhook_deliveries"]
    }

    var webhookDeliveries: String { tablePrefix + "_webhook_deliveries" }

    public func claimWebhookDeliveries(webhook: String, now: Date, lease: Duration,
                                       limit: Int) async throws -> [WebhookDelivery] {
        let ms = VerificationEvent.milliseconds(now)
        let query: PostgresQuery = """
            SELECT * FROM \(unescaped: tablePrefix)_claim_webhook(\(webhook), \(ms), \(ms + lease.milliseconds),
                \(Int32(clamping: max(0, limit))))
            """
        return try await runEvents {
            let rows = try await client.query(query, logger: logger).collect()
            return try rows.map { row in
                let (attempts, queuedAt, cursor, id, sequence, kind, time, details) =
                    try row.decode((Int32, Int64, Int64, String, Int32, String, Int64, String).self)
                guard let kind = VerificationEvent.Kind(name: kind) else {
                    throw VerificationStoreError(.corrupted, "an event has an unknown kind")
                }
                let event = VerificationEvent(verificationID: id, sequence: Int(sequence), cursor: cursor, kind: kind,
                                              time: Date(millisecondsSince1970: time), details: .init(storedJSON: details))
                return WebhookDelivery(event: event, attempts: Int(attempts), queuedAt: Date(millisecondsSince1970: queuedAt))
            }
        }
    }

    public func finishWebhookDelivery(webhook: String, cursor: Int64, result: WebhookDeliveryResult,
                                      now: Date) async throws {
        let query: PostgresQuery
        switch result {
        case .delivered:
            query = "DELETE FROM \(unescaped: webhookDeliveries) WHERE webhook = \(webhook) AND cursor = \(cursor)"
        case .retry(let at):
            query = """
                UPDATE \(unescaped: webhookDeliveries) SET attempts = attempts + 1,
                    due_at = \(VerificationEvent.milliseconds(at)), lease_until = 0
                WHERE webhook = \(webhook) AND cursor = \(cursor)
                """
        case .dead:
            query = """
                UPDATE \(unescaped: webhookDeliveries) SET attempts = attempts + 1, dead = true
                WHERE webhook = \(webhook) AND cursor = \(cursor)
                """
        }
        _ = try await runEvents { try await client.query(query, logger: logger) }
    }

    public func webhookBacklog(webhook: String) async throws -> (queued: Int, dead: Int) {
        try await runEvents {
            let rows = try await client.query("""
                SELECT count(*) FILTER (WHERE NOT dead), count(*) FILTER (WHERE dead)
                FROM \(unescaped: webhookDeliveries) WHERE webhook = \(webhook)
                """, logger: logger).collect()
            guard let (queued, dead) = try rows.first?.decode((Int64, Int64).self) else { return (0, 0) }
            return (Int(queued), Int(dead))
        }
    }
}
