import Foundation
import PhoneNumberCarriers
import PhoneNumbers
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import Testing

/// Conversion counters, region caps, conversion holds, monitor mode and allow and deny lists: one
/// set of scenarios run on every store.
enum ConversionScenarios {
    /// Two GB mobile numbers in one range (`44:740012`) and one in another.
    static let gbA = "+447400123456"
    static let gbB = "+447400123457"
    static let gbOtherRange = "+447911123456"

    /// Mobile numbers of distinct subscribers in one range (`44:740012`).
    static func inRange(_ index: Int) -> String { "+4474001234" + String(format: "%02d", index) }

    /// Sent, delivered, failed and approved are counted per region, range and carrier; test
    /// numbers and refused starts count nothing; the counts leave the window.
    static func counters(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        var registry = try TestNumberRegistry()
        try registry.add("+16505550100", code: "123456")
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock, testNumbers: registry)
        let a = try await verifier.start(phoneNumber: gbA)
        #expect(a.region == "GB")
        #expect(try await verifier.check(id: a.id, code: try #require(sender.lastCode(to: gbA))) == .approved(e164: gbA))
        _ = try await verifier.start(phoneNumber: gbB)
        clock.advance(by: .seconds(31))
        let resent = try await verifier.start(phoneNumber: gbB)
        #expect(resent.isResend)
        _ = try await verifier.start(phoneNumber: Numbers.germany)
        // A test number sends nothing and counts nothing, its approval neither.
        let test = try await verifier.start(phoneNumber: "+16505550100")
        #expect(try await verifier.check(id: test.id, code: "123456") == .approved(e164: "+16505550100"))
        // A refused start (the resend cooldown) counts nothing.
        #expect(await caught { try await verifier.start(phoneNumber: gbB) }?.code == .resendCooldown)
        try await verifier.countDelivery(e164: gbA, delivered: true)
        try await verifier.countDelivery(e164: gbB, delivered: false)

        let regions = try await verifier.conversionStats(by: .region)
        #expect(regions.map(\.value) == ["GB", "DE"])
        #expect(regions.first == ConversionStats(dimension: .region, value: "GB", sent: 3, delivered: 1, failed: 1, approved: 1))
        #expect(regions.last == ConversionStats(dimension: .region, value: "DE", sent: 1, delivered: 0, failed: 0, approved: 0))
        #expect(regions.first?.approvalRate == 1.0 / 3)
        let ranges = try await verifier.conversionStats(by: .range, limit: 1)
        #expect(ranges == [ConversionStats(dimension: .range, value: "44:740012", sent: 3, delivered: 1, failed: 1, approved: 1)])
        let engine = PhoneNumberEngine()
        let carrier = try #require(engine.carrierName(of: try engine.parse(e164: gbA), locale: .english)).text
        let carriers = try await verifier.conversionStats(by: .carrier)
        #expect(carriers.first { $0.value == carrier }?.sent == 3)

        // Half a window on, the previous bucket counts for what of it is still in the window;
        // two windows on, nothing is left.
        clock.advance(by: .seconds(2 * 86_400 + 60))
        #expect(try await verifier.conversionStats(by: .region).isEmpty)
        #expect(await caught { try await verifier.conversionStats(by: .region, limit: 0) }?.code == .invalidConfiguration)
    }

    /// A region's daily cap refuses the start after it, with a retry time, and writes nothing;
    /// other regions go on; in monitor mode the start goes on and is reported.
    static func regionCap(store: any VerificationStore, sizes: StoreSizes) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) {
            $0.sendGuard.regionCaps = RegionCaps(defaultLimit: 100, perRegion: ["GB": 3])
        }
        for index in 0..<3 { _ = try await verifier.start(phoneNumber: inRange(index)) }
        let before = try await sizes()
        let refused = await caught { try await verifier.start(phoneNumber: inRange(3)) }
        #expect(refused?.code == .regionCapped)
        let retryAfter = try #require(refused?.retryAfter)
        #expect(retryAfter > clock.now && retryAfter <= clock.now.addingTimeInterval(2 * 86_400))
        let after = try await sizes()
        #expect(after.verifications == before.verifications && after.windows == before.windows)
        _ = try await verifier.start(phoneNumber: Numbers.germany)
        #expect(sender.messages.count == 4)
        clock.advance(by: .seconds(retryAfter.timeIntervalSince(clock.now)))
        _ = try await verifier.start(phoneNumber: inRange(3))

        // Monitor mode: the same state, nothing refused, the rule named.
        let monitoring = try makeVerifier(store: store, sender: sender, clock: clock) {
            $0.sendGuard.regionCaps = RegionCaps(defaultLimit: 100, perRegion: ["GB": 1], monitor: true)
        }
        let started = try await monitoring.start(phoneNumber: inRange(4))
        #expect(started.monitored == ["region_capped"])
        // DE keeps the default cap of 100: nothing to report.
        #expect(try await monitoring.start(phoneNumber: "+4915123456780").monitored.isEmpty)
    }

    /// A range whose codes are sent but not approved is held once it has the minimum volume; the
    /// hold names the range, lasts its duration and spares other ranges; allowed numbers skip it,
    /// denied numbers are refused; monitor mode reports without refusing or holding.
    static func holds(store: any VerificationStore, sizes: StoreSizes) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        func configure(monitor: Bool) -> (inout VerificationConfiguration) -> Void {
            { configuration in
                configuration.sendGuard.rangeVelocity = nil
                configuration.sendGuard.regionHold = nil
                configuration.sendGuard.rangeHold = ConversionHold(minimumSent: 5, minimumApprovalRatio: 0.5,
                                                                   duration: .seconds(3600), monitor: monitor)
                configuration.sendGuard.allowedNumbers = [inRange(90)]
                configuration.sendGuard.deniedNumbers = [inRange(91)]
            }
        }
        let monitoring = try makeVerifier(store: store, sender: sender, clock: clock, configure: configure(monitor: true))
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock, configure: configure(monitor: false))
        // Two approved out of five: 40 %, under the floor of 50 %.
        for index in 0..<5 {
            let started = try await verifier.start(phoneNumber: inRange(index))
            #expect(started.monitored.isEmpty)
            if index < 2 {
                let code = try #require(sender.lastCode(to: inRange(index)))
                #expect(try await verifier.check(id: started.id, code: code).isApproved)
            }
        }
        // Monitor mode: the start goes on and writes no hold.
        let monitored = try await monitoring.start(phoneNumber: inRange(5))
        #expect(monitored.monitored == ["conversion_hold"])
        let before = try await sizes()
        let held = await caught { try await verifier.start(phoneNumber: inRange(6)) }
        #expect(held?.code == .conversionHold)
        #expect(held?.retryAfter == clock.now.addingTimeInterval(3600))
        #expect(try await sizes().verifications == before.verifications)
        clock.advance(by: .seconds(60))
        let still = await caught { try await verifier.start(phoneNumber: inRange(7)) }
        #expect(still?.code == .conversionHold)
        #expect(still?.retryAfter == clock.now.addingTimeInterval(3540))
        let after = try await sizes()
        #expect(after.verifications == before.verifications && after.windows == before.windows + 1)
        // Another range goes on; an allowed number of the held range too; a denied one never.
        _ = try await verifier.start(phoneNumber: gbOtherRange)
        _ = try await verifier.start(phoneNumber: inRange(90))
        #expect(await caught { try await verifier.start(phoneNumber: inRange(91)) }?.code == .numberDenied)
        // Monitor mode sees the hold and goes on.
        #expect(try await monitoring.start(phoneNumber: inRange(8)).monitored == ["conversion_hold"])
        #expect(sender.messages.count == 9)
    }

    /// The range velocity detector in monitor mode reports what it would block and blocks
    /// nothing; enforced, the same state blocks the range.
    static func velocityMonitor(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        func configure(monitor: Bool) -> (inout VerificationConfiguration) -> Void {
            { configuration in
                configuration.sendGuard.rangeHold = nil
                configuration.sendGuard.regionHold = nil
                configuration.sendGuard.rangeVelocity = RangeVelocity(threshold: 3, minimumSuccessRatio: 0.5)
                configuration.sendGuard.rangeVelocity?.monitor = monitor
            }
        }
        let monitoring = try makeVerifier(store: store, sender: sender, clock: clock, configure: configure(monitor: true))
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock, configure: configure(monitor: false))
        var notes: [[String]] = []
        for index in 0..<5 { notes.append(try await monitoring.start(phoneNumber: inRange(index)).monitored) }
        #expect(notes == [[], [], [], ["range_blocked"], ["range_blocked"]])
        let blocked = await caught { try await verifier.start(phoneNumber: inRange(5)) }
        #expect(blocked?.code == .rangeBlocked)
        // A block written by the enforced rule is reported, not enforced, in monitor mode.
        #expect(try await monitoring.start(phoneNumber: inRange(6)).monitored == ["range_blocked"])
        #expect(sender.messages.count == 6)
    }

    /// Delivery reports through the verifier count each message once, when it becomes final:
    /// a replayed report or an intermediate one counts nothing.
    static func reportsCount(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = ReportingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        sender.next(providerIDs: ["a1"])
        _ = try await verifier.start(phoneNumber: gbA)
        sender.next(providerIDs: ["b2"])
        _ = try await verifier.start(phoneNumber: gbB)
        func report(_ id: String, _ state: DeliveryState) async throws {
            _ = try await verifier.applyDeliveryReport(DeliveryReport(target: .providerMessageID(id), state: state,
                                                                      receivedAt: clock.now))
        }
        try await report("a1", .accepted)
        try await report("a1", .delivered)
        try await report("a1", .delivered)
        try await report("b2", .failed)
        try await report("b2", .delivered)
        let rows = try await verifier.conversionStats(by: .region)
        #expect(rows == [ConversionStats(dimension: .region, value: "GB", sent: 2, delivered: 1, failed: 1, approved: 0)])
    }

    /// Delivery reports hold a range whose messages fail, once reports exist.
    static func deliveryHold(store: any VerificationStore) async throws {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock) { configuration in
            configuration.sendGuard.rangeVelocity = nil
            configuration.sendGuard.regionHold = nil
            configuration.sendGuard.rangeHold = ConversionHold(minimumSent: 4, minimumApprovalRatio: 0,
                                                               minimumDeliveryRatio: 0.5, duration: .seconds(600))
        }
        for index in 0..<4 { _ = try await verifier.start(phoneNumber: inRange(index)) }
        // No reports yet: no hold.
        _ = try await verifier.start(phoneNumber: inRange(4))
        try await verifier.countDelivery(e164: inRange(0), delivered: true)
        try await verifier.countDelivery(e164: inRange(1), delivered: true)
        try await verifier.countDelivery(e164: inRange(2), delivered: true)
        // 3 delivered of 5 sent: 60 %.
        _ = try await verifier.start(phoneNumber: inRange(5))
        for index in 3..<6 { try await verifier.countDelivery(e164: inRange(index), delivered: false) }
        // 3 delivered of 6 sent: 50 %, at the floor; one more send makes it 3 of 7.
        _ = try await verifier.start(phoneNumber: inRange(6))
        let held = await caught { try await verifier.start(phoneNumber: inRange(7)) }
        #expect(held?.code == .conversionHold)
        #expect(held?.retryAfter == clock.now.addingTimeInterval(600))
    }
}

@Suite("Conversion and guard rules: in memory")
struct MemoryConversionTests {
    @Test("sent, delivered, failed and approved per region, range and carrier")
    func counters() async throws { try await ConversionScenarios.counters(store: InMemoryVerificationStore()) }

    @Test("region caps: refused with a retry time, nothing written; monitor mode reports")
    func regionCap() async throws {
        let store = InMemoryVerificationStore()
        try await ConversionScenarios.regionCap(store: store) { (store.count, store.counterCount) }
    }

    @Test("conversion holds, monitor mode, allow and deny lists")
    func holds() async throws {
        let store = InMemoryVerificationStore()
        try await ConversionScenarios.holds(store: store) { (store.count, store.counterCount) }
    }

    @Test("a range whose messages fail is held once reports arrive")
    func deliveryHold() async throws { try await ConversionScenarios.deliveryHold(store: InMemoryVerificationStore()) }

    @Test("the range velocity detector in monitor mode")
    func velocityMonitor() async throws { try await ConversionScenarios.velocityMonitor(store: InMemoryVerificationStore()) }

    @Test("delivery reports count a message once, when it becomes final")
    func reportsCount() async throws { try await ConversionScenarios.reportsCount(store: InMemoryVerificationStore()) }
}

@Suite("Conversion and guard rules: SQLite")
struct SQLiteConversionTests {
    func withStore(_ body: (SQLiteVerificationStore) async throws -> Void) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(try SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("counters")
    func counters() async throws { try await withStore { try await ConversionScenarios.counters(store: $0) } }

    @Test("region caps")
    func regionCap() async throws {
        try await withStore { store in try await ConversionScenarios.regionCap(store: store) { try await store.entryCounts() } }
    }

    @Test("conversion holds, monitor mode, allow and deny lists")
    func holds() async throws {
        try await withStore { store in try await ConversionScenarios.holds(store: store) { try await store.entryCounts() } }
    }

    @Test("delivery hold")
    func deliveryHold() async throws { try await withStore { try await ConversionScenarios.deliveryHold(store: $0) } }

    @Test("range velocity monitor")
    func velocityMonitor() async throws { try await withStore { try await ConversionScenarios.velocityMonitor(store: $0) } }

    @Test("delivery reports counted once")
    func reportsCount() async throws { try await withStore { try await ConversionScenarios.reportsCount(store: $0) } }
}

@Suite("Conversion and guard rules: PostgreSQL",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresConversionTests {
    @Test("counters")
    func counters() async throws {
        try await PostgresTestServer.withStores(1) { try await ConversionScenarios.counters(store: $0[0]) }
    }

    @Test("region caps")
    func regionCap() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            try await ConversionScenarios.regionCap(store: stores[0]) { try await stores[0].entryCounts() }
        }
    }

    @Test("conversion holds, monitor mode, allow and deny lists")
    func holds() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            try await ConversionScenarios.holds(store: stores[0]) { try await stores[0].entryCounts() }
        }
    }

    @Test("delivery hold")
    func deliveryHold() async throws {
        try await PostgresTestServer.withStores(1) { try await ConversionScenarios.deliveryHold(store: $0[0]) }
    }

    @Test("range velocity monitor")
    func velocityMonitor() async throws {
        try await PostgresTestServer.withStores(1) { try await ConversionScenarios.velocityMonitor(store: $0[0]) }
    }

    @Test("delivery reports counted once")
    func reportsCount() async throws {
        try await PostgresTestServer.withStores(1) { try await ConversionScenarios.reportsCount(store: $0[0]) }
    }
}

@Suite("Numbers in logs")
struct LogRedactionTests {
    @Test("a number shows its last four digits; runs of 7 or more digits are cut, shorter ones kept",
          arguments: [("+447400123456", "…3456"), ("denied: +447400123456.", "denied: …3456."),
                      ("smsbox answered 400 (1 of 2 parts)", "smsbox answered 400 (1 of 2 parts)"),
                      ("to=447400123456&text=code+123456", "to=…3456&text=code+123456"),
                      ("id 1234567 at 12:00", "id …4567 at 12:00")])
    func redaction(_ pair: (String, String)) {
        #expect(PhoneVerifier.redactingNumbers(in: pair.0) == pair.1)
    }

    @Test("redacted(e164:) keeps the last four digits only")
    func redacted() {
        #expect(PhoneVerifier.redacted(e164: "+5511961234567") == "…4567")
    }
}
