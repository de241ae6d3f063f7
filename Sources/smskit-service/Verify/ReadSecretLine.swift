import SMSKitCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one line from stdin, at most `limit` bytes, for a value that must not appear in `ps`
/// (a verification code): on a terminal, after a prompt on stderr and with echo off; otherwise
/// the first line of what is piped in. Stops at the newline, so nothing after it is consumed.
///
/// - Throws: ``CLIError`` when stdin ends before anything is read, the line is longer than
///   `limit`, or it is not UTF-8.
func _readSecretLine(prompt: String, limit: Int, what: String) throws -> String {
    let terminal = isatty(0) == 1
    var saved = termios()
    var restore = false
    if terminal {
        // Echo goes off before the prompt appears, so nothing typed after it is shown.
        if tcgetattr(0, &saved) == 0 {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            restore = tcsetattr(0, TCSANOW, &quiet) == 0
        }
        _Stderr.write(prompt)
    }
    defer {
        if restore { _ = tcsetattr(0, TCSANOW, &saved) }
        if terminal { _Stderr.write("\n") }
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    var sawNewline = false
    while true {
        let count = read(0, &byte, 1)
        if count < 0 {
            if errno == EINTR { continue }
            throw CLIError.failure("cannot read \(what) from stdin: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        if byte == UInt8(ascii: "\n") { sawNewline = true; break }
        guard bytes.count < limit else { throw CLIError.failure("\(what) on stdin is longer than \(limit) bytes") }
        bytes.append(byte)
    }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    guard sawNewline || !bytes.isEmpty else { throw CLIError.failure("no \(what) on stdin") }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw CLIError.failure("\(what) on stdin is not valid UTF-8")
    }
    return text
}
