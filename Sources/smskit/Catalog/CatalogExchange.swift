import SMSEncoding
import SMSKitCommandLine
import SMSTemplates
import SMSKitJSON

/// Catalog files ⇄ XLIFF 2.0 and ARB, losslessly: every line of the catalog file that is not a
/// message (comments, blank lines, `# @` directives) travels with the message after it (or at the
/// end of the file), so `import(export(file)) == file` byte for byte.
enum _CatalogExchange {
    /// A catalog file split into messages and the lines around them.
    struct Document: Equatable {
        struct Entry: Equatable {
            var id: String
            /// The pattern with escapes resolved (`\n` is a line break).
            var pattern: String
            /// The raw lines (comments, blanks, directives) just before the message.
            var linesBefore: [String]
        }
        var locale: String
        var entries: [Entry]
        var linesAfter: [String]
    }

    static let maximumInput = 4 << 20

    // MARK: Catalog text

    /// The catalog's lines as the loader reads them (``TemplateCatalog/sourceLines(of:file:)``):
    /// one parser, so an escape the loader refuses is refused here too.
    static func document(fromCatalog text: String, locale: String) throws(TemplateError) -> Document {
        var entries: [Document.Entry] = []
        var pending: [String] = []
        for line in try TemplateCatalog.sourceLines(of: text, file: "\(locale).txt") {
            switch line {
            case .other(let raw):
                pending.append(raw)
            case .message(let id, let pattern):
                entries.append(.init(id: id.rawValue, pattern: pattern, linesBefore: pending))
                pending = []
            }
        }
        return Document(locale: locale, entries: entries, linesAfter: pending)
    }

    static func catalogText(_ document: Document) -> String {
        var lines: [String] = []
        for entry in document.entries {
            lines += entry.linesBefore
            // An ID that is not a message ID is written as it came; the import's check refuses it.
            lines.append(MessageID(rawValue: entry.id).map { TemplateCatalog.sourceLine(id: $0, pattern: entry.pattern) }
                         ?? "\(entry.id) = \(entry.pattern)")
        }
        lines += document.linesAfter
        return lines.joined(separator: "\n")
    }

    /// Translator metadata for one message: from the exported catalog, else the source (en).
    struct Metadata {
        var source: String
        var description: String?
        var budget: Int?
        var arguments: [(name: String, isNumber: Bool)]
        /// The message's largest rendering in the budget's worst case (WebOTP line included), its
        /// encoding and its units before that line.
        var worstCase: (text: String, encoding: SMSCharacterEncoding, unitsBeforeLine: Int)? = nil
    }

    /// The budget a translator must meet, in words: units before the WebOTP line in each encoding.
    static func budgetNote(_ budget: Int) -> String {
        let units = TemplateCatalog.unitBudget(segments: budget)
        return "At most \(budget) SMS segment\(budget == 1 ? "" : "s") with the WebOTP line on the last line: \(units.gsm7) GSM-7 characters, or \(units.ucs2) UCS-2 units if any character is outside GSM-7, before that line, with a 12-character app name, a 6-digit code and every number up to 120."
    }

    /// The worst case, in words, for the reviewer: how many units it takes now and the text.
    static func worstCaseNote(_ worst: (text: String, encoding: SMSCharacterEncoding, unitsBeforeLine: Int), budget: Int?) -> String {
        let units = TemplateCatalog.unitBudget(segments: budget ?? 1)
        let limit = worst.encoding == .gsm7 ? units.gsm7 : units.ucs2
        return "Worst case: \(worst.unitsBeforeLine) of \(limit) \(worst.encoding == .gsm7 ? "GSM-7" : "UCS-2") units before the WebOTP line: \(worst.text)"
    }

    /// The worst case of a message in a catalog, for the export.
    static func worstCase(of id: MessageID, in catalog: TemplateCatalog?) -> (text: String, encoding: SMSCharacterEncoding, unitsBeforeLine: Int)? {
        guard let catalog, let worst = try? catalog.worstCaseRendering(of: id) else { return nil }
        let measured = SMSEncoder().measure(worst.text)
        let line = worst.text.contains("\n@") ? TemplateCatalog.worstCaseWebOTPLineUnits : 0
        return (worst.text, measured.encoding, measured.length - line)
    }

    // MARK: XLIFF 2.0

    static func xliff(_ document: Document, metadata: (String) -> Metadata) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" version="2.0" srcLang="en" trgLang="\(xml(document.locale))">
              <file id="f1" original="\(xml(document.locale)).txt">
                <slr:profiles generalProfile="xliff:codepoints"/>

            """
        if !document.linesAfter.isEmpty {
            out += "    <notes>\n      <note category=\"smskit-lines-after\">\(xml(document.linesAfter.joined(separator: "\n")))</note>\n    </notes>\n"
        }
        for entry in document.entries {
            let meta = metadata(entry.id)
            var size = ""
            if let budget = meta.budget {
                // Units before the WebOTP line of `budget` SMS segments in the message's encoding.
                let ucs2 = entry.pattern.unicodeScalars.contains { SMSEncoder().analyze(String($0)).encoding == .ucs2 }
                let units = TemplateCatalog.unitBudget(segments: budget)
                size = " slr:sizeRestriction=\"\(ucs2 ? units.ucs2 : units.gsm7)\""
            }
            out += "    <unit id=\"\(xml(entry.id))\"\(size)>\n      <notes>\n"
            if let description = meta.description {
                out += "        <note category=\"description\">\(xml(description))</note>\n"
            }
            if let budget = meta.budget {
                out += "        <note category=\"budget\">\(xml(budgetNote(budget)))</note>\n"
            }
            if let worst = meta.worstCase {
                out += "        <note category=\"example\">\(xml(worstCaseNote(worst, budget: meta.budget)))</note>\n"
            }
            for argument in meta.arguments {
                let example = argument.name == "code" ? "123456" : argument.name == "appName" ? "Acme" : argument.isNumber ? "10" : "text"
                out += "        <note category=\"placeholder\">{\(xml(argument.name))}: \(argument.isNumber ? "a number" : "text"), e.g. \(example)</note>\n"
            }
            if !entry.linesBefore.isEmpty {
                out += "        <note category=\"smskit-lines-before\">\(xml(entry.linesBefore.joined(separator: "\n")))</note>\n"
            }
            out += "      </notes>\n      <segment>\n"
            out += "        <source>\(xml(meta.source))</source>\n"
            out += "        <target>\(xml(entry.pattern))</target>\n"
            out += "      </segment>\n    </unit>\n"
        }
        out += "  </file>\n</xliff>\n"
        return out
    }

    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func document(fromXLIFF text: String) throws(CLIError) -> Document {
        let root = try _MiniXML.parse(text)
        guard root.name == "xliff", root.attributes["version"]?.hasPrefix("2.") == true else {
            throw .failure("not an XLIFF 2 document (the root must be <xliff version=\"2.0\">)")
        }
        guard let locale = root.attributes["trgLang"], !locale.isEmpty else {
            throw .failure("the <xliff> element has no trgLang: which language is this?")
        }
        guard let file = root.children.first(where: { $0.name == "file" }) else { throw .failure("the XLIFF has no <file>") }
        func note(_ element: _MiniXML.Element?, _ category: String) -> [String] {
            guard let text = element?.children.first(where: { $0.name == "notes" })?.children
                .first(where: { $0.name == "note" && $0.attributes["category"] == category })?.text else { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var entries: [Document.Entry] = []
        for unit in file.children where unit.name == "unit" {
            guard let id = unit.attributes["id"] else { throw .failure("a <unit> has no id") }
            let segments = unit.children.filter { $0.name == "segment" }
            guard let target = segments.first?.children.first(where: { $0.name == "target" }) else {
                throw .failure("unit \(id.prefix(64)) has no <target>: translate it or remove the unit")
            }
            entries.append(.init(id: id, pattern: target.text, linesBefore: note(unit, "smskit-lines-before")))
        }
        return Document(locale: locale, entries: entries, linesAfter: note(file, "smskit-lines-after"))
    }

    // MARK: ARB

    static func arb(_ document: Document, metadata: (String) -> Metadata) -> String {
        var fields: [(String, JSONValue)] = [("@@locale", .string(document.locale))]
        for entry in document.entries {
            let meta = metadata(entry.id)
            fields.append((entry.id, .string(entry.pattern)))
            var info: [(String, JSONValue)] = []
            if let description = meta.description { info.append(("description", .string(description))) }
            if !meta.arguments.isEmpty {
                info.append(("placeholders", .object(meta.arguments.map { argument in
                    let example = argument.name == "code" ? "123456" : argument.name == "appName" ? "Acme" : argument.isNumber ? "10" : "text"
                    return (argument.name, .object([("type", .string(argument.isNumber ? "int" : "String")), ("example", .string(example))]))
                })))
            }
            if let budget = meta.budget {
                let units = TemplateCatalog.unitBudget(segments: budget)
                info.append(("x-smskit-budget-segments", .int(budget)))
                info.append(("x-smskit-budget-units", .object([("gsm7", .int(units.gsm7)), ("ucs2", .int(units.ucs2)),
                                                               ("note", .string(budgetNote(budget)))])))
            }
            if let worst = meta.worstCase {
                info.append(("x-smskit-worst-case", .object([
                    ("text", .string(worst.text)), ("encoding", .string(worst.encoding.rawValue)),
                    ("units_before_webotp_line", .int(worst.unitsBeforeLine)),
                ])))
            }
            if !entry.linesBefore.isEmpty { info.append(("x-smskit-lines-before", .array(entry.linesBefore.map { .string($0) }))) }
            fields.append(("@" + entry.id, .object(info)))
        }
        if !document.linesAfter.isEmpty { fields.append(("@@x-smskit-lines-after", .array(document.linesAfter.map { .string($0) }))) }
        return JSONValue.object(fields).rendered
    }

    static func document(fromARB text: String) throws(CLIError) -> Document {
        guard case .object(let fields) = try _MiniJSON.parse(text) else { throw .failure("an ARB file is a JSON object") }
        var locale: String?
        var linesAfter: [String] = []
        var entries: [Document.Entry] = []
        var metadata: [String: [(String, _MiniJSON.Value)]] = [:]
        for (key, value) in fields {
            if key == "@@locale", case .string(let tag) = value { locale = tag; continue }
            if key == "@@x-smskit-lines-after" { linesAfter = value.strings; continue }
            if key.hasPrefix("@") {
                if case .object(let info) = value { metadata[String(key.dropFirst())] = info }
                continue
            }
            guard case .string(let pattern) = value else { throw .failure("the value of \(key.prefix(64)) is not a string") }
            entries.append(.init(id: key, pattern: pattern, linesBefore: []))
        }
        guard let locale else { throw .failure("the ARB file has no \"@@locale\"") }
        for index in entries.indices {
            entries[index].linesBefore = metadata[entries[index].id]?.first { $0.0 == "x-smskit-lines-before" }?.1.strings ?? []
        }
        return Document(locale: locale, entries: entries, linesAfter: linesAfter)
    }
}

/// The little XML XLIFF needs: elements, attributes, text, entities, CDATA, comments. No DTDs.
enum _MiniXML {
    final class Element {
        let name: String
        var attributes: [String: String] = [:]
        var children: [Element] = []
        var text = ""
        init(name: String) { self.name = name }
    }

    static func parse(_ source: String) throws(CLIError) -> Element {
        let s = Array(source.unicodeScalars)
        var i = 0
        var stack: [Element] = []
        var root: Element?
        func fail(_ why: String) -> CLIError { .failure("the XLIFF is not well-formed XML: \(why)") }
        func starts(_ text: String) -> Bool {
            let t = Array(text.unicodeScalars)
            return i + t.count <= s.count && Array(s[i..<(i + t.count)]) == t
        }
        func skip(until text: String) throws(CLIError) -> String {
            let start = i
            while i < s.count, !starts(text) { i += 1 }
            guard i < s.count else { throw fail("'\(text)' is missing") }
            let body = String(String.UnicodeScalarView(s[start..<i]))
            i += text.unicodeScalars.count
            return body
        }
        func decode(_ raw: String) throws(CLIError) -> String {
            var out = ""
            var scalars = raw.unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                guard scalar == "&" else { out.unicodeScalars.append(scalar); continue }
                guard let semicolon = scalars.firstIndex(of: ";"), scalars.distance(from: scalars.startIndex, to: semicolon) <= 10 else {
                    throw fail("an '&' is not an entity")
                }
                let name = String(String.UnicodeScalarView(scalars[..<semicolon]))
                scalars = scalars[scalars.index(after: semicolon)...]
                switch name {
                case "amp": out += "&"
                case "lt": out += "<"
                case "gt": out += ">"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                    guard let number, let value = Unicode.Scalar(number) else { throw fail("unknown entity '&\(name.prefix(10));'") }
                    out.unicodeScalars.append(value)
                }
            }
            return out
        }
        func isNameChar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || c.properties.numericType != nil || c == ":" || c == "_" || c == "-" || c == "."
        }
        while i < s.count {
            if starts("<?") { _ = try skip(until: "?>"); continue }
            if starts("<!--") { i += 4; _ = try skip(until: "-->"); continue }
            if starts("<![CDATA[") {
                i += 9
                let body = try skip(until: "]]>")
                stack.last?.text += body
                continue
            }
            if starts("<!") { throw fail("DTDs are not accepted") }
            if starts("</") {
                i += 2
                let start = i
                while i < s.count, isNameChar(s[i]) { i += 1 }
                let name = String(String.UnicodeScalarView(s[start..<i]))
                _ = try skip(until: ">")
                guard let open = stack.popLast(), open.name == local(name) else { throw fail("</\(name.prefix(32))> closes nothing") }
                continue
            }
            if s[i] == "<" {
                i += 1
                let start = i
                while i < s.count, isNameChar(s[i]) { i += 1 }
                guard i > start else { throw fail("a '<' is not a tag") }
                let element = Element(name: local(String(String.UnicodeScalarView(s[start..<i]))))
                while true {
                    while i < s.count, s[i].properties.isWhitespace { i += 1 }
                    guard i < s.count else { throw fail("a tag is not closed") }
                    if starts("/>") || s[i] == ">" { break }
                    let nameStart = i
                    while i < s.count, isNameChar(s[i]) { i += 1 }
                    let attribute = String(String.UnicodeScalarView(s[nameStart..<i]))
                    while i < s.count, s[i].properties.isWhitespace { i += 1 }
                    guard !attribute.isEmpty, i < s.count, s[i] == "=" else { throw fail("an attribute has no value") }
                    i += 1
                    while i < s.count, s[i].properties.isWhitespace { i += 1 }
                    guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw fail("an attribute value is not quoted") }
                    let quote = String(s[i])
                    i += 1
                    element.attributes[local(attribute)] = try decode(try skip(until: quote))
                }
                if stack.count >= 32 { throw fail("elements nested too deeply") }
                stack.last?.children.append(element)
                if root == nil { root = element } else if stack.isEmpty { throw fail("more than one root element") }
                if starts("/>") { i += 2 } else { i += 1; stack.append(element) }
                continue
            }
            let start = i
            while i < s.count, s[i] != "<" { i += 1 }
            let text = try decode(String(String.UnicodeScalarView(s[start..<i])))
            if let open = stack.last { open.text += text }
        }
        guard stack.isEmpty, let root else { throw fail("the document ends inside an element") }
        return root
    }

    /// `slr:sizeRestriction` → `sizeRestriction`: namespaces are told apart by local name only.
    static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}

/// A small JSON reader that keeps object keys in order (ARB files list messages in order).
enum _MiniJSON {
    indirect enum Value {
        case string(String), number(Double), bool(Bool), null, array([Value]), object([(String, Value)])
        var strings: [String] {
            guard case .array(let items) = self else { return [] }
            return items.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
        }
    }

    static func parse(_ text: String) throws(CLIError) -> Value {
        let s = Array(text.utf8)
        var i = 0
        func fail(_ why: String) -> CLIError { .failure("the ARB file is not valid JSON: \(why) at byte \(i)") }
        func space() { while i < s.count, [0x20, 0x09, 0x0A, 0x0D].contains(s[i]) { i += 1 } }
        func string() throws(CLIError) -> String {
            i += 1
            var bytes: [UInt8] = []
            while i < s.count, s[i] != UInt8(ascii: "\"") {
                if s[i] == UInt8(ascii: "\\") {
                    i += 1
                    guard i < s.count else { throw fail("an escape ends the text") }
                    switch s[i] {
                    case UInt8(ascii: "n"): bytes.append(0x0A)
                    case UInt8(ascii: "t"): bytes.append(0x09)
                    case UInt8(ascii: "r"): bytes.append(0x0D)
                    case UInt8(ascii: "b"): bytes.append(0x08)
                    case UInt8(ascii: "f"): bytes.append(0x0C)
                    case UInt8(ascii: "u"):
                        func hex() throws(CLIError) -> UInt32 {
                            guard i + 4 < s.count, let value = UInt32(String(decoding: s[(i + 1)...(i + 4)], as: UTF8.self), radix: 16) else {
                                throw fail("a \\u escape needs 4 hex digits")
                            }
                            i += 4
                            return value
                        }
                        var value = try hex()
                        if (0xD800..<0xDC00).contains(value), i + 2 < s.count, s[i + 1] == UInt8(ascii: "\\"), s[i + 2] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex()
                            value = 0x10000 + ((value - 0xD800) << 10) + (low &- 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(value) else { throw fail("a \\u escape is not a character") }
                        bytes += Array(String(scalar).utf8)
                    default: bytes.append(s[i])
                    }
                    i += 1
                } else {
                    bytes.append(s[i])
                    i += 1
                }
            }
            guard i < s.count else { throw fail("a string is not closed") }
            i += 1
            return String(decoding: bytes, as: UTF8.self)
        }
        func value(_ depth: Int) throws(CLIError) -> Value {
            guard depth < 32 else { throw fail("nested too deeply") }
            space()
            guard i < s.count else { throw fail("the text ends early") }
            switch s[i] {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"):
                i += 1
                var fields: [(String, Value)] = []
                space()
                if i < s.count, s[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                while true {
                    space()
                    guard i < s.count, s[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    space()
                    guard i < s.count, s[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    fields.append((key, try value(depth + 1)))
                    space()
                    guard i < s.count else { throw fail("an object is not closed") }
                    if s[i] == UInt8(ascii: ",") { i += 1; continue }
                    if s[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [Value] = []
                space()
                if i < s.count, s[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    items.append(try value(depth + 1))
                    space()
                    guard i < s.count else { throw fail("an array is not closed") }
                    if s[i] == UInt8(ascii: ",") { i += 1; continue }
                    if s[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            default:
                let start = i
                while i < s.count, !([UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(s[i])) { i += 1 }
                let word = String(decoding: s[start..<i], as: UTF8.self)
                switch word {
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "null": return .null
                default:
                    guard let number = Double(word) else { throw fail("unexpected '\(word.prefix(16))'") }
                    return .number(number)
                }
            }
        }
        let result = try value(0)
        space()
        guard i == s.count else { throw fail("text after the end") }
        return result
    }
}
