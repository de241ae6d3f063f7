import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Fault injection that a real smsbox cannot give on demand: a loopback server answering each
/// request with the next scripted status (the last one repeats), or holding it without an answer.
final class ScriptedHTTPServer: Sendable {
    enum Answer: Sendable { case status(Int, String), silence }

    let port: Int
    private let listener: Int32
    private let state: Mutex<(requests: [String], open: [Int32])>
    private let script: [Answer]

    init(_ script: [Answer]) throws {
        self.script = script
        state = Mutex((requests: [], open: []))
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ok else { close(fd); throw FixtureError("cannot listen on loopback") }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The request targets received, in order.
    var requests: [String] { state.withLock { $0.requests } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in state.withLock({ $0.open }) { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
    }

    private func serve() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                request.append(contentsOf: buffer[..<count])
            }
            let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
            let index = state.withLock { state -> Int in
                state.requests.append(line)
                state.open.append(fd)
                return state.requests.count - 1
            }
            switch script[min(index, script.count - 1)] {
            case .silence:
                continue  // held open until stop()
            case .status(let status, let body):
                let response = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                _ = Array(response.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                state.withLock { $0.open.removeAll { $0 == fd } }
                close(fd)
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
