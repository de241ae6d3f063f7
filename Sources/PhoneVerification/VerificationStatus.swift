import Foundation

/// A verification as a support person or the application looks it up: the stored record (no code
/// in clear) and each SMS sent for it with its delivery state.
public struct VerificationStatus: Sendable, Hashable {
    /// The verification.
    public var record: VerificationRecord
    /// Its SMS, first send first.
    public var messages: [DeliveryMessage]

    /// Creates a status.
    public init(record: VerificationRecord, messages: [DeliveryMessage]) {
        self.record = record
        self.messages = messages.sorted { $0.sequence < $1.sequence }
    }

    /// Where the verification stands at `now`, in the words of the service:
    /// `pending`, `approved`, `expired`, `max_attempts`, `closed` or `cancelled`.
    public func phase(at now: Date) -> String {
        switch record.state {
        case .approved: return "approved"
        case .closed: return "closed"
        case .cancelled: return "cancelled"
        case .open:
            if now >= record.expiresAt { return "expired" }
            if record.attempts >= record.maxAttempts { return "max_attempts" }
            return "pending"
        }
    }

    /// The locale of its latest SMS (a verification is stored before its SMS is written), or the
    /// record's (test numbers get no SMS).
    public var locale: String { messages.last.map(\.locale).flatMap { $0.isEmpty ? nil : $0 } ?? record.locale }

    /// Checks it still accepts at `now` (0 once it is not pending).
    public func attemptsLeft(at now: Date) -> Int {
        phase(at: now) == "pending" ? max(0, record.maxAttempts - record.attempts) : 0
    }

    /// The E.164 number with all but its last `visible` digits replaced by `*` (the `+` and the
    /// length stay): `+905******67` for `+905321234567` with 2 visible.
    public static func masked(_ e164: String, visible: Int = 2) -> String {
        let digits = e164.utf8.count - (e164.hasPrefix("+") ? 1 : 0)
        let hidden = max(0, digits - max(0, visible))
        var result = e164.hasPrefix("+") ? "+" : ""
        for (index, character) in e164.drop(while: { $0 == "+" }).enumerated() {
            result.append(index < hidden ? "*" : character)
        }
        return result
    }
}

/// What ``VerificationStore/cancel(id:now:)`` did.
public enum CancelOutcome: String, Sendable, Hashable {
    /// The verification was cancelled now.
    case cancelled
    /// It was cancelled before (a repeated cancel changes nothing).
    case alreadyCancelled = "already_cancelled"
    /// It was approved: too late to cancel.
    case alreadyApproved = "already_approved"
    /// It was closed (its SMS failed, or the secret changed): nothing left to cancel.
    case closed
    /// No verification has this ID.
    case notFound = "not_found"
}

extension VerificationRecord {
    /// The rule of ``VerificationStore/cancel(id:now:)`` for one record: every store applies it.
    public func cancelling() -> (record: VerificationRecord, outcome: CancelOutcome) {
        switch state {
        case .open:
            var record = self
            record.state = .cancelled
            return (record, .cancelled)
        case .cancelled: return (self, .alreadyCancelled)
        case .approved: return (self, .alreadyApproved)
        case .closed: return (self, .closed)
        }
    }
}
