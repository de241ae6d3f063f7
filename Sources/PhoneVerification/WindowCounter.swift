import Foundation

/// A sliding-window rate counter, approximated with two buckets (the "sliding window counter"
/// that Cloudflare and others use): hits are counted in buckets as long as the window, aligned to
/// multiples of it since 1970; at time `t` in the bucket that began at `b`, the window's estimate is
/// `previous × (1 − (t − b) / W) + current`. A hit is allowed when the estimate plus one stays within
/// the limit. So a burst at the end of one bucket still counts, decaying linearly, in the next:
/// no doubling of the limit at a bucket edge, as fixed windows allow.
///
/// All arithmetic is in integer milliseconds scaled by the window length, so the in-memory, SQLite
/// and PostgreSQL stores compute exactly the same answers (PostgreSQL runs the same formulas in
/// PL/pgSQL; the shared store tests hold them equal).
///
/// ```swift
/// var counter = WindowCounter(now: 0, window: 60_000)
/// counter.hit(limit: 5, window: 60_000, now: 1_000)   // true
/// ```
public struct WindowCounter: Sendable, Hashable {
    /// The start of the current bucket, in milliseconds since 1970 (a multiple of the window).
    public var bucketStart: Int64
    /// Hits in the current bucket.
    public var current: Int64
    /// Hits in the bucket before it.
    public var previous: Int64
    /// Until when the counter's key is blocked (range velocity), in milliseconds since 1970; 0 for none.
    public var blockedUntil: Int64

    /// A counter with the given state.
    public init(bucketStart: Int64, current: Int64, previous: Int64, blockedUntil: Int64 = 0) {
        self.bucketStart = bucketStart
        self.current = current
        self.previous = previous
        self.blockedUntil = blockedUntil
    }

    /// An empty counter whose bucket holds `now`.
    public init(now: Int64, window: Int64) {
        self.init(bucketStart: Self.bucket(of: now, window: window), current: 0, previous: 0)
    }

    /// The start of the bucket that holds `now`.
    public static func bucket(of now: Int64, window: Int64) -> Int64 {
        now - ((now % window) + window) % window
    }

    /// The counter moved to the bucket that holds `now`: one bucket on, the current count becomes
    /// the previous one; further on, both are zero. A clock that went back moves nothing.
    public func rolled(to now: Int64, window: Int64) -> WindowCounter {
        let bucket = Self.bucket(of: now, window: window)
        var rolled = self
        if bucket == bucketStart &+ window {
            rolled.previous = current
            rolled.current = 0
            rolled.bucketStart = bucket
        } else if bucket > bucketStart &+ window {
            rolled.previous = 0
            rolled.current = 0
            rolled.bucketStart = bucket
        }
        return rolled
    }

    /// The window's estimate at `now` times the window length (an integer), on a rolled counter.
    public func weighted(at now: Int64, window: Int64) -> Int64 {
        let elapsed = min(max(now - bucketStart, 0), window)
        return previous &* (window - elapsed) &+ current &* window
    }

    /// Rolls to `now` and counts one hit if it is within `limit` (always, when `limit` is `nil`).
    ///
    /// - Returns: Whether the hit was allowed and counted.
    @discardableResult
    public mutating func hit(limit: Int64?, window: Int64, now: Int64) -> Bool {
        self = rolled(to: now, window: window)
        if let limit, !allows(limit: limit, window: window, now: now) { return false }
        current += 1
        return true
    }

    /// Whether one more hit fits within `limit` at `now`, on a rolled counter; counts nothing.
    public func allows(limit: Int64, window: Int64, now: Int64) -> Bool {
        weighted(at: now, window: window) &+ window <= limit &* window
    }

    /// Whether one more hit fits within `limit` with both buckets counted in full (no decay), on a
    /// rolled counter; counts nothing. Then no span of one window length ever holds more than
    /// `limit` hits (it lies within the two buckets), at the price of a refusal lasting up to two
    /// windows: the failure budget wants that bound exactly.
    public func allowsInFull(limit: Int64) -> Bool {
        previous &+ current &+ 1 <= limit
    }

    /// The first millisecond at which ``allowsInFull(limit:)`` holds again, for a rolled counter that
    /// refused a hit: the next bucket when the current one alone leaves room, else the one after.
    public func retryInFullAt(limit: Int64, window: Int64) -> Int64 {
        current &+ 1 <= limit ? bucketStart &+ window : bucketStart &+ 2 &* window
    }

    /// When the key's data can go: after its previous bucket stops counting and any block ends.
    public func expiresAt(window: Int64) -> Int64 {
        max(bucketStart &+ 2 &* window, blockedUntil)
    }

    /// The first millisecond after `now` at which a hit within `limit` is allowed, for a counter
    /// that refused one at `now` (rolled to `now`).
    public func retryAt(limit: Int64, window: Int64, now: Int64) -> Int64 {
        // In this bucket: previous × (W − e) ≤ (limit − current − 1) × W.
        if current < limit, previous > 0 {
            let elapsed = window - ((limit - current - 1) &* window) / previous
            if elapsed < window { return max(now + 1, bucketStart + elapsed) }
        }
        // In the next bucket the current count decays: current × (W − e) ≤ (limit − 1) × W.
        guard current > 0 else { return bucketStart + window }
        let elapsed = max(0, window - ((limit - 1) &* window) / current)
        return max(now + 1, bucketStart + window + elapsed)
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (window lengths).
    package var windowMilliseconds: Int64 { max(1, milliseconds) }
}
