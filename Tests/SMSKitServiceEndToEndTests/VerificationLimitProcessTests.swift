import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The limits across verifications as `smskit serve` wires them: its flags and the 429 of the
/// failure budget (the sweep service: VerificationSweepTests).
@Suite("smskit serve: verification limits")
struct VerificationLimitProcessTests {
    @Test("--failed-check-limit: once the budget is spent a new start is 429 too_many_failed_checks with Retry-After")
    func failureBudgetFlag() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--failed-check-limit", "5", "--daily-number-limit", "3",
                                       "--retention-days", "1"])
        defer { server.signal(SIGTERM) }
        let number = VerificationProcessTests.mobile()
        let started = try await VerificationProcessTests.start(server, number)
        #expect(started.status == 200, "\(started.body)")
        let id = try #require(VerificationProcessTests.field("id", started.body))
        let code = try await VerificationProcessTests.code(server, to: number)
        let wrong = code == "000000" ? "000001" : "000000"
        for _ in 0..<5 { _ = try await VerificationProcessTests.check(server, id, wrong) }
        let refused = try await Curl.run(["-i", "-H", "Authorization: Bearer \(VerificationProcessTests.key)",
                                    "-H", "Content-Type: application/json", "-d", #"{"number":"\#(number)"}"#,
                                    "\(server.url)/v1/verifications"])
        #expect(refused.status == 429)
        #expect(refused.body.contains(#""code":"too_many_failed_checks""#), "\(refused.body)")
        #expect(refused.body.lowercased().contains("retry-after: "))
    }

    @Test("Out-of-range limit flags are usage errors (exit 64)",
          arguments: [["--failed-check-limit", "0"], ["--daily-number-limit", "many"], ["--retention-days", "-1"]])
    func badFlags(_ flags: [String]) async throws {
        let refused = try await ServeProcess.refusal(flags)
        #expect(refused.status == 64, "\(refused.stderr)")
    }
}
