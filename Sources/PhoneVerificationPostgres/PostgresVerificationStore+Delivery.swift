import Foundation
import PhoneVerification
import PostgresNIO

extension PostgresVerificationStore {
    var messages: String { tablePrefix + "_messages" }
    var messageParts: String { tablePrefix + "_message_parts" }

    public func recordMessage(_ message: DeliveryMessage) async throws {
        _ = try await run {
            try await client.query("""
                SELECT \(unescaped: tablePrefix)_record_message(\(Data(message.tokenDigest)), \(message.verificationID),
                    \(Int32(message.sequence)), \(message.createdAt.millisecondsSince1970), \(message.locale),
                    \(message.parts.map { Int32($0.number) })::INTEGER[], \(message.parts.map(\.state.rawValue))::TEXT[],
                    \(message.parts.map(\.updatedAt.millisecondsSince1970))::BIGINT[])
                """, logger: logger).collect()
        }
    }

    public func applyDeliveryReport(_ report: DeliveryReport, counting: ConversionCounting?) async throws
        -> DeliveryReportResult? {
        try await run {
            try await client.withTransaction(logger: logger) { connection -> DeliveryReportResult? in
                let digest: Data, number: Int
                switch report.target {
                case .token(let tokenDigest, let part):
                    (digest, number) = (Data(tokenDigest), part)
                case .providerMessageID(let id):
                    let forms = DeliveryReport.providerIDForms(id)
                    guard !forms.isEmpty else { return nil }
                    let rows = try await connection.query("""
                        SELECT token_digest, part FROM \(unescaped: messageParts) WHERE provider_id = ANY(\(forms))
                        ORDER BY updated_at DESC LIMIT 1
                        """, logger: logger).collect()
                    guard let row = rows.first else { return nil }
                    let (found, part) = try row.decode((Data, Int32).self)
                    (digest, number) = (found, Int(part))
                }
                // The verification's event lock first (before this transaction writes: see
                // schema.sql), then the message's row lock, which serialises reports for its
                // parts (two parts' receipts at once must both count when the message's state is
                // judged). The number comes with the lock, for the conversion counters.
                let owners = try await connection.query("""
                    SELECT m.verification_id, v.e164, \(unescaped: tablePrefix)_lock_events(m.verification_id)::text
                    FROM \(unescaped: messages) m JOIN \(unescaped: verifications) v ON v.id = m.verification_id
                    WHERE m.token_digest = \(digest)
                    """, logger: logger).collect()
                guard let (_, e164, _) = try owners.first?.decode((String, String, String?).self) else { return nil }
                guard let message = try await Self.message(digest: digest, lock: true, connection: connection,
                                                           messages: messages, parts: messageParts, logger: logger),
                      let (updated, result) = message.applying(report, toPart: number) else { return nil }
                if result.partChanged, let part = updated.parts.first(where: { $0.number == number }) {
                    try await connection.query("""
                        UPDATE \(unescaped: messageParts) SET state = \(part.state.rawValue),
                            provider_id = \(part.providerMessageID), error_code = \(part.errorCode),
                            updated_at = \(part.updatedAt.millisecondsSince1970),
                            done_at = \(part.doneAt?.millisecondsSince1970)
                        WHERE token_digest = \(digest) AND part = \(Int32(number))
                        """, logger: logger)
                }
                _ = try await append(result.events(at: report.receivedAt), connection: connection)
                // In the report's transaction: the report and its count commit together, once.
                let keys = result.conversionKeys(e164: e164, counting: counting)
                if let counting, !keys.isEmpty {
                    try await connection.query(countQuery(keys, window: counting.window, now: counting.now), logger: logger)
                }
                return result
            }
        }
    }

    public func status(id: String) async throws -> VerificationStatus? {
        try await run {
            try await client.withConnection { connection -> VerificationStatus? in
                guard let record = try await Self.record(id: id, lock: false, connection: connection,
                                                         table: verifications, logger: logger) else { return nil }
                let digests = try await connection.query("""
                    SELECT token_digest FROM \(unescaped: messages) WHERE verification_id = \(id) ORDER BY sequence
                    """, logger: logger).collect().map { try $0.decode(Data.self) }
                var found: [DeliveryMessage] = []
                for digest in digests {
                    if let message = try await Self.message(digest: digest, lock: false, connection: connection,
                                                            messages: messages, parts: messageParts, logger: logger) {
                        found.append(message)
                    }
                }
                return VerificationStatus(record: record, messages: found)
            }
        }
    }

    public func cancel(id: String, now: Date) async throws -> CancelOutcome {
        try await run {
            // The row lock orders the cancel with a concurrent check: the check approved first
            // (already_approved), or it sees the cancel.
            try await client.withTransaction(logger: logger) { connection -> CancelOutcome in
                try await lockEvents(of: id, connection: connection)
                guard let record = try await Self.record(id: id, lock: true, connection: connection,
                                                         table: verifications, logger: logger) else { return .notFound }
                let (cancelled, outcome) = record.cancelling()
                if outcome == .cancelled {
                    try await connection.query("""
                        UPDATE \(unescaped: verifications) SET state = \(cancelled.state.rawValue) WHERE id = \(id)
                        """, logger: logger)
                }
                _ = try await append(outcome.events(id: id, now: now), connection: connection)
                return outcome
            }
        }
    }

    private static func record(id: String, lock: Bool, connection: PostgresConnection, table: String,
                               logger: Logger) async throws -> VerificationRecord? {
        let rows = try await connection.query("""
            SELECT id, e164, digest, key_id, sealed_code, locale, is_test, created_at, expires_at, attempts,
                max_attempts, send_count, last_sent_at, state, range_key
            FROM \(unescaped: table) WHERE id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger).collect()
        guard let row = rows.first else { return nil }
        let cells = row.makeRandomAccess()
        guard let state = VerificationState(rawValue: try cells["state"].decode(String.self)) else {
            throw VerificationStoreError(.corrupted, "a verification has an unknown state")
        }
        return VerificationRecord(
            id: try cells["id"].decode(String.self), e164: try cells["e164"].decode(String.self),
            digest: Array(try cells["digest"].decode(Data.self)), keyID: try cells["key_id"].decode(String.self),
            sealedCode: try cells["sealed_code"].decode(Data?.self).map { Array($0) },
            locale: try cells["locale"].decode(String.self), isTest: try cells["is_test"].decode(Bool.self),
            createdAt: Date(millisecondsSince1970: try cells["created_at"].decode(Int64.self)),
            expiresAt: Date(millisecondsSince1970: try cells["expires_at"].decode(Int64.self)),
            attempts: Int(try cells["attempts"].decode(Int32.self)),
            maxAttempts: Int(try cells["max_attempts"].decode(Int32.self)),
            sendCount: Int(try cells["send_count"].decode(Int32.self)),
            lastSentAt: Date(millisecondsSince1970: try cells["last_sent_at"].decode(Int64.self)),
            state: state, rangeKey: try cells["range_key"].decode(String?.self))
    }

    /// How many messages and parts the tables hold (for tests and monitoring).
    package func messageCounts() async throws -> (messages: Int, parts: Int) {
        try await run {
            let rows = try await client.query("""
                SELECT (SELECT count(*) FROM \(unescaped: messages)), (SELECT count(*) FROM \(unescaped: messageParts))
                """, logger: logger).collect()
            guard let (m, p) = try rows.first?.decode((Int64, Int64).self) else { return (0, 0) }
            return (Int(m), Int(p))
        }
    }

    private static func message(digest: Data, lock: Bool, connection: PostgresConnection, messages: String,
                                parts: String, logger: Logger) async throws -> DeliveryMessage? {
        let head = try await connection.query("""
            SELECT verification_id, sequence, created_at, locale FROM \(unescaped: messages) WHERE token_digest = \(digest)
            \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger).collect()
        guard let first = head.first else { return nil }
        let (verificationID, sequence, created, locale) = try first.decode((String, Int32, Int64, String).self)
        var found: [DeliveryPart] = []
        for row in try await connection.query("""
            SELECT part, state, provider_id, error_code, updated_at, done_at FROM \(unescaped: parts)
            WHERE token_digest = \(digest) ORDER BY part
            """, logger: logger).collect() {
            let (part, state, providerID, errorCode, updated, done) =
                try row.decode((Int32, String, String?, String?, Int64, Int64?).self)
            guard let state = DeliveryState(rawValue: state) else {
                throw VerificationStoreError(.corrupted, "a message part has an unknown delivery state")
            }
            found.append(DeliveryPart(number: Int(part), state: state, providerMessageID: providerID, errorCode: errorCode,
                                      updatedAt: Date(millisecondsSince1970: updated),
                                      doneAt: done.map { Date(millisecondsSince1970: $0) }))
        }
        return DeliveryMessage(tokenDigest: Array(digest), verificationID: verificationID, sequence: Int(sequence),
                               createdAt: Date(millisecondsSince1970: created), locale: locale, parts: found)
    }
}
