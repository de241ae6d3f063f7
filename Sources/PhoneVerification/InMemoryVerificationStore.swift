import Foundation
import Synchronization

/// A ``VerificationStore`` in the process's memory: for tests and single-process gateways.
///
/// It is bounded: at most `capacity` verifications and `capacity` counters. When full, it first
/// drops what has expired; if it is still full it throws ``VerificationStoreError/Kind/full``
/// rather than evicting open verifications (an attacker could otherwise flush other people's codes,
/// or reset their own rate limits). Every operation holds one lock, so each is atomic.
///
/// ```swift
/// let store = InMemoryVerificationStore(capacity: 100_000)
/// let verifier = try PhoneVerifier(store: store, sender: OutboxSender(path: "outbox.jsonl"), secret: secret)
/// ```
public final class InMemoryVerificationStore: VerificationStore {
    private struct State {
        var records: [String: VerificationRecord] = [:]
        var newestByNumber: [String: String] = [:]
        var counters: [String: CounterState] = [:]
        /// When a full store last swept for expired entries: at most one O(n) sweep per second
        /// while it stays full, so a flood of starts cannot turn each one into a full scan.
        var lastSweep: Date?
    }

    private let state = Mutex(State())

    /// The most verifications (and, separately, counters) held at once.
    public let capacity: Int

    /// Creates an empty store.
    ///
    /// - Parameter capacity: The most verifications and the most counters held at once; 100,000 by default.
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The number of verifications held (open, used or expired but not yet evicted).
    public var count: Int { state.withLock { $0.records.count } }

    public func insert(_ record: VerificationRecord) async throws {
        try state.withLock { (state: inout State) throws(VerificationStoreError) in
            if state.records.count >= capacity {
                Self.sweepWhenFull(&state, now: record.createdAt)
                guard state.records.count < capacity else {
                    throw VerificationStoreError(.full, "the in-memory store holds its maximum of \(capacity) verifications")
                }
            }
            state.records[record.id] = record
            state.newestByNumber[record.e164] = record.id
        }
    }

    public func openVerification(e164: String, now: Date) async throws -> VerificationRecord? {
        state.withLock { state in
            guard let id = state.newestByNumber[e164], let record = state.records[id], record.isOpen(at: now) else {
                return nil
            }
            return record
        }
    }

    public func claimResend(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date,
                            lastSentNotAfter notAfter: Date) async throws -> ResendClaim {
        state.withLock { state in
            guard var record = state.records[id], record.isOpen(at: now) else { return .notOpen }
            guard record.lastSentAt <= notAfter else {
                return .tooEarly(now.addingTimeInterval(record.lastSentAt.timeIntervalSince(notAfter)))
            }
            record.digest = digest
            record.sealedCode = sealedCode
            record.keyID = keyID
            record.sendCount += 1
            record.lastSentAt = now
            state.records[id] = record
            return .claimed(record)
        }
    }

    public func countAttempt(id: String, now: Date) async throws -> AttemptOutcome {
        state.withLock { state in
            guard var record = state.records[id] else { return .notFound }
            if let refusal = record.refusal(at: now) { return refusal }
            record.attempts += 1
            state.records[id] = record
            return .counted(record)
        }
    }

    public func approve(id: String, now: Date) async throws -> Bool {
        state.withLock { state in
            guard var record = state.records[id], record.state == .open, now < record.expiresAt else { return false }
            record.state = .approved
            state.records[id] = record
            return true
        }
    }

    public func close(id: String) async throws {
        state.withLock { state in
            guard var record = state.records[id], record.state == .open else { return }
            record.state = .closed
            state.records[id] = record
        }
    }

    public func consume(counter key: String, limit: Int, window: Duration, now: Date) async throws -> CounterDecision {
        try state.withLock { (state: inout State) throws(VerificationStoreError) in
            var counter = state.counters[key]
            if let current = counter, current.windowEnd <= now { counter = nil }
            if counter == nil, state.counters[key] == nil, state.counters.count >= capacity {
                Self.sweepWhenFull(&state, now: now)
                guard state.counters.count < capacity else {
                    throw VerificationStoreError(.full, "the in-memory store holds its maximum of \(capacity) counters")
                }
            }
            var current = counter ?? CounterState(value: 0, windowEnd: now.addingTimeInterval(window.timeInterval))
            guard current.value < limit else {
                return CounterDecision(allowed: false, value: current.value, windowEnd: current.windowEnd)
            }
            current.value += 1
            state.counters[key] = current
            return CounterDecision(allowed: true, value: current.value, windowEnd: current.windowEnd)
        }
    }

    public func counter(_ key: String, now: Date) async throws -> CounterState? {
        state.withLock { state in
            guard let counter = state.counters[key], counter.windowEnd > now else { return nil }
            return counter
        }
    }

    public func setCounter(_ key: String, value: Int, until: Date) async throws {
        state.withLock { $0.counters[key] = CounterState(value: value, windowEnd: until) }
    }

    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        state.withLock { Self.evict(&$0, now: now) }
    }

    private static func sweepWhenFull(_ state: inout State, now: Date) {
        if let last = state.lastSweep, now >= last, now.timeIntervalSince(last) < 1 { return }
        state.lastSweep = now
        evict(&state, now: now)
    }

    @discardableResult
    private static func evict(_ state: inout State, now: Date) -> Int {
        let before = state.records.count + state.counters.count
        state.records = state.records.filter { $0.value.expiresAt > now }
        state.newestByNumber = state.newestByNumber.filter { state.records[$0.value] != nil }
        state.counters = state.counters.filter { $0.value.windowEnd > now }
        return before - state.records.count - state.counters.count
    }
}
