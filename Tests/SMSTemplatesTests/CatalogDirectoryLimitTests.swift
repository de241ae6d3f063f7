import Foundation
import Testing
import SMSTemplates

/// A catalog directory has a total size limit (8 MiB) and a file-count limit (1,000), besides
/// the 1 MiB per file, which alone would let many files together take all memory.
@Suite struct CatalogDirectoryLimitTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-catalog-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes `locale.txt`: one message, padded with a comment line to `size` bytes.
    func write(_ locale: String, size: Int) throws {
        let line = "verification_code = {code} {appName}\n"
        let text = line + "#" + String(repeating: "x", count: size - line.utf8.count - 2) + "\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent("\(locale).txt"))
    }

    static let locales = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "da"]

    @Test func eightMebibytesInAllLoad() throws {
        for locale in Self.locales.prefix(8) { try write(locale, size: 1 << 20) }
        let catalogs = try TemplateCatalog.load(directory: directory.path)
        #expect(catalogs.map(\.locale) == ["de", "en", "es", "fr", "it", "nl", "pt", "sv"])
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func moreThanEightMebibytesInAllIsRefusedBeforeReading() throws {
        for locale in Self.locales { try write(locale, size: 1 << 20) }
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog.load(directory: directory.path) }
        #expect(error.code == .fileUnreadable)
        #expect(error.message.contains("more than 8 MiB of catalogs (9 MiB or more)"), "\(error.message)")
        #expect(error.file == directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func moreThanAThousandFilesIsRefused() throws {
        for index in 0..<1_001 {
            try Data().write(to: directory.appendingPathComponent("x\(index).txt"))
        }
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog.load(directory: directory.path) }
        #expect(error.code == .fileUnreadable)
        #expect(error.message == "the catalog directory holds 1001 catalog files; at most 1000 are read")
        try? FileManager.default.removeItem(at: directory)
    }
}
