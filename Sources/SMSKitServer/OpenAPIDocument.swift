import NIOCore

/// The OpenAPI 3.1 document of the service: `openapi.yaml` beside this file, embedded by
/// `tools/generate_openapi_swift.sh` as ``text``.
enum OpenAPIDocument {
    static let buffer = ByteBuffer(string: text)
}
