import ArgumentParser
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
    /// SMSKit's own version, printed by `smskit --version`.
    static let smskitVersion = "0.1.0"

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
        subcommands: [ValidateCommand.self, ParseCommand.self, RenderCommand.self, SegmentsCommand.self]
    )

    /// Parses the command line, runs the command and maps every error to an exit code
    /// (see ``SMSKitExitCode``).
    static func main() {
        // A closed stdout must surface as EPIPE from write(2), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            // Help, --version, and usage errors: ArgumentParser's messages; its usage errors exit 64.
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            _Stderr.write(fullMessage(for: error) + "\n")
            _terminate(code == .failure ? SMSKitExitCode.failure : SMSKitExitCode.usage)
        }
        do {
            try command.run()
            _terminate(SMSKitExitCode.success)
        } catch let error as CLIError {
            if error.isBrokenPipe { _terminate(SMSKitExitCode.success) }
            _Stderr.write("smskit: \(error.message)\n")
            _terminate(error.exitCode)
        } catch let error as ValidationError {
            _Stderr.write(fullMessage(for: error) + "\n")
            _terminate(SMSKitExitCode.usage)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            _Stderr.write(fullMessage(for: error) + "\n")
            _terminate(code.rawValue == SMSKitExitCode.usage ? SMSKitExitCode.usage : SMSKitExitCode.failure)
        }
    }
}
