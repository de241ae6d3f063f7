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

/// `POST /v1/numbers/find` and `POST /v1/numbers/match`: formats, limits and typed refusals (the
/// documents themselves are held to the CLI's by the wire goldens).
@Suite("Find and match endpoints")
struct FindMatchEndpointTests {
    static func body(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    static let text = "Call +44 20 7946 0123 or 020 7946 0124\nno number here\r\nTél. 07400 123456 ext. 12\r\n"

    @Test("find answers a JSON array, NDJSON or CSV by Accept, one record per number in text order")
    func formats() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            let request = try Self.body(["text": Self.text, "region": "gb"])
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(), body: request) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let records = try #require(try json(response) as? [[String: Any]])
                #expect(records.map { $0["line"] as? Int } == [1, 1, 3])
                #expect(records.map { $0["e164"] as? String } == ["+442079460123", "+442079460124", "+447400123456"])
                #expect(records[0]["raw"] as? String == "+44 20 7946 0123")
                // "Tél. " has a two-byte é: offsets in code points and in bytes differ by one.
                #expect(records[2]["start"] as? Int == 5 && records[2]["utf8_start"] as? Int == 6)
                #expect(records[2]["extension"] as? String == "12")
                #expect(records[2]["type"] as? String == "mobile")
                #expect(records.allSatisfy { $0["file"] == nil && $0.count == 11 })
            }
            try await client.execute(uri: "/v1/numbers/find", method: .post,
                                     headers: authorized([.accept: "application/x-ndjson"]), body: request) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let lines = String(buffer: response.body).split(separator: "\n")
                #expect(lines.count == 3)
                #expect(lines.first?.hasPrefix(#"{"line":1,"start":5,"end":21,"utf8_start":5,"utf8_end":21,"raw":"+44 20 7946 0123","#) == true)
            }
            try await client.execute(uri: "/v1/numbers/find", method: .post,
                                     headers: authorized([.accept: "text/csv;q=0.9, application/json;q=0.5"]), body: request) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv")
                #expect(String(buffer: response.body) == """
                    line,start,end,utf8_start,utf8_end,raw,e164,extension,valid,region,type
                    1,5,21,5,21,+44 20 7946 0123,+442079460123,,true,GB,fixed_line
                    1,25,38,25,38,020 7946 0124,+442079460124,,true,GB,fixed_line
                    3,5,25,6,26,07400 123456 ext. 12,+447400123456,12,true,GB,mobile

                    """)
            }
            // No number, no text: an empty array (and an empty NDJSON body).
            for text in ["", "no number here\n", "\n\n"] {
                try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(), body: try Self.body(["text": text])) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "[]\n")
                }
                try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized([.accept: "application/x-ndjson"]),
                                         body: try Self.body(["text": text])) { response in
                    #expect(response.status == .ok)
                    #expect(response.body.readableBytes == 0)
                }
            }
            // Without a region (or with ZZ) only numbers written with + are found.
            for region: Any in [NSNull(), "ZZ", "zz"] {
                try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                         body: try Self.body(["text": Self.text, "region": region])) { response in
                    let records = try #require(try json(response) as? [[String: Any]])
                    #expect(records.map { $0["e164"] as? String } == ["+442079460123"])
                }
            }
            // Leniency as the CLI spells it: exact-grouping refuses "650 2530000".
            for (leniency, count) in [("valid", 2), ("exact-grouping", 1)] {
                try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                         body: try Self.body(["text": "650 2530000 or (650) 253-0000", "region": "US", "leniency": leniency])) { response in
                    let records = try json(response) as? [Any]
                    #expect(records?.count == count, "\(leniency)")
                }
            }
        }
    }

    @Test("find bounds its work: a long text is refused before it is read, and so is an answer of too many numbers")
    func findLimits() async throws {
        let app = try makeServer {
            $0.maxBodyBytes = 8 << 20
            $0.maxFindTextLength = 2_000
            $0.maxFindNumbers = 3
        }.makeApplication()
        try await app.test(.router) { client in
            // 4 MiB of digits: refused at once, whatever the matcher would make of it.
            let start = ContinuousClock.now
            let digits = String(repeating: "1", count: 4 << 20)
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                     body: try Self.body(["text": digits, "region": "US"])) { response in
                #expect(response.status == .unprocessableContent)
                let code = try errorCode(response)
                #expect(code == "text_too_long")
            }
            #expect(ContinuousClock.now - start < .seconds(60))  // a loaded debug build; finding would take far longer
            // Up to the limit (in characters, not bytes) a text is read.
            let hostile = String(repeating: "(1) é", count: 400)
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                     body: try Self.body(["text": hostile, "region": "US"])) { response in
                #expect(response.status == .ok)
            }
            let three = "+1 650 253 0000\n+1 650 253 0001\n+1 650 253 0002"
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                     body: try Self.body(["text": three])) { response in
                #expect(response.status == .ok)
                let records = try json(response) as? [Any]
                #expect(records?.count == 3)
            }
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized(),
                                     body: try Self.body(["text": three + " or +1 650 253 0003"])) { response in
                #expect(response.status == .contentTooLarge)
                let code = try errorCode(response)
                #expect(code == "too_many_numbers")
            }
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"smskit_guard_refusals_total{reason="text_too_long"} 1"#))
                #expect(text.contains(#"smskit_guard_refusals_total{reason="too_many_numbers"} 1"#))
                #expect(text.contains(#"smskit_numbers_checked_total{endpoint="find"} 3"#))
                #expect(text.contains(#"smskit_http_requests_total{route="/v1/numbers/find",method="POST",status="422"} 1"#))
                #expect(text.contains(#"smskit_http_requests_total{route="/v1/numbers/find",method="POST",status="413"} 1"#))
            }
        }
    }

    @Test("find and match refuse bad input with typed errors")
    func badInput() async throws {
        let app = try makeServer().makeApplication()
        let refusals: [(String, String, HTTPResponse.Status, String)] = [
            ("/v1/numbers/find", #"{"text":"+1 650 253 0000","region":""}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"text":"+1 650 253 0000","region":"GBR"}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"text":"+1 650 253 0000","region":12}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"text":"+1 650 253 0000","leniency":"sloppy"}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"text":null}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"region":"US"}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/find", #"{"text":"#, .badRequest, "malformed_json"),
            ("/v1/numbers/match", #"{"first":"+1 650 253 0000"}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/match", #"{"first":"1","second":"2","region":"Germany"}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/match", #"{"first":"1","second":["2"]}"#, .unprocessableContent, "invalid_request"),
            ("/v1/numbers/match", "{\"first\":\"1\",\"second\":\"\(String(repeating: "5", count: 1_001))\"}", .unprocessableContent, "text_too_long"),
        ]
        try await app.test(.router) { client in
            for (path, body, status, code) in refusals {
                try await client.execute(uri: path, method: .post, headers: authorized(), body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(path) \(body.prefix(80))")
                    let code = try errorCode(response)
                    #expect(code == code, "\(path) \(body.prefix(80))")
                }
            }
            try await client.execute(uri: "/v1/numbers/find", method: .post, headers: authorized([.contentType: "text/plain"]),
                                     body: ByteBuffer(string: "+1 650 253 0000")) { response in
                #expect(response.status == .unsupportedMediaType)
            }
        }
    }

    @Test("match answers the match result, a no match included, with the inputs' dedupe keys")
    func match() async throws {
        let app = try makeServer().makeApplication()
        try await app.test(.router) { client in
            let cases: [([String: Any], String, Bool)] = [
                (["first": "020 7031 3000 ext. 5", "second": "+44 20 7031 3000", "region": "GB"], "short_nsn_match", true),
                (["first": "+1 650 253 0000", "second": "+44 650 253 0000"], "no_match", false),
                (["first": "hello", "second": "+44 20 7031 3000", "region": "gb"], "not_a_number", false),
                (["first": String(repeating: "5", count: 1_000), "second": "+44 20 7031 3000", "region": NSNull()], "not_a_number", false),
            ]
            for (query, match, isMatch) in cases {
                try await client.execute(uri: "/v1/numbers/match", method: .post, headers: authorized(), body: try Self.body(query)) { response in
                    #expect(response.status == .ok)
                    let answer = try object(response)
                    #expect(answer["match"] as? String == match)
                    #expect(answer["is_match"] as? Bool == isMatch)
                    #expect(answer.count == 7)
                }
            }
            try await client.execute(uri: "/v1/numbers/match", method: .post, headers: authorized(),
                                     body: try Self.body(cases[0].0)) { response in
                #expect(String(buffer: response.body) == #"{"first":"020 7031 3000 ext. 5","second":"+44 20 7031 3000","region":"GB","match":"short_nsn_match","is_match":true,"first_key":"+442070313000;ext=5","second_key":"+442070313000"}"# + "\n")
            }
            try await client.execute(uri: "/metrics", method: .get, headers: authorized()) { response in
                #expect(String(buffer: response.body).contains(#"smskit_numbers_checked_total{endpoint="match"} 10"#))
            }
        }
    }
}
