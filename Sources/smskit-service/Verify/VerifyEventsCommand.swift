import ArgumentParser
import Foundation
import PhoneVerification
import SMSKitCommandLine
import SMSKitServer

/// `smskit verify events`: the store's events after a cursor, as `GET /v1/events` answers them.
struct VerifyEventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the verification events after a cursor (what webhooks receive).",
        discussion: """
            At most --limit events after --after, in cursor order. JSON output is the body of \
            GET /v1/events: one event a line (id, verification_id, sequence, cursor, kind, time \
            and the kind's fields); text output is cursor, event ID, kind and time separated by \
            tabs. Pass the last cursor printed as --after to go on: no event that commits later \
            is skipped. Events carry the last 2 digits of a number at most, never a code.
            """
    )

    @Option(name: .long, help: "Print the events after this cursor (0: from the oldest kept).")
    var after: Int64 = 0

    @Option(name: .long, help: "The most events, 1 to 1000.")
    var limit: Int = 100

    @OptionGroup var options: VerifyStoreOptions

    func validate() throws {
        guard after >= 0 else { throw ValidationError("a cursor is 0 or more, not \(after)") }
        guard (1...PhoneVerifier.maximumEventsLimit).contains(limit) else {
            throw ValidationError("the limit must be 1 to \(PhoneVerifier.maximumEventsLimit), not \(limit)")
        }
    }

    func run() async throws {
        let (verifier, store) = try _VerifyEnvironment.existingVerifier(options)
        guard verifier.keepsEvents else { throw CLIError.failure("this store keeps no events") }
        let (after, limit) = (after, limit)
        let events: [VerificationEvent]
        do {
            events = try await _VerifyEnvironment.withStore(store) { try await verifier.events(after: after, limit: limit) }
        } catch let error as VerificationError {
            throw _VerifyEnvironment.refusal(error, format: options.format)
        }
        var output: [UInt8] = []
        for event in events {
            switch options.format {
            case .json:
                output += event.jsonBytes()
            case .text:
                let time = VerificationDocuments.timestamp(event.time)
                output += Array("\(event.cursor)\t\(event.id)\t\(event.kind.name)\t\(time)".utf8)
            }
            output.append(UInt8(ascii: "\n"))
        }
        FileHandle.standardOutput.write(Data(output))
    }
}
