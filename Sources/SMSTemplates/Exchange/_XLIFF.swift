import SMSEncoding

/// XLIFF 2.0 for catalogs: a `<unit>` per message with the English source, the translation as
/// the target, notes for the translator and the reviewer, and the size restriction module's
/// limit in units; the catalog's other lines ride in `smskit-lines-*` notes.
enum _XLIFF {
    static func write(_ document: _ExchangeDocument, metadata: (String) -> _ExchangeMetadata) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" version="2.0" srcLang="en" trgLang="\(escape(document.locale))">
              <file id="f1" original="\(escape(document.locale)).txt">
                <slr:profiles generalProfile="xliff:codepoints"/>

            """
        if !document.linesAfter.isEmpty {
            out += "    <notes>\n      <note category=\"smskit-lines-after\">\(escape(document.linesAfter.joined(separator: "\n")))</note>\n    </notes>\n"
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
            out += "    <unit id=\"\(escape(entry.id))\"\(size)>\n      <notes>\n"
            if let description = meta.description {
                out += "        <note category=\"description\">\(escape(description))</note>\n"
            }
            if let budget = meta.budget {
                out += "        <note category=\"budget\">\(escape(_ExchangeMetadata.budgetNote(budget)))</note>\n"
            }
            if let worst = meta.worstCase {
                out += "        <note category=\"example\">\(escape(_ExchangeMetadata.worstCaseNote(worst, budget: meta.budget)))</note>\n"
            }
            for argument in meta.arguments {
                out += "        <note category=\"placeholder\">{\(escape(argument.name))}: \(argument.isNumber ? "a number" : "text"), e.g. \(_ExchangeMetadata.example(argument))</note>\n"
            }
            if !entry.linesBefore.isEmpty {
                out += "        <note category=\"smskit-lines-before\">\(escape(entry.linesBefore.joined(separator: "\n")))</note>\n"
            }
            out += "      </notes>\n      <segment>\n"
            out += "        <source>\(escape(meta.source))</source>\n"
            out += "        <target>\(escape(entry.pattern))</target>\n"
            out += "      </segment>\n    </unit>\n"
        }
        out += "  </file>\n</xliff>\n"
        return out
    }

    /// Text and attribute values: markup characters as entities, and line breaks and tabs as
    /// character references, so attribute normalization cannot turn them into spaces.
    static func escape(_ text: String) -> String {
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

    /// The document an XLIFF 2 file carries: the target of each unit's first segment, and the
    /// `smskit-lines-*` notes where an export left them (a foreign file has none).
    static func read(_ text: String, file: String?) throws(TemplateError) -> _ExchangeDocument {
        func fail(_ reason: String) -> TemplateError { TemplateError(code: .exchangeSyntax, message: reason, file: file) }
        let root: _MiniXML.Element
        do { root = try _MiniXML.parse(text) } catch { throw fail("the XLIFF is not well-formed XML: \(error.reason)") }
        guard root.name == "xliff", root.attributes["version"]?.hasPrefix("2.") == true else {
            throw fail("not an XLIFF 2 document (the root must be <xliff version=\"2.0\">)")
        }
        guard let locale = root.attributes["trgLang"], !locale.isEmpty else {
            throw fail("the <xliff> element has no trgLang: which language is this?")
        }
        guard let fileElement = root.child("file") else { throw fail("the XLIFF has no <file>") }
        func note(_ element: _MiniXML.Element, _ category: String) -> [String] {
            guard let text = element.child("notes")?.children
                .first(where: { $0.name == "note" && $0.attributes["category"] == category })?.text else { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var entries: [_ExchangeDocument.Entry] = []
        for unit in fileElement.children where unit.name == "unit" {
            guard let id = unit.attributes["id"] else { throw fail("a <unit> has no id") }
            guard let target = unit.child("segment")?.child("target") else {
                throw fail("unit \(id.prefix(64)) has no <target>: translate it or remove the unit")
            }
            entries.append(.init(id: id, pattern: target.text, linesBefore: note(unit, "smskit-lines-before")))
        }
        return _ExchangeDocument(locale: locale, entries: entries, linesAfter: note(fileElement, "smskit-lines-after"))
    }
}
