import Hummingbird
import NIOCore

/// `POST /v1/numbers/check`: one query object, or an array of at most `maxBatchCount`, answered
/// in order.
enum NumberCheckEndpoint {
    static func check(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let formats = try formats(request)
        let buffer = context.body
        let engine = state.engine
        let first = buffer.readableBytesView.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        if first == UInt8(ascii: "[") {
            let queries = try RequestDecoding.decode([NumberQuery].self, from: buffer)
            let limit = state.configuration.maxBatchCount
            guard queries.count <= limit else {
                throw ServiceError(.contentTooLarge, "batch_too_large", "Send at most \(limit) numbers a request, or use /v1/numbers/check-stream.")
            }
            state.metrics.numbersChecked(queries.count, endpoint: "check")
            var out = ByteBuffer()
            out.reserveCapacity(queries.count * 300)
            out.writeInteger(UInt8(ascii: "["))
            for (index, query) in queries.enumerated() {
                if index > 0 { out.writeInteger(UInt8(ascii: ",")) }
                NumberChecks.write(engine, query, formats: formats, to: &out)
            }
            out.writeStaticString("]\n")
            return .json(out)
        }
        let query = try buffer.withUnsafeReadableBytes { try NumberQuery.decode($0) }
        state.metrics.numbersChecked(1, endpoint: "check")
        var out = ByteBuffer()
        NumberChecks.write(engine, query, formats: formats, to: &out)
        out.writeInteger(UInt8(ascii: "\n"))
        return .json(out)
    }

    /// The `formats` query parameter of the number checks: `true` (the default) or `false`, which
    /// leaves `national` and `international` null and skips formatting (most of a check's work).
    static func formats(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("formats") {
        case nil, "true": return true
        case "false": return false
        default: throw ServiceError.invalidRequest("'formats' must be true or false.")
        }
    }
}
