#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore

/// `GET /v1/verifications/{id}`, `POST /v1/verifications/{id}/cancel` and
/// `GET|POST /v1/delivery-reports/kannel` (see ``VerificationEndpoints``).
extension VerificationEndpoints {
    static func statusHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        .json(try await state.enabledVerifications().status(
            id: context.parameters.get("id") ?? "", revealNumber: context.apiKey?.isTrusted ?? false))
    }

    static func cancelHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let (status, value) = try await state.enabledVerifications().cancel(id: context.parameters.get("id") ?? "")
        return .json(value.buffer, status: status)
    }

    static func kannelReportHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let verifications = try state.enabledVerifications()
        return .json(try await verifications.kannelReport(try await reportFields(request, state)))
    }

    /// A report's fields: the query string, then (for POST) a form body; each bounded.
    private static func reportFields(_ request: Request, _ state: ServerState) async throws -> [(name: String, value: String)] {
        let limit = maximumReportBytes
        let query = request.uri.query ?? ""
        guard query.utf8.count <= limit else {
            state.metrics.deliveryReport(outcome: "query_too_long")
            // A 400, as for every other report that cannot be read.
            throw ServiceError(.badRequest, "query_too_long", "A report's query string has at most \(limit) bytes.")
        }
        var fields = formFields(Substring(query))
        if request.method == .post {
            let buffer: ByteBuffer
            do {
                buffer = try await RequestDecoding.collect(request, limit: limit,
                                                           timeout: .seconds(state.configuration.bodyTimeoutSeconds))
            } catch let error as ServiceError {
                state.metrics.deliveryReport(outcome: error.code)
                throw error
            }
            fields += formFields(Substring(String(buffer: buffer)))
        }
        return fields
    }
}
