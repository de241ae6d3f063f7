import Foundation
import Synchronization

/// A ``VerificationStore`` in the process's memory: for tests and single-process gateways.
///
/// It is bounded: at most `capacity` verifications and `capacity` counters. When full, it first
/// drops what has expired (even within the retention of ``removeExpired(now:retention:)``); if it is still full it throws ``VerificationStoreError/Kind/full``
/// rather than evicting open verifications (an attacker could otherwise flush other people's codes,
/// or reset their own rate limits). Every operation holds one lock, so each is atomic.
///
/// ```swift
/// let store = InMemoryVerificationStore(capacity: 100_000)
/// let verifier = try PhoneVerifier(store: store, sender: OutboxSender(path: "outbox.jsonl"), secret: secret)
/// ```
public final class InMemoryVerificationStore: VerificationStore {
    private struct State: VerificationTransaction {
        var records: [String: VerificationRecord] = [:]
        var newestByNumber: [String: String] = [:]
        var counters: [String: (counter: WindowCounter, expiresAt: Int64)] = [:]
        /// When a full store last swept for expired entries: at most one O(n) sweep per second
        /// while it stays full, so a flood of starts cannot turn each one into a full scan.
        var lastSweep: Date?
        var capacity = 1
        var now = Date(timeIntervalSince1970: 0)

        func record(id: String) -> VerificationRecord? { records[id] }

        func newestRecord(e164: String) -> VerificationRecord? { newestByNumber[e164].flatMap { records[$0] } }

        mutating func insert(_ record: VerificationRecord) throws {
            if records.count >= capacity {
                sweepWhenFull()
                guard records.count < capacity else {
                    throw VerificationStoreError(.full, "the in-memory store holds its maximum of \(capacity) verifications")
                }
            }
            records[record.id] = record
            newestByNumber[record.e164] = record.id
        }

        mutating func update(_ record: VerificationRecord) { records[record.id] = record }

        func counter(_ key: String) -> WindowCounter? { counters[key]?.counter }

        mutating func setCounter(_ key: String, _ counter: WindowCounter, expiresAt: Int64) throws {
            if counters[key] == nil, counters.count >= capacity {
                sweepWhenFull()
                guard counters.count < capacity else {
                    throw VerificationStoreError(.full, "the in-memory store holds its maximum of \(capacity) counters")
                }
            }
            counters[key] = (counter, expiresAt)
        }

        private mutating func sweepWhenFull() {
            if let last = lastSweep, now >= last, now.timeIntervalSince(last) < 1 { return }
            lastSweep = now
            evict(now: now)
        }

        /// Drops verifications that expired `retention` before `now` and counters that hold nothing at `now`.
        @discardableResult
        mutating func evict(now: Date, retention: Duration = .zero) -> Int {
            let before = records.count + counters.count
            let ms = now.millisecondsSince1970
            let cutoff = now.addingTimeInterval(-retention.timeInterval)
            records = records.filter { $0.value.expiresAt > cutoff }
            newestByNumber = newestByNumber.filter { records[$0.value] != nil }
            counters = counters.filter { $0.value.expiresAt > ms }
            return before - records.count - counters.count
        }
    }

    private let state = Mutex(State())

    /// The most verifications (and, separately, counters) held at once.
    public let capacity: Int

    /// Creates an empty store.
    ///
    /// - Parameter capacity: The most verifications and the most counters held at once; 100,000 by default.
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
        state.withLock { $0.capacity = self.capacity }
    }

    /// The number of verifications held (open, used or expired but not yet evicted).
    public var count: Int { state.withLock { $0.records.count } }

    /// The number of rate-limit windows held (per client key, per number, per range).
    public var counterCount: Int { state.withLock { $0.counters.count } }

    /// The verification with this ID, as stored (for inspection: it holds no code in clear).
    public func record(id: String) -> VerificationRecord? { state.withLock { $0.records[id] } }

    public func start(_ request: StartRequest) async throws -> StartOutcome {
        try state.withLock { state in
            state.now = request.now
            return try request.apply(to: &state)
        }
    }

    public func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String,
                            now: Date) async throws -> Bool {
        state.withLock { state in
            guard var record = state.records[id], record.isOpen(at: now) else { return false }
            record.digest = digest
            record.sealedCode = sealedCode
            record.keyID = keyID
            state.records[id] = record
            return true
        }
    }

    public func check(_ request: CheckRequest) async throws -> CheckOutcome {
        try state.withLock { state in
            state.now = request.now
            return try request.apply(to: &state)
        }
    }

    public func close(id: String) async throws {
        state.withLock { state in
            guard var record = state.records[id], record.state == .open else { return }
            record.state = .closed
            state.records[id] = record
        }
    }

    public func count(_ keys: [String], window: Duration, now: Date) async throws {
        try state.withLock { state in
            state.now = now
            try state.count(keys, window: window, now: now)
        }
    }

    public func counters(_ keys: [String]) async throws -> [String: WindowCounter] {
        state.withLock { state in
            var found: [String: WindowCounter] = [:]
            for key in keys { if let counter = state.counters[key]?.counter { found[key] = counter } }
            return found
        }
    }

    public func topCounters(prefix: String, limit: Int, now: Date) async throws -> [(key: String, counter: WindowCounter)] {
        let ms = now.millisecondsSince1970
        return state.withLock { state in
            state.counters.lazy.filter { $0.key.hasPrefix(prefix) && $0.value.expiresAt > ms }
                .map { (key: $0.key, counter: $0.value.counter) }
                .sorted { a, b in
                    let (x, y) = (a.counter.current + a.counter.previous, b.counter.current + b.counter.previous)
                    return x != y ? x > y : a.key < b.key
                }
                .prefix(max(0, limit)).map { $0 }
        }
    }

    /// Deletes what expired (verifications `retention` before `now`). A full store also drops
    /// verifications that expired within the retention before it refuses a start.
    @discardableResult
    public func removeExpired(now: Date, retention: Duration) async throws -> Int {
        state.withLock { $0.evict(now: now, retention: retention) }
    }
}
