import ArgumentParser
import SMSKitCommandLine
import Foundation
import PhoneVerification
import SMSKitJSON
import SMSKitServer

/// `smskit verify status ID`: a verification with the delivery state of each SMS sent for it.
struct VerifyStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show a verification and the delivery state of each SMS sent for it.",
        discussion: """
            Prints the status (pending, approved, expired, max_attempts, closed or cancelled), the \
            number, attempts left, expiry and one line per SMS with its delivery state (queued, \
            accepted, delivered, failed with its error code, expired, unknown). JSON output: the \
            body of GET /v1/verifications/{id}, with the number in full. Exits 1 when there is no \
            such verification.
            """
    )

    @Argument(help: "The verification ID printed by 'smskit verify start'.")
    var id: String

    @Flag(name: .long, help: "Mask the number but its last two digits, as the service does for keys that are not trusted.")
    var mask = false

    @OptionGroup var options: VerifyStoreOptions

    func run() async throws {
        let (verifier, store) = try _VerifyEnvironment.existingVerifier(options)
        let id = id
        let status: VerificationStatus?
        do {
            status = try await _VerifyEnvironment.withStore(store) { try await verifier.status(id: id) }
        } catch let error as VerificationError {
            throw _VerifyEnvironment.refusal(error, format: options.format)
        }
        guard let status else { throw CLIError.failure("there is no verification \(id)") }
        let now = verifier.currentDate
        switch options.format {
        case .json:
            print(JSONValue(status, at: now, revealNumber: !mask).rendered, terminator: "")
        case .text:
            let record = status.record
            print("\(status.phase(at: now)) \(mask ? VerificationStatus.masked(record.e164) : record.e164) "
                  + "attempts_left=\(status.attemptsLeft(at: now)) expires_at=\(record.expiresAt.formatted(.iso8601))")
            for message in status.messages {
                let error = message.errorCode.map { " error=\($0)" } ?? ""
                print("sms \(message.sequence): \(message.state.rawValue)\(error) parts="
                      + message.parts.map(\.state.rawValue).joined(separator: ","))
            }
        }
    }
}

/// `smskit verify cancel ID`: afterwards the verification's code approves nothing.
struct VerifyCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a verification; its code then approves nothing.",
        discussion: """
            Prints cancelled, or already_cancelled when it was; exits 1 with already_approved, \
            closed or not_found. JSON output: the body of POST /v1/verifications/{id}/cancel.
            """
    )

    @Argument(help: "The verification ID printed by 'smskit verify start'.")
    var id: String

    @OptionGroup var options: VerifyStoreOptions

    func run() async throws {
        let (verifier, store) = try _VerifyEnvironment.existingVerifier(options)
        let id = id
        let outcome: CancelOutcome
        do {
            outcome = try await _VerifyEnvironment.withStore(store) { try await verifier.cancel(id: id) }
        } catch let error as VerificationError {
            throw _VerifyEnvironment.refusal(error, format: options.format)
        }
        switch options.format {
        case .json: print(JSONValue(cancelled: id, outcome: outcome).rendered, terminator: "")
        case .text: print(outcome.rawValue)
        }
        if outcome != .cancelled, outcome != .alreadyCancelled {
            throw CLIError.failure("not cancelled: \(outcome.rawValue)")
        }
    }
}
