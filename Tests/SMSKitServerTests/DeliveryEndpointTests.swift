import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneVerification
@testable import SMSKitServer
import Testing

import Foundation

/// GETs (with the test key unless `key` is nil) and hands the response to `body`.
func get(_ client: some TestClientProtocol, _ uri: String, key: String? = testKey,
         _ body: @escaping (TestResponse) async throws -> Void) async throws {
    var headers = HTTPFields()
    if let key { headers[.authorization] = "Bearer \(key)" }
    try await client.execute(uri: uri, method: .get, headers: headers) { try await body($0) }
}

@Suite("Delivery reports, status and cancel endpoints")
struct DeliveryEndpointTests {
    static let mobile = "+447400123456"
    static let trustedKey = "trusted-key-0123456789abcdef"

    /// The delivery token of the last SMS to `e164`, from the outbox (what a gateway is given).
    static func token(_ fixture: VerificationFixture, to e164: String = mobile) throws -> String {
        try #require(fixture.outbox.last { $0["to"] as? String == e164 }?["delivery_token"] as? String)
    }

    static func report(_ client: some TestClientProtocol, _ query: String, method: HTTPRequest.Method = .get,
                       body: String? = nil) async throws -> (HTTPResponse.Status, [String: Any]) {
        var outcome: (HTTPResponse.Status, [String: Any])?
        var headers = HTTPFields()
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        try await client.execute(uri: "/v1/delivery-reports/kannel" + (query.isEmpty ? "" : "?" + query), method: method,
                                 headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            #expect(response.status.code < 500, "\(String(buffer: response.body))")
            outcome = (response.status, (try? object(response)) ?? [:])
        }
        return try #require(outcome)
    }

    @Test("status masks the number unless the key is trusted, and shows each message's delivery state")
    func status() async throws {
        let keys = APIKeys(merging: [try APIKeys(keys: [testKey]), try APIKeys(keys: [Self.trustedKey], trusted: true)])
        let fixture = try VerificationFixture(keys: keys)
        try await fixture.server.makeApplication().test(.router) { client in
            let id = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            try await get(client, "/v1/verifications/\(id)") { response in
                #expect(response.status == .ok)
                let body = try object(response)
                #expect(body["e164"] as? String == "+**********56")
                #expect(body["status"] as? String == "pending" && body["attempts_left"] as? Int == 5)
                #expect(body["locale"] as? String == "en")
                let messages = try #require(body["messages"] as? [[String: Any]])
                #expect(messages.count == 1 && messages[0]["state"] as? String == "queued")
                #expect((messages[0]["parts"] as? [[String: Any]])?.count == 1)
                #expect(!String(buffer: response.body).contains(Self.mobile))
            }
            try await get(client, "/v1/verifications/\(id)", key: Self.trustedKey) { response in
                let parsed = try object(response)
                #expect(parsed["e164"] as? String == Self.mobile)
            }
            try await get(client, "/v1/verifications/\(id)", key: nil) { #expect($0.status == .unauthorized) }
            try await get(client, "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA") { response in
                #expect(response.status == .notFound)
                let code = try errorCode(response)
                #expect(code == "not_found")
            }
            try await get(client, "/v1/verifications/not-an-id") { #expect($0.status == .notFound) }
        }
    }

    @Test("Kannel reports: token-authenticated, idempotent, final states stay; forged, malformed and oversized ones are 4xx")
    func kannelReports() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let id = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let token = try Self.token(fixture)
            var (status, body) = try await Self.report(client, "token=\(token)&part=1&type=8&status=ACK%2F&smsc=sim&ts=1800000000")
            #expect(status == .ok && body["status"] as? String == "applied" && body["message_state"] as? String == "accepted")
            (status, body) = try await Self.report(client, "token=\(token)&part=1&type=8&status=ACK%2F")
            #expect(status == .ok && body["status"] as? String == "duplicate")
            // The receipt text: percent-encoded by Kannel, with non-ASCII text and an invalid date.
            let receipt = "id:1000 sub:001 dlvrd:001 submit date:2613281000 done date:2613281001 stat:DELIVRD err:000 text:Doğrulama"
            let encoded = receipt.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            (status, body) = try await Self.report(client, "token=\(token)&part=1&type=1&status=\(encoded)")
            #expect(status == .ok && body["status"] as? String == "applied" && body["message_state"] as? String == "delivered")
            // Late and contradicting reports, by GET and by a POSTed form: the final state stays.
            (status, body) = try await Self.report(client, "token=\(token)&part=1&type=8")
            #expect(status == .ok && body["status"] as? String == "stale")
            (status, body) = try await Self.report(client, "", method: .post, body: "token=\(token)&part=1&type=2&status=id%3A1000+stat%3AUNDELIV+err%3A011")
            #expect(status == .ok && body["status"] as? String == "stale" && body["message_state"] as? String == "delivered")
            try await get(client, "/v1/verifications/\(id)") { response in
                let messages = try #require(try object(response)["messages"] as? [[String: Any]])
                let part = try #require((messages[0]["parts"] as? [[String: Any]])?.first)
                #expect(part["state"] as? String == "delivered" && part["provider_message_id"] as? String == "1000")
            }

            // Forged and malformed reports.
            let forged = DeliveryMessage.makeToken()
            (status, body) = try await Self.report(client, "token=\(forged)&part=1&type=1")
            #expect(status == .notFound && (body["error"] as? [String: Any])?["code"] as? String == "unknown_message")
            (status, body) = try await Self.report(client, "token=\(token)&part=2&type=1")
            #expect(status == .notFound)
            for (query, reason) in [("part=1&type=1", "missing_token"), ("token=\(id)x&part=1&type=1", "malformed_token"),
                                    ("token=\(token)&part=x&type=1", "malformed_part"),
                                    ("token=\(token)&part=1&type=99", "unknown_type"),
                                    ("token=\(token)&part=1&type=%25d", "unknown_type"), ("", "missing_token")] {
                (status, body) = try await Self.report(client, query)
                #expect(status == .badRequest, "\(query)")
                #expect((body["error"] as? [String: Any])?["code"] as? String == reason, "\(query)")
            }
            // Oversized: a 1 MB form body, a 5 KB query string.
            let huge = "token=\(token)&part=1&type=1&status=" + String(repeating: "x", count: 1 << 20)
            (status, _) = try await Self.report(client, "", method: .post, body: huge)
            #expect(status == .contentTooLarge)
            (status, _) = try await Self.report(client, "token=\(token)&part=1&type=1&pad=" + String(repeating: "y", count: 5000))
            #expect(status == .badRequest)
            // Another method is a 405 that names both.
            try await client.execute(uri: "/v1/delivery-reports/kannel", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD, POST")
            }

            // Each outcome is counted.
            try await get(client, "/metrics") { response in
                let text = String(buffer: response.body)
                for outcome in ["applied", "duplicate", "stale", "unknown_message", "malformed_token", "unknown_type",
                                "body_too_large", "query_too_long"] {
                    #expect(text.contains(#"smskit_delivery_reports_total{outcome="\#(outcome)"}"#), "\(outcome)")
                }
            }
        }
    }

    @Test("cancel: a cancelled verification approves nothing; cancelling an approved one is a conflict")
    func cancel() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let id = try #require(try await started(client, #"{"number":"+447400123456"}"#)["id"] as? String)
            let code = try fixture.code(to: Self.mobile)
            try await post(client, "/v1/verifications/\(id)/cancel", "") { response in
                #expect(response.status == .ok)
                let body = try object(response)
                #expect(body["status"] as? String == "cancelled" && body["id"] as? String == id)
            }
            try await post(client, "/v1/verifications/\(id)/cancel", "") { response in
                let body = try object(response)
                #expect(response.status == .ok && body["status"] as? String == "already_cancelled")
            }
            let (checkStatus, _, _) = try await checked(client, id: id, code: code)
            #expect(checkStatus == .gone)
            try await get(client, "/v1/verifications/\(id)") { response in
                let parsed = try object(response)
                #expect(parsed["status"] as? String == "cancelled")
            }

            let other = try #require(try await started(client, #"{"number":"+447400123457"}"#)["id"] as? String)
            let (approved, _, _) = try await checked(client, id: other, code: try fixture.code(to: "+447400123457"))
            #expect(approved == .ok)
            try await post(client, "/v1/verifications/\(other)/cancel", "") { response in
                #expect(response.status == .conflict)
                let code = try errorCode(response)
                #expect(code == "already_approved")
            }
            try await post(client, "/v1/verifications/AAAAAAAAAAAAAAAAAAAAAA/cancel", "") { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/v1/verifications/\(id)/cancel", method: .post) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
