import NIOCore
import Synchronization

/// A budget of bad requests per source address: each source may spend `burst` at once and
/// `perSecond` a second on average; past that, the requests it guards are refused from that
/// source until a token is back. Only bad requests spend (a wrong API key, a delivery report
/// with a forged or malformed token), so a client that behaves is never slowed by it.
///
/// A source is an IPv4 address or an IPv6 /64 (one host usually has a whole /64). Only sources
/// that spent are kept, at most `capacity` of them: when the table is full, sources whose bucket
/// has filled up again are dropped, and if none has, new sources share one bucket (a flood from
/// more addresses than the table holds throttles those addresses together, never the ones
/// already in the table nor any that never spent).
final class SourceThrottle: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var shared: Bucket?
        var lastSweep: ContinuousClock.Instant?
    }

    let perSecond: Double
    let burst: Double
    let capacity: Int
    private let state = Mutex(State())

    /// A budget of `burst` bad requests at once and `perSecond` a second on average per source.
    init(perSecond: Double, burst: Int, capacity: Int = 65_536) {
        self.perSecond = perSecond > 0 && perSecond.isFinite ? perSecond : 1
        self.burst = Double(max(1, burst))
        self.capacity = max(1, capacity)
    }

    /// The wrong-key budget: `perMinute` at once and `perMinute` a minute.
    convenience init(perMinute: Int, capacity: Int = 65_536) {
        self.init(perSecond: Double(max(1, perMinute)) / 60, burst: max(1, perMinute), capacity: capacity)
    }

    /// The source of `address`: the address itself, or the /64 of an IPv6 address (an
    /// IPv4-mapped IPv6 address is the IPv4 one); `nil` for a Unix socket or no address.
    static func source(of address: SocketAddress?) -> String? {
        switch address {
        case .v4:
            return address?.ipAddress
        case .v6(let v6):
            var address = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return bytes[12..<16].map(String.init).joined(separator: ".")
            }
            return APIKeys.hex(bytes[0..<8]) + "/64"
        default:
            return nil
        }
    }

    /// Whole seconds until `source` may send again, or nil when it may now.
    func retryAfter(_ source: String, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            let bucket = state.buckets[source] ?? (state.buckets.count >= capacity ? state.shared : nil)
            guard let bucket else { return nil }
            let tokens = refilled(bucket, now).tokens
            guard tokens < 1 else { return nil }
            return max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
        }
    }

    /// Spends one token of `source`'s budget: it sent a bad request.
    func spend(_ source: String, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if var bucket = state.buckets[source] {
                bucket = refilled(bucket, now)
                bucket.tokens = max(0, bucket.tokens - 1)
                state.buckets[source] = bucket
                return
            }
            if state.buckets.count >= capacity { sweep(&state, now) }
            if state.buckets.count < capacity {
                state.buckets[source] = Bucket(tokens: burst - 1, updated: now)
            } else {
                var shared = state.shared.map { refilled($0, now) } ?? Bucket(tokens: burst, updated: now)
                shared.tokens = max(0, shared.tokens - 1)
                state.shared = shared
            }
        }
    }

    /// Sources kept now (for tests).
    var count: Int { state.withLock { $0.buckets.count } }

    private func refilled(_ bucket: Bucket, _ now: ContinuousClock.Instant) -> Bucket {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Bucket(tokens: min(burst, bucket.tokens + max(0, seconds) * perSecond), updated: now)
    }

    /// Drops the sources whose bucket is full again, at most once a second (a full table under a
    /// flood would otherwise be scanned at every spend).
    private func sweep(_ state: inout State, _ now: ContinuousClock.Instant) {
        if let last = state.lastSweep, now - last < .seconds(1) { return }
        state.lastSweep = now
        state.buckets = state.buckets.filter { refilled($0.value, now).tokens < burst }
    }
}
