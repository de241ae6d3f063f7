import Testing
@testable import SMSTemplates

/// Custom catalogs are checked as strictly as the bundled ones: every plural category the locale
/// needs, and syntax errors that say what is wrong where, in plain words.
@Suite struct StrictCatalogTests {
    struct PluralCase: CustomTestStringConvertible, Sendable {
        let locale: String
        let plural: String
        let missing: String?   // nil: accepted
        var testDescription: String { "\(locale) \(plural)" }
    }

    static let pluralCases: [PluralCase] = [
        PluralCase(locale: "pl", plural: "one {# minutę} other {# minuty}", missing: "few, many"),
        PluralCase(locale: "pl", plural: "one {# minutę} few {# minuty} many {# minut} other {# minuty}", missing: nil),
        PluralCase(locale: "ru", plural: "one {# минуту} few {# минуты} other {# минут}", missing: "many"),
        PluralCase(locale: "ar", plural: "one {دقيقة} other {# دقيقة}", missing: "zero, two, few, many"),
        PluralCase(locale: "en", plural: "one {# minute} other {# minutes}", missing: nil),
        PluralCase(locale: "en", plural: "=1 {# minute} other {# minutes}", missing: "one"),
        PluralCase(locale: "ja", plural: "other {#分}", missing: nil),
        PluralCase(locale: "cy", plural: "one {# funud} other {# munud}", missing: "zero, two, few, many"),
    ]

    @Test(arguments: pluralCases)
    func pluralCategories(_ test: PluralCase) throws {
        let text = "verification_code_expiry = {code} {appName} {minutes, plural, \(test.plural)}"
        guard let missing = test.missing else {
            _ = try TemplateCatalog(parsing: text, locale: test.locale)
            return
        }
        let error = try #require(throws: TemplateError.self) {
            try TemplateCatalog(parsing: text, locale: test.locale, file: "\(test.locale).txt")
        }
        #expect(error.code == .missingPluralCategory)
        #expect(error.message.contains("lacks the categor"))
        #expect(error.message.contains(missing), "\(error)")
        #expect(error.argument == "minutes")
        #expect(error.line == 1 && error.column == 46, "\(error)")
    }

    @Test func selectordinalCategoriesToo() throws {
        let text = "rank = You are {n, selectordinal, one {#st} other {#th}}"
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog(parsing: text, locale: "en") }
        #expect(error.code == .missingPluralCategory)
        #expect(error.message.contains("two, few"), "\(error)")
    }

    struct SyntaxCase: CustomTestStringConvertible, Sendable {
        let pattern: String
        let column: Int        // of the character at fault, in the line "m = <pattern>"
        let shown: String      // the character the message quotes
        let phrase: String     // words the explanation must contain
        var testDescription: String { pattern }
    }

    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(pattern: "Code {code} for {appName", column: 21, shown: "('{')", phrase: "never closed"),
        SyntaxCase(pattern: "{n, plural, one {x}}", column: 5, shown: "", phrase: "'other {...}'"),
        SyntaxCase(pattern: "{n, plural, one {x} one {y} other {z}}", column: 5, shown: "", phrase: "appears twice"),
        SyntaxCase(pattern: "{n, plural, lots {x} other {z}}", column: 5, shown: "", phrase: "is not a plural category in en; use one, other"),
        SyntaxCase(pattern: "{n, plural, one {x} few {y} other {z}}", column: 5, shown: "", phrase: "'few' is not a plural category"),
        SyntaxCase(pattern: "Hello {na me}", column: 5, shown: "", phrase: "an argument is {name}"),
    ]

    @Test(arguments: syntaxCases)
    func syntaxErrorsArePlain(_ test: SyntaxCase) throws {
        let error = try #require(throws: TemplateError.self) {
            try TemplateCatalog(parsing: "m = \(test.pattern)", locale: "en", file: "en.txt")
        }
        #expect(error.code == .patternSyntax)
        #expect(!error.message.contains("U_"), "\(error)")
        #expect(error.message.contains(test.phrase), "\(error)")
        #expect(error.line == 1)
        if !test.shown.isEmpty {
            #expect(error.column == test.column, "\(error)")
            #expect(error.message.contains(test.shown), "\(error)")
        } else {
            #expect((error.column ?? 0) >= test.column, "\(error)")
        }
    }
}
