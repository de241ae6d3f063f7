import Foundation
import PhoneNumbers
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import Testing

/// How many verifications and windows a store holds.
typealias StoreSizes = @Sendable () async throws -> (verifications: Int, windows: Int)

/// The limits across verifications (failure budget, daily cap), atomic starts, floods that must
/// leave the store flat, and the sweep: one set of scenarios run on every store.
enum LimitScenarios {
    /// A code that is not `code`.
    static func wrong(_ code: String) -> String { code == "000000" ? "000001" : "000000" }

    /// At most 10 failed checks per number per window across verifications; the open verification
    /// stays usable (checks and resends) while new ones are refused.
    static func failureBudget(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        // First verification: its 5 attempts all fail.
        let first = try await verifier.start(phoneNumber: Numbers.us)
        let firstCode = try #require(sender.lastCode(to: Numbers.us))
        for left in (0..<5).reversed() {
            #expect(try await verifier.check(id: first.id, code: wrong(firstCode)) == .incorrectCode(attemptsLeft: left))
        }
        #expect(try await verifier.check(id: first.id, code: firstCode) == .tooManyAttempts)
        // Second: 5 + 5 fits in the budget of 10.
        clock.advance(by: .seconds(31))
        let second = try await verifier.start(phoneNumber: Numbers.us)
        #expect(second.id != first.id && !second.isResend)
        for _ in 0..<4 { _ = try await verifier.check(id: second.id, code: wrong(try #require(sender.lastCode(to: Numbers.us)))) }
        // 9 failures: no new verification fits, but the open one is still resent and checked.
        clock.advance(by: .seconds(31))
        let resent = try await verifier.start(phoneNumber: Numbers.us)
        #expect(resent.id == second.id && resent.isResend)
        let code = try #require(sender.lastCode(to: Numbers.us))
        #expect(try await verifier.check(id: second.id, code: code) == .approved(e164: Numbers.us))
        // A new verification would allow 9 + 5 failures: refused until the failures leave the window.
        clock.advance(by: .seconds(31))
        let refused = await caught { try await verifier.start(phoneNumber: Numbers.us) }
        #expect(refused?.code == .tooManyFailedChecks)
        let retryAfter = try #require(refused?.retryAfter)
        #expect(retryAfter > clock.now && retryAfter <= clock.now.addingTimeInterval(2 * 86_400))
        #expect(sender.messages.count == 3)
        // Another number is not affected.
        _ = try await verifier.start(phoneNumber: Numbers.germany)
        clock.advance(by: .seconds(retryAfter.timeIntervalSince(clock.now)))
        _ = try await verifier.start(phoneNumber: Numbers.us)
        #expect(sender.messages.count == 5)
    }

    /// At most 10 SMS per number per 24 hours, resends included.
    static func dailyCap(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) { $0.sendGuard.numberLimit = nil }
        for _ in 0..<10 {
            _ = try await verifier.start(phoneNumber: Numbers.brazil)
            clock.advance(by: .seconds(31))
        }
        let refused = await caught { try await verifier.start(phoneNumber: Numbers.brazil) }
        #expect(refused?.code == .numberRateLimited)
        let retryAfter = try #require(refused?.retryAfter)
        #expect(retryAfter > clock.now && retryAfter <= clock.now.addingTimeInterval(2 * 86_400))
        #expect(sender.messages.count == 10)
        clock.advance(by: .seconds(retryAfter.timeIntervalSince(clock.now)))
        _ = try await verifier.start(phoneNumber: Numbers.brazil)
        #expect(sender.messages.count == 11)
    }

    /// 20 concurrent starts for one new number, spread over `stores` (one state, as separate
    /// processes would share it): one verification, one SMS. Eight rounds, each with a new number,
    /// so that a race has many chances to show.
    static func concurrentStarts(stores: [any VerificationStore], sizes: StoreSizes) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifiers = try stores.map { try makeVerifier(store: $0, sender: sender, clock: clock) }
        for round in 0..<8 {
            let number = "+44740012345\(round)"
            let ids = await withTaskGroup(of: String?.self) { group in
                for index in 0..<20 {
                    let verifier = verifiers[index % verifiers.count]
                    group.addTask { try? await verifier.start(phoneNumber: number, clientKey: "client-\(index)").id }
                }
                var all: [String] = []
                for await id in group { if let id { all.append(id) } }
                return all
            }
            #expect(ids.count == 1, "round \(round)")
            #expect(sender.messages.count == round + 1, "round \(round)")
            #expect(try await sizes().verifications == round + 1, "round \(round)")
        }
    }

    /// Runs `count` starts, `width` at a time, and returns how many were refused with each code.
    static func flood(_ count: Int, width: Int = 8,
                      _ start: @escaping @Sendable (Int) async throws(VerificationError) -> StartedVerification) async -> [String: Int] {
        await withTaskGroup(of: String.self) { group in
            var tally: [String: Int] = [:]
            var next = 0
            func add() {
                let index = next
                next += 1
                group.addTask {
                    do {
                        _ = try await start(index)
                        return "started"
                    } catch let error as VerificationError {
                        return error.code.name
                    } catch {
                        return "\(error)"
                    }
                }
            }
            while next < min(width, count) { add() }
            for await outcome in group {
                tally[outcome, default: 0] += 1
                if next < count { add() }
            }
            return tally
        }
    }

    /// 100,000 starts of a test number and 100,000 refused starts from fresh client keys leave the
    /// store's size flat.
    static func floods(store: any VerificationStore, sizes: StoreSizes, name: String, count: Int = 100_000) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        var registry = try TestNumberRegistry()
        try registry.add("+1 650-555-0100", code: "123456")
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock, testNumbers: registry)

        let tests = await flood(count) { index throws(VerificationError) in
            try await verifier.start(phoneNumber: "+16505550100", clientKey: "test-flood-\(index)")
        }
        #expect(tests["started"] == 5 && tests["number_rate_limited"] == count - 5)
        let afterTests = try await sizes()
        // 5 verifications; a window per client key that started one, and the number's two.
        #expect(afterTests.verifications == 5 && afterTests.windows <= 5 + 2)

        _ = try await verifier.start(phoneNumber: Numbers.us, clientKey: "owner")
        let before = try await sizes()
        let refused = await flood(count) { index throws(VerificationError) in
            try await verifier.start(phoneNumber: Numbers.us, clientKey: "refused-flood-\(index)")
        }
        #expect(refused["resend_cooldown"] == count)
        let afterRefused = try await sizes()
        #expect(afterRefused.verifications == before.verifications && afterRefused.windows == before.windows)
        #expect(sender.messages.count == 1)
        print("\(name): after \(count) test-number starts: \(afterTests.verifications) verifications, "
              + "\(afterTests.windows) windows; after \(count) refused starts from fresh client keys: "
              + "\(afterRefused.verifications) verifications, \(afterRefused.windows) windows")
    }

    /// Verifications are kept for the retention after they expire, then swept with the empty windows.
    static func sweep(store: any VerificationStore, sizes: StoreSizes) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) { $0.retention = .seconds(86_400) }
        let started = try await verifier.start(phoneNumber: Numbers.us, clientKey: "k")
        _ = try await verifier.check(id: started.id, code: wrong(try #require(sender.lastCode(to: Numbers.us))))
        clock.advance(by: .seconds(3600))
        try await verifier.removeExpired()
        #expect(try await sizes().verifications == 1)
        #expect(try await verifier.check(id: started.id, code: "123456") == .expired)
        // Past the retention, and past every window (the failure window is 24 h, counted over two).
        clock.advance(by: .seconds(3 * 86_400))
        #expect(try await verifier.removeExpired() >= 1)
        let after = try await sizes()
        #expect(after.verifications == 0 && after.windows == 0)
        #expect(try await verifier.check(id: started.id, code: "123456") == .notFound)
    }
}

@Suite("Limits across verifications: in memory")
struct MemoryLimitTests {
    @Test("failure budget: at most 10 failed checks per number per 24 h; the open verification stays usable")
    func failureBudget() async throws { try await LimitScenarios.failureBudget(store: InMemoryVerificationStore()) }

    @Test("daily cap: at most 10 SMS per number per 24 h")
    func dailyCap() async throws { try await LimitScenarios.dailyCap(store: InMemoryVerificationStore()) }

    @Test("20 concurrent starts for a new number: one verification, one SMS")
    func concurrentStarts() async throws {
        let store = InMemoryVerificationStore()
        try await LimitScenarios.concurrentStarts(stores: [store]) { (store.count, store.counterCount) }
    }

    @Test("floods of test-number starts and of refused starts from fresh client keys leave the store flat")
    func floods() async throws {
        let store = InMemoryVerificationStore()
        try await LimitScenarios.floods(store: store, sizes: { (store.count, store.counterCount) }, name: "memory")
    }

    @Test("expired verifications are kept for the retention, then swept with empty windows")
    func sweep() async throws {
        let store = InMemoryVerificationStore()
        try await LimitScenarios.sweep(store: store) { (store.count, store.counterCount) }
    }

    @Test("the periodic sweep runs until cancelled")
    func periodicSweep() async throws {
        let store = InMemoryVerificationStore()
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) { $0.retention = .zero }
        _ = try await verifier.start(phoneNumber: Numbers.us)
        clock.advance(by: .seconds(3 * 86_400))
        let sweeper = Task { await verifier.sweepPeriodically(every: .milliseconds(10)) }
        var waited = 0
        while store.count > 0, waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        sweeper.cancel()
        await sweeper.value
        #expect(store.count == 0 && store.counterCount == 0)
    }

    @Test("an attacker guessing on one number for 10 days: at most 10 failed checks in any 24 h")
    func guessesPerDay() async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: InMemoryVerificationStore(), sender: sender, clock: clock)
        let end = clock.now.addingTimeInterval(10 * 86_400)
        var failures: [Date] = []
        var attempt = 0
        while clock.now < end {
            attempt += 1
            do {
                let started = try await verifier.start(phoneNumber: Numbers.us, clientKey: "attacker-\(attempt)")
                let code = try #require(sender.lastCode(to: Numbers.us))
                while case .incorrectCode = try await verifier.check(id: started.id, code: LimitScenarios.wrong(code)) {
                    failures.append(clock.now)
                }
                clock.advance(by: .seconds(1))
            } catch let error as VerificationError {
                let wait = max(1, (error.retryAfter ?? clock.now).timeIntervalSince(clock.now))
                clock.advance(by: .milliseconds(Int64(wait * 1000) + 1))
            }
        }
        var most = 0
        for (index, first) in failures.enumerated() {
            most = max(most, failures[index...].prefix { $0.timeIntervalSince(first) < 86_400 }.count)
        }
        #expect(most <= 10)
        #expect(failures.count <= 10 * 10)
        print("guesses on one number: \(failures.count) in 10 days, at most \(most) in any 24 h; "
              + "\(sender.messages.count) SMS in 10 days")
    }
}

@Suite("Limits across verifications: SQLite")
struct SQLiteLimitTests {
    func withStore(_ body: (SQLiteVerificationStore) async throws -> Void) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(try SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("failure budget")
    func failureBudget() async throws { try await withStore { try await LimitScenarios.failureBudget(store: $0) } }

    @Test("daily cap")
    func dailyCap() async throws { try await withStore { try await LimitScenarios.dailyCap(store: $0) } }

    @Test("20 concurrent starts for a new number: one verification, one SMS")
    func concurrentStarts() async throws {
        try await withStore { store in
            let second = try SQLiteVerificationStore(path: store.path)
            try await LimitScenarios.concurrentStarts(stores: [store, second]) { try await store.entryCounts() }
        }
    }

    @Test("floods leave the file flat")
    func floods() async throws {
        try await withStore { store in
            try await LimitScenarios.floods(store: store, sizes: { try await store.entryCounts() }, name: "sqlite")
        }
    }

    @Test("retention and sweep")
    func sweep() async throws {
        try await withStore { store in try await LimitScenarios.sweep(store: store) { try await store.entryCounts() } }
    }
}

@Suite("Limits across verifications: PostgreSQL",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresLimitTests {
    @Test("failure budget")
    func failureBudget() async throws {
        try await PostgresTestServer.withStores(1) { try await LimitScenarios.failureBudget(store: $0[0]) }
    }

    @Test("daily cap")
    func dailyCap() async throws {
        try await PostgresTestServer.withStores(1) { try await LimitScenarios.dailyCap(store: $0[0]) }
    }

    @Test("20 concurrent starts for a new number through 10 clients: one verification, one SMS")
    func concurrentStarts() async throws {
        // Ten clients (as ten gateway processes) so that the starts run on separate connections.
        try await PostgresTestServer.withStores(10) { stores in
            try await LimitScenarios.concurrentStarts(stores: stores) { try await stores[0].entryCounts() }
        }
    }

    @Test("floods leave the tables flat")
    func floods() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            let store = stores[0]
            // 20,000 of each rather than 100,000: every start is a round trip to the server, and a
            // table that grew with the flood would show at 20,000 rows as plainly.
            try await LimitScenarios.floods(store: store, sizes: { try await store.entryCounts() }, name: "postgres",
                                            count: 20_000)
        }
    }

    @Test("retention and sweep")
    func sweep() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            let store = stores[0]
            try await LimitScenarios.sweep(store: store) { try await store.entryCounts() }
        }
    }
}
