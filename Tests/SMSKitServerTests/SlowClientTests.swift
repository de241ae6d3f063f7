import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

import Foundation

/// Slow clients (a byte a second) are cut off, and others keep being served meanwhile.
@Suite("Header and body read timeouts")
struct SlowClientTests {
    static func server() throws -> SMSKitServer {
        try makeServer {
            $0.idleTimeoutSeconds = 2
            $0.bodyTimeoutSeconds = 2
        }
    }

    @Test("A head sent a byte a second is cut off after the idle timeout (closed); others are served")
    func slowHeader() async throws {
        try await Self.server().makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            let head = "POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 40))\r\n"
            let start = ContinuousClock.now
            var cutAfter: Duration?
            var served = 0
            for byte in head.utf8 {
                if !connection.send(String(decoding: [byte], as: UTF8.self)) || connection.poll().closed {
                    cutAfter = ContinuousClock.now - start
                    break
                }
                try await client.execute(uri: "/healthz", method: .get) { response in
                    #expect(response.status == .ok)
                    served += 1
                }
                try await Task.sleep(for: .seconds(1))
            }
            let after = try #require(cutAfter, "the slow head was never cut off")
            #expect(after >= .seconds(1.5) && after < .seconds(8), "cut off after \(after)")
            #expect(served >= 1)
        }
    }

    @Test("A body sent a byte a second gets 408 body_timeout; others are served")
    func slowBody() async throws {
        try await Self.server().makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            let body = #"{"text":"\#(String(repeating: "a", count: 60))"}"#
            #expect(connection.send("POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(testKey)\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"))
            let start = ContinuousClock.now
            var received = ""
            for byte in body.utf8 {
                _ = connection.send(String(decoding: [byte], as: UTF8.self))
                let (text, closed) = connection.poll()
                received += text
                if closed || received.contains("\r\n\r\n") { break }
                try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                         body: ByteBuffer(string: #"{"text":"hello"}"#)) { response in
                    #expect(response.status == .ok)
                }
                try await Task.sleep(for: .seconds(1))
            }
            received += connection.receiveAll(seconds: 5)
            let elapsed = ContinuousClock.now - start
            #expect(received.hasPrefix("HTTP/1.1 408"), "\(received)")
            #expect(received.contains(#""code":"body_timeout""#))
            #expect(elapsed < .seconds(10))
        }
    }
}
