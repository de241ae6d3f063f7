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

/// The answers about numbers, with the CLI's field names (`smskit validate --format jsonl`)
/// plus the national and international formats, written as JSON straight into the response.
enum NumberChecks {
    /// Appends the answer for one query as a JSON object; `line` is set for `check-stream`;
    /// `formats` false leaves `national` and `international` null without formatting.
    ///
    /// The object is composed in one span of `out` reserved for its largest possible size (every
    /// string escaped at 6 bytes a byte): one capacity check instead of one per field, which
    /// was a fifth of `check-stream`'s time.
    static func write(_ engine: PhoneNumberEngine, _ query: NumberQuery, line: Int? = nil, formats: Bool = true, to out: inout ByteBuffer) {
        var region: RegionCode?
        var failure: (code: String, message: String)?
        var check: PhoneNumberCheck?
        var national = "", international = ""
        if let text = query.region, !text.isEmpty, text.uppercased() != "ZZ" {
            if let code = RegionCode(text) {
                region = code
            } else {
                failure = ("invalid_region", "The region must be a two-letter ISO 3166-1 code, 001 or ZZ.")
            }
        }
        if failure == nil {
            let checked = engine.check(query.number, defaultRegion: region)
            if let number = checked.number {
                if formats {
                    national = engine.format(number, as: .national)
                    international = engine.format(number, as: .international)
                }
                check = checked
            } else {
                failure = (
                    checked.error?.code.name ?? "not_a_number", checked.error?.message ?? "The input is not a phone number."
                )
            }
        }
        let strings = query.number.utf8.count + national.utf8.count + international.utf8.count
            + (failure.map { $0.code.utf8.count + $0.message.utf8.count } ?? 0)
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: 512 + 6 * strings) { raw in
            var json = _JSONWriter(raw)
            json.write("{")
            if let line {
                json.write("\"line\":")
                json.write(decimal: line)
                json.write(",")
            }
            json.write("\"input\":")
            json.write(string: query.number)
            if let failure {
                json.write(",\"ok\":false,\"error\":")
                json.write(string: failure.code)
                json.write(",\"error_message\":")
                json.write(string: failure.message)
                json.write(
                    ",\"e164\":null,\"national\":null,\"international\":null,\"possible\":null,\"valid\":false,\"type\":null,\"region\":null,\"fictional\":null}"
                )
                return json.count
            }
            guard let check else { return json.count }  // not reached: no failure means a check
            json.write(",\"ok\":true,\"error\":null,\"error_message\":null,\"e164\":")
            json.write(optional: check.e164)
            json.write(",\"national\":")
            json.write(optional: formats ? national : nil)
            json.write(",\"international\":")
            json.write(optional: formats ? international : nil)
            json.write(",\"possible\":")
            json.write(optional: check.possibility?.rawValue)
            json.write(check.isValid ? ",\"valid\":true,\"type\":" : ",\"valid\":false,\"type\":")
            json.write(string: check.type.rawValue)
            json.write(",\"region\":")
            json.write(optional: check.region?.identifier)
            json.write(",\"fictional\":")
            json.write(optional: check.fictional?.kind.rawValue)
            json.write("}")
            return json.count
        }
    }
}

/// Writes JSON text into a span the caller reserved large enough (`NumberChecks.write`).
struct _JSONWriter {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    @inline(__always)
    mutating func write(byte: UInt8) {
        precondition(count < capacity, "JSON span too small")
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(raw: $0) }
    }

    mutating func write(raw bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= capacity, "JSON span too small")
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count &+= bytes.count
    }

    mutating func write(decimal value: Int) {
        var text = String(value)
        text.withUTF8 { write(raw: $0) }
    }

    /// A quoted JSON string, or `null`.
    mutating func write(optional text: String?) {
        if let text { write(string: text) } else { write("null") }
    }

    /// A quoted JSON string (``JSONEscaping``).
    mutating func write(string text: String) {
        var text = text
        text.withUTF8 { bytes in
            precondition(count + JSONEscaping.maximumQuotedCount(bytes.count) <= capacity, "JSON span too small")
            count &+= JSONEscaping.writeQuoted(bytes, to: (base + count).assumingMemoryBound(to: UInt8.self))
        }
    }
}
