import SMSEncoding
import Synchronization

/// The immutable catalogs of a renderer and its caches, shared by every copy of the renderer.
/// Internal: not API.
///
/// Two caches, each a dictionary behind a `Mutex`:
/// - `requests`: (requested locale string, message ID, Latin-digits option) → the chosen catalog
///   message, the diagnostics of the choice and its compiled formatter: one lock and one hash on
///   the hot path. Bounded: keys longer than 64 bytes are never stored, and past `resolvedLimit`
///   entries new keys are resolved but not stored, so a stream of distinct garbage locale strings
///   cannot grow memory.
/// - `compiled`: (catalog key, message ID, numbering system) → the compiled ICU MessageFormat,
///   shared by every request string that resolves to it (`es-MX`, `es_AR`, `es-419`...). Bounded by
///   the catalogs themselves × the few numbering systems a language uses.
final class _RendererStore: Sendable {
    struct RequestKey: Hashable, Sendable {
        let locale: String
        let message: MessageID
        let latinDigits: Bool
    }

    struct CompiledKey: Hashable, Sendable {
        let catalogKey: String
        let message: MessageID
        let numberingSystem: String
    }

    /// What a (locale, message) request resolves to. A class so the hot path retains one object.
    final class Resolved: Sendable {
        let catalogKey: String
        let catalogLocale: String
        let localeID: String
        let message: TemplateCatalog.Message
        let isRightToLeft: Bool
        let requestsLatinDigits: Bool
        /// The numbering system for numbers: the requested locale's (see `_NumberingSystems`).
        let numberingSystem: String
        /// The catalog's `# @budget` for the message, else the default catalog's.
        let segmentBudget: Int?
        let diagnostics: [TemplateDiagnostic]

        init(catalogKey: String, catalogLocale: String, localeID: String, message: TemplateCatalog.Message,
             isRightToLeft: Bool, requestsLatinDigits: Bool, numberingSystem: String, segmentBudget: Int?,
             diagnostics: [TemplateDiagnostic]) {
            self.numberingSystem = numberingSystem
            self.segmentBudget = segmentBudget
            self.catalogKey = catalogKey
            self.catalogLocale = catalogLocale
            self.localeID = localeID
            self.message = message
            self.isRightToLeft = isRightToLeft
            self.requestsLatinDigits = requestsLatinDigits
            self.diagnostics = diagnostics
        }
    }

    /// A cached request: its resolution and, unless caching is disabled, its formatter.
    struct Entry: Sendable {
        let resolved: Resolved
        let compiled: _CompiledMessage?
    }

    let catalogs: [String: TemplateCatalog]
    let defaultKey: String
    let caching: SMSTemplateRenderer.Caching
    static let resolvedLimit = 4096

    private let requests = Mutex<[RequestKey: Entry]>([:])
    private let compiled = Mutex<[CompiledKey: _CompiledMessage]>([:])

    init(catalogs: [String: TemplateCatalog], defaultKey: String, caching: SMSTemplateRenderer.Caching) {
        self.catalogs = catalogs
        self.defaultKey = defaultKey
        self.caching = caching
    }

    /// The compiled message for a request, compiling and caching on first use.
    func lookup(locale: String, message id: MessageID, latinDigits: Bool) throws(TemplateError) -> (Resolved, _CompiledMessage) {
        let key = RequestKey(locale: locale, message: id, latinDigits: latinDigits)
        if let entry = requests.withLock({ $0[key] }) {
            if let compiled = entry.compiled { return (entry.resolved, compiled) }
            return (entry.resolved, try compile(entry.resolved, id: id, numberingSystem: latinDigits ? "latn" : entry.resolved.numberingSystem))
        }
        let resolution = try resolve(locale: locale, message: id)
        let numbers = latinDigits ? "latn" : resolution.numberingSystem
        let message: _CompiledMessage
        if caching == .disabled {
            message = try compile(resolution, id: id, numberingSystem: numbers)
        } else {
            let compiledKey = CompiledKey(catalogKey: resolution.catalogKey, message: id, numberingSystem: numbers)
            if let cached = compiled.withLock({ $0[compiledKey] }) {
                message = cached
            } else {
                let fresh = try compile(resolution, id: id, numberingSystem: numbers)
                // Two threads may compile the same message at once; the first stored wins, both are correct.
                message = compiled.withLock { cache -> _CompiledMessage in
                    if let existing = cache[compiledKey] { return existing }
                    cache[compiledKey] = fresh
                    return fresh
                }
            }
        }
        let entry = Entry(resolved: resolution, compiled: caching == .disabled ? nil : message)
        // Real locale tags are short; longer strings (garbage, 10 KB inputs) are resolved every
        // time rather than kept, so the cache holds at most resolvedLimit × 64 bytes of keys.
        if locale.utf8.count <= 64 {
            requests.withLock { cache in
                if cache.count < Self.resolvedLimit { cache[key] = entry }
            }
        }
        return (resolution, message)
    }

    private func compile(_ resolution: Resolved, id: MessageID, numberingSystem: String) throws(TemplateError) -> _CompiledMessage {
        // Pinned, never the host ICU's default: the same digits on any ICU version.
        let localeID = resolution.localeID + "@numbers=" + numberingSystem
        do {
            return try _CompiledMessage(pattern: resolution.message.pattern, localeID: localeID)
        } catch {
            throw TemplateCatalog.compileError(error, message: resolution.message, id: id)
        }
    }

    /// The locale chain and diagnostics for a requested locale string, without the cache.
    func resolution(for requested: String) -> (chain: [String], canonical: String?, latin: Bool, numbers: String?, localeID: String?,
                                               diagnostics: [TemplateDiagnostic]) {
        var diagnostics: [TemplateDiagnostic] = []
        let shown = Self.shown(requested)
        guard let id = _ICU.canonicalize(requested) else {
            diagnostics.append(TemplateDiagnostic(severity: .warning, code: .localeNotRecognized,
                message: requested.isEmpty ? "no locale was given"
                    : Self.isUndetermined(requested) ? "'\(shown)' is BCP 47's undetermined language: it names no language to write in"
                    : "'\(shown)' is not a BCP 47 locale tag"))
            return ([], nil, false, nil, nil, diagnostics)
        }
        let canonical = _ICU.languageTag(id)
        var latin = false
        var explicit: String?
        if let numbers = _ICU.keyword(id, "numbers"), !numbers.isEmpty {
            if numbers == "latn" {
                latin = true
                explicit = numbers
            } else if _NumberingSystems.isDecimal(numbers) {
                explicit = numbers
            } else {
                diagnostics.append(TemplateDiagnostic(severity: .note, code: .numberingSystemIgnored,
                    message: "numbering system '\(numbers)' in '\(shown)' is ignored: it is not a decimal numbering system ICU knows; digits follow the locale"))
            }
        }
        let requestedLanguage = requested.utf8.prefix(while: { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") })
        let canonicalLanguage = _ICU.subtags(id).language
        if String(decoding: requestedLanguage, as: UTF8.self).lowercased() != canonicalLanguage {
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .localeCanonicalized,
                message: "'\(shown)' is an alias of '\(canonical ?? id)' in CLDR"))
        }
        return (_LocaleKey.chain(forLocaleID: id), canonical, latin, explicit, id, diagnostics)
    }

    private func resolve(locale requested: String, message id: MessageID) throws(TemplateError) -> Resolved {
        var (chain, canonical, latin, explicitNumbers, requestedID, diagnostics) = resolution(for: requested)
        var chosen: (key: String, catalog: TemplateCatalog, message: TemplateCatalog.Message)?
        var firstCatalogWithoutMessage: TemplateCatalog?
        for key in chain {
            guard let catalog = catalogs[key] else { continue }
            if let message = catalog.messages[id] {
                chosen = (key, catalog, message)
                break
            }
            if firstCatalogWithoutMessage == nil { firstCatalogWithoutMessage = catalog }
        }
        let requestedName = canonical ?? Self.shown(requested)
        if let chosen, let first = chain.first, chosen.key != first {
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .parentLocale,
                message: "no \(id) catalog for \(requestedName); used \(chosen.catalog.locale) (fallback chain: \(chain.map(Self.tag).joined(separator: " → ")))"))
        }
        if chosen == nil, let catalog = catalogs[defaultKey], let message = catalog.messages[id] {
            chosen = (defaultKey, catalog, message)
            if !chain.isEmpty {
                diagnostics.append(TemplateDiagnostic(severity: .warning, code: .defaultLocale,
                    message: "no catalog for \(requestedName) or its parents (\(chain.map(Self.tag).joined(separator: ", "))); used the default \(catalog.locale)"))
            } else {
                diagnostics.append(TemplateDiagnostic(severity: .warning, code: .defaultLocale,
                    message: "used the default locale \(catalog.locale)"))
            }
        }
        if let chosen, let skipped = firstCatalogWithoutMessage {
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .messageFallback,
                message: "the \(skipped.locale) catalog has no \(id); used \(chosen.catalog.locale)"))
        }
        guard let chosen else {
            throw TemplateError(code: .unknownMessage,
                message: "no catalog for \(requestedName), its parents or the default locale has this message",
                messageID: id)
        }
        // Digits a message's language does not write would turn a GSM-7 message into UCS-2
        // (`en-u-nu-arab`: "٥ minutes") and halve what fits in one SMS, so a `-u-nu-` keyword is
        // ignored for a message whose text is GSM-7; native digits in UCS-2 scripts stay honoured.
        if let numbers = explicitNumbers, numbers != "latn",
           SMSEncoder().measure(chosen.message.pattern).encoding == .gsm7 {
            explicitNumbers = nil
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .numberingSystemIgnored,
                message: "numbering system '\(numbers)' in '\(requestedName)' is ignored: the \(chosen.catalog.locale) message is GSM-7 text, and its digits would make it UCS-2"))
        }
        return Resolved(catalogKey: chosen.key, catalogLocale: chosen.catalog.locale, localeID: chosen.catalog.localeID,
                        message: chosen.message, isRightToLeft: _ICU.isRightToLeft(chosen.catalog.localeID),
                        requestsLatinDigits: latin,
                        numberingSystem: explicitNumbers ?? Self.numberingSystem(requested: requestedID, catalogLocaleID: chosen.catalog.localeID),
                        segmentBudget: chosen.catalog.segmentBudget(for: id) ?? catalogs[defaultKey]?.segmentBudget(for: id),
                        diagnostics: diagnostics)
    }

    /// The digits of the requested locale, region included (`ar_MA` → latn, `ar_EG` → arab), when
    /// the catalog is in the requested language; otherwise (a fallback to another language, such
    /// as the default `en`) the catalog's own.
    static func numberingSystem(requested: String?, catalogLocaleID: String) -> String {
        if let requested, _ICU.subtags(requested).language == _ICU.subtags(catalogLocaleID).language {
            return _NumberingSystems.system(forLocaleID: requested)
        }
        return _NumberingSystems.system(forLocaleID: catalogLocaleID)
    }

    static func tag(_ key: String) -> String { _ICU.languageTag(key) ?? key }

    /// Whether a tag is `und` (any case, `-` or `_` after it): well-formed, but no language.
    static func isUndetermined(_ tag: String) -> Bool {
        let utf8 = Array(tag.utf8.prefix(4))
        guard utf8.count >= 3, String(decoding: utf8[0..<3], as: UTF8.self).lowercased() == "und" else { return false }
        return utf8.count == 3 || utf8[3] == UInt8(ascii: "-") || utf8[3] == UInt8(ascii: "_")
    }

    /// A requested string as diagnostics show it: at most 64 scalars, controls replaced.
    static func shown(_ text: String) -> String {
        if text.utf8.count <= 64, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var result = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 64 { result += "…"; break }
            result.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
        }
        return result
    }
}
