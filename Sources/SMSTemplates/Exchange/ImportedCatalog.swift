/// A catalog read back from XLIFF or ARB: the catalog file's text and the catalog it loads as.
///
/// ```swift
/// let imported = try TemplateCatalog.importCatalog(bytes, as: .xliff)
/// try imported.text.write(toFile: "\(imported.catalog.locale).txt", atomically: true, encoding: .utf8)
/// ```
public struct ImportedCatalog: Sendable {
    /// The catalog file, `\n`-separated as the export's catalog was: an unchanged export gives
    /// the original file back byte for byte.
    public var text: String
    /// The catalog, loaded from ``text`` and checked as strictly as a loaded catalog, budgets
    /// included.
    public var catalog: TemplateCatalog
}
