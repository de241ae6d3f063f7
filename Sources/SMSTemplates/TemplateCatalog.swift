/// The messages of one locale: ICU MessageFormat patterns with named arguments, by message ID.
///
/// A catalog is parsed from the line format described in `Resources/Catalogs/README.md`
/// (`id = pattern`, `#` comments, `\n` and `\\` escapes). Every pattern is compiled by ICU while
/// parsing, so a syntax error is reported at load time with its file, message ID, line and column.
/// The four well-known messages are also checked for their arguments: `verification_code` must use
/// `{code}` and may use only `{code}` and `{appName}`.
///
/// ```swift
/// let catalog = try TemplateCatalog(parsing: """
///     verification_code = {appName}: your code is {code}
///     password_reset = {appName}: reset your password with {code}
///     """, locale: "en-GB", file: "en-GB.txt")
/// let renderer = try SMSTemplateRenderer(catalogs: [catalog])
/// ```
public struct TemplateCatalog: Sendable {
    /// One message and where it came from.
    public struct Message: Sendable, Hashable {
        /// The ICU MessageFormat pattern, escapes resolved.
        public var pattern: String
        /// The file it was read from (or the name given to `init(parsing:locale:file:)`).
        public var file: String
        /// The 1-based line of the message in the file.
        public var line: Int
        /// The 1-based column (in Unicode scalars) where the pattern starts.
        public var column: Int
        /// For each UTF-16 offset in `pattern`, the file column it came from (escapes are two columns wide).
        var columns: [Int]

        /// The file column of a UTF-16 offset into the pattern.
        func column(ofUTF16Offset offset: Int) -> Int {
            guard !columns.isEmpty else { return column }
            return columns[max(0, min(offset, columns.count - 1))]
        }
    }

    /// The catalog's locale as a canonical BCP 47 tag, e.g. `"pt-BR"` or `"zh-Hant"`.
    public let locale: String
    /// The ICU locale ID the patterns are compiled for, e.g. `"pt_BR"`.
    let localeID: String
    /// The matching key (see `_LocaleKey`).
    let key: String
    /// The messages by ID.
    public internal(set) var messages: [MessageID: Message]
    /// Segment budgets declared with `# @budget ID SEGMENTS` (see `segmentBudget(for:)`).
    public internal(set) var segmentBudgets: [MessageID: Int] = [:]
    /// Translator notes declared with `# @description ID TEXT` (see `messageDescription(for:)`).
    public internal(set) var messageDescriptions: [MessageID: String] = [:]

    /// The message IDs in this catalog, sorted.
    public var messageIDs: [MessageID] { messages.keys.sorted() }

    /// Parses a catalog.
    ///
    /// - Parameters:
    ///   - text: The catalog text, one `id = pattern` per line.
    ///   - locale: The catalog's locale as a BCP 47 tag (`"pt-BR"`; `"pt_BR"` is accepted).
    ///   - file: A name for the source, used in errors (default `"<memory>"`).
    /// - Throws: `TemplateError` with `.invalidLocale`, `.catalogSyntax`, `.duplicateMessage`,
    ///   `.patternSyntax` (a plain-language reason and the character at fault), `.unsupportedArgument`,
    ///   `.catalogArgument`, `.missingPluralCategory` (a plural without a category the locale's
    ///   CLDR rules need, e.g. Polish `few` and `many`) or `.overBudget` (a `# @budget` the worst
    ///   case goes over); it names the file, message ID, line and column.
    /// - Complexity: O(*n*) in the text's length, plus one ICU compilation per message.
    public init(parsing text: String, locale: String, file: String = "<memory>") throws(TemplateError) {
        try self.init(parsing: text, locale: locale, file: file, validate: true)
    }

    init(parsing text: String, locale: String, file: String, validate: Bool) throws(TemplateError) {
        guard let id = _ICU.canonicalize(locale), let tag = _ICU.languageTag(id), let key = _LocaleKey.catalogKey(forLocaleID: id) else {
            throw TemplateError(code: .invalidLocale,
                message: "'\(locale.prefix(64))' is not a BCP 47 locale tag; name catalog files like pt-BR.txt or zh-Hant.txt",
                file: file)
        }
        self.locale = tag
        self.localeID = id.split(separator: "@", maxSplits: 1)[0].description
        self.key = key
        self.messages = [:]

        var lineNumber = 0
        var directives: [(directive: Directive, line: Int)] = []
        // "\r\n" is one Character in Swift, so split on both forms of line end.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if let directive = try Self.parseDirective(rawLine, lineNumber: lineNumber, file: file, strict: validate) {
                directives.append((directive, lineNumber))
                continue
            }
            let message = try Self.parseLine(rawLine, lineNumber: lineNumber, file: file)
            guard let (messageID, entry) = message else { continue }
            if let previous = messages[messageID] {
                throw TemplateError(code: .duplicateMessage,
                    message: "defined twice; the first definition is on line \(previous.line)",
                    file: file, messageID: messageID, line: lineNumber, column: 1)
            }
            if validate { try Self.validate(entry, id: messageID, localeID: self.localeID) }
            messages[messageID] = entry
        }
        for (directive, line) in directives {
            switch directive {
            case .budget(let id, let segments):
                guard messages[id] != nil || !validate else {
                    throw TemplateError(code: .catalogSyntax, message: "@budget names \(id), which this catalog does not define",
                                        file: file, messageID: id, line: line, column: 1)
                }
                segmentBudgets[id] = segments
            case .description(let id, let text):
                messageDescriptions[id] = text
            }
        }
        if validate { try checkBudgets(file: file) }
    }

    /// A metadata comment: `# @budget ID SEGMENTS` or `# @description ID TEXT`.
    enum Directive {
        case budget(MessageID, Int)
        case description(MessageID, String)
    }

    /// The largest segment budget a catalog may declare (a concatenated SMS has at most 255 parts).
    static let maximumBudget = 255

    /// Parses a `# @` directive line; nil for any other line. Ordinary comments never start with `# @`.
    static func parseDirective(_ rawLine: Substring, lineNumber: Int, file: String, strict: Bool) throws(TemplateError) -> Directive? {
        var line = rawLine
        if line.last == "\r" { line = line.dropLast() }
        guard line.hasPrefix("# @") else { return nil }
        let body = line.dropFirst(3)
        let keyword = body.prefix(while: { $0 != " " })
        let rest = body.dropFirst(keyword.count).drop(while: { $0 == " " })
        let idText = rest.prefix(while: { $0 != " " })
        let value = rest.dropFirst(idText.count).drop(while: { $0 == " " })
        func fail(_ message: String, column: Int = 3) -> TemplateError {
            TemplateError(code: .catalogSyntax, message: message, file: file, line: lineNumber, column: column)
        }
        let idColumn = 4 + keyword.count + (body.count - keyword.count - rest.count)
        switch keyword {
        case "budget", "description":
            guard let id = MessageID(rawValue: String(idText)) else {
                guard strict else { return nil }
                throw fail("'# @\(keyword)' needs a message ID after it, e.g. '# @\(keyword) verification_code \(keyword == "budget" ? "1" : "text")'",
                           column: idColumn)
            }
            if keyword == "budget" {
                guard let segments = Int(value), (1...maximumBudget).contains(segments) else {
                    guard strict else { return nil }
                    throw fail("the budget of \(id) must be a number of SMS segments from 1 to \(maximumBudget); got '\(value.prefix(16))'",
                               column: idColumn + idText.count + 1)
                }
                return .budget(id, segments)
            }
            guard !value.isEmpty else {
                guard strict else { return nil }
                throw fail("'# @description \(id)' needs the text of the description", column: idColumn)
            }
            return .description(id, String(value.prefix(1000)))
        default:
            guard strict else { return nil }
            throw fail("unknown directive '# @\(keyword.prefix(32))'; catalogs know '# @budget' and '# @description' (write '#  @' for a comment)")
        }
    }

    /// Parses one line; nil for blank and comment lines.
    static func parseLine(_ rawLine: Substring, lineNumber: Int, file: String) throws(TemplateError) -> (MessageID, Message)? {
        var line = rawLine
        if line.last == "\r" { line = line.dropLast() }
        if lineNumber == 1, line.unicodeScalars.first == "\u{FEFF}" { line = Substring(line.unicodeScalars.dropFirst()) }
        let scalars = line.unicodeScalars
        // Skip leading blanks; blank lines and comments carry nothing.
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return nil }
        if scalars[first] == "#" { return nil }

        guard let equals = scalars[first...].firstIndex(of: "=") else {
            throw TemplateError(code: .catalogSyntax, message: "expected 'id = pattern'",
                                file: file, line: lineNumber, column: scalars.distance(from: scalars.startIndex, to: first) + 1)
        }
        var idText = String(String.UnicodeScalarView(scalars[first..<equals]))
        while idText.last == " " || idText.last == "\t" { idText.removeLast() }
        guard let messageID = MessageID(rawValue: idText) else {
            throw TemplateError(code: .catalogSyntax,
                message: "'\(idText.prefix(64))' is not a message ID (ASCII letters, digits, '_', '.', '-'; at most 64)",
                file: file, line: lineNumber, column: scalars.distance(from: scalars.startIndex, to: first) + 1)
        }
        var start = scalars.index(after: equals)
        while start < scalars.endIndex, scalars[start] == " " || scalars[start] == "\t" { start = scalars.index(after: start) }
        let startColumn = scalars.distance(from: scalars.startIndex, to: start) + 1

        // Resolve escapes, recording the file column of every UTF-16 unit of the pattern.
        var pattern = String.UnicodeScalarView()
        var columns: [Int] = []
        var column = startColumn
        var index = start
        while index < scalars.endIndex {
            var scalar = scalars[index]
            let scalarColumn = column
            if scalar == "\\" {
                let next = scalars.index(after: index)
                guard next < scalars.endIndex else {
                    throw TemplateError(code: .catalogSyntax, message: "a '\\' ends the line; write '\\\\' for a backslash",
                                        file: file, messageID: messageID, line: lineNumber, column: column)
                }
                switch scalars[next] {
                case "n": scalar = "\n"
                case "\\": scalar = "\\"
                default:
                    throw TemplateError(code: .catalogSyntax,
                        message: "unknown escape '\\\(scalars[next])'; only \\n and \\\\ are escapes",
                        file: file, messageID: messageID, line: lineNumber, column: column)
                }
                index = next
                column += 1
            }
            pattern.append(scalar)
            columns.append(scalarColumn)
            if scalar.value > 0xFFFF { columns.append(scalarColumn) }
            index = scalars.index(after: index)
            column += 1
        }
        columns.append(column) // the end of the pattern
        let text = String(pattern)
        guard !text.isEmpty else {
            throw TemplateError(code: .catalogSyntax, message: "the pattern is empty",
                                file: file, messageID: messageID, line: lineNumber, column: startColumn)
        }
        return (messageID, Message(pattern: text, file: file, line: lineNumber, column: startColumn, columns: columns))
    }

    /// Compiles the pattern with ICU and checks a well-known message's arguments.
    static func validate(_ message: Message, id: MessageID, localeID: String) throws(TemplateError) {
        let compiled: _CompiledMessage
        do {
            compiled = try _CompiledMessage(pattern: message.pattern, localeID: localeID)
        } catch {
            throw compileError(error, message: message, id: id)
        }
        try checkPluralCategories(compiled, message: message, id: id, localeID: localeID)
        guard let (required, allowed) = id.knownArguments else { return }
        for argument in compiled.arguments where !allowed.contains(argument.name) {
            throw TemplateError(code: .catalogArgument,
                message: "uses {\(argument.name)}, which \(id) never receives; it may use \(allowed.map { "{\($0)}" }.joined(separator: ", "))",
                file: message.file, messageID: id, line: message.line,
                column: message.column(ofUTF16Offset: argument.offset), argument: argument.name)
        }
        for name in required where !compiled.arguments.contains(where: { $0.name == name }) {
            throw TemplateError(code: .catalogArgument,
                message: "does not use {\(name)}; every \(id) message must show it",
                file: message.file, messageID: id, line: message.line, column: message.column, argument: name)
        }
        for argument in compiled.arguments {
            let isNumber = argument.name == "minutes"
            let misused = isNumber ? argument.isSelect : argument.isNumeric
            if misused {
                throw TemplateError(code: .catalogArgument,
                    message: isNumber ? "{minutes} is a number; use {minutes}, {minutes, number} or {minutes, plural, ...}"
                                      : "{\(argument.name)} is text; it cannot be a number or plural argument",
                    file: message.file, messageID: id, line: message.line,
                    column: message.column(ofUTF16Offset: argument.offset), argument: argument.name)
            }
        }
    }

    /// CLDR's order of plural categories, for messages.
    static let categoryOrder = ["zero", "one", "two", "few", "many", "other"]

    /// Every plural or selectordinal argument must list each category the locale's CLDR rules
    /// have: a Polish `{minutes, plural, one {...} other {...}}` would write "2 minut" for
    /// "2 minuty". Exact matches (`=2`) do not stand in for a category.
    static func checkPluralCategories(_ compiled: _CompiledMessage, message: Message, id: MessageID, localeID: String) throws(TemplateError) {
        for use in compiled.pluralUses {
            guard let needed = _ICU.pluralCategories(localeID, ordinal: use.ordinal) else { continue }
            func ordered(_ list: [String]) -> String {
                list.sorted { (categoryOrder.firstIndex(of: $0) ?? 9) < (categoryOrder.firstIndex(of: $1) ?? 9) }.joined(separator: ", ")
            }
            let offset = compiled.arguments.first { $0.name == use.name }?.offset
            let column = offset.map { message.column(ofUTF16Offset: $0) } ?? message.column
            let tag = _ICU.languageTag(localeID) ?? localeID
            var seen: Set<String> = []
            for selector in use.selectors {
                guard seen.insert(selector).inserted else {
                    throw TemplateError(code: .patternSyntax,
                        message: "column \(column): the case '\(selector.prefix(32))' appears twice in {\(use.name), \(use.ordinal ? "selectordinal" : "plural")}",
                        file: message.file, messageID: id, line: message.line, column: column, argument: use.name)
                }
                // ICU accepts any word here and ignores categories the locale does not have.
                if !selector.hasPrefix("="), !needed.contains(selector) {
                    throw TemplateError(code: .patternSyntax,
                        message: "column \(column): '\(selector.prefix(32))' is not a plural category in \(tag); use \(ordered(needed)), or =N for an exact value",
                        file: message.file, messageID: id, line: message.line, column: column, argument: use.name)
                }
            }
            let missing = needed.filter { !use.selectors.contains($0) }
            guard !missing.isEmpty else { continue }
            throw TemplateError(code: .missingPluralCategory,
                message: "{\(use.name), \(use.ordinal ? "selectordinal" : "plural")} lacks the categor\(missing.count == 1 ? "y" : "ies") \(ordered(missing)); \(tag) needs \(ordered(needed)) (CLDR plural rules)",
                file: message.file, messageID: id, line: message.line,
                column: offset.map { message.column(ofUTF16Offset: $0) } ?? message.column, argument: use.name)
        }
    }

    static func compileError(_ error: _CompiledMessage.CompileError, message: Message, id: MessageID) -> TemplateError {
        guard error.reason.hasPrefix("U_") else {
            let column = error.offset.map { message.column(ofUTF16Offset: $0) } ?? message.column
            return TemplateError(code: .unsupportedArgument, message: error.reason,
                                 file: message.file, messageID: id, line: message.line, column: column)
        }
        let (offset, explanation) = Self.explainSyntaxError(error.reason, offset: error.offset, pattern: message.pattern)
        let column = offset.map { message.column(ofUTF16Offset: $0) } ?? message.column
        var shown = ""
        if let offset, let scalar = Self.scalar(atUTF16Offset: offset, in: message.pattern) {
            shown = scalar == "\n" ? " (a line break)" : " ('\(scalar)')"
        } else if offset != nil {
            shown = " (the end of the pattern)"
        }
        return TemplateError(code: .patternSyntax, message: "column \(column)\(shown): \(explanation)",
                             file: message.file, messageID: id, line: message.line, column: column)
    }

    /// The scalar at a UTF-16 offset of a pattern, nil past the end.
    static func scalar(atUTF16Offset offset: Int, in pattern: String) -> Unicode.Scalar? {
        var units = 0
        for scalar in pattern.unicodeScalars {
            if units >= offset { return scalar }
            units += scalar.utf16.count
        }
        return nil
    }

    /// A plain-language reason for an ICU pattern error, and the UTF-16 offset of the character
    /// at fault (for braces, the `{` that is never closed or the `}` that closes nothing).
    static func explainSyntaxError(_ name: String, offset: Int?, pattern: String) -> (Int?, String) {
        switch name {
        case "U_UNMATCHED_BRACES":
            // Brace balance outside ICU quoting ('{...}' is literal; '' is an apostrophe).
            var open: [Int] = []
            var quoted = false
            var units = 0
            let scalars = Array(pattern.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                defer { units += scalar.utf16.count }
                if scalar == "'" {
                    let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                    if quoted { quoted = false; continue }
                    if next == "'" { continue }
                    if next == "{" || next == "}" || next == "#" || next == "|" { quoted = true }
                    continue
                }
                if quoted { continue }
                if scalar == "{" { open.append(units) }
                if scalar == "}" {
                    if open.isEmpty { return (units, "this '}' closes nothing; write '}' (with apostrophes) for a literal brace") }
                    open.removeLast()
                }
            }
            if let first = open.last {
                return (first, "this '{' is never closed: every {argument} needs its '}'")
            }
            return (offset, "the braces do not match: every '{' needs a '}'")
        case "U_DEFAULT_KEYWORD_MISSING":
            return (offset, "a plural or select needs an 'other {...}' case, used for every value the others do not cover")
        case "U_DUPLICATE_KEYWORD":
            return (offset, "this case appears twice in the same plural or select")
        case "U_UNDEFINED_KEYWORD":
            return (offset, "not a plural category: use zero, one, two, few, many, other, or =N for an exact value")
        case "U_ARGUMENT_TYPE_MISMATCH":
            return (offset, "arguments must all be names such as {code}, not numbers")
        case "U_NUMBER_SKELETON_SYNTAX_ERROR":
            return (offset, "the number skeleton after '::' is not valid (e.g. {minutes, number, ::integer})")
        case "U_INDEX_OUTOFBOUNDS_ERROR":
            return (offset, "the pattern is too long or nested too deeply")
        default:
            return (offset, "unexpected character here: an argument is {name}, {name, number}, {name, plural, one {...} other {...}} or {name, select, ... other {...}}; write '' for an apostrophe before { or }")
        }
    }

    /// The pattern of a message, if the catalog has it.
    public func pattern(for id: MessageID) -> String? { messages[id]?.pattern }

    /// The segment budget the catalog declares for a message with `# @budget ID SEGMENTS`.
    ///
    /// A renderer warns when a rendered message needs more segments than its budget (the
    /// render options' `segmentBudget` wins; a message without one takes the default locale's).
    public func segmentBudget(for id: MessageID) -> Int? { segmentBudgets[id] }

    /// The translator note the catalog declares for a message with `# @description ID TEXT`.
    public func messageDescription(for id: MessageID) -> String? { messageDescriptions[id] }

    /// Returns this catalog with `other`'s messages added, replacing messages with the same ID.
    func merging(_ other: TemplateCatalog) -> TemplateCatalog {
        var result = self
        for (id, message) in other.messages { result.messages[id] = message }
        for (id, budget) in other.segmentBudgets { result.segmentBudgets[id] = budget }
        for (id, text) in other.messageDescriptions { result.messageDescriptions[id] = text }
        return result
    }
}
