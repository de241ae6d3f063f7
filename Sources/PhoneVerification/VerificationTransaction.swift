import Foundation

/// The primitives a store provides inside one transaction, so that ``StartRequest/apply(to:)`` and
/// ``CheckRequest/apply(to:)`` run the start and check rules on it: one home for the rules in
/// every store that runs Swift in its transactions (in memory, SQLite).
///
/// ```swift
/// try database.inTransaction { db in
///     var transaction = MyTransaction(db)
///     return try request.apply(to: &transaction)
/// }
/// ```
public protocol VerificationTransaction {
    /// The verification with this ID.
    mutating func record(id: String) throws -> VerificationRecord?
    /// The newest verification made for the number (open or not).
    mutating func newestRecord(e164: String) throws -> VerificationRecord?
    /// Adds a verification.
    mutating func insert(_ record: VerificationRecord) throws
    /// Replaces a verification (same ID).
    mutating func update(_ record: VerificationRecord) throws
    /// A window counter, or `nil` when there is none.
    mutating func counter(_ key: String) throws -> WindowCounter?
    /// Stores a window counter, with when its data can go.
    mutating func setCounter(_ key: String, _ counter: WindowCounter, expiresAt: Int64) throws
    /// Adds an SMS of a verification added in this transaction (``StartRequest/message``).
    mutating func insert(_ message: DeliveryMessage) throws
}

extension VerificationTransaction {
    /// Throws: a store written before messages were recorded with their start keeps none.
    public mutating func insert(_ message: DeliveryMessage) throws {
        throw VerificationStoreError(.unavailable, "this store keeps no delivery reports")
    }
}

extension VerificationTransaction {
    /// Counts one hit of a limit; `nil` when counted, else the counter that refused it.
    mutating func hit(_ key: String, limit: Int?, window: Duration, now: Int64) throws -> WindowCounter? {
        let length = window.windowMilliseconds
        var counter = try counter(key) ?? WindowCounter(now: now, window: length)
        let allowed = counter.hit(limit: limit.map(Int64.init), window: length, now: now)
        try setCounter(key, counter, expiresAt: counter.expiresAt(window: length))
        return allowed ? nil : counter
    }

    /// Whether one more hit of a limit fits, counting and writing nothing; `nil` when it fits,
    /// else the counter (rolled to `now`) that refuses it.
    mutating func peek(_ key: String, limit: Int, window: Duration, now: Int64) throws -> WindowCounter? {
        let length = window.windowMilliseconds
        guard let counter = try counter(key)?.rolled(to: now, window: length),
              !counter.allows(limit: Int64(limit), window: length, now: now) else { return nil }
        return counter
    }
}

extension StartRequest {
    /// The failure budget as a limit on one more hit: a new verification fits when the failures
    /// counted plus its `maxAttempts` stay within the budget, i.e. when one more failure fits
    /// within `budget − maxAttempts + 1`. Failures are counted with both buckets in full
    /// (``WindowCounter/allowsInFull(limit:)``), so no span of one window ever holds more failed
    /// checks than the budget. Stores that run the rules elsewhere (PostgreSQL) peek this limit.
    public var failureLimit: WindowLimit? {
        failureBudget.map { WindowLimit(key: $0.key, limit: max(1, $0.limit - record.maxAttempts + 1), window: $0.window) }
    }

    /// Runs the start rules (see ``StartRequest``) on a store's transaction.
    public func apply(to transaction: inout some VerificationTransaction) throws -> StartOutcome {
        let now = self.now
        let ms = now.millisecondsSince1970
        func retry(_ counter: WindowCounter, _ limit: WindowLimit) -> Date {
            Date(millisecondsSince1970: counter.retryAt(limit: Int64(limit.limit), window: limit.window.windowMilliseconds, now: ms))
        }
        // Reads: a refusal here writes nothing. Monitor mode notes what a rule would refuse and goes on.
        var monitored: [String] = []
        if let range, let blocked = try transaction.counter("rs:" + range.range)?.blockedUntil, blocked > ms {
            guard range.monitor else { return .rangeBlocked(until: Date(millisecondsSince1970: blocked), newly: false) }
            monitored.append("range_blocked")
        }
        var open: VerificationRecord?
        if let cooldown = resendCooldown, let newest = try transaction.newestRecord(e164: record.e164),
           newest.isOpen(at: now), newest.keyID == record.keyID {
            let allowedAt = newest.lastSentAt.millisecondsSince1970 + cooldown.milliseconds
            if ms < allowedAt { return .cooldown(until: Date(millisecondsSince1970: allowedAt)) }
            open = newest
        }
        for limit in [numberLimit, dailyNumberLimit].compactMap({ $0 }) {
            if let refused = try transaction.peek(limit.key, limit: limit.limit, window: limit.window, now: ms) {
                return .numberLimited(retryAt: retry(refused, limit))
            }
        }
        if open == nil, let limit = failureLimit {
            let window = limit.window.windowMilliseconds
            if let failures = try transaction.counter(limit.key)?.rolled(to: ms, window: window),
               !failures.allowsInFull(limit: Int64(limit.limit)) {
                let retryAt = failures.retryInFullAt(limit: Int64(limit.limit), window: window)
                return .failureLimited(retryAt: Date(millisecondsSince1970: retryAt))
            }
        }
        if let cap = regionCap, let refused = try transaction.peek(cap.key, limit: cap.limit, window: cap.window, now: ms) {
            if regionCapMonitor {
                monitored.append("region_capped")
            } else {
                return .regionCapped(retryAt: retry(refused, cap))
            }
        }
        for hold in holds {
            let holdKey = "xh:" + hold.key
            let marker = try transaction.counter(holdKey)
            if let marker, marker.blockedUntil > ms {
                if hold.monitor { monitored.append("conversion_hold"); continue }
                return .held(key: hold.key, until: Date(millisecondsSince1970: marker.blockedUntil), newly: false)
            }
            guard try hold.trips(sent: transaction.counter("xs:" + hold.key), approved: transaction.counter("xa:" + hold.key),
                                 delivered: transaction.counter("xd:" + hold.key),
                                 failed: transaction.counter("xf:" + hold.key), now: ms) else { continue }
            if hold.monitor { monitored.append("conversion_hold"); continue }
            let until = ms + hold.duration.milliseconds
            let held = WindowCounter(bucketStart: 0, current: 0, previous: 0, blockedUntil: until)
            try transaction.setCounter(holdKey, held, expiresAt: until)
            return .held(key: hold.key, until: Date(millisecondsSince1970: until), newly: true)
        }
        // Writes.
        if let limit = clientLimit, let refused = try transaction.hit(limit.key, limit: limit.limit, window: limit.window, now: ms) {
            return .clientLimited(retryAt: retry(refused, limit))
        }
        if let range {
            let window = range.window.windowMilliseconds
            let key = "rs:" + range.range
            var starts = try transaction.counter(key) ?? WindowCounter(now: ms, window: window)
            starts.hit(limit: nil, window: window, now: ms)
            let startsWeighted = starts.weighted(at: ms, window: window)
            if startsWeighted > Int64(range.threshold) &* window {
                let approvals = try transaction.counter("ra:" + range.range)?.rolled(to: ms, window: window)
                let approvedWeighted = approvals?.weighted(at: ms, window: window) ?? 0
                if approvedWeighted &* 10_000 < startsWeighted &* Int64(range.minimumSuccessBasisPoints), range.monitor {
                    if !monitored.contains("range_blocked") { monitored.append("range_blocked") }
                } else if approvedWeighted &* 10_000 < startsWeighted &* Int64(range.minimumSuccessBasisPoints) {
                    starts.blockedUntil = ms + range.block.milliseconds
                    try transaction.setCounter(key, starts, expiresAt: starts.expiresAt(window: window))
                    return .rangeBlocked(until: Date(millisecondsSince1970: starts.blockedUntil), newly: true)
                }
            }
            try transaction.setCounter(key, starts, expiresAt: starts.expiresAt(window: window))
        }
        for limit in [numberLimit, dailyNumberLimit, regionCap].compactMap({ $0 }) {
            _ = try transaction.hit(limit.key, limit: nil, window: limit.window, now: ms)
        }
        for key in sentKeys {
            _ = try transaction.hit(key, limit: nil, window: sentWindow, now: ms)
        }
        let outcome: StartOutcome
        if var open {
            open.sendCount += 1
            open.lastSentAt = now
            try transaction.update(open)
            outcome = .resend(open)
        } else {
            try transaction.insert(record)
            if let message { try transaction.insert(message) }
            outcome = .created
        }
        return monitored.isEmpty ? outcome : .monitored(monitored, outcome)
    }
}

extension VerificationTransaction {
    /// Counts one hit in each key (``VerificationStore/count(_:window:now:)``).
    public mutating func count(_ keys: [String], window: Duration, now: Date) throws {
        for key in keys { _ = try hit(key, limit: nil, window: window, now: now.millisecondsSince1970) }
    }
}

extension CheckRequest {
    /// Runs the check rules on a store's transaction: refuse, or count the attempt, compare the
    /// digests in constant time, approve and count the approval for the number's range.
    public func apply(to transaction: inout some VerificationTransaction) throws -> CheckOutcome {
        guard var record = try transaction.record(id: id) else { return .notFound }
        if let refusal = record.refusal(at: now) { return refusal }
        record.attempts += 1
        if record.keyID != keyID {
            record.state = .closed
            try transaction.update(record)
            return .secretChanged
        }
        guard Self.constantTimeEqual(record.digest, digest) else {
            try transaction.update(record)
            if let window = failureWindow, !record.isTest {
                _ = try transaction.hit(WindowLimit.failureKey(e164: record.e164), limit: nil, window: window,
                                        now: now.millisecondsSince1970)
            }
            return .incorrect(attemptsLeft: max(0, record.maxAttempts - record.attempts))
        }
        record.state = .approved
        try transaction.update(record)
        if let range = record.rangeKey, let window = approvalWindow {
            _ = try transaction.hit("ra:" + range, limit: nil, window: window, now: now.millisecondsSince1970)
        }
        return .approved(e164: record.e164)
    }

    /// Whether two byte strings are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
