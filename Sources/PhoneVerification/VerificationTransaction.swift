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
}

extension StartRequest {
    /// Runs the start rules (see ``StartRequest``) on a store's transaction.
    public func apply(to transaction: inout some VerificationTransaction) throws -> StartOutcome {
        let now = self.now
        let ms = now.millisecondsSince1970
        if let limit = clientLimit, let refused = try transaction.hit(limit.key, limit: limit.limit, window: limit.window, now: ms) {
            let retry = refused.retryAt(limit: Int64(limit.limit), window: limit.window.windowMilliseconds, now: ms)
            return .clientLimited(retryAt: Date(millisecondsSince1970: retry))
        }
        if let range, let blocked = try transaction.counter("rs:" + range.range)?.blockedUntil, blocked > ms {
            return .rangeBlocked(until: Date(millisecondsSince1970: blocked), newly: false)
        }
        var open: VerificationRecord?
        if let cooldown = resendCooldown, let newest = try transaction.newestRecord(e164: record.e164),
           newest.isOpen(at: now), newest.keyID == record.keyID {
            let allowedAt = newest.lastSentAt.millisecondsSince1970 + cooldown.milliseconds
            if ms < allowedAt { return .cooldown(until: Date(millisecondsSince1970: allowedAt)) }
            open = newest
        }
        if let limit = numberLimit, let refused = try transaction.hit(limit.key, limit: limit.limit, window: limit.window, now: ms) {
            let retry = refused.retryAt(limit: Int64(limit.limit), window: limit.window.windowMilliseconds, now: ms)
            return .numberLimited(retryAt: Date(millisecondsSince1970: retry))
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
                if approvedWeighted &* 10_000 < startsWeighted &* Int64(range.minimumSuccessBasisPoints) {
                    starts.blockedUntil = ms + range.block.milliseconds
                    try transaction.setCounter(key, starts, expiresAt: starts.expiresAt(window: window))
                    return .rangeBlocked(until: Date(millisecondsSince1970: starts.blockedUntil), newly: true)
                }
            }
            try transaction.setCounter(key, starts, expiresAt: starts.expiresAt(window: window))
        }
        if var open {
            open.sendCount += 1
            open.lastSentAt = now
            try transaction.update(open)
            return .resend(open)
        }
        try transaction.insert(record)
        return .created
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
