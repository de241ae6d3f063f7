import SMSKitJSONCore

/// ARB for catalogs: `"@@locale"`, each message as a key with its `@`-metadata after it
/// (description, placeholders, the budget in segments and units, the worst case), the catalog's
/// other lines as `x-smskit-lines-*`, pretty-printed in the catalog's order.
enum _ARB {
    static func write(_ document: _ExchangeDocument, metadata: (String) -> _ExchangeMetadata) -> String {
        var fields: [(String, JSONValue)] = [("@@locale", .string(document.locale))]
        for entry in document.entries {
            let meta = metadata(entry.id)
            fields.append((entry.id, .string(entry.pattern)))
            var info: [(String, JSONValue)] = []
            if let description = meta.description { info.append(("description", .string(description))) }
            if !meta.arguments.isEmpty {
                info.append(("placeholders", .object(meta.arguments.map { argument in
                    (argument.name, .object([("type", .string(argument.isNumber ? "int" : "String")),
                                             ("example", .string(_ExchangeMetadata.example(argument)))]))
                })))
            }
            if let budget = meta.budget {
                let units = TemplateCatalog.unitBudget(segments: budget)
                info.append(("x-smskit-budget-segments", .int(budget)))
                info.append(("x-smskit-budget-units", .object([("gsm7", .int(units.gsm7)), ("ucs2", .int(units.ucs2)),
                                                               ("note", .string(_ExchangeMetadata.budgetNote(budget)))])))
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

    /// The document an ARB file carries: every key not starting with `@` is a message, in order;
    /// `@`-metadata is read only for the lines an export left.
    static func read(_ text: String, file: String?) throws(TemplateError) -> _ExchangeDocument {
        func fail(_ reason: String) -> TemplateError { TemplateError(code: .exchangeSyntax, message: reason, file: file) }
        let root: JSONReader.Value
        do { root = try JSONReader.parse(text) } catch { throw fail("the ARB file is not valid JSON: \(error)") }
        guard case .object(let fields) = root else { throw fail("an ARB file is a JSON object") }
        var locale: String?
        var linesAfter: [String] = []
        var entries: [_ExchangeDocument.Entry] = []
        var linesBefore: [String: [String]] = [:]
        for (key, value) in fields {
            if key == "@@locale", case .string(let tag) = value { locale = tag; continue }
            if key == "@@x-smskit-lines-after" { linesAfter = value.strings; continue }
            if key.hasPrefix("@") {
                if case .object(let info) = value {
                    linesBefore[String(key.dropFirst())] = info.first { $0.0 == "x-smskit-lines-before" }?.1.strings ?? []
                }
                continue
            }
            guard case .string(let pattern) = value else { throw fail("the value of \(key.prefix(64)) is not a string") }
            entries.append(.init(id: key, pattern: pattern, linesBefore: []))
        }
        guard let locale, !locale.isEmpty else { throw fail("the ARB file has no \"@@locale\"") }
        for index in entries.indices {
            entries[index].linesBefore = linesBefore[entries[index].id] ?? []
        }
        return _ExchangeDocument(locale: locale, entries: entries, linesAfter: linesAfter)
    }
}
