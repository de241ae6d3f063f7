import ArgumentParser
import CSMSKit
import PhoneNumbers
import SMSKitCommandLine
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

            'smskit serve' (the HTTP service) and 'smskit verify' (phone verification) run the \
            smskit-service executable built beside this one; see 'smskit-service --help'.

            \(SMSKitExitCode.helpText)
            """,
        version: SMSKitCommand.versionText,
        subcommands: [
            ValidateCommand.self, ParseCommand.self, RenderCommand.self, SegmentsCommand.self,
            CatalogCommand.self, FindCommand.self, MatchCommand.self,
        ]
    )

    /// Runs `serve` and `verify` in the sibling `smskit-service` executable (as git runs
    /// `git-foo`), and every other command here. The service and the verification commands link
    /// an HTTP server, two databases and TLS; keeping them out of this binary keeps its build,
    /// size and start-up those of a text tool.
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count > 1, ServiceCommands.names.contains(arguments[1]) {
            ServiceCommands.exec(arguments: Array(arguments.dropFirst()))
        }
        CommandLineMain.main(SMSKitCommand.self)
    }
}

/// The commands that live in `smskit-service`.
enum ServiceCommands {
    static let names: Set<String> = ["serve", "verify"]
    static let executableName = "smskit-service"

    /// Replaces this process with `smskit-service ARGUMENTS`, found beside this executable;
    /// returns only by exiting with a message when it is not there.
    static func exec(arguments: [String]) -> Never {
        let path = siblingDirectory() + "/" + executableName
        guard access(path, X_OK) == 0 else {
            _Stderr.write("""
                smskit: '\(arguments[0])' is in the \(executableName) executable, which is not built next to \
                this one; build it with: swift build -c release --product \(executableName)

                """)
            _terminate(SMSKitExitCode.failure)
        }
        let argv = ([executableName] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        _Stderr.write("smskit: cannot run \(path): \(String(cString: strerror(errno)))\n")
        _terminate(SMSKitExitCode.failure)
    }

    /// The directory of the running executable (the link /proc/self/exe resolves), else of argv[0].
    private static func siblingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
