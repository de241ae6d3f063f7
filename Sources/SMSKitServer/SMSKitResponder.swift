#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PhoneNumbers
import SMSEncoding
import SMSTemplates
import Synchronization
import SMSKitJSON

/// The service's routes: a fixed table, so that an unknown path is a 404 and a known path with
/// another method a 405 with `Allow`, both with the JSON error body.
enum Route: String, CaseIterable, Sendable {
    case healthz = "/healthz"
    case readyz = "/readyz"
    case openapi = "/openapi.yaml"
    case metrics = "/metrics"
    case numbersCheck = "/v1/numbers/check"
    case numbersCheckStream = "/v1/numbers/check-stream"
    case segments = "/v1/segments"
    case render = "/v1/messages/render"
    case verifications = "/v1/verifications"
    /// `{id}` is any one path segment (see ``verificationID(in:)``).
    case verificationCheck = "/v1/verifications/{id}/check"
    case verificationStatus = "/v1/verifications/{id}"
    case verificationCancel = "/v1/verifications/{id}/cancel"
    /// Kannel's `dlr-url`: authenticated by the message token it carries, not by a key.
    case kannelDeliveryReports = "/v1/delivery-reports/kannel"

    var method: HTTPRequest.Method {
        switch self {
        case .healthz, .readyz, .openapi, .metrics, .verificationStatus, .kannelDeliveryReports: .get
        case .numbersCheck, .numbersCheckStream, .segments, .render, .verifications, .verificationCheck,
             .verificationCancel: .post
        }
    }

    /// Methods accepted besides ``method`` (and HEAD for GET).
    var otherMethods: [HTTPRequest.Method] { self == .kannelDeliveryReports ? [.post] : [] }

    /// Health checks, the API document and delivery reports (their token is their key) are open;
    /// everything else needs a key.
    var needsKey: Bool {
        switch self {
        case .healthz, .readyz, .openapi, .kannelDeliveryReports: false
        case .metrics, .numbersCheck, .numbersCheckStream, .segments, .render, .verifications, .verificationCheck,
             .verificationStatus, .verificationCancel: true
        }
    }

    init?(path: String) {
        var path = Substring(path)
        if path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        if let route = Route(rawValue: String(path)), !route.rawValue.contains("{") {
            self = route
        } else if Self.verificationID(in: path, suffix: "/check") != nil {
            self = .verificationCheck
        } else if Self.verificationID(in: path, suffix: "/cancel") != nil {
            self = .verificationCancel
        } else if Self.verificationID(in: path, suffix: "") != nil {
            self = .verificationStatus
        } else {
            return nil
        }
    }

    /// The `{id}` of `/v1/verifications/{id}/check` (or of another route with `{id}`): one
    /// non-empty segment, taken as it is (an ID of another alphabet or length is simply not found).
    static func verificationID(in path: some StringProtocol, suffix: String = "/check") -> String? {
        var path = Substring(path)
        if path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        let prefix = "/v1/verifications/"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let id = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !id.contains("/") else { return nil }
        return String(id)
    }

    /// The `{id}` of this route in `path`.
    func verificationID(in path: some StringProtocol) -> String {
        switch self {
        case .verificationCancel: Self.verificationID(in: path, suffix: "/cancel") ?? ""
        case .verificationStatus: Self.verificationID(in: path, suffix: "") ?? ""
        default: Self.verificationID(in: path, suffix: "/check") ?? ""
        }
    }
}

/// Answers every request: routing, keys, rate limits, limits, handlers, errors and metrics.
struct SMSKitResponder: HTTPResponder {
    typealias Context = SMSKitRequestContext

    let configuration: SMSKitServerConfiguration
    let engine = PhoneNumberEngine()
    let renderers: RendererCache
    let limiter: RateLimiter?
    let wrongKeys: WrongKeyThrottle?
    let metrics: ServiceMetrics
    let openAPIDocument: ByteBuffer
    let verifications: VerificationEndpoints?

    init(configuration: SMSKitServerConfiguration, metrics: ServiceMetrics, verifications: VerificationEndpoints?) throws {
        self.configuration = configuration
        self.metrics = metrics
        self.verifications = verifications
        self.renderers = try RendererCache()
        self.limiter = configuration.rateLimitPerSecond > 0
            ? RateLimiter(ratePerSecond: configuration.rateLimitPerSecond, burst: configuration.rateLimitBurst) : nil
        self.wrongKeys = configuration.wrongKeysPerMinute > 0 && configuration.requiresAPIKey
            ? WrongKeyThrottle(perMinute: configuration.wrongKeysPerMinute) : nil
        self.openAPIDocument = OpenAPIDocument.buffer
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let route = Route(path: request.uri.path)
        let response: Response
        do {
            response = try await dispatch(route, request, context)
        } catch let error as ServiceError {
            response = error.response
        } catch let error as HTTPParserError {
            // A body the HTTP parser refused (a bad chunk size, say) is the client's fault. The
            // connection cannot carry another response after it, so Hummingbird answers it: a
            // 400 that closes the connection.
            metrics.request(route: route?.rawValue ?? "unmatched", method: request.method.rawValue,
                            status: 400, duration: ContinuousClock.now - start)
            metrics.refusal("malformed_http")
            throw error
        } catch {
            // Never the error's text: it may carry internal detail.
            context.logger.error("request failed", metadata: ["route": "\(route?.rawValue ?? "-")", "error_type": "\(type(of: error))"])
            response = ServiceError.internalError.response
        }
        metrics.request(route: route?.rawValue ?? "unmatched", method: request.method.rawValue,
                        status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }

    private func dispatch(_ route: Route?, _ request: Request, _ context: Context) async throws -> Response {
        guard let route else {
            throw ServiceError(.notFound, "not_found", "There is no such endpoint; see /openapi.yaml.")
        }
        guard request.method == route.method || (route.method == .get && request.method == .head)
                || route.otherMethods.contains(request.method) else {
            var headers = HTTPFields()
            headers[.allow] = ([route.method == .get ? "GET, HEAD" : route.method.rawValue] + route.otherMethods.map(\.rawValue))
                .joined(separator: ", ")
            throw ServiceError(.methodNotAllowed, "method_not_allowed", "Use \(route.method.rawValue) for \(route.rawValue).", headers: headers)
        }
        let key = route.needsKey ? try authorize(request, from: context.remoteAddress) : nil
        switch route {
        case .healthz:
            return json(.object([("status", .string("ok"))]))
        case .readyz:
            if let verifications, !(await verifications.isStoreReachable(timeout: .seconds(3))) {
                throw ServiceError.storeUnavailable
            }
            return json(.object([("status", .string("ok"))]))
        case .openapi:
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: openAPIDocument))
        case .metrics:
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        case .numbersCheck:
            try RequestDecoding.requireJSON(request)
            return try await checkNumbers(request, formats: try Self.formats(request))
        case .numbersCheckStream:
            try requireNDJSON(request)
            let declared = request.headers[.contentLength].flatMap { Int($0) }
            if declared == 0 || (declared == nil && request.headers[.transferEncoding] == nil) {
                throw ServiceError(.badRequest, "empty_body", "Send one JSON object a line in the body.")
            }
            if let declared, declared > configuration.maxStreamBytes {
                metrics.refusal("body_too_large")
                throw ServiceError.bodyTooLarge(limit: configuration.maxStreamBytes)
            }
            return CheckStream(engine: engine, maxLineBytes: configuration.maxLineBytes, maxBytes: configuration.maxStreamBytes,
                               timeout: .seconds(configuration.streamTimeoutSeconds), formats: try Self.formats(request),
                               metrics: metrics).response(for: request)
        case .segments:
            try RequestDecoding.requireJSON(request)
            let query = try RequestDecoding.decode(SegmentsQuery.self, from: try await body(request))
            return json(try segments(query))
        case .render:
            try RequestDecoding.requireJSON(request)
            let query = try RequestDecoding.decode(RenderQuery.self, from: try await body(request))
            return json(try render(query))
        case .verifications:
            let verifications = try enabledVerifications()
            try RequestDecoding.requireJSON(request)
            return json(try await verifications.start(
                try await body(request), callerAddress: context.remoteAddress?.ipAddress, trusted: key?.isTrusted ?? false))
        case .verificationCheck:
            let verifications = try enabledVerifications()
            try RequestDecoding.requireJSON(request)
            let id = route.verificationID(in: request.uri.path)
            let (status, value, headers) = try await verifications.check(id: id, try await body(request))
            return json(value.buffer, status: status, headers: headers)
        case .verificationStatus:
            let verifications = try enabledVerifications()
            return json(try await verifications.status(id: route.verificationID(in: request.uri.path),
                                                       revealNumber: key?.isTrusted ?? false))
        case .verificationCancel:
            let verifications = try enabledVerifications()
            let (status, value) = try await verifications.cancel(id: route.verificationID(in: request.uri.path))
            return json(value.buffer, status: status)
        case .kannelDeliveryReports:
            let verifications = try enabledVerifications()
            return json(try await verifications.kannelReport(try await reportFields(request)))
        }
    }

    /// A report's fields: the query string, then (for POST) a form body; each bounded.
    private func reportFields(_ request: Request) async throws -> [(name: String, value: String)] {
        let limit = VerificationEndpoints.maximumReportBytes
        let query = request.uri.query ?? ""
        guard query.utf8.count <= limit else {
            metrics.deliveryReport(outcome: "query_too_long")
            // A 400, as for every other report that cannot be read.
            throw ServiceError(.badRequest, "query_too_long", "A report's query string has at most \(limit) bytes.")
        }
        var fields = VerificationEndpoints.formFields(Substring(query))
        if request.method == .post {
            let buffer: ByteBuffer
            do {
                buffer = try await RequestDecoding.collect(request, limit: limit, timeout: .seconds(configuration.bodyTimeoutSeconds))
            } catch let error as ServiceError {
                metrics.deliveryReport(outcome: error.code)
                throw error
            }
            fields += VerificationEndpoints.formFields(Substring(String(buffer: buffer)))
        }
        return fields
    }

    private func enabledVerifications() throws -> VerificationEndpoints {
        guard let verifications else {
            throw ServiceError(.notFound, "verification_disabled", "This server has no verification store configured.")
        }
        return verifications
    }

    // MARK: Guards

    /// The caller's key (nil when keys are not required).
    private func authorize(_ request: Request, from address: SocketAddress?) throws -> APIKeys.KeyID? {
        guard configuration.requiresAPIKey else { return nil }
        let source = WrongKeyThrottle.source(of: address) ?? "local"
        if let wrongKeys, let wait = wrongKeys.retryAfter(source) {
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
        guard let presented, let key = configuration.apiKeys.identify(presented) else {
            wrongKeys?.recordWrongKey(source)
            metrics.refusal("wrong_key")
            throw ServiceError(.unauthorized, "invalid_api_key", "The API key is not valid.", headers: headers)
        }
        if let limiter, let wait = limiter.acquire(key) {
            metrics.refusal("rate_limited")
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw ServiceError(.tooManyRequests, "rate_limited", "Too many requests for this API key; retry after \(wait) seconds.", headers: headers)
        }
        return key
    }

    private func body(_ request: Request) async throws -> ByteBuffer {
        do {
            return try await RequestDecoding.collect(request, limit: configuration.maxBodyBytes,
                                                     timeout: .seconds(configuration.bodyTimeoutSeconds))
        } catch let error as ServiceError {
            metrics.refusal(error.code)
            throw error
        }
    }

    private func requireNDJSON(_ request: Request) throws {
        guard let type = request.headers[.contentType] else { return }
        let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingAll(of: " \t").lowercased() } ?? ""
        guard ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/json-seq", "text/plain"].contains(mediaType) else {
            throw ServiceError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/x-ndjson: one JSON object a line.")
        }
    }

    // MARK: Handlers

    /// The `formats` query parameter of the number checks: `true` (the default) or `false`, which
    /// leaves `national` and `international` null and skips formatting (most of a check's work).
    static func formats(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("formats") {
        case nil, "true": return true
        case "false": return false
        default: throw ServiceError.invalidRequest("'formats' must be true or false.")
        }
    }

    private func checkNumbers(_ request: Request, formats: Bool) async throws -> Response {
        let buffer = try await body(request)
        let first = buffer.readableBytesView.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        if first == UInt8(ascii: "[") {
            let queries = try RequestDecoding.decode([NumberQuery].self, from: buffer)
            guard queries.count <= configuration.maxBatchCount else {
                throw ServiceError(.contentTooLarge, "batch_too_large", "Send at most \(configuration.maxBatchCount) numbers a request, or use /v1/numbers/check-stream.")
            }
            metrics.numbersChecked(queries.count, endpoint: "check")
            var out = ByteBuffer()
            out.reserveCapacity(queries.count * 300)
            out.writeInteger(UInt8(ascii: "["))
            for (index, query) in queries.enumerated() {
                if index > 0 { out.writeInteger(UInt8(ascii: ",")) }
                NumberChecks.write(engine, query, formats: formats, to: &out)
            }
            out.writeStaticString("]\n")
            return json(out)
        }
        let query = try buffer.withUnsafeReadableBytes { try NumberQuery.decode($0) }
        metrics.numbersChecked(1, endpoint: "check")
        var out = ByteBuffer()
        NumberChecks.write(engine, query, formats: formats, to: &out)
        out.writeInteger(UInt8(ascii: "\n"))
        return json(out)
    }

    /// An analysis lists every character that forces UCS-2 and every change, so its answer may be
    /// many times its text: a text of more than `maxSegmentsAnswerBytes / 16` characters is
    /// refused before it is analysed (that bounds the work and memory of one request), and an
    /// answer over `maxSegmentsAnswerBytes` is refused instead of sent.
    private func segments(_ query: SegmentsQuery) throws -> ByteBuffer {
        let limit = configuration.maxSegmentsAnswerBytes
        let encoder = try query.encoder()
        guard query.text.unicodeScalars.count <= max(1, limit / 16) else {
            metrics.refusal("answer_too_large")
            throw ServiceError.answerTooLarge(limit: limit)
        }
        let answer = JSONValue(encoder.analyze(query.text)).buffer
        guard answer.readableBytes <= limit else {
            metrics.refusal("answer_too_large")
            throw ServiceError.answerTooLarge(limit: limit)
        }
        return answer
    }

    private func render(_ query: RenderQuery) throws -> JSONValue {
        let messageID: MessageID
        if let name = query.message {
            guard let id = MessageID(rawValue: name) else {
                throw ServiceError.invalidRequest("'message' is not a message ID (ASCII letters, digits, '_', '.', '-').")
            }
            messageID = id
        } else {
            messageID = query.minutes == nil ? .verificationCode : .verificationCodeWithExpiry
        }
        if let minutes = query.minutes, minutes < 0 { throw ServiceError.invalidRequest("'minutes' must not be negative.") }
        if let budget = query.segment_budget, budget < 1 { throw ServiceError.invalidRequest("'segment_budget' must be at least 1.") }
        let options = query.segmentsOptions
        let encoder = try options.encoder()
        let renderer = try renderers.renderer(for: options, encoder: encoder)
        let rendered: RenderedMessage
        switch Result(catching: { () throws(TemplateError) -> RenderedMessage in
            try renderer.render(
                messageID, locale: query.lang, code: query.code, appName: query.app, minutes: query.minutes,
                options: RenderOptions(webOTPOrigin: query.webotp, smsRetrieverAppHash: query.app_hash,
                                       segmentBudget: query.segment_budget, encodingAnalysis: .full))
        }) {
        case .success(let value): rendered = value
        case .failure(let error): throw Self.serviceError(error)
        }
        return JSONValue(rendered, analysis: rendered.encoding ?? encoder.analyze(rendered.text))
    }

    /// Template errors from bad input are 422 (404 for an unknown message); catalog problems are
    /// the server's own and say nothing more than 500.
    static func serviceError(_ error: TemplateError) -> ServiceError {
        let internalFailures: [TemplateError.Code] = [.catalogSyntax, .patternSyntax, .unsupportedArgument, .catalogArgument,
                                                      .duplicateMessage, .fileUnreadable, .formatting]
        if internalFailures.contains(error.code) { return .internalError }
        let status: HTTPResponse.Status = error.code == .unknownMessage ? .notFound : .unprocessableContent
        return ServiceError(status, snakeCase(error.code.description), error.message)
    }

    /// `invalidCode` -> `invalid_code`.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                if !out.isEmpty { out.append("_") }
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    // MARK: Responses

    private func json(_ value: JSONValue) -> Response { json(value.buffer) }

    private func json(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}

/// Renderers by encoder options: the default one built at start, others on first use (at most
/// 32 kept, since each compiles its ICU patterns once).
final class RendererCache: Sendable {
    private let standard: SMSTemplateRenderer
    private let others = Mutex<[String: SMSTemplateRenderer]>([:])

    init() throws {
        standard = try SMSTemplateRenderer()
    }

    func renderer(for options: SegmentsQuery, encoder: SMSEncoder) throws -> SMSTemplateRenderer {
        let key = "\(options.national_tables?.lowercased() ?? "none")|\(options.smart_encoding ?? false)|\(options.normalize ?? false)|\(options.sixteen_bit_reference ?? false)|\(options.grapheme_split ?? false)"
        if key == "none|false|false|false|false" { return standard }
        if let cached = others.withLock({ $0[key] }) { return cached }
        let renderer = try SMSTemplateRenderer(encoder: encoder)
        others.withLock { cache in
            if cache.count >= 32 { cache.removeAll() }
            cache[key] = renderer
        }
        return renderer
    }
}
