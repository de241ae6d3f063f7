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

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a catalog (bundled, or a file with --catalog) as XLIFF 2.0 or ARB.")

        @Option(help: ArgumentHelp("A bundled locale to export, e.g. pt-BR.", valueName: "CODE"))
        var lang: String?

        @Option(help: ArgumentHelp("A catalog file to export instead; its name is its locale (fr.txt).", valueName: "FILE"))
        var catalog: String?

        @Option(help: "The format: xliff or arb.")
        var format: CatalogExchangeFormat = .xliff

        @Option(help: ArgumentHelp("Write here instead of stdout.", valueName: "FILE"))
        var output: String?

        func validate() throws {
            if (lang == nil) == (catalog == nil) { throw ValidationError("Give exactly one of --lang CODE or --catalog FILE.") }
        }

        func run() throws {
            let exported: String
            do {
                if let catalog {
                    exported = try TemplateCatalog.export(contentsOfFile: catalog, as: format)
                } else {
                    let lang = lang ?? ""
                    guard let text = TemplateCatalog.bundledSource(for: lang) else {
                        throw CLIError.usage("no bundled catalog is named '\(lang.prefix(64))'; bundled: \(SMSTemplateRenderer.bundledLocales.joined(separator: ", "))")
                    }
                    exported = try TemplateCatalog.export(catalogText: text, locale: lang, as: format)
                }
            } catch let error as TemplateError {
                throw RenderCommand.cliError(error)
            }
            try CatalogCommand.write(exported, to: output)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read an XLIFF 2.0 or ARB file and write the catalog file (checked as strictly as a loaded catalog).")

        @Argument(help: ArgumentHelp("The .xlf/.xliff or .arb file.", valueName: "FILE"))
        var file: String

        @Option(help: "The format (default: from the file name, else from the content).")
        var format: CatalogExchangeFormat?

        @Option(help: ArgumentHelp("Write the catalog here instead of stdout.", valueName: "FILE"))
        var output: String?

        func run() throws {
            let imported: ImportedCatalog
            do {
                imported = try TemplateCatalog.importCatalog(contentsOfFile: file, as: format)
            } catch {
                // Every refusal of a translator's file is a failure of its content, not of the command line.
                throw CLIError.failure("\(error) [\(error.code)]")
            }
            try CatalogCommand.write(imported.text, to: output)
        }
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
}

// The library's formats are the command's: `--format xliff|arb`.
extension CatalogExchangeFormat: ExpressibleByArgument {}
