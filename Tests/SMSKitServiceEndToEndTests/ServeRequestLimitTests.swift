import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Bounded work per request as the `smskit serve` binary enforces it: the stream timeout and
/// limit on a raw connection, the wrong-key throttle per address, and parser errors.
@Suite("smskit serve: request limits")
struct ServeRequestLimitTests {
    /// A raw chunked HTTP response: its status line and its body's NDJSON lines.
    static func chunkedLines(_ raw: String) -> (status: String, lines: [String]) {
        let bytes = Array(raw.utf8)
        let crlf: [UInt8] = [13, 10]
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard bytes.count >= needle.count else { return nil }
            var index = from
            while index + needle.count <= bytes.count {
                if Array(bytes[index..<index + needle.count]) == needle { return index }
                index += 1
            }
            return nil
        }
        guard let headEnd = find(crlf + crlf, from: 0) else { return (raw, []) }
        let status = String(decoding: bytes[..<(find(crlf, from: 0) ?? headEnd)], as: UTF8.self)
        var position = headEnd + 4
        var body: [UInt8] = []
        while let sizeEnd = find(crlf, from: position),
              let size = Int(String(decoding: bytes[position..<sizeEnd], as: UTF8.self), radix: 16), size > 0,
              sizeEnd + 2 + size <= bytes.count {
            body += bytes[(sizeEnd + 2)..<(sizeEnd + 2 + size)]
            position = sizeEnd + 2 + size + 2
        }
        return (status, String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test("A trickling check-stream client is answered, then cut off by the stream timeout with a stream_timeout line")
    func tricklingStream() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--stream-timeout", "3", "--idle-timeout", "30"])
        let connection = try RawConnection(port: server.port)
        #expect(connection.send("POST /v1/numbers/check-stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                                + "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"))
        let line = #"{"number":"+442079460000"}"# + "\n"
        let start = Date()
        var closedAfter: Double?
        var received = ""
        // A line a second, reading all the while (a send after the server closed would reset
        // the connection and drop what was not read yet).
        trickle: for _ in 0..<120 {
            _ = connection.send(String(line.utf8.count, radix: 16) + "\r\n" + line + "\r\n")
            for _ in 0..<20 {
                let (text, closed) = connection.poll()
                received += text
                if closed || received.hasSuffix("\r\n0\r\n\r\n") {
                    closedAfter = Date().timeIntervalSince(start)
                    break trickle
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let after = try #require(closedAfter, "the trickle was never cut off")
        // 3 s of stream timeout; loose because the whole suite may load the machine.
        #expect(after >= 2 && after < 100, "cut off after \(after) s")
        let (status, lines) = Self.chunkedLines(received)
        #expect(status == "HTTP/1.1 200 OK")
        #expect(lines.count >= 2)
        #expect(lines.dropLast().allSatisfy { $0.contains(#""e164":"+442079460000""#) })
        #expect(lines.last?.contains(#""error":"stream_timeout""#) == true, "\(lines.last ?? "")")
        #expect(lines.last?.contains(#""line":\#(lines.count)"#) == true, "\(lines.last ?? "")")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("A chunked check-stream body past the stream limit ends with a body_too_large line")
    func chunkedStreamTooLarge() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--max-stream-bytes", "2000"])
        let connection = try RawConnection(port: server.port)
        #expect(connection.send("POST /v1/numbers/check-stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                                + "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"))
        let chunk = String(repeating: #"{"number":"+442079460000"}"# + "\n", count: 20)  // 540 bytes
        // Four chunks, the fourth past 2,000 bytes, then nothing more (a send after the server
        // closed would reset the connection and drop what was not read yet).
        // The pause blocks this thread rather than awaiting: under the whole suite's load the
        // shared pool could resume an awaiting task only after the server's body timeout.
        for _ in 0..<4 {
            #expect(connection.send(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"))
            usleep(300_000)
        }
        var received = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let (text, closed) = connection.poll()
            received += text
            if closed || received.hasSuffix("\r\n0\r\n\r\n") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let (status, lines) = Self.chunkedLines(received)
        #expect(status == "HTTP/1.1 200 OK")
        // The chunks read before the one that went past the limit are answered (the server may
        // have received two chunks as one), then the error line.
        #expect(lines.count >= 21 && (lines.count - 1) % 20 == 0, "\(lines.count) lines")
        #expect(lines.dropLast().allSatisfy { $0.contains(#""e164":"+442079460000""#) })
        #expect(lines.last?.contains(#""error":"body_too_large""#) == true, "\(lines.last ?? "")")
        #expect(lines.last?.contains(#""line":\#(lines.count)"#) == true, "\(lines.last ?? "")")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }
}

@Suite("smskit serve: wrong-key throttle")
struct ServeWrongKeyThrottleTests {
    @Test("Past the wrong keys allowed, an address gets 429 too_many_wrong_keys with Retry-After, even with the right key")
    func throttled() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--wrong-keys-per-minute", "5"])
        func post(_ key: String) async throws -> Curl {
            try await Curl.run(["-D", "-", "-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                          "-d", #"{"text":"hi"}"#, "\(server.url)/v1/segments"])
        }
        for _ in 0..<5 {
            #expect(try await post(otherKey).status == 401)
        }
        let refused = try await post(otherKey)
        #expect(refused.status == 429)
        #expect(refused.body.contains(#""code":"too_many_wrong_keys""#))
        let retry = refused.body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
        let seconds = try #require(retry.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
        #expect(seconds >= 1 && seconds <= 12)
        // The right key is refused as well while the address is throttled: no oracle.
        #expect(try await post(ServeBinaryTests.key).status == 429)
        // Routes without a key are not affected.
        #expect(try await Curl.run(["\(server.url)/healthz"]).status == 200)
        // A token comes back after 60 / 5 seconds.
        try await Task.sleep(for: .seconds(seconds))
        #expect(try await post(ServeBinaryTests.key).status == 200)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

}

@Suite("smskit serve: parser errors", .serialized)
struct ParserErrorTests {
    @Test("A malformed chunked body on an authenticated route is a 400, with no error logged")
    func malformedChunked() async throws {
        let server = try await ServeProcess.start(["--store", "memory"])
        for path in ["/v1/segments", "/v1/numbers/check", "/v1/verifications"] {
            let connection = try RawConnection(port: server.port)
            #expect(connection.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{\"text\":\"hi\"}\r\n0\r\n\r\n"))
            let answer = connection.receiveAll(seconds: 20)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path): \(answer)")
        }
        #expect(try await Curl.run(["\(server.url)/healthz"]).status == 200)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
        #expect(!server.stderr.contains("request failed"), "\(server.stderr)")
    }
}
