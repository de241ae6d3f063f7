import Foundation
import Testing
import SMSTemplates

/// Reading catalog files: sizes at the limit, empty files, directories.
@Suite struct CatalogFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-catalog-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// An empty catalog file is an empty catalog. (Found by TemplateCatalogFuzz: loading one leaked a
    /// 4 KiB buffer through `Data(contentsOf:)`; run `swift test --sanitize=address` to see leaks.)
    @Test func emptyFile() throws {
        let path = directory.appendingPathComponent("fa.txt").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let catalog = try TemplateCatalog(contentsOfFile: path)
        #expect(catalog.locale == "fa")
        #expect(catalog.messageIDs.isEmpty)
    }

    @Test func oneMebibyteIsTheLimit() throws {
        let path = directory.appendingPathComponent("en.txt").path
        let line = "verification_code = {code} {appName}\n"
        var text = line + String(repeating: "#", count: (1 << 20) - line.utf8.count - 1) + "\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try TemplateCatalog(contentsOfFile: path).messageIDs == [.verificationCode])
        text += "#"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog(contentsOfFile: path) }
        #expect(error.code == .fileUnreadable)
        #expect(error.message == "the catalog is larger than 1 MiB")
    }

    @Test func aDirectoryIsUnreadable() throws {
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog(contentsOfFile: directory.path, locale: "en") }
        #expect(error.code == .fileUnreadable)
        #expect(error.message.hasPrefix("cannot read the catalog: "))
    }
}
