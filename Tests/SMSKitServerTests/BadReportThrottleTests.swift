import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneVerification
@testable import SMSKitServer
import Testing

import Foundation

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
}
