extension TemplateCatalog {
    /// The largest XLIFF or ARB file an import reads (4 MiB): an export of the largest bundled
    /// catalog is a few dozen kilobytes.
    public static let maximumExchangeFileSize = 4 << 20

    /// A bundled catalog (`Resources/Catalogs/<locale>.txt`), loaded as the renderer loads it.
    ///
    /// ```swift
    /// let english = TemplateCatalog.bundled(locale: "en")
    /// ```
    ///
    /// - Parameter locale: A bundled locale exactly as `SMSTemplateRenderer.bundledLocales` lists it.
    /// - Returns: The catalog, or nil when no bundled catalog has that name.
    public static func bundled(locale: String) -> TemplateCatalog? {
        guard let text = bundledSource(for: locale) else { return nil }
        return try? TemplateCatalog(parsing: text, locale: locale, file: "Resources/Catalogs/\(locale).txt", validate: false)
    }

    /// A catalog file as XLIFF 2.0 or ARB for translators, losslessly: every line that is not a
    /// message (comments, blank lines, `# @` directives) travels with the message after it, so
    /// importing an unchanged export gives the file back byte for byte.
    ///
    /// Each message carries the source catalog's text, its description, its placeholders with
    /// examples, its segment budget with the units it leaves before the WebOTP line, and its
    /// rendering in the budget's worst case (XLIFF notes and `slr:sizeRestriction`; ARB
    /// `@`-metadata).
    ///
    /// ```swift
    /// let text = TemplateCatalog.bundledSource(for: "pt-BR")!
    /// let xliff = try TemplateCatalog.export(catalogText: text, locale: "pt-BR", as: .xliff)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The catalog file's text.
    ///   - locale: The catalog's locale (a catalog file's name without `.txt`).
    ///   - file: The file name errors carry (default `<locale>.txt`).
    ///   - format: XLIFF or ARB.
    ///   - source: The catalog translators translate from (default: the bundled English one),
    ///     for each message's source text, and its description and budget where the catalog
    ///     declares none.
    /// - Returns: The XLIFF or ARB document, ending with a line break.
    /// - Throws: ``TemplateError`` as loading the catalog would.
    /// - Complexity: O(*n*) in the catalog's size, plus one worst-case rendering per message.
    public static func export(catalogText text: String, locale: String, file: String? = nil, as format: CatalogExchangeFormat,
                              source: TemplateCatalog? = .bundled(locale: "en")) throws(TemplateError) -> String {
        let file = file ?? "\(locale).txt"
        let catalog = try TemplateCatalog(parsing: text, locale: locale, file: file)
        let document = try _ExchangeDocument(catalogText: text, locale: locale, file: file)
        let metadata = _ExchangeMetadata.lookup(catalog: catalog, source: source)
        switch format {
        case .xliff: return _XLIFF.write(document, metadata: metadata)
        case .arb: return _ARB.write(document, metadata: metadata)
        }
    }

    /// A catalog file as XLIFF 2.0 or ARB, as ``export(catalogText:locale:file:as:source:)``;
    /// the file's name without its extension is the locale (`fr.txt` → `fr`).
    ///
    /// ```swift
    /// let arb = try TemplateCatalog.export(contentsOfFile: "sms/fr.txt", as: .arb)
    /// ```
    ///
    /// - Throws: ``TemplateError`` `.fileUnreadable` as ``init(contentsOfFile:locale:)`` (at most
    ///   1 MiB, UTF-8); otherwise as loading the catalog would.
    public static func export(contentsOfFile path: String, as format: CatalogExchangeFormat,
                              source: TemplateCatalog? = .bundled(locale: "en")) throws(TemplateError) -> String {
        let bytes = try fileBytes(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TemplateError(code: .fileUnreadable, message: "the catalog is not valid UTF-8", file: path)
        }
        return try export(catalogText: text, locale: locale(ofFile: path), file: path, as: format, source: source)
    }

    /// Reads an XLIFF 2.0 or ARB file back into a catalog file, checked as strictly as a loaded
    /// catalog: a message over its budget (the catalog's own, else the source catalog's) or
    /// lacking a plural form its locale needs is refused, not found later in production.
    ///
    /// A file from a translation tool needs no SMSKit notes: the target of each unit (XLIFF) or
    /// each key not starting with `@` (ARB) is a message. The XML reader processes no DTD (a
    /// file with one is refused) and knows only XML's five entities and character references;
    /// the JSON reader is strict. Both bound nesting and the number of elements or values.
    ///
    /// ```swift
    /// let imported = try TemplateCatalog.importCatalog(xliffText, as: .xliff)
    /// print(imported.catalog.locale, imported.text)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The XLIFF or ARB document.
    ///   - format: The format, or nil to tell by the content (a JSON object is ARB).
    ///   - file: The file name errors carry.
    ///   - source: The catalog whose budgets a message without its own inherits (default: the
    ///     bundled English one).
    /// - Returns: The catalog file and the catalog.
    /// - Throws: ``TemplateError``: `.fileUnreadable` over ``maximumExchangeFileSize``;
    ///   `.exchangeSyntax` when the document is not well formed or lacks a locale or a target;
    ///   otherwise as loading the catalog and checking its budgets would.
    public static func importCatalog(_ text: String, as format: CatalogExchangeFormat? = nil, file: String? = nil,
                                     source: TemplateCatalog? = .bundled(locale: "en")) throws(TemplateError) -> ImportedCatalog {
        guard text.utf8.count <= maximumExchangeFileSize else {
            throw TemplateError(code: .fileUnreadable, message: "the XLIFF or ARB file is larger than 4 MiB", file: file)
        }
        let document = switch format ?? sniffFormat(text) {
        case .xliff: try _XLIFF.read(text, file: file)
        case .arb: try _ARB.read(text, file: file)
        }
        let catalogText = document.catalogText
        let catalog = try TemplateCatalog(parsing: catalogText, locale: document.locale, file: "\(document.locale).txt")
        try catalog.checkBudgets(inheritingFrom: source)
        return ImportedCatalog(text: catalogText, catalog: catalog)
    }

    /// An XLIFF 2.0 or ARB file's bytes back into a catalog file, as ``importCatalog(_:as:file:source:)``.
    ///
    /// - Throws: ``TemplateError`` `.fileUnreadable` when the bytes are more than
    ///   ``maximumExchangeFileSize`` or not UTF-8; otherwise as ``importCatalog(_:as:file:source:)``.
    public static func importCatalog(bytes: some Collection<UInt8>, as format: CatalogExchangeFormat? = nil, file: String? = nil,
                                     source: TemplateCatalog? = .bundled(locale: "en")) throws(TemplateError) -> ImportedCatalog {
        guard bytes.count <= maximumExchangeFileSize else {
            throw TemplateError(code: .fileUnreadable, message: "the XLIFF or ARB file is larger than 4 MiB", file: file)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TemplateError(code: .fileUnreadable, message: "the XLIFF or ARB file is not valid UTF-8", file: file)
        }
        return try importCatalog(text, as: format, file: file, source: source)
    }

    /// An XLIFF 2.0 or ARB file back into a catalog file, as ``importCatalog(_:as:file:source:)``;
    /// without a format, a name ending in `.arb` is ARB, else the content tells.
    ///
    /// ```swift
    /// let imported = try TemplateCatalog.importCatalog(contentsOfFile: "pt-BR.xlf")
    /// ```
    ///
    /// - Throws: ``TemplateError`` `.fileUnreadable` when the file cannot be read or is larger
    ///   than ``maximumExchangeFileSize`` (refused before it is read; a pipe or device is read no
    ///   further than that); otherwise as ``importCatalog(bytes:as:file:source:)``.
    public static func importCatalog(contentsOfFile path: String, as format: CatalogExchangeFormat? = nil,
                                     source: TemplateCatalog? = .bundled(locale: "en")) throws(TemplateError) -> ImportedCatalog {
        let bytes: [UInt8]
        do {
            bytes = try _BoundedFileRead.bytes(atPath: path, limit: maximumExchangeFileSize)
        } catch {
            let why = switch error {
            case .system(let message): "cannot read the file: \(message)"
            case .isDirectory: "cannot read the file: it is a directory"
            case .tooLarge: "the XLIFF or ARB file is larger than 4 MiB"
            }
            throw TemplateError(code: .fileUnreadable, message: why, file: path)
        }
        let format = format ?? (path.lowercased().hasSuffix(".arb") ? .arb : nil)
        return try importCatalog(bytes: bytes, as: format, file: path, source: source)
    }

    /// ARB when the first character that is not white space (after a byte order mark) opens a
    /// JSON object, else XLIFF.
    static func sniffFormat(_ text: String) -> CatalogExchangeFormat {
        let first = text.unicodeScalars.first { !($0.properties.isWhitespace || $0 == "\u{FEFF}") }
        return first == "{" ? .arb : .xliff
    }
}
