import ArgumentParser

/// The exit codes of `smskit`, in one place. `smskit --help` prints ``helpText``.
///
/// | Code | Meaning |
/// |---|---|
/// | 0 | Done. Also when stdout is closed early (`smskit validate big.csv \| head`). |
/// | 1 | A failure: an unreadable input file, a read or write error, a catalog that does not load. |
/// | 64 | A usage error: an unknown option, a bad option value, missing arguments (`EX_USAGE`). |
///
/// A record that does not parse is data, not a failure: `validate` and `parse` report it and
/// exit 0.
enum SMSKitExitCode {
    /// Done.
    static let success: Int32 = 0
    /// A failure such as an unreadable file or a write error.
    static let failure: Int32 = 1
    /// A usage error (`EX_USAGE`): what was asked for cannot be understood.
    static let usage: Int32 = 64

    /// The exit-code table for help texts.
    static let helpText = """
        EXIT CODES:
          0   done (also when the reader of stdout closes it early, as `head` does)
          1   failure: unreadable input, read or write error, unloadable catalog
          64  usage error: unknown option, bad value, missing argument
        A number that does not parse is a result, not a failure: it exits 0.
        """
}

/// An error that ends the command with a message on stderr and an exit code.
struct CLIError: Error, CustomStringConvertible {
    /// The message, without the `smskit:` prefix.
    var message: String
    /// The process exit code.
    var exitCode: Int32
    /// True when stdout was closed by its reader (EPIPE): exit quietly with 0.
    var isBrokenPipe: Bool = false

    var description: String { message }

    /// A failure (exit 1).
    static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: SMSKitExitCode.failure) }
    /// A usage error (exit 64).
    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: SMSKitExitCode.usage) }
    /// The reader of stdout went away.
    static let brokenPipe = CLIError(message: "", exitCode: SMSKitExitCode.success, isBrokenPipe: true)
}
