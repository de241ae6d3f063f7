import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics`: the Prometheus text exposition of ``ServiceMetrics``.
enum MetricsEndpoint {
    static func exposition(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: state.metrics.exposition())))
    }
}
