import HTTPTypes
import Hummingbird

/// The per-key rate limit (a token bucket per key): over it, 429 with `Retry-After`. Runs after
/// ``APIKeyMiddleware``; requests without a key (a server without keys) are not limited.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let limiter = state.limiter, let key = context.apiKey, let wait = limiter.acquire(key) {
            state.metrics.refusal("rate_limited")
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw ServiceError(.tooManyRequests, "rate_limited", "Too many requests for this API key; retry after \(wait) seconds.", headers: headers)
        }
        return try await next(request, context)
    }
}
