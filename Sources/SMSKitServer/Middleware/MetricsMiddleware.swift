import Hummingbird
import NIOHTTP1

/// Counts and times every request by route (the endpoint's path, `unmatched` for none), method
/// and status: the outermost middleware, so refusals by the others are counted too.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let metrics: ServiceMetrics
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, start: start)
            return response
        } catch let error as HTTPParserError {
            // A body the HTTP parser refused (a bad chunk size, say) is the client's fault. The
            // connection cannot carry another response after it, so Hummingbird answers it: a
            // 400 that closes the connection.
            record(request, context, status: 400, start: start)
            metrics.refusal("malformed_http")
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
        metrics.request(route: route(request, context), method: request.method.rawValue, status: status,
                        duration: ContinuousClock.now - start)
    }

    private func route(_ request: Request, _ context: Context) -> String {
        if let path = context.endpointPath, path != "NotFound" { return path }
        return routes.match(request.uri.path)?.path ?? "unmatched"
    }
}
