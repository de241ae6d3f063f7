import ArgumentParser

/// `smskit verify`: phone verification from the command line.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Send a verification code by SMS and check it (phone sign-in).",
        discussion: """
            State lives where --store, else $SMSKIT_VERIFY_STORE, says, as for 'smskit serve': a \
            SQLite file (a path or sqlite:PATH; default ./smskit-verify.sqlite), memory, or \
            postgres://USER@HOST:PORT/DATABASE. SMS go to a JSON-lines outbox (--outbox, default \
            ./smskit-outbox.jsonl), one SMS per line with to, text, encoding, parts, or where \
            --sender (or $SMSKIT_SENDER) says: outbox:PATH or kannel:URL.

            The server secret keys the code digests (HMAC-SHA256). It is read from \
            $SMSKIT_VERIFY_SECRET (at least 32 bytes), else from the file \
            $SMSKIT_VERIFY_SECRET_FILE, else from <store>.secret beside the store; when that file \
            does not exist, 64 random hex digits are written to it with mode 0600. A secret file \
            that others can read is refused. Changing the secret expires every open verification.

            Test numbers (fictional numbers with fixed 6-digit codes; no SMS; rate limited as other numbers) are kept \
            in --test-numbers FILE, else $SMSKIT_VERIFY_TEST_NUMBERS, else \
            ./smskit-test-numbers.json.

            EXAMPLES:
              smskit verify start "+55 11 96123-4567" --format json
              smskit verify check Qm9vay1vZi1tYWdpYy0x 042917
              smskit verify status Qm9vay1vZi1tYWdpYy0x --format json
              smskit verify cancel Qm9vay1vZi1tYWdpYy0x
              smskit verify stats --by range --limit 10
              smskit verify events --after 0 --limit 100 --format json
              smskit verify test-numbers add "+1 650-555-0100" 123456

            EXIT CODES: 0 started / approved, 1 refused or failed check, 64 usage error.
            """,
        subcommands: [VerifyStartCommand.self, VerifyCheckCommand.self, VerifyStatusCommand.self, VerifyCancelCommand.self,
                      VerifyStatsCommand.self, VerifyEventsCommand.self, VerifyTestNumbersCommand.self]
    )
}

/// Output format of the verify subcommands.
enum VerifyFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// The options every verify subcommand that opens the store shares.
struct VerifyStoreOptions: ParsableArguments {
    @Option(name: .long, help: "The store: a SQLite file, sqlite:PATH, memory or postgres://... (default: $SMSKIT_VERIFY_STORE or ./smskit-verify.sqlite).")
    var store: String?

    @Option(name: .long, help: "The test-number file (default: $SMSKIT_VERIFY_TEST_NUMBERS or ./smskit-test-numbers.json).")
    var testNumbers: String?

    @Option(name: .long, help: "Output format: text or json.")
    var format: VerifyFormat = .text
}
