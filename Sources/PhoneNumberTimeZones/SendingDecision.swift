/// Whether a message may be sent to a number now under a ``LocalTimeWindow``, and if not, when.
///
/// ```swift
/// switch engine.sendingDecision(for: number, at: .now()) {
/// case .allowed: send()
/// case .notBefore(let instant): schedule(at: instant)
/// case .unknownTimeZone, .noCommonWindow: holdForReview()
/// }
/// ```
public enum SendingDecision: Sendable, Hashable, CustomStringConvertible {
    /// The instant is inside the window in every time zone of the number.
    case allowed
    /// Not now; the earliest later instant that is inside the window in every zone.
    case notBefore(UTCInstant)
    /// The number has no known time zone (it is invalid, or the data has no zone for it), or
    /// the system ICU does not know one of its zones: the local time cannot be known.
    case unknownTimeZone
    /// The number's zones are so far apart that no instant in the next eight days is inside the
    /// window in all of them at once.
    case noCommonWindow

    /// Whether one may send now.
    public var isAllowed: Bool { self == .allowed }

    /// "allowed", "not_before 2026-03-15T12:00:00Z", "unknown_time_zone" or "no_common_window".
    public var description: String {
        switch self {
        case .allowed: "allowed"
        case .notBefore(let instant): "not_before \(instant)"
        case .unknownTimeZone: "unknown_time_zone"
        case .noCommonWindow: "no_common_window"
        }
    }
}
