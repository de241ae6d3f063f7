import Hummingbird

/// A JSON route's body: refused with 415 when its Content-Type is not JSON, then read whole into
/// `context.body` within the body size limit (413) and the body timeout (408).
struct JSONBodyMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try RequestDecoding.requireJSON(request)
        var context = context
        do {
            context.body = try await RequestDecoding.collect(
                request, limit: state.configuration.maxBodyBytes, timeout: .seconds(state.configuration.bodyTimeoutSeconds))
        } catch let error as ServiceError {
            state.metrics.refusal(error.code)
            throw error
        }
        return try await next(request, context)
    }
}
