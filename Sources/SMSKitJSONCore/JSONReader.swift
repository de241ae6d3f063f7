/// A strict JSON reader that keeps object keys in order, for files whose order is their meaning
/// (an ARB file lists a catalog's messages in order). Not for the service's requests, which are
/// typed documents decoded with their own limits.
///
/// Bounded for input from anyone: nesting deeper than ``maximumDepth`` and more than
/// ``maximumValues`` values are refused, so memory stays a small multiple of the input's size.
/// Only JSON is accepted (RFC 8259): no comments, no trailing commas, no control characters in
/// strings, no lone surrogates, no escapes other than JSON's.
package enum JSONReader {
    /// A parsed value. Numbers keep their double value; object fields keep their order and
    /// repeated keys.
    package indirect enum Value: Sendable, Equatable {
        case string(String), number(Double), bool(Bool), null, array([Value]), object([(String, Value)])

        package static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.bool(let a), .bool(let b)): a == b
            case (.null, .null): true
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: false
            }
        }

        /// The strings of an array, other items skipped; empty for anything else.
        package var strings: [String] {
            guard case .array(let items) = self else { return [] }
            return items.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
        }
    }

    /// Why a text is not JSON, and the byte offset where reading stopped.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        package var offset: Int
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Arrays and objects nested deeper than this are refused (the reader recurses once a level).
    package static let maximumDepth = 32
    /// The most values one text may hold.
    package static let maximumValues = 1 << 18

    /// Parses one JSON value that fills the whole text (whitespace around it allowed).
    ///
    /// - Throws: ``Failure`` for anything that is not JSON or goes over a bound.
    package static func parse(_ text: String) throws(Failure) -> Value {
        var reader = _Reader(bytes: Array(text.utf8))
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.fail("text after the end") }
        return value
    }
}

private struct _Reader {
    let bytes: [UInt8]
    var index = 0
    var values = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ reason: String) -> JSONReader.Failure { .init(reason: reason, offset: index) }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func value(depth: Int) throws(JSONReader.Failure) -> JSONReader.Value {
        guard depth < JSONReader.maximumDepth else { throw fail("nested too deeply") }
        values += 1
        guard values <= JSONReader.maximumValues else { throw fail("more than \(JSONReader.maximumValues) values") }
        skipSpace()
        guard index < bytes.count else { throw fail("the text ends early") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "{"):
            index += 1
            var fields: [(String, JSONReader.Value)] = []
            skipSpace()
            if expect(UInt8(ascii: "}")) { return .object(fields) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard expect(UInt8(ascii: ":")) else { throw fail("expected ':'") }
                fields.append((key, try value(depth: depth + 1)))
                skipSpace()
                if expect(UInt8(ascii: ",")) { continue }
                if expect(UInt8(ascii: "}")) { return .object(fields) }
                throw fail(index < bytes.count ? "expected ',' or '}'" : "an object is not closed")
            }
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONReader.Value] = []
            skipSpace()
            if expect(UInt8(ascii: "]")) { return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                if expect(UInt8(ascii: ",")) { continue }
                if expect(UInt8(ascii: "]")) { return .array(items) }
                throw fail(index < bytes.count ? "expected ',' or ']'" : "an array is not closed")
            }
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default: return .number(try number())
        }
    }

    mutating func word(_ text: StaticString, _ value: JSONReader.Value) throws(JSONReader.Failure) -> JSONReader.Value {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count,
              (0..<count).allSatisfy({ bytes[index + $0] == text.utf8Start[$0] }) else { throw fail("unexpected text") }
        index += count
        return value
    }

    /// JSON's number grammar, checked byte by byte (so no `nan`, `inf`, hex or leading `+`).
    mutating func number() throws(JSONReader.Failure) -> Double {
        let start = index
        func digits(_ reader: inout _Reader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                reader.index += 1
            }
            return reader.index - from
        }
        _ = expect(UInt8(ascii: "-"))
        let integer = digits(&self)
        guard integer > 0 else { index = start; throw fail("unexpected text") }
        guard integer == 1 || bytes[index - integer] != UInt8(ascii: "0") else { throw fail("a number has a leading zero") }
        if expect(UInt8(ascii: ".")) {
            guard digits(&self) > 0 else { throw fail("a number has no digits after '.'") }
        }
        if expect(UInt8(ascii: "e")) || expect(UInt8(ascii: "E")) {
            if !expect(UInt8(ascii: "+")) { _ = expect(UInt8(ascii: "-")) }
            guard digits(&self) > 0 else { throw fail("a number has no exponent digits") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw fail("a number is out of range")
        }
        return value
    }

    mutating func string() throws(JSONReader.Failure) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("a string is not closed") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // The text is a Swift string (valid UTF-8) and escapes add whole scalars.
                return String(decoding: out, as: UTF8.self)
            case 0..<0x20:
                throw fail("a control character in a string must be escaped")
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("an escape ends the text") }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(bytes[index])
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var value = try hex()
                    if (0xD800..<0xDC00).contains(value) {
                        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u") else {
                            throw fail("a \\u escape is a lone surrogate")
                        }
                        index += 2
                        let low = try hex()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a \\u escape is a lone surrogate") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw fail("a \\u escape is a lone surrogate") }
                    out.append(contentsOf: String(scalar).utf8)
                default:
                    throw fail("an escape is not one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                }
                index += 1
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    /// The four hex digits after `\u`; leaves `index` on the last one.
    mutating func hex() throws(JSONReader.Failure) -> UInt32 {
        guard index + 4 < bytes.count else { throw fail("a \\u escape needs 4 hex digits") }
        var value: UInt32 = 0
        for offset in 1...4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
