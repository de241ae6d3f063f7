#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import PhoneNumbers

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

/// The answers about numbers, with the CLI's field names (`smskit validate --format jsonl`)
/// plus the national and international formats, written as JSON straight into the response.
enum NumberChecks {
    /// Appends the answer for one query as a JSON object; `line` is set for `check-stream`.
    static func write(_ engine: PhoneNumberEngine, _ query: NumberQuery, line: Int? = nil, to out: inout ByteBuffer) {
        out.writeInteger(UInt8(ascii: "{"))
        if let line {
            out.writeStaticString("\"line\":")
            out.writeString(String(line))
            out.writeInteger(UInt8(ascii: ","))
        }
        out.writeStaticString("\"input\":")
        out.writeJSONString(query.number)
        var region: RegionCode?
        if let text = query.region, !text.isEmpty, text.uppercased() != "ZZ" {
            guard let code = RegionCode(text) else {
                writeFailure("invalid_region", "The region must be a two-letter ISO 3166-1 code, 001 or ZZ.", to: &out)
                return
            }
            region = code
        }
        let check = engine.check(query.number, defaultRegion: region)
        guard let number = check.number else {
            writeFailure(check.error?.code.name ?? "not_a_number", check.error?.message ?? "The input is not a phone number.", to: &out)
            return
        }
        out.writeStaticString(",\"ok\":true,\"error\":null,\"error_message\":null,\"e164\":")
        out.writeJSONString(optional: check.e164)
        out.writeStaticString(",\"national\":")
        out.writeJSONString(engine.format(number, as: .national))
        out.writeStaticString(",\"international\":")
        out.writeJSONString(engine.format(number, as: .international))
        out.writeStaticString(",\"possible\":")
        out.writeJSONString(optional: check.possibility?.rawValue)
        out.writeStaticString(check.isValid ? ",\"valid\":true,\"type\":" : ",\"valid\":false,\"type\":")
        out.writeJSONString(check.type.rawValue)
        out.writeStaticString(",\"region\":")
        out.writeJSONString(optional: check.region?.identifier)
        out.writeStaticString(",\"fictional\":")
        out.writeJSONString(optional: check.fictional?.kind.rawValue)
        out.writeInteger(UInt8(ascii: "}"))
    }

    private static func writeFailure(_ code: String, _ message: String, to out: inout ByteBuffer) {
        out.writeStaticString(",\"ok\":false,\"error\":")
        out.writeJSONString(code)
        out.writeStaticString(",\"error_message\":")
        out.writeJSONString(message)
        out.writeStaticString(
            ",\"e164\":null,\"national\":null,\"international\":null,\"possible\":null,\"valid\":false,\"type\":null,\"region\":null,\"fictional\":null}"
        )
    }
}

extension ByteBuffer {
    /// A quoted JSON string, or `null`.
    mutating func writeJSONString(optional text: String?) {
        if let text { writeJSONString(text) } else { writeStaticString("null") }
    }
}
