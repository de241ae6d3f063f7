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
        #expect(xliff.contains("<unit id=\"verification_code_expiry\" slr:sizeRestriction=\"49\">"))
        #expect(xliff.contains("<note category=\"description\">The verification message"))
        #expect(xliff.contains("<note category=\"placeholder\">{minutes}: a number, e.g. 10</note>"))
        #expect(xliff.contains("<source>{code} is your {appName} verification code.</source>"))
    }

    /// The reviewer's kit: per unit the budget in units before the WebOTP line and the message
    /// rendered at its worst case (12-character app name, 6-digit code, numbers to 120, the line).
    @Test func xliffCarriesTheBudgetInUnitsAndTheWorstCase() throws {
        let result = try CLI.run(["catalog", "export", "--lang", "ru", "--format", "xliff"])
        #expect(result.status == 0, "\(result.stderr)")
        let xliff = result.stdout
        #expect(xliff.contains("<note category=\"budget\">At most 1 SMS segment with the WebOTP line on the last line: 139 GSM-7 characters, or 49 UCS-2 units"))
        #expect(xliff.contains("<note category=\"example\">Worst case: "))
        #expect(xliff.contains("UCS-2 units before the WebOTP line: Вход в Acme Example: 123456. Никому не сообщайте&#10;@example.com #123456</note>"))
        #expect(xliff.contains("<source>{code} is your {appName} sign-in code. Don&apos;t share it with anyone.</source>")
                || xliff.contains("<source>{code} is your {appName} sign-in code. Don't share it with anyone.</source>"))
    }

    @Test func arbCarriesTheBudgetInUnitsAndTheWorstCase() throws {
        let result = try CLI.run(["catalog", "export", "--lang", "ru", "--format", "arb"])
        let object = try #require(try result.json() as? [String: Any])
        let meta = try #require(object["@verification_code_expiry"] as? [String: Any])
        let units = try #require(meta["x-smskit-budget-units"] as? [String: Any])
        #expect(units["gsm7"] as? Int == 139)
        #expect(units["ucs2"] as? Int == 49)
        let worst = try #require(meta["x-smskit-worst-case"] as? [String: Any])
        #expect(worst["encoding"] as? String == "ucs2")
        let before = try #require(worst["units_before_webotp_line"] as? Int)
        #expect(before > 30 && before <= 49)
        #expect((worst["text"] as? String)?.hasSuffix("\n@example.com #123456") == true)
        #expect((worst["text"] as? String)?.contains("Acme Example") == true)
    }

    /// A reviewer's edit round-trips: only the edited message changes in the catalog file. An edit
    /// that breaks the inherited English budget or drops a plural form is refused.
    @Test func reviewersEditsRoundTripAndAreChecked() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("ru.xlf")
        #expect(try CLI.run(["catalog", "export", "--lang", "ru", "--output", exported.path]).status == 0)
        let xliff = try String(contentsOf: exported, encoding: .utf8)
        let original = try String(contentsOf: Self.catalogDirectory.appendingPathComponent("ru.txt"), encoding: .utf8)
        let oldTarget = "<target>Вход в {appName}: {code}. Никому не сообщайте</target>"
        #expect(xliff.contains(oldTarget))

        func importing(_ target: String) throws -> (status: Int32, stdout: String, stderr: String) {
            let edited = directory.appendingPathComponent("edited.xlf")
            try xliff.replacingOccurrences(of: oldTarget, with: "<target>\(target)</target>")
                .write(to: edited, atomically: true, encoding: .utf8)
            let result = try CLI.run(["catalog", "import", edited.path])
            return (result.status, result.stdout, result.stderr)
        }

        let good = try importing("Код входа {appName}: {code}. Не говорите")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == original.replacingOccurrences(of: "login_code = Вход в {appName}: {code}. Никому не сообщайте",
                                                             with: "login_code = Код входа {appName}: {code}. Не говорите"))

        let long = try importing("Код для входа в приложение {appName}: {code}. Никому и никогда его не сообщайте")
        #expect(long.status == 1)
        #expect(long.stderr.contains("overBudget") && long.stderr.contains("49 UCS-2 units"), "\(long.stderr)")

        let plural = xliff.replacingOccurrences(of: " few {# минуты}", with: "")
        #expect(plural != xliff)
        let pluralFile = directory.appendingPathComponent("plural.xlf")
        try plural.write(to: pluralFile, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["catalog", "import", pluralFile.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("missingPluralCategory"), "\(refused.stderr)")
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
