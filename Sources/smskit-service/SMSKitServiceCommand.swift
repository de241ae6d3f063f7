import ArgumentParser
import CSMSKit
import SMSKitCommandLine

/// `smskit-service`: the commands that hold state or listen, `serve` and `verify`, in an
/// executable of their own so that `smskit` builds and starts without a server, databases or
/// TLS. `smskit serve …` and `smskit verify …` run this executable.
@main
struct SMSKitServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smskit-service",
        abstract: "SMSKit's HTTP service and phone verification (also run as 'smskit serve' and 'smskit verify').",
        discussion: """
            Data goes to stdout; progress, warnings and errors go to stderr.

            \(SMSKitExitCode.helpText)
            """,
        version: "smskit-service \(SMSKIT_VERSION)",
        subcommands: [ServeCommand.self, VerifyCommand.self]
    )

    static func main() async {
        await CommandLineMain.main(SMSKitServiceCommand.self)
    }
}
