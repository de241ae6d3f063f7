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
        #expect(store.count == 1)
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
            $0.sendGuard = SendGuard(numberLimit: nil, clientLimit: nil, rangeVelocity: nil, dailyNumberLimit: nil)
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

    @Test("sliding windows, range velocity, resend claims and secret changes")
    func storeRules() async throws {
        try await StoreScenarios.rules(store: InMemoryVerificationStore())
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

    /// The store rules through the store's own API, with exact times: every store must give the
    /// same answers (the sliding-window arithmetic included).
    static func rules(store: any VerificationStore) async throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)  // a multiple of 60 s and 600 s
        var serial = 0
        func request(_ at: TimeInterval, e164: String? = nil, keyID: String = "k1", client: Int? = nil,
                     number: Int? = nil, range: RangeRule? = nil, cooldown: Duration? = nil) -> StartRequest {
            serial += 1
            let now = t0.addingTimeInterval(at)
            let id = "id" + String(serial) + String(repeating: "x", count: 20 - String(serial).count)
            let record = VerificationRecord(
                id: id, e164: e164 ?? "+1212736" + String(1000 + serial), digest: Array(repeating: UInt8(serial % 256), count: 32),
                keyID: keyID, sealedCode: nil, locale: "en", isTest: false, createdAt: now,
                expiresAt: now.addingTimeInterval(600), attempts: 0, maxAttempts: 5, sendCount: 1, lastSentAt: now,
                state: .open, rangeKey: range?.range)
            return StartRequest(record: record,
                                clientLimit: client.map { WindowLimit(key: "c:client", limit: $0, window: .seconds(60)) },
                                numberLimit: number.map { WindowLimit(key: "n:" + record.e164, limit: $0, window: .seconds(60)) },
                                range: range, resendCooldown: cooldown)
        }

        // Sliding window: 3 per minute. A fixed window would allow the 4th at t0 + 60 s; here the 3
        // hits of the first bucket weigh 3 × (1 − e/60 s) in the second, so it fits at e = 20 s.
        for second in [0.0, 1, 2] { #expect(try await store.start(request(second, client: 3)) == .created) }
        #expect(try await store.start(request(3, client: 3)) == .clientLimited(retryAt: t0.addingTimeInterval(80)))
        #expect(try await store.start(request(60, client: 3)) == .clientLimited(retryAt: t0.addingTimeInterval(80)))
        #expect(try await store.start(request(79.999, client: 3)) == .clientLimited(retryAt: t0.addingTimeInterval(80)))
        #expect(try await store.start(request(80, client: 3)) == .created)
        // Now 3 × 40/60 + 1 = 3: the next fits when the previous bucket's share drops to 1 (e = 40 s).
        #expect(try await store.start(request(80, client: 3)) == .clientLimited(retryAt: t0.addingTimeInterval(100)))
        #expect(try await store.start(request(100, client: 3)) == .created)
        // Two buckets later the window is empty again.
        for second in [240.0, 240, 240] { #expect(try await store.start(request(second, client: 3)) == .created) }

        // Resend: the number's open verification, after the cooldown, counted by the number limit.
        let first = request(1000, e164: "+12127369999", number: 2, cooldown: .seconds(30))
        #expect(try await store.start(first) == .created)
        #expect(try await store.start(request(1010, e164: "+12127369999", number: 2, cooldown: .seconds(30)))
                    == .cooldown(until: t0.addingTimeInterval(1030)))
        guard case .resend(let resent) = try await store.start(request(1030, e164: "+12127369999", number: 2,
                                                                       cooldown: .seconds(30))) else {
            Issue.record("expected a resend")
            return
        }
        #expect(resent.id == first.record.id && resent.sendCount == 2 && resent.digest == first.record.digest)
        #expect(resent.lastSentAt == t0.addingTimeInterval(1030))
        let limited = try await store.start(request(1060, e164: "+12127369999", number: 2, cooldown: .seconds(30)))
        #expect(limited == .numberLimited(retryAt: t0.addingTimeInterval(1080)))
        #expect(try await store.replaceCode(id: first.record.id, digest: Array(repeating: 7, count: 32), sealedCode: nil,
                                            keyID: "k1", now: t0.addingTimeInterval(1061)))
        // Under another secret the open verification is not resent: a new one is made.
        #expect(try await store.start(request(1200, e164: "+12127369999", keyID: "k2", cooldown: .seconds(30))) == .created)

        // Checks: wrong digest, right digest (approval counted for the range), secret changed.
        let check = { (id: String, digest: [UInt8], keyID: String, at: TimeInterval) in
            try await store.check(CheckRequest(id: id, digest: digest, keyID: keyID, now: t0.addingTimeInterval(at),
                                               approvalWindow: .seconds(60)))
        }
        #expect(try await check(first.record.id, first.record.digest, "k1", 1070) == .incorrect(attemptsLeft: 4))
        #expect(try await check(first.record.id, Array(repeating: 7, count: 32), "k1", 1071) == .approved(e164: "+12127369999"))
        #expect(try await check(first.record.id, Array(repeating: 7, count: 32), "k1", 1072) == .alreadyUsed)
        #expect(try await check("id-none-xxxxxxxxxxxxxx", first.record.digest, "k1", 1072) == .notFound)
        let other = request(1300)
        #expect(try await store.start(other) == .created)
        #expect(try await check(other.record.id, other.record.digest, "k9", 1301) == .secretChanged)
        #expect(try await check(other.record.id, other.record.digest, "k1", 1302) == .closed)
        #expect(try await check(other.record.id, other.record.digest, "k1", 1302 + 600) == .closed)
        let late = request(1400)
        #expect(try await store.start(late) == .created)
        #expect(try await check(late.record.id, late.record.digest, "k1", 2000) == .expired)

        // Range velocity: threshold 2 per minute, 50 % approved, a 2-minute block.
        let rule = { (range: String) in
            RangeRule(range: range, threshold: 2, window: .seconds(60), minimumSuccessBasisPoints: 5_000, block: .seconds(120))
        }
        #expect(try await store.start(request(3000, range: rule("1:650253"))) == .created)
        #expect(try await store.start(request(3001, range: rule("1:650253"))) == .created)
        #expect(try await store.start(request(3002, range: rule("1:650253")))
                    == .rangeBlocked(until: t0.addingTimeInterval(3122), newly: true))
        #expect(try await store.start(request(3003, range: rule("1:650253")))
                    == .rangeBlocked(until: t0.addingTimeInterval(3122), newly: false))
        #expect(try await store.start(request(3122, range: rule("1:650253"))) == .created)
        // With approvals the range stays open until they fall under half of the starts.
        for index in 0..<2 {
            let started = request(3000 + Double(index), range: rule("1:650254"))
            #expect(try await store.start(started) == .created)
            #expect(try await check(started.record.id, started.record.digest, "k1", 3000 + Double(index) + 0.5)
                        == .approved(e164: started.record.e164))
        }
        #expect(try await store.start(request(3003, range: rule("1:650254"))) == .created)  // 2 of 3
        #expect(try await store.start(request(3004, range: rule("1:650254"))) == .created)  // 2 of 4
        #expect(try await store.start(request(3005, range: rule("1:650254")))
                    == .rangeBlocked(until: t0.addingTimeInterval(3125), newly: true))  // 2 of 5
        // Sliding: starts of the previous minute still count, decaying.
        #expect(try await store.start(request(3150, range: rule("1:650255"))) == .created)
        #expect(try await store.start(request(3170, range: rule("1:650255"))) == .created)
        // A minute later (1 s into the next bucket) a fixed window would count 1; the sliding one
        // counts 2 × 59/60 + 1 > 2, and no approvals: blocked.
        #expect(try await store.start(request(3181, range: rule("1:650255")))
                    == .rangeBlocked(until: t0.addingTimeInterval(3301), newly: true))
    }
}
