import Foundation

/// A ``VerificationStore`` that keeps the events of its verifications (``VerificationEvent``).
///
/// The three stores of the package conform. Events of a start (`started`, `resent`) and of a check
/// (`approved`, `incorrect_code`, `max_attempts`) are appended by ``VerificationStore/start(_:)``
/// and ``VerificationStore/check(_:)`` in the transaction of the state change they describe
/// (``StartRequest/events(for:)``, ``CheckRequest/events(for:)``), so none is lost and none
/// describes a change that was rolled back. `expired` events are appended by
/// ``VerificationStore/removeExpired(now:retention:)`` (see ``expiryLookback``). Other events
/// (`sent`, `refused`, delivery reports, `cancelled`) come through ``appendEvents(_:)`` from whoever
/// saw them happen.
///
/// Each store numbers its events with a cursor, and ``events(after:limit:)`` never returns a cursor
/// above one that a transaction still in flight may yet commit: a reader that pulls from the last
/// cursor it saw never skips an event that commits later. Cursors of one verification increase
/// with its sequence. Events go with the retention sweep: those older than the retention are deleted
/// with the verifications.
public protocol VerificationEventStore: VerificationStore {
    /// Appends events: each gets the next ``VerificationEvent/sequence`` of its verification and
    /// the next cursor of the store, in the order given.
    ///
    /// - Returns: The events as stored.
    @discardableResult
    func appendEvents(_ events: [VerificationEvent]) async throws -> [VerificationEvent]

    /// The events whose cursor is above `cursor`, in cursor order, at most `limit` of them.
    func events(after cursor: Int64, limit: Int) async throws -> [VerificationEvent]
}

extension VerificationEventStore {
    /// How far back the retention sweep looks for open verifications whose lifetime ended without
    /// an `expired` event: one day, so that a sweep reads a bounded range of the expiry index
    /// however long the retention is. A service stopped for longer reports no `expired` event
    /// for the verifications that ended while it was down.
    public static var expiryLookback: Duration { .seconds(86_400) }
}

extension StartRequest {
    /// The events a store appends with an outcome of this start: `started` for a new verification,
    /// `resent` for a resend, nothing for a refusal (a refused start writes nothing; the verifier
    /// appends its `refused` event apart).
    public func events(for outcome: StartOutcome) -> [VerificationEvent] {
        let masked = VerificationEvent.mask(record.e164)
        switch outcome {
        case .created:
            return [VerificationEvent(verificationID: record.id, kind: .started, time: now,
                                      details: .init(maskedNumber: masked))]
        case .resend(let open):
            return [VerificationEvent(verificationID: open.id, kind: .resent, time: now,
                                      details: .init(maskedNumber: masked))]
        default:
            return []
        }
    }
}

extension CheckRequest {
    /// The events a store appends with an outcome of this check: `approved`; `incorrect_code`,
    /// followed by `max_attempts` when it used the last attempt; nothing for a check that changed
    /// nothing (unknown, expired, used or closed verification).
    public func events(for outcome: CheckOutcome) -> [VerificationEvent] {
        switch outcome {
        case .approved:
            return [VerificationEvent(verificationID: id, kind: .approved, time: now)]
        case .incorrect(let left):
            let incorrect = VerificationEvent(verificationID: id, kind: .incorrectCode, time: now,
                                              details: .init(attemptsLeft: left))
            return left > 0 ? [incorrect] : [incorrect, VerificationEvent(verificationID: id, kind: .maxAttempts, time: now)]
        default:
            return []
        }
    }
}

extension DeliveryReportResult {
    /// The events a store appends with this result, in the report's transaction: `delivered` when
    /// the message became delivered, `delivery_failed` when it became failed or expired (once: a
    /// message that goes from expired to failed has already been reported); nothing for a report
    /// that left the message's state as it was (a duplicate, a stale report, one part of several).
    /// `message_id` is the message's `sequence` in the verification's status.
    public func events(at time: Date) -> [VerificationEvent] {
        let messageID = String(sequence)
        switch (previousState, state) {
        case (.delivered, _), (.failed, _), (.expired, _):
            return []
        case (_, .delivered):
            return [VerificationEvent(verificationID: verificationID, kind: .delivered, time: time,
                                      details: .init(messageID: messageID))]
        case (_, .failed), (_, .expired):
            return [VerificationEvent(verificationID: verificationID, kind: .deliveryFailed, time: time,
                                      details: .init(messageID: messageID, part: part,
                                                     errorCode: errorCode ?? state.rawValue))]
        default:
            return []
        }
    }
}

extension CancelOutcome {
    /// The events a store appends with this outcome of a cancel, in its transaction: `cancelled`
    /// when it cancelled now; nothing for a cancel that changed nothing.
    public func events(id: String, now: Date) -> [VerificationEvent] {
        self == .cancelled ? [VerificationEvent(verificationID: id, kind: .cancelled, time: now)] : []
    }
}

extension VerificationEvent.Details: Codable {
    private enum CodingKeys: String, CodingKey {
        case maskedNumber = "masked_number", reason, retryAt = "retry_at_ms", attemptsLeft = "attempts_left"
        case messageID = "message_id", part, errorCode = "error_code", segments
    }

    /// Decodes the stored form of ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(maskedNumber: try container.decodeIfPresent(String.self, forKey: .maskedNumber),
                  reason: try container.decodeIfPresent(String.self, forKey: .reason),
                  retryAt: try container.decodeIfPresent(Int64.self, forKey: .retryAt).map(Date.init(millisecondsSince1970:)),
                  attemptsLeft: try container.decodeIfPresent(Int.self, forKey: .attemptsLeft),
                  messageID: try container.decodeIfPresent(String.self, forKey: .messageID),
                  part: try container.decodeIfPresent(Int.self, forKey: .part),
                  errorCode: try container.decodeIfPresent(String.self, forKey: .errorCode),
                  segments: try container.decodeIfPresent(Int.self, forKey: .segments))
    }

    /// The form stores keep (a JSON object of the present fields, times in milliseconds); the
    /// event's public JSON is ``VerificationEvent/encode(to:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(maskedNumber, forKey: .maskedNumber)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(retryAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }, forKey: .retryAt)
        try container.encodeIfPresent(attemptsLeft, forKey: .attemptsLeft)
        try container.encodeIfPresent(messageID, forKey: .messageID)
        try container.encodeIfPresent(part, forKey: .part)
        try container.encodeIfPresent(errorCode, forKey: .errorCode)
        try container.encodeIfPresent(segments, forKey: .segments)
    }

    /// The stored form as a JSON string.
    package var storedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    /// The details from their stored form; a damaged one gives empty details rather than losing the event.
    package init(storedJSON: String) {
        self = (try? JSONDecoder().decode(Self.self, from: Data(storedJSON.utf8))) ?? Self()
    }
}
