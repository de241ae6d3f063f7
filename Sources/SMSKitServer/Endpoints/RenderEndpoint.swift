import Hummingbird
import SMSEncoding
import SMSKitJSON
import SMSTemplates
import Synchronization

/// `POST /v1/messages/render`: a localized message (the verification code by default), with its
/// encoding analysis.
enum RenderEndpoint {
    static func render(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let query = try RequestDecoding.decode(RenderQuery.self, from: context.body)
        return .json(try answer(query, renderers: state.renderers))
    }

    private static func answer(_ query: RenderQuery, renderers: RendererCache) throws -> JSONValue {
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
