#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor (stdout) through write(2).
///
/// A closed pipe (EPIPE, with SIGPIPE ignored) becomes ``CLIError/brokenPipe``, which ends the
/// process quietly with status 0; any other write error (a full disk, `/dev/full`) becomes a
/// failure with the system's message.
package struct _Output {
    private let fd: Int32
    private var buffer: [UInt8]
    private let limit: Int
    /// Blocks of this size or more are written without copying them into the buffer.
    private static let direct = 1 << 16

    package init(fd: Int32 = 1, capacity: Int = 1 << 20) {
        self.fd = fd
        self.limit = capacity
        self.buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// Appends bytes, flushing when the buffer is full.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > limit { try flush() }
        // A large block (a slice of `validate` records) goes out as it is, not copied first.
        if bytes.count >= Self.direct {
            try flush()
            try Self.writeAll(fd, bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Appends bytes, flushing when the buffer is full.
    package mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try write(raw) }
    }

    /// Appends a string's UTF-8.
    package mutating func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in try write(UnsafeRawBufferPointer(bytes)) }
    }

    /// Whether bytes are buffered, not yet written.
    package var hasBuffered: Bool { !buffer.isEmpty }

    /// Writes everything buffered.
    package mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { raw in try Self.writeAll(fd, raw) }
    }

    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glibc_write(fd, base, remaining)
            if written < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                if code == EPIPE { throw CLIError.brokenPipe }
                throw CLIError.failure("cannot write the output: \(String(cString: strerror(code)))")
            }
            remaining -= written
            base += written
        }
    }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, base, count)
    #else
    return Darwin.write(fd, base, count)
    #endif
}

/// Unbuffered writes to stderr (messages, progress, summaries). Errors writing to stderr are
/// ignored: there is nowhere left to report them.
package enum _Stderr {
    package static func write(_ text: String) {
        var copy = text
        copy.withUTF8 { bytes in
            var base = bytes.baseAddress
            var remaining = bytes.count
            while remaining > 0, let pointer = base {
                let written = Glibc_write(2, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                base = pointer + written
            }
        }
    }

    /// Whether stderr is a terminal and the environment is not CI: progress bars are drawn only then.
    package static var wantsProgress: Bool {
        isatty(2) == 1 && getenv("CI") == nil
    }
}

/// Ends the process with a status. Output already went through ``_Output``, never stdio.
package func _terminate(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #else
    Darwin.exit(code)
    #endif
}
