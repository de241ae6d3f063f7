import Foundation
import Testing

/// `smskit catalog export|import`: XLIFF 2.0 and ARB, round-tripping every bundled catalog byte
/// for byte, and imports checked as strictly as loaded catalogs.
@Suite struct CatalogExchangeCLITests {
    static let catalogDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/Catalogs")

    static var bundledLocales: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: catalogDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-exchange-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: ["xliff", "arb"])
    func everyBundledCatalogRoundTrips(format: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(Self.bundledLocales.count >= 32)
        for locale in Self.bundledLocales {
            let exported = directory.appendingPathComponent("\(locale).\(format)")
            let imported = directory.appendingPathComponent("\(locale).txt")
            let export = try CLI.run(["catalog", "export", "--lang", locale, "--format", format, "--output", exported.path])
            #expect(export.status == 0, "\(locale): \(export.stderr)")
            let back = try CLI.run(["catalog", "import", exported.path, "--output", imported.path])
            #expect(back.status == 0, "\(locale): \(back.stderr)")
            let original = try Data(contentsOf: Self.catalogDirectory.appendingPathComponent("\(locale).txt"))
            #expect(try Data(contentsOf: imported) == original, "\(locale) \(format) does not round-trip")
        }
    }

    @Test func xliffCarriesNotesSizeAndSource() throws {
        let result = try CLI.run(["catalog", "export", "--lang", "pl", "--format", "xliff"])
        #expect(result.status == 0)
        let xliff = result.stdout
        #expect(xliff.contains("<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\""))
        #expect(xliff.contains("version=\"2.0\" srcLang=\"en\" trgLang=\"pl\""))
        #expect(xliff.contains("<unit id=\"verification_code_expiry\" slr:sizeRestriction=\"70\">"))
        #expect(xliff.contains("<note category=\"description\">The verification message"))
        #expect(xliff.contains("<note category=\"placeholder\">{minutes}: a number, e.g. 10</note>"))
        #expect(xliff.contains("<source>{code} is your {appName} verification code.</source>"))
    }

    @Test func arbCarriesDescriptionsAndPlaceholders() throws {
        let result = try CLI.run(["catalog", "export", "--lang", "de", "--format", "arb"])
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["@@locale"] as? String == "de")
        let meta = try #require(object["@verification_code_expiry"] as? [String: Any])
        #expect((meta["description"] as? String)?.isEmpty == false)
        #expect(meta["x-smskit-budget-segments"] as? Int == 1)
        let placeholders = try #require(meta["placeholders"] as? [String: Any])
        #expect((placeholders["minutes"] as? [String: Any])?["type"] as? String == "int")
        #expect((placeholders["code"] as? [String: Any])?["example"] as? String == "123456")
    }

    /// A file from a translation tool: no SMSKit notes, CDATA, entities, other namespaces.
    @Test func importsForeignXLIFF() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("fr.xlf")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- made by a tool -->
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr-CA">
              <file id="x"><unit id="verification_code"><segment>
                <source>{code} is your {appName} verification code.</source>
                <target><![CDATA[{code} est votre code {appName}]]> &amp; plus&#10;ligne</target>
              </segment></unit></file>
            </xliff>
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["catalog", "import", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "verification_code = {code} est votre code {appName} & plus\\nligne")
    }

    @Test(arguments: [
        ("bad.xlf", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"x\"><segment><target>a</target></segment></unit>"),
        ("bad.xlf", "<xliff version=\"1.2\"><file/></xliff>"),
        ("bad.xlf", "<xliff version=\"2.0\"><file/></xliff>"),
        ("bad.xlf", "<!DOCTYPE x [<!ENTITY a \"b\">]><xliff/>"),
        ("bad.xlf", String(repeating: "<a>", count: 10_000)),
        ("bad.arb", "{\"@@locale\": \"pl\", \"x\": 3}"),
        ("bad.arb", "{\"x\": \"a\"}"),
        ("bad.arb", String(repeating: "[", count: 10_000)),
        ("bad.arb", "{\"@@locale\": \"pl\", \"verification_code_expiry\": \"{code} {minutes, plural, one {# minutę} other {# minut}}\"}"),
        ("bad.arb", "\u{FF}\u{FE}"),
    ])
    func badImportsFailCleanly(_ row: (String, String)) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(row.0)
        try row.1.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["catalog", "import", file.path])
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func missingPluralCategoryIsNamed() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pl.arb")
        try "{\"@@locale\": \"pl\", \"verification_code_expiry\": \"{code} {minutes, plural, one {# minutę} other {# minut}}\"}"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["catalog", "import", file.path])
        #expect(result.stderr.contains("few, many"), "\(result.stderr)")
        #expect(result.stderr.contains("missingPluralCategory"))
    }
}
