import HTTPTypes
import Hummingbird
import NIOCore
import SMSKitJSON

/// An error the service answers with: an HTTP status, a stable machine-readable code and a plain
/// message that tells the caller what to fix. Its body never carries internal detail.
///
/// The body is `{"error":{"code":"...","message":"..."}}`.
public struct ServiceError: Error, Sendable, Equatable {
    /// The HTTP status of the response.
    public var status: HTTPResponse.Status
    /// A stable, snake_case code such as `malformed_json`.
    public var code: String
    /// A message for people.
    public var message: String
    /// Extra response headers (`Retry-After`, `Allow`, `WWW-Authenticate`).
    public var headers: HTTPFields

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The JSON body.
    var body: JSONValue {
        ErrorDocument(code: code, message: message).json
    }

    /// The response for this error.
    var response: Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let buffer = body.buffer
        headers[.contentLength] = String(buffer.readableBytes)
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    static func malformedJSON(_ detail: String) -> ServiceError {
        ServiceError(.badRequest, "malformed_json", "The body is not valid JSON: \(detail)")
    }

    static let invalidUTF8 = ServiceError(.badRequest, "invalid_utf8", "The body is not valid UTF-8.")

    static func invalidRequest(_ message: String) -> ServiceError {
        ServiceError(.unprocessableContent, "invalid_request", message)
    }

    static func bodyTooLarge(limit: Int) -> ServiceError {
        ServiceError(.contentTooLarge, "body_too_large", "The request body is over the limit of \(limit) bytes.")
    }

    static func answerTooLarge(limit: Int) -> ServiceError {
        ServiceError(.contentTooLarge, "answer_too_large",
                     "The analysis of this text would be over the limit of \(limit) bytes; send a shorter text.")
    }

    static let verificationDisabled = ServiceError(.notFound, "verification_disabled",
                                                   "This server has no verification store configured.")

    static let internalError = ServiceError(.internalServerError, "internal_error", "The server could not answer this request.")
}

extension Response {
    /// A JSON answer.
    static func json(_ value: JSONValue) -> Response { json(value.buffer) }

    /// A JSON answer already written.
    static func json(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}
