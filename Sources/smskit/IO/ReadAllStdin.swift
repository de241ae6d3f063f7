import SMSKitCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads all of stdin (at most `limit` bytes) as UTF-8, dropping one final newline.
func _readAllStdin(limit: Int, what: String) throws -> String {
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = block.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw CLIError.failure("cannot read stdin: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        bytes.append(contentsOf: block[0..<count])
        if bytes.count > limit {
            throw CLIError.failure("\(what) on stdin is longer than \(limit / 1024) KiB")
        }
    }
    if bytes.last == UInt8(ascii: "\n") {
        bytes.removeLast()
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw CLIError.failure("\(what) on stdin is not valid UTF-8")
    }
    return text
}
