#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhoneVerification
import SMSKitJSON

/// The verification documents, written once for both front ends: the service's
/// `POST /v1/verifications` and `/v1/verifications/{id}/check` and `smskit verify start|check
/// --format json` (the executable that has the verification commands links this module).
package enum VerificationDocuments {
    /// A started (or resent) verification: `id`, `e164`, `locale`, `segments`, `expires_at`,
    /// `resend_allowed_at`, `test`, `resend`.
    package static func started(_ started: StartedVerification) -> JSONValue {
        .object([
            ("id", .string(started.id)), ("e164", .string(started.e164)), ("locale", .string(started.locale)),
            ("segments", .int(started.segments)),
            ("expires_at", .string(timestamp(started.expiresAt))),
            ("resend_allowed_at", .string(timestamp(started.resendAllowedAt))),
            ("test", .bool(started.isTest)), ("resend", .bool(started.isResend)),
        ])
    }

    /// A check's answer: its `status`, then `e164` when approved or `attempts_left` after a wrong
    /// code; the service adds an `error` object to the refusals (not found, used, expired, locked).
    package static func checked(_ result: CheckResult) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("status", .string(result.status))]
        switch result {
        case .approved(let e164): fields.append(("e164", .string(e164)))
        case .incorrectCode(let left): fields.append(("attempts_left", .int(left)))
        default: break
        }
        return fields
    }

    /// A time in the documents: ISO 8601 in UTC, to the second (`2026-11-28T09:30:00Z`).
    package static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
