import NIOCore

/// A JSON value with ordered keys, written compactly: the service's response bodies (field order
/// is part of the contract, and the hot paths write bytes without a Foundation encoder).
enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `.string` or `.null`.
    static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// Appends the value, compact, to `buffer`.
    func write(to buffer: inout ByteBuffer) {
        switch self {
        case .string(let text): buffer.writeJSONString(text)
        case .int(let value): buffer.writeString(String(value))
        case .bool(let value): buffer.writeStaticString(value ? "true" : "false")
        case .null: buffer.writeStaticString("null")
        case .array(let items):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                item.write(to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let fields):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                buffer.writeJSONString(key)
                buffer.writeInteger(UInt8(ascii: ":"))
                value.write(to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
    }

    /// The value as a buffer, with a final newline.
    var buffer: ByteBuffer {
        var buffer = ByteBuffer()
        write(to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}

extension ByteBuffer {
    /// Writes `text` as a quoted JSON string: quote, backslash and control characters escaped,
    /// everything else (valid UTF-8, as every Swift string is) as it is.
    mutating func writeJSONString(_ text: String) {
        writeWithUnsafeMutableBytes(minimumWritableBytes: 2 + 6 * text.utf8.count) { raw in
            var json = _JSONWriter(raw)
            json.write(string: text)
            return json.count
        }
    }
}
