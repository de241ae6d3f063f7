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
    ///   1 MiB (refused before it is read; a pipe or device is read no further than that) or is
    ///   not UTF-8; otherwise as `init(parsing:locale:file:)`.
    public init(contentsOfFile path: String, locale: String? = nil) throws(TemplateError) {
        try self.init(bytes: Self.fileBytes(path), path: path, locale: locale)
    }

    /// A catalog file's bytes, at most ``maximumFileSize``.
    static func fileBytes(_ path: String) throws(TemplateError) -> [UInt8] {
        // Bounded: a huge file, /dev/zero or an endless pipe is refused, not read into memory.
        do {
            return try _BoundedFileRead.bytes(atPath: path, limit: Self.maximumFileSize)
        } catch {
            let why = switch error {
            case .system(let message): "cannot read the catalog: \(message)"
            case .isDirectory: "cannot read the catalog: it is a directory"
            case .tooLarge: "the catalog is larger than 1 MiB"
            }
            throw TemplateError(code: .fileUnreadable, message: why, file: path)
        }
    }

    /// A catalog from a file's bytes; the file name without its extension is the locale.
    init(bytes: [UInt8], path: String, locale: String?) throws(TemplateError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TemplateError(code: .fileUnreadable, message: "the catalog is not valid UTF-8", file: path)
        }
        try self.init(parsing: text, locale: locale ?? Self.locale(ofFile: path), file: path)
    }

    /// The locale a catalog file's name gives: the name up to its first `.` (`pt-BR.txt` → `pt-BR`).
    static func locale(ofFile path: String) -> String {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        return fileName.split(separator: ".", maxSplits: 1).first.map(String.init) ?? fileName
    }

    /// The most catalog bytes one directory may hold, all files together (8 MiB): each file is
    /// capped at 1 MiB, but loading holds several times a file's size, so many such files
    /// together would take all memory.
    static let maximumDirectorySize = 8 << 20
    /// The most catalog files one directory may hold (a catalog per locale: a few hundred at most).
    static let maximumDirectoryFiles = 1_000

    /// Reads every `*.txt` catalog in a directory, in file-name order.
    ///
    /// ```swift
    /// let renderer = try SMSTemplateRenderer(catalogs: TemplateCatalog.load(directory: "sms-templates"))
    /// ```
    ///
    /// - Parameter directory: The directory's path. Files not ending in `.txt` are ignored.
    /// - Returns: One catalog per file.
    /// - Throws: `TemplateError` `.fileUnreadable` when the directory holds more than 1,000
    ///   catalog files or more than 8 MiB of them in all (checked from the file sizes before
    ///   any is read, and again on the bytes read); otherwise for the first file that fails,
    ///   naming it.
    public static func load(directory: String) throws(TemplateError) -> [TemplateCatalog] {
        try load(directory: directory, maximumSize: maximumDirectorySize, maximumFiles: maximumDirectoryFiles)
    }

    static func load(directory: String, maximumSize: Int, maximumFiles: Int) throws(TemplateError) -> [TemplateCatalog] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw TemplateError(code: .fileUnreadable, message: "cannot list the catalog directory: \(error)", file: directory)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let files = names.sorted().filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }
        if files.count > maximumFiles {
            throw TemplateError(code: .fileUnreadable, message: "the catalog directory holds \(files.count) catalog files; at most \(maximumFiles) are read", file: directory)
        }
        func tooLarge(_ total: Int) -> TemplateError {
            TemplateError(code: .fileUnreadable,
                          message: "the catalog directory holds more than \(maximumSize >> 20) MiB of catalogs (\(total >> 20) MiB or more); split it or remove files",
                          file: directory)
        }
        // From the sizes first, so that nothing is read when the total is over the limit.
        var announced = 0
        for name in files {
            if let size = (try? FileManager.default.attributesOfItem(atPath: base + name))?[.size] as? Int {
                // A file over the per-file limit is refused by name (checked from its size, unread).
                if size > maximumFileSize { _ = try fileBytes(base + name) }
                announced += size
            }
        }
        if announced > maximumSize { throw tooLarge(announced) }
        // Then from the bytes read: a file that grew, or a pipe, counts what it gave.
        var total = 0
        var catalogs: [TemplateCatalog] = []
        for name in files {
            let bytes = try fileBytes(base + name)
            total += bytes.count
            if total > maximumSize { throw tooLarge(total) }
            catalogs.append(try TemplateCatalog(bytes: bytes, path: base + name, locale: nil))
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
