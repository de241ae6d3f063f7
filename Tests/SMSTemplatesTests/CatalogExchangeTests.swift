import Foundation
import SMSTemplates
import Testing

/// Catalogs to and from XLIFF 2.0 and ARB: lossless round trips, imports checked as loaded
/// catalogs are, and translators' files from anyone refused with a typed error, never a crash,
/// a hang or memory out of proportion to the file.
@Suite("Catalog exchange (XLIFF, ARB)")
struct CatalogExchangeTests {
    @Test("every bundled catalog comes back byte for byte", arguments: CatalogExchangeFormat.allCases)
    func bundledRoundTrip(_ format: CatalogExchangeFormat) throws {
        #expect(SMSTemplateRenderer.bundledLocales.count >= 32)
        for locale in SMSTemplateRenderer.bundledLocales {
            let text = try #require(TemplateCatalog.bundledSource(for: locale))
            let exported = try TemplateCatalog.export(catalogText: text, locale: locale, as: format)
            let imported = try TemplateCatalog.importCatalog(exported, as: format)
            #expect(imported.text == text, "\(locale) \(format)")
            #expect(imported.catalog.locale == locale)
        }
    }

    /// Comments, blank lines, directives, escapes, CR before a line end, trailing lines.
    static let customCatalog = "\u{FEFF}# Acme's French <&> \"wording\"\r\n\n# @budget verification_code 2\n"
        + "# @description verification_code The code, then the app\tname\n"
        + "verification_code = {code} \\\\ code {appName}\\n<b>&amp;</b>\n\n  # between\n"
        + "login_code = Connexion {appName} : {code}\n# last\n"

    @Test("a catalog with comments, directives and escapes comes back byte for byte", arguments: CatalogExchangeFormat.allCases)
    func customRoundTrip(_ format: CatalogExchangeFormat) throws {
        let exported = try TemplateCatalog.export(catalogText: Self.customCatalog, locale: "fr", as: format)
        let imported = try TemplateCatalog.importCatalog(exported, as: format)
        #expect(imported.text == Self.customCatalog)
        #expect(imported.catalog.pattern(for: .verificationCode) == "{code} \\ code {appName}\n<b>&amp;</b>")
        #expect(imported.catalog.segmentBudget(for: .verificationCode) == 2)
    }

    @Test("the export carries the source text, the budget in units and the worst case")
    func exportCarriesTheReviewersKit() throws {
        let xliff = try TemplateCatalog.export(catalogText: #require(TemplateCatalog.bundledSource(for: "pl")), locale: "pl", as: .xliff)
        #expect(xliff.contains("<unit id=\"verification_code_expiry\" slr:sizeRestriction=\"49\">"))
        #expect(xliff.contains("<source>{code} is your {appName} verification code.</source>"))
        #expect(xliff.contains("<note category=\"placeholder\">{minutes}: a number, e.g. 10</note>"))
        #expect(xliff.contains("<note category=\"example\">Worst case: "))
        // Without a source catalog, the message's own text is its source.
        let own = try TemplateCatalog.export(catalogText: "verification_code = Kod {code} {appName}", locale: "pl", as: .xliff, source: nil)
        #expect(own.contains("<source>Kod {code} {appName}</source>"))
        #expect(!own.contains("sizeRestriction"))
    }

    @Test("an export is refused for a catalog the loader refuses, with its line")
    func exportRefusesWhatTheLoaderRefuses() {
        do {
            _ = try TemplateCatalog.export(catalogText: "# x\nverification_code = a\\t{code} {appName}", locale: "fr", as: .arb)
            Issue.record("exported")
        } catch {
            #expect(error.code == .catalogSyntax)
            #expect(error.line == 2)
        }
    }

    @Test("a foreign XLIFF: no SMSKit notes, CDATA, entities, character references, a byte order mark")
    func foreignXLIFF() throws {
        let xliff = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- made by a tool -->
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr-CA">
              <file id="x"><unit id="verification_code"><segment>
                <source>{code} is your {appName} verification code.</source>
                <target><![CDATA[{code} <est> votre code {appName}]]> &amp; &#x41;&#10;ligne</target>
              </segment></unit></file>
            </xliff>
            """
        let imported = try TemplateCatalog.importCatalog(xliff)
        #expect(imported.text == "verification_code = {code} <est> votre code {appName} & A\\nligne")
        #expect(imported.catalog.locale == "fr-CA")
    }

    static let hostileXLIFF: [(String, String)] = [
        ("unclosed", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"x\"><segment><target>a</target></segment></unit>"),
        ("mismatched close", "<xliff version=\"2.0\" trgLang=\"pl\"><file></unit></xliff>"),
        ("unquoted attribute", "<xliff version=2.0 trgLang=\"pl\"><file/></xliff>"),
        ("bare ampersand", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"a\"><segment><target>a & b</target></segment></unit></file></xliff>"),
        ("undefined entity", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"a\"><segment><target>&lol9;</target></segment></unit></file></xliff>"),
        ("reference to NUL", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"a\"><segment><target>&#0;</target></segment></unit></file></xliff>"),
        ("billion laughs", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
            <xliff version="2.0" trgLang="pl"><file><unit id="verification_code"><segment><target>&lol2;</target></segment></unit></file></xliff>
            """),
        ("external entity", """
            <!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <xliff version="2.0" trgLang="pl"><file><unit id="verification_code"><segment><target>&xxe;</target></segment></unit></file></xliff>
            """),
        ("deep nesting", String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)),
        ("too many elements", "<xliff version=\"2.0\" trgLang=\"pl\"><file>" + String(repeating: "<n/>", count: 70_000) + "</file></xliff>"),
        ("two roots", "<xliff version=\"2.0\" trgLang=\"pl\"><file/></xliff><xliff/>"),
        ("text outside the root", "<xliff version=\"2.0\" trgLang=\"pl\"><file/></xliff>trailing"),
        ("XLIFF 1.2", "<xliff version=\"1.2\"><file/></xliff>"),
        ("no target language", "<xliff version=\"2.0\"><file/></xliff>"),
        ("no file", "<xliff version=\"2.0\" trgLang=\"pl\"></xliff>"),
        ("a unit without a target", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit id=\"verification_code\"><segment><source>a</source></segment></unit></file></xliff>"),
        ("a unit without an id", "<xliff version=\"2.0\" trgLang=\"pl\"><file><unit><segment><target>a</target></segment></unit></file></xliff>"),
        ("empty", ""),
    ]

    @Test("a broken or hostile XLIFF is an exchangeSyntax error", arguments: hostileXLIFF)
    func hostileXLIFFIsRefused(_ row: (String, String)) {
        do {
            _ = try TemplateCatalog.importCatalog(row.1, as: .xliff, file: "in.xlf")
            Issue.record("\(row.0): accepted")
        } catch {
            #expect(error.code == .exchangeSyntax, "\(row.0): \(error)")
            #expect(error.file == "in.xlf")
        }
    }

    static let hostileARB: [(String, String)] = [
        ("not an object", "[\"@@locale\", \"pl\"]"),
        ("no locale", "{\"verification_code\": \"{code} {appName}\"}"),
        ("a message that is not a string", "{\"@@locale\": \"pl\", \"verification_code\": 3}"),
        ("lone high surrogate", "{\"@@locale\": \"pl\", \"verification_code\": \"\\ud800 {code} {appName}\"}"),
        ("high surrogate before a non-surrogate", "{\"@@locale\": \"pl\", \"verification_code\": \"\\ud800\\u0041 {code} {appName}\"}"),
        ("lone low surrogate", "{\"@@locale\": \"pl\", \"verification_code\": \"\\udc00 {code} {appName}\"}"),
        ("unknown escape", "{\"@@locale\": \"pl\", \"verification_code\": \"\\x41 {code} {appName}\"}"),
        ("raw control character", "{\"@@locale\": \"pl\", \"verification_code\": \"a\u{01} {code} {appName}\"}"),
        ("trailing comma", "{\"@@locale\": \"pl\",}"),
        ("not a number", "{\"@@locale\": \"pl\", \"@x\": {\"n\": nan}}"),
        ("leading zero", "{\"@@locale\": \"pl\", \"@x\": {\"n\": 012}}"),
        ("text after the end", "{\"@@locale\": \"pl\"} {}"),
        ("unclosed string", "{\"@@locale\": \"pl"),
        ("deep nesting", String(repeating: "[", count: 10_000)),
        ("too many values", "{\"@@locale\": \"pl\", \"@x\": [" + Array(repeating: "0", count: 300_000).joined(separator: ",") + "]}"),
        ("empty", ""),
    ]

    @Test("a broken or hostile ARB file is an exchangeSyntax error", arguments: hostileARB)
    func hostileARBIsRefused(_ row: (String, String)) {
        do {
            _ = try TemplateCatalog.importCatalog(row.1, as: .arb, file: "in.arb")
            Issue.record("\(row.0): accepted")
        } catch {
            #expect(error.code == .exchangeSyntax, "\(row.0): \(error)")
        }
    }

    @Test("JSON escapes and surrogate pairs read as the characters they name")
    func arbEscapes() throws {
        let arb = #"{"@@locale": "fr", "@@x": [1, -2.5e3, true, null, {}], "verification_code": "\ud83d\ude00 \u00e9\/\"q\" {code} {appName}"}"#
        #expect(try TemplateCatalog.importCatalog(arb).catalog.pattern(for: .verificationCode) == "😀 é/\"q\" {code} {appName}")
    }

    @Test("bytes that are not UTF-8 are refused as unreadable")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("{\"@@locale\": \"fr\", \"verification_code\": \"".utf8) + [0xC3, 0x28] + Array(" {code} {appName}\"}".utf8)
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(bytes: bytes) } == .fileUnreadable)
    }

    @Test("more than 4 MiB is refused before it is parsed, as text, as bytes and as a file")
    func hugeInputIsBounded() throws {
        let huge = "{\"@@locale\": \"fr\", \"@x\": \"" + String(repeating: "a", count: TemplateCatalog.maximumExchangeFileSize) + "\"}"
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(huge) } == .fileUnreadable)
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(bytes: Array(huge.utf8)) } == .fileUnreadable)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-exchange-\(UUID().uuidString).arb").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(huge.utf8).write(to: URL(fileURLWithPath: path))
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(contentsOfFile: path) } == .fileUnreadable)
        // A device that never ends is read no further than the limit.
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(contentsOfFile: "/dev/zero") } == .fileUnreadable)
    }

    @Test("a file's name says ARB; otherwise its content does")
    func formatFromTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-exchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arb = "  {\"@@locale\": \"fr\", \"verification_code\": \"{code} {appName}\"}"
        // Told by the content alone when the name says nothing.
        for name in ["fr.arb", "fr.json", "fr"] {
            let path = directory.appendingPathComponent(name).path
            try Data(arb.utf8).write(to: URL(fileURLWithPath: path))
            #expect(try TemplateCatalog.importCatalog(contentsOfFile: path).text == "verification_code = {code} {appName}")
        }
    }

    @Test("a malformed locale is refused as the loader refuses it, and never used as a path",
          arguments: ["../../etc/passwd", "a b", "x", "fr/../en"])
    func malformedLocale(_ locale: String) throws {
        var arb: [UInt8] = []
        arb += Array("{\"@@locale\": ".utf8)
        arb += Array(Self.jsonString(locale).utf8)
        arb += Array(", \"verification_code\": \"{code} {appName}\"}".utf8)
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(bytes: arb) } == .invalidLocale)
    }

    @Test("a well-formed locale no catalog is bundled for imports as it would load", arguments: ["tlh", "zz", "tok"])
    func unbundledLocale(_ locale: String) throws {
        _ = try TemplateCatalog(parsing: "verification_code = {code} {appName}", locale: locale)
        let arb = "{\"@@locale\": \(Self.jsonString(locale)), \"verification_code\": \"{code} {appName}\"}"
        #expect(try TemplateCatalog.importCatalog(arb).catalog.locale == locale)
    }

    @Test("an import inherits the source catalog's budgets; without a source only its own apply")
    func budgetsAreInherited() throws {
        let long = String(repeating: "д", count: 60)
        let arb = "{\"@@locale\": \"ru\", \"verification_code\": \"\(long) {code} {appName}\"}"
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(arb) } == .overBudget)
        #expect(try TemplateCatalog.importCatalog(arb, source: nil).catalog.segmentBudget(for: .verificationCode) == nil)
        let plural = "{\"@@locale\": \"pl\", \"verification_code_expiry\": \"{code} {appName} {minutes, plural, one {# minutę} other {# minut}}\"}"
        #expect(Self.code { _ = try TemplateCatalog.importCatalog(plural) } == .missingPluralCategory)
    }

    /// The code of the TemplateError `body` throws; nil when it returns.
    static func code(_ body: () throws -> Void) -> TemplateError.Code? {
        do { try body(); return nil } catch { return (error as? TemplateError)?.code }
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\\(scalar)"
            case "\u{0}"..<" ": out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
