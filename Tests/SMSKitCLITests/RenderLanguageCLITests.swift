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
}
