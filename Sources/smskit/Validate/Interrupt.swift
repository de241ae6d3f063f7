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
/// status 128 + the signal number (130 for SIGINT, 143 for SIGTERM). A second signal ends the
/// process at once, for the case where it is blocked reading a terminal or a silent pipe.
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

    /// The name of a signal for messages (`SIGINT`).
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
