// What the server's in-process tests and its end-to-end tests share: a server with a test key,
// the verification fixture, and readers of responses.
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SMSKitServer
import PhoneVerification
import Testing
@_exported import SMSKitTestSupport

import Foundation

/// The key every test server accepts, and one it does not.
package let testKey = "test-key-0123456789abcdef"
package let otherKey = "another-key-that-is-not-configured"

/// A server with `testKey`, a generous rate limit unless told otherwise.
package func makeServer(_ adjust: (inout SMSKitServerConfiguration) -> Void = { _ in }) throws -> SMSKitServer {
    var configuration = SMSKitServerConfiguration()
    configuration.apiKeys = try APIKeys(keys: [testKey])
    configuration.rateLimitPerSecond = 10_000
    configuration.rateLimitBurst = 10_000
    configuration.logLevel = "critical"
    adjust(&configuration)
    return try SMSKitServer(configuration: configuration)
}

package func authorized(_ extra: HTTPFields = [:]) -> HTTPFields {
    var headers = extra
    headers[.authorization] = "Bearer \(testKey)"
    if headers[.contentType] == nil { headers[.contentType] = "application/json" }
    return headers
}

/// The body parsed as JSON (objects as dictionaries), or a test failure.
package func json(_ response: TestResponse) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
}

package func object(_ response: TestResponse) throws -> [String: Any] {
    try #require(try json(response) as? [String: Any])
}

/// The error code of an error response, checking its shape: exactly `error.code` and `error.message`.
package func errorCode(_ response: TestResponse) throws -> String {
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

/// A server with the verification endpoints over an in-memory store, a manual clock and an
/// outbox in a fresh directory, removed with the fixture.
package final class VerificationFixture: Sendable {
    package let clock = ManualClock()
    package let directory: URL
    package let server: SMSKitServer

    package init(keys: APIKeys? = nil, _ adjust: (inout VerificationSettings) -> Void = { _ in },
                 server configure: (inout SMSKitServerConfiguration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let outbox = directory.appendingPathComponent("outbox.jsonl").path
        var settings = VerificationSettings(secret: VerificationSecret.random(),
                                            store: OpenedVerificationStore(store: InMemoryVerificationStore())) { _, _ in
            OutboxSender(path: outbox)
        }
        settings.clock = clock.clock
        adjust(&settings)
        let configured = settings
        server = try makeServer {
            $0.verification = configured
            if let keys { $0.apiKeys = keys }
            configure(&$0)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The outbox's lines, parsed.
    package var outbox: [[String: Any]] {
        let text = (try? String(contentsOfFile: directory.appendingPathComponent("outbox.jsonl").path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The code in the last SMS to `e164` (the first run of 6 ASCII digits in its text).
    package func code(to e164: String) throws -> String {
        let sms = try #require(outbox.last { $0["to"] as? String == e164 }, "no SMS to \(e164)")
        let text = try #require(sms["text"] as? String)
        let range = try #require(text.range(of: "[0-9]{6}", options: .regularExpression))
        return String(text[range])
    }
}

