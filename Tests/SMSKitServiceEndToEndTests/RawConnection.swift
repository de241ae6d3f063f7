import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client on 127.0.0.1, for what curl cannot do: send a request a byte at a time,
/// stop half-way, see the server close the connection.
final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(result == 0, "cannot connect to port \(port)")
    }

    deinit { close(fd) }

    /// Sends all of `text`; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What has arrived without waiting, and whether the server has closed its side.
    func poll() -> (text: String, closed: Bool) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { out += buffer[0..<count]; continue }
            let closed = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            return (String(decoding: out, as: UTF8.self), closed)
        }
    }

    /// Everything until the server closes the connection or `seconds` pass.
    func receiveAll(seconds: Double) -> String {
        var out = ""
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if receive(into: &out) { break }
            usleep(20_000)
        }
        return out
    }

    /// Appends what has arrived; true when the connection is closed or a whole response is in.
    private func receive(into out: inout String) -> Bool {
        do {
            let (text, closed) = poll()
            out += text
            if closed { return true }
            // A whole response with a Content-Length is enough (keep-alive leaves it open).
            if let head = out.range(of: "\r\n\r\n"),
               let length = out[..<head.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") })
                .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }),
               out.utf8.count - out[..<head.upperBound].utf8.count >= length {
                return true
            }
            return false
        }
    }
}
