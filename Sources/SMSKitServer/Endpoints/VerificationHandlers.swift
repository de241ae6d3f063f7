import Hummingbird

/// `POST /v1/verifications`, `POST /v1/verifications/{id}/check` and `GET /v1/stats` (see
/// ``VerificationEndpoints``).
extension VerificationEndpoints {
    static func startHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        .json(try await state.enabledVerifications().start(
            context.body, callerAddress: context.remoteAddress?.ipAddress, trusted: context.apiKey?.isTrusted ?? false))
    }

    static func statsHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let parameters = request.uri.queryParameters
        return .json(try await state.enabledVerifications().stats(by: parameters.get("by"), limit: parameters.get("limit")))
    }

    static func checkHandler(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        let (status, value, headers) = try await state.enabledVerifications().check(id: id, context.body)
        return .json(value.buffer, status: status, headers: headers)
    }
}
