import Foundation
import PhoneVerification
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The bad-report budget of a real `smskit serve`, with clients bound to distinct loopback
/// addresses (any 127.x.y.z is this host), so that one address floods while another is the gateway.
@Suite("smskit serve: the bad-report budget per address", .serialized)
struct ServeBadReportTests {
    /// A report from the loopback address `source` (any 127.x.y.z is this host), with the
    /// response headers in the body.
    static func report(_ server: ServeProcess, from source: String, _ query: String) async throws -> Curl {
        try await Curl.run(["-D", "-", "--interface", source, "\(server.url)/v1/delivery-reports/kannel?\(query)"])
    }

    static func retryAfter(_ response: Curl) -> Int? {
        let line = response.body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test("A negative, infinite or NaN limit, or a burst under 1, is a usage error (exit 64)",
          arguments: [["--bad-report-limit=-1"], ["--bad-report-limit", "inf"], ["--bad-report-limit", "nan"],
                      ["--bad-report-burst", "0"]])
    func usage(_ arguments: [String]) async throws {
        // A server that accepted the value would run on: refusal stops it after a minute, and the test fails.
        let (status, errors) = try await ServeProcess.refusal(arguments, environment: ["SMSKIT_API_KEYS": VerificationProcessTests.key])
        #expect(status == 64, "\(errors)")
        #expect(errors.contains("bad-report limit"), "\(errors)")
    }

    @Test("smskit serve: a forged-token flood from one address gets 429; the gateway's address is served meanwhile; after the refill a good report is applied")
    func endToEnd() async throws {
        // A token every 20 s: the flood below is over long before one is back, even on a loaded machine.
        let server = try await ServeProcess.start(["--store", "memory", "--bad-report-limit", "0.05", "--bad-report-burst", "5"])
        let key = VerificationProcessTests.key
        var tokens: [String] = []
        for number in ["+447400123401", "+447400123402"] {
            let started = try await VerificationProcessTests.start(server, number)
            #expect(started.status == 200, "\(started.body)")
            let outbox = try String(contentsOf: server.directory.appendingPathComponent("smskit-outbox.jsonl"), encoding: .utf8)
            let line = try #require(outbox.split(separator: "\n").last { $0.contains(#""to":"\#(number)""#) })
            tokens.append(try #require(VerificationProcessTests.field("delivery_token", String(line))))
        }
        let stranger = "127.0.0.66", gateway = "127.0.0.10"
        var statuses: [Int] = []
        for _ in 0..<12 {
            let forged = "token=\(DeliveryMessage.makeToken())&part=1&type=1"
            statuses.append(try await Self.report(server, from: stranger, forged).status)
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == 404 } && statuses.dropFirst(5).allSatisfy { $0 == 429 }, "\(statuses)")
        let good = ["token=\(tokens[0])&part=1&type=8", "token=\(tokens[1])&part=1&type=8"]
        let refused = try await Self.report(server, from: stranger, good[1])
        #expect(refused.status == 429 && refused.body.contains(#""code":"too_many_bad_reports""#), "\(refused.body)")
        let wait = try #require(Self.retryAfter(refused), "\(refused.body)")
        #expect(wait >= 1 && wait <= 20)
        // The gateway's address: its good reports, past the burst, are all served.
        for index in 0..<10 {
            let answer = try await Self.report(server, from: gateway, good[0])
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.body.contains(index == 0 ? #""status":"applied""# : #""status":"duplicate""#), "\(answer.body)")
        }
        // Once a token is back, the stranger's address may report again: a good report is applied.
        try await Task.sleep(for: .seconds(wait))
        let deadline = ContinuousClock.now + .seconds(60)
        var later = try await Self.report(server, from: stranger, good[1])
        while later.status == 429, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            later = try await Self.report(server, from: stranger, good[1])
        }
        #expect(later.status == 200 && later.body.contains(#""status":"applied""#), "\(later.body)")
        let metrics = try await Curl.run(["-H", "Authorization: Bearer \(key)", "\(server.url)/metrics"])
        #expect(metrics.body.contains(#"smskit_delivery_reports_total{outcome="throttled"}"#), "\(metrics.body)")
        #expect(await server.stop() == 0)
    }
}
