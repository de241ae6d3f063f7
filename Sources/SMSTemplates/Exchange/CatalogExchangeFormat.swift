/// A translators' file format that catalogs are exchanged in (``TemplateCatalog/export(catalogText:locale:file:as:source:)``,
/// ``TemplateCatalog/importCatalog(_:as:file:source:)``).
///
/// ```swift
/// let xliff = try TemplateCatalog.export(catalogText: text, locale: "pt-BR", as: .xliff)
/// ```
public enum CatalogExchangeFormat: String, Sendable, Hashable, CaseIterable {
    /// XLIFF 2.0, with the size restriction module (`slr:sizeRestriction`) and notes.
    case xliff
    /// Flutter's Application Resource Bundle: a JSON object, `@`-metadata after each message.
    case arb
}
