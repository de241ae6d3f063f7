import SMSKitCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic seconds.
func _now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A one-line progress display on stderr: records, records/s, and percent and ETA when the input
/// size is known. Drawn only when enabled (stderr is a terminal and `CI` is not set), at most
/// five times a second, and erased at the end.
struct _Progress {
    let enabled: Bool
    /// The total input size in bytes, when every input is a regular file.
    let totalBytes: Int?
    private let started = _now()
    private var lastDraw = 0.0
    private var drawn = false

    /// Whether the progress line may be drawn: stderr is a terminal, CI is not set, and stdout
    /// is not that same terminal (records written to it would land in the middle of the line).
    static var allowed: Bool {
        guard _Stderr.wantsProgress else { return false }
        guard isatty(1) == 1 else { return true }
        var output = stat()
        var errors = stat()
        guard fstat(1, &output) == 0, fstat(2, &errors) == 0 else { return false }
        return output.st_rdev != errors.st_rdev
    }

    /// Whether the text format may colour its verdicts: stdout is a terminal, `NO_COLOR` is
    /// not set (or empty, as no-color.org says) and `TERM` is not `dumb`.
    static var wantsColour: Bool {
        guard isatty(1) == 1 else { return false }
        if let noColour = getenv("NO_COLOR"), noColour.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    init(enabled: Bool, totalBytes: Int?) {
        self.enabled = enabled
        self.totalBytes = totalBytes
    }

    mutating func update(records: Int, bytes: Int) {
        guard enabled else { return }
        let now = _now()
        guard now - lastDraw >= 0.2 else { return }
        lastDraw = now
        let elapsed = max(now - started, 1e-6)
        let rate = Double(records) / elapsed
        var line = "\r\u{1B}[Kvalidate: \(_grouped(records)) records, \(_grouped(Int(rate))) records/s"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let width = 24
            let filled = Int(fraction * Double(width))
            line += "  [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            line += " \(Int(fraction * 100))%"
            if fraction > 0.01 {
                let remaining = Int(elapsed / fraction - elapsed)
                line += "  ETA \(remaining / 60):\(remaining % 60 < 10 ? "0" : "")\(remaining % 60)"
            }
        }
        _Stderr.write(line)
        drawn = true
    }

    mutating func finish() {
        if drawn { _Stderr.write("\r\u{1B}[K") }
        drawn = false
    }
}
