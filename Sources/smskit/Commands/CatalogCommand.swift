import ArgumentParser
import Foundation
import SMSKitCommandLine
import SMSTemplates

/// `smskit catalog export|import`: catalogs to and from translators' formats.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Export SMS template catalogs to XLIFF 2.0 or ARB for translators, and import them back.",
        discussion: """
            An export carries each message's English source, description, placeholders, \
            segment budget with the units it leaves before the WebOTP line, and the message \
            rendered at its worst case (XLIFF notes and slr:sizeRestriction; ARB @-metadata), and \
            every comment line of the catalog, so that importing an unchanged export gives the \
            catalog file back byte for byte. An import is refused when a message goes over its \
            budget (the catalog's own, else English's) or lacks a plural form.

            EXAMPLES:
              smskit catalog export --lang pt-BR --format xliff --output pt-BR.xlf
              smskit catalog export --catalog my/fr.txt --format arb > fr.arb
              smskit catalog import pt-BR.xlf --output pt-BR.txt

            \(SMSKitExitCode.helpText)
            """,
        subcommands: [Export.self, Import.self]
    )

    enum Format: String, CaseIterable, ExpressibleByArgument { case xliff, arb }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a catalog (bundled, or a file with --catalog) as XLIFF 2.0 or ARB.")

        @Option(help: ArgumentHelp("A bundled locale to export, e.g. pt-BR.", valueName: "CODE"))
        var lang: String?

        @Option(help: ArgumentHelp("A catalog file to export instead; its name is its locale (fr.txt).", valueName: "FILE"))
        var catalog: String?

        @Option(help: "The format: xliff or arb.")
        var format: Format = .xliff

        @Option(help: ArgumentHelp("Write here instead of stdout.", valueName: "FILE"))
        var output: String?

        func validate() throws {
            if (lang == nil) == (catalog == nil) { throw ValidationError("Give exactly one of --lang CODE or --catalog FILE.") }
        }

        func run() throws {
            let text: String
            let locale: String
            if let catalog {
                text = try CatalogCommand.read(catalog)
                let name = catalog.split(separator: "/").last.map(String.init) ?? catalog
                locale = name.hasSuffix(".txt") ? String(name.dropLast(4)) : name
                do { _ = try TemplateCatalog(parsing: text, locale: locale, file: catalog) } catch { throw RenderCommand.cliError(error) }
            } else {
                let lang = lang ?? ""
                guard let source = TemplateCatalog.bundledSource(for: lang) else {
                    throw CLIError.usage("no bundled catalog is named '\(lang.prefix(64))'; bundled: \(SMSTemplateRenderer.bundledLocales.joined(separator: ", "))")
                }
                text = source
                locale = lang
            }
            let document: _CatalogExchange.Document
            do { document = try _CatalogExchange.document(fromCatalog: text, locale: locale) } catch { throw RenderCommand.cliError(error) }
            let metadata = try CatalogCommand.metadata(catalogText: text, locale: locale)
            let rendered = format == .xliff ? _CatalogExchange.xliff(document, metadata: metadata)
                                            : _CatalogExchange.arb(document, metadata: metadata)
            try CatalogCommand.write(rendered, to: output)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read an XLIFF 2.0 or ARB file and write the catalog file (checked as strictly as a loaded catalog).")

        @Argument(help: ArgumentHelp("The .xlf/.xliff or .arb file.", valueName: "FILE"))
        var file: String

        @Option(help: "The format (default: from the file name, else from the content).")
        var format: Format?

        @Option(help: ArgumentHelp("Write the catalog here instead of stdout.", valueName: "FILE"))
        var output: String?

        func run() throws {
            let text = try CatalogCommand.read(file)
            let isARB = format.map { $0 == .arb } ?? (file.hasSuffix(".arb") || text.drop { $0.isWhitespace }.first == "{")
            let document = isARB ? try _CatalogExchange.document(fromARB: text) : try _CatalogExchange.document(fromXLIFF: text)
            let catalog = _CatalogExchange.catalogText(document)
            do {
                // A translation inherits the English budgets: a reviewer's edit that no longer fits
                // is refused here, not found later in production.
                let parsed = try TemplateCatalog(parsing: catalog, locale: document.locale, file: "\(document.locale).txt")
                try parsed.checkBudgets(inheritingFrom: try SMSTemplateRenderer().catalog(for: "en"))
            } catch {
                throw CLIError.failure("the imported \(document.locale) catalog is not valid: \(error) [\(error.code)]")
            }
            try CatalogCommand.write(catalog, to: output)
        }
    }

    static let maximumInput = 4 << 20

    static func read(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError.failure("cannot read '\(path)'") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumInput + 1)) ?? Data()
        guard data.count <= maximumInput else { throw CLIError.failure("'\(path)' is larger than 4 MiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError.failure("'\(path)' is not UTF-8") }
        return text
    }

    static func write(_ text: String, to path: String?) throws {
        guard let path else {
            var output = _Output()
            try output.write(text)
            try output.flush()
            return
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIError.failure("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// Source text, description, budget and arguments per message: the exported catalog's own,
    /// else the bundled English source catalog's.
    static func metadata(catalogText: String, locale: String) throws -> (String) -> _CatalogExchange.Metadata {
        let own = try? TemplateCatalog(parsing: catalogText, locale: locale)
        let english = try SMSTemplateRenderer().catalog(for: "en")
        return { id in
            guard let messageID = MessageID(rawValue: id) else { return .init(source: "", arguments: []) }
            let source = english?.pattern(for: messageID) ?? own?.pattern(for: messageID) ?? ""
            return .init(source: source,
                         description: own?.messageDescription(for: messageID) ?? english?.messageDescription(for: messageID),
                         budget: own?.segmentBudget(for: messageID) ?? english?.segmentBudget(for: messageID),
                         arguments: own?.arguments(of: messageID) ?? english?.arguments(of: messageID) ?? [],
                         worstCase: _CatalogExchange.worstCase(of: messageID, in: own))
        }
    }
}
