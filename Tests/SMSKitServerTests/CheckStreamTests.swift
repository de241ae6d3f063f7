import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SMSKitServer
import Testing

import Foundation

@Suite("SMSKitServer check-stream")
struct CheckStreamTests {
    @Test("formats=false: the same answers with national and international null; other values refused")
    func withoutFormats() async throws {
        let app = try makeServer().makeApplication()
        let input = [#"{"number":"020 7946 0000","region":"GB"}"#, #"{"number":"+905321234567"}"#, #"{"number":"hello"}"#]
            .joined(separator: "\n") + "\n"
        let headers = authorized([.contentType: "application/x-ndjson"])
        @Sendable func objects(_ body: String) throws -> [[String: Any]] {
            try body.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }
        try await app.test(.live) { client in
            let full = try objects(try await client.execute(uri: "/v1/numbers/check-stream", method: .post, headers: headers,
                                                            body: ByteBuffer(string: input)) { String(buffer: $0.body) })
            let bare = try objects(try await client.execute(uri: "/v1/numbers/check-stream?formats=false", method: .post,
                                                            headers: headers, body: ByteBuffer(string: input)) { String(buffer: $0.body) })
            #expect(full.count == 3 && bare.count == 3)
            #expect(full[0]["national"] as? String == "020 7946 0000")
            #expect(full[1]["international"] as? String == "+90 532 123 45 67")
            for (with, without) in zip(full, bare) {
                #expect(without["national"] is NSNull && without["international"] is NSNull)
                var rest = with
                rest["national"] = NSNull()
                rest["international"] = NSNull()
                #expect(try JSONSerialization.data(withJSONObject: rest, options: .sortedKeys)
                    == JSONSerialization.data(withJSONObject: without, options: .sortedKeys))
            }
            try await client.execute(uri: "/v1/numbers/check?formats=false", method: .post,
                                     headers: authorized([.contentType: "application/json"]),
                                     body: ByteBuffer(string: #"{"number":"+442079460000"}"#)) { response in
                #expect(response.status == .ok)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["e164"] as? String == "+442079460000")
                #expect(object["national"] is NSNull)
            }
            try await client.execute(uri: "/v1/numbers/check-stream?formats=no", method: .post, headers: headers,
                                     body: ByteBuffer(string: input)) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }

    @Test("One output line per input line, in order, errors in place")
    func stream() async throws {
        let app = try makeServer { $0.maxLineBytes = 200 }.makeApplication()
        let long = #"{"number":""# + String(repeating: "1", count: 300) + #""}"#
        let input = [
            #"{"number":"020 7946 0000","region":"GB"}"#,
            #"{"number":"+16502530000"}"#,
            "not json",
            "",
            long,
            #"{"number":"+905321234567"}"# + "\r",
            #"{"number": 5}"#,
            #"{"number":"hello","region":"GB"}"#,
        ].joined(separator: "\n") + "\n" + #"{"number":"+442079460000"}"#  // no final newline
        let headers = authorized([.contentType: "application/x-ndjson"])
        try await app.test(.live) { client in
            try await client.execute(uri: "/v1/numbers/check-stream", method: .post, headers: headers, body: ByteBuffer(string: input)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let lines = String(buffer: response.body).split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 10)  // nine answers and the empty string after the last newline
                #expect(lines.last == "")
                let objects = try lines.dropLast().map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
                #expect(objects.map { $0["line"] as? Int } == Array(1...9))
                #expect(objects[0]["e164"] as? String == "+442079460000")
                #expect(objects[1]["e164"] as? String == "+16502530000")
                #expect(objects[2]["error"] as? String == "malformed_json")
                #expect(objects[3]["error"] as? String == "empty_line")
                #expect(objects[4]["error"] as? String == "line_too_long")
                #expect(objects[5]["e164"] as? String == "+905321234567")
                #expect(objects[6]["error"] as? String == "invalid_request")
                #expect(objects[7]["error"] as? String == "not_a_number")
                #expect(objects[8]["e164"] as? String == "+442079460000")
            }
        }
    }

    @Test("A large stream keeps its order and count")
    func largeStream() async throws {
        let app = try makeServer().makeApplication()
        let count = 2_000  // HummingbirdTesting's client sends the whole body before it reads; the binary test streams 200,000
        var text = ""
        for index in 0..<count { text += #"{"number":"+44 20 7946 \#(String(format: "%04d", index % 10_000))"}"# + "\n" }
        let input = text
        let headers = authorized([.contentType: "application/x-ndjson"])
        try await app.test(.live) { client in
            try await client.execute(uri: "/v1/numbers/check-stream", method: .post, headers: headers, body: ByteBuffer(string: input)) { response in
                #expect(response.status == .ok)
                let lines = String(buffer: response.body).split(separator: "\n")
                #expect(lines.count == count)
                #expect(lines.last?.hasPrefix(#"{"line":\#(count),"#) == true)
                #expect(lines.allSatisfy { $0.contains(#""valid":true"#) })
            }
        }
    }
}
