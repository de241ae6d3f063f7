import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

import Foundation

/// The key every test server accepts, and one it does not.
let testKey = "test-key-0123456789abcdef"
let otherKey = "another-key-that-is-not-configured"

/// A server with `testKey`, a generous rate limit unless told otherwise.
func makeServer(_ adjust: (inout SMSKitServerConfiguration) -> Void = { _ in }) throws -> SMSKitServer {
    var configuration = SMSKitServerConfiguration()
    configuration.apiKeys = try APIKeys(keys: [testKey])
    configuration.rateLimitPerSecond = 10_000
    configuration.rateLimitBurst = 10_000
    configuration.logLevel = "critical"
    adjust(&configuration)
    return try SMSKitServer(configuration: configuration)
}

func authorized(_ extra: HTTPFields = [:]) -> HTTPFields {
    var headers = extra
    headers[.authorization] = "Bearer \(testKey)"
    if headers[.contentType] == nil { headers[.contentType] = "application/json" }
    return headers
}

/// The body parsed as JSON (objects as dictionaries), or a test failure.
func json(_ response: TestResponse) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
}

func object(_ response: TestResponse) throws -> [String: Any] {
    try #require(try json(response) as? [String: Any])
}

/// The error code of an error response, checking its shape: exactly `error.code` and `error.message`.
func errorCode(_ response: TestResponse) throws -> String {
    #expect(response.headers[.contentType] == "application/json")
    let body = try object(response)
    #expect(body.count == 1)
    let error = try #require(body["error"] as? [String: Any])
    #expect(error.count == 2)
    let message = try #require(error["message"] as? String)
    #expect(!message.isEmpty)
    // Nothing internal: no source paths, Swift type names or stack frames.
    for leak in ["/work", ".swift", "Swift.", "DecodingError", "Sources/", "0x"] {
        #expect(!message.contains(leak), "message leaks '\(leak)': \(message)")
    }
    return try #require(error["code"] as? String)
}

/// 64 random hex digits: a verification secret.
func randomSecret() -> String {
    (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
}
