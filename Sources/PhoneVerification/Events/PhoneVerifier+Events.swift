import Foundation
import Synchronization

extension PhoneVerifier {
    /// The error codes that are refusals of the send guard: a start refused with one of them
    /// appends a `refused` event (with the code as its reason); bad input and faults do not.
    static let refusalCodes: Set<VerificationError.Code> = [
        .regionNotAllowed, .refusedNumberType, .fictionalNumber, .numberRateLimited, .clientRateLimited,
        .rangeBlocked, .tooManyFailedChecks, .resendCooldown, .regionCapped, .conversionHold, .numberDenied,
    ]

    /// Appends events the store did not append in a transaction of its own (`sent`, `refused`,
    /// a failed send). Best effort: the state change already happened (an SMS left, a start was
    /// refused), so a store failure here loses the event rather than failing the call; this is
    /// the gap between a state change and its event that these kinds have.
    func appendBestEffort(_ events: [VerificationEvent]) async {
        guard let eventStore = store as? any VerificationEventStore, !events.isEmpty else { return }
        _ = try? await withStore { try await eventStore.appendEvents(events) }
    }

    /// The `refused` event of a start refused by the guard for `e164`, under a fresh ID (a
    /// refused start makes no verification).
    func refusedEvent(_ error: VerificationError, e164: String, now: Date) -> VerificationEvent? {
        guard Self.refusalCodes.contains(error.code), refusalEvents.take(now: now) else { return nil }
        return VerificationEvent(verificationID: _Random.id(), kind: .refused, time: now,
                                 details: .init(refusal: error, maskedNumber: VerificationEvent.mask(e164)))
    }
}

/// A token bucket over `refused` events: at most ``perSecond`` a second, ``burst`` at once, per
/// verifier. A refused start writes nothing else, so that a flood of refusals cannot grow the
/// store; its events are bounded by this rate times the retention (refusals past it are still
/// refused, only without an event: the service counts every refusal in its metrics).
final class RefusalEventBudget: Sendable {
    static let perSecond = 5.0
    static let burst = 50.0
    private let state = Mutex<(tokens: Double, at: Date?)>((burst, nil))

    func take(now: Date) -> Bool {
        state.withLock { state in
            let elapsed = state.at.map { max(0, now.timeIntervalSince($0)) } ?? 0
            state.tokens = min(Self.burst, state.tokens + elapsed * Self.perSecond)
            state.at = now
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }
}

extension PhoneVerifier {
    /// The most events one ``events(after:limit:)`` call returns, so that one read is bounded.
    public static let maximumEventsLimit = 1_000

    /// Whether the store keeps events (memory, SQLite and PostgreSQL do; a custom store may not).
    public var keepsEvents: Bool { store is any VerificationEventStore }

    /// The store's events after `cursor`, in cursor order: what `GET /v1/events` and
    /// `smskit verify events` answer, and what webhooks receive. Go on from the last event's
    /// ``VerificationEvent/cursor``; a reader that does so never skips an event that commits later.
    ///
    /// - Parameters:
    ///   - cursor: 0 for the oldest event kept, else the last cursor read.
    ///   - limit: The most events (1 to ``maximumEventsLimit``).
    /// - Returns: The events, empty when there are none after `cursor` or the store keeps none
    ///   (see ``keepsEvents``).
    /// - Throws: ``VerificationError`` `.invalidConfiguration` for a limit or cursor out of range,
    ///   or a store fault.
    public func events(after cursor: Int64, limit: Int = 100) async throws(VerificationError) -> [VerificationEvent] {
        guard (1...Self.maximumEventsLimit).contains(limit) else {
            throw VerificationError(.invalidConfiguration, "the limit must be 1 to \(Self.maximumEventsLimit), not \(limit)")
        }
        guard cursor >= 0 else {
            throw VerificationError(.invalidConfiguration, "a cursor is 0 or more, not \(cursor)")
        }
        guard let events = store as? any VerificationEventStore else { return [] }
        return try await withStore { try await events.events(after: cursor, limit: limit) }
    }
}
