import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore: WebhookOutbox {
    /// The webhook tables and the claim function: it queues new events under a row lock on the
    /// webhook's cursor (so two processes never queue one event twice), only below the event
    /// horizon (as ``events(after:limit:)`` reads, so none that commits later is skipped), then leases the due
    /// deliveries that no earlier undelivered event of their verification holds back, skipping
    /// rows another claimer has locked (`FOR UPDATE SKIP LOCKED`).
    static func webhookSchema(_ p: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(p)_webhook_cursors (
                webhook TEXT PRIMARY KEY,
                cursor BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS \(p)_webhook_deliveries (
                webhook TEXT NOT NULL,
                cursor BIGINT NOT NULL,
                verification_id TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                queued_at BIGINT NOT NULL,
                due_at BIGINT NOT NULL,
                lease_until BIGINT NOT NULL,
                dead BOOLEAN NOT NULL,
                PRIMARY KEY (webhook, cursor)
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS \(p)_webhook_deliveries_verification
                ON \(p)_webhook_deliveries (webhook, verification_id, cursor)
            """,
            "CREATE INDEX IF NOT EXISTS \(p)_webhook_deliveries_queued ON \(p)_webhook_deliveries (queued_at)",
            """
            CREATE OR REPLACE FUNCTION \(p)_claim_webhook(p_webhook TEXT, p_now BIGINT, p_lease_until BIGINT, p_limit INTEGER)
            RETURNS TABLE (r_attempts INTEGER, r_queued_at BIGINT, r_cursor BIGINT, r_verification_id TEXT,
                           r_sequence INTEGER, r_kind TEXT, r_time BIGINT, r_details TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                last BIGINT;
                newest BIGINT;
            BEGIN
                INSERT INTO \(p)_webhook_cursors (webhook, cursor) VALUES (p_webhook, 0) ON CONFLICT DO NOTHING;
                SELECT w.cursor INTO last FROM \(p)_webhook_cursors w WHERE w.webhook = p_webhook FOR UPDATE;
                SELECT max(n.cursor) INTO newest FROM (SELECT e.cursor FROM \(p)_events e WHERE e.cursor > last
                    AND e.cursor < \(p)_event_horizon() ORDER BY e.cursor LIMIT 1000) n;
                IF newest IS NOT NULL THEN
                    INSERT INTO \(p)_webhook_deliveries
                    SELECT p_webhook, e.cursor, e.verification_id, 0, p_now, p_now, 0, false FROM \(p)_events e
                    WHERE e.cursor > last AND e.cursor <= newest ON CONFLICT DO NOTHING;
                    UPDATE \(p)_webhook_cursors w SET cursor = newest WHERE w.webhook = p_webhook;
                END IF;
                RETURN QUERY
                WITH due AS (
                    SELECT d.cursor FROM \(p)_webhook_deliveries d
                    WHERE d.webhook = p_webhook AND NOT d.dead AND d.due_at <= p_now AND d.lease_until <= p_now
                      AND NOT EXISTS (SELECT 1 FROM \(p)_webhook_deliveries b WHERE b.webhook = p_webhook
                                      AND b.verification_id = d.verification_id AND b.cursor < d.cursor AND NOT b.dead)
                    ORDER BY d.cursor LIMIT p_limit FOR UPDATE SKIP LOCKED),
                leased AS (
                    UPDATE \(p)_webhook_deliveries d SET lease_until = p_lease_until FROM due
                    WHERE d.webhook = p_webhook AND d.cursor = due.cursor RETURNING d.cursor, d.attempts, d.queued_at)
                SELECT l.attempts, l.queued_at, e.cursor, e.verification_id, e.sequence, e.kind, e.time, e.details
                FROM leased l JOIN \(p)_events e ON e.cursor = l.cursor ORDER BY e.cursor;
            END $$
            """,
        ]
    }

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
