import HTTPTypes
import Hummingbird

/// `GET /openapi.yaml`: the service's API document (open, so that clients can be generated).
enum OpenAPIEndpoint {
    static func document(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: state.openAPIDocument))
    }
}
