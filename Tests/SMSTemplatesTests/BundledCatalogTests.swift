import Foundation
import Testing
@testable import SMSTemplates

/// The bundled catalogs: present, compiled by ICU, complete plurals, generated file up to date.
@Suite struct BundledCatalogTests {
    static let expectedLocales = [
        "af", "am", "ar", "as", "az", "bg", "bn", "bs", "ca", "cs", "da", "de", "el", "en", "es", "es-419",
        "et", "fa", "fi", "fil", "fr", "ga", "gu", "ha", "he", "hi", "hr", "hu", "hy", "id", "ig", "it",
        "ja", "ka", "kk", "km", "kn", "ko", "ky", "lo", "lt", "lv", "mk", "ml", "mr", "ms", "my", "nb",
        "ne", "nl", "or", "pa", "pl", "ps", "pt-BR", "pt-PT", "ro", "ru", "rw", "si", "sk", "sl", "sq", "sr",
        "sr-Latn", "sv", "sw", "ta", "te", "th", "tr", "uk", "ur", "uz", "vi", "yo", "zh-Hans", "zh-Hant", "zu",
        // The second pass.
        "be", "ckb", "cy", "ht", "is", "ku", "mg", "mn", "om", "sd", "so", "tg", "ti", "tk",
    ]

    static let catalogs = SMSTemplateRenderer.bundledCatalogs()

    @Test func shipsTheExpectedLocales() {
        #expect(SMSTemplateRenderer.bundledLocales == Self.expectedLocales.sorted())
        #expect(Self.catalogs.count == Self.expectedLocales.count)
        // Every file parsed (bundledCatalogs drops a file that fails to parse).
        #expect(Set(Self.catalogs.map(\.locale)) == Set(Self.expectedLocales))
    }

    @Test(arguments: SMSTemplateRenderer.bundledCatalogs())
    func everyMessageCompilesWithICUAndUsesTheRightArguments(catalog: TemplateCatalog) throws {
        #expect(catalog.messageIDs == MessageID.bundled.sorted())
        for (id, message) in catalog.messages {
            // The public parser's validation: ICU compile + the well-known argument rules.
            try TemplateCatalog.validate(message, id: id, localeID: catalog.localeID)
            let compiled = try #require(try? _CompiledMessage(pattern: message.pattern, localeID: catalog.localeID))
            let names = Set(compiled.arguments.map(\.name))
            let expected: Set<String> = id == .verificationCodeWithExpiry ? ["code", "appName", "minutes"] : ["code", "appName"]
            #expect(names == expected, "\(catalog.locale) \(id)")
        }
    }

    /// For each locale and each plural argument, every category ICU's CLDR rules give for the
    /// locale has its own branch. `other` alone is accepted only where ICU says `other` is the
    /// only category (id, ms, vi, th, zh, ja, ko).
    @Test(arguments: SMSTemplateRenderer.bundledCatalogs())
    func pluralArgumentsCoverEveryCategoryICUGives(catalog: TemplateCatalog) throws {
        var pluralUses = 0
        for (id, message) in catalog.messages {
            let compiled = try #require(try? _CompiledMessage(pattern: message.pattern, localeID: catalog.localeID))
            for use in compiled.pluralUses {
                pluralUses += 1
                let categories = try #require(_ICU.pluralCategories(catalog.localeID, ordinal: use.ordinal))
                #expect(categories.contains("other"))
                let missing = Set(categories).subtracting(use.selectors)
                #expect(missing.isEmpty, "\(catalog.locale) \(id) {\(use.name)} lacks \(missing.sorted()) (ICU: \(categories))")
                let unknown = use.selectors.filter { !$0.hasPrefix("=") && !categories.contains($0) }
                #expect(unknown.isEmpty, "\(catalog.locale) \(id) {\(use.name)} has categories ICU does not use: \(unknown)")
            }
        }
        #expect(pluralUses >= 1)
    }

    @Test func pluralCategoriesICUGivesForKeyLocales() {
        #expect(_ICU.pluralCategories("ar", ordinal: false).map(Set.init) == ["zero", "one", "two", "few", "many", "other"])
        #expect(_ICU.pluralCategories("ru", ordinal: false).map(Set.init) == ["one", "few", "many", "other"])
        #expect(_ICU.pluralCategories("ja", ordinal: false) == ["other"])
    }

    /// Fails when Resources/Catalogs changed without running tools/generate_catalogs.py.
    @Test func generatedSwiftMatchesResourcesCatalogs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Resources/Catalogs")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(names == _bundledCatalogFiles.map(\.name), "run python3 tools/generate_catalogs.py")
        for file in _bundledCatalogFiles {
            let onDisk = try String(contentsOf: directory.appendingPathComponent(file.name), encoding: .utf8)
            #expect(onDisk == file.contents, "\(file.name) differs from BundledCatalogs.swift; run python3 tools/generate_catalogs.py")
        }
    }

    @Test func everyBundledMessageRendersInEveryLocale() throws {
        let renderer = try SMSTemplateRenderer()
        for locale in Self.expectedLocales {
            for id in MessageID.bundled {
                let sms = try renderer.render(id, locale: locale, code: "042917", appName: "Acme", minutes: 7)
                #expect(sms.locale == locale)
                #expect(sms.text.contains("042917"), "\(locale) \(id)")
                #expect(sms.text.contains("Acme"), "\(locale) \(id)")
                #expect(!sms.text.contains("{"), "\(locale) \(id): unformatted argument")
                #expect(sms.segmentCount <= 2, "\(locale) \(id) is \(sms.segmentCount) segments")
            }
        }
    }
}
