import Foundation
import Testing

/// `render --catalog DIR` refuses a directory over the total limit with a clear error, rather
/// than loading all of it into memory.
@Suite struct CatalogLimitCLITests {
    @Test func aCatalogDirectoryOverEightMebibytesIsAClearError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = "verification_code = {code} {appName}\n"
        let text = line + "#" + String(repeating: "x", count: (1 << 20) - line.utf8.count - 2) + "\n"
        for locale in ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "da"] {
            try Data(text.utf8).write(to: directory.appendingPathComponent("\(locale).txt"))
        }
        let result = try CLI.run(["render", "--lang", "de", "--code", "1", "--app", "A", "--catalog", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("more than 8 MiB of catalogs"), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    }
}
