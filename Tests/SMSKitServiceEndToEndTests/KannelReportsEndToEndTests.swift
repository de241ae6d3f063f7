import Foundation
import PhoneVerification
import SMSKitWebhookTestSupport
import Synchronization
import Testing

/// The SMPP SMSC of the SMPP tests (Tests/PhoneVerificationSMPPTests/smsc.py, on PyPI's smpp34),
/// which answers each submit_sm and sends its deliver_sm receipt; commands go to its stdin.
final class ReceiptingSMSC: Sendable {
    let port: Int
    private let process: Process
    private let stdin: FileHandle
    private final class Output: Sendable {
        let text = Mutex<String>("")
    }
    private let output = Output()

    static let python = ProcessInfo.processInfo.environment["SMSKIT_TEST_SMPP_PYTHON"]
    static var shouldRun: Bool {
        (python != nil && KannelPrograms.installed) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    init() throws {
        port = try freeLoopbackPort()
        let python = try #require(Self.python, "SMSKIT_TEST_SMPP_PYTHON is not set: .ci/run must run .ci/smpp.sh")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "PhoneVerificationSMPPTests/smsc.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--port", String(port)]
        let input = Pipe(), out = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        stdin = input.fileHandleForWriting
        let reader = out.fileHandleForReading
        let output = self.output
        Thread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                output.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
    }

    func send(_ command: String) { stdin.write(Data((command + "\n").utf8)) }

    var events: String { output.text.withLock { $0 } }

    func waitFor(_ needle: String, seconds: Double = 30) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !events.contains(needle) {
            guard ContinuousClock.now < deadline else { throw FixtureError("the SMSC never reported \(needle): \(events)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func stop() {
        try? stdin.close()
        process.terminate()
    }
}

/// Delivery reports end to end: `smskit serve --sender kannel:… --delivery-report-url …`, smsbox and
/// bearerbox bound over SMPP to smpp34's SMSC, whose deliver_sm receipts come back through
/// Kannel's dlr-url to the service, whose events go to a webhook receiver in the test.
@Suite("Kannel delivery reports: serve → smsbox → bearerbox → SMPP SMSC → receipts → dlr-url → serve",
       .enabled(if: ReceiptingSMSC.shouldRun, "needs Kannel (.ci/kannel.sh) and smpp34 (.ci/smpp.sh, SMSKIT_TEST_SMPP_PYTHON)"))
struct KannelReportsEndToEndTests {
    static let key = "kannel-dlr-key-0123456789abcdef"

    static func curl(_ stack: KannelStack, _ name: String, port: Int, path: String, body: String? = nil) async throws -> [String: Any] {
        let result = try await stack.run(name, "/usr/bin/curl", [
            "-sS", "--max-time", "60", "-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
        ] + (body.map { ["-d", $0] } ?? []) + ["http://127.0.0.1:\(port)\(path)"])
        return (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
    }

    /// Polls the verification's status until its first message is final.
    static func finalMessage(_ stack: KannelStack, port: Int, id: String) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(60)
        var last: [String: Any] = [:]
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            last = try await curl(stack, "curl-status-\(round)", port: port, path: "/v1/verifications/\(id)")
            if let message = (last["messages"] as? [[String: Any]])?.first,
               ["delivered", "failed", "expired"].contains(message["state"] as? String ?? "") {
                return message
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw FixtureError("no final delivery state within 60 s: \(last)")
    }

    /// The webhook events of verification `id` the receiver accepted, once `kind` is among them
    /// (polled for up to two minutes), each with its signature checked by the documented check.
    static func webhookEvents(_ receiver: WebhookReceiver, _ signer: WebhookSignature, id: String,
                              until kind: String) async throws -> [[String: Any]] {
        func events(_ requests: [WebhookReceiver.Request]) -> [[String: Any]] {
            requests.filter { (200..<300).contains($0.status) }.compactMap { request in
                (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            }.filter { $0["verification_id"] as? String == id }
        }
        let arrived = try await receiver.wait(seconds: 120) { requests in
            events(requests).contains { $0["kind"] as? String == kind }
        }
        #expect(arrived, "no \(kind) event reached the webhook: \(events(receiver.requests))")
        let requests = receiver.accepted.filter {
            ((try? JSONSerialization.jsonObject(with: Data($0.body))) as? [String: Any])?["verification_id"] as? String == id
        }
        for request in requests {
            let header = try #require(request.headers["smskit-signature"], "a delivery without its signature")
            #expect(throws: Never.self) { try signer.verify(header: header, body: request.body, now: request.arrivedAt) }
            var tampered = request.body
            tampered[tampered.count / 2] ^= 0x01
            #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
                try signer.verify(header: header, body: tampered, now: request.arrivedAt)
            }
        }
        return events(requests)
    }

    /// The events' kinds in arrival order, after checking each event arrived once by ID, in
    /// sequence order, with the header's ID.
    static func kindsOnceInOrder(_ events: [[String: Any]]) -> [String] {
        let ids = events.compactMap { $0["id"] as? String }
        #expect(ids.count == events.count && Set(ids).count == ids.count, "each event once by ID: \(ids)")
        let sequences = events.compactMap { $0["sequence"] as? Int }
        #expect(sequences == sequences.sorted() && sequences.count == events.count, "in order: \(sequences)")
        return events.compactMap { $0["kind"] as? String }
    }

    @Test("a Turkish two-part code becomes delivered after both receipts, a rejected one failed with its error code; each event reaches the webhook signed, once, in order")
    func deliveredAndFailed() async throws {
        let binary = try #require(ServeKannelTests.executable, "the smskit binary was not found next to the test bundle")
        let receiver = try await WebhookReceiver()
        let webhookSecret = "kannel-webhook-secret-0123456789abcdef"
        let signer = try WebhookSignature(secret: Array(webhookSecret.utf8))
        let smsc = try ReceiptingSMSC()
        defer { smsc.stop() }
        try await smsc.waitFor(#""event": "listening""#)
        // Receipts come a little after the submit_sm_resp, as on a network (bearerbox files the
        // part's report entry when the response arrives).
        smsc.send(#"{"cmd": "mode", "receipt_delay_ms": 300}"#)
        try await KannelStack.run(smppPort: smsc.port) { stack in
            try await smsc.waitFor(#""event": "bound""#)
            let port = try freeLoopbackPort()
            let url = "kannel:http://\(stack.username)@127.0.0.1:\(stack.sendsmsPort)/cgi-bin/sendsms?from=SMSKit"
            // The webhook's secret in a private file, as serve requires.
            let secretFile = stack.directory.appending(path: "webhook.secret").path
            #expect(FileManager.default.createFile(atPath: secretFile, contents: Data(webhookSecret.utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            try stack.launch("serve", binary, [
                "serve", "--port", String(port), "--store", "memory", "--sender", url,
                "--delivery-report-url", "http://127.0.0.1:\(port)/v1/delivery-reports/kannel",
                "--webhook", receiver.url, "--webhook-secret-file", secretFile, "--webhook-allow-private",
            ], environment: [
                "SMSKIT_API_KEYS": Self.key, "SMSKIT_KANNEL_PASSWORD": stack.password,
                "SMSKIT_VERIFY_SECRET": "serve-kannel-dlr-secret-0123456789abcdef-01234",
                // A long Turkish app name: the code takes two UCS-2 parts, each with its own receipt.
                "SMSKIT_APP_NAME": "Şirketimizin Güvenli Giriş ve Ödeme Uygulaması",
            ])
            try await stack.waitFor("smskit serve listening", file: "serve.out", containing: "listening on http://127.0.0.1:")

            let started = try await Self.curl(stack, "curl-start", port: port, path: "/v1/verifications",
                                              body: #"{"number":"+905321234599","lang":"tr"}"#)
            let id = try #require(started["id"] as? String, "\(started)")
            #expect(started["segments"] as? Int == 2)
            let delivered = try await Self.finalMessage(stack, port: port, id: id)
            #expect(delivered["state"] as? String == "delivered", "\(delivered)")
            let parts = try #require(delivered["parts"] as? [[String: Any]])
            #expect(parts.count == 2 && parts.allSatisfy { $0["state"] as? String == "delivered" }, "\(parts)")
            #expect(smsc.events.components(separatedBy: #""event": "deliver_sm_resp""#).count - 1 == 2)
            // The webhook got started, sent and then one delivered for the two parts.
            let deliveredEvents = try await Self.webhookEvents(receiver, signer, id: id, until: "delivered")
            #expect(Self.kindsOnceInOrder(deliveredEvents) == ["started", "sent", "delivered"], "\(deliveredEvents)")

            // The SMSC now answers with a receipt that says the message was undeliverable.
            smsc.send(#"{"cmd": "mode", "receipt_stat": "UNDELIV", "receipt_err": "011"}"#)
            try await smsc.waitFor(#""event": "mode""#)
            let rejected = try await Self.curl(stack, "curl-start-2", port: port, path: "/v1/verifications",
                                               body: #"{"number":"+905321234598","lang":"en"}"#)
            let rejectedID = try #require(rejected["id"] as? String, "\(rejected)")
            let failed = try await Self.finalMessage(stack, port: port, id: rejectedID)
            #expect(failed["state"] as? String == "failed", "\(failed)")
            #expect(failed["error_code"] as? String == "011", "\(failed)")
            let failedEvents = try await Self.webhookEvents(receiver, signer, id: rejectedID, until: "delivery_failed")
            #expect(Self.kindsOnceInOrder(failedEvents) == ["started", "sent", "delivery_failed"], "\(failedEvents)")
            #expect(failedEvents.last?["error_code"] as? String == "011", "\(failedEvents)")
            // Nothing of the first verification was delivered again meanwhile.
            #expect(try await Self.webhookEvents(receiver, signer, id: id, until: "delivered").count == 3)

            let metrics = try await stack.run("curl-metrics", "/usr/bin/curl", [
                "-sS", "--max-time", "60", "-H", "Authorization: Bearer \(Self.key)", "http://127.0.0.1:\(port)/metrics",
            ])
            #expect(metrics.output.contains(#"smskit_delivery_reports_total{outcome="applied"}"#), "\(metrics.output)")
            #expect(!stack.contents("serve.out").contains("+905321234599"), "numbers are never logged")
            #expect(!receiver.requests.contains { String(decoding: $0.body, as: UTF8.self).contains("5321234599") },
                    "webhook events never carry the whole number")
        }
        try await receiver.stop()
    }
}
