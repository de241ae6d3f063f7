#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// File I/O only: every locale and formatting decision goes through the system ICU (CSMSKitICU),
// never Foundation's own ICU.

extension TemplateCatalog {
    /// The largest catalog file read: catalogs are a few kilobytes; anything this big is a mistake.
    static let maximumFileSize = 1 << 20

    /// Reads a catalog file; its name without the extension is the locale (`pt-BR.txt` → `pt-BR`).
    ///
    /// ```swift
    /// let catalog = try TemplateCatalog(contentsOfFile: "/etc/myapp/sms/fr.txt")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - locale: The locale, when the file name is not a locale tag.
    /// - Throws: `TemplateError` `.fileUnreadable` when the file cannot be read, is larger than
    ///   1 MiB or is not UTF-8; otherwise as `init(parsing:locale:file:)`.
    public init(contentsOfFile path: String, locale: String? = nil) throws(TemplateError) {
        guard let data = try _CatalogFile.contents(of: path, limit: Self.maximumFileSize) else {
            throw TemplateError(code: .fileUnreadable, message: "the catalog is larger than 1 MiB", file: path)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw TemplateError(code: .fileUnreadable, message: "the catalog is not valid UTF-8", file: path)
        }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let stem = fileName.split(separator: ".", maxSplits: 1).first.map(String.init) ?? fileName
        try self.init(parsing: text, locale: locale ?? stem, file: path)
    }

    /// Reads every `*.txt` catalog in a directory, in file-name order.
    ///
    /// ```swift
    /// let renderer = try SMSTemplateRenderer(catalogs: TemplateCatalog.load(directory: "sms-templates"))
    /// ```
    ///
    /// - Parameter directory: The directory's path. Files not ending in `.txt` are ignored.
    /// - Returns: One catalog per file.
    /// - Throws: `TemplateError` for the first file that fails, naming it.
    public static func load(directory: String) throws(TemplateError) -> [TemplateCatalog] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw TemplateError(code: .fileUnreadable, message: "cannot list the catalog directory: \(error)", file: directory)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var catalogs: [TemplateCatalog] = []
        for name in names.sorted() where name.hasSuffix(".txt") && !name.hasPrefix(".") {
            catalogs.append(try TemplateCatalog(contentsOfFile: base + name))
        }
        return catalogs
    }

    /// Reads a catalog file, or every catalog in a directory.
    ///
    /// - Parameter path: A `.txt` catalog file or a directory of them.
    /// - Returns: The catalogs read.
    /// - Throws: As `init(contentsOfFile:locale:)` and `load(directory:)`.
    public static func load(path: String) throws(TemplateError) -> [TemplateCatalog] {
        if (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil {
            return try load(directory: path)
        }
        return [try TemplateCatalog(contentsOfFile: path)]
    }
}
