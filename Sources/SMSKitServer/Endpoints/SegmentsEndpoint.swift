import Hummingbird
import NIOCore
import SMSKitJSON

/// `POST /v1/segments`: the encoding analysis of a text.
enum SegmentsEndpoint {
    static func analyze(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let query = try RequestDecoding.decode(SegmentsQuery.self, from: context.body)
        return .json(try answer(query, state: state))
    }

    /// An analysis lists every character that forces UCS-2 and every change, so its answer may be
    /// many times its text: a text of more than `maxSegmentsAnswerBytes / 16` characters is
    /// refused before it is analysed (that bounds the work and memory of one request), and an
    /// answer over `maxSegmentsAnswerBytes` is refused instead of sent.
    private static func answer(_ query: SegmentsQuery, state: ServerState) throws -> ByteBuffer {
        let limit = state.configuration.maxSegmentsAnswerBytes
        let encoder = try query.encoder()
        guard query.text.unicodeScalars.count <= max(1, limit / 16) else {
            state.metrics.refusal("answer_too_large")
            throw ServiceError.answerTooLarge(limit: limit)
        }
        let answer = JSONValue(encoder.analyze(query.text)).buffer
        guard answer.readableBytes <= limit else {
            state.metrics.refusal("answer_too_large")
            throw ServiceError.answerTooLarge(limit: limit)
        }
        return answer
    }
}
