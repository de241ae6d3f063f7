import Foundation
import NIOCore
@testable import SMSKitServer
import Testing

/// `NumberQuery.decode` reads the common shape itself and leaves the rest to `JSONDecoder`:
/// both must give the same query or the same error for every line.
@Suite("SMSKitServer number query decoding")
struct NumberQueryDecodingTests {
    static let lines: [String] = [
        #"{"number":"+442079460000"}"#,
        #"{"number":"020 7946 0000","region":"GB"}"#,
        #"{"region":"GB","number":"020 7946 0000"}"#,
        #"  { "number" : "+1 650 253 0000" , "region" : null }  "#,
        "{\"number\":\"+44\",\r\n\t\"region\":\"gb\"}",
        #"{"number":"٠٢٠٧٩٤٦٠٠٠٠","region":"EG"}"#,
        #"{"number":"tel:+1-650-253-0000;ext=12"}"#,
        #"{"number":""}"#,
        #"{"number":"a\"b"}"#,
        #"{"number":"\u002B44 20 7946 0000"}"#,
        #"{"number":"+44","region":"GB","x":1}"#,
        #"{"number":"+44","number":"+1"}"#,
        #"{"region":"GB","region":"FR","number":"1"}"#,
        #"{"number":null}"#,
        #"{"number":5}"#,
        #"{"number":"+44",}"#,
        #"{"number":"+44"} x"#,
        #"{"number":"+44""#,
        #"{"number" "+44"}"#,
        #"{}"#,
        #"[]"#,
        #"{"region":"GB"}"#,
        #"{"number":"+44","region":nul}"#,
        #"{"number":"+44","region":true}"#,
        #"{"number":"line\nbreak"}"#,
        "{\"number\":\"tab\there\"}",
        "null",
        "",
    ]

    static func reference(_ bytes: [UInt8]) -> Result<NumberQuery, ServiceError> {
        Result { try RequestDecoding.decode(NumberQuery.self, from: ByteBuffer(bytes: bytes)) }.mapError { $0 as! ServiceError }
    }

    static func decoded(_ bytes: [UInt8]) -> Result<NumberQuery, ServiceError> {
        Result { try bytes.withUnsafeBytes { try NumberQuery.decode($0) } }.mapError { $0 as! ServiceError }
    }

    static func same(_ a: Result<NumberQuery, ServiceError>, _ b: Result<NumberQuery, ServiceError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x.number == y.number && x.region == y.region
        case (.failure(let x), .failure(let y)): x.code == y.code && x.message == y.message
        default: false
        }
    }

    @Test("Same answer as JSONDecoder", arguments: lines)
    func agrees(_ line: String) {
        let bytes = Array(line.utf8)
        #expect(Self.same(Self.decoded(bytes), Self.reference(bytes)))
    }

    @Test("Invalid UTF-8 inside a string is refused as JSONDecoder's path refuses it")
    func invalidUTF8() {
        let bytes = Array(#"{"number":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(NumberQuery.plain(bytes.withUnsafeBytes { UnsafeRawBufferPointer($0) }) == nil)
        #expect(Self.same(Self.decoded(bytes), Self.reference(bytes)))
        guard case .failure(let error) = Self.decoded(bytes) else { Issue.record("accepted invalid UTF-8"); return }
        #expect(error.code == "invalid_utf8")
    }

    @Test("The common shapes take the early exit")
    func earlyExit() {
        for line in Self.lines.prefix(6) {
            let query = Array(line.utf8).withUnsafeBytes { NumberQuery.plain($0) }
            #expect(query != nil, "\(line)")
        }
    }

    @Test("Random mutations of a query agree with JSONDecoder")
    func mutations() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":, \"+0123456789numberegiolGB\u"#.utf8) + [0x0A, 0x00, 0xC3, 0xA9, 0xFF]
        let seeds = Self.lines.map { Array($0.utf8) }
        for _ in 0..<20_000 {
            var bytes = seeds.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !bytes.isEmpty: bytes.remove(at: position)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
                default: if !bytes.isEmpty { bytes[position] = alphabet.randomElement(using: &generator)! }
                }
            }
            let same = Self.same(Self.decoded(bytes), Self.reference(bytes))
            #expect(same, "\(bytes)")
            if !same { return }
        }
    }
}
