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
