import ArgumentParser
import SMSKitCommandLine
import Foundation
import PhoneVerification
import SMSKitJSON
import SMSKitServer

/// `smskit verify check ID [CODE]`: checks a code (from stdin when it is not given); exit 0 only
/// when approved.
struct VerifyCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a code against a verification ID; exits 0 only when it is approved.",
        discussion: """
            Prints the status: approved, incorrect_code, expired, too_many_attempts, not_found or \
            already_used. JSON output: status, attempts_left (for incorrect_code), e164 (when approved).

            Without CODE, the code is the first line of stdin (on a terminal: a prompt, no echo). \
            A CODE argument works too, but other local users can read it in ps while the check runs. \
            An ID may start with '-': give the options first and '--' before it \
            (smskit verify check --store FILE -- -AbC...).
            """
    )

    @Argument(help: "The verification ID printed by 'smskit verify start'.")
    var id: String

    @Argument(help: "The code from the SMS; read from stdin when absent (an argument is visible in ps).")
    var code: String?

    @OptionGroup var options: VerifyStoreOptions

    func run() async throws {
        let location = try _VerifyEnvironment.location(options.store)
        if let path = location.file, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no store at \(path); start a verification first or give --store")
        }
        let secret = try _VerifyEnvironment.secret(storePath: location.file)
        let store = try _VerifyEnvironment.store(location)
        let verifier: PhoneVerifier
        do {
            verifier = try PhoneVerifier(store: store.store, sender: OutboxSender(path: "/dev/null"), secret: secret)
        } catch {
            throw CLIError.usage(error.message)
        }
        // At most a few digits are a code; the bound keeps a stray pipe from being read whole.
        let code = try self.code ?? _readSecretLine(prompt: "Code: ", limit: 64, what: "code")
        let (id, format) = (id, options.format)
        let outcome: Result<CheckResult, VerificationError>
        do {
            outcome = .success(try await _VerifyEnvironment.withStore(store) { try await verifier.check(id: id, code: code) })
        } catch let error as VerificationError {
            outcome = .failure(error)
        }
        switch outcome {
        case .failure(let error):
            throw _VerifyEnvironment.refusal(error, format: format)
        case .success(let result):
            switch format {
            case .json:
                print(JSONValue.object(VerificationDocuments.checked(result)).rendered, terminator: "")
            case .text:
                if case .incorrectCode(let left) = result {
                    print("\(result.status) (\(left) attempt\(left == 1 ? "" : "s") left)")
                } else {
                    print(result.status)
                }
            }
            if !result.isApproved { throw CLIError.failure("not approved: \(result.status)") }
        }
    }
}
