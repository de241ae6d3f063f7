import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneNumbers
import PhoneVerification
@testable import SMSKitServer
import Testing

import Foundation


/// POSTs JSON and hands the response to `body`.
func post(_ client: some TestClientProtocol, _ uri: String, _ json: String, key: String = testKey,
          _ body: @escaping (TestResponse) async throws -> Void) async throws {
    var headers: HTTPFields = [.contentType: "application/json"]
    headers[.authorization] = "Bearer \(key)"
    try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: json)) { response in
        try await body(response)
    }
}

/// A start's body, checked to be 200.
func started(_ client: some TestClientProtocol, _ json: String, key: String = testKey) async throws -> [String: Any] {
    var result: [String: Any] = [:]
    try await post(client, "/v1/verifications", json, key: key) { response in
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        result = try object(response)
    }
    return result
}

/// A check's status and body.
func checked(_ client: some TestClientProtocol, id: String, code: String) async throws -> (HTTPResponse.Status, [String: Any], TestResponse) {
    var outcome: (HTTPResponse.Status, [String: Any], TestResponse)?
    try await post(client, "/v1/verifications/\(id)/check", #"{"code":"\#(code)"}"#) { response in
        outcome = (response.status, try object(response), response)
    }
    return try #require(outcome)
}

@Suite("Verification endpoints")
struct VerificationEndpointTests {
    static let mobile = "+447400123456"

    @Test("start sends the code; a wrong code leaves attempts; the right one is approved once (409 after)")
    func flow() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let start = try await started(client, #"{"number":"07400 123456","region":"GB","lang":"en"}"#)
            #expect(start["e164"] as? String == Self.mobile)
            #expect(start["locale"] as? String == "en")
            #expect(start["segments"] as? Int == 1)
            #expect(start["test"] as? Bool == false)
            #expect(start["resend"] as? Bool == false)
            #expect((start["id"] as? String)?.utf8.count == 22)
            #expect(Set(start.keys) == ["id", "e164", "locale", "segments", "expires_at", "resend_allowed_at", "test", "resend"])
            let expires = try #require(start["expires_at"] as? String)
            #expect(try Date(expires, strategy: .iso8601) == fixture.clock.now.addingTimeInterval(600))
            let id = try #require(start["id"] as? String)
            let code = try fixture.code(to: Self.mobile)
            #expect(fixture.outbox.count == 1)
            let wrong = code == "000000" ? "000001" : "000000"

            let (status, body, _) = try await checked(client, id: id, code: wrong)
            #expect(status == .ok)
            #expect(body["status"] as? String == "incorrect_code")
            #expect(body["attempts_left"] as? Int == 4)
            #expect(body["e164"] == nil)

            let (approvedStatus, approved, _) = try await checked(client, id: id, code: code)
            #expect(approvedStatus == .ok)
            #expect(approved["status"] as? String == "approved")
            #expect(approved["e164"] as? String == Self.mobile)

            let (replayStatus, replay, _) = try await checked(client, id: id, code: code)
            #expect(replayStatus == .conflict)
            #expect(replay["status"] as? String == "already_used")
            #expect((replay["error"] as? [String: Any])?["code"] as? String == "already_used")
        }
    }

    @Test("410 after the lifetime; 429 with Retry-After after five wrong codes")
    func expiryAndAttempts() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let first = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let code = try fixture.code(to: Self.mobile)
            fixture.clock.advance(by: .seconds(601))
            let (expiredStatus, expired, _) = try await checked(client, id: first, code: code)
            #expect(expiredStatus == .gone)
            #expect(expired["status"] as? String == "expired")

            let second = try #require(try await started(client, #"{"number":"+447400123457"}"#)["id"] as? String)
            let right = try fixture.code(to: "+447400123457")
            let wrong = right == "000000" ? "000001" : "000000"
            for left in (0..<5).reversed() {
                let (status, body, _) = try await checked(client, id: second, code: wrong)
                #expect(status == .ok)
                #expect(body["attempts_left"] as? Int == left)
            }
            // The right code after the last attempt is not approved: the verification is closed.
            let (status, body, response) = try await checked(client, id: second, code: right)
            #expect(status == .tooManyRequests)
            #expect(body["status"] as? String == "too_many_attempts")
            #expect(response.headers[.retryAfter] == "30")
        }
    }

    struct StartRefusal: Sendable, CustomTestStringConvertible {
        var body: String
        var status: Int
        var code: String
        var testDescription: String { body }
    }

    static let refusals: [StartRefusal] = [
        .init(body: #"{"number":"+447400123456""#, status: 400, code: "malformed_json"),
        .init(body: #"{"region":"GB"}"#, status: 422, code: "invalid_request"),
        .init(body: #"{"number":447400123456}"#, status: 422, code: "invalid_request"),
        .init(body: #"{"number":"+447400123456","region":"Great Britain"}"#, status: 422, code: "invalid_request"),
        .init(body: #"{"number":"hello"}"#, status: 422, code: "invalid_number"),
        .init(body: #"{"number":"+44740012345"}"#, status: 422, code: "invalid_number"),
        .init(body: "{\"number\":\"\(String(repeating: "1", count: 5000))\"}", status: 422, code: "invalid_number"),
        .init(body: #"{"number":"+19002345678"}"#, status: 422, code: "refused_number_type"),
        .init(body: #"{"number":"+18002345678"}"#, status: 422, code: "refused_number_type"),
        .init(body: #"{"number":"+1 650-555-0100"}"#, status: 422, code: "fictional_number"),
        .init(body: #"{"number":"+33612345678"}"#, status: 422, code: "region_not_allowed"),
        .init(body: #"{"number":"+447400123456","lang":"en\u0000<script>"}"#, status: 422, code: "invalid_language_code"),
        .init(body: #"{"number":"+447400123456","lang":"\#(String(repeating: "a", count: 100))"}"#, status: 422, code: "invalid_language_code"),
    ]

    @Test("Refused starts: typed errors, no SMS", arguments: refusals)
    func refusedStart(_ refusal: StartRefusal) async throws {
        let fixture = try VerificationFixture { $0.verifier.sendGuard.deniedRegions = ["FR"] }
        try await fixture.server.makeApplication().test(.router) { client in
            try await post(client, "/v1/verifications", refusal.body) { response in
                #expect(Int(response.status.code) == refusal.status)
                let code = try errorCode(response)
                #expect(code == refusal.code)
            }
        }
        #expect(fixture.outbox.isEmpty)
    }

    @Test("A refusal's body is the error document `smskit verify --format json` prints too")
    func refusalDocument() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            try await post(client, "/v1/verifications", #"{"number":"+1 900 234 5678"}"#) { response in
                #expect(response.status == .unprocessableContent)
                // CLIVerifyTests expects the same document from `smskit verify start --format json`.
                #expect(String(buffer: response.body) ==
                    #"{"error":{"code":"refused_number_type","message":"+19002345678 is a premium rate number, which is refused."}}"# + "\n")
            }
        }
    }

    struct CheckFault: Sendable, CustomTestStringConvertible {
        var path: String
        var body: String
        var status: Int
        var code: String
        var testDescription: String { "\(path.prefix(60)) \(body.prefix(60))" }
    }

    static let checkFaults: [CheckFault] = [
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":"123456"}"#, status: 404, code: "not_found"),
        .init(path: "/v1/verifications/\(String(repeating: "A", count: 4000))/check", body: #"{"code":"123456"}"#, status: 404, code: "not_found"),
        .init(path: "/v1/verifications/%E2%82%AC%00/check", body: #"{"code":"123456"}"#, status: 404, code: "not_found"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":"12345a"}"#, status: 422, code: "malformed_code"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":"١٢٣٤٥٦"}"#, status: 422, code: "malformed_code"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":"\#(String(repeating: "1", count: 1000))"}"#, status: 422, code: "malformed_code"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":123456}"#, status: 422, code: "invalid_request"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":null}"#, status: 422, code: "invalid_request"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"["123456"]"#, status: 422, code: "invalid_request"),
        .init(path: "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/check", body: #"{"code":"123456"#, status: 400, code: "malformed_json"),
        // An empty segment is dropped: GET /v1/verifications/check would be a status; POST is not allowed.
        .init(path: "/v1/verifications//check", body: #"{"code":"123456"}"#, status: 405, code: "method_not_allowed"),
        .init(path: "/v1/verifications/a/b/check", body: #"{"code":"123456"}"#, status: 404, code: "not_found"),
    ]

    @Test("Bad checks: typed errors, never approved", arguments: checkFaults)
    func badCheck(_ fault: CheckFault) async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            try await post(client, fault.path, fault.body) { response in
                #expect(Int(response.status.code) == fault.status)
                let body = try object(response)
                let error = try #require(body["error"] as? [String: Any])
                #expect(error["code"] as? String == fault.code)
                #expect(body["status"] as? String != "approved")
            }
        }
    }

    @Test("A code with letters or the right code of another verification is never approved")
    func crossedCodes() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let a = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let b = try #require(try await started(client, #"{"number":"+447400123458"}"#)["id"] as? String)
            let codeA = try fixture.code(to: "+447400123456")
            let codeB = try fixture.code(to: "+447400123458")
            if codeA != codeB {
                let (_, body, _) = try await checked(client, id: b, code: codeA)
                #expect(body["status"] as? String == "incorrect_code")
            }
            let (_, approved, _) = try await checked(client, id: a, code: codeA)
            #expect(approved["status"] as? String == "approved")
        }
    }

    @Test("Limits are 429 with Retry-After: the resend cooldown and the per-client limit of a trusted key")
    func limits() async throws {
        let trustedKey = "trusted-gateway-key-0123456789"
        let keys = APIKeys(merging: [try APIKeys(keys: [testKey]), try APIKeys(keys: [trustedKey], trusted: true)])
        let fixture = try VerificationFixture(keys: keys) {
            $0.verifier.sendGuard.clientLimit = RateLimit(count: 2, window: .seconds(600))
        }
        try await fixture.server.makeApplication().test(.router) { client in
            let first = try await started(client, #"{"number":"+447400123456"}"#)
            try await post(client, "/v1/verifications", #"{"number":"+447400123456"}"#) { response in
                #expect(response.status == .tooManyRequests)
                let code = try errorCode(response)
                #expect(code == "resend_cooldown")
                #expect(response.headers[.retryAfter] == "30")
            }
            fixture.clock.advance(by: .seconds(31))
            let resent = try await started(client, #"{"number":"+447400123456"}"#)
            #expect(resent["id"] as? String == first["id"] as? String)
            #expect(resent["resend"] as? Bool == true)

            // The trusted key names the client; two starts for 10.0.0.1, then 429.
            for number in ["+447400123460", "+447400123461"] {
                _ = try await started(client, #"{"number":"\#(number)","client_key":"10.0.0.1"}"#, key: trustedKey)
            }
            try await post(client, "/v1/verifications", #"{"number":"+447400123462","client_key":"10.0.0.1"}"#, key: trustedKey) { response in
                #expect(response.status == .tooManyRequests)
                let code = try errorCode(response)
                #expect(code == "client_rate_limited")
                // Sliding window (two buckets of 10 minutes): the two starts at +31 s weigh half by
                // 300 s into the next bucket, when a third fits: 569 + 300 s.
                #expect(Int(response.headers[.retryAfter] ?? "") == 869)
            }
            // Another client of the trusted key is not limited; an untrusted key cannot pick a client key.
            _ = try await started(client, #"{"number":"+447400123462","client_key":"10.0.0.2"}"#, key: trustedKey)
            _ = try await started(client, #"{"number":"+447400123463","client_key":"10.0.0.1"}"#)

            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_verifications_total{operation="start",outcome="started"} 5"#))
                #expect(text.contains(#"smskit_verifications_total{operation="start",outcome="resent"} 1"#))
                #expect(text.contains(#"smskit_verifications_total{operation="start",outcome="resend_cooldown"} 1"#))
                #expect(text.contains(#"smskit_guard_refusals_total{reason="client_rate_limited"} 1"#))
                #expect(text.contains(#"smskit_sms_sent_total{encoding="gsm7",segments="1"} 6"#))
            }
        }
    }

    @Test("A test number gets no SMS and its fixed code; SMS counts follow encoding and segments")
    func testNumberAndMetrics() async throws {
        var registry = try TestNumberRegistry()
        try registry.add("+1 650-555-0100", code: "123456")
        let fixture = try VerificationFixture { $0.testNumbers = registry }
        try await fixture.server.makeApplication().test(.router) { client in
            let test = try await started(client, #"{"number":"+1 650-555-0100"}"#)
            #expect(test["test"] as? Bool == true)
            #expect(test["segments"] as? Int == 0)
            #expect(fixture.outbox.isEmpty)
            let (status, body, _) = try await checked(client, id: try #require(test["id"] as? String), code: "123456")
            #expect(status == .ok)
            #expect(body["status"] as? String == "approved")

            let russian = try await started(client, #"{"number":"+79123456789","lang":"ru"}"#)
            #expect(russian["locale"] as? String == "ru")
            let sms = try #require(fixture.outbox.last)
            #expect(sms["encoding"] as? String == "ucs2")
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_verifications_total{operation="start",outcome="test"} 1"#))
                #expect(text.contains(#"smskit_verifications_total{operation="check",outcome="approved"} 1"#))
                #expect(text.contains(#"smskit_sms_sent_total{encoding="ucs2",segments="\#(russian["segments"] as? Int ?? 0)"} 1"#))
            }
        }
    }

    @Test("Without verification settings the endpoints are 404 verification_disabled; keys are required")
    func disabled() async throws {
        try await makeServer().makeApplication().test(.router) { client in
            try await post(client, "/v1/verifications", #"{"number":"+447400123456"}"#) { response in
                #expect(response.status == .notFound)
                let code = try errorCode(response)
                #expect(code == "verification_disabled")
            }
            try await post(client, "/v1/verifications", #"{"number":"+447400123456"}"#, key: otherKey) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("API keys parse, trusted ones marked")
    func keys() throws {
        let keys = try APIKeys(parsing: "plain-key-0123456789abcdef\ntrusted-key-0123456789abcdef trusted\n")
        #expect(keys.identify("plain-key-0123456789abcdef")?.isTrusted == false)
        #expect(keys.identify("trusted-key-0123456789abcdef")?.isTrusted == true)
        #expect(keys.identify("trusted-key-0123456789abcdef trusted") == nil)
    }
}
