import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhoneVerification
@testable import SMSKitServer
import Testing

@Suite struct EventsEndpointTests {
    func get(_ client: some TestClientProtocol, _ uri: String, key: String? = testKey,
             _ body: @escaping (TestResponse) async throws -> Void) async throws {
        var headers: HTTPFields = [:]
        if let key { headers[.authorization] = "Bearer \(key)" }
        try await client.execute(uri: uri, method: .get, headers: headers) { try await body($0) }
    }

    /// A start and a check, read back as NDJSON pages after a cursor; no number or code in them.
    @Test func eventsArePagedAfterACursor() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            let start = try await started(client, #"{"number":"+16502530000"}"#)
            let id = try #require(start["id"] as? String)
            let code = try fixture.code(to: "+16502530000")
            _ = try await checked(client, id: id, code: code)
            var lines: [[String: Any]] = []
            var next = "0"
            try await get(client, "/v1/events?after=0&limit=2") { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let text = String(buffer: response.body)
                #expect(!text.contains("6502530000") && !text.contains(code))
                lines = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                next = response.headers[HTTPField.Name("SMSKit-Next-Cursor")!] ?? ""
            }
            #expect(lines.map { $0["kind"] as? String } == ["started", "sent"])
            #expect(next == String(describing: lines.last?["cursor"] ?? ""))
            try await get(client, "/v1/events?after=\(next)") { response in
                let kinds = String(buffer: response.body).split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String
                }
                #expect(kinds == ["approved"])
            }
        }
    }

    @Test(arguments: ["/v1/events?limit=0", "/v1/events?limit=1001", "/v1/events?after=-1", "/v1/events?after=x",
                      "/v1/events?cursor=1"])
    func badQueriesAre422(uri: String) async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            try await get(client, uri) { response in #expect(response.status == .unprocessableContent) }
        }
    }

    @Test func eventsNeedAKey() async throws {
        let fixture = try VerificationFixture()
        try await fixture.server.makeApplication().test(.router) { client in
            try await get(client, "/v1/events", key: nil) { response in #expect(response.status == .unauthorized) }
        }
    }
}
