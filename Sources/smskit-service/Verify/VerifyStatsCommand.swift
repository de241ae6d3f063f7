import ArgumentParser
import Foundation
import PhoneVerification
import SMSKitCommandLine
import SMSKitJSON
import SMSKitServer

/// `smskit verify stats`: the conversion counters of the store, as `GET /v1/stats` answers them.
struct VerifyStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show SMS sent, delivered, failed and approved per region, range or carrier.",
        discussion: """
            The figures cover the last 24 hours (a sliding window, estimated from two buckets), \
            for the values that sent the most SMS, the most first. JSON output is the document \
            of GET /v1/stats: by, window_seconds and stats (value, sent, delivered, failed, approved).
            """
    )

    @Option(name: .long, help: "What to break the figures down by: region, range or carrier.")
    var by: ConversionDimension = .region

    @Option(name: .long, help: "The most rows, 1 to 1000.")
    var limit: Int = 20

    @OptionGroup var options: VerifyStoreOptions

    func validate() throws {
        guard (1...PhoneVerifier.maximumStatsLimit).contains(limit) else {
            throw ValidationError("the limit must be 1 to \(PhoneVerifier.maximumStatsLimit), not \(limit)")
        }
    }

    func run() async throws {
        let location = try _VerifyEnvironment.location(options.store)
        if let path = location.file, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no store at \(path); start a verification first or give --store")
        }
        // The statistics need no secret: a throwaway one, as nothing is sent or checked.
        let secret = try _VerifyEnvironment.checked { () throws(VerificationError) in
            try VerificationSecret(Array(VerificationSecret.generateText().utf8))
        }
        let store = try _VerifyEnvironment.store(location)
        let verifier: PhoneVerifier
        do {
            verifier = try PhoneVerifier(store: store.store, sender: OutboxSender(path: "/dev/null"), secret: secret)
        } catch {
            throw CLIError.usage(error.message)
        }
        let (by, limit, format) = (by, limit, options.format)
        let rows: [ConversionStats]
        do {
            rows = try await _VerifyEnvironment.withStore(store) { try await verifier.conversionStats(by: by, limit: limit) }
        } catch let error as VerificationError {
            throw _VerifyEnvironment.refusal(error, format: format)
        }
        switch format {
        case .json:
            let document = ConversionStatsDocument.json(rows, by: by, window: verifier.configuration.conversion?.window)
            print(document.rendered, terminator: "")
        case .text:
            print([by.rawValue, "sent", "delivered", "failed", "approved"].joined(separator: "\t"))
            for row in rows {
                print([row.value, String(row.sent), String(row.delivered), String(row.failed), String(row.approved)]
                    .joined(separator: "\t"))
            }
        }
    }
}

extension ConversionDimension: ExpressibleByArgument {}
