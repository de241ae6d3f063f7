extension TemplateCatalog {
    /// The exact text of a bundled catalog file (`Resources/Catalogs/<locale>.txt`), for tools
    /// that export catalogs to translators' formats.
    ///
    /// ```swift
    /// let source = TemplateCatalog.bundledSource(for: "pt-BR")  // "# Portuguese (Brazil) ..."
    /// ```
    ///
    /// - Parameter locale: A bundled locale exactly as `SMSTemplateRenderer.bundledLocales` lists it.
    /// - Returns: The file's text, or nil when no bundled catalog has that name.
    public static func bundledSource(for locale: String) -> String? {
        _bundledCatalogFiles.first { $0.name == locale + ".txt" }?.contents
    }

    /// The arguments a message uses, in order of first use, and whether each is a number
    /// (`{minutes, number}`, plural or selectordinal) rather than text.
    ///
    /// ```swift
    /// catalog.arguments(of: .verificationCodeWithExpiry)
    /// // [("code", false), ("appName", false), ("minutes", true)]
    /// ```
    ///
    /// - Parameter id: The message.
    /// - Returns: The arguments, or an empty array when the catalog lacks the message or ICU
    ///   cannot compile it.
    public func arguments(of id: MessageID) -> [(name: String, isNumber: Bool)] {
        guard let message = messages[id],
              let compiled = try? _CompiledMessage(pattern: message.pattern, localeID: localeID) else { return [] }
        return compiled.arguments.map { ($0.name, $0.isNumeric) }
    }
}

extension TemplateCatalog {
    /// One line of a catalog file: a message, or any other line (comment, blank, directive) kept
    /// byte for byte.
    public enum SourceLine: Equatable, Sendable {
        /// `id = pattern`, the pattern's escapes resolved exactly as the loader resolves them.
        case message(id: MessageID, pattern: String)
        /// A line that is not a message, verbatim (without its `\n`).
        case other(String)
    }

    /// The lines of a catalog file, read by the loader's own line parser, for tools that carry a
    /// catalog to another format and back (``sourceLine(id:pattern:)`` writes a message line).
    ///
    /// ```swift
    /// try TemplateCatalog.sourceLines(of: "# Hello\nverification_code = {code}\\n")
    /// // [.other("# Hello"), .message(id: "verification_code", pattern: "{code}\n")]
    /// ```
    ///
    /// - Parameters:
    ///   - text: The catalog file's text; lines end at `\n`.
    ///   - file: The file name errors carry.
    /// - Returns: One element per line, in order.
    /// - Throws: ``TemplateError`` with ``TemplateError/Code/catalogSyntax`` and the line and column,
    ///   as loading the catalog would (an unknown escape such as `\t`, a line that is not
    ///   `id = pattern`, an empty pattern).
    public static func sourceLines(of text: String, file: String = "catalog") throws(TemplateError) -> [SourceLine] {
        var lines: [SourceLine] = []
        var lineNumber = 0
        // By scalars: "\r\n" is one Character, and a CR before the line end must stay in the line.
        for scalars in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let rawLine = Substring(scalars)
            if let (id, message) = try parseLine(rawLine, lineNumber: lineNumber, file: file) {
                lines.append(.message(id: id, pattern: message.pattern))
            } else {
                lines.append(.other(String(rawLine)))
            }
        }
        return lines
    }

    /// The catalog line of a message: `id = pattern` with `\` and line breaks escaped, which
    /// ``sourceLines(of:file:)`` (and loading) reads back as `pattern`.
    public static func sourceLine(id: MessageID, pattern: String) -> String {
        var out = "\(id.rawValue) = "
        for character in pattern.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
