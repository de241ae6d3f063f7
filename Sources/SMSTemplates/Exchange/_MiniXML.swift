/// The little XML that XLIFF needs: elements, attributes, text, the predefined and numeric
/// entities, CDATA, comments, processing instructions.
///
/// No DTD is processed (a document with one is refused), so no entity is ever defined or
/// expanded beyond the five XML predefines: no billion laughs, no external entities. Nesting
/// deeper than ``maximumDepth`` and more than ``maximumElements`` elements are refused, so memory
/// stays a small multiple of the input's size.
enum _MiniXML {
    final class Element {
        let name: String
        var attributes: [String: String] = [:]
        var children: [Element] = []
        var text = ""
        init(name: String) { self.name = name }

        func child(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    struct Failure: Error {
        var reason: String
    }

    static let maximumDepth = 32
    static let maximumElements = 1 << 16

    static func parse(_ source: String) throws(Failure) -> Element {
        var parser = _Parser(scalars: Array(source.unicodeScalars))
        return try parser.document()
    }

    /// `slr:sizeRestriction` → `sizeRestriction`: namespaces are told apart by local name only.
    static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}

private struct _Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var elements = 0

    init(scalars: [Unicode.Scalar]) { s = scalars }

    func fail(_ why: String) -> _MiniXML.Failure { .init(reason: why) }

    func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= s.count else { return false }
        for k in 0..<count where s[i + k].value != UInt32(text.utf8Start[k]) { return false }
        return true
    }

    /// The text up to `end` (ASCII), and moves past `end`.
    mutating func skip(until end: StaticString) throws(_MiniXML.Failure) -> String {
        let start = i
        while i < s.count, !starts(end) { i += 1 }
        guard i < s.count else { throw fail("'\(end)' is missing") }
        let body = String(String.UnicodeScalarView(s[start..<i]))
        i += end.utf8CodeUnitCount
        return body
    }

    mutating func skipSpace() {
        while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" { i += 1 }
    }

    static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c.properties.numericType != nil || c == ":" || c == "_" || c == "-" || c == "."
    }

    mutating func name() -> String {
        let start = i
        while i < s.count, Self.isNameScalar(s[i]) { i += 1 }
        return String(String.UnicodeScalarView(s[start..<i]))
    }

    func decode(_ raw: String) throws(_MiniXML.Failure) -> String {
        var out = ""
        var scalars = raw.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "&" else { out.unicodeScalars.append(scalar); continue }
            guard let semicolon = scalars.prefix(11).firstIndex(of: ";") else { throw fail("an '&' is not an entity") }
            let name = String(String.UnicodeScalarView(scalars[..<semicolon]))
            scalars = scalars[scalars.index(after: semicolon)...]
            switch name {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                // XML 1.0 allows no reference to NUL or the C0 controls other than tab and line ends.
                guard let number, number >= 0x20 || number == 0x09 || number == 0x0A || number == 0x0D,
                      let value = Unicode.Scalar(number) else {
                    throw fail("unknown entity '&\(name.prefix(10));'")
                }
                out.unicodeScalars.append(value)
            }
        }
        return out
    }

    mutating func document() throws(_MiniXML.Failure) -> _MiniXML.Element {
        var stack: [_MiniXML.Element] = []
        var root: _MiniXML.Element?
        if s.first == "\u{FEFF}" { i = 1 }  // a byte order mark, as some tools write
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
                let closing = name()
                _ = try skip(until: ">")
                guard let open = stack.popLast(), open.name == _MiniXML.local(closing) else {
                    throw fail("</\(closing.prefix(32))> closes nothing")
                }
                continue
            }
            if s[i] == "<" {
                i += 1
                let tag = name()
                guard !tag.isEmpty else { throw fail("a '<' is not a tag") }
                let element = _MiniXML.Element(name: _MiniXML.local(tag))
                while true {
                    skipSpace()
                    guard i < s.count else { throw fail("a tag is not closed") }
                    if starts("/>") || s[i] == ">" { break }
                    let attribute = name()
                    skipSpace()
                    guard !attribute.isEmpty, i < s.count, s[i] == "=" else { throw fail("an attribute has no value") }
                    i += 1
                    skipSpace()
                    guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw fail("an attribute value is not quoted") }
                    let quote = s[i]
                    i += 1
                    let start = i
                    while i < s.count, s[i] != quote { i += 1 }
                    guard i < s.count else { throw fail("an attribute value is not closed") }
                    element.attributes[_MiniXML.local(attribute)] = try decode(String(String.UnicodeScalarView(s[start..<i])))
                    i += 1
                }
                if stack.count >= _MiniXML.maximumDepth { throw fail("elements nested too deeply") }
                elements += 1
                if elements > _MiniXML.maximumElements { throw fail("more than \(_MiniXML.maximumElements) elements") }
                stack.last?.children.append(element)
                if root == nil { root = element } else if stack.isEmpty { throw fail("more than one root element") }
                if starts("/>") { i += 2 } else { i += 1; stack.append(element) }
                continue
            }
            let start = i
            while i < s.count, s[i] != "<" { i += 1 }
            let text = try decode(String(String.UnicodeScalarView(s[start..<i])))
            if let open = stack.last {
                open.text += text
            } else if text.unicodeScalars.contains(where: { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }) {
                throw fail("text outside the root element")
            }
        }
        guard stack.isEmpty, let root else { throw fail("the document ends inside an element") }
        return root
    }
}
