import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Floods of idle and trickling connections against a real `smskit serve` process started with
/// a soft open-file limit of 256 under a hard limit of 1,024: the server raises the soft limit,
/// keeps its connections under half of it, and `/healthz` answers through every flood; and the
/// connection limit's choice of what to close.
@Suite("Connection floods", .serialized)
struct ConnectionStormTests {
    static let floodSize = 5_000

    @Test("The soft open-file limit is raised to the hard one; 5,000 idle connections, three times, leave /healthz answering")
    func idleFlood() async throws {
        // The flood comes from a process of its own (Benchmarks/serve/connection-storm.py, which
        // starts the server under soft 256 / hard 1,024): 5,000 blocking connects would hold one
        // of this process's few cooperative threads for a minute and starve the other tests.
        let binary = try #require(ServeProcess.executable)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/serve/connection-storm.py")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-storm-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--rounds", "3", "--flood", "\(Self.floodSize)", "--bin", binary.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        let deadline = ContinuousClock.now + .seconds(600)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
        if process.isRunning { process.terminate() }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(text)")
        // The server raised its soft limit to the hard one.
        #expect(text.contains("open files soft/hard 1024/1024"), "\(text)")
        #expect(text.contains("3 storms of 5000 connections: 0 failed rounds, crashes 0"), "\(text)")
        let rounds = text.split(separator: "\n").filter { $0.hasPrefix("round ") }
        #expect(rounds.count == 3)
        for round in rounds {
            #expect(round.contains("/healthz [200, 200, 200], alive True"), "\(round)")
            // Descriptors stay well under the limit: the cap is half of it.
            let open = round.split(separator: " ").last.flatMap { Int($0) } ?? -1
            #expect(open > 0 && open < 1024 - 32, "\(round)")
        }
    }

    @Test("A request in flight is never the one pushed out; at the limit a connection with nothing to do is")
    func busyConnectionsStay() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--max-connections", "4", "--body-timeout", "20"])
        // A request whose body is still to come: in flight.
        let busy = try RawConnection(port: server.port)
        let body = #"{"text":"hello"}"#
        #expect(busy.send("POST /v1/segments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeBinaryTests.key)\r\n"
                          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"))
        usleep(300_000)
        var idle: [RawConnection] = []
        for _ in 0..<20 { idle.append(try RawConnection(port: server.port)) }
        usleep(500_000)
        #expect(try await Curl.run(["--max-time", "10", "\(server.url)/healthz"]).status == 200)
        #expect(busy.send(body))
        let answer = busy.receiveAll(seconds: 10)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(idle.filter { $0.poll().closed }.count >= 17)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)
    }

    @Test("A connection limit the open-file limit cannot hold is a usage error")
    func limitAboveFileLimit() async throws {
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
