import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneVerification
@testable import SMSKitServer
import Testing

import Foundation

/// GETs `uri` with the test key (or `key`) and hands the response to `body`.
func authorizedGet(_ client: some TestClientProtocol, _ uri: String, key: String? = testKey,
         _ body: @escaping (TestResponse) async throws -> Void) async throws {
    var headers: HTTPFields = [:]
    if let key { headers[.authorization] = "Bearer \(key)" }
    try await client.execute(uri: uri, method: .get, headers: headers) { response in try await body(response) }
}

@Suite("Conversion statistics and guard rules through the service")
struct StatsEndpointTests {
    @Test("GET /v1/stats by region, range and carrier; bounded by limit; bad parameters are 422; a key is needed")
    func stats() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let first = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let (status, _, _) = try await checked(client, id: first, code: try fixture.code(to: "+447400123456"))
            #expect(status == .ok)
            _ = try await started(client, #"{"number":"+447400123457"}"#)
            _ = try await started(client, #"{"number":"+4915123456789"}"#)

            try await authorizedGet(client, "/v1/stats") { response in
                #expect(response.status == .ok)
                let body = try object(response)
                #expect(body["by"] as? String == "region")
                #expect(body["window_seconds"] as? Int == 86_400)
                let rows = try #require(body["stats"] as? [[String: Any]])
                #expect(rows.map { $0["value"] as? String } == ["GB", "DE"])
                #expect(rows.first?["sent"] as? Int == 2)
                #expect(rows.first?["approved"] as? Int == 1)
                #expect(rows.first?["delivered"] as? Int == 0)
                #expect(rows.first?["failed"] as? Int == 0)
                #expect(rows.last?["sent"] as? Int == 1)
            }
            try await authorizedGet(client, "/v1/stats?by=range&limit=1") { response in
                let body = try object(response)
                let rows = try #require(body["stats"] as? [[String: Any]])
                #expect(rows.count == 1)
                #expect(rows.first?["value"] as? String == "44:740012")
                #expect(rows.first?["sent"] as? Int == 2)
            }
            try await authorizedGet(client, "/v1/stats?by=carrier") { response in
                #expect(response.status == .ok)
                let body = try object(response)
                #expect(body["by"] as? String == "carrier")
            }
            for bad in ["/v1/stats?by=country", "/v1/stats?limit=0", "/v1/stats?limit=1001", "/v1/stats?limit=ten"] {
                try await authorizedGet(client, bad) { response in
                    #expect(response.status == .unprocessableContent, "\(bad)")
                    let body = try object(response)
                    #expect((body["error"] as? [String: Any])?["code"] as? String == "invalid_request")
                }
            }
            try await authorizedGet(client, "/v1/stats", key: nil) { response in #expect(response.status == .unauthorized) }
            // Conversion by region in /metrics: sends and approvals of this process.
            try await authorizedGet(client, "/metrics") { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_verification_sms_total{region="GB"} 2"#), "\(text)")
                #expect(text.contains(#"smskit_verification_sms_total{region="DE"} 1"#))
                #expect(text.contains(#"smskit_verification_approvals_total{region="GB"} 1"#))
            }
        }
    }

    @Test("a region cap refuses with 429 region_capped and Retry-After; in monitor mode the start goes on and is counted")
    func regionCaps() async throws {
        let fixture = try VerificationFixture { $0.verifier.sendGuard.regionCaps = RegionCaps(perRegion: ["GB": 1]) }
        try await fixture.server.makeApplication().test(.router) { client in
            _ = try await started(client, #"{"number":"+447400123456"}"#)
            try await post(client, "/v1/verifications", #"{"number":"+447400123457"}"#) { response in
                #expect(response.status == .tooManyRequests)
                let body = try object(response)
                #expect((body["error"] as? [String: Any])?["code"] as? String == "region_capped")
                let seconds = try #require(response.headers[.retryAfter].flatMap { Int($0) })
                #expect(seconds > 0 && seconds <= 2 * 86_400)
            }
        }
        let monitoring = try VerificationFixture {
            $0.verifier.sendGuard.regionCaps = RegionCaps(perRegion: ["GB": 1], monitor: true)
        }
        try await monitoring.server.makeApplication().test(.router) { client in
            _ = try await started(client, #"{"number":"+447400123456"}"#)
            _ = try await started(client, #"{"number":"+447400123457"}"#)
            try await authorizedGet(client, "/metrics") { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_guard_monitored_total{rule="region_capped"} 1"#), "\(text)")
            }
        }
    }

    @Test("a denied number is 422 number_denied; an allowed one skips the region cap")
    func lists() async throws {
        let fixture = try VerificationFixture {
            $0.verifier.sendGuard.regionCaps = RegionCaps(perRegion: ["GB": 1])
            $0.verifier.sendGuard.deniedNumbers = ["+447400123458"]
            $0.verifier.sendGuard.allowedNumbers = ["+447400123457"]
        }
        try await fixture.server.makeApplication().test(.router) { client in
            _ = try await started(client, #"{"number":"+447400123456"}"#)
            _ = try await started(client, #"{"number":"+447400123457"}"#)
            try await post(client, "/v1/verifications", #"{"number":"+447400123458"}"#) { response in
                #expect(response.status == .unprocessableContent)
                let body = try object(response)
                let error = try #require(body["error"] as? [String: Any])
                #expect(error["code"] as? String == "number_denied")
                #expect((error["message"] as? String)?.contains("7400123458") == false)
            }
        }
    }
}
