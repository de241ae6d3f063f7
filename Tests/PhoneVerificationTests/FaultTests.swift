import Foundation
import PhoneVerification
import Testing

@Suite("PhoneVerifier: faults")
struct FaultTests {
    let clock = ManualClock()
    let sender = RecordingSender()

    @Test("a sender that fails closes the verification: no usable code without an SMS")
    func senderFailure() async throws {
        let store = InMemoryVerificationStore()
        let verifier = try makeVerifier(store: store, sender: FailingSender(), clock: clock)
        let error = await caught { try await verifier.start(phoneNumber: Numbers.us) }
        #expect(error?.code == .sendFailed)
        #expect(try await store.openVerification(e164: Numbers.us, now: clock.now) == nil)
        // The next start is a new verification (not a resend of the closed one), after the cooldown-free path.
        let working = try makeVerifier(store: store, sender: sender, clock: clock)
        let started = try await working.start(phoneNumber: Numbers.us)
        #expect(!started.isResend)
    }

    @Test("a store that is down: typed error, nothing approved", arguments: [FaultyStore.Mode.down])
    func storeDown(_ mode: FaultyStore.Mode) async throws {
        let verifier = try makeVerifier(store: FaultyStore(mode: mode), sender: sender, clock: clock)
        #expect(await caught { try await verifier.start(phoneNumber: Numbers.us) }?.code == .storeUnavailable)
        #expect(await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }?.code
                    == .storeUnavailable)
        #expect(sender.messages.isEmpty)
    }

    @Test("a store that hangs: store_timeout after the configured time")
    func storeTimeout() async throws {
        let verifier = try makeVerifier(store: FaultyStore(mode: .hang), sender: sender, clock: clock) {
            $0.storeTimeout = .milliseconds(100)
        }
        #expect(await caught { try await verifier.start(phoneNumber: Numbers.us) }?.code == .storeTimeout)
        #expect(await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }?.code
                    == .storeTimeout)
        #expect(sender.messages.isEmpty)
    }

    @Test("the in-memory store is bounded: expired entries are evicted, live ones never")
    func bounded() async throws {
        let store = InMemoryVerificationStore(capacity: 3)
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) {
            $0.sendGuard = SendGuard(numberLimit: nil, clientLimit: nil, rangeVelocity: nil)
        }
        for index in 0..<3 { _ = try await verifier.start(phoneNumber: "+1212736000\(index)") }
        #expect(await caught { try await verifier.start(phoneNumber: "+12127360009") }?.code == .storeFull)
        clock.advance(by: .seconds(601))
        _ = try await verifier.start(phoneNumber: "+12127360009")
        #expect(store.count == 1)
    }
}

@Suite("Stores: the same behaviour from memory, SQLite and PostgreSQL")
struct MemoryStoreTests {
    @Test("concurrent checks never allow more than the permitted attempts")
    func concurrentChecks() async throws {
        try await StoreScenarios.concurrentChecks(store: InMemoryVerificationStore())
    }

    @Test("two verifiers sharing a store: one starts, the other checks")
    func twoInstances() async throws {
        let store = InMemoryVerificationStore()
        try await StoreScenarios.twoInstances(first: store, second: store)
    }

    @Test("counters and windows")
    func counters() async throws {
        try await StoreScenarios.counters(store: InMemoryVerificationStore())
    }
}

/// Scenarios every store must pass.
enum StoreScenarios {
    static func concurrentChecks(store: any VerificationStore, tasks: Int = 40) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: started.e164))
        let wrong = code == "000000" ? "000001" : "000000"
        // Many wrong guesses at once: exactly maxAttempts are counted.
        let results = await withTaskGroup(of: CheckResult?.self) { group in
            for _ in 0..<tasks { group.addTask { try? await verifier.check(id: started.id, code: wrong) } }
            var all: [CheckResult] = []
            for await result in group { if let result { all.append(result) } }
            return all
        }
        #expect(results.count == tasks)
        let incorrect = results.filter { if case .incorrectCode = $0 { return true } else { return false } }
        #expect(incorrect.count == 5)
        #expect(results.filter { $0 == .tooManyAttempts }.count == tasks - 5)
        #expect(Set(incorrect) == Set((0..<5).map { CheckResult.incorrectCode(attemptsLeft: $0) }))
        #expect(try await verifier.check(id: started.id, code: code) == .tooManyAttempts)

        // Many right codes at once: exactly one approval.
        clock.advance(by: .seconds(31))
        let again = try await verifier.start(phoneNumber: "+12127360042")
        let right = try #require(sender.lastCode(to: again.e164))
        let approvals = await withTaskGroup(of: CheckResult?.self) { group in
            for _ in 0..<tasks { group.addTask { try? await verifier.check(id: again.id, code: right) } }
            var all: [CheckResult] = []
            for await result in group { if let result { all.append(result) } }
            return all
        }
        #expect(approvals.filter(\.isApproved).count == 1)
        #expect(approvals.allSatisfy { $0.isApproved || $0 == .alreadyUsed || $0 == .tooManyAttempts })
    }

    static func twoInstances(first: any VerificationStore, second: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let starter = try makeVerifier(store: first, sender: sender, clock: clock)
        let checker = try makeVerifier(store: second, sender: RecordingSender(), clock: clock)
        let started = try await starter.start(phoneNumber: Numbers.brazil)
        let code = try #require(sender.lastCode(to: started.e164))
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(try await checker.check(id: started.id, code: wrong) == .incorrectCode(attemptsLeft: 4))
        #expect(try await starter.check(id: started.id, code: wrong) == .incorrectCode(attemptsLeft: 3))
        #expect(try await checker.check(id: started.id, code: code) == .approved(e164: Numbers.brazil))
        #expect(try await starter.check(id: started.id, code: code) == .alreadyUsed)
        // The resend cooldown is shared too.
        let second = try await starter.start(phoneNumber: Numbers.germany)
        #expect(await caught { try await checker.start(phoneNumber: Numbers.germany) }?.code == .resendCooldown)
        clock.advance(by: .seconds(30))
        let resent = try await checker.start(phoneNumber: Numbers.germany)
        #expect(resent.id == second.id && resent.isResend)
        // Expiry is read from the shared record.
        clock.advance(by: .seconds(600))
        #expect(try await checker.check(id: second.id, code: code) == .expired)
        #expect(try await first.removeExpired(now: clock.now) >= 1)
        #expect(try await checker.check(id: second.id, code: code) == .notFound)
    }

    static func counters(store: any VerificationStore) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for expected in 1...3 {
            let decision = try await store.consume(counter: "t:k", limit: 3, window: .seconds(60), now: now)
            #expect(decision.allowed && decision.value == expected)
            #expect(decision.windowEnd == now.addingTimeInterval(60))
        }
        let refused = try await store.consume(counter: "t:k", limit: 3, window: .seconds(60), now: now.addingTimeInterval(59))
        #expect(!refused.allowed && refused.value == 3)
        let next = try await store.consume(counter: "t:k", limit: 3, window: .seconds(60), now: now.addingTimeInterval(60))
        #expect(next.allowed && next.value == 1 && next.windowEnd == now.addingTimeInterval(120))
        #expect(try await store.counter("t:k", now: now.addingTimeInterval(61))?.value == 1)
        #expect(try await store.counter("t:none", now: now) == nil)
        try await store.setCounter("t:block", value: 1, until: now.addingTimeInterval(10))
        #expect(try await store.counter("t:block", now: now)?.windowEnd == now.addingTimeInterval(10))
        #expect(try await store.counter("t:block", now: now.addingTimeInterval(10)) == nil)
    }
}
