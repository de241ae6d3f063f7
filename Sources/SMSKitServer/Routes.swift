import HTTPTypes
import Hummingbird
import NIOCore

/// The service's endpoints. Adding one is a line here and a handler in `Endpoints/`; the
/// middleware (keys, rate limits, body limits, errors, metrics) comes with the line's options.
extension Endpoint {
    static let all: [Endpoint] = [
        Endpoint(.get, "/healthz", access: .open, Health.live),
        Endpoint(.get, "/readyz", access: .open, Health.ready),
        Endpoint(.get, "/openapi.yaml", access: .open, OpenAPIEndpoint.document),
        Endpoint(.get, "/metrics", MetricsEndpoint.exposition),
        Endpoint(.post, "/v1/numbers/check", body: .json, NumberCheckEndpoint.check),
        Endpoint(.post, "/v1/numbers/check-stream", NumberCheckStreamEndpoint.stream),
        Endpoint(.post, "/v1/numbers/find", body: .json, NumberFindEndpoint.find),
        Endpoint(.post, "/v1/numbers/match", body: .json, NumberMatchEndpoint.match),
        Endpoint(.post, "/v1/segments", body: .json, SegmentsEndpoint.analyze),
        Endpoint(.post, "/v1/messages/render", body: .json, RenderEndpoint.render),
        Endpoint(.post, "/v1/verifications", body: .json, needsVerification: true, VerificationEndpoints.startHandler),
        Endpoint(.post, "/v1/verifications/{id}/check", body: .json, needsVerification: true,
                 VerificationEndpoints.checkHandler),
        Endpoint(.get, "/v1/verifications/{id}", needsVerification: true, VerificationEndpoints.statusHandler),
        Endpoint(.post, "/v1/verifications/{id}/cancel", needsVerification: true, VerificationEndpoints.cancelHandler),
        // Kannel's dlr-url: the message token it carries is its credential, not an API key.
        Endpoint(.get, "/v1/delivery-reports/kannel", access: .token, needsVerification: true,
                 VerificationEndpoints.kannelReportHandler),
        Endpoint(.post, "/v1/delivery-reports/kannel", access: .token, needsVerification: true,
                 VerificationEndpoints.kannelReportHandler),
        Endpoint(.get, "/v1/stats", needsVerification: true, VerificationEndpoints.statsHandler),
        Endpoint(.get, "/v1/events", needsVerification: true, VerificationEndpoints.eventsHandler),
    ]
}

/// One endpoint: its method and path (`{name}` is one path segment, read with
/// `context.parameters.get("name")`), what it needs and its handler.
struct Endpoint: Sendable {
    typealias Handler = @Sendable (Request, SMSKitRequestContext, ServerState) async throws -> Response

    enum Access: Sendable {
        /// Health checks and the API document.
        case open
        /// An API key (when the server requires them), then the key's rate limit.
        case key
        /// A token the request carries (a delivery report's): no key, but its source address's
        /// budget of bad requests.
        case token
    }

    enum Body: Sendable {
        /// The handler reads the body itself (or there is none).
        case none
        /// A JSON body, read whole within the body limits into `context.body` before the handler.
        case json
    }

    let method: HTTPRequest.Method
    let path: String
    let access: Access
    let body: Body
    /// Answered `verification_disabled` (404) when the server has no verification store.
    let needsVerification: Bool
    let handler: Handler

    init(_ method: HTTPRequest.Method, _ path: String, access: Access = .key, body: Body = .none,
         needsVerification: Bool = false, _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.access = access
        self.body = body
        self.needsVerification = needsVerification
        self.handler = handler
    }

    /// The server's responder: Hummingbird's router over `endpoints`, with the middleware each needs.
    static func responder(_ endpoints: [Endpoint], state: ServerState) -> RouterResponder<SMSKitRequestContext> {
        let table = RouteTable(endpoints)
        let router = Router(context: SMSKitRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Outermost first; these two also see requests no endpoint matched.
        router.add(middleware: MetricsMiddleware(metrics: state.metrics, routes: table))
        router.add(middleware: ErrorMiddleware(routes: table))
        for endpoint in endpoints {
            let group = router.group()
            if endpoint.access == .key {
                group.add(middleware: APIKeyMiddleware(state: state))
                group.add(middleware: RateLimitMiddleware(state: state))
            } else if endpoint.access == .token {
                group.add(middleware: BadReportMiddleware(state: state))
            }
            let handler = endpoint.handler
            if endpoint.needsVerification && state.verifications == nil {
                group.on(RouterPath(endpoint.path), method: endpoint.method) { _, _ -> Response in
                    throw ServiceError.verificationDisabled
                }
                continue
            }
            if endpoint.body == .json {
                group.add(middleware: JSONBodyMiddleware(state: state))
            }
            group.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await handler(request, context, state)
            }
        }
        return router.buildResponder()
    }
}

/// The paths and methods of the endpoints, for what the router does not say: whether a path
/// that did not match has an endpoint under another method (405 with `Allow`, not 404), and the
/// route label of such a request's metrics.
struct RouteTable: Sendable {
    private let routes: [(segments: [Substring], path: String, methods: [HTTPRequest.Method])]

    init(_ endpoints: [Endpoint]) {
        var routes: [(segments: [Substring], path: String, methods: [HTTPRequest.Method])] = []
        for endpoint in endpoints {
            if let index = routes.firstIndex(where: { $0.path == endpoint.path }) {
                routes[index].methods.append(endpoint.method)
            } else {
                routes.append((Self.segments(endpoint.path), endpoint.path, [endpoint.method]))
            }
        }
        self.routes = routes
    }

    /// The endpoint path (as registered) that `path` names and its methods, or nil.
    func match(_ path: String) -> (path: String, methods: [HTTPRequest.Method])? {
        let segments = Self.segments(path)
        for route in routes where route.segments.count == segments.count {
            let matches = zip(route.segments, segments).allSatisfy { pattern, segment in
                pattern.first == "{" || pattern == segment
            }
            if matches { return (route.path, route.methods) }
        }
        return nil
    }

    /// The `Allow` header of a path's methods: a GET route answers HEAD too.
    static func allow(_ methods: [HTTPRequest.Method]) -> String {
        var names: [String] = []
        for method in methods {
            names.append(method.rawValue)
            if method == .get && !methods.contains(.head) { names.append("HEAD") }
        }
        return names.joined(separator: ", ")
    }

    /// The router's reading of a path: the non-empty segments.
    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
