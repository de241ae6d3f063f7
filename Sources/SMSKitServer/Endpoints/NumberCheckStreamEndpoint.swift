import Hummingbird

/// `POST /v1/numbers/check-stream`: NDJSON in and out, streamed (``CheckStream``), with limits of
/// its own in place of the JSON body limits.
enum NumberCheckStreamEndpoint {
    static func stream(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        try requireNDJSON(request)
        let configuration = state.configuration
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if declared == 0 || (declared == nil && request.headers[.transferEncoding] == nil) {
            throw ServiceError(.badRequest, "empty_body", "Send one JSON object a line in the body.")
        }
        if let declared, declared > configuration.maxStreamBytes {
            state.metrics.refusal("body_too_large")
            throw ServiceError.bodyTooLarge(limit: configuration.maxStreamBytes)
        }
        return CheckStream(engine: state.engine, maxLineBytes: configuration.maxLineBytes, maxBytes: configuration.maxStreamBytes,
                           timeout: .seconds(configuration.streamTimeoutSeconds),
                           formats: try NumberCheckEndpoint.formats(request), metrics: state.metrics).response(for: request)
    }

    private static func requireNDJSON(_ request: Request) throws {
        guard let type = request.headers[.contentType] else { return }
        let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingAll(of: " \t").lowercased() } ?? ""
        guard ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/json-seq", "text/plain"].contains(mediaType) else {
            throw ServiceError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/x-ndjson: one JSON object a line.")
        }
    }
}
