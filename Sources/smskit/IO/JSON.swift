/// A small JSON value with ordered keys, for the `--format json` output of `parse`, `render` and
/// `segments` (field order is part of the output contract, so no dictionary encoding).
enum _JSON {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([_JSON])
    case object([(String, _JSON)])

    /// `.string` or `.null`.
    static func optional(_ value: String?) -> _JSON { value.map { .string($0) } ?? .null }

    /// Pretty-printed with two-space indentation and a final newline.
    var rendered: String {
        var out: [UInt8] = []
        render(into: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    private func render(into out: inout [UInt8], indent: Int) {
        switch self {
        case .string(let text): _JSONText.appendString(text, to: &out)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent + 1)
                item.render(into: &out, indent: indent + 1)
            }
            Self.newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            if fields.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent + 1)
                _JSONText.appendString(key, to: &out)
                out.append(contentsOf: ": ".utf8)
                value.render(into: &out, indent: indent + 1)
            }
            Self.newline(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<(indent * 2) { out.append(UInt8(ascii: " ")) }
    }
}

/// JSON string escaping for the `_JSON` documents, by the record writer's escaper.
enum _JSONText {
    /// Appends `"text"` with JSON escapes (quote, backslash, control characters).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(bytes: $0, to: &out) }
    }

    /// Appends a quoted JSON string from valid UTF-8 bytes.
    static func appendString(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // At most 6 bytes per input byte (\u00XX), plus the quotes.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 6 + 2) { buffer in
            var writer = _ByteWriter(buffer.baseAddress!)
            writer.jsonString(bytes)
            out.append(contentsOf: writer.written)
        }
    }
}
