import ArgumentParser
import SMSKitCommandLine
import Foundation
import PhoneNumbers
import PhoneVerification
import SMSKitJSON
import SMSKitServer

/// `smskit verify start NUMBER`: sends a code and prints the verification ID.
struct VerifyStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Send a verification code to a number (or resend it) and print the verification ID.",
        discussion: """
            JSON output: id, e164, locale, segments, expires_at, resend_allowed_at, test, resend. \
            A refusal prints the service's error document, {"error": {"code", "message"}}, with --format json and exits 1.
            """
    )

    @Argument(help: "The phone number: E.164, international, or national with --region.")
    var number: String

    @Option(name: .long, help: "The region national numbers are dialled from (e.g. US).")
    var region: String?

    @Option(name: .customLong("lang"), help: "The SMS language (e.g. pt-BR); default: the number's region's.")
    var languageCode: String?

    @Option(name: .long, help: "Who asks (e.g. an IP address), for the per-client limit.")
    var client: String?

    @Option(name: .long, help: "The JSON-lines outbox the SMS is appended to (default ./smskit-outbox.jsonl).")
    var outbox: String = _VerifyEnvironment.defaultOutbox

    @Option(name: .long, help: ArgumentHelp("Where the SMS goes, as for 'smskit serve': outbox:PATH or kannel:URL [SMSKIT_SENDER]; default the outbox.", valueName: "SCHEME:VALUE"))
    var sender: String?

    @Option(name: .long, help: "The app name in the SMS.")
    var app: String = "SMSKit"

    @OptionGroup var options: VerifyStoreOptions

    func run() async throws {
        var defaultRegion: RegionCode?
        if let region {
            guard let code = RegionCode(region) else { throw CLIError.usage("--region \(region) is not a region code") }
            defaultRegion = code
        }
        let location = try _VerifyEnvironment.location(options.store)
        let senderLocation = try _VerifyEnvironment.senderLocation(sender, outbox: outbox)
        let secret = try _VerifyEnvironment.secret(storePath: location.file)
        let registry = try _VerifyEnvironment.registry(path: _VerifyEnvironment.testNumbersPath(options.testNumbers))
        let store = try _VerifyEnvironment.store(location)
        if case .outbox(let path) = senderLocation, let warning = PrivateFile.warning(for: path) {
            _Stderr.write("smskit: warning: \(warning)\n")
        }
        let verifier: PhoneVerifier
        do {
            verifier = try PhoneVerifier(store: store.store, sender: _VerifyEnvironment.sender(senderLocation), secret: secret,
                                         testNumbers: registry, configuration: VerificationConfiguration(appName: app))
        } catch {
            throw CLIError.usage(error.message)
        }
        let (number, languageCode, client, format, region) = (number, languageCode, client, options.format, defaultRegion)
        let outcome: Result<StartedVerification, VerificationError>
        do {
            outcome = .success(try await _VerifyEnvironment.withStore(store) {
                try await verifier.start(phoneNumber: number, defaultRegion: region,
                                         languageCode: languageCode, clientKey: client)
            })
        } catch let error as VerificationError {
            outcome = .failure(error)
        }
        switch outcome {
        case .failure(let error):
            throw _VerifyEnvironment.refusal(error, format: format)
        case .success(let started):
            switch format {
            case .json:
                print(VerificationDocuments.started(started).rendered, terminator: "")
            case .text:
                print(started.id)
                let what = started.isTest ? "test number: no SMS sent" :
                    "\(started.segments) SMS segment\(started.segments == 1 ? "" : "s") in \(started.locale) handed to \(senderLocation)"
                _Stderr.write("smskit: \(started.isResend ? "resent" : "sent") to \(started.e164) (\(what)); "
                              + "expires \(VerificationDocuments.timestamp(started.expiresAt))\n")
            }
        }
    }
}
