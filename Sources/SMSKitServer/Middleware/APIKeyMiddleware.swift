import HTTPTypes
import Hummingbird

/// Requires an API key (`Authorization: Bearer KEY` or `X-API-Key: KEY`) when the server has
/// keys, and throttles addresses that send wrong ones: while an address is throttled, every
/// request from it that needs a key is refused, the right key included. The key found goes into
/// `context.apiKey`.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard state.configuration.requiresAPIKey else { return try await next(request, context) }
        var context = context
        context.apiKey = try identify(request, from: context)
        return try await next(request, context)
    }

    private func identify(_ request: Request, from context: Context) throws -> APIKeys.KeyID {
        let metrics = state.metrics
        let source = SourceThrottle.source(of: context.remoteAddress) ?? "local"
        if let wrongKeys = state.wrongKeys, let wait = wrongKeys.retryAfter(source) {
            metrics.refusal("wrong_key_throttled")
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw ServiceError(.tooManyRequests, "too_many_wrong_keys",
                               "Too many wrong API keys from this address; retry after \(wait) seconds.", headers: headers)
        }
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Bearer"
        let presented: Substring?
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            presented = parts.count == 2 && parts[0].lowercased() == "bearer" ? parts[1] : nil
        } else if let name = HTTPField.Name("X-API-Key"), let key = request.headers[name] {
            presented = Substring(key)
        } else {
            metrics.refusal("missing_key")
            throw ServiceError(.unauthorized, "missing_api_key", "Send an API key as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'.", headers: headers)
        }
        guard let presented, let key = state.configuration.apiKeys.identify(presented) else {
            state.wrongKeys?.spend(source)
            metrics.refusal("wrong_key")
            throw ServiceError(.unauthorized, "invalid_api_key", "The API key is not valid.", headers: headers)
        }
        return key
    }
}
