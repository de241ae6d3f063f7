/// A JSON value with ordered keys: the documents of the CLI's `--format json` and the service's
/// response bodies (field order is part of both contracts, so no dictionary encoding, and no
/// Foundation encoder on the hot paths).
package enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `.string` or `.null`.
    package static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// Compact, without a final newline (the service's bodies and NDJSON lines).
    package func write(to out: inout [UInt8]) {
        switch self {
        case .string(let text): JSONEscaping.appendQuoted(text, to: &out)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONEscaping.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Pretty-printed with two-space indentation and a final newline (the CLI's documents).
    package var rendered: String {
        var out: [UInt8] = []
        render(into: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    private func render(into out: inout [UInt8], indent: Int) {
        switch self {
        case .string, .int, .bool, .null: write(to: &out)
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
                JSONEscaping.appendQuoted(key, to: &out)
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
