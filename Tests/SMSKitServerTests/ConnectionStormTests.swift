import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Floods of idle and trickling connections against a real `smskit serve` process started with
/// a soft open-file limit of 256 under a hard limit of 1,024: the server raises the soft limit,
/// keeps its connections under half of it, and `/healthz` answers through every flood.
@Suite("Connection floods", .serialized)
struct ConnectionStormTests {
    static let floodSize = 5_000

    /// Lets this test process hold a flood of its own connections.
    static func raiseOwnOpenFileLimit(to needed: Int) throws {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        if limit.rlim_max < rlim_t(needed) { limit.rlim_max = rlim_t(needed) }  // root (CI) may raise it
        if limit.rlim_cur < rlim_t(needed) { limit.rlim_cur = limit.rlim_max }
        try #require(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0,
                     "this test needs an open-file limit of \(needed)")
    }

    /// The server's open descriptors.
    static func descriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The soft and hard open-file limits of a process, from /proc/PID/limits.
    static func openFileLimits(of pid: Int32) -> [String] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        return line.dropFirst("Max open files".count).split(separator: " ").prefix(2).map(String.init)
    }

    @Test("The soft open-file limit is raised to the hard one; 5,000 idle connections, three times, leave /healthz answering")
    func idleFlood() throws {
        try Self.raiseOwnOpenFileLimit(to: Self.floodSize + 512)
        let server = try ServeProcess(["--store", "memory"], openFiles: (soft: 256, hard: 1024))
        let pid = server.process.processIdentifier
        #expect(Self.openFileLimits(of: pid) == ["1024", "1024"])
        for round in 1...3 {
            var flood: [RawConnection] = []
            flood.reserveCapacity(Self.floodSize)
            for index in 0..<Self.floodSize {
                let connection = try RawConnection(port: server.port)
                // Half send nothing, half the start of a head they never finish.
                if index % 2 == 1 { connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                flood.append(connection)
            }
            for _ in 0..<3 {
                let health = try Curl.run(["--max-time", "10", "\(server.url)/healthz"])
                #expect(health.status == 200, "round \(round): /healthz answered \(health.status)")
            }
            #expect(server.process.isRunning, "round \(round): the server died; stderr: \(server.stderr)")
            let open = Self.descriptors(of: pid)
            #expect(open > 0 && open < 1024 - 32, "round \(round): \(open) descriptors open")
            // The connections pushed out were closed by the server.
            let closed = flood.filter { $0.poll().closed }.count
            #expect(closed >= Self.floodSize - 600, "round \(round): only \(closed) of the flood were closed")
            flood.removeAll()
        }
        kill(pid, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("A request in flight is never the one pushed out; at the limit a connection with nothing to do is")
    func busyConnectionsStay() throws {
        let server = try ServeProcess(["--store", "memory", "--max-connections", "4", "--body-timeout", "20"])
        // A request whose body is still to come: in flight.
        let busy = try RawConnection(port: server.port)
        let body = #"{"text":"hello"}"#
        #expect(busy.send("POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"))
        usleep(300_000)
        var idle: [RawConnection] = []
        for _ in 0..<20 { idle.append(try RawConnection(port: server.port)) }
        usleep(500_000)
        #expect(try Curl.run(["--max-time", "10", "\(server.url)/healthz"]).status == 200)
        #expect(busy.send(body))
        let answer = busy.receiveAll(seconds: 10)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(idle.filter { $0.poll().closed }.count >= 17)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit(seconds: 30) == 0)
    }

    @Test("A connection limit the open-file limit cannot hold is a usage error")
    func limitAboveFileLimit() throws {
        let binary = try #require(ServeProcess.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n 512 && exec \"$0\" \"$@\"", binary.path, "serve", "--port", "0", "--store", "memory",
                             "--max-connections", "500"]
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = ServeBinaryTests.key
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.contains("open files"), "\(text)")
    }
}
