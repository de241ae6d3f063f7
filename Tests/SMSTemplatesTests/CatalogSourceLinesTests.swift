import SMSTemplates
import Testing

/// The catalog's lines for exchange tools, read by the loader's own parser.
@Suite("TemplateCatalog source lines")
struct CatalogSourceLinesTests {
    @Test("an escape the loader refuses is refused, with its line and column", arguments: [#"\t"#, #"\u0041"#, #"\""#, "\\"])
    func unknownEscape(_ escape: String) throws {
        let text = "# a comment\nverification_code = Code {code}\(escape) here\n"
        #expect(throws: TemplateError.self) { try TemplateCatalog(parsing: text, locale: "en") }
        do {
            _ = try TemplateCatalog.sourceLines(of: text, file: "en.txt")
            Issue.record("accepted \(escape)")
        } catch {
            #expect(error.code == .catalogSyntax)
            #expect(error.line == 2)
        }
    }

    @Test("other lines are kept verbatim; a message line written back reads as the same pattern")
    func roundTrip() throws {
        let text = "\u{FEFF}# title\r\n\n# @budget verification_code 1\nverification_code = a\\\\b\\n{code}\r\n  # indented"
        let lines = try TemplateCatalog.sourceLines(of: text)
        #expect(lines == [
            .other("\u{FEFF}# title\r"), .other(""), .other("# @budget verification_code 1"),
            .message(id: .verificationCode, pattern: "a\\b\n{code}"), .other("  # indented"),
        ])
        let written = TemplateCatalog.sourceLine(id: .verificationCode, pattern: "a\\b\n{code}")
        #expect(written == #"verification_code = a\\b\n{code}"#)
        #expect(try TemplateCatalog.sourceLines(of: written) == [.message(id: .verificationCode, pattern: "a\\b\n{code}")])
    }
}
