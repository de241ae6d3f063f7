import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneVerification
@testable import SMSKitServer
import Testing

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The budget of bad delivery reports per source address: forged tokens are slowed, good
/// reports never spend it.
@Suite("Delivery reports: the bad-report budget per address", .serialized)
struct BadReportThrottleTests {
    @Test("One address's forgeries throttle that address only; a token is back after 1/rate seconds")
    func perAddress() {
        let throttle = SourceThrottle(perSecond: 20, burst: 100)
        let now = ContinuousClock.now
        for _ in 0..<100 {
            #expect(throttle.retryAfter("192.0.2.66", now: now) == nil)
            throttle.spend("192.0.2.66", now: now)
        }
        #expect(throttle.retryAfter("192.0.2.66", now: now) == 1)
        // The gateway's address spent nothing: never refused.
        #expect(throttle.retryAfter("192.0.2.10", now: now) == nil)
        #expect(throttle.retryAfter("2001:db8::10", now: now) == nil)
        #expect(throttle.retryAfter("192.0.2.66", now: now + .milliseconds(60)) == nil)
        #expect(throttle.count == 1)
    }

    @Test("Through the middleware: good reports spend nothing; 400, 404 and 413 answers do; then 429 with Retry-After, counted")
    func middleware() async throws {
        let fixture = try VerificationFixture(server: { $0.badReportsPerSecond = 0.01; $0.badReportBurst = 5 })
        try await fixture.server.makeApplication().test(.router) { client in
            _ = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let token = try DeliveryEndpointTests.token(fixture)
            // Far more good reports (applied, then duplicates) than the burst: all answered.
            for index in 0..<20 {
                let (status, body) = try await DeliveryEndpointTests.report(client, "token=\(token)&part=1&type=8")
                #expect(status == .ok && body["status"] as? String == (index == 0 ? "applied" : "duplicate"))
            }
            // Five bad ones: a forged token, a wrong part, a malformed token, a missing one, a 1 MB form.
            var (status, _) = try await DeliveryEndpointTests.report(client, "token=\(DeliveryMessage.makeToken())&part=1&type=1")
            #expect(status == .notFound)
            (status, _) = try await DeliveryEndpointTests.report(client, "token=\(token)&part=9&type=1")
            #expect(status == .notFound)
            (status, _) = try await DeliveryEndpointTests.report(client, "token=xyz&part=1&type=1")
            #expect(status == .badRequest)
            (status, _) = try await DeliveryEndpointTests.report(client, "part=1&type=1")
            #expect(status == .badRequest)
            (status, _) = try await DeliveryEndpointTests.report(
                client, "", method: .post, body: "token=\(token)&part=1&type=1&status=" + String(repeating: "x", count: 1 << 20))
            #expect(status == .contentTooLarge)
            // The budget is spent: a forgery and then a good report from the same address get 429.
            for query in ["token=\(DeliveryMessage.makeToken())&part=1&type=1", "token=\(token)&part=1&type=1"] {
                try await client.execute(uri: "/v1/delivery-reports/kannel?" + query, method: .get) { response in
                    #expect(response.status == .tooManyRequests)
                    let code = try errorCode(response)
                    #expect(code == "too_many_bad_reports")
                    let wait = try #require(response.headers[.retryAfter].flatMap { Int($0) })
                    #expect(wait >= 1 && wait <= 100)
                }
            }
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_delivery_reports_total{outcome="throttled"} 2"#), "\(text)")
                #expect(text.contains(#"smskit_delivery_reports_total{outcome="duplicate"} 19"#), "\(text)")
            }
        }
    }

    @Test("--bad-report-limit 0 turns the budget off")
    func off() async throws {
        let fixture = try VerificationFixture(server: { $0.badReportsPerSecond = 0; $0.badReportBurst = 1 })
        try await fixture.server.makeApplication().test(.router) { client in
            for _ in 0..<30 {
                let (status, _) = try await DeliveryEndpointTests.report(client, "token=\(DeliveryMessage.makeToken())&part=1&type=1")
                #expect(status == .notFound)
            }
        }
    }

    /// A report from the loopback address `source` (any 127.x.y.z is this host), with the
    /// response headers in the body.
    static func report(_ server: ServeProcess, from source: String, _ query: String) throws -> Curl {
        try Curl.run(["-D", "-", "--interface", source, "\(server.url)/v1/delivery-reports/kannel?\(query)"])
    }

    static func retryAfter(_ response: Curl) -> Int? {
        let line = response.body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test("smskit serve: a forged-token flood from one address gets 429; the gateway's address is served meanwhile; after the refill a good report is applied")
    func endToEnd() async throws {
        // A token every 20 s: the flood below is over long before one is back, even on a loaded machine.
        let server = try ServeProcess(["--store", "memory", "--bad-report-limit", "0.05", "--bad-report-burst", "5"])
        let key = VerificationProcessTests.key
        var tokens: [String] = []
        for number in ["+447400123401", "+447400123402"] {
            let started = try VerificationProcessTests.start(server, number)
            #expect(started.status == 200, "\(started.body)")
            let outbox = try String(contentsOf: server.directory.appendingPathComponent("smskit-outbox.jsonl"), encoding: .utf8)
            let line = try #require(outbox.split(separator: "\n").last { $0.contains(#""to":"\#(number)""#) })
            tokens.append(try #require(VerificationProcessTests.field("delivery_token", String(line))))
        }
        let stranger = "127.0.0.66", gateway = "127.0.0.10"
        var statuses: [Int] = []
        for _ in 0..<12 {
            statuses.append(try Self.report(server, from: stranger, "token=\(DeliveryMessage.makeToken())&part=1&type=1").status)
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == 404 } && statuses.dropFirst(5).allSatisfy { $0 == 429 }, "\(statuses)")
        let refused = try Self.report(server, from: stranger, "token=\(tokens[1])&part=1&type=8")
        #expect(refused.status == 429 && refused.body.contains(#""code":"too_many_bad_reports""#), "\(refused.body)")
        let wait = try #require(Self.retryAfter(refused), "\(refused.body)")
        #expect(wait >= 1 && wait <= 20)
        // The gateway's address: its good reports, past the burst, are all served.
        for index in 0..<10 {
            let answer = try Self.report(server, from: gateway, "token=\(tokens[0])&part=1&type=8")
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.body.contains(index == 0 ? #""status":"applied""# : #""status":"duplicate""#), "\(answer.body)")
        }
        // Once a token is back, the stranger's address may report again: a good report is applied.
        try await Task.sleep(for: .seconds(wait))
        let deadline = ContinuousClock.now + .seconds(60)
        var later = try Self.report(server, from: stranger, "token=\(tokens[1])&part=1&type=8")
        while later.status == 429, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            later = try Self.report(server, from: stranger, "token=\(tokens[1])&part=1&type=8")
        }
        #expect(later.status == 200 && later.body.contains(#""status":"applied""#), "\(later.body)")
        let metrics = try Curl.run(["-H", "Authorization: Bearer \(key)", "\(server.url)/metrics"])
        #expect(metrics.body.contains(#"smskit_delivery_reports_total{outcome="throttled"}"#), "\(metrics.body)")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }
}
