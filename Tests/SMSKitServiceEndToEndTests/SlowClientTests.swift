import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Slow clients (a byte a second) are cut off, and others keep being served meanwhile: a real
/// `smskit serve` process with 2-second timeouts, raw sockets for the slow clients.
@Suite("Header and body read timeouts", .serialized)
struct SlowClientTests {
    static let key = "e2e-key-0123456789abcdef"

    static func server() async throws -> ServeProcess {
        try await ServeProcess.start(["--idle-timeout", "2", "--body-timeout", "2", "--store", "memory"])
    }

    /// Another client's whole request on a connection of its own, and the answer.
    static func quickRequest(port: Int, _ request: String) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.send(request)
        return connection.receiveAll(seconds: 20)
    }

    @Test("A head sent a byte a second is cut off (closed) after the idle timeout; others are served")
    func slowHeader() async throws {
        let server = try await Self.server()
        let connection = try RawConnection(port: server.port)
        let head = "POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 40))\r\n"
        let start = Date()
        var cutAfter: Double?
        var served = 0
        for byte in head.utf8 {
            if !connection.send(String(decoding: [byte], as: UTF8.self)) || connection.poll().closed {
                cutAfter = Date().timeIntervalSince(start)
                break
            }
            if try await Self.quickRequest(port: server.port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .hasPrefix("HTTP/1.1 200") {
                served += 1
            }
            sleep(1)
        }
        let after = try #require(cutAfter, "the slow head was never cut off")
        // 2 s of idle timeout; the bound is loose because the machine may be loaded.
        #expect(after >= 1.5 && after < 20, "cut off after \(after) s")
        #expect(served >= 1)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("A body sent a byte a second gets 408 body_timeout; others are served")
    func slowBody() async throws {
        let server = try await Self.server()
        let connection = try RawConnection(port: server.port)
        let body = #"{"text":"\#(String(repeating: "a", count: 60))"}"#
        #expect(connection.send("POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.key)\r\n"
                                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"))
        let start = Date()
        var received = ""
        for byte in body.utf8 {
            _ = connection.send(String(decoding: [byte], as: UTF8.self))
            let (text, closed) = connection.poll()
            received += text
            if closed || received.contains("\r\n\r\n") { break }
            let other = #"{"text":"hello"}"#
            let answer = try await Self.quickRequest(port: server.port, "POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(other.utf8.count)\r\nConnection: close\r\n\r\n" + other)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            sleep(1)
        }
        received += connection.receiveAll(seconds: 20)
        let elapsed = Date().timeIntervalSince(start)
        #expect(received.hasPrefix("HTTP/1.1 408"), "\(received)")
        #expect(received.contains(#""code":"body_timeout""#))
        #expect(elapsed < 30, "answered after \(elapsed) s")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }
}
