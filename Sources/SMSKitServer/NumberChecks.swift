#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import PhoneNumbers
import SMSKitJSON

/// One number to check: `{"number": "...", "region": "GB"}` (`region` optional; `ZZ` or
/// absent means no default region, so the number must start with `+`).
struct NumberQuery: Decodable, Sendable {
    var number: String
    var region: String?
}

extension NumberQuery {
    /// Decodes one query from JSON bytes (a request body or one NDJSON line), with the typed
    /// errors of `RequestDecoding.decode`.
    ///
    /// Early exit: the shape nearly every caller sends, an object with a `number` string and an
    /// optional `region` string or null, both without escapes, is read directly; anything else
    /// (escapes, other keys, other types, bad syntax) goes through `JSONDecoder`, which gives the
    /// answer or the error. On `check-stream` the early exit is most of the time per line.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> NumberQuery {
        if let query = plain(bytes) { return query }
        return try RequestDecoding.decode(NumberQuery.self, from: ByteBuffer(bytes: bytes))
    }

    /// The query when `bytes` is `{"number":"…"}` or `{"number":"…","region":"…"|null}` (keys in
    /// any order, any JSON whitespace) with unescaped strings of valid UTF-8; otherwise nil.
    static func plain(_ bytes: UnsafeRawBufferPointer) -> NumberQuery? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }
        func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        /// An unescaped string's bytes, after its opening quote; nil on an escape or control byte.
        func rawString() -> Range<Int>? {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<(index - 1)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }
        func string(_ range: Range<Int>) -> String? {
            String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        func isKey(_ range: Range<Int>, _ name: StaticString) -> Bool {
            range.count == name.utf8CodeUnitCount
                && name.withUTF8Buffer { name in zip(bytes[range], name).allSatisfy { $0 == $1 } }
        }

        guard expect(UInt8(ascii: "{")) else { return nil }
        var number: String?
        var region: String??
        while true {
            guard expect(UInt8(ascii: "\"")), let key = rawString(), expect(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            let value: String?
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                guard let range = rawString(), let text = string(range) else { return nil }
                value = text
            } else if bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            {
                index += 4
                value = nil
            } else {
                return nil
            }
            if isKey(key, "number"), number == nil, let value {
                number = value
            } else if isKey(key, "region"), region == nil {
                region = .some(value)
            } else {
                return nil  // another key, a repeated one, or a null number: JSONDecoder's call
            }
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: ",") { continue }
            if bytes[index - 1] == UInt8(ascii: "}") { break }
            return nil
        }
        guard let number else { return nil }
        skipSpace()
        guard index == bytes.count else { return nil }
        return NumberQuery(number: number, region: region ?? nil)
    }
}

/// The answers about numbers: the number answer's ``NumberAnswerField/service`` fields (those of
/// `smskit validate --fields`), written as JSON straight into the response.
enum NumberChecks {
    /// `"input":`, `"ok":`... : the keys of the answer, after `{` or `,`.
    private static let keys: [[UInt8]] = NumberAnswerField.service.enumerated().map { index, field in
        Array(((index == 0 ? "" : ",") + "\"" + field.rawValue + "\":").utf8)
    }

    /// Appends the answer for one query as a JSON object; `line` is set for `check-stream`;
    /// `formats` false leaves `national` and `international` null without formatting.
    ///
    /// The object is composed in one span of `out` reserved for its largest possible size: one
    /// capacity check instead of one per field.
    static func write(_ engine: PhoneNumberEngine, _ query: NumberQuery, line: Int? = nil, formats: Bool = true, to out: inout ByteBuffer) {
        var region: RegionCode?
        var refusal: (code: StaticString, message: StaticString)?
        if let text = query.region, !text.isEmpty, text.uppercased() != "ZZ" {
            if let code = RegionCode(text) {
                region = code
            } else {
                refusal = ("invalid_region", "The region must be a two-letter ISO 3166-1 code, 001 or ZZ.")
            }
        }
        let check = refusal == nil ? engine.check(query.number, defaultRegion: region) : NumberAnswer.unchecked
        var number = query.number
        number.withUTF8 { input in
            let answer = NumberAnswer(input: input, refusal: refusal, check: check, engine: engine,
                                      formats: (national: formats, international: formats, rfc3966: false))
            let most = 64 + Self.keys.count * (answer.maximumFieldCount + 24)
            out.writeWithUnsafeMutableBytes(minimumWritableBytes: most) { raw in
                var json = SpanWriter(raw.baseAddress!)
                json.byte(UInt8(ascii: "{"))
                if let line {
                    json.literal("\"line\":")
                    json.int(line)
                    json.byte(UInt8(ascii: ","))
                }
                for (field, key) in zip(NumberAnswerField.service, Self.keys) {
                    key.withUnsafeBufferPointer { json.bytes($0) }
                    json.write(field, of: answer, as: .json)
                }
                json.byte(UInt8(ascii: "}"))
                return json.count
            }
        }
    }
}
