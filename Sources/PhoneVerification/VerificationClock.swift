import Foundation
import Synchronization

/// Where a ``PhoneVerifier`` reads the time: the system clock, or a clock a test moves by hand.
///
/// Expiry, resend cooldowns and rate-limit windows all read this clock, so tests cover them
/// without sleeping.
///
/// ```swift
/// let manual = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
/// let verifier = PhoneVerifier(store: store, sender: sender, secret: secret, clock: manual.clock)
/// manual.advance(by: .seconds(601))   // every open code has now expired
/// ```
public struct VerificationClock: Sendable {
    /// Returns the current time.
    public let now: @Sendable () -> Date

    /// A clock that calls `now` for the time.
    ///
    /// - Parameter now: Returns the current time; called once or twice per operation.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's wall clock.
    public static var system: VerificationClock { VerificationClock { Date() } }
}

/// A clock that only moves when told to: for tests of expiry and windows.
///
/// ```swift
/// let manual = ManualClock()
/// manual.advance(by: .seconds(30))
/// ```
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock stopped at `start`.
    ///
    /// - Parameter start: The time the clock shows until it is advanced; 2027-01-15 08:00 UTC by default.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The time the clock shows.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative duration).
    ///
    /// - Parameter duration: How far to move.
    public func advance(by duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }

    /// This clock as a ``VerificationClock``.
    public var clock: VerificationClock { VerificationClock { [self] in now } }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic wants it.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down; what the stores keep.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}

extension Date {
    /// Milliseconds since 1970, as the stores keep times.
    package var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The date `milliseconds` after 1970.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
