#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore

/// Reading and decoding request bodies within the limits.
enum RequestDecoding {
    /// The whole body, refused with 413 past `limit` bytes (at once when Content-Length says so)
    /// and with 408 when the client has not sent it all `timeout` after the head: a client
    /// trickling a byte a second, or sending nothing, is cut off on time.
    static func collect(_ request: Request, limit: Int, timeout: Duration) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw ServiceError.bodyTooLarge(limit: limit)
        }
        let body = request.body
        return try await withDeadline(timeout, timeoutError: .bodyTimeout(seconds: timeout.components.seconds)) {
            var collected = ByteBuffer()
            for try await var chunk in body {
                guard collected.readableBytes + chunk.readableBytes <= limit else { throw ServiceError.bodyTooLarge(limit: limit) }
                collected.writeBuffer(&chunk)
            }
            return collected
        }
    }

    /// Refuses a body that is not JSON (415), by its Content-Type; a missing one is taken as JSON.
    static func requireJSON(_ request: Request) throws {
        guard let type = request.headers[.contentType] else { return }
        let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingAll(of: " \t").lowercased() } ?? ""
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw ServiceError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.")
        }
    }

    /// Decodes JSON, with typed errors: 400 for bytes that are not UTF-8 or not JSON, 422 for
    /// JSON of the wrong shape (the message names the field, never a Swift type).
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        let bytes = buffer.readableBytesView
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ServiceError.invalidUTF8 }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw describe(error)
        }
    }

    static func describe(_ error: DecodingError) -> ServiceError {
        func path(_ codingPath: [any CodingKey]) -> String {
            guard !codingPath.isEmpty else { return "the body" }
            var out = ""
            for key in codingPath {
                if let index = key.intValue { out += "[\(index)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return "'\(out)'"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformedJSON("check the syntax.")
        case .dataCorrupted(let context):
            return .invalidRequest("\(path(context.codingPath)) has a value that is not allowed.")
        case .keyNotFound(let key, let context):
            return .invalidRequest("\(path(context.codingPath + [key])) is missing.")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .invalidRequest("\(path(context.codingPath)) has the wrong type or is null.")
        @unknown default:
            return .invalidRequest("The body does not have the expected shape.")
        }
    }
}

extension ServiceError {
    static func bodyTimeout(seconds: Int64) -> ServiceError {
        ServiceError(.requestTimeout, "body_timeout", "The request body took longer than \(seconds) seconds to arrive.")
    }
}
