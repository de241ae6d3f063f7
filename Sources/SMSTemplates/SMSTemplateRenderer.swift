import CSMSKitICU
import SMSEncoding

/// Renders localized SMS templates through the system ICU.
///
/// A renderer holds the bundled catalogs (93 locales, see ``bundledLocales``) and any catalogs you
/// load, resolves the requested locale through ICU and CLDR's parent chain, and formats the message
/// with ICU MessageFormat: named arguments, plurals, selects and numbers in the digits of the
/// requested locale and region (`fa` Persian digits, `ar` Latin unless `-u-nu-arab`), pinned so that every ICU
/// from 70 on gives the same text.
/// It is an immutable `Sendable` value; copies share one cache of compiled formatters, so create
/// one at startup and use it from any thread.
///
/// ```swift
/// let renderer = try SMSTemplateRenderer()
/// let sms = try renderer.render(.verificationCodeWithExpiry, locale: "ar-EG",
///                               code: "042917", appName: "Acme", minutes: 5)
/// print(sms.text)         // رمز Acme: 042917، صالح 5 دقائق
/// print(sms.locale)       // ar
/// print(sms.diagnostics)  // [note: no catalog for ar-EG; used ar ...]
/// ```
public struct SMSTemplateRenderer: Sendable {
    /// Whether compiled ICU formatters are kept.
    public enum Caching: Sendable, Hashable {
        /// Compile each (catalog locale, message, digits) once and share it across threads. The default.
        case shared
        /// Build a new ICU MessageFormat for every render (for measurements and debugging).
        case disabled
    }

    let store: _RendererStore
    /// The encoder that analyzes every rendered message.
    public let encoder: SMSEncoder

    /// Creates a renderer.
    ///
    /// Your catalogs are layered over the bundled ones message by message: a `fr` catalog with only
    /// `verification_code` replaces that message and keeps the bundled French for the others.
    ///
    /// - Parameters:
    ///   - catalogs: Your catalogs; a later catalog for the same locale overrides an earlier one.
    ///   - includeBundled: Whether to start from the bundled catalogs. Default `true`.
    ///   - defaultLocale: The locale used when nothing in the requested chain matches. Default `"en"`.
    ///   - caching: `.shared` (default) or `.disabled`.
    ///   - encoder: The SMS encoder for the analysis in every result; enable national language
    ///     tables here if your routes support them. Default `SMSEncoder()`.
    /// - Throws: `TemplateError` `.invalidLocale` when `defaultLocale` is not a tag or has no catalog.
    public init(catalogs: [TemplateCatalog] = [], includeBundled: Bool = true, defaultLocale: String = "en",
                caching: Caching = .shared, encoder: SMSEncoder = SMSEncoder()) throws(TemplateError) {
        var byKey: [String: TemplateCatalog] = [:]
        if includeBundled {
            for catalog in Self.bundledCatalogs() { byKey[catalog.key] = catalog }
        }
        for catalog in catalogs {
            byKey[catalog.key] = byKey[catalog.key].map { $0.merging(catalog) } ?? catalog
        }
        guard let id = _ICU.canonicalize(defaultLocale), let key = _LocaleKey.catalogKey(forLocaleID: id),
              byKey[key] != nil else {
            throw TemplateError(code: .invalidLocale,
                message: "the default locale '\(_RendererStore.shown(defaultLocale))' has no catalog; give one of \(byKey.values.map(\.locale).sorted().joined(separator: ", "))")
        }
        self.store = _RendererStore(catalogs: byKey, defaultKey: key, caching: caching)
        self.encoder = encoder
    }

    /// The bundled catalogs, parsed from the generated sources (`tools/generate_catalogs.py`).
    /// Their patterns are compiled on first use; the test suite compiles every one of them.
    static func bundledCatalogs() -> [TemplateCatalog] {
        _bundledCatalogFiles.compactMap { file in
            let locale = String(file.name.dropLast(4)) // ".txt"
            return try? TemplateCatalog(parsing: file.contents, locale: locale,
                                        file: "Resources/Catalogs/" + file.name, validate: false)
        }
    }

    /// The locales of the bundled catalogs, as BCP 47 tags, sorted.
    public static var bundledLocales: [String] {
        _bundledCatalogFiles.map { String($0.name.dropLast(4)) }.sorted()
    }

    /// The locales this renderer has catalogs for, as BCP 47 tags, sorted.
    public var locales: [String] { store.catalogs.values.map(\.locale).sorted() }

    /// The catalog this renderer uses for a locale tag, if it has one for exactly that locale.
    public func catalog(for locale: String) -> TemplateCatalog? {
        guard let id = _ICU.canonicalize(locale), let key = _LocaleKey.catalogKey(forLocaleID: id) else { return nil }
        return store.catalogs[key]
    }

    /// Shows how a locale string resolves: canonical form, CLDR chain, chosen catalog, diagnostics.
    ///
    /// - Parameters:
    ///   - locale: Any string; garbage, empty or very long strings resolve to the default locale
    ///     with a warning.
    ///   - message: The message to look for along the chain. Default `.verificationCode`.
    /// - Returns: The resolution. Never fails: with no match it reports the default locale.
    public func resolveLocale(_ locale: String, for message: MessageID = .verificationCode) -> LocaleResolution {
        let (chain, canonical, latin, _, _, _) = store.resolution(for: locale)
        var used = store.catalogs[store.defaultKey]?.locale ?? "en"
        var diagnostics: [TemplateDiagnostic] = []
        var numbers = "latn"
        if let (resolved, _) = try? store.lookup(locale: locale, message: message, latinDigits: false) {
            used = resolved.catalogLocale
            diagnostics = resolved.diagnostics
            numbers = resolved.numberingSystem
        }
        return LocaleResolution(requested: _RendererStore.shown(locale), canonical: canonical,
                                chain: chain.map(_RendererStore.tag), locale: used,
                                requestsLatinDigits: latin, numberingSystem: numbers, diagnostics: diagnostics)
    }

    /// Renders a one-time-code message.
    ///
    /// The code is text: it stays ASCII (Unicode digits such as `٤٢` are folded to `42`) and must
    /// be 1 to 16 ASCII letters, digits or hyphens. The app name loses control and bidi-override
    /// characters and may be at most 64 characters.
    ///
    /// ```swift
    /// let sms = try renderer.render(.loginCode, locale: "de-AT", code: "042917", appName: "Acme")
    /// // "Dein Anmeldecode für Acme: 042917. Gib ihn an niemanden weiter."
    /// ```
    ///
    /// - Parameters:
    ///   - id: The message, e.g. `.verificationCode`.
    ///   - locale: A BCP 47 tag or a common variant (`pt_BR`, `iw`, `EN-us`).
    ///   - code: The one-time code.
    ///   - appName: The app or brand name.
    ///   - minutes: The validity in minutes, for `.verificationCodeWithExpiry`.
    ///   - options: Digits, bidi, delivery lines and segment budget.
    /// - Returns: The text, the locale used, diagnostics and the encoding analysis.
    /// - Throws: `TemplateError`: `.invalidCode`, `.argumentTooLong`, `.invalidArgument`,
    ///   `.missingArgument` (e.g. `minutes` for an expiry message), `.unknownMessage`,
    ///   `.invalidOrigin`, `.invalidAppHash`.
    /// - Complexity: O(*n*) in the message length once the formatter is cached; the first render
    ///   of a (locale, message) pair resolves the locale and compiles the pattern.
    public func render(_ id: MessageID, locale: String, code: String, appName: String, minutes: Int? = nil,
                       options: RenderOptions = RenderOptions()) throws(TemplateError) -> RenderedMessage {
        try render(id, locale: locale, source: _OTPArguments(code: code, appName: appName, minutes: minutes), options: options)
    }

    /// Renders any message with named arguments.
    ///
    /// ```swift
    /// let sms = try renderer.render(MessageID(rawValue: "password_reset")!, locale: "fr",
    ///                               arguments: ["code": "042917", "appName": "Acme"])
    /// ```
    ///
    /// - Parameters:
    ///   - id: The message.
    ///   - locale: A BCP 47 tag or a common variant.
    ///   - arguments: Values by argument name. Arguments named `code` and `appName` get the
    ///     checks described in `render(_:locale:code:appName:minutes:options:)`; other text is
    ///     capped at 256 characters. Names the message does not use give a diagnostic.
    ///   - options: Digits, bidi, delivery lines and segment budget.
    /// - Returns: The rendered message.
    /// - Throws: `TemplateError`, as above, plus `.argumentType` for text given to a number.
    public func render(_ id: MessageID, locale: String, arguments: [String: TemplateValue],
                       options: RenderOptions = RenderOptions()) throws(TemplateError) -> RenderedMessage {
        try render(id, locale: locale, source: _DictionaryArguments(values: arguments), options: options)
    }
}

// MARK: - Rendering

protocol _ArgumentSource {
    func value(named name: String) -> TemplateValue?
    func forEachName(_ body: (String) -> Void)
    /// The UTF-8 bytes of all text values (an upper bound of what the argument buffer receives,
    /// apart from bidi isolates); O(1) per value for native strings.
    var textByteCount: Int { get }
}

struct _OTPArguments: _ArgumentSource {
    let code: String
    let appName: String
    let minutes: Int?

    @inline(__always)
    func value(named name: String) -> TemplateValue? {
        switch name {
        case "code": return .text(code)
        case "appName": return .text(appName)
        case "minutes": return minutes.map { .integer($0) }
        default: return nil
        }
    }

    func forEachName(_ body: (String) -> Void) {
        body("code")
        body("appName")
        if minutes != nil { body("minutes") }
    }

    var textByteCount: Int { code.utf8.count + appName.utf8.count }
}

struct _DictionaryArguments: _ArgumentSource {
    let values: [String: TemplateValue]
    func value(named name: String) -> TemplateValue? { values[name] }
    func forEachName(_ body: (String) -> Void) { values.keys.sorted().forEach(body) }

    var textByteCount: Int {
        values.values.reduce(0) { total, value in
            if case .text(let string) = value { return total + string.utf8.count }
            return total
        }
    }
}

extension SMSTemplateRenderer {
    static let appNameLimit = 64
    static let textLimit = 256

    func render<Source: _ArgumentSource>(_ id: MessageID, locale: String, source: Source,
                                         options: RenderOptions) throws(TemplateError) -> RenderedMessage {
        let (resolved, compiled) = try store.lookup(locale: locale, message: id, latinDigits: options.latinDigits)
        var diagnostics = resolved.diagnostics
        let arguments = compiled.arguments

        // All text values go into one UTF-8 buffer; `spans` records each value's place in it.
        var buffer = String()
        // Values that fit in a small string (15 UTF-8 bytes, e.g. a 6-digit code and a short app
        // name) stay inline: no heap allocation. Larger ones get their room at once (bidi
        // isolates, when needed, rebuild the buffer anyway).
        let expected = source.textByteCount
        if expected > 15 { buffer.reserveCapacity(expected) }
        var codeSpan: Range<Int>?
        // The closures below return a Result: the standard library's scoped-allocation helpers
        // rethrow untyped errors.
        let outcome = withUnsafeTemporaryAllocation(of: (kind: Int32, start: Int, end: Int, integer: Int64, real: Double).self,
                                                    capacity: max(arguments.count, 1)) { slots -> Result<String, TemplateError> in
            do throws(TemplateError) {
                for (index, argument) in arguments.enumerated() {
                    guard let value = source.value(named: argument.name) else {
                        throw TemplateError(code: .missingArgument,
                            message: "the \(resolved.catalogLocale) message uses {\(argument.name)}, which was not given",
                            messageID: id, argument: argument.name)
                    }
                    switch value {
                    case .integer(let number):
                        guard !argument.isSelect else { throw Self.typeError(argument, id: id, given: "a number") }
                        slots[index] = (1, 0, 0, Int64(number), 0)
                    case .decimal(let number):
                        guard !argument.isSelect else { throw Self.typeError(argument, id: id, given: "a number") }
                        slots[index] = (2, 0, 0, 0, number)
                    case .text(let string):
                        guard !argument.isNumeric else { throw Self.typeError(argument, id: id, given: "text") }
                        let start = buffer.utf8.count
                        try appendText(string, for: argument.name, isRightToLeft: resolved.isRightToLeft,
                                       options: options, to: &buffer, diagnostics: &diagnostics, id: id)
                        slots[index] = (0, start, buffer.utf8.count, 0, 0)
                        if argument.name == "code" { codeSpan = start..<buffer.utf8.count }
                    }
                }
            } catch {
                return .failure(error)
            }
            // Text-only message and text values: literal pieces and values, no ICU call needed.
            if !compiled.pieces.isEmpty && (0..<arguments.count).allSatisfy({ slots[$0].kind == 0 }) {
                return .success(buffer.withUTF8 { utf8 in
                    compiled.formatPieces(values: utf8, spans: { slots[$0].start..<slots[$0].end })
                })
            }
            return buffer.withUTF8 { utf8 in
                withUnsafeTemporaryAllocation(of: smskit_icu_value.self, capacity: max(arguments.count, 1)) { values in
                    let base = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                    for index in 0..<arguments.count {
                        let slot = slots[index]
                        values[index] = smskit_icu_value(kind: slot.kind, length: Int32(slot.end - slot.start),
                                                     utf8: slot.kind == 0 ? base.map { $0 + slot.start } : nil,
                                                     integer: slot.integer, real: slot.real)
                    }
                    return compiled.format(UnsafeBufferPointer(rebasing: values[0..<arguments.count]))
                }
            }
        }
        let text = try outcome.get()

        var result = text
        // A right-to-left message must start with a right-to-left letter, or handsets that lay the
        // message out by its first letter (and those that ignore isolates) show it left to right.
        if resolved.isRightToLeft, options.bidiIsolation == .automatic, _Bidi.needsLeadingMark(result) {
            result = _Bidi.rightToLeftMark + result
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .rightToLeftMark,
                message: "the \(resolved.catalogLocale) message starts with left-to-right text; a RIGHT-TO-LEFT MARK (U+200F) was put in front so it is laid out right to left"))
        } else if !resolved.isRightToLeft, options.bidiIsolation == .automatic, _Bidi.needsLeadingLeftToRightMark(result) {
            result = _Bidi.leftToRightMark + result
            diagnostics.append(TemplateDiagnostic(severity: .note, code: .leftToRightMark,
                message: "the \(resolved.catalogLocale) message starts with right-to-left letters; a LEFT-TO-RIGHT MARK (U+200E) was put in front so it is laid out left to right"))
        }
        if options.webOTPOrigin != nil || options.smsRetrieverAppHash != nil {
            try appendDeliveryLines(to: &result, code: codeSpan.map { Self.substring(buffer, $0) },
                                    source: source, options: options, diagnostics: &diagnostics, id: id)
        }

        source.forEachName { name in
            if !arguments.contains(where: { $0.name == name }) {
                diagnostics.append(TemplateDiagnostic(severity: .note, code: .unusedArgument,
                    message: "the \(resolved.catalogLocale) \(id) message does not use the argument '\(_RendererStore.shown(name))'"))
            }
        }

        let analysis: SMSAnalysis?
        let segments: Int
        switch options.encodingAnalysis {
        case .full:
            let full = encoder.analyze(result)
            analysis = full
            segments = full.segmentCount
        case .segmentCountOnly:
            analysis = nil
            segments = encoder.segmentCount(result)
        }
        let budget = options.segmentBudget ?? resolved.segmentBudget
        if let budget, segments > budget {
            let detail = analysis.map { " (\($0.encoding), \($0.length) units)" } ?? ""
            let source = options.segmentBudget != nil ? "the render options'" : "the catalog's"
            diagnostics.append(TemplateDiagnostic(severity: .warning, code: .overSegmentBudget,
                message: "the message needs \(segments) SMS segments\(detail); \(source) budget is \(budget)"))
        }

        return RenderedMessage(text: result, messageID: id, locale: resolved.catalogLocale,
                               requestedLocale: _RendererStore.shown(locale), diagnostics: diagnostics,
                               segmentCount: segments, segmentBudget: budget, encoding: analysis)
    }

    static func substring(_ string: String, _ range: Range<Int>) -> String {
        let utf8 = string.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(string[start..<end])
    }

    static func typeError(_ argument: _CompiledMessage.Argument, id: MessageID, given: String) -> TemplateError {
        let expected = argument.isNumeric ? "a number" : "text"
        return TemplateError(code: .argumentType,
            message: "{\(argument.name)} takes \(expected) in this message; \(given) was given",
            messageID: id, argument: argument.name)
    }

    /// Sanitizes one text value into `buffer`, applying the code and app-name rules.
    private func appendText(_ value: String, for name: String, isRightToLeft: Bool, options: RenderOptions,
                            to buffer: inout String, diagnostics: inout [TemplateDiagnostic], id: MessageID) throws(TemplateError) {
        if name == "code" {
            let (ok, folded, removed) = _Sanitizer.appendCode(value, to: &buffer)
            guard ok else {
                throw TemplateError(code: .invalidCode,
                    message: "the code must be 1 to 16 ASCII letters, digits or hyphens; got '\(_RendererStore.shown(value))'",
                    messageID: id, argument: name)
            }
            if folded {
                diagnostics.append(TemplateDiagnostic(severity: .note, code: .codeDigitsFolded,
                    message: "non-ASCII digits in the code were written as ASCII digits so autofill can read them"))
            }
            if removed { diagnostics.append(Self.sanitized(name)) }
            return
        }
        let start = buffer.utf8.count
        let isAppName = name == "appName"
        // Reserve room for an isolate pair in front, filled in below if needed.
        let (count, removed, isASCII) = _Sanitizer.append(value, to: &buffer)
        let limit = isAppName ? Self.appNameLimit : Self.textLimit
        guard count <= limit else {
            throw TemplateError(code: .argumentTooLong,
                message: "{\(name)} is \(count) characters; the limit is \(limit)", messageID: id, argument: name)
        }
        guard count > 0 || !isAppName else {
            throw TemplateError(code: .invalidArgument, message: "{appName} is empty", messageID: id, argument: name)
        }
        if removed { diagnostics.append(Self.sanitized(name)) }
        guard isAppName, options.bidiIsolation == .automatic else { return }
        // An ASCII name in a left-to-right message never needs an isolate.
        if isASCII && !isRightToLeft { return }

        // Bidi: isolate the name only where the bidi algorithm would reorder it with the text
        // around it (see `_Bidi`).
        let cleaned = Self.substring(buffer, start..<buffer.utf8.count)
        guard let reason = _Bidi.isolationReason(cleaned, inRightToLeftMessage: isRightToLeft) else { return }
        let utf8 = buffer.utf8
        let cut = utf8.index(utf8.startIndex, offsetBy: start)
        buffer = String(buffer[..<cut]) + "\u{2068}" + cleaned + "\u{2069}"
        diagnostics.append(TemplateDiagnostic(severity: .note, code: .bidiIsolated,
            message: "the app name was wrapped in FSI/PDI isolates in the \(isRightToLeft ? "right-to-left" : "left-to-right") message: \(reason)"))
    }

    static func sanitized(_ name: String) -> TemplateDiagnostic {
        TemplateDiagnostic(severity: .note, code: .argumentSanitized,
            message: "control or bidi-override characters were removed from {\(name)}")
    }

    /// Appends the SMS Retriever hash and the WebOTP line, validating both.
    private func appendDeliveryLines<Source: _ArgumentSource>(to text: inout String, code: String?, source: Source,
                                                              options: RenderOptions, diagnostics: inout [TemplateDiagnostic],
                                                              id: MessageID) throws(TemplateError) {
        if let hash = options.smsRetrieverAppHash {
            guard hash.utf8.count == 11, hash.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"): return true
                default: return false
                }
            }) else {
                throw TemplateError(code: .invalidAppHash,
                    message: "the SMS Retriever app hash must be exactly 11 characters of A-Z a-z 0-9 + /; got '\(_RendererStore.shown(hash))'",
                    messageID: id)
            }
            text += "\n" + hash
        }
        if let origin = options.webOTPOrigin {
            let host = try Self.validatedHost(origin, id: id)
            var otp = code
            if otp == nil, case .text(let raw)? = source.value(named: "code") {
                var cleaned = ""
                if _Sanitizer.appendCode(raw, to: &cleaned).ok { otp = cleaned }
            }
            guard let otp else {
                throw TemplateError(code: .missingArgument,
                    message: "the WebOTP line needs a valid 'code' argument", messageID: id, argument: "code")
            }
            if options.smsRetrieverAppHash != nil {
                diagnostics.append(TemplateDiagnostic(severity: .note, code: .deliveryOrder,
                    message: "the SMS Retriever hash is on the line before the WebOTP line, which must be last"))
            }
            text += "\n@" + host + " #" + otp
        }
    }

    /// A lower-cased ASCII host name with an optional port, or an `.invalidOrigin` error.
    static func validatedHost(_ origin: String, id: MessageID) throws(TemplateError) -> String {
        func fail(_ why: String) -> TemplateError {
            TemplateError(code: .invalidOrigin, message: "the WebOTP origin '\(_RendererStore.shown(origin))' \(why)", messageID: id)
        }
        let utf8 = Array(origin.utf8)
        guard !utf8.isEmpty, utf8.count <= 259 else { throw fail("must be a host name of at most 253 characters") }
        var host = utf8[...]
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
            let port = utf8[(colon + 1)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw fail("has an invalid port")
            }
            host = utf8[..<colon]
        }
        guard host.count <= 253 else { throw fail("is longer than 253 characters") }
        var label = 0
        var previous: UInt8 = UInt8(ascii: ".")
        for byte in host {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                label += 1
            case UInt8(ascii: "-"):
                guard previous != UInt8(ascii: ".") else { throw fail("has a label starting with '-'") }
                label += 1
            case UInt8(ascii: "."):
                guard label > 0, previous != UInt8(ascii: "-") else { throw fail("has an empty label or one ending with '-'") }
                label = 0
            default:
                throw fail(byte >= 0x80 ? "is not ASCII; use the punycode (xn--) form of the domain"
                                        : "must be a bare host such as example.com (no scheme, path or spaces)")
            }
            guard label <= 63 else { throw fail("has a label longer than 63 characters") }
            previous = byte
        }
        guard label > 0, previous != UInt8(ascii: "-") else { throw fail("must not end with '.' or '-'") }
        return String(decoding: utf8, as: UTF8.self).lowercased()
    }
}
