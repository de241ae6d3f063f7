import HTTPTypes
import Hummingbird

/// The budget of bad delivery reports per source address (``SourceThrottle``): a report answered
/// 400 (malformed), 404 (`unknown_message`: a forged or stale token) or 413 spends one token of
/// its address; an address out of tokens gets 429 `too_many_bad_reports` with `Retry-After` for
/// every report, before its token is hashed and looked up. Good reports spend nothing, so a
/// gateway is never refused because of its own good reports.
///
/// Behind a reverse proxy every client has the proxy's address: let the gateway reach the service
/// directly (as Kannel usually does, from the inside), or a stranger's forgeries through the proxy
/// throttle the gateway's reports too.
struct BadReportMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let throttle = state.badReports else { return try await next(request, context) }
        let source = SourceThrottle.source(of: context.remoteAddress) ?? "local"
        if let wait = throttle.retryAfter(source) {
            state.metrics.deliveryReport(outcome: "throttled")
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw ServiceError(.tooManyRequests, "too_many_bad_reports",
                               "Too many malformed or unknown delivery reports from this address; retry after \(wait) seconds.",
                               headers: headers)
        }
        do {
            let response = try await next(request, context)
            if Self.isBad(response.status) { throttle.spend(source) }
            return response
        } catch let error as ServiceError {
            if Self.isBad(error.status) { throttle.spend(source) }
            throw error
        }
    }

    /// The answers that spend: what a report can only get when its sender does not hold a real
    /// token or does not speak the report format.
    static func isBad(_ status: HTTPResponse.Status) -> Bool {
        [.badRequest, .notFound, .contentTooLarge].contains(status)
    }
}
