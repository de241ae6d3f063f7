import Foundation
import PhoneVerification
import SMSKitWebhookTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two `smskit serve` processes on one PostgreSQL database, one of them killed in the middle of
/// a stream of starts and delivery reports: what either answered 2xx is in the store, reports are
/// applied once whichever process gets them, and the survivor's webhook dispatcher delivers
/// the events the dead one had claimed.
extension VerificationProcessTests {
    final class Stream: Sendable {
        struct Started: Sendable {
            var id: String, number: String, token: String, atA: Bool
        }

        struct Report: Sendable {
            var id: String, token: String, atA: Bool, status: Int, outcome: String?
        }

        let started = Mutex<[Started]>([])
        let reports = Mutex<[Report]>([])
        let steps = Mutex(0)
        /// Steps each worker still takes once A is dead (nil while A lives).
        let remainingAfterKill = Mutex<Int?>(nil)
    }

    /// The two processes, handed to the threads that drive them (each is used by one request at a time).
    struct Servers: @unchecked Sendable {
        let a: ServeProcess, b: ServeProcess
    }

    static let reportQuery = "part=1&type=1&status=id%3A42%20stat%3ADELIVRD%20err%3A000"

    /// One step of the stream: a start at `atA ? a : b`, then its delivered report at the other.
    static func step(_ stream: Stream, _ a: ServeProcess, _ b: ServeProcess, atA: Bool) async throws {
        let server = atA ? a : b
        let number = mobile()
        let answer = try await Curl.run(["--max-time", "30", "-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/json",
                                   "-d", #"{"number":"\#(number)","lang":"en","client_key":"failover-\#(number.dropFirst())"}"#,
                                         "\(server.url)/v1/verifications"])
        guard (200..<300).contains(answer.status), let id = field("id", answer.body) else { return }
        let outbox = try String(contentsOf: server.directory.appendingPathComponent("smskit-outbox.jsonl"), encoding: .utf8)
        let line = try #require(outbox.split(separator: "\n").last { $0.contains(#""to":"\#(number)""#) })
        let token = try #require(field("delivery_token", String(line)))
        stream.started.withLock { $0.append(.init(id: id, number: number, token: token, atA: atA)) }
        let reportAtA = !atA
        let report = try await Curl.run(["--max-time", "30", "\((reportAtA ? a : b).url)/v1/delivery-reports/kannel?token=\(token)&\(reportQuery)"])
        stream.reports.withLock {
            $0.append(.init(id: id, token: token, atA: reportAtA, status: report.status, outcome: field("status", report.body)))
        }
    }

    /// `GET path` at `server` with the key, parsed as JSON (or each NDJSON line).
    static func read(_ server: ServeProcess, _ path: String) async throws -> Curl {
        try await Curl.run(["--max-time", "30", "-H", "Authorization: Bearer \(key)", "\(server.url)\(path)"])
    }

    static func objects(_ ndjson: String) -> [[String: Any]] {
        ndjson.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("Two processes, one PostgreSQL: SIGKILL of one amid starts and reports; every 2xx is kept, reports apply once, the survivor delivers the dead one's webhook events",
          .enabled(if: postgresURL != nil || isCI))
    func killedAmidReports() async throws {
        let base = try #require(Self.postgresURL, "CI=true needs SMSKIT_TEST_POSTGRES_URL")
        // A database of its own: counters and events are exact, and no other test shares them.
        let database = "failover_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try ServeSecurityDefaultsTests.psql(base, "CREATE DATABASE \(database)")
        defer { try? ServeSecurityDefaultsTests.psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        var components = try #require(URLComponents(string: base))
        components.path = "/" + database
        let url = try #require(components.string)

        // Both processes post to one webhook URL (so they share its delivery state), each signing
        // with a secret of its own: the receiver tells them apart, and never answers A, whose
        // claimed deliveries stay leased when it dies.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-failover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var signers: [WebhookSignature] = [], secretFiles: [String] = []
        for name in ["a", "b"] {
            let secret = "failover-webhook-\(name)-" + randomSecret()
            let path = directory.appendingPathComponent("webhook-\(name).secret").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]))
            signers.append(try WebhookSignature(secret: Array(secret.utf8)))
            secretFiles.append(path)
        }
        let (signerA, signerB) = (signers[0], signers[1])
        @Sendable func signed(by signer: WebhookSignature, _ headers: [String: String], _ body: [UInt8], at now: Date = Date()) -> Bool {
            (try? signer.verify(header: headers["smskit-signature"] ?? "", body: body, now: now)) != nil
        }
        let receiver = try await WebhookReceiver(.init(hangWhen: { headers, body in signed(by: signerA, headers, body) }))

        let secret = randomSecret()
        @Sendable func serve(_ secretFile: String) async throws -> ServeProcess {
            // A trusted key with a client key per start: every start comes from 127.0.0.1, and the
            // per-client limit (20 starts in 10 minutes, shared by both processes through the
            // store) would refuse every start after the 20th, however long the stream runs before
            // the kill, leaving no report for the dead process to miss.
            try await ServeProcess.start(["--store", url, "--webhook", receiver.url, "--webhook-secret-file", secretFile, "--webhook-allow-private"],
                                         keys: "\(Self.key) trusted",
                             environment: ["SMSKIT_VERIFY_SECRET": secret])
        }
        let files = secretFiles
        let servers = Servers(a: try await serve(files[0]), b: try await serve(files[1]))
        let (a, b) = (servers.a, servers.b)
        #expect(try await Self.waitUntilReady(servers.a))
        #expect(try await Self.waitUntilReady(servers.b))

        // Two workers, each alternating the process it starts at, until a few steps after A died.
        let stream = Stream()
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<2 {
                    group.addTask {
                        for index in 0..<200 {
                            let more = stream.remainingAfterKill.withLock { remaining -> Bool in
                                guard let left = remaining else { return true }
                                remaining = left - 1
                                return left > 0
                            }
                            guard more else { return }
                            try? await Self.step(stream, servers.a, servers.b, atA: (index + worker) % 2 == 0)
                            stream.steps.withLock { $0 += 1 }
                        }
                    }
                }
            }
        }
        // Mid-stream, and while A has a delivery in hand (one it sent the receiver moments ago,
        // within its client's timeout), A is killed.
        let midStream = try await receiver.wait(seconds: 120) { requests in
            stream.steps.withLock { $0 } >= 12
                && requests.contains { $0.status == 0 && ContinuousClock.now - $0.receivedAt < .seconds(2) }
        }
        #expect(midStream, "A never held a delivery mid-stream")
        a.signal(SIGKILL)
        stream.remainingAfterKill.withLock { $0 = 12 }
        let heldByA = Set(receiver.requests.filter { $0.status == 0 }.compactMap(\.eventID))
        await workers.value
        #expect(await servers.a.waitForExit(seconds: 30) != nil)

        let started = stream.started.withLock { $0 }
        var reports = stream.reports.withLock { $0 }
        #expect(started.contains { $0.atA } && started.contains { !$0.atA } && reports.contains { $0.atA && $0.status == 0 },
                "the stream did not reach both processes, or A was not killed in it")
        // Reports whose request to A got no answer go to B (a gateway sends again what failed):
        // applied, or duplicate if A committed. A loaded store may answer 503 for a while.
        for (index, report) in reports.enumerated() where report.status != 200 {
            let deadline = ContinuousClock.now + .seconds(120)
            let url = "\(servers.b.url)/v1/delivery-reports/kannel?token=\(report.token)&\(Self.reportQuery)"
            var again = try await Curl.run(["--max-time", "30", url])
            while again.status == 503 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .seconds(1))
                again = try await Curl.run(["--max-time", "30", url])
            }
            #expect(again.status == 200 && ["applied", "duplicate"].contains(Self.field("status", again.body) ?? ""), "\(again.body)")
            reports[index].status = again.status
        }
        #expect(reports.filter { $0.status == 200 }.count == started.count)

        // Every verification started with a 2xx is in the store, its report applied.
        for verification in started {
            let status = try await Self.read(servers.b, "/v1/verifications/\(verification.id)")
            #expect(status.status == 200, "\(verification.id): \(status.body)")
            let object = try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any]
            let messages = object?["messages"] as? [[String: Any]] ?? []
            #expect(messages.count == 1 && messages.first?["state"] as? String == "delivered", "\(status.body)")
        }

        // Events, read at B: each change once (one delivered per message, however many
        // processes the report reached), with IDs unique.
        var events: [[String: Any]] = []
        var cursor = "0"
        while true {
            let path = "/v1/events?after=\(cursor)&limit=1000"
            let page = try await Self.read(servers.b, path)
            let lines = Self.objects(page.body)
            if lines.isEmpty { break }
            events += lines
            cursor = String(lines.last?["cursor"] as? Int ?? 0)
        }
        let ids = events.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count && ids.count == events.count)
        for verification in started {
            let kinds = events.filter { $0["verification_id"] as? String == verification.id }.compactMap { $0["kind"] as? String }
            #expect(kinds.sorted() == ["delivered", "sent", "started"], "\(verification.id): \(kinds)")
        }
        let stats = try await Self.read(servers.b, "/v1/stats?by=region")
        let rows = (try JSONSerialization.jsonObject(with: Data(stats.body.utf8)) as? [String: Any])?["stats"] as? [[String: Any]]
        let gb = rows?.first { $0["value"] as? String == "GB" }
        #expect(gb?["delivered"] as? Int == started.count, "\(stats.body)")

        // B's dispatcher delivers every event, those A held when it died included (after A's
        // lease, 60 s by default: serve has no option to shorten it), each signed by B, in order
        // per verification.
        let everyEvent = Set(ids)
        let delivered = try await receiver.wait(seconds: 300) { requests in
            everyEvent.isSubset(of: Set(requests.filter { $0.status == 204 }.compactMap(\.eventID)))
        }
        let accepted = receiver.accepted
        #expect(delivered, "not delivered: \(everyEvent.subtracting(accepted.compactMap(\.eventID)).sorted())")
        #expect(!heldByA.isEmpty && heldByA.isSubset(of: Set(accepted.compactMap(\.eventID))))
        for request in accepted {
            #expect(signed(by: signerB, request.headers, request.body, at: request.arrivedAt))
        }
        var firstArrival: [String: [Int]] = [:], seen = Set<String>()
        for request in accepted {
            guard let event = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                  let id = event["id"] as? String, seen.insert(id).inserted else { continue }
            firstArrival[event["verification_id"] as? String ?? "", default: []].append(event["sequence"] as? Int ?? 0)
        }
        for (verification, sequences) in firstArrival {
            #expect(sequences == sequences.sorted(), "\(verification): \(sequences)")
        }
        try await receiver.stop()

        #expect(await servers.b.stop() == 0)
    }
}
