import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The guard's flags as `smskit serve` reads them, and what its logs may say about numbers.
@Suite("smskit serve: guard flags and number privacy in logs")
struct GuardProcessTests {
    static func post(_ server: ServeProcess, _ path: String, _ json: String) async throws -> Curl {
        try await Curl.run(["-H", "Authorization: Bearer \(VerificationProcessTests.key)", "-H", "Content-Type: application/json",
                      "-d", json, "\(server.url)\(path)"])
    }

    /// Starts, a refusal of the deny list, a start a monitored cap would refuse, a wrong and a
    /// right code; returns the server's log and the numbers and code it must not show in clear.
    static func session(logLevel: [String]) async throws -> (log: String, numbers: [String], code: String) {
        let directory = try temporaryFolder()
        let denied = directory.appendingPathComponent("deny.txt")
        try "# never\n+44 7400 123459\n".write(to: denied, atomically: true, encoding: .utf8)
        let server = try await ServeProcess.start(["--store", "memory", "--region-caps", "10000,GB=1", "--monitor", "region-caps",
                                       "--deny-numbers-file", denied.path] + logLevel)
        defer { server.signal(SIGTERM) }
        let (first, second, third) = ("+447400123456", "+447400123457", "+447400123459")
        let started = try await post(server, "/v1/verifications", #"{"number":"\#(first)"}"#)
        #expect(started.status == 200, "\(started.body)")
        #expect(try await post(server, "/v1/verifications", #"{"number":"\#(second)"}"#).status == 200)
        let refused = try await post(server, "/v1/verifications", #"{"number":"\#(third)"}"#)
        #expect(refused.status == 422 && refused.body.contains("number_denied"), "\(refused.body)")
        let id = try #require(VerificationProcessTests.field("id", started.body))
        let code = try await VerificationProcessTests.code(server, to: first)
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(try await VerificationProcessTests.check(server, id, wrong).status == 200)
        #expect(try await VerificationProcessTests.check(server, id, code).body.contains("approved"))
        server.signal(SIGTERM)
        _ = await server.waitForExit(seconds: 30)
        return (server.stderr, [first, second, third], code)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("at the default level no number and no code appears in the log; the monitored refusal does, by region")
    func defaultLevel() async throws {
        let (log, numbers, code) = try await Self.session(logLevel: ["--log-level", "info"])
        #expect(log.contains("monitor mode"), "\(log)")
        #expect(log.contains("GB"))
        for number in numbers {
            #expect(!log.contains(number.dropFirst(3)), "\(number) in the log:\n\(log)")
        }
        #expect(!log.contains(code), "the code in the log:\n\(log)")
    }

    @Test("at debug level a number shows its last four digits only")
    func debugLevel() async throws {
        let (log, numbers, _) = try await Self.session(logLevel: ["--log-level", "debug"])
        #expect(log.contains("…3456"), "\(log)")
        for number in numbers {
            #expect(!log.contains(number.dropFirst(3)), "\(number) in the log")
        }
    }

    @Test("guard flags out of range are usage errors (exit 64)",
          arguments: [["--region-caps", "GB=x"], ["--region-caps", "XX1=5"], ["--range-hold", "50:0.1:0.3"],
                      ["--region-hold", "50:2:0.3:6"], ["--monitor", "everything"],
                      ["--deny-numbers-file", "/nonexistent/deny.txt"]])
    func badFlags(_ flags: [String]) async throws {
        let refused = try await ServeProcess.refusal(flags)
        #expect(refused.status == 64, "\(refused.stderr)")
    }
}
