import ArgumentParser
import CSMSKit
import PhoneNumbers
import SMSTemplates

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `smskit`: the command-line face of SMSKit.
@main
struct SMSKitCommand: ParsableCommand {
    /// SMSKit's own version, printed by `smskit --version`: the C API's `SMSKIT_VERSION`
    /// (Sources/CSMSKit/include/smskit.h), its one home, which `smskit_version()` returns too.
    static let smskitVersion = SMSKIT_VERSION

    /// The three lines of `smskit --version`.
    static var versionText: String {
        """
        smskit \(smskitVersion)
        phone metadata \(PhoneNumberEngine.metadataVersion) (libphonenumber)
        ICU \(icuVersion)
        """
    }

    static let configuration = CommandConfiguration(
        commandName: "smskit",
        abstract: "Validate phone-number lists, inspect numbers, render and analyze SMS messages.",
        discussion: """
            Data goes to stdout; progress, warnings and errors go to stderr.

            EXAMPLES:
              smskit validate Resources/Samples/numbers.csv --summary
              smskit parse "+44 20 7946 0000"
              smskit render --lang hi --code 123456 --app Acme
              echo "Your code is 123456" | smskit segments

            \(SMSKitExitCode.helpText)
            """,
        version: SMSKitCommand.versionText,
        subcommands: [
            ValidateCommand.self, ParseCommand.self, RenderCommand.self, SegmentsCommand.self, VerifyCommand.self,
            CatalogCommand.self, ServeCommand.self, FindCommand.self, MatchCommand.self,
        ]
    )

    /// Parses the command line, runs the command and maps every error to an exit code
    /// (see ``SMSKitExitCode``).
    static func main() {
        // A closed stdout must surface as EPIPE from write(2), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        switch parseCommandLine() {
        case .success(let parsed): command = parsed
        case .failure(let failure): _terminate(failure.status)
        }
        _terminate(run(&command))
    }

    /// Runs the command and returns the exit status, its message (if any) written to stderr.
    /// The error is released before the caller exits (see ``parseCommandLine()``).
    static func run(_ command: inout any ParsableCommand) -> Int32 {
        do {
            try command.run()
            return SMSKitExitCode.success
        } catch let error as CLIError {
            if error.isBrokenPipe { return SMSKitExitCode.success }
            _Stderr.write("smskit: \(error.message)\n")
            return error.exitCode
        } catch let error as ValidationError {
            _Stderr.write(fullMessage(for: error) + "\n")
            return SMSKitExitCode.usage
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            _Stderr.write(fullMessage(for: error) + "\n")
            return code.rawValue == SMSKitExitCode.usage ? SMSKitExitCode.usage : SMSKitExitCode.failure
        }
    }
}

extension SMSKitCommand {
    /// A command line that did not parse: the exit status, once its message is written.
    struct ParseFailure: Error {
        var status: Int32
    }

    /// Parses the command line. Help and `--version` print and exit 0 here; a usage error writes
    /// ArgumentParser's message to stderr and returns its status (64, or 1 for a failure).
    ///
    /// The parser's error is released before the caller exits: under AddressSanitizer, ending
    /// the process while it is alive made LeakSanitizer report 48 to 368 bytes of the parser's
    /// argument tables (for a bad `--national-tables` value) and turn status 64 into 1.
    static func parseCommandLine() -> Result<any ParsableCommand, ParseFailure> {
        do {
            return .success(try parseAsRoot(nil))
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            _Stderr.write(fullMessage(for: error) + "\n")
            return .failure(ParseFailure(status: code == .failure ? SMSKitExitCode.failure : SMSKitExitCode.usage))
        }
    }
}
