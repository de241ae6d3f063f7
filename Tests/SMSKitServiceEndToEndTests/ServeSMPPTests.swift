import Foundation
import PhoneVerificationSMPP
import Testing

/// `smskit serve --sender smpp://…`, the built binary, in front of smpp34's SMSC.
@Suite(.enabled(if: SMPPPython.shouldRun, "smpp34 is not installed (.ci/smpp.sh); skipped, under CI=true they fail"))
struct ServeSMPPTests {
    static let key = "smpp-e2e-key-0123456789abcdef"

    static let executable = BuiltProduct.url("smskit")?.path

    /// POSTs JSON with curl (GETs without a body); returns the status and the body.
    static func post(port: Int, path: String, body: String?) throws -> (status: Int, body: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "--max-time", "30", "-o", "-", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(key)"]
            + (body.map { ["-H", "Content-Type: application/json", "-d", $0] } ?? []) + ["http://127.0.0.1:\(port)\(path)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func aVerificationCodeGoesOutAsSubmitSMAndChecksAndSIGTERMUnbinds() async throws {
        let binary = try #require(Self.executable, "the smskit binary was not found next to the test bundle")
        try await SMSCProcess.with(relay: true) { smsc in
            let serve = Process()
            serve.executableURL = URL(fileURLWithPath: binary)
            // The password comes from the environment, not the command line.
            serve.arguments = ["serve", "--port", "0", "--store", "memory", "--sender",
                               "smpp://smskit@127.0.0.1:\(smsc.port)?source=Acme&window=10"]
            serve.environment = ProcessInfo.processInfo.environment.merging([
                "SMSKIT_API_KEYS": Self.key, "SMSKIT_SMPP_PASSWORD": "s3cret",
                "SMSKIT_VERIFY_SECRET": "serve-smpp-secret-0123456789abcdef-0123456789",
            ]) { $1 }
            let output = Pipe()
            serve.standardOutput = output
            serve.standardError = output
            let log = Locked(Data())
            try serve.run()
            defer { serve.terminate(); serve.waitUntilExit() }
            let reader = output.fileHandleForReading
            Thread {
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { return }
                    log.withLock { $0.append(chunk) }
                }
            }.start()
            var port: Int?
            let deadline = ContinuousClock.now + .seconds(30)
            while port == nil, ContinuousClock.now < deadline {
                let text = String(decoding: log.withLock { $0 }, as: UTF8.self)
                port = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
                    .flatMap { Int(text[$0].split(separator: ":").last ?? "") }
                try await Task.sleep(for: .milliseconds(50))
            }
            let servePort = try #require(port, "smskit serve did not start: \(String(decoding: log.withLock { $0 }, as: UTF8.self))")

            let started = try await Self.post(port: servePort, path: "/v1/verifications", body: #"{"number":"+905321234599","lang":"tr"}"#)
            #expect(started.status == 200, "\(started.body)")
            let json = try JSONSerialization.jsonObject(with: Data(started.body.utf8)) as? [String: Any]
            let id = try #require(json?["id"] as? String)
            let segments = try #require(json?["segments"] as? Int)
            let submits = try await smsc.waitFor("submit_sm", count: segments)
            #expect(submits.allSatisfy { $0["destination_addr"] as? String == "905321234599" && $0["source_addr_ton"] as? Int == 5 })
            #expect(smsc.events("bound").first?["system_id"] as? String == "smskit")
            // The text, whichever encoding SMSKit chose, read back by the client's own decoder.
            let text = try submits.map { submit -> String in
                let message = SMPPShortMessage(
                    source: SMPPAddress(ton: 0, npi: 0, address: ""), destination: SMPPAddress(ton: 0, npi: 0, address: ""),
                    esmClass: UInt8(submit["esm_class"] as! Int), dataCoding: UInt8(submit["data_coding"] as! Int),
                    shortMessage: [UInt8](hex: submit["short_message"] as! String))
                return try SMPPIncomingPart(message).text ?? ""
            }.joined()
            let code = try #require(text.split { !("0"..."9").contains($0) }.first { $0.count == 6 }.map(String.init), "\(text)")
            // The SMSC's deliver_sm receipts (decimal IDs for its decimal submit_sm_resp IDs) make
            // the message delivered, through the same store API as Kannel's reports.
            var status: [String: Any] = [:]
            let receiptDeadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < receiptDeadline {
                let answer = try await Self.post(port: servePort, path: "/v1/verifications/\(id)", body: nil)
                status = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]) ?? [:]
                if let messages = status["messages"] as? [[String: Any]], messages.first?["state"] as? String == "delivered" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let message = try #require((status["messages"] as? [[String: Any]])?.first, "\(status)")
            #expect(message["state"] as? String == "delivered", "\(status)")
            let parts = try #require(message["parts"] as? [[String: Any]])
            #expect(parts.count == segments && parts.allSatisfy { $0["state"] as? String == "delivered" })
            #expect(parts.allSatisfy { ($0["provider_message_id"] as? String)?.isEmpty == false })
            let checked = try await Self.post(port: servePort, path: "/v1/verifications/\(id)/check", body: #"{"code":"\#(code)"}"#)
            #expect(checked.status == 200 && checked.body.contains("approved"), "\(checked.body)")
            #expect(!String(decoding: log.withLock { $0 }, as: UTF8.self).contains("s3cret"), "the password is never logged")

            // SIGTERM: the server drains, then the session unbinds before the process exits 0.
            serve.terminate()
            let exitDeadline = ContinuousClock.now + .seconds(30)
            while serve.isRunning, ContinuousClock.now < exitDeadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(!serve.isRunning && serve.terminationStatus == 0, "\(String(decoding: log.withLock { $0 }, as: UTF8.self))")
            #expect(smsc.clientCommands.first == "bind_transceiver")
            #expect(smsc.clientCommands.last == "unbind", "\(smsc.clientCommands)")
        }
    }
}
