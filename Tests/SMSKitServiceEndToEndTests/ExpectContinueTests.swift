import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Expect: 100-continue` (curl sends it with bodies over 1 MiB and then waits up to 1 s before
/// sending them): a real `smskit serve` process answers `100 Continue` on the request head alone,
/// then the final response once the body is in.
@Suite("Expect: 100-continue", .serialized)
struct ExpectContinueTests {
    static let key = "e2e-key-0123456789abcdef"

    @Test("100 Continue comes before the body is sent; the body then gets its answers")
    func continueBeforeBody() async throws {
        let server = try await ServeProcess.start(["--store", "memory"])
        let connection = try RawConnection(port: server.port)
        let body = "{\"number\":\"+16502530000\"}\n{\"number\":\"020 7946 0123\",\"region\":\"GB\"}\n"
        #expect(connection.send(
            "POST /v1/numbers/check-stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.key)\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Expect: 100-continue\r\nConnection: close\r\n\r\n"))
        var interim = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !interim.contains("\r\n\r\n") {
            let (text, closed) = connection.poll()
            interim += text
            if closed { break }
            usleep(20_000)
        }
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
        #expect(connection.send(body))
        // check-stream's 200 head may come with the 100 (the answer streams as the body is read).
        let response = interim + connection.receiveAll(seconds: 20)
        #expect(response.contains("\r\n\r\nHTTP/1.1 200 OK\r\n"), "\(response)")
        #expect(response.contains("\"line\":1,") && response.contains("\"line\":2,"))
        #expect(response.contains("\"e164\":\"+442079460123\""))
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("A request without the header gets no interim response")
    func noExpectNoContinue() async throws {
        let server = try await ServeProcess.start(["--store", "memory"])
        let connection = try RawConnection(port: server.port)
        connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = connection.receiveAll(seconds: 20)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        #expect(!response.contains("100 Continue"))
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }
}
