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
        writeInteger(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                switch byte {
                case UInt8(ascii: "\""): writeStaticString("\\\"")
                case UInt8(ascii: "\\"): writeStaticString("\\\\")
                case UInt8(ascii: "\n"): writeStaticString("\\n")
                case UInt8(ascii: "\r"): writeStaticString("\\r")
                case UInt8(ascii: "\t"): writeStaticString("\\t")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    writeStaticString("\\u00")
                    writeInteger(hex[Int(byte >> 4)])
                    writeInteger(hex[Int(byte & 0x0F)])
                }
                start = index + 1
            }
            if start < bytes.count { writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
        }
        writeInteger(UInt8(ascii: "\""))
    }
}
