import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The guard's flags as `smskit serve` reads them, and what its logs may say about numbers.
@Suite("smskit serve: guard flags and number privacy in logs")
struct GuardProcessTests {
    static func post(_ server: ServeProcess, _ path: String, _ json: String) throws -> Curl {
        try Curl.run(["-H", "Authorization: Bearer \(VerificationProcessTests.key)", "-H", "Content-Type: application/json",
                      "-d", json, "\(server.url)\(path)"])
    }

    /// Starts, a refusal of the deny list, a start a monitored cap would refuse, a wrong and a
    /// right code; returns the server's log and the numbers and code it must not show in clear.
    static func session(logLevel: [String]) throws -> (log: String, numbers: [String], code: String) {
        let directory = try temporaryFolder()
        let denied = directory.appendingPathComponent("deny.txt")
        try "# never\n+44 7400 123459\n".write(to: denied, atomically: true, encoding: .utf8)
        let server = try ServeProcess(["--store", "memory", "--region-caps", "10000,GB=1", "--monitor", "region-caps",
                                       "--deny-numbers-file", denied.path] + logLevel)
        defer { kill(server.process.processIdentifier, SIGTERM); _ = server.waitForExit(seconds: 30) }
        let (first, second, third) = ("+447400123456", "+447400123457", "+447400123459")
        let started = try post(server, "/v1/verifications", #"{"number":"\#(first)"}"#)
        #expect(started.status == 200, "\(started.body)")
        #expect(try post(server, "/v1/verifications", #"{"number":"\#(second)"}"#).status == 200)
        let refused = try post(server, "/v1/verifications", #"{"number":"\#(third)"}"#)
        #expect(refused.status == 422 && refused.body.contains("number_denied"), "\(refused.body)")
        let id = try #require(VerificationProcessTests.field("id", started.body))
        let code = try VerificationProcessTests.code(server, to: first)
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(try VerificationProcessTests.check(server, id, wrong).status == 200)
        #expect(try VerificationProcessTests.check(server, id, code).body.contains("approved"))
        kill(server.process.processIdentifier, SIGTERM)
        _ = server.waitForExit(seconds: 30)
        return (server.stderr, [first, second, third], code)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("at the default level no number and no code appears in the log; the monitored refusal does, by region")
    func defaultLevel() throws {
        let (log, numbers, code) = try Self.session(logLevel: ["--log-level", "info"])
        #expect(log.contains("monitor mode"), "\(log)")
        #expect(log.contains("GB"))
        for number in numbers {
            #expect(!log.contains(number.dropFirst(3)), "\(number) in the log:\n\(log)")
        }
        #expect(!log.contains(code), "the code in the log:\n\(log)")
    }

    @Test("at debug level a number shows its last four digits only")
    func debugLevel() throws {
        let (log, numbers, _) = try Self.session(logLevel: ["--log-level", "debug"])
        #expect(log.contains("…3456"), "\(log)")
        for number in numbers {
            #expect(!log.contains(number.dropFirst(3)), "\(number) in the log")
        }
    }

    @Test("guard flags out of range are usage errors (exit 64)",
          arguments: [["--region-caps", "GB=x"], ["--region-caps", "XX1=5"], ["--range-hold", "50:0.1:0.3"],
                      ["--region-hold", "50:2:0.3:6"], ["--monitor", "everything"],
                      ["--deny-numbers-file", "/nonexistent/deny.txt"]])
    func badFlags(_ flags: [String]) throws {
        let binary = try #require(ServeProcess.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--store", "memory"] + flags
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = VerificationProcessTests.key
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
    }
}
