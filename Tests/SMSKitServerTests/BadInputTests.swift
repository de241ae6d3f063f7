import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

@Suite("SMSKitServer bad input")
struct BadInputTests {
    struct BadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var uri: String
        var method: HTTPRequest.Method = .post
        var contentType: String? = "application/json"
        var body: [UInt8]
        var status: HTTPResponse.Status
        var code: String
        var testDescription: String { name }
    }

    static let cases: [BadCase] = [
        .init(name: "malformed JSON", uri: "/v1/numbers/check", body: Array(#"{"number": "+44"#.utf8), status: .badRequest, code: "malformed_json"),
        .init(name: "not JSON at all", uri: "/v1/segments", body: Array("text=hello".utf8), status: .badRequest, code: "malformed_json"),
        .init(name: "empty body", uri: "/v1/numbers/check", body: [], status: .badRequest, code: "malformed_json"),
        .init(name: "number is a number", uri: "/v1/numbers/check", body: Array(#"{"number": 442079460000}"#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "number missing", uri: "/v1/numbers/check", body: Array(#"{"region": "GB"}"#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "array of strings", uri: "/v1/numbers/check", body: Array(#"["+442079460000"]"#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "a bare string", uri: "/v1/numbers/check", body: Array(#""+442079460000""#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "null", uri: "/v1/segments", body: Array("null".utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "text is null", uri: "/v1/segments", body: Array(#"{"text": null}"#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "minutes is a string", uri: "/v1/messages/render", body: Array(#"{"lang":"en","code":"1234","app":"A","minutes":"ten"}"#.utf8), status: .unprocessableContent, code: "invalid_request"),
        .init(name: "invalid UTF-8", uri: "/v1/numbers/check", body: Array(#"{"number": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), status: .badRequest, code: "invalid_utf8"),
        .init(name: "overlong UTF-8 NUL", uri: "/v1/segments", body: Array(#"{"text": ""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8), status: .badRequest, code: "invalid_utf8"),
        .init(name: "form content type", uri: "/v1/numbers/check", contentType: "application/x-www-form-urlencoded", body: Array("number=1".utf8), status: .unsupportedMediaType, code: "unsupported_media_type"),
        .init(name: "JSON to the stream", uri: "/v1/numbers/check-stream", contentType: "application/xml", body: Array("<a/>".utf8), status: .unsupportedMediaType, code: "unsupported_media_type"),
        .init(name: "empty stream", uri: "/v1/numbers/check-stream", contentType: "application/x-ndjson", body: [], status: .badRequest, code: "empty_body"),
        .init(name: "unknown route", uri: "/v1/numbers", body: [], status: .notFound, code: "not_found"),
        .init(name: "unknown route GET", uri: "/admin", method: .get, body: [], status: .notFound, code: "not_found"),
        .init(name: "path traversal", uri: "/v1/../../etc/passwd", method: .get, body: [], status: .notFound, code: "not_found"),
        .init(name: "GET on a POST route", uri: "/v1/numbers/check", method: .get, body: [], status: .methodNotAllowed, code: "method_not_allowed"),
        .init(name: "DELETE on a POST route", uri: "/v1/segments", method: .delete, body: [], status: .methodNotAllowed, code: "method_not_allowed"),
        .init(name: "POST on a GET route", uri: "/healthz", body: [], status: .methodNotAllowed, code: "method_not_allowed"),
    ]

    @Test("Bad requests get a 4xx with a JSON error body", arguments: cases)
    func badRequest(_ c: BadCase) async throws {
        let app = try makeServer().makeApplication()
        var fields = authorized()
        fields[.contentType] = c.contentType
        let headers = fields
        try await app.test(.router) { client in
            try await client.execute(uri: c.uri, method: c.method, headers: headers, body: ByteBuffer(bytes: c.body)) { response in
                #expect(response.status == c.status)
                let code = try errorCode(response)
                #expect(code == c.code)
                if c.status == .methodNotAllowed { #expect(response.headers[.allow] != nil) }
            }
            // The server keeps serving.
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("A body over the limit is 413, by Content-Length or by counting")
    func hugeBody() async throws {
        let app = try makeServer { $0.maxBodyBytes = 64 * 1024 }.makeApplication()
        let huge = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1)
        try await app.test(.live) { client in
            for uri in ["/v1/numbers/check", "/v1/segments", "/v1/messages/render"] {
                try await client.execute(uri: uri, method: .post, headers: authorized(), body: huge) { response in
                    #expect(response.status == .contentTooLarge)
                    let code = try errorCode(response)
                    #expect(code == "body_too_large")
                }
            }
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
        }
    }
}

@Suite("SMSKitServer keys and rate limits")
struct SecurityTests {
    @Test("Missing, malformed and wrong keys are 401; X-API-Key works too")
    func keys() async throws {
        let app = try makeServer().makeApplication()
        let body = ByteBuffer(string: #"{"text":"hi"}"#)
        try await app.test(.router) { client in
            let refused: [(HTTPFields, String)] = [
                ([.contentType: "application/json"], "missing_api_key"),
                ([.authorization: "Bearer \(otherKey)"], "invalid_api_key"),
                ([.authorization: "Bearer "], "invalid_api_key"),
                ([.authorization: "Basic \(testKey)"], "invalid_api_key"),
                ([.authorization: testKey], "invalid_api_key"),
                ([.authorization: "Bearer \(testKey)x"], "invalid_api_key"),
                ([.authorization: "Bearer \(testKey.dropLast())"], "invalid_api_key"),
            ]
            for (headers, code) in refused {
                try await client.execute(uri: "/v1/segments", method: .post, headers: headers, body: body) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                    let code = try errorCode(response)
                    #expect(code == code)
                }
            }
            try await client.execute(uri: "/v1/segments", method: .post, headers: [HTTPField.Name("X-API-Key")!: testKey], body: body) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/segments", method: .post, headers: [.authorization: "bearer \(testKey)"], body: body) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("A flood from one key gets 429 with Retry-After; another key is still served")
    func flood() async throws {
        let second = "second-key-0123456789abcdef"
        let app = try makeServer { configuration in
            configuration.apiKeys = try! APIKeys(keys: [testKey, second])
            configuration.rateLimitPerSecond = 0.001
            configuration.rateLimitBurst = 5
        }.makeApplication()
        try await app.test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<8 {
                try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(), body: ByteBuffer(string: #"{"text":"x"}"#)) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests {
                        let code = try errorCode(response)
                        #expect(code == "rate_limited")
                        let retry = try #require(response.headers[.retryAfter].flatMap { Int($0) })
                        #expect(retry >= 1)
                    }
                }
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == .ok })
            #expect(statuses.suffix(2).allSatisfy { $0 == .tooManyRequests })
            try await client.execute(uri: "/v1/segments", method: .post, headers: [.authorization: "Bearer \(second)"], body: ByteBuffer(string: #"{"text":"x"}"#)) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("Keys files: comments, sha256 lines, short keys refused without echoing them")
    func keysFile() throws {
        let digestOfTestKey = "sha256:" + APIKeys.hex(try APIKeys.digest(testKey))
        let keys = try APIKeys(parsing: "# billing\n\(digestOfTestKey)\n  \(otherKey)  # web\n\n")
        #expect(keys.count == 2)
        #expect(keys.identify(testKey) != nil)
        #expect(keys.identify(otherKey) != nil)
        #expect(keys.identify(otherKey) != keys.identify(testKey))
        #expect(keys.identify("nope") == nil)
        #expect(keys.identify("") == nil)
        do {
            _ = try APIKeys(parsing: "ok-key-0123456789abcdef\nshortsecret\n")
            Issue.record("a short key was accepted")
        } catch {
            #expect(error.description.contains("line 2"))
            #expect(!error.description.contains("shortsecret"))
        }
        #expect(throws: ServiceConfigurationError.self) { try APIKeys(parsing: "sha256:abc") }
        #expect(throws: ServiceConfigurationError.self) { try APIKeys(parsing: "a,b", separator: ",") }
        #expect(throws: ServiceConfigurationError.self) { try SMSKitServer(configuration: SMSKitServerConfiguration()) }
    }

    /// A limit of the configuration that no server can keep.
    struct BadLimit: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var adjust: @Sendable (inout SMSKitServerConfiguration) -> Void
    }

    @Test("An embedder's limit out of range is refused by the server, not only by smskit serve", arguments: [
        BadLimit(testDescription: "find text length 0") { $0.maxFindTextLength = 0 },
        BadLimit(testDescription: "find numbers 0") { $0.maxFindNumbers = 0 },
        BadLimit(testDescription: "idle timeout 0") { $0.idleTimeoutSeconds = 0 },
        BadLimit(testDescription: "body timeout 0") { $0.bodyTimeoutSeconds = 0 },
        BadLimit(testDescription: "rate burst 0") { $0.rateLimitBurst = 0 },
        BadLimit(testDescription: "NaN rate limit") { $0.rateLimitPerSecond = .nan },
        BadLimit(testDescription: "negative rate limit") { $0.rateLimitPerSecond = -1 },
        BadLimit(testDescription: "stream bytes 0") { $0.maxStreamBytes = 0 },
    ])
    func badLimit(_ limit: BadLimit) throws {
        #expect(throws: Never.self) { try makeServer() }
        #expect(throws: ServiceConfigurationError.self) { try makeServer(limit.adjust) }
    }

    @Test("The token bucket refills at its rate")
    func bucket() {
        let limiter = RateLimiter(ratePerSecond: 2, burst: 2)
        let key = APIKeys.KeyID(description: "k")
        let start = ContinuousClock.now
        #expect(limiter.acquire(key, now: start) == nil)
        #expect(limiter.acquire(key, now: start) == nil)
        #expect(limiter.acquire(key, now: start) == 1)
        #expect(limiter.acquire(key, now: start + .milliseconds(500)) == nil)
        #expect(limiter.acquire(key, now: start + .milliseconds(500)) != nil)
        #expect(limiter.acquire(key, now: start + .seconds(10)) == nil)
    }
}
