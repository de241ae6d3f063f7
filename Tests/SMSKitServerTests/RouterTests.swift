import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

/// The router and its middleware as every endpoint sees them: each line of `Endpoint.all` gets
/// the key check, the wrong-method answer and its metrics label.
@Suite("Router and middleware")
struct RouterTests {
    @Test("every endpoint that needs a key refuses a request without one; the open ones answer")
    func keysOnEveryEndpoint() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            for endpoint in Endpoint.all {
                let uri = endpoint.path.replacingOccurrences(of: "{id}", with: "AAAAAAAAAAAAAAAAAAAAAA")
                try await client.execute(uri: uri, method: endpoint.method) { response in
                    if endpoint.access == .key {
                        #expect(response.status == .unauthorized, "\(endpoint.path)")
                        let code = try errorCode(response)
                        #expect(code == "missing_api_key")
                    } else if endpoint.path.hasPrefix("/v1/delivery-reports/") {
                        // Open, but a report without its token (on a server without a store) is refused.
                        #expect(response.status == .notFound, "\(endpoint.path)")
                        let code = try errorCode(response)
                        #expect(code == "verification_disabled")
                    } else {
                        #expect(response.status == .ok, "\(endpoint.path)")
                    }
                }
            }
        }
    }

    @Test("a wrong method is 405 with Allow naming the path's methods, without a key; HEAD answers a GET route")
    func wrongMethods() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz/", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
                let code = try errorCode(response)
                #expect(code == "method_not_allowed")
            }
            try await client.execute(uri: "/v1/verifications/some-id/check", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
            }
            try await client.execute(uri: "/v1/verifications/some-id/check/more", method: .post) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/healthz", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_http_requests_total{route="/healthz",method="POST",status="405"} 1"#))
                #expect(text.contains(#"smskit_http_requests_total{route="/v1/verifications/{id}/check",method="GET",status="405"} 1"#))
                #expect(text.contains(#"smskit_http_requests_total{route="unmatched",method="POST",status="404"} 1"#))
                #expect(text.contains(#"smskit_http_requests_total{route="/healthz",method="HEAD",status="200"} 1"#))
            }
        }
    }

    @Test("the route table matches one segment per parameter and ignores empty segments")
    func routeTable() {
        let table = RouteTable(Endpoint.all)
        #expect(table.match("/v1/verifications/x/check")?.path == "/v1/verifications/{id}/check")
        // Empty segments are dropped: this is the status route of an ID "check".
        #expect(table.match("/v1/verifications//check")?.path == "/v1/verifications/{id}")
        #expect(table.match("/v1/verifications//check/x") == nil)
        #expect(table.match("/v1/segments/")?.methods == [.post])
        #expect(table.match("/v1") == nil)
        #expect(RouteTable.allow([.get]) == "GET, HEAD")
        #expect(RouteTable.allow([.post, .delete]) == "POST, DELETE")
    }
}
