import Foundation
import GRDB
import PhoneVerification

extension SQLiteVerificationStore {
    /// The tables of the SMS sent for each verification and their parts. Both cascade from the
    /// verification, so the retention sweep bounds them with it.
    static func migrateDelivery(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS messages (
                token_digest BLOB PRIMARY KEY NOT NULL,
                verification_id TEXT NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
                sequence INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                locale TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS messages_verification ON messages (verification_id, sequence);
            CREATE TABLE IF NOT EXISTS message_parts (
                token_digest BLOB NOT NULL REFERENCES messages (token_digest) ON DELETE CASCADE,
                part INTEGER NOT NULL,
                state TEXT NOT NULL,
                provider_id TEXT,
                error_code TEXT,
                updated_at INTEGER NOT NULL,
                done_at INTEGER,
                PRIMARY KEY (token_digest, part)
            );
            CREATE INDEX IF NOT EXISTS message_parts_provider ON message_parts (provider_id) WHERE provider_id IS NOT NULL;
            """)
    }

    public func recordMessage(_ message: DeliveryMessage) async throws {
        try await transaction { db in try Self.insert(message, db: db) }
    }

    static func insert(_ message: DeliveryMessage, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO messages (token_digest, verification_id, sequence, created_at, locale) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [Data(message.tokenDigest), message.verificationID, message.sequence,
                                     message.createdAt.millisecondsSince1970, message.locale])
        for part in message.parts { try write(part, digest: message.tokenDigest, db: db) }
    }

    public func applyDeliveryReport(_ report: DeliveryReport, counting: ConversionCounting?) async throws
        -> DeliveryReportResult? {
        try await transaction { db in
            let digest: Data, number: Int
            switch report.target {
            case .token(let tokenDigest, let part):
                (digest, number) = (Data(tokenDigest), part)
            case .providerMessageID(let id):
                let forms = DeliveryReport.providerIDForms(id)
                guard !forms.isEmpty, let row = try Row.fetchOne(db, sql: """
                    SELECT token_digest, part FROM message_parts WHERE provider_id IN (\(forms.map { _ in "?" }.joined(separator: ", ")))
                    ORDER BY updated_at DESC LIMIT 1
                    """, arguments: StatementArguments(forms)) else { return nil }
                (digest, number) = (row[0], row[1])
            }
            guard let message = try Self.message(digest: digest, db: db),
                  let (updated, result) = message.applying(report, toPart: number) else { return nil }
            if result.partChanged, let part = updated.parts.first(where: { $0.number == number }) {
                try Self.write(part, digest: message.tokenDigest, db: db)
            }
            _ = try Self.append(result.events(at: report.receivedAt), in: db)
            // In the report's transaction: the report and its count commit together, once.
            if let counting, result.conversionMetric != nil,
               let e164 = try String.fetchOne(db.cachedStatement(sql: "SELECT e164 FROM verifications WHERE id = ?"),
                                              arguments: [result.verificationID]) {
                var transaction = Transaction(db: db)
                try transaction.count(result.conversionKeys(e164: e164, counting: counting), window: counting.window,
                                      now: counting.now)
            }
            return result
        }
    }

    public func status(id: String) async throws -> VerificationStatus? {
        try await read { db in
            guard let record = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM verifications WHERE id = ?",
                                                arguments: [id]).map(Self.record) else { return nil }
            let digests = try Data.fetchAll(db, sql: "SELECT token_digest FROM messages WHERE verification_id = ? ORDER BY sequence",
                                            arguments: [id])
            return VerificationStatus(record: record, messages: try digests.compactMap { try Self.message(digest: $0, db: db) })
        }
    }

    public func cancel(id: String, now: Date) async throws -> CancelOutcome {
        try await transaction { db in
            guard let record = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM verifications WHERE id = ?",
                                                arguments: [id]).map(Self.record) else { return .notFound }
            let (cancelled, outcome) = record.cancelling()
            if outcome == .cancelled {
                try db.execute(sql: "UPDATE verifications SET state = ? WHERE id = ?",
                               arguments: [cancelled.state.rawValue, id])
            }
            _ = try Self.append(outcome.events(id: id, now: now), in: db)
            return outcome
        }
    }

    /// How many messages and parts the file holds (for tests and monitoring).
    package func messageCounts() async throws -> (messages: Int, parts: Int) {
        try await read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM message_parts") ?? 0)
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.mapped(error)
        }
    }

    private static func message(digest: Data, db: Database) throws -> DeliveryMessage? {
        guard let head = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT verification_id, sequence, created_at, locale FROM messages WHERE token_digest = ?
            """), arguments: [digest]) else { return nil }
        let parts = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT part, state, provider_id, error_code, updated_at, done_at FROM message_parts
            WHERE token_digest = ? ORDER BY part
            """), arguments: [digest]).map { row -> DeliveryPart in
            guard let state = DeliveryState(rawValue: row["state"]) else {
                throw VerificationStoreError(.corrupted, "a message part has an unknown delivery state")
            }
            let done: Int64? = row["done_at"]
            return DeliveryPart(number: row["part"], state: state, providerMessageID: row["provider_id"],
                                errorCode: row["error_code"], updatedAt: Date(millisecondsSince1970: row["updated_at"]),
                                doneAt: done.map { Date(millisecondsSince1970: $0) })
        }
        return DeliveryMessage(tokenDigest: Array(digest), verificationID: head["verification_id"], sequence: head["sequence"],
                               createdAt: Date(millisecondsSince1970: head["created_at"]), locale: head["locale"],
                               parts: parts)
    }

    private static func write(_ part: DeliveryPart, digest: [UInt8], db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO message_parts (token_digest, part, state, provider_id, error_code, updated_at, done_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (token_digest, part) DO UPDATE SET state = excluded.state, provider_id = excluded.provider_id,
                error_code = excluded.error_code, updated_at = excluded.updated_at, done_at = excluded.done_at
            """).execute(arguments: [Data(digest), part.number, part.state.rawValue, part.providerMessageID, part.errorCode,
                                     part.updatedAt.millisecondsSince1970, part.doneAt?.millisecondsSince1970])
    }
}
