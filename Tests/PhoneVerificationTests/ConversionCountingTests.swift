import Foundation
import Logging
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import PostgresNIO
import Testing

/// Approvals and delivery reports are counted in the conversion statistics by the store, in the
/// transaction of the change: whatever arrives at once, through however many verifiers (processes),
/// each message counts once and each verification's approval once.
extension ConversionScenarios {
    static func concurrentCounts(first: any VerificationStore, second: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = ReportingSender()
        let verifiers = [try makeVerifier(store: first, sender: sender, clock: clock),
                         try makeVerifier(store: second, sender: sender, clock: clock)]
        var started: [(id: String, digest: [UInt8], code: String)] = []
        for index in 0..<4 {
            let verification = try await verifiers[index % 2].start(phoneNumber: inRange(index))
            let sms = try #require(sender.sent.last)
            let code = String(String.UnicodeScalarView(sms.text.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }))
            started.append((verification.id, DeliveryMessage.digest(ofToken: try #require(sms.deliveryToken)), code))
        }
        // Per verification: twelve copies of its report (eight delivered, four failed: the first
        // final one wins) and twelve checks of its right code, half through each verifier, all at once.
        let (approvals, finals) = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
            for verification in started {
                for copy in 0..<12 {
                    let verifier = verifiers[copy % 2]
                    group.addTask {
                        let report = DeliveryReport(target: .token(digest: verification.digest, part: 1),
                                                    state: copy % 3 == 2 ? .failed : .delivered, receivedAt: clock.now)
                        return (false, try await verifier.applyDeliveryReport(report)?.messageBecameFinal ?? false)
                    }
                    group.addTask { (try await verifier.check(id: verification.id, code: verification.code).isApproved, false) }
                }
            }
            var counts = (0, 0)
            for try await (approved, final) in group {
                counts.0 += approved ? 1 : 0
                counts.1 += final ? 1 : 0
            }
            return counts
        }
        #expect(approvals == 4)
        #expect(finals == 4)
        let row = try #require(try await verifiers[1].conversionStats(by: .region).first)
        #expect(row.value == "GB" && row.sent == 4 && row.approved == 4)
        #expect(row.delivered + row.failed == 4)
        let range = try #require(try await verifiers[0].conversionStats(by: .range).first)
        #expect(range.approved == 4 && range.delivered + range.failed == 4)
    }
}

@Suite("Conversion counts in the change's transaction")
struct ConversionCountingTests {
    @Test("in memory: concurrent duplicate reports and right codes count once each")
    func memory() async throws {
        let store = InMemoryVerificationStore()
        try await ConversionScenarios.concurrentCounts(first: store, second: store)
    }

    @Test("SQLite, two stores on one file: concurrent duplicate reports and right codes count once each")
    func sqlite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await ConversionScenarios.concurrentCounts(first: try SQLiteVerificationStore(path: directory + "/v.sqlite"),
                                                       second: try SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }
}

@Suite("Conversion counts in the change's transaction: PostgreSQL",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresConversionCountingTests {
    static let logger = Logger(label: "smskit.tests.counting")

    @Test("two clients: concurrent duplicate reports and right codes count once each")
    func twoClients() async throws {
        try await PostgresTestServer.withStores(2) { stores in
            try await ConversionScenarios.concurrentCounts(first: stores[0], second: stores[1])
        }
    }

    /// The rows a start, a check and a delivered report write carry the ID of the transaction that
    /// wrote them last (`xmin`): the message with the `started` event, the approval's counters with
    /// the `approved` event, the delivery's counters with the `delivered` event. A triple commits
    /// four times: the start, the `sent` event (after the send), the check and the report.
    @Test("a start, its check and its delivered report commit four transactions, each with its own writes")
    func commitsPerTriple() async throws {
        try await PostgresTestServer.withClients(1) { clients, stores, p in
            let clock = ManualClock()
            let sender = ReportingSender()
            let verifier = try makeVerifier(store: stores[0], sender: sender, clock: clock)
            let started = try await verifier.start(phoneNumber: ConversionScenarios.gbA)
            let code = try #require(sender.lastCode())
            #expect(try await verifier.check(id: started.id, code: code).isApproved)
            let token = try #require(sender.sent.last?.deliveryToken)
            let report = DeliveryReport(target: .token(digest: DeliveryMessage.digest(ofToken: token), part: 1),
                                        state: .delivered, receivedAt: clock.now)
            #expect(try await verifier.applyDeliveryReport(report)?.messageBecameFinal == true)

            func xmins(_ sql: String) async throws -> [String] {
                try await clients[0].query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect()
                    .map { try $0.decode(String.self) }
            }
            let id = started.id
            let events = try await xmins("""
                SELECT kind || '=' || xmin::text FROM \(p)_events WHERE verification_id = '\(id)' ORDER BY sequence
                """)
            let byKind = Dictionary(uniqueKeysWithValues: events.map { line in
                let parts = line.split(separator: "=")
                return (String(parts[0]), String(parts[1]))
            })
            #expect(events.map { $0.split(separator: "=")[0] } == ["started", "sent", "approved", "delivered"])
            #expect(Set(byKind.values).count == 4)
            let message = try await xmins("SELECT xmin::text FROM \(p)_messages WHERE verification_id = '\(id)'")
            let verification = try await xmins("SELECT xmin::text FROM \(p)_verifications WHERE id = '\(id)'")
            let part = try await xmins("""
                SELECT p.xmin::text FROM \(p)_message_parts p JOIN \(p)_messages m USING (token_digest)
                WHERE m.verification_id = '\(id)'
                """)
            let approvedCounters = try await xmins("SELECT xmin::text FROM \(p)_windows WHERE key LIKE 'xa:%' ORDER BY key")
            let deliveredCounters = try await xmins("SELECT xmin::text FROM \(p)_windows WHERE key LIKE 'xd:%' ORDER BY key")
            let (start, check, delivery) = (try #require(byKind["started"]), try #require(byKind["approved"]),
                                            try #require(byKind["delivered"]))
            #expect(message == [start])
            #expect(verification == [check])
            #expect(approvedCounters.count == 3 && Set(approvedCounters) == [check])
            #expect(part == [delivery])
            #expect(deliveredCounters.count == 3 && Set(deliveredCounters) == [delivery])
        }
    }
}
