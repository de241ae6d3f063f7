import Foundation
import Testing

/// PhoneNumbers is documented to use no Foundation (its users may not link it): no source file of
/// the module imports it.
@Suite("PhoneNumbers without Foundation")
struct FoundationFreeTests {
    @Test("no source of PhoneNumbers imports Foundation or FoundationEssentials")
    func noFoundationImport() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PhoneNumbers")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return line.hasPrefix("import Foundation") || line.hasPrefix("@_exported import Foundation")
                    || line.hasPrefix("public import Foundation") || line.hasPrefix("internal import Foundation")
            }
            #expect(imports.isEmpty, "\(file) imports Foundation")
        }
    }
}
