import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

import Foundation

@Suite("SMSKitServer endpoints")
struct EndpointTests {
    struct NumberCase: Sendable, CustomTestStringConvertible {
        var number: String
        var region: String?
        var ok: Bool
        var e164: String?
        var valid: Bool
        var type: String?
        var error: String?
        var national: String?
        var testDescription: String { "\(number) \(region ?? "-")" }
    }

    static let numberCases: [NumberCase] = [
        .init(number: "020 7946 0000", region: "GB", ok: true, e164: "+442079460000", valid: true, type: "fixed_line", national: "020 7946 0000"),
        .init(number: "+1 650-253-0000", region: nil, ok: true, e164: "+16502530000", valid: true, type: "fixed_line_or_mobile"),
        .init(number: "0532 123 45 67", region: "tr", ok: true, e164: "+905321234567", valid: true, type: "mobile"),
        .init(number: "hello", region: "GB", ok: false, valid: false, error: "not_a_number"),
        .init(number: "020 7946 0000", region: "XYZ", ok: false, valid: false, error: "invalid_region"),
        .init(number: "020 7946 0000", region: "ZZ", ok: false, valid: false, error: "invalid_country_code"),
    ]

    @Test("POST /v1/numbers/check answers one number with the CLI's fields", arguments: numberCases)
    func checkOne(_ c: NumberCase) async throws {
        let app = try makeServer().makeApplication()
        var query: [String: Any] = ["number": c.number]
        if let region = c.region { query["region"] = region }
        let body = try JSONSerialization.data(withJSONObject: query)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(), body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
                let result = try object(response)
                #expect(result["input"] as? String == c.number)
                #expect(result["ok"] as? Bool == c.ok)
                #expect(result["valid"] as? Bool == c.valid)
                #expect(result["e164"] as? String == c.e164)
                #expect(result["error"] as? String == c.error)
                if let type = c.type { #expect(result["type"] as? String == type) }
                if let national = c.national { #expect(result["national"] as? String == national) }
                for field in ["e164", "possible", "valid", "type", "region", "fictional", "error", "national", "international"] {
                    #expect(result.keys.contains(field), "missing \(field)")
                }
            }
        }
    }

    @Test("An array gets one result per number, in order; over the batch limit is 413")
    func checkBatch() async throws {
        let app = try makeServer { $0.maxBatchCount = 100 }.makeApplication()
        let numbers = (0..<100).map { "+44 20 7946 \(String(format: "%04d", $0))" }
        let body = try JSONSerialization.data(withJSONObject: numbers.map { ["number": $0] })
        let tooMany = try JSONSerialization.data(withJSONObject: (0..<101).map { _ in ["number": "+442079460000"] })
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(), body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
                let results = try #require(try json(response) as? [[String: Any]])
                #expect(results.map { $0["input"] as? String } == numbers)
                #expect(results.allSatisfy { $0["valid"] as? Bool == true })
            }
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(), body: ByteBuffer(bytes: tooMany)) { response in
                #expect(response.status == .contentTooLarge)
                let code = try errorCode(response)
                #expect(code == "batch_too_large")
            }
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(), body: ByteBuffer(string: "[]")) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "[]\n")
            }
        }
    }

    @Test("The default batch limit takes 10,000 numbers")
    func checkTenThousand() async throws {
        let app = try makeServer().makeApplication()
        let body = "[" + Array(repeating: #"{"number":"+16502530000"}"#, count: 10_000).joined(separator: ",") + "]"
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(), body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                let results = try #require(try json(response) as? [[String: Any]])
                #expect(results.count == 10_000)
            }
        }
    }

    @Test("POST /v1/segments gives the analysis")
    func segments() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"text":"Your code is 123456"}"#)) { response in
                #expect(response.status == .ok)
                let result = try object(response)
                #expect(result["encoding"] as? String == "gsm7")
                #expect(result["segments"] as? Int == 1)
                #expect(result["length"] as? Int == 19)
            }
            // Turkish ğ: UCS-2 without tables, GSM 7-bit with the Turkish ones.
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"text":"Kodunuz: 123456 ğ","national_tables":"turkish"}"#)) { response in
                let result = try object(response)
                #expect(result["encoding"] as? String == "gsm7")
                let tables = try #require(result["national_language_tables"] as? [String: Any])
                #expect(tables["single_shift"] as? String == "turkish" || tables["locking_shift"] as? String == "turkish")
            }
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"text":"x","national_tables":"klingon"}"#)) { response in
                #expect(response.status == .unprocessableContent)
                let code = try errorCode(response)
                #expect(code == "invalid_request")
            }
            let long = String(repeating: "a", count: 161)
            try await client.execute(uri: "/v1/segments", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"text":"\#(long)"}"#)) { response in
                let result = try object(response)
                #expect(result["segments"] as? Int == 2)
                let parts = try #require(result["parts"] as? [[String: Any]])
                #expect(parts.count == 2)
                #expect((parts[0]["user_data_header"] as? String)?.hasPrefix("050003") == true)
            }
        }
    }

    @Test("POST /v1/messages/render renders through ICU")
    func render() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/messages/render", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"lang":"pt-BR","code":"042917","app":"Acme","minutes":10}"#)) { response in
                #expect(response.status == .ok)
                let result = try object(response)
                #expect(result["message"] as? String == "verification_code_expiry")
                #expect(result["locale"] as? String == "pt-BR" || (result["locale"] as? String)?.hasPrefix("pt") == true)
                #expect((result["text"] as? String)?.contains("042917") == true)
                #expect((result["text"] as? String)?.contains("10") == true)
                let encoding = try #require(result["encoding"] as? [String: Any])
                #expect((encoding["segments"] as? Int ?? 0) >= 1)
            }
            try await client.execute(uri: "/v1/messages/render", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"lang":"en","code":"","app":"Acme"}"#)) { response in
                #expect(response.status == .unprocessableContent)
                let code = try errorCode(response)
                #expect(code == "invalid_code")
            }
            try await client.execute(uri: "/v1/messages/render", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"lang":"en","code":"1234","app":"Acme","webotp":"not a domain"}"#)) { response in
                #expect(response.status == .unprocessableContent)
                let code = try errorCode(response)
                #expect(code == "invalid_origin")
            }
            try await client.execute(uri: "/v1/messages/render", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"lang":"en","code":"1234","app":"Acme","message":"no_such_message"}"#)) { response in
                #expect(response.status == .notFound)
                let code = try errorCode(response)
                #expect(code == "unknown_message")
            }
            try await client.execute(uri: "/v1/messages/render", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"{"lang":"en","code":"1234","app":"Acme","minutes":-1}"#)) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }

    @Test("Health, readiness and the OpenAPI document need no key")
    func openEndpoints() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            for path in ["/healthz", "/readyz"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    let status = try object(response)["status"] as? String
                    #expect(status == "ok")
                }
            }
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(String(buffer: response.body).hasPrefix("openapi: 3.1.0"))
            }
        }
    }

    @Test("The served document is openapi.yaml (tools/generate_openapi_swift.sh was run)")
    func documentMatchesFile() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SMSKitServer/openapi.yaml").path
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(String(decoding: data, as: UTF8.self) == OpenAPIDocument.text + "\n")
    }

    @Test("/metrics counts requests by route and status, and numbers checked")
    func metrics() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/numbers/check", method: .post, headers: authorized(),
                                     body: ByteBuffer(string: #"[{"number":"+442079460000"},{"number":"+16502530000"}]"#))
            try await client.execute(uri: "/nowhere", method: .get)
            try await client.execute(uri: "/v1/segments", method: .post, headers: [.authorization: "Bearer \(otherKey)"])
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_http_requests_total{route="/v1/numbers/check",method="POST",status="200"} 1"#))
                #expect(text.contains(#"smskit_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
                #expect(text.contains(#"smskit_numbers_checked_total{endpoint="check"} 2"#))
                #expect(text.contains(#"smskit_guard_refusals_total{reason="wrong_key"} 1"#))
                #expect(text.contains("smskit_http_request_duration_seconds_bucket"))
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
