import Foundation
import Testing

/// The find limits as `smskit serve` options.
@Suite("smskit serve: the find limits")
struct ServeFindLimitTests {
    @Test("--max-find-text-length and SMSKIT_MAX_FIND_NUMBERS set the limits of /v1/numbers/find; 0 is a usage error")
    func options() async throws {
        let server = try await ServeProcess.start(["--store", "memory", "--max-find-text-length", "40"], environment: ["SMSKIT_MAX_FIND_NUMBERS": "1"])
        func find(_ text: String) async throws -> Curl {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["text": text]), as: UTF8.self)
            return try await Curl.run(["-H", "Authorization: Bearer \(ServeBinaryTests.key)", "-H", "Content-Type: application/json",
                                 "-d", body, "\(server.url)/v1/numbers/find"])
        }
        let one = try await find("Call +44 20 7946 0123")
        #expect(one.status == 200)
        #expect(one.body.contains(#""e164":"+442079460123""#))
        let two = try await find("+44 20 7946 0123, +44 20 7946 0124")
        #expect(two.status == 413)
        #expect(two.body.contains(#""code":"too_many_numbers""#))
        let long = try await find(String(repeating: "é", count: 41))
        #expect(long.status == 422)
        #expect(long.body.contains(#""code":"text_too_long""#))
        #expect(await server.stop() == 0)

        let refused = try await ServeProcess.refusal(["--max-find-numbers", "0"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("find answer limit must be positive"), "\(refused.stderr)")
    }
}
