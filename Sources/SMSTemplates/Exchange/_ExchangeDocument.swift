import SMSEncoding

/// A catalog file split into messages and the lines around them, the shape both exchange formats
/// carry: every line that is not a message (comments, blank lines, `# @` directives) travels with
/// the message after it (or at the end of the file), so `import(export(file)) == file` byte for byte.
struct _ExchangeDocument: Equatable {
    struct Entry: Equatable {
        /// As the file has it: an import may carry an ID that is no message ID, which loading refuses.
        var id: String
        /// The pattern with escapes resolved (`\n` is a line break).
        var pattern: String
        /// The raw lines (comments, blanks, directives) just before the message.
        var linesBefore: [String]
    }

    var locale: String
    var entries: [Entry]
    var linesAfter: [String]

    /// The catalog's lines as the loader reads them (``TemplateCatalog/sourceLines(of:file:)``):
    /// one parser, so an escape the loader refuses is refused here too.
    init(catalogText text: String, locale: String, file: String) throws(TemplateError) {
        var entries: [Entry] = []
        var pending: [String] = []
        for line in try TemplateCatalog.sourceLines(of: text, file: file) {
            switch line {
            case .other(let raw):
                pending.append(raw)
            case .message(let id, let pattern):
                entries.append(Entry(id: id.rawValue, pattern: pattern, linesBefore: pending))
                pending = []
            }
        }
        self.init(locale: locale, entries: entries, linesAfter: pending)
    }

    init(locale: String, entries: [Entry], linesAfter: [String]) {
        self.locale = locale
        self.entries = entries
        self.linesAfter = linesAfter
    }

    /// The catalog file: the lines around each message and its line, as ``TemplateCatalog/sourceLine(id:pattern:)`` writes it.
    var catalogText: String {
        var lines: [String] = []
        for entry in entries {
            lines += entry.linesBefore
            // An ID that is not a message ID is written as it came; loading the result refuses it.
            lines.append(MessageID(rawValue: entry.id).map { TemplateCatalog.sourceLine(id: $0, pattern: entry.pattern) }
                         ?? "\(entry.id) = \(entry.pattern)")
        }
        lines += linesAfter
        return lines.joined(separator: "\n")
    }
}

/// What a translator is told about one message: from the exported catalog, else the source (English).
struct _ExchangeMetadata {
    struct WorstCase {
        var text: String
        var encoding: SMSCharacterEncoding
        /// Units before the WebOTP line, in `encoding`.
        var unitsBeforeLine: Int
    }

    var source: String
    var description: String?
    var budget: Int?
    var arguments: [(name: String, isNumber: Bool)]
    /// The message's largest rendering in the budget's worst case (WebOTP line included).
    var worstCase: WorstCase?

    static let empty = _ExchangeMetadata(source: "", description: nil, budget: nil, arguments: [], worstCase: nil)

    /// Per message: the source catalog's text (else the message's own), the description and
    /// budget of the exported catalog (else the source's), and the exported catalog's arguments
    /// and worst case.
    static func lookup(catalog own: TemplateCatalog, source: TemplateCatalog?) -> (String) -> _ExchangeMetadata {
        { id in
            guard let messageID = MessageID(rawValue: id) else { return .empty }
            return _ExchangeMetadata(
                source: source?.pattern(for: messageID) ?? own.pattern(for: messageID) ?? "",
                description: own.messageDescription(for: messageID) ?? source?.messageDescription(for: messageID),
                budget: own.segmentBudget(for: messageID) ?? source?.segmentBudget(for: messageID),
                arguments: own.arguments(of: messageID),
                worstCase: worstCase(of: messageID, in: own))
        }
    }

    static func worstCase(of id: MessageID, in catalog: TemplateCatalog) -> WorstCase? {
        guard let worst = try? catalog.worstCaseRendering(of: id) else { return nil }
        let measured = SMSEncoder().measure(worst.text)
        let line = worst.text.contains("\n@") ? TemplateCatalog.worstCaseWebOTPLineUnits : 0
        return WorstCase(text: worst.text, encoding: measured.encoding, unitsBeforeLine: measured.length - line)
    }

    /// An example value a translator can picture for an argument.
    static func example(_ argument: (name: String, isNumber: Bool)) -> String {
        argument.name == "code" ? "123456" : argument.name == "appName" ? "Acme" : argument.isNumber ? "10" : "text"
    }

    /// The budget a translator must meet, in words: units before the WebOTP line in each encoding.
    static func budgetNote(_ budget: Int) -> String {
        let units = TemplateCatalog.unitBudget(segments: budget)
        return "At most \(budget) SMS segment\(budget == 1 ? "" : "s") with the WebOTP line on the last line: \(units.gsm7) GSM-7 characters, or \(units.ucs2) UCS-2 units if any character is outside GSM-7, before that line, with a 12-character app name, a 6-digit code and every number up to 120."
    }

    /// The worst case, in words, for the reviewer: how many units it takes now and the text.
    static func worstCaseNote(_ worst: WorstCase, budget: Int?) -> String {
        let units = TemplateCatalog.unitBudget(segments: budget ?? 1)
        let limit = worst.encoding == .gsm7 ? units.gsm7 : units.ucs2
        return "Worst case: \(worst.unitsBeforeLine) of \(limit) \(worst.encoding == .gsm7 ? "GSM-7" : "UCS-2") units before the WebOTP line: \(worst.text)"
    }
}
