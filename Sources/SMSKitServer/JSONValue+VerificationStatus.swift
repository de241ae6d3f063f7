#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhoneVerification
import SMSKitJSON

extension JSONValue {
    /// A verification's status: the body of `GET /v1/verifications/{id}` and the output of
    /// `smskit verify status --format json` (one spelling for both).
    ///
    /// `e164` is masked to its last two digits unless `revealNumber` (a trusted key, or the
    /// operator's own command line). Messages list each SMS with its delivery state and parts.
    package init(_ status: VerificationStatus, at now: Date, revealNumber: Bool) {
        let record = status.record
        self = .object([
            ("id", .string(record.id)),
            ("e164", .string(revealNumber ? record.e164 : VerificationStatus.masked(record.e164))),
            ("status", .string(status.phase(at: now))),
            ("locale", .string(status.locale)),
            ("test", .bool(record.isTest)),
            ("created_at", .string(record.createdAt.formatted(.iso8601))),
            ("expires_at", .string(record.expiresAt.formatted(.iso8601))),
            ("attempts", .int(record.attempts)),
            ("attempts_left", .int(status.attemptsLeft(at: now))),
            ("send_count", .int(record.sendCount)),
            ("messages", .array(status.messages.map { message in
                .object([
                    ("sequence", .int(message.sequence)),
                    ("state", .string(message.state.rawValue)),
                    ("error_code", .optional(message.errorCode)),
                    ("created_at", .string(message.createdAt.formatted(.iso8601))),
                    ("parts", .array(message.parts.map { part in
                        .object([
                            ("part", .int(part.number)),
                            ("state", .string(part.state.rawValue)),
                            ("provider_message_id", .optional(part.providerMessageID)),
                            ("error_code", .optional(part.errorCode)),
                            ("updated_at", .string(part.updatedAt.formatted(.iso8601))),
                            ("done_at", .optional(part.doneAt.map { $0.formatted(.iso8601) })),
                        ])
                    })),
                ])
            })),
        ])
    }

    /// The body of `POST /v1/verifications/{id}/cancel` and of `smskit verify cancel --format json`.
    package init(cancelled id: String, outcome: CancelOutcome) {
        self = .object([("id", .string(id)), ("status", .string(outcome.rawValue))])
    }
}
