import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Bounded work per request: the size of a `segments` answer, the size and length of a
/// `check-stream`, and wrong API keys per address.
@Suite("SMSKitServer request limits")
struct RequestLimitTests {
    static func segments(_ text: String) -> ByteBuffer {
        let data = try! JSONSerialization.data(withJSONObject: ["text": text])
        return ByteBuffer(bytes: data)
    }

    @Test("4 MiB of emoji to /v1/segments is a 413 answer_too_large before analysis; a text whose answer fits is served")
    func emojiSegments() async throws {
        let app = try makeServer { $0.maxBodyBytes = 8 << 20 }.makeApplication()
        let emoji = String(repeating: "😀", count: 1 << 20)  // 4 MiB of UTF-8
        try await app.test(.router) { client in
            let start = ContinuousClock.now
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(), body: Self.segments(emoji)) { response in
                #expect(response.status == .contentTooLarge)
                let code = try errorCode(response)
                #expect(code == "answer_too_large")
            }
            #expect(ContinuousClock.now - start < .seconds(90))  // a loaded debug build; the analysis would take far longer
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                     body: Self.segments(String(repeating: "😀", count: 2_000))) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes <= 1 << 20)
            }
        }
    }

    @Test("The answer limit is configurable and holds for the texts that blow up most")
    func answerLimit() async throws {
        let limit = 64 << 10
        let app = try makeServer { $0.maxSegmentsAnswerBytes = limit }.makeApplication()
        // Characters that force UCS-2 (each listed), control characters (escaped six-fold),
        // smart-encoding and normalization changes (each listed), invisible characters removed.
        let blowUps = ["😀", "\u{1}", "…", "\u{200B}", "e\u{301}", "‘"]
        try await app.test(.router) { client in
            for unit in blowUps {
                var served = 0, refused = 0
                for count in [10, 100, 1_000, 4_000] {
                    let body = try JSONSerialization.data(withJSONObject: [
                        "text": String(repeating: unit, count: count), "smart_encoding": true, "normalize": true,
                    ])
                    try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(), body: ByteBuffer(bytes: body)) { response in
                        if response.status == .ok {
                            served += 1
                            #expect(response.body.readableBytes <= limit, "\(unit.unicodeScalars.map(\.value)) × \(count)")
                        } else {
                            refused += 1
                            #expect(response.status == .contentTooLarge)
                            let code = try errorCode(response)
                #expect(code == "answer_too_large")
                        }
                    }
                }
                #expect(served >= 1 && refused >= 1, "\(unit.unicodeScalars.map(\.value)): \(served) served, \(refused) refused")
            }
        }
    }

    @Test("A check-stream body declared over the stream limit is a 413 before anything")
    func declaredStreamTooLarge() async throws {
        let app = try makeServer { $0.maxStreamBytes = 1_000 }.makeApplication()
        let input = String(repeating: #"{"number":"+442079460000"}"# + "\n", count: 100)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/numbers/check-stream", method: .post, headers: authorized([.contentType: "application/x-ndjson"]),
                                     body: ByteBuffer(string: input)) { response in
                #expect(response.status == .contentTooLarge)
                let code = try errorCode(response)
                #expect(code == "body_too_large")
            }
        }
    }

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
        let server = try ServeProcess(["--store", "memory", "--stream-timeout", "3", "--idle-timeout", "30"])
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
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("A chunked check-stream body past the stream limit ends with a body_too_large line")
    func chunkedStreamTooLarge() async throws {
        let server = try ServeProcess(["--store", "memory", "--max-stream-bytes", "2000"])
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
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }
}

@Suite("SMSKitServer wrong-key throttle")
struct WrongKeyThrottleTests {
    @Test("Past the wrong keys allowed, an address gets 429 too_many_wrong_keys with Retry-After, even with the right key")
    func throttled() async throws {
        let server = try ServeProcess(["--store", "memory", "--wrong-keys-per-minute", "5"])
        func post(_ key: String) throws -> Curl {
            try Curl.run(["-D", "-", "-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                          "-d", #"{"text":"hi"}"#, "\(server.url)/v1/segments"])
        }
        for _ in 0..<5 {
            #expect(try post(otherKey).status == 401)
        }
        let refused = try post(otherKey)
        #expect(refused.status == 429)
        #expect(refused.body.contains(#""code":"too_many_wrong_keys""#))
        let retry = refused.body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
        let seconds = try #require(retry.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
        #expect(seconds >= 1 && seconds <= 12)
        // The right key is refused as well while the address is throttled: no oracle.
        #expect(try post(ServeBinaryTests.key).status == 429)
        // Routes without a key are not affected.
        #expect(try Curl.run(["\(server.url)/healthz"]).status == 200)
        // A token comes back after 60 / 5 seconds.
        try await Task.sleep(for: .seconds(seconds))
        #expect(try post(ServeBinaryTests.key).status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("The table of addresses is bounded; past it, new addresses share one bucket")
    func bounded() {
        let throttle = SourceThrottle(perMinute: 2, capacity: 100)
        let now = ContinuousClock.now
        for index in 0..<1_000 {
            throttle.spend("10.0.\(index / 256).\(index % 256)", now: now)
        }
        #expect(throttle.count == 100)
        // The first 100 had one wrong key each: not throttled.
        #expect(throttle.retryAfter("10.0.0.1", now: now) == nil)
        // The 900 others shared a bucket of 2: throttled together, for about 30 s (a token every 30 s).
        #expect(throttle.retryAfter("10.0.3.200", now: now) == 30)
        #expect(throttle.retryAfter("10.0.3.200", now: now + .seconds(31)) == nil)
        // An address with nothing recorded, while the table is not full, is never throttled.
        #expect(SourceThrottle(perMinute: 2).retryAfter("192.0.2.1", now: now) == nil)
    }

    @Test("Sources: IPv4 as it is, IPv6 by /64, IPv4-mapped IPv6 as IPv4")
    func sources() throws {
        #expect(SourceThrottle.source(of: try SocketAddress(ipAddress: "192.0.2.7", port: 1)) == "192.0.2.7")
        let a = SourceThrottle.source(of: try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1))
        let b = SourceThrottle.source(of: try SocketAddress(ipAddress: "2001:db8:1:2:ffff::9", port: 1))
        let c = SourceThrottle.source(of: try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1))
        #expect(a == b && a != c)
        #expect(SourceThrottle.source(of: try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == "192.0.2.7")
    }
}

@Suite("smskit serve: parser errors", .serialized)
struct ParserErrorTests {
    @Test("A malformed chunked body on an authenticated route is a 400, with no error logged")
    func malformedChunked() throws {
        let server = try ServeProcess(["--store", "memory"])
        for path in ["/v1/segments", "/v1/numbers/check", "/v1/verifications"] {
            let connection = try RawConnection(port: server.port)
            #expect(connection.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{\"text\":\"hi\"}\r\n0\r\n\r\n"))
            let answer = connection.receiveAll(seconds: 20)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path): \(answer)")
        }
        #expect(try Curl.run(["\(server.url)/healthz"]).status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
        #expect(!server.stderr.contains("request failed"), "\(server.stderr)")
    }
}
