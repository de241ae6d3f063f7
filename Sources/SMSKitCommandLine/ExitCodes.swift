import ArgumentParser

/// The exit codes of `smskit` and `smskit-service`, in one place. `smskit --help` prints ``helpText``.
///
/// | Code | Meaning |
/// |---|---|
/// | 0 | Done. Also when stdout is closed early (`smskit validate big.csv \| head`). |
/// | 1 | A failure: an unreadable input file, a read or write error, a catalog that does not load. |
/// | 64 | A usage error: an unknown option, a bad option value, missing arguments (`EX_USAGE`). |
/// | 130 | `validate` stopped by SIGINT (143: SIGTERM) after writing whole records (128 + signal). |
///
/// A record that does not parse is data, not a failure: `validate` and `parse` report it and
/// exit 0.
package enum SMSKitExitCode {
    /// Done.
    package static let success: Int32 = 0
    /// A failure such as an unreadable file or a write error.
    package static let failure: Int32 = 1
    /// A usage error (`EX_USAGE`): what was asked for cannot be understood.
    package static let usage: Int32 = 64

    /// Stopped by a signal, as shells report it: 128 + the signal number (130 for SIGINT).
    package static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    /// The exit-code table for help texts.
    package static let helpText = """
        EXIT CODES:
          0   done (also when the reader of stdout closes it early, as `head` does)
          1   failure: unreadable input, read or write error, unloadable catalog
          64  usage error: unknown option, bad value, missing argument
          130 validate stopped by Ctrl-C (SIGINT; 143 for SIGTERM): every record read is
              written, the output ends on a whole record; a second Ctrl-C stops at once
        A number that does not parse is a result, not a failure: it exits 0.
        """
}

/// An error that ends the command with a message on stderr and an exit code.
package struct CLIError: Error, CustomStringConvertible {
    /// The message, without the `smskit:` prefix.
    package var message: String
    /// The process exit code.
    package var exitCode: Int32
    /// True when stdout was closed by its reader (EPIPE): exit quietly with 0.
    package var isBrokenPipe: Bool = false

    package var description: String { message }

    package init(message: String, exitCode: Int32, isBrokenPipe: Bool = false) {
        self.message = message
        self.exitCode = exitCode
        self.isBrokenPipe = isBrokenPipe
    }

    /// A failure (exit 1).
    package static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: SMSKitExitCode.failure) }
    /// A usage error (exit 64).
    package static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: SMSKitExitCode.usage) }
    /// The reader of stdout went away.
    package static let brokenPipe = CLIError(message: "", exitCode: SMSKitExitCode.success, isBrokenPipe: true)
}
