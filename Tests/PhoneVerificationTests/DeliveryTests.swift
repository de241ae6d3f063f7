import Foundation
import PhoneVerification
import PhoneVerificationSQLite
import Synchronization
import Testing

@Suite("Delivery states")
struct DeliveryStateTests {
    struct MergeCase: Sendable, CustomTestStringConvertible {
        let current: DeliveryState
        let reported: DeliveryState
        let state: DeliveryState
        let transition: DeliveryState.Transition
        var testDescription: String { "\(current) + \(reported) -> \(state) (\(transition))" }
    }

    static let merges: [MergeCase] = [
        .init(current: .queued, reported: .accepted, state: .accepted, transition: .changed),
        .init(current: .queued, reported: .delivered, state: .delivered, transition: .changed),
        .init(current: .accepted, reported: .delivered, state: .delivered, transition: .changed),
        .init(current: .accepted, reported: .unknown, state: .unknown, transition: .changed),
        .init(current: .unknown, reported: .accepted, state: .accepted, transition: .changed),
        .init(current: .unknown, reported: .failed, state: .failed, transition: .changed),
        .init(current: .accepted, reported: .expired, state: .expired, transition: .changed),
        // Late intermediate reports never move a part back.
        .init(current: .accepted, reported: .queued, state: .accepted, transition: .stale),
        .init(current: .delivered, reported: .accepted, state: .delivered, transition: .stale),
        .init(current: .failed, reported: .unknown, state: .failed, transition: .stale),
        // The first final state stays.
        .init(current: .delivered, reported: .failed, state: .delivered, transition: .stale),
        .init(current: .expired, reported: .delivered, state: .expired, transition: .stale),
        // Replays change nothing.
        .init(current: .delivered, reported: .delivered, state: .delivered, transition: .duplicate),
        .init(current: .accepted, reported: .accepted, state: .accepted, transition: .duplicate),
    ]

    @Test("merge: final states stay, late reports are stale, replays are duplicates", arguments: merges)
    func merge(_ test: MergeCase) {
        let (state, transition) = test.current.merged(with: test.reported)
        #expect(state == test.state)
        #expect(transition == test.transition)
    }

    @Test("every order of the same reports ends in the same state")
    func orderIndependent() {
        let reports: [DeliveryState] = [.accepted, .unknown, .delivered]
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for order in orders {
            let final = order.reduce(DeliveryState.queued) { $0.merged(with: reports[$1]).state }
            #expect(final == .delivered, "order \(order)")
        }
    }

    @Test("a message is delivered when all its parts are, failed when any part failed")
    func combined() {
        #expect(DeliveryState.combined([]) == .queued)
        #expect(DeliveryState.combined([.queued, .queued]) == .queued)
        #expect(DeliveryState.combined([.delivered, .queued]) == .accepted)
        #expect(DeliveryState.combined([.delivered, .accepted]) == .accepted)
        #expect(DeliveryState.combined([.delivered, .delivered]) == .delivered)
        #expect(DeliveryState.combined([.delivered, .failed]) == .failed)
        #expect(DeliveryState.combined([.queued, .failed]) == .failed)
        #expect(DeliveryState.combined([.delivered, .expired]) == .expired)
        #expect(DeliveryState.combined([.accepted, .expired]) == .accepted)
        #expect(DeliveryState.combined([.unknown, .delivered]) == .unknown)
    }

    @Test("a part keeps the first provider ID and the error code of its failure")
    func partFields() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let part = DeliveryPart(number: 1, updatedAt: t0)
        let target = DeliveryReport.Target.token(digest: [], part: 1)
        let failed = part.applying(DeliveryReport(target: target, state: .failed, errorCode: "011",
                                                  receivedAt: t0 + 5, doneAt: t0 + 3)).part
        #expect(failed.state == .failed && failed.errorCode == "011" && failed.doneAt == t0 + 3 && failed.updatedAt == t0 + 5)
        // A late submit response still gives the part its ID, and changes nothing else.
        let (late, transition) = failed.applying(DeliveryReport(target: target, state: .accepted, providerMessageID: "3E8",
                                                                receivedAt: t0 + 6))
        #expect(transition == .stale && late.state == .failed && late.providerMessageID == "3e8" && late.errorCode == "011")
        let (again, _) = late.applying(DeliveryReport(target: target, state: .accepted, providerMessageID: "99",
                                                      receivedAt: t0 + 7))
        #expect(again.providerMessageID == "3e8")
    }

    @Test("provider IDs match in either base and with zero padding; hostile IDs are not kept")
    func providerIDs() {
        #expect(DeliveryReport.providerIDForms("3E8") == ["3e8", "1000"])
        #expect(Set(DeliveryReport.providerIDForms("0000001000")).isSuperset(of: ["1000", "3e8"]))
        #expect(DeliveryReport.providerIDForms("") == [])
        #expect(DeliveryReport.providerIDForms(String(repeating: "9", count: 66)) == [])
        #expect(DeliveryReport.providerIDForms("ab cd") == [])
        #expect(DeliveryReport.providerIDForms("çö") == [])
        let report = DeliveryReport(target: .providerMessageID("x"), state: .failed, errorCode: "e\u{0}rr",
                                    receivedAt: Date())
        #expect(report.errorCode == nil)
    }

    @Test("tokens are 128 random bits; stores see only their SHA-256")
    func tokens() {
        let tokens = (0..<100).map { _ in DeliveryMessage.makeToken() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.utf8.count == 22 && DeliveryMessage.isWellFormedToken($0) })
        #expect(!DeliveryMessage.isWellFormedToken("short"))
        let message = DeliveryMessage(token: tokens[0], verificationID: "v", sequence: 1, partCount: 2, createdAt: Date())
        #expect(message.tokenDigest.count == 32 && message.tokenDigest != Array(tokens[0].utf8))
        #expect(message.parts.map(\.number) == [1, 2])
    }

    @Test("masked numbers keep the plus, the length and the last digits")
    func masked() {
        #expect(VerificationStatus.masked("+905321234567") == "+**********67")
        #expect(VerificationStatus.masked("+905321234567", visible: 4) == "+********4567")
        #expect(VerificationStatus.masked("+1", visible: 4) == "+1")
    }
}

/// A sender that, while it sends, hands every part's report to `during` (as a fast gateway whose
/// report arrives before the submit returns), then answers with `providerIDs`.
final class ReportingSender: SMSSender {
    typealias During = @Sendable (OutgoingSMS) async throws -> Void
    private let state = Mutex<(sent: [OutgoingSMS], ids: [String?], during: During?)>(([], [], nil))

    func next(providerIDs: [String?], during: During? = nil) {
        state.withLock { $0.ids = providerIDs; $0.during = during }
    }

    var sent: [OutgoingSMS] { state.withLock { $0.sent } }

    func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS {
        let (ids, during) = state.withLock { state in
            state.sent.append(sms)
            return (state.ids, state.during)
        }
        try await during?(sms)
        return SubmittedSMS(providerMessageIDs: ids)
    }

    func lastCode() -> String? {
        guard let sms = sent.last else { return nil }
        return String(String.UnicodeScalarView(sms.text.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }))
    }
}

extension StoreScenarios {
    /// Messages, delivery reports, status, cancel and the retention sweep: every store gives the same answers.
    static func delivery(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = ReportingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)

        // A receipt that arrives before the submit returned finds the message, and the late
        // submit response only adds the provider ID.
        sender.next(providerIDs: ["3E8"]) { sms in
            let token = try #require(sms.deliveryToken)
            let result = try await store.applyDeliveryReport(DeliveryReport(
                target: .token(digest: DeliveryMessage.digest(ofToken: token), part: 1), state: .delivered,
                receivedAt: clock.now))
            #expect(result?.messageBecameFinal == true && result?.transition == .changed)
        }
        let first = try await verifier.start(phoneNumber: Numbers.us)
        var status = try #require(try await verifier.status(id: first.id))
        #expect(status.messages.count == 1)
        let message = try #require(status.messages.first)
        #expect(message.state == .delivered && message.sequence == 1)
        #expect(message.parts.map(\.providerMessageID) == ["3e8"])
        #expect(message.verificationID == first.id)
        #expect(message.locale == first.locale && status.locale == first.locale && !first.locale.isEmpty)
        // The store never holds the token.
        let token = try #require(sender.sent.last?.deliveryToken)
        #expect(message.tokenDigest == DeliveryMessage.digest(ofToken: token))

        // The SMS centre's receipt names the part in decimal: a replay of the state it has.
        let receipt = try #require(try await store.applyDeliveryReport(DeliveryReport(
            target: .providerMessageID("0000001000"), state: .delivered, receivedAt: clock.now)))
        #expect(receipt.transition == .duplicate && !receipt.partChanged && !receipt.messageBecameFinal)
        #expect(receipt.verificationID == first.id)

        // A resend is a second message; its submit response makes it accepted.
        clock.advance(by: .seconds(30))
        sender.next(providerIDs: ["abc-2"])
        let resent = try await verifier.start(phoneNumber: Numbers.us)
        #expect(resent.isResend && resent.id == first.id)
        status = try #require(try await verifier.status(id: first.id))
        #expect(status.messages.map(\.sequence) == [1, 2])
        #expect(status.messages.map(\.state) == [.delivered, .accepted])
        #expect(status.messages[1].parts[0].providerMessageID == "abc-2")

        // A two-part message: delivered only when both parts are, whatever the order and replays.
        let twoPart = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: first.id, sequence: 3,
                                      partCount: 2, createdAt: clock.now)
        try await store.recordMessage(twoPart)
        func report(_ message: DeliveryMessage, part: Int, _ state: DeliveryState, error: String? = nil,
                    id: String? = nil) async throws -> DeliveryReportResult? {
            try await store.applyDeliveryReport(DeliveryReport(
                target: .token(digest: message.tokenDigest, part: part), state: state, providerMessageID: id,
                errorCode: error, receivedAt: clock.now))
        }
        var result = try #require(try await report(twoPart, part: 2, .delivered))
        #expect(result.state == .accepted && result.transition == .changed && result.sequence == 3 && result.part == 2)
        result = try #require(try await report(twoPart, part: 2, .delivered))
        #expect(result.transition == .duplicate && result.state == .accepted)
        result = try #require(try await report(twoPart, part: 1, .accepted))
        #expect(result.transition == .changed && result.state == .accepted && !result.messageBecameFinal)
        clock.advance(by: .seconds(1))
        result = try #require(try await report(twoPart, part: 1, .delivered))
        #expect(result.state == .delivered && result.previousState == .accepted && result.messageBecameFinal)
        result = try #require(try await report(twoPart, part: 1, .failed, error: "011"))
        #expect(result.transition == .stale && result.state == .delivered && !result.messageBecameFinal)
        // A part that does not exist, a token nobody has, an ID nobody gave: nothing matches.
        #expect(try await report(twoPart, part: 3, .delivered) == nil)
        #expect(try await report(twoPart, part: 0, .delivered) == nil)
        let forged = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: first.id, sequence: 9,
                                     partCount: 1, createdAt: clock.now)
        #expect(try await report(forged, part: 1, .delivered) == nil)
        #expect(try await store.applyDeliveryReport(DeliveryReport(
            target: .providerMessageID("deadbeef00"), state: .delivered, receivedAt: clock.now)) == nil)

        // Failed with the network's error code; a later delivery of the other part does not undo it.
        let rejected = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: first.id, sequence: 4,
                                       partCount: 2, createdAt: clock.now)
        try await store.recordMessage(rejected)
        result = try #require(try await report(rejected, part: 1, .failed, error: "011", id: "77"))
        #expect(result.state == .failed && result.errorCode == "011" && result.messageBecameFinal)
        result = try #require(try await report(rejected, part: 2, .delivered))
        #expect(result.state == .failed && !result.messageBecameFinal)
        // Both parts of a message reported at once: both count.
        let concurrent = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: first.id, sequence: 5,
                                         partCount: 2, createdAt: clock.now)
        try await store.recordMessage(concurrent)
        let finals = try await withThrowingTaskGroup(of: Bool.self) { group in
            for part in 1...2 { group.addTask { try await report(concurrent, part: part, .delivered)?.messageBecameFinal ?? false } }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(finals == 1)
        status = try #require(try await verifier.status(id: first.id))
        #expect(status.messages.map(\.state) == [.delivered, .accepted, .delivered, .failed, .delivered])
        #expect(status.messages[3].errorCode == "011" && status.messages[3].parts[0].providerMessageID == "77")
        #expect(status.phase(at: clock.now) == "pending" && status.attemptsLeft(at: clock.now) == 5)

        // A send that fails marks its message failed and closes the verification.
        sender.next(providerIDs: []) { _ in throw FailingSender.Down() }
        #expect(await caught { try await verifier.start(phoneNumber: Numbers.germany) }?.code == .sendFailed)
        let failedID = try #require(sender.sent.last?.verificationID)
        status = try #require(try await verifier.status(id: failedID))
        #expect(status.phase(at: clock.now) == "closed")
        #expect(status.messages.map(\.state) == [.failed] && status.messages[0].errorCode == "send_failed")
        sender.next(providerIDs: [])

        // Cancel: a cancelled verification approves nothing; an approved one cannot be cancelled.
        let other = try await verifier.start(phoneNumber: Numbers.brazil)
        let otherCode = try #require(sender.lastCode())
        #expect(try await verifier.cancel(id: other.id) == .cancelled)
        #expect(try await verifier.cancel(id: other.id) == .alreadyCancelled)
        #expect(try await verifier.check(id: other.id, code: otherCode) == .expired)
        status = try #require(try await verifier.status(id: other.id))
        #expect(status.phase(at: clock.now) == "cancelled" && status.attemptsLeft(at: clock.now) == 0)
        #expect(status.record.state == .cancelled)
        // A resend start for the number does not revive it: a new verification comes instead.
        clock.advance(by: .seconds(30))
        let fresh = try await verifier.start(phoneNumber: Numbers.brazil)
        #expect(fresh.id != other.id && !fresh.isResend)
        let firstCode = try #require(sender.sent.filter { $0.verificationID == first.id }.last.map { sms in
            String(String.UnicodeScalarView(sms.text.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }))
        })
        #expect(try await verifier.check(id: first.id, code: firstCode) == .approved(e164: Numbers.us))
        #expect(try await verifier.cancel(id: first.id) == .alreadyApproved)
        #expect(try await verifier.cancel(id: "AAAAAAAAAAAAAAAAAAAAAA") == .notFound)
        #expect(try await verifier.cancel(id: "not an id") == .notFound)
        #expect(try await verifier.status(id: "AAAAAAAAAAAAAAAAAAAAAA") == nil)
        #expect(try await verifier.status(id: first.id)?.phase(at: clock.now) == "approved")

        // The retention sweep takes the messages with their verification.
        clock.advance(by: .seconds(3600))
        try await store.removeExpired(now: clock.now, retention: .seconds(60))
        #expect(try await verifier.status(id: first.id) == nil)
        #expect(try await report(twoPart, part: 1, .delivered) == nil)
        #expect(try await store.applyDeliveryReport(DeliveryReport(
            target: .providerMessageID("1000"), state: .delivered, receivedAt: clock.now)) == nil)
    }

}

@Suite("Delivery reports in every store")
struct DeliveryStoreTests {
    @Test("in memory: messages, reports, status, cancel, sweep")
    func memory() async throws {
        let store = InMemoryVerificationStore()
        try await StoreScenarios.delivery(store: store)
        #expect(store.messageCount == 0)
    }

    @Test("SQLite: messages, reports, status, cancel, sweep")
    func sqlite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        try await StoreScenarios.delivery(store: store)
        let counts = try await store.messageCounts()
        #expect(counts.messages == 0 && counts.parts == 0)
    }

    @Test("PostgreSQL: messages, reports, status, cancel, sweep",
          .enabled(if: PostgresTestServer.enabled, "SMSKIT_TEST_POSTGRES_URL is not set"))
    func postgres() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            try await StoreScenarios.delivery(store: stores[0])
            let counts = try await stores[0].messageCounts()
            #expect(counts.messages == 0 && counts.parts == 0)
        }
    }

    @Test("PostgreSQL: a report through either of two clients updates the same message",
          .enabled(if: PostgresTestServer.enabled, "SMSKIT_TEST_POSTGRES_URL is not set"))
    func postgresTwoClients() async throws {
        try await PostgresTestServer.withStores(2) { stores in
            let clock = ManualClock()
            let sender = ReportingSender()
            let verifier = try makeVerifier(store: stores[0], sender: sender, clock: clock)
            let started = try await verifier.start(phoneNumber: Numbers.germany)
            let token = try #require(sender.sent.last?.deliveryToken)
            let message = DeliveryMessage(token: DeliveryMessage.makeToken(), verificationID: started.id, sequence: 2,
                                          partCount: 2, createdAt: clock.now)
            try await stores[1].recordMessage(message)
            let viaSecond = try await stores[1].applyDeliveryReport(DeliveryReport(
                target: .token(digest: DeliveryMessage.digest(ofToken: token), part: 1), state: .delivered,
                receivedAt: clock.now))
            #expect(viaSecond?.messageBecameFinal == true)
            _ = try await stores[0].applyDeliveryReport(DeliveryReport(
                target: .token(digest: message.tokenDigest, part: 1), state: .delivered, receivedAt: clock.now))
            let last = try await stores[1].applyDeliveryReport(DeliveryReport(
                target: .token(digest: message.tokenDigest, part: 2), state: .delivered, receivedAt: clock.now))
            #expect(last?.messageBecameFinal == true)
            let status = try #require(try await stores[0].status(id: started.id))
            #expect(status.messages.map(\.state) == [.delivered, .delivered])
        }
    }
}
