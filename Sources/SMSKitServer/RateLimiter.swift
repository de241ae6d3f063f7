import Synchronization

/// Per-key token buckets: each key may make `burst` requests at once and `ratePerSecond`
/// requests a second on average; a request over that is refused with the seconds to wait.
///
/// Only configured keys have buckets, so the table's size is bounded by the keys file.
final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let ratePerSecond: Double
    let burst: Double
    private let buckets = Mutex<[APIKeys.KeyID: Bucket]>([:])

    init(ratePerSecond: Double, burst: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = Double(max(1, burst))
    }

    /// Takes one token for `key`: `nil` when the request may go on, else the whole seconds
    /// (at least 1) after which a token will be there.
    func acquire(_ key: APIKeys.KeyID, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * ratePerSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            let wait = (1 - bucket.tokens) / ratePerSecond
            return max(1, Int(wait.rounded(.up)))
        }
    }
}
