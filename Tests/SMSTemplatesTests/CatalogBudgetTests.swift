import SMSEncoding
import Testing
@testable import SMSTemplates

/// `# @budget` and `# @description` in catalogs: parsed, checked at load against the worst case,
/// and applied at render time to custom and bundled messages.
@Suite struct CatalogBudgetTests {
    @Test func bundledSourceCatalogDeclaresBudgetsAndDescriptions() throws {
        let renderer = try SMSTemplateRenderer()
        let english = try #require(renderer.catalog(for: "en"))
        for id in MessageID.bundled {
            #expect(english.segmentBudget(for: id) == 1)
            #expect((english.messageDescription(for: id) ?? "").count > 20)
        }
    }

    @Test func directivesParse() throws {
        let catalog = try TemplateCatalog(parsing: """
            # @description verification_code Say it is a code.
            # @budget verification_code 2
            #  @budget not a directive: two spaces
            verification_code = {code} {appName}
            """, locale: "en-GB")
        #expect(catalog.segmentBudget(for: .verificationCode) == 2)
        #expect(catalog.messageDescription(for: .verificationCode) == "Say it is a code.")
        #expect(catalog.messageIDs == [.verificationCode])
    }

    @Test(arguments: [
        ("# @budget verification_code 0", 1, 29),
        ("# @budget verification_code x", 1, 29),
        ("# @budget verification_code 256", 1, 29),
        ("# @budget", 1, 10),
        ("# @budgett verification_code 1", 1, 3),
        ("# @description verification_code", 1, 16),
        ("# @budget login_code 1", 1, 1),   // names a message the catalog lacks
    ])
    func badDirectives(_ row: (String, Int, Int)) {
        let text = row.0 + "\nverification_code = {code} {appName}"
        #expect { try TemplateCatalog(parsing: text, locale: "en", file: "en.txt") } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.code == .catalogSyntax && error.line == row.1 && error.column == row.2
        }
    }

    /// A budget is checked at load against the worst case: a 12-character app name, a 6-digit
    /// code, every value from 1 to 60.
    @Test func budgetIsCheckedAtLoad() throws {
        // 150 GSM characters + 12 (app name) + 6 (code) > 160: two segments.
        let long = String(repeating: "a", count: 150)
        #expect { try TemplateCatalog(parsing: "# @budget verification_code 1\nverification_code = \(long) {appName} {code}",
                                      locale: "en", file: "en.txt") } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.code == .overBudget && error.line == 2 && error.messageID == .verificationCode
                && error.message.contains("2 SMS segments")
        }
        // Only the worst plural value goes over: 60 minutes in Russian is "минут" (5 letters).
        let padding = String(repeating: "ж", count: 41)
        let pattern = "verification_code_expiry = \(padding) {appName} {code} {minutes, plural, one {# мин} few {# мин} many {# минутами} other {# мин}}"
        #expect { try TemplateCatalog(parsing: "# @budget verification_code_expiry 1\n" + pattern, locale: "ru") } throws: {
            ($0 as? TemplateError)?.code == .overBudget
        }
        // Without the budget the same catalog loads, and two segments are fine with budget 2.
        _ = try TemplateCatalog(parsing: pattern, locale: "ru")
        _ = try TemplateCatalog(parsing: "# @budget verification_code_expiry 2\n" + pattern, locale: "ru")
        let worst = try #require(try TemplateCatalog(parsing: pattern, locale: "ru").worstCaseRendering(of: .verificationCodeWithExpiry))
        #expect(worst.segments == 2)
        #expect(worst.text.contains("Acme Example"))
        #expect(worst.text.contains("123456"))
    }

    /// render warns whenever a message goes over its budget: the options' budget, else the
    /// catalog's, else the default locale catalog's (bundled en declares 1 for every message).
    @Test func renderReportsTheBudget() throws {
        let long = String(repeating: "a", count: 150)
        let custom = try TemplateCatalog(parsing: "verification_code = \(long) {appName} {code}", locale: "fr")
        let renderer = try SMSTemplateRenderer(catalogs: [custom])
        let over = try renderer.render(.verificationCode, locale: "fr", code: "123456", appName: "Acme Example")
        #expect(over.segmentBudget == 1)        // from the bundled en catalog
        #expect(over.segmentCount == 2)
        #expect(over.isOverBudget)
        #expect(over.diagnostics.contains { $0.code == .overSegmentBudget && $0.severity == .warning })
        let allowed = try renderer.render(.verificationCode, locale: "fr", code: "123456", appName: "Acme Example",
                                          options: RenderOptions(segmentBudget: 2))
        #expect(!allowed.isOverBudget && allowed.segmentBudget == 2)
        #expect(!allowed.diagnostics.contains { $0.code == .overSegmentBudget })
        let fits = try renderer.render(.verificationCode, locale: "en", code: "123456", appName: "Acme")
        #expect(fits.segmentBudget == 1 && !fits.isOverBudget)

        let withOwnBudget = try TemplateCatalog(parsing: "# @budget verification_code 3\nverification_code = \(long) {appName} {code}", locale: "fr")
        let lenient = try SMSTemplateRenderer(catalogs: [withOwnBudget])
        #expect(try lenient.render(.verificationCode, locale: "fr", code: "1", appName: "Acme Example").segmentBudget == 3)
        let unbudgeted = try SMSTemplateRenderer(catalogs: [custom], includeBundled: false, defaultLocale: "fr")
        #expect(try unbudgeted.render(.verificationCode, locale: "fr", code: "1", appName: "A").segmentBudget == nil)
    }
}
