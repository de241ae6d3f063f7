import SMSKitCommandLine
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM during `validate`: finish the chunk in hand, then stop on a whole record.
///
/// Killed by the default action, `validate` could stop in the middle of a write(2), leaving a
/// torn last record in a file or pipe. With ``install()`` the first SIGINT or SIGTERM only sets
/// a flag and restores the default action; the pipeline looks at the flag after writing each
/// chunk (``received``), writes the format's epilogue (the `]` of a JSON array) and ends with
/// status 128 + the signal number (130 for SIGINT, 143 for SIGTERM).
///
/// A run waiting on a silent pipe or terminal is not stuck in read(2): the reader waits in
/// ``waitForInput(_:)`` first, which sees the flag within ``pollInterval`` milliseconds, ends
/// the input there and lets the records already read be written. A second signal still ends
/// the process at once (the default action), for anything else that blocks.
enum _Interrupt {
    /// The signal received, or 0. Written only by the handler, read by the pipeline.
    private static let signalNumber = Atomic<Int32>(0)

    /// Installs the handler for SIGINT and SIGTERM and unblocks both. Call once, before the
    /// work starts.
    ///
    /// The signal mask is inherited across exec: a launcher that runs its children with these
    /// signals blocked would otherwise leave `validate` deaf to Ctrl-C and to `kill` (the CLI
    /// tests' children, started with Foundation's `Process` from the test runner, were).
    static func install() {
        // Initialize the global before a handler can touch it: lazy initialization is not
        // async-signal-safe. Atomic loads and stores are.
        _ = signalNumber.load(ordering: .relaxed)
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { received in
                _Interrupt.signalNumber.store(received, ordering: .relaxed)
                _ = signal(received, SIG_DFL)
            }
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signal that asked the process to stop, if any.
    static var received: Int32? {
        let number = signalNumber.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// How long one wait for input lasts before the flag is looked at again, in milliseconds.
    /// poll(2) is not restarted after a handler, so a signal during a wait ends it at once; this
    /// bounds the case of a signal that arrives just before the wait starts.
    static let pollInterval: Int32 = 100

    /// Waits until `fd` has input, its end or an error (then `true`: read(2) will not block, or
    /// will report the error), or until a signal was received (then `false`).
    ///
    /// Regular files are always ready: one poll(2) per block read, nothing per record.
    static func waitForInput(_ fd: Int32) -> Bool {
        while true {
            if received != nil { return false }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let result = poll(&ready, 1, pollInterval)
            if result > 0 { return true }
            if result < 0 && errno != EINTR { return true }
        }
    }

    /// The name of a signal for messages (`SIGINT`).
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}

extension CLIError {
    /// Stopped by SIGINT or SIGTERM after `records` records, all of them written whole.
    static func interrupted(_ signal: Int32, records: Int) -> CLIError {
        CLIError(message: "interrupted by \(_Interrupt.name(signal)) after \(_grouped(records)) records; the output ends on a whole record",
                 exitCode: SMSKitExitCode.interrupted(by: signal))
    }
}
