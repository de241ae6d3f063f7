#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import NIOCore
import PhoneVerification

/// `GET /v1/events?after=CURSOR&limit=N`: the store's verification events after a cursor, as
/// NDJSON (one ``PhoneVerification/VerificationEvent`` a line, in cursor order), for consumers
/// that pull. `SMSKit-Next-Cursor` is the cursor to pass next (the last line's, or `after` when
/// there was none). `limit` is 1 to 1000 (100 by default), so an answer is bounded.
extension VerificationEndpoints {
    static func eventsHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        try await state.enabledVerifications().events(query: request.uri.query)
    }

    static let defaultEventLimit = 100

    func events(query: String?) async throws -> Response {
        var after: Int64 = 0
        var limit = Self.defaultEventLimit
        let maximum = PhoneVerifier.maximumEventsLimit
        for item in (query ?? "").split(separator: "&") where !item.isEmpty {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count == 2 ? String(pair[1]) : ""
            switch pair[0] {
            case "after":
                guard value.utf8.count <= 19, let cursor = Int64(value), cursor >= 0 else {
                    throw ServiceError.invalidRequest("'after' must be a cursor: a whole number of 0 or more.")
                }
                after = cursor
            case "limit":
                guard value.utf8.count <= 5, let count = Int(value), (1...maximum).contains(count) else {
                    throw ServiceError.invalidRequest("'limit' must be 1 to \(maximum).")
                }
                limit = count
            default:
                throw ServiceError.invalidRequest("Unknown query parameter; use after and limit.")
            }
        }
        guard verifier.keepsEvents else {
            throw ServiceError(.notFound, "events_disabled", "This server's store keeps no events.")
        }
        try await prepareStore("events")
        let timeout = verifier.configuration.storeTimeout ?? .seconds(5)
        let events: [VerificationEvent]
        do {
            events = try await withDeadline(timeout, timeoutError: .storeUnavailable) { [verifier, after, limit] in
                try await verifier.events(after: after, limit: limit)
            }
        } catch {
            throw ServiceError.storeUnavailable
        }
        var buffer = ByteBuffer()
        for event in events {
            buffer.writeBytes(event.jsonBytes())
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        headers[HTTPField.Name("SMSKit-Next-Cursor")!] = String(events.last?.cursor ?? after)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }
}
