import ArgumentParser
import SMSKitCommandLine
import Foundation
import PhoneVerification
import SMSKitJSON

/// `smskit verify check ID CODE`: checks a code; exit 0 only when approved.
struct VerifyCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a code against a verification ID; exits 0 only when it is approved.",
        discussion: """
            Prints the status: approved, incorrect_code, expired, too_many_attempts, not_found or \
            already_used. JSON output: status, attempts_left (for incorrect_code), e164 (when approved).
            """
    )

    @Argument(help: "The verification ID printed by 'smskit verify start'.")
    var id: String

    @Argument(help: "The code from the SMS.")
    var code: String

    @OptionGroup var options: VerifyStoreOptions

    func run() throws {
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
        let (id, code, format) = (id, code, options.format)
        let outcome: Result<CheckResult, VerificationError>
        do {
            outcome = .success(try _VerifyEnvironment.withStore(store) { try await verifier.check(id: id, code: code) })
        } catch let error as VerificationError {
            outcome = .failure(error)
        }
        switch outcome {
        case .failure(let error):
            throw _VerifyEnvironment.refusal(error, format: format)
        case .success(let result):
            switch format {
            case .json:
                var fields: [(String, JSONValue)] = [("status", .string(result.status))]
                if case .incorrectCode(let left) = result { fields.append(("attempts_left", .int(left))) }
                if case .approved(let e164) = result { fields.append(("e164", .string(e164))) }
                print(JSONValue.object(fields).rendered, terminator: "")
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
