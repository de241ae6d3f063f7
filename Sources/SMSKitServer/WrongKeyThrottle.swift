import NIOCore
import Synchronization

/// Wrong API keys per source: each source may present `perMinute` wrong keys at once and
/// `perMinute` a minute on average; past that, every request of that source that needs a key is
/// refused (a right key too, else the refusal would tell a guesser when it found one) until a
/// token is back.
///
/// A source is an IPv4 address or an IPv6 /64 (one host usually has a whole /64). Only sources
/// that sent a wrong key are kept, at most `capacity` of them: when the table is full, sources
/// whose bucket has filled up again are dropped, and if none has, new sources share one bucket
/// (a flood from more addresses than the table holds throttles those addresses together, never
/// the ones already in the table nor any that never sent a wrong key).
final class WrongKeyThrottle: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var shared: Bucket?
        var lastSweep: ContinuousClock.Instant?
    }

    let perMinute: Int
    let capacity: Int
    private let state = Mutex(State())

    init(perMinute: Int, capacity: Int = 65_536) {
        self.perMinute = max(1, perMinute)
        self.capacity = max(1, capacity)
    }

    private var burst: Double { Double(perMinute) }
    private var perSecond: Double { Double(perMinute) / 60 }

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

    /// Whole seconds until `source` may present a key again, or nil when it may now.
    func retryAfter(_ source: String, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            let bucket = state.buckets[source] ?? (state.buckets.count >= capacity ? state.shared : nil)
            guard let bucket else { return nil }
            let tokens = refilled(bucket, now).tokens
            guard tokens < 1 else { return nil }
            return max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
        }
    }

    /// Counts a wrong key from `source`.
    func recordWrongKey(_ source: String, now: ContinuousClock.Instant = .now) {
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
    /// flood would otherwise be scanned at every wrong key).
    private func sweep(_ state: inout State, _ now: ContinuousClock.Instant) {
        if let last = state.lastSweep, now - last < .seconds(1) { return }
        state.lastSweep = now
        state.buckets = state.buckets.filter { refilled($0.value, now).tokens < burst }
    }
}
