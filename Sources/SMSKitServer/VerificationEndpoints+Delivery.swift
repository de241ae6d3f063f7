#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import NIOCore
import PhoneVerification
import PhoneVerificationKannel
import SMSKitJSON

/// `GET /v1/verifications/{id}` (status), `POST /v1/verifications/{id}/cancel` and
/// `GET|POST /v1/delivery-reports/kannel` (Kannel's `dlr-url`).
///
/// A report is authenticated by its message token alone (Kannel holds no API key); it answers
/// 200 with what it did (`applied`, `duplicate`, `stale`), 404 `unknown_message` for a token (or
/// part) no message has, 400 with the reason for a malformed report or a query string over
/// 4 KB, 413 for a form body over 4 KB, and never a 5xx for anything the caller sent. Each outcome is counted in
/// `smskit_delivery_reports_total{outcome}`.
extension VerificationEndpoints {
    /// The longest query string or form body of a report (a receipt text percent-encoded fits).
    static let maximumReportBytes = 4096

    func status(id: String, revealNumber: Bool) async throws -> JSONValue {
        try await prepareStore("status")
        let status: VerificationStatus?
        do {
            status = try await verifier.status(id: id)
        } catch {
            metrics.verification("status", outcome: error.code.name)
            throw serviceError(error)
        }
        guard let status else {
            metrics.verification("status", outcome: "not_found")
            throw ServiceError(.notFound, "not_found", "There is no verification with this ID.")
        }
        metrics.verification("status", outcome: "found")
        return JSONValue(status, at: clock.now(), revealNumber: revealNumber)
    }

    func cancel(id: String) async throws -> (HTTPResponse.Status, JSONValue) {
        try await prepareStore("cancel")
        let outcome: CancelOutcome
        do {
            outcome = try await verifier.cancel(id: id)
        } catch {
            metrics.verification("cancel", outcome: error.code.name)
            throw serviceError(error)
        }
        metrics.verification("cancel", outcome: outcome.rawValue)
        switch outcome {
        case .cancelled, .alreadyCancelled:
            // Where a `cancelled` event belongs (once, on `.cancelled`).
            return (.ok, JSONValue(cancelled: id, outcome: outcome))
        case .notFound:
            throw ServiceError(.notFound, "not_found", "There is no verification with this ID.")
        case .alreadyApproved:
            throw ServiceError(.conflict, "already_approved", "This verification was approved; it cannot be cancelled.")
        case .closed:
            throw ServiceError(.conflict, "closed", "This verification was closed (its SMS failed); there is nothing to cancel.")
        }
    }

    /// Applies one Kannel report given as query (or form) fields.
    func kannelReport(_ fields: [(name: String, value: String)]) async throws -> JSONValue {
        let report: KannelDeliveryReport
        do {
            report = try KannelDeliveryReport(query: fields, receivedAt: clock.now())
        } catch {
            metrics.deliveryReport(outcome: error.reason)
            throw ServiceError(.badRequest, error.reason, ErrorDocument.sentence(error.message))
        }
        try await prepareStore("delivery_report")
        let result: DeliveryReportResult?
        do {
            result = try await verifier.applyDeliveryReport(report.deliveryReport)
        } catch {
            metrics.deliveryReport(outcome: error.code.name)
            throw serviceError(error)
        }
        guard let result else {
            metrics.deliveryReport(outcome: "unknown_message")
            throw ServiceError(.notFound, "unknown_message", "No message has this token and part.")
        }
        let outcome = result.transition == .changed ? "applied" : result.transition.rawValue
        metrics.deliveryReport(outcome: outcome)
        // Where `delivered` / `delivery_failed` events and the per-region delivery counts belong:
        // once per message, when `result.messageBecameFinal`.
        return .object([
            ("status", .string(outcome)),
            ("message_state", .string(result.state.rawValue)),
        ])
    }

    /// The fields of a query string or an `application/x-www-form-urlencoded` body; `+` is a space.
    static func formFields(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).prefix(32).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }
}
