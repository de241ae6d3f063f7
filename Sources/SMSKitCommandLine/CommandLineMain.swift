import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process around a command tree, shared by `smskit` and `smskit-service`: parse the command
/// line, run the command and map every error to an exit code (see ``SMSKitExitCode``).
package enum CommandLineMain {
    /// Parses the command line of `Root`, runs the command and exits with its status.
    package static func main<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        // A closed stdout must surface as EPIPE from write(2), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        switch parseCommandLine(root) {
        case .success(let parsed): command = parsed
        case .failure(let failure): _terminate(failure.status)
        }
        _terminate(run(&command, root))
    }

    /// The same for a tree with async commands (`AsyncParsableCommand`), which are awaited.
    package static func main<Root: AsyncParsableCommand>(_ root: Root.Type) async -> Never {
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        switch parseCommandLine(root) {
        case .success(let parsed): command = parsed
        case .failure(let failure): _terminate(failure.status)
        }
        if var asyncCommand = command as? any AsyncParsableCommand {
            let status: Int32
            do {
                try await asyncCommand.run()
                status = SMSKitExitCode.success
            } catch {
                status = exitStatus(for: error, root)
            }
            _terminate(status)
        }
        _terminate(run(&command, root))
    }

    /// Runs the command and returns the exit status, its message (if any) written to stderr.
    /// The error is released before the caller exits (see ``parseCommandLine(_:)``).
    package static func run<Root: ParsableCommand>(_ command: inout any ParsableCommand, _ root: Root.Type) -> Int32 {
        do {
            try command.run()
            return SMSKitExitCode.success
        } catch {
            return exitStatus(for: error, root)
        }
    }

    /// The exit status of a command that threw `error`, its message written to stderr.
    private static func exitStatus<Root: ParsableCommand>(for error: any Error, _ root: Root.Type) -> Int32 {
        if let error = error as? CLIError {
            if error.isBrokenPipe { return SMSKitExitCode.success }
            _Stderr.write("smskit: \(error.message)\n")
            return error.exitCode
        }
        if let error = error as? ValidationError {
            _Stderr.write(root.fullMessage(for: error) + "\n")
            return SMSKitExitCode.usage
        }
        let code = root.exitCode(for: error)
        if code == .success { root.exit(withError: error) }
        _Stderr.write(root.fullMessage(for: error) + "\n")
        return code.rawValue == SMSKitExitCode.usage ? SMSKitExitCode.usage : SMSKitExitCode.failure
    }

    /// A command line that did not parse: the exit status, once its message is written.
    package struct ParseFailure: Error {
        package var status: Int32
    }

    /// Parses the command line. Help and `--version` print and exit 0 here; a usage error writes
    /// ArgumentParser's message to stderr and returns its status (64, or 1 for a failure).
    ///
    /// The parser's error is released before the caller exits: under AddressSanitizer, ending
    /// the process while it is alive made LeakSanitizer report the parser's argument tables (for
    /// a bad `--national-tables` value) and turn status 64 into 1.
    package static func parseCommandLine<Root: ParsableCommand>(_ root: Root.Type) -> Result<any ParsableCommand, ParseFailure> {
        do {
            return .success(try root.parseAsRoot(nil))
        } catch {
            let code = root.exitCode(for: error)
            if code == .success {
                root.exit(withError: error)
            }
            _Stderr.write(root.fullMessage(for: error) + "\n")
            return .failure(ParseFailure(status: code == .failure ? SMSKitExitCode.failure : SMSKitExitCode.usage))
        }
    }
}
