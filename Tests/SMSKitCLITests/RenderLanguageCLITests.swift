import Foundation
import Testing

/// `smskit render --to NUMBER`: the number's region picks the language unless --lang is given.
@Suite struct RenderLanguageCLITests {
    static let cases: [(arguments: [String], requested: String, source: String, region: String?)] = [
        (["--to", "+5511987654321"], "pt-BR", "number", "BR"),
        (["--to", "+201001234567"], "ar-EG", "number", "EG"),
        (["--to", "+905321234567"], "tr", "number", "TR"),
        (["--to", "+41446681800"], "de-CH", "number", "CH"),
        (["--to", "+5511987654321", "--lang", "fr"], "fr", "lang", "BR"),
        // SMSKit's region table over CLDR's likely language, and --lang over both.
        (["--to", "+919876543210"], "en-IN", "number", "IN"),
        (["--to", "+919876543210", "--lang", "hi"], "hi", "lang", "IN"),
        (["--to", "+243812345678"], "fr-CD", "number", "CD"),
        (["--lang", "ja"], "ja", "lang", nil),
        (["--to", "+80012345678"], "en", "default", "001"),
    ]

    @Test(arguments: cases)
    func languageFromTheNumber(_ row: (arguments: [String], requested: String, source: String, region: String?)) throws {
        let result = try CLI.run(["render", "--code", "123456", "--app", "Acme", "--format", "json"] + row.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["requested_locale"] as? String == row.requested)
        #expect(object["language_source"] as? String == row.source)
        #expect(object["number_region"] as? String == row.region)
    }

    @Test(arguments: [["--to", "garbage"], ["--to", ""], [] as [String]])
    func badOrMissingLanguageIsAUsageError(_ arguments: [String]) throws {
        let result = try CLI.run(["render", "--code", "123456", "--app", "Acme"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
    }

    /// render warns on stderr and in its JSON when a message goes over its budget.
    @Test func overBudgetIsReported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-budget-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("fr.txt")
        try "verification_code = \(String(repeating: "a", count: 150)) {appName} {code}\n".write(to: file, atomically: true, encoding: .utf8)
        let over = try CLI.run(["render", "--lang", "fr", "--code", "123456", "--app", "Acme Example", "--catalog", file.path, "--format", "json"])
        #expect(over.status == 0, "\(over.stderr)")
        let object = try #require(try over.json() as? [String: Any])
        #expect(object["over_budget"] as? Bool == true)
        #expect(object["budget_segments"] as? Int == 1)
        #expect(object["segments"] as? Int == 2)
        #expect(object["units"] as? Int == 170)
        #expect(over.stderr.contains("warning: verification_code in fr needs 2 SMS segments"))
        let fits = try CLI.run(["render", "--lang", "fr", "--code", "123456", "--app", "Acme", "--format", "json"])
        let fitsObject = try #require(try fits.json() as? [String: Any])
        #expect(fitsObject["over_budget"] as? Bool == false)
        #expect(!fits.stderr.contains("warning"))
    }
}
