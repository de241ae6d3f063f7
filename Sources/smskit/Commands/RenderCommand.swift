import ArgumentParser
import PhoneNumbers
import SMSEncoding
import SMSKitCommandLine
import SMSTemplates
import SMSKitJSON

/// `smskit render`: a localized verification message and how it goes over the air.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a localized verification SMS and show its locale, diagnostics, encoding and segments.",
        discussion: """
            Renders a message of the bundled catalogs (and of --catalog) in the language asked \
            for, falling back along CLDR's parent locales to English; every fallback is reported \
            as a diagnostic. Messages: \(MessageID.bundled.map(\.rawValue).joined(separator: ", ")) \
            (verification_code by default, verification_code_expiry when --minutes is given). \
            Bundled locales: \(SMSTemplateRenderer.bundledLocales.joined(separator: ", ")).

            A catalog file is named after its locale (pt-BR.txt) and holds lines \
            `message_id = ICU MessageFormat pattern`; --catalog takes a file or a directory.

            EXAMPLES:
              smskit render --lang hi --code 123456 --app Acme
              smskit render --lang pt-BR --code 042917 --app Acme --minutes 10 --format json
              smskit render --lang tr --code 123456 --app Acme --national-tables turkish
              smskit render --to +5511987654321 --code 123456 --app Acme

            With --to and no --lang, the language is CLDR's likely language of the number's \
            region (+55 → pt-BR, +20 → ar-EG, +90 → tr); --lang always wins.

            \(SMSKitExitCode.helpText)
            """
    )

    @Option(help: ArgumentHelp("The message ID (default: verification_code, or verification_code_expiry with --minutes).", valueName: "ID"))
    var message: String?

    @Option(help: ArgumentHelp("The language: a BCP 47 tag such as hi, pt-BR, zh-Hant, ar-EG. Wins over --to.", valueName: "CODE"))
    var lang: String?

    @Option(help: ArgumentHelp("The recipient's number in international form (+5511...): without --lang, its region's language is used.", valueName: "NUMBER"))
    var to: String?

    @Option(help: ArgumentHelp("The verification code (digits; other scripts' digits are folded to ASCII).", valueName: "CODE"))
    var code: String

    @Option(help: ArgumentHelp("The app name shown in the message.", valueName: "NAME"))
    var app: String

    @Option(help: ArgumentHelp("Minutes until the code expires.", valueName: "N"))
    var minutes: Int?

    @Option(help: ArgumentHelp("Append the WebOTP line '@DOMAIN #CODE' for browser autofill.", valueName: "DOMAIN"))
    var webotp: String?

    @Option(name: .customLong("app-hash"), help: ArgumentHelp("Append Android's SMS Retriever app hash (11 characters).", valueName: "HASH"))
    var appHash: String?

    @Option(help: ArgumentHelp("A catalog file or directory to add to (or override) the bundled catalogs.", valueName: "PATH"))
    var catalog: String?

    @Option(name: .customLong("segment-budget"), help: ArgumentHelp("Warn when the message needs more segments than this (default: the catalog's budget, 1 for bundled messages).", valueName: "N"))
    var segmentBudget: Int?

    @OptionGroup var encoderOptions: EncoderOptions

    @Option(help: "Output format: text or json.")
    var format: DetailFormat = .text

    func validate() throws {
        if lang == nil && to == nil { throw ValidationError("Give --lang CODE, --to NUMBER, or both.") }
        if let minutes, minutes < 0 { throw ValidationError("--minutes must not be negative.") }
        if let segmentBudget, segmentBudget < 1 { throw ValidationError("--segment-budget must be at least 1.") }
        if let message, MessageID(rawValue: message) == nil {
            throw ValidationError("'\(message.prefix(64))' is not a message ID (ASCII letters, digits, '_', '.', '-').")
        }
    }

    func run() throws {
        let messageID = message.flatMap(MessageID.init(rawValue:))
            ?? (minutes == nil ? .verificationCode : .verificationCodeWithExpiry)
        let rendered: RenderedMessage
        let encoder = encoderOptions.encoder
        do {
            let catalogs = try catalog.map { try TemplateCatalog.load(path: $0) } ?? []
            let renderer = try SMSTemplateRenderer(catalogs: catalogs, encoder: encoder)
            let options = RenderOptions(webOTPOrigin: webotp, smsRetrieverAppHash: appHash, segmentBudget: segmentBudget,
                                        encodingAnalysis: .full)
            rendered = try renderer.render(messageID, locale: try language().tag, code: code, appName: app, minutes: minutes, options: options)
        } catch let error as TemplateError {
            throw Self.cliError(error)
        }
        // `.full` asks for the analysis; the fallback only guards against a renderer that skips it.
        let analysis = rendered.encoding ?? encoder.analyze(rendered.text)
        if rendered.isOverBudget, let budget = rendered.segmentBudget {
            _Stderr.write("smskit: warning: \(rendered.messageID) in \(rendered.locale) needs \(rendered.segmentCount) SMS segments (\(analysis.length) \(analysis.encoding) units); its budget is \(budget)\n")
        }
        var output = _Output()
        switch format {
        case .json: try output.write(json(rendered, analysis: analysis).rendered)
        case .text: try output.write(text(rendered, analysis: analysis))
        }
        try output.flush()
    }

    /// The language to render in: --lang, else the likely language of --to's region, else en.
    func language() throws -> (tag: String, region: String?, source: String) {
        var region: String?
        if let to {
            let engine = PhoneNumberEngine()
            let number: PhoneNumber
            do {
                number = try engine.parse(to, defaultRegion: nil)
            } catch {
                throw CLIError.usage("--to '\(to.prefix(64))' is not a phone number in international form (+CC...): \(error)")
            }
            region = (engine.region(of: number) ?? engine.mainRegion(forCountryCode: number.countryCode))?.identifier
        }
        if let lang { return (lang, region, "lang") }
        if let region, let tag = SMSTemplateRenderer.defaultLanguageCode(forRegion: region) { return (tag, region, "number") }
        return ("en", region, "default")
    }

    /// Catalog problems are failures (exit 1); bad arguments are usage errors (exit 64).
    static func cliError(_ error: TemplateError) -> CLIError {
        let failures: [TemplateError.Code] = [.catalogSyntax, .patternSyntax, .unsupportedArgument, .catalogArgument,
                                              .duplicateMessage, .fileUnreadable, .formatting]
        let message = "\(error) [\(error.code)]"
        return failures.contains(error.code) ? .failure(message) : .usage(message)
    }

    func text(_ rendered: RenderedMessage, analysis: SMSAnalysis) -> String {
        var lines: [String] = []
        lines.append("text:")
        for line in rendered.text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append("  \(line)")
        }
        let requested = rendered.requestedLocale == rendered.locale ? "" : " (requested \(rendered.requestedLocale))"
        lines.append("message:   \(rendered.messageID)")
        lines.append("locale:    \(rendered.locale)\(requested)")
        if let (tag, region, source) = try? language(), source != "lang" {
            lines.append("language:  \(tag) (\(source == "number" ? "the likely language of \(region ?? "?")" : "no language for the number's region \(region ?? "(unknown)"); used en"))")
        }
        if !rendered.diagnostics.isEmpty {
            lines.append("diagnostics:")
            for diagnostic in rendered.diagnostics {
                lines.append("  \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]")
            }
        }
        return lines.joined(separator: "\n") + "\n" + SegmentsCommand.text(analysis)
    }

    func json(_ rendered: RenderedMessage, analysis: SMSAnalysis) -> JSONValue {
        let language = try? language()
        return JSONValue(rendered, analysis: analysis, language: (language?.source ?? "lang", language?.region))
    }
}
