import Foundation
import Synchronization
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

    /// Delivery reports and cancels append their events with the change they make, once: a
    /// replay, a stale report or a repeated cancel appends nothing.
    static func deliveryAndCancel(store: some VerificationEventStore) async throws {
        let clock = ManualClock()
        let sender = ReportingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        func events(_ id: String) async throws -> [VerificationEvent] {
            try await store.events(after: 0, limit: 1000).filter { $0.verificationID == id }
        }
        func report(_ target: DeliveryReport.Target, _ state: DeliveryState, error: String? = nil) async throws {
            _ = try await verifier.applyDeliveryReport(DeliveryReport(target: target, state: state, errorCode: error,
                                                                      receivedAt: clock.now))
        }

        // Delivered by the SMS centre's receipt; its replay appends nothing.
        sender.next(providerIDs: ["p-1"])
        let us = try await verifier.start(phoneNumber: Numbers.us)
        let usCode = try #require(sender.lastCode())
        clock.advance(by: .seconds(2))
        try await report(.providerMessageID("p-1"), .delivered)
        try await report(.providerMessageID("p-1"), .delivered)
        var log = try await events(us.id)
        #expect(log.map(\.kind.name) == ["started", "sent", "delivered"])
        #expect(log.last?.details.messageID == "1" && log.last?.time == clock.now)

        // A failed part fails the message: one delivery_failed with the part and its error code,
        // and a later report of another part adds nothing.
        sender.next(providerIDs: [])
        let brazil = try await verifier.start(phoneNumber: Numbers.brazil)
        let brazilToken = try #require(sender.sent.last?.deliveryToken)
        let brazilDigest = DeliveryMessage.digest(ofToken: brazilToken)
        try await report(.token(digest: brazilDigest, part: 1), .failed, error: "0x0b")
        try await report(.token(digest: brazilDigest, part: 1), .expired)
        log = try await events(brazil.id)
        #expect(log.map(\.kind.name) == ["started", "sent", "delivery_failed"])
        #expect(log.last?.details == .init(messageID: "1", part: 1, errorCode: "0x0b"))

        // Of a two-part message, an expired part leaves the message open; the other's failure
        // fails it, reported once. A message whose only part expired is reported as expired.
        let twoPart = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: brazil.id, sequence: 2,
                                      partCount: 2, createdAt: clock.now)
        try await store.recordMessage(twoPart)
        try await report(.token(digest: twoPart.tokenDigest, part: 2), .expired)
        #expect(try await events(brazil.id).count == 3)
        try await report(.token(digest: twoPart.tokenDigest, part: 1), .failed, error: "0x45")
        try await report(.token(digest: twoPart.tokenDigest, part: 1), .delivered)
        log = try await events(brazil.id)
        #expect(log.count == 4)
        #expect(log.last?.kind == .deliveryFailed && log.last?.details == .init(messageID: "2", part: 1, errorCode: "0x45"))
        let lone = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: brazil.id, sequence: 3,
                                   partCount: 1, createdAt: clock.now)
        try await store.recordMessage(lone)
        try await report(.token(digest: lone.tokenDigest, part: 1), .expired)
        log = try await events(brazil.id)
        #expect(log.count == 5)
        #expect(log.last?.kind == .deliveryFailed && log.last?.details == .init(messageID: "3", part: 1, errorCode: "expired"))

        // A sender that refuses the SMS: one delivery_failed, send_failed.
        sender.next(providerIDs: []) { _ in throw CancellationError() }
        let refused = await caught { try await verifier.start(phoneNumber: "+16502530001") }
        #expect(refused?.code == .sendFailed)
        let refusedID = try #require(sender.sent.last?.verificationID)
        #expect(try await events(refusedID).map(\.kind.name) == ["started", "delivery_failed"])
        #expect(try await events(refusedID).last?.details.errorCode == "send_failed")

        // Cancelled once; a repeat, an approved verification and an unknown ID append nothing.
        sender.next(providerIDs: [])
        let germany = try await verifier.start(phoneNumber: Numbers.germany)
        #expect(try await verifier.cancel(id: germany.id) == .cancelled)
        #expect(try await verifier.cancel(id: germany.id) == .alreadyCancelled)
        #expect(try await events(germany.id).map(\.kind.name) == ["started", "sent", "cancelled"])
        #expect(try await verifier.check(id: us.id, code: usCode) == .approved(e164: Numbers.us))
        #expect(try await verifier.cancel(id: us.id) == .alreadyApproved)
        #expect(try await events(us.id).map(\.kind.name) == ["started", "sent", "delivered", "approved"])
        let before = try await store.events(after: 0, limit: 1000).count
        #expect(try await verifier.cancel(id: DeliveryMessage.makeToken()) == .notFound)
        #expect(try await store.events(after: 0, limit: 1000).count == before)
    }

    /// Many tasks start verifications (each start appends `started`, then `sent`) while a reader
    /// pulls from its last cursor all the while: every event is read exactly once, and each
    /// verification's events in their sequence order. `writer` and `reader` may be one store or
    /// two clients of one database.
    static func concurrentReaders(writer: some VerificationEventStore, reader: some VerificationEventStore,
                                  tasks: Int = 8, startsPerTask: Int = 12) async throws {
        let verifier = try makeVerifier(store: writer, sender: RecordingSender(), clock: ManualClock()) {
            $0.sendGuard.rangeVelocity = nil
            $0.sendGuard.regionCaps = nil
            $0.sendGuard.rangeHold = nil
            $0.sendGuard.regionHold = nil
        }
        let done = DoneFlag()
        let read = try await withThrowingTaskGroup(of: [VerificationEvent].self) { group in
            group.addTask {
                var read: [VerificationEvent] = []
                var cursor: Int64 = 0
                while true {
                    let finished = done.isSet  // read before the page: a last page after the writers
                    let page = try await reader.events(after: cursor, limit: 7)
                    read += page
                    cursor = page.last?.cursor ?? cursor
                    if page.isEmpty {
                        if finished { return read }
                        await Task.yield()
                    }
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { writers in
                for task in 0..<tasks {
                    writers.addTask {
                        for index in 0..<startsPerTask {
                            _ = try await verifier.start(phoneNumber: "+1650253\(String(format: "%04d", task * 100 + index))")
                        }
                    }
                }
                try await writers.waitForAll()
            }
            done.set()
            return try await group.next() ?? []
        }
        let all = try await reader.events(after: 0, limit: 10_000)
        #expect(all.count == 2 * tasks * startsPerTask)
        #expect(read.map(\.id) == all.map(\.id))
        #expect(Set(read.map(\.id)).count == read.count)
        for (id, events) in Dictionary(grouping: read, by: \.verificationID) {
            #expect(events.map(\.kind.name) == ["started", "sent"], "\(id)")
            #expect(events.map(\.sequence) == [1, 2])
        }
    }
}

/// Set once, read by another task.
final class DoneFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}

@Suite("Events: in memory")
struct InMemoryEventTests {
    @Test("a verification's events, cursors and the retention sweep")
    func lifecycle() async throws { try await EventScenarios.lifecycle(store: InMemoryVerificationStore()) }

    @Test("delivery reports and cancels append their events once")
    func deliveryAndCancel() async throws { try await EventScenarios.deliveryAndCancel(store: InMemoryVerificationStore()) }

    @Test("concurrent starts with a reader pulling all the while: every event read once")
    func concurrentReaders() async throws {
        let store = InMemoryVerificationStore()
        try await EventScenarios.concurrentReaders(writer: store, reader: store)
    }
}

@Suite("Events: SQLite")
struct SQLiteEventTests {
    @Test("a verification's events, cursors and the retention sweep")
    func lifecycle() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await EventScenarios.lifecycle(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("delivery reports and cancels append their events once")
    func deliveryAndCancel() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await EventScenarios.deliveryAndCancel(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("concurrent starts with a reader pulling all the while: every event read once")
    func concurrentReaders() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        try await EventScenarios.concurrentReaders(writer: store, reader: store)
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

    @Test("delivery reports and cancels append their events once")
    func deliveryAndCancel() async throws {
        try await PostgresTestServer.withStores(1) { try await EventScenarios.deliveryAndCancel(store: $0[0]) }
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
