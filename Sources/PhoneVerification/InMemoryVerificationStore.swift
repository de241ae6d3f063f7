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
///
/// Its event log holds at most 16 events per verification of its capacity; past that the oldest
/// events go (a store for tests and single processes; the SQLite and PostgreSQL stores keep events
/// until the retention sweep).
public final class InMemoryVerificationStore: VerificationEventStore {
    static let eventsPerVerification = 16

    private struct State: VerificationTransaction {
        var records: [String: VerificationRecord] = [:]
        var newestByNumber: [String: String] = [:]
        var counters: [String: (counter: WindowCounter, expiresAt: Int64)] = [:]
        /// When a full store last swept for expired entries: at most one O(n) sweep per second
        /// while it stays full, so a flood of starts cannot turn each one into a full scan.
        var lastSweep: Date?
        /// Messages by token digest, the digests of each verification's messages, and the part
        /// each provider message ID names (every form of it, see ``DeliveryReport/providerIDForms(_:)``).
        var messages: [[UInt8]: DeliveryMessage] = [:]
        var messagesByVerification: [String: [[UInt8]]] = [:]
        var providerIDs: [String: (digest: [UInt8], part: Int)] = [:]
        var capacity = 1
        var now = Date(timeIntervalSince1970: 0)
        /// The event log, in cursor order, and what numbers it.
        var events: [VerificationEvent] = []
        var eventStart = 0
        var lastCursor: Int64 = 0
        var lastSequence: [String: Int] = [:]
        /// Verifications whose `expired` event was appended.
        var expiryReported: Set<String> = []
        /// Per webhook: the last cursor queued and the queued deliveries, in cursor order.
        var outboxes: [String: (cursor: Int64, queue: [QueuedDelivery])] = [:]

        /// Appends events (sequence and cursor assigned); past the event capacity the oldest go.
        mutating func append(_ new: [VerificationEvent]) -> [VerificationEvent] {
            var stored: [VerificationEvent] = []
            for var event in new {
                let sequence = (lastSequence[event.verificationID] ?? 0) + 1
                lastSequence[event.verificationID] = sequence
                lastCursor += 1
                event.sequence = sequence
                event.cursor = lastCursor
                events.append(event)
                stored.append(event)
            }
            if events.count - eventStart > capacity * InMemoryVerificationStore.eventsPerVerification {
                eventStart = events.count - capacity * InMemoryVerificationStore.eventsPerVerification
            }
            if eventStart > 1024, eventStart * 2 > events.count {
                events.removeFirst(eventStart)
                eventStart = 0
            }
            return stored
        }

        /// Appends `expired` for open verifications that ended within the lookback before `now`.
        mutating func reportExpiries(now: Date) {
            let since = now.addingTimeInterval(-InMemoryVerificationStore.expiryLookback.timeInterval)
            var ended: [VerificationEvent] = []
            for record in records.values where record.state == .open && record.attempts < record.maxAttempts
                && record.expiresAt <= now && record.expiresAt > since && !expiryReported.contains(record.id) {
                ended.append(VerificationEvent(verificationID: record.id, kind: .expired, time: record.expiresAt))
                expiryReported.insert(record.id)
            }
            ended.sort { ($0.time, $0.verificationID) < ($1.time, $1.verificationID) }
            _ = append(ended)
        }

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

        /// Drops verifications that expired `retention` before `now` and counters that hold nothing at `now`;
        /// with `includingEvents`, also the events older than the retention (the sweep's, not a full store's).
        @discardableResult
        mutating func evict(now: Date, retention: Duration = .zero, includingEvents: Bool = false) -> Int {
            let before = records.count + counters.count
            let ms = now.millisecondsSince1970
            let cutoff = now.addingTimeInterval(-retention.timeInterval)
            records = records.filter { $0.value.expiresAt > cutoff }
            newestByNumber = newestByNumber.filter { records[$0.value] != nil }
            counters = counters.filter { $0.value.expiresAt > ms }
            // A verification's messages go with it.
            let messagesBefore = messages.count
            if includingEvents {
                events.removeFirst(eventStart)
                eventStart = 0
                events.removeAll { $0.time <= cutoff }
                let kept = Set(events.map(\.verificationID))
                lastSequence = lastSequence.filter { records[$0.key] != nil || kept.contains($0.key) }
                expiryReported = expiryReported.filter { records[$0] != nil }
                for (name, var outbox) in outboxes {
                    outbox.queue.removeAll { $0.queuedAt <= cutoff || $0.event.time <= cutoff }
                    outboxes[name] = outbox
                }
            }
            messagesByVerification = messagesByVerification.filter { records[$0.key] != nil }
            messages = messages.filter { records[$0.value.verificationID] != nil }
            providerIDs = providerIDs.filter { messages[$0.value.digest] != nil }
            return before - records.count - counters.count + messagesBefore - messages.count
        }

        /// Throws unless one more message fits (after a sweep when the store is full).
        mutating func reserveMessage() throws {
            guard messages.count >= capacity else { return }
            sweepWhenFull()
            guard messages.count < capacity else {
                throw VerificationStoreError(.full, "the in-memory store holds its maximum of \(capacity) messages")
            }
        }

        mutating func insert(_ message: DeliveryMessage) throws { try recordMessage(message) }

        mutating func recordMessage(_ message: DeliveryMessage) throws {
            guard records[message.verificationID] != nil else {
                throw VerificationStoreError(.unavailable, "the message's verification is not in the store")
            }
            if messages[message.tokenDigest] == nil { try reserveMessage() }
            if messages.updateValue(message, forKey: message.tokenDigest) == nil {
                messagesByVerification[message.verificationID, default: []].append(message.tokenDigest)
            }
            for part in message.parts { index(part, digest: message.tokenDigest) }
        }

        mutating func index(_ part: DeliveryPart, digest: [UInt8]) {
            guard let id = part.providerMessageID else { return }
            for form in DeliveryReport.providerIDForms(id) where providerIDs[form] == nil || form == id {
                providerIDs[form] = (digest, part.number)
            }
        }

        mutating func apply(_ report: DeliveryReport) -> DeliveryReportResult? {
            let digest: [UInt8], number: Int
            switch report.target {
            case .token(let tokenDigest, let part):
                (digest, number) = (tokenDigest, part)
            case .providerMessageID(let id):
                let index = providerIDs
                guard let found = DeliveryReport.providerIDForms(id).lazy.compactMap({ index[$0] }).first
                else { return nil }
                (digest, number) = found
            }
            guard let message = messages[digest], let (updated, result) = message.applying(report, toPart: number)
            else { return nil }
            messages[digest] = updated
            if let part = updated.parts.first(where: { $0.number == number }) { index(part, digest: digest) }
            return result
        }
    }

    struct QueuedDelivery {
        var event: VerificationEvent
        var attempts = 0
        var queuedAt: Date
        var dueAt: Date
        var leaseUntil = Date.distantPast
        var dead = false
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
            // This store cannot roll a start back: the room for its message is made first, so
            // that a start that creates a verification always records its message.
            if request.message != nil { try state.reserveMessage() }
            let outcome = try request.apply(to: &state)
            _ = state.append(request.events(for: outcome))
            return outcome
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
            let outcome = try request.apply(to: &state)
            _ = state.append(request.events(for: outcome))
            // The approval stands whatever happens to its count (a full store drops the count).
            if let conversion = request.conversion {
                try? state.count(request.conversionKeys(for: outcome), window: conversion.window, now: conversion.now)
            }
            return outcome
        }
    }

    @discardableResult
    public func appendEvents(_ events: [VerificationEvent]) async throws -> [VerificationEvent] {
        state.withLock { $0.append(events) }
    }

    public func events(after cursor: Int64, limit: Int) async throws -> [VerificationEvent] {
        state.withLock { state in
            let live = state.events[state.eventStart...]
            // Cursors are the positions' order: binary search for the first above `cursor`.
            var low = live.startIndex, high = live.endIndex
            while low < high {
                let middle = (low + high) / 2
                if live[middle].cursor <= cursor { low = middle + 1 } else { high = middle }
            }
            return Array(live[low...].prefix(max(0, limit)))
        }
    }

    public func close(id: String) async throws {
        state.withLock { state in
            guard var record = state.records[id], record.state == .open else { return }
            record.state = .closed
            state.records[id] = record
        }
    }

    public func recordMessage(_ message: DeliveryMessage) async throws {
        try state.withLock { try $0.recordMessage(message) }
    }

    public func applyDeliveryReport(_ report: DeliveryReport, counting: ConversionCounting?) async throws
        -> DeliveryReportResult? {
        state.withLock { state in
            let result = state.apply(report)
            if let result {
                _ = state.append(result.events(at: report.receivedAt))
                // The report stands whatever happens to its count (a full store drops the count).
                if let counting, let e164 = state.records[result.verificationID]?.e164 {
                    state.now = counting.now
                    try? state.count(result.conversionKeys(e164: e164, counting: counting), window: counting.window,
                                     now: counting.now)
                }
            }
            return result
        }
    }

    public func status(id: String) async throws -> VerificationStatus? {
        state.withLock { state in
            guard let record = state.records[id] else { return nil }
            let messages = (state.messagesByVerification[id] ?? []).compactMap { state.messages[$0] }
            return VerificationStatus(record: record, messages: messages)
        }
    }

    public func cancel(id: String, now: Date) async throws -> CancelOutcome {
        state.withLock { state in
            guard let record = state.records[id] else { return .notFound }
            let (cancelled, outcome) = record.cancelling()
            state.records[id] = cancelled
            _ = state.append(outcome.events(id: id, now: now))
            return outcome
        }
    }

    /// The number of messages held (SMS sent for the verifications held).
    public var messageCount: Int { state.withLock { $0.messages.count } }
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
        state.withLock { state in
            state.reportExpiries(now: now)
            return state.evict(now: now, retention: retention, includingEvents: true)
        }
    }
}

extension InMemoryVerificationStore: WebhookOutbox {
    public func claimWebhookDeliveries(webhook: String, now: Date, lease: Duration,
                                       limit: Int) async throws -> [WebhookDelivery] {
        state.withLock { state in
            var outbox = state.outboxes[webhook] ?? (cursor: 0, queue: [])
            let live = state.events[state.eventStart...]
            for event in live where event.cursor > outbox.cursor {
                outbox.queue.append(QueuedDelivery(event: event, queuedAt: now, dueAt: now))
                outbox.cursor = event.cursor
            }
            let bound = state.capacity * Self.eventsPerVerification
            if outbox.queue.count > bound { outbox.queue.removeFirst(outbox.queue.count - bound) }
            var held: Set<String> = []
            var claimed: [WebhookDelivery] = []
            for index in outbox.queue.indices where claimed.count < limit {
                let entry = outbox.queue[index]
                guard !entry.dead else { continue }
                let verification = entry.event.verificationID
                guard held.insert(verification).inserted else { continue }
                guard entry.dueAt <= now, entry.leaseUntil <= now else { continue }
                outbox.queue[index].leaseUntil = now.addingTimeInterval(lease.timeInterval)
                claimed.append(WebhookDelivery(event: entry.event, attempts: entry.attempts, queuedAt: entry.queuedAt))
            }
            state.outboxes[webhook] = outbox
            return claimed
        }
    }

    public func finishWebhookDelivery(webhook: String, cursor: Int64, result: WebhookDeliveryResult,
                                      now: Date) async throws {
        state.withLock { state in
            guard var outbox = state.outboxes[webhook],
                  let index = outbox.queue.firstIndex(where: { $0.event.cursor == cursor }) else { return }
            switch result {
            case .delivered:
                outbox.queue.remove(at: index)
            case .retry(let at):
                outbox.queue[index].attempts += 1
                outbox.queue[index].dueAt = at
                outbox.queue[index].leaseUntil = .distantPast
            case .dead:
                outbox.queue[index].attempts += 1
                outbox.queue[index].dead = true
            }
            state.outboxes[webhook] = outbox
        }
    }

    public func webhookBacklog(webhook: String) async throws -> (queued: Int, dead: Int) {
        state.withLock { state in
            let queue = state.outboxes[webhook]?.queue ?? []
            let dead = queue.count { $0.dead }
            return (queue.count - dead, dead)
        }
    }
}
