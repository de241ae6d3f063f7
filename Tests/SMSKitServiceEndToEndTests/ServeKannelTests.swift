import Foundation
import Testing

/// `smskit serve --sender kannel:URL`, the built binary, in front of a real Kannel.
@Suite("smskit serve --sender kannel: → fakesmsc", .enabled(if: KannelPrograms.shouldRun, KannelPrograms.skipMessage))
struct ServeKannelTests {
    static let key = "kannel-e2e-key-0123456789abcdef"

    static let executable = BuiltProduct.url("smskit")?.path

    static func post(_ stack: KannelStack, _ name: String, port: Int, path: String, body: String) async throws -> (status: Int, body: String) {
        let result = try await stack.run(name, "/usr/bin/curl", [
            "-sS", "--max-time", "60", "-o", "-", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(key)",
            "-H", "Content-Type: application/json", "-d", body, "http://127.0.0.1:\(port)\(path)",
        ])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func field(_ name: String, _ body: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?[name]
    }

    @Test("POST /v1/verifications sends the code through Kannel; the code fakesmsc received is approved; Kannel down gives 502")
    func serveThroughKannel() async throws {
        let binary = try #require(Self.executable, "the smskit binary was not found next to the test bundle")
        try await KannelStack.run { stack in
            // The password comes from the environment, not the command line.
            let url = "kannel:http://\(stack.username)@127.0.0.1:\(stack.sendsmsPort)/cgi-bin/sendsms?from=SMSKit"
            try stack.launch("serve", binary, ["serve", "--port", "0", "--store", "memory", "--sender", url], environment: [
                "SMSKIT_API_KEYS": Self.key, "SMSKIT_KANNEL_PASSWORD": stack.password,
                "SMSKIT_VERIFY_SECRET": "serve-kannel-secret-0123456789abcdef-0123456789",
            ])
            try await stack.waitFor("smskit serve listening", file: "serve.out", containing: "listening on http://127.0.0.1:")
            let log = stack.contents("serve.out")
            let port = try #require(log.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
                .flatMap { Int(log[$0].split(separator: ":").last ?? "") })

            let number = "+905321234599"
            let started = try await Self.post(stack, "curl-start", port: port, path: "/v1/verifications",
                                              body: #"{"number":"\#(number)","lang":"tr"}"#)
            #expect(started.status == 200, "\(started.body)")
            let id = try #require(Self.field("id", started.body) as? String)
            let segments = try #require(Self.field("segments", started.body) as? Int)
            let parts = try await stack.waitForParts(to: number, count: segments)
            #expect(parts.count == segments)
            let text = parts.compactMap { decode($0, as: .ucs2) }.joined()
            #expect(text.contains("doğrulama kodunuz"), "\(text)")
            let sentCode = try #require(code(in: text))
            let checked = try await Self.post(stack, "curl-check", port: port, path: "/v1/verifications/\(id)/check",
                                              body: #"{"code":"\#(sentCode)"}"#)
            #expect(checked.status == 200 && Self.field("status", checked.body) as? String == "approved", "\(checked.body)")

            // smsbox stopped: the start fails with 502 and nothing reaches the SMSC.
            await stack.stop("smsbox")
            let failed = try await Self.post(stack, "curl-down", port: port, path: "/v1/verifications",
                                             body: #"{"number":"+905321234598","lang":"tr"}"#)
            #expect(failed.status == 502, "\(failed.body)")
            #expect(stack.received().filter { $0.to == "+905321234598" }.isEmpty)
            #expect(!stack.contents("serve.out").contains(stack.password), "the password is never logged")

            // The sender's counters are in the server's Prometheus metrics.
            let metrics = try await stack.run("curl-metrics", "/usr/bin/curl", [
                "-sS", "--max-time", "60", "-H", "Authorization: Bearer \(Self.key)", "http://127.0.0.1:\(port)/metrics",
            ])
            #expect(metrics.output.contains(#"smskit_kannel_sms_total{result="sent"} 1"#), "\(metrics.output)")
            #expect(metrics.output.contains(#"smskit_kannel_failures_total{reason="connection_failed"} 1"#))
            #expect(metrics.output.contains(#"smskit_kannel_retries_total{reason="connection"} 2"#))
        }
    }
}
