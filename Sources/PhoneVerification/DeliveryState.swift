import Foundation

/// Where one SMS (or one part of it) stands on its way to the handset, as delivery reports tell it.
///
/// `queued` (handed to the gateway), `accepted` (the SMS centre took it, or holds it for a retry),
/// and `unknown` (the network gave no verdict yet) may still change; `delivered`, `failed` and
/// `expired` are final. Reports arrive late, twice and out of order, so a state changes only through
/// ``merged(with:)``: a final state is never overwritten, and an intermediate report never moves a
/// part back.
///
/// ```swift
/// DeliveryState.accepted.merged(with: .delivered)   // (.delivered, .changed)
/// DeliveryState.delivered.merged(with: .accepted)   // (.delivered, .stale)
/// DeliveryState.delivered.merged(with: .delivered)  // (.delivered, .duplicate)
/// ```
public enum DeliveryState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Handed to the gateway; no report yet.
    case queued
    /// The SMS centre accepted it (or buffered it for a retry).
    case accepted
    /// The handset received it.
    case delivered
    /// It will not arrive: rejected by the SMS centre or undeliverable on the network.
    case failed
    /// Its validity period ran out before it could be delivered.
    case expired
    /// The network reported no verdict it knows.
    case unknown

    /// Whether no later report changes it.
    public var isFinal: Bool { self == .delivered || self == .failed || self == .expired }

    /// How far along a report says the SMS is: later reports of a lower rank are stale.
    var rank: Int {
        switch self {
        case .queued: return 0
        case .accepted, .unknown: return 1
        case .delivered, .failed, .expired: return 2
        }
    }

    /// What applying one report did to a state.
    public enum Transition: String, Sendable, Hashable, Codable {
        /// The state moved on.
        case changed
        /// The report said what the state already was (a replay).
        case duplicate
        /// The report came after a later one (or after a final state) and was ignored.
        case stale
    }

    /// The state after a report saying `reported`, and what the report did.
    ///
    /// The first final state stays (a second, different final report is stale); otherwise a report
    /// of at least the same rank wins, so `accepted` and `unknown` may follow each other.
    ///
    /// - Complexity: O(1).
    public func merged(with reported: DeliveryState) -> (state: DeliveryState, transition: Transition) {
        if reported == self { return (self, .duplicate) }
        if isFinal || reported.rank < rank { return (self, .stale) }
        return (reported, .changed)
    }

    /// The state of a message made of parts in these states: `failed` when any part failed,
    /// `delivered` when every part was, `expired` when every part is final and one expired;
    /// otherwise `unknown` when a part is, `accepted` when a part got further than `queued`, else
    /// `queued`.
    ///
    /// - Complexity: O(*n*) in the number of parts.
    public static func combined(_ parts: some Sequence<DeliveryState>) -> DeliveryState {
        var any = false, allDelivered = true, allFinal = true
        var anyExpired = false, anyUnknown = false, anyFurther = false
        for state in parts {
            any = true
            if state == .failed { return .failed }
            if state != .delivered { allDelivered = false }
            if !state.isFinal { allFinal = false }
            if state == .expired { anyExpired = true }
            if state == .unknown { anyUnknown = true }
            if state != .queued { anyFurther = true }
        }
        guard any else { return .queued }
        if allDelivered { return .delivered }
        if allFinal && anyExpired { return .expired }
        if anyUnknown { return .unknown }
        return anyFurther ? .accepted : .queued
    }
}
