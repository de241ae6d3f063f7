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
}

@Suite("SMSKitServer wrong-key throttle")
struct WrongKeyThrottleTests {
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
