import Foundation
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import Testing

/// One scenario of events over the three stores: what a verification's life appends, in order,
/// with cursors for readers that pull, and what the retention sweep adds and removes.
enum EventScenarios {
    static func lifecycle(store: some VerificationEventStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        func all() async throws -> [VerificationEvent] { try await store.events(after: 0, limit: 1000) }
        func kinds(_ id: String) async throws -> [String] {
            try await all().filter { $0.verificationID == id }.map(\.kind.name)
        }

        // Start, a wrong code, a resend, the right code.
        let us = try await verifier.start(phoneNumber: Numbers.us)
        #expect(try await kinds(us.id) == ["started", "sent"])
        let started = try #require(try await all().first)
        #expect(started.details.maskedNumber == "+*********00")
        #expect(started.time == clock.now)
        #expect(try await all().last?.details.segments == 1)
        let wrong = sender.lastCode(to: Numbers.us) == "000000" ? "111111" : "000000"
        _ = try await verifier.check(id: us.id, code: wrong)
        clock.advance(by: .seconds(31))
        _ = try await verifier.start(phoneNumber: Numbers.us)
        _ = try await verifier.check(id: us.id, code: try #require(sender.lastCode(to: Numbers.us)))
        #expect(try await kinds(us.id) == ["started", "sent", "incorrect_code", "resent", "sent", "approved"])
        #expect(try await all().first { $0.kind == .incorrectCode }?.details.attemptsLeft == 4)

        // Every attempt wrong: the last one adds max_attempts.
        let brazil = try await verifier.start(phoneNumber: Numbers.brazil)
        let brazilWrong = sender.lastCode(to: Numbers.brazil) == "000000" ? "111111" : "000000"
        for _ in 0..<5 { _ = try await verifier.check(id: brazil.id, code: brazilWrong) }
        _ = try await verifier.check(id: brazil.id, code: brazilWrong)  // refused: changes nothing, no event
        #expect(try await kinds(brazil.id) == ["started", "sent"] + Array(repeating: "incorrect_code", count: 5) + ["max_attempts"])

        // A refusal of the guard: its reason and retry time, a masked number, under an ID of its own.
        let germany = try await verifier.start(phoneNumber: Numbers.germany)
        let refusal = await caught { try await verifier.start(phoneNumber: Numbers.germany) }
        #expect(refusal?.code == .resendCooldown)
        let refused = try #require(try await all().last)
        #expect(refused.kind == .refused)
        #expect(refused.details.reason == "resend_cooldown")
        #expect(refused.details.retryAt == refusal?.retryAfter.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) })
        #expect(refused.details.maskedNumber == "+***********89")
        #expect(refused.verificationID != germany.id && refused.sequence == 1)

        // Another party appends a delivery report: the verification's sequence goes on.
        let delivered = try await store.appendEvents([VerificationEvent(
            verificationID: us.id, kind: .delivered, time: clock.now, details: .init(messageID: "m-1", part: 1))])
        #expect(delivered.map(\.sequence) == [7])
        #expect(delivered.first?.id == us.id + ".7")

        // Cursors increase; pages of 3 give the whole log; sequences are 1...n per verification;
        // no event holds a number or a code in clear.
        let log = try await all()
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        var paged: [VerificationEvent] = []
        var cursor: Int64 = 0
        while true {
            let page = try await store.events(after: cursor, limit: 3)
            if page.isEmpty { break }
            #expect(page.count <= 3)
            paged += page
            cursor = page.last!.cursor
        }
        #expect(paged == log)
        #expect(Set(log.map(\.id)).count == log.count)
        for id in Set(log.map(\.verificationID)) {
            #expect(log.filter { $0.verificationID == id }.map(\.sequence) == Array(1...log.filter { $0.verificationID == id }.count))
        }
        let texts = log.map { String(decoding: $0.jsonBytes(), as: UTF8.self) }.joined()
        for number in [Numbers.us, Numbers.brazil, Numbers.germany] { #expect(!texts.contains(number.dropFirst())) }
        for sms in sender.messages { #expect(!texts.contains(try #require(sender.lastCode(to: sms.to)))) }

        // The sweep reports the open verification that ran out of time, once, at its expiry.
        clock.advance(by: .seconds(601))
        try await verifier.removeExpired()
        try await verifier.removeExpired()
        let expired = try await all().filter { $0.kind == .expired }
        #expect(expired.map(\.verificationID) == [germany.id])
        #expect(expired.first?.time == germany.expiresAt)
        #expect(try await kinds(germany.id) == ["started", "sent", "expired"])

        // Past the retention, the events go with the verifications.
        clock.advance(by: .seconds(30 * 86_400 + 1))
        try await verifier.removeExpired()
        #expect(try await all().isEmpty)
        #expect(try await store.events(after: 0, limit: 0).isEmpty)
    }
}

@Suite("Events: in memory")
struct InMemoryEventTests {
    @Test("a verification's events, cursors and the retention sweep")
    func lifecycle() async throws { try await EventScenarios.lifecycle(store: InMemoryVerificationStore()) }
}

@Suite("Events: SQLite")
struct SQLiteEventTests {
    @Test("a verification's events, cursors and the retention sweep")
    func lifecycle() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await EventScenarios.lifecycle(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }
}

@Suite("Events: PostgreSQL",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresEventTests {
    @Test("a verification's events, cursors and the retention sweep")
    func lifecycle() async throws {
        try await PostgresTestServer.withStores(1) { try await EventScenarios.lifecycle(store: $0[0]) }
    }
}

@Suite("Events: refusal floods")
struct RefusalFloodEventTests {
    /// A refused start writes nothing but its event, and those are rate-bounded per verifier: a
    /// flood of refusals appends at most the burst, then about five a second.
    @Test func refusedEventsAreBounded() async throws {
        let store = InMemoryVerificationStore()
        let clock = ManualClock()
        let verifier = try makeVerifier(store: store, sender: RecordingSender(), clock: clock) {
            $0.sendGuard.deniedRegions = ["US"]
        }
        for _ in 0..<200 { _ = await caught { try await verifier.start(phoneNumber: Numbers.us) } }
        #expect(try await store.events(after: 0, limit: 1000).count == 50)
        clock.advance(by: .seconds(2))
        for _ in 0..<200 { _ = await caught { try await verifier.start(phoneNumber: Numbers.us) } }
        #expect(try await store.events(after: 0, limit: 1000).count == 60)
        #expect(store.count == 0)
    }
}
