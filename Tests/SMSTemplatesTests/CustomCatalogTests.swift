import Foundation
import Testing
@testable import SMSTemplates

@Suite struct CustomCatalogTests {
    struct ErrorCase: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let code: TemplateError.Code
        let messageID: String?
        let line: Int
        let column: Int?
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(name: "unmatched brace", text: "# comment\n\nlogin_code = Code {code} for {appName\n",
                  code: .patternSyntax, messageID: "login_code", line: 3, column: nil),
        ErrorCase(name: "numbered argument", text: "login_code = Your code {0}",
                  code: .unsupportedArgument, messageID: "login_code", line: 1, column: 25),
        ErrorCase(name: "date argument", text: "promo = Sale ends {end, date, short}",
                  code: .unsupportedArgument, messageID: "promo", line: 1, column: 25),
        ErrorCase(name: "column after an escape", text: "x = a\\nb {0}",
                  code: .unsupportedArgument, messageID: "x", line: 1, column: 11),
        ErrorCase(name: "unknown argument in a known message", text: "\nverification_code = {code} for {user}",
                  code: .catalogArgument, messageID: "verification_code", line: 2, column: 33),
        ErrorCase(name: "known message without its code", text: "mfa_code = Hello {appName}",
                  code: .catalogArgument, messageID: "mfa_code", line: 1, column: 12),
        ErrorCase(name: "minutes used as select", text: "verification_code_expiry = {code} {minutes, select, other {x}}",
                  code: .catalogArgument, messageID: "verification_code_expiry", line: 1, column: 36),
        ErrorCase(name: "no equals sign", text: "a = ok\n  just text",
                  code: .catalogSyntax, messageID: nil, line: 2, column: 3),
        ErrorCase(name: "bad message ID", text: "bad id! = x",
                  code: .catalogSyntax, messageID: nil, line: 1, column: 1),
        ErrorCase(name: "unknown escape", text: "a = tab\\there",
                  code: .catalogSyntax, messageID: "a", line: 1, column: 8),
        ErrorCase(name: "empty pattern", text: "a =   ",
                  code: .catalogSyntax, messageID: "a", line: 1, column: 7),
        ErrorCase(name: "duplicate", text: "a = one\na = two",
                  code: .duplicateMessage, messageID: "a", line: 2, column: 1),
    ]

    @Test(arguments: errorCases)
    func syntaxErrorsNameFileMessageLineAndColumn(_ test: ErrorCase) {
        #expect {
            _ = try TemplateCatalog(parsing: test.text, locale: "en", file: "custom/en.txt")
        } throws: { error in
            guard let error = error as? TemplateError else { return false }
            #expect(error.code == test.code, "\(error)")
            #expect(error.file == "custom/en.txt")
            #expect(error.messageID?.rawValue == test.messageID)
            #expect(error.line == test.line, "\(error)")
            if let column = test.column { #expect(error.column == column, "\(error)") } else { #expect(error.column != nil) }
            #expect(error.description.hasPrefix("custom/en.txt:\(test.line):"))
            return true
        }
    }

    @Test func unmatchedBraceColumnPointsIntoThePattern() throws {
        let error = try #require(throws: TemplateError.self) {
            try TemplateCatalog(parsing: "login_code = Code {code} for {appName", locale: "en", file: "en.txt")
        }
        // The pattern starts at column 14; ICU reports the offset where the argument breaks off.
        #expect(error.column.map { $0 >= 14 && $0 <= 38 } == true, "\(error)")
    }

    @Test func invalidLocaleName() {
        #expect { try TemplateCatalog(parsing: "a = b", locale: "not a locale") } throws: {
            ($0 as? TemplateError)?.code == .invalidLocale
        }
    }

    @Test func escapesAndComments() throws {
        let catalog = try TemplateCatalog(parsing: "\u{FEFF}# c\r\n  # indented comment\r\nmulti = Line 1\\nLine 2 \\\\ {code}\r\n", locale: "en_GB")
        #expect(catalog.locale == "en-GB")
        #expect(catalog.pattern(for: MessageID(rawValue: "multi")!) == "Line 1\nLine 2 \\ {code}")
    }

    @Test func userCatalogsOverrideBundledMessagesOneByOne() throws {
        let french = try TemplateCatalog(parsing: "verification_code = {appName} : code {code}", locale: "fr")
        let renderer = try SMSTemplateRenderer(catalogs: [french])
        let overridden = try renderer.render(.verificationCode, locale: "fr-CA", code: "1234", appName: "Acme")
        #expect(overridden.text == "Acme : code 1234")
        let bundled = try renderer.render(.loginCode, locale: "fr", code: "1234", appName: "Acme")
        #expect(bundled.text == "1234 est votre code de connexion Acme. Ne le communiquez à personne.")
    }

    @Test func customMessagesWithSelectAndMessageFallback() throws {
        let english = try TemplateCatalog(parsing: """
            welcome = {role, select, admin {Welcome, admin {name}.} other {Welcome, {name}.}} Code: {code}
            """, locale: "en")
        let renderer = try SMSTemplateRenderer(catalogs: [english])
        let id = try #require(MessageID(rawValue: "welcome"))
        let admin = try renderer.render(id, locale: "en", arguments: ["role": "admin", "name": "Ana", "code": "99"])
        #expect(admin.text == "Welcome, admin Ana. Code: 99")
        // French has a bundled catalog but not this message: the chain continues to the default.
        let french = try renderer.render(id, locale: "fr", arguments: ["role": "x", "name": "Zoé", "code": "99"])
        #expect(french.text == "Welcome, Zoé. Code: 99")
        #expect(french.locale == "en")
        #expect(french.diagnostics.contains { $0.code == .messageFallback })
        #expect { try renderer.render(id, locale: "en", arguments: ["role": "admin", "code": "1"]) } throws: {
            ($0 as? TemplateError)?.code == .missingArgument && ($0 as? TemplateError)?.argument == "name"
        }
        #expect { try renderer.render(id, locale: "en", arguments: ["role": 3, "name": "A", "code": "1"]) } throws: {
            ($0 as? TemplateError)?.code == .argumentType
        }
    }

    @Test func loadsFilesAndDirectories() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-catalogs-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "verification_code = {code} — {appName} (Portugal)\n".write(to: directory.appendingPathComponent("pt-PT.txt"), atomically: true, encoding: .utf8)
        try "reset = Reset code {code}\n".write(to: directory.appendingPathComponent("en.txt"), atomically: true, encoding: .utf8)
        try "ignored".write(to: directory.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)

        let catalogs = try TemplateCatalog.load(path: directory.path)
        #expect(catalogs.map(\.locale) == ["en", "pt-PT"])
        let renderer = try SMSTemplateRenderer(catalogs: catalogs)
        #expect(try renderer.render(.verificationCode, locale: "pt-AO", code: "1", appName: "A").text == "1 — A (Portugal)")
        #expect(try renderer.render(MessageID(rawValue: "reset")!, locale: "en-US", arguments: ["code": "7"]).text == "Reset code 7")

        let single = try TemplateCatalog.load(path: directory.appendingPathComponent("en.txt").path)
        #expect(single.count == 1)

        // A broken file is named in the error, with its line and column.
        let broken = directory.appendingPathComponent("de.txt")
        try "# Deutsch\nlogin_code = Code {code für {appName}\n".write(to: broken, atomically: true, encoding: .utf8)
        let error = try #require(throws: TemplateError.self) { try TemplateCatalog.load(directory: directory.path) }
        #expect(error.file == broken.path)
        #expect(error.line == 2)
        #expect(error.messageID == .loginCode)

        // Invalid UTF-8 and missing files are typed errors.
        try Data([0x61, 0x20, 0x3D, 0x20, 0xFF, 0xFE]).write(to: broken)
        #expect { try TemplateCatalog(contentsOfFile: broken.path) } throws: { ($0 as? TemplateError)?.code == .fileUnreadable }
        #expect { try TemplateCatalog(contentsOfFile: directory.appendingPathComponent("xx.txt").path) } throws: {
            ($0 as? TemplateError)?.code == .fileUnreadable
        }
        #expect { try TemplateCatalog.load(directory: directory.appendingPathComponent("nope").path) } throws: {
            ($0 as? TemplateError)?.code == .fileUnreadable
        }
    }
}
