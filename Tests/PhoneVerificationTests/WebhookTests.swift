import Foundation
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import PhoneVerificationWebhooks
import SMSKitHTTPClient
import SMSKitWebhookTestSupport
import Testing

let webhookSigner = try! WebhookSignature(secret: Array("whsec-test-0123456789abcdef".utf8))

/// Webhook delivery over the three stores, against a real receiver on loopback.
enum WebhookScenarios {
    /// Tests run on loopback: the destination policy must allow it explicitly.
    /// A loaded test machine can take seconds to answer; slow receivers wait longer than this.
    static let loopbackClient = try! OutboundHTTPClient(configuration: .init(
        connectTimeout: .seconds(5), totalTimeout: .seconds(4), destinations: .any))

    static func dispatcher(_ store: any WebhookOutbox, _ endpoint: WebhookEndpoint,
                           retryPeriod: Duration = .seconds(3600)) -> WebhookDispatcher {
        WebhookDispatcher(outbox: store, endpoints: [endpoint], client: loopbackClient, configuration: .init(
            pollInterval: .milliseconds(20), batchSize: 8, lease: .seconds(5), initialBackoff: .milliseconds(20),
            maximumBackoff: .milliseconds(80), retryPeriod: retryPeriod))
    }

    /// Runs rounds of `dispatchers` until `done` holds or 30 s pass (generous: the suite shares two cores).
    static func deliver(_ dispatchers: [WebhookDispatcher], _ endpoint: WebhookEndpoint,
                        until done: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !done(), ContinuousClock.now < deadline {
            let sent = await withTaskGroup(of: Int.self) { group in
                for dispatcher in dispatchers { group.addTask { await dispatcher.deliverDue(to: endpoint) } }
                return await group.reduce(0, +)
            }
            if sent == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Events of a few verifications (start, wrong code, right code, another start).
    static func makeEvents(_ store: some VerificationEventStore) async throws -> [VerificationEvent] {
        let clock = ManualClock()
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        let us = try await verifier.start(phoneNumber: Numbers.us)
        _ = try await verifier.check(id: us.id, code: sender.lastCode(to: Numbers.us) == "000000" ? "111111" : "000000")
        _ = try await verifier.check(id: us.id, code: try #require(sender.lastCode(to: Numbers.us)))
        _ = try await verifier.start(phoneNumber: Numbers.brazil)
        _ = try await verifier.start(phoneNumber: Numbers.germany)
        return try await store.events(after: 0, limit: 1000)
    }

    /// What every receiver must see: each event accepted at least once (by ID), in order per
    /// verification, with a signature the documented check accepts and that a tampered body fails.
    static func expectDelivered(_ events: [VerificationEvent], to receiver: WebhookReceiver) throws {
        let accepted = receiver.accepted
        var firstSeen: [String: [Int]] = [:]
        var ids: Set<String> = []
        for request in accepted {
            let header = try #require(request.headers["smskit-signature"])
            try webhookSigner.verify(header: header, body: request.body, now: Date())
            var tampered = request.body
            tampered[tampered.count / 2] ^= 0x20
            #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
                try webhookSigner.verify(header: header, body: tampered, now: Date())
            }
            let event = try JSONDecoder().decode(VerificationEvent.self, from: Data(request.body))
            #expect(request.headers["smskit-event-id"] == event.id)
            if ids.insert(event.id).inserted { firstSeen[event.verificationID, default: []].append(event.sequence) }
        }
        #expect(ids == Set(events.map(\.id)))
        for (verification, sequences) in firstSeen {
            #expect(sequences == sequences.sorted(), "events of \(verification) arrived out of order: \(sequences)")
        }
    }

    static func failingThenRecovering(store: some VerificationEventStore & WebhookOutbox) async throws {
        let receiver = try await WebhookReceiver(.init(failFirst: 4))
        let endpoint = WebhookEndpoint(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner)
        let events = try await makeEvents(store)
        let dispatcher = dispatcher(store, endpoint)
        try await deliver([dispatcher], endpoint) { Set(receiver.accepted.map(\.body)).count >= events.count }
        try expectDelivered(events, to: receiver)
        #expect(receiver.requests.count >= events.count + 4)
        #expect(try await store.webhookBacklog(webhook: endpoint.name) == (0, 0))
        try await receiver.stop()
    }

    static func slowReceiver(store: some VerificationEventStore & WebhookOutbox) async throws {
        // The first two answers come after the client's total timeout: retried, delivered again.
        let receiver = try await WebhookReceiver(.init(slowFirst: 2, delay: .seconds(8)))
        let endpoint = WebhookEndpoint(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner)
        let events = try await makeEvents(store)
        try await deliver([dispatcher(store, endpoint)], endpoint) {
            Set(receiver.accepted.map(\.body)).count >= events.count && receiver.requests.count >= events.count + 2
        }
        try expectDelivered(events, to: receiver)
        #expect(try await store.webhookBacklog(webhook: endpoint.name).queued == 0)
        try await receiver.stop()
    }

    static func downThenUp(store: some VerificationEventStore & WebhookOutbox) async throws {
        let receiver = try await WebhookReceiver()
        let port = receiver.port
        try await receiver.stop()
        let endpoint = WebhookEndpoint(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner)
        let events = try await makeEvents(store)
        let dispatcher = dispatcher(store, endpoint)
        // Down: refused connections, every event stays queued.
        for _ in 0..<3 { await dispatcher.deliverDue(to: endpoint); try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await store.webhookBacklog(webhook: endpoint.name).queued == events.count)
        #expect(receiver.requests.isEmpty)
        try await receiver.start(port: port)
        try await deliver([dispatcher], endpoint) { Set(receiver.accepted.map(\.body)).count >= events.count }
        try expectDelivered(events, to: receiver)
        try await receiver.stop()
    }

    /// A delivery that keeps failing past the retry period is dead: counted, and no longer holding
    /// back the later events of its verification.
    static func dead(store: some VerificationEventStore & WebhookOutbox) async throws {
        let receiver = try await WebhookReceiver(.init(failFirst: 1))
        let endpoint = WebhookEndpoint(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner)
        let events = try await makeEvents(store)
        try await deliver([dispatcher(store, endpoint, retryPeriod: .zero)], endpoint) {
            receiver.requests.count >= events.count
        }
        // The receiver may count the last request before the dispatcher has written its outcome.
        let settled = ContinuousClock.now + .seconds(20)
        while try await store.webhookBacklog(webhook: endpoint.name) != (0, 1), ContinuousClock.now < settled {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await store.webhookBacklog(webhook: endpoint.name) == (0, 1))
        #expect(Set(receiver.accepted.map(\.body)).count == events.count - 1)
        try await receiver.stop()
    }

    /// Two dispatchers (as two service processes) on one store share the work: every event is
    /// delivered, in order per verification; duplicates only as at-least-once allows.
    static func twoDispatchers(first: some VerificationEventStore & WebhookOutbox,
                               second: some VerificationEventStore & WebhookOutbox) async throws {
        let receiver = try await WebhookReceiver(.init(failFirst: 2))
        let endpoint = WebhookEndpoint(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner)
        let events = try await makeEvents(first)
        try await deliver([dispatcher(first, endpoint), dispatcher(second, endpoint)], endpoint) {
            Set(receiver.accepted.map(\.body)).count >= events.count
        }
        try expectDelivered(events, to: receiver)
        // Leases are longer than any delivery here, so nothing was accepted twice.
        #expect(receiver.accepted.count == events.count)
        try await receiver.stop()
    }
}

@Suite("Webhooks: in memory")
struct InMemoryWebhookTests {
    @Test func failingThenRecovering() async throws { try await WebhookScenarios.failingThenRecovering(store: InMemoryVerificationStore()) }
    @Test func slowReceiver() async throws { try await WebhookScenarios.slowReceiver(store: InMemoryVerificationStore()) }
    @Test func downThenUp() async throws { try await WebhookScenarios.downThenUp(store: InMemoryVerificationStore()) }
    @Test func dead() async throws { try await WebhookScenarios.dead(store: InMemoryVerificationStore()) }
}

@Suite("Webhooks: SQLite")
struct SQLiteWebhookTests {
    func withStore(_ body: (SQLiteVerificationStore) async throws -> Void) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(try SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test func failingThenRecovering() async throws { try await withStore { try await WebhookScenarios.failingThenRecovering(store: $0) } }
    @Test func slowReceiver() async throws { try await withStore { try await WebhookScenarios.slowReceiver(store: $0) } }
    @Test func downThenUp() async throws { try await withStore { try await WebhookScenarios.downThenUp(store: $0) } }
    @Test func dead() async throws { try await withStore { try await WebhookScenarios.dead(store: $0) } }
    @Test func twoDispatchers() async throws {
        try await withStore { store in
            try await WebhookScenarios.twoDispatchers(first: store, second: try SQLiteVerificationStore(path: store.path))
        }
    }
}

@Suite("Webhooks: PostgreSQL",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresWebhookTests {
    @Test func failingThenRecovering() async throws {
        try await PostgresTestServer.withStores(1) { try await WebhookScenarios.failingThenRecovering(store: $0[0]) }
    }
    @Test func slowReceiver() async throws {
        try await PostgresTestServer.withStores(1) { try await WebhookScenarios.slowReceiver(store: $0[0]) }
    }
    @Test func downThenUp() async throws {
        try await PostgresTestServer.withStores(1) { try await WebhookScenarios.downThenUp(store: $0[0]) }
    }
    @Test func dead() async throws {
        try await PostgresTestServer.withStores(1) { try await WebhookScenarios.dead(store: $0[0]) }
    }
    @Test func twoDispatchers() async throws {
        try await PostgresTestServer.withStores(2) { try await WebhookScenarios.twoDispatchers(first: $0[0], second: $0[1]) }
    }
}

@Suite struct OutboundDestinationTests {
    /// The default policy refuses loopback, private, link-local and unspecified destinations
    /// before connecting: a receiver listening on loopback gets nothing. IPv6 forms that carry a
    /// private IPv4 address (compatible, NAT64, 6to4) are refused as that address.
    @Test(arguments: ["127.0.0.1", "localhost", "10.1.2.3", "192.168.0.10", "172.16.5.4", "169.254.169.254",
                      "100.64.0.1", "0.0.0.0", "[::1]", "[fd00::1]", "[fe80::1]", "[::ffff:127.0.0.1]",
                      "[::10.0.0.1]", "[64:ff9b::a00:1]", "[64:ff9b:1::1]", "[2002:c0a8:1::1]"])
    func privateDestinationsAreRefused(host: String) async throws {
        let receiver = try await WebhookReceiver()
        let client = try OutboundHTTPClient(configuration: .init(destinations: .publicOnly))
        let url = try #require(OutboundURL("http://\(host):\(receiver.port)/hook"))
        do {
            _ = try await client.send(OutboundHTTPRequest(method: .POST, url: url, body: Array("{}".utf8)))
            Issue.record("\(host) was not refused")
        } catch {
            #expect(error.kind == .destinationRefused)
            #expect(!error.requestWritten)
        }
        #expect(receiver.requests.isEmpty)
        try await receiver.stop()
    }

    @Test func responseBodiesAreCapped() async throws {
        let receiver = try await WebhookReceiver(.init(responseBody: Array(repeating: UInt8(ascii: "x"), count: 5000)))
        let url = try #require(OutboundURL(receiver.url))
        let small = try OutboundHTTPClient(configuration: .init(maximumResponseBytes: 4096, destinations: .any))
        do {
            _ = try await small.send(OutboundHTTPRequest(method: .POST, url: url, body: [1, 2, 3]))
            Issue.record("a 5000-byte answer passed a 4096-byte cap")
        } catch {
            #expect(error.kind == .responseTooLarge)
        }
        let large = try OutboundHTTPClient(configuration: .init(maximumResponseBytes: 5000, destinations: .any))
        let response = try await large.send(OutboundHTTPRequest(method: .POST, url: url, body: [1, 2, 3]))
        #expect(response.status == 200 && response.body.count == 5000)
        #expect(receiver.requests.first?.body == [1, 2, 3])
        try await receiver.stop()
    }

    @Test(arguments: ["ftp://x", "http://", "http://user:pw@host/", "http://host:99999/", "http://host/a#b", "http://ho st/"])
    func malformedURLsAreRefused(url: String) {
        #expect(OutboundURL(url) == nil)
    }

    @Test func urlsKeepTheirParts() throws {
        let url = try #require(OutboundURL("https://hooks.example.com:8443/in?token=secret"))
        #expect(url.isTLS && url.host == "hooks.example.com" && url.port == 8443 && url.target == "/in?token=secret")
        #expect(url.redacted == "https://hooks.example.com:8443/in")
        #expect(try #require(OutboundURL("http://[::1]/")).host == "::1")
    }
}

@Suite struct HTTPSSenderTests {
    static let client = WebhookScenarios.loopbackClient

    /// A verification through the HTTPS sender to a real server on loopback: one signed JSON
    /// document with the parts in hex, and the provider's ID from the answer.
    @Test func endToEnd() async throws {
        let receiver = try await WebhookReceiver(.init(responseBody: Array(#"{"message_id":"prov-42"}"#.utf8)))
        let sender = HTTPSSender(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner, client: Self.client)
        let verifier = try makeVerifier(sender: sender, clock: ManualClock())
        let started = try await verifier.start(phoneNumber: Numbers.us)
        let request = try #require(receiver.requests.first)
        #expect(receiver.requests.count == 1)
        try webhookSigner.verify(header: try #require(request.headers["smskit-signature"]), body: request.body, now: Date())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(document["recipient"] as? String == Numbers.us)
        #expect(document["verification_id"] as? String == started.id)
        #expect(document["message_key"] as? String == request.headers["idempotency-key"])
        #expect(document["encoding"] as? String == "gsm7")
        let parts = try #require(document["parts"] as? [[String: Any]])
        #expect(parts.count == started.segments)
        let userData = try #require(parts.first?["user_data"] as? String)
        #expect(!userData.isEmpty && userData.allSatisfy(\.isHexDigit))
        // The provider's ID reached the store with the message: a receipt naming it finds the part.
        let status = try #require(try await verifier.status(id: started.id))
        #expect(status.messages.first?.parts.first?.providerMessageID == "prov-42")
        let receipt = try await verifier.applyDeliveryReport(DeliveryReport(
            target: .providerMessageID("prov-42"), state: .delivered, receivedAt: Date()))
        #expect(receipt?.verificationID == started.id && receipt?.state == .delivered)
        let submission = try await sender.post(OutgoingSMS(to: Numbers.us, text: "x", encoding: .gsm7, parts: [],
                                                           locale: "en", verificationID: started.id))
        #expect(submission.providerMessageIDs == ["prov-42"])
        try await receiver.stop()
    }

    /// One ID per part from a `messages` array, in part order; an element without an ID, or with
    /// one too long to be kept whole, names no part.
    @Test func providerIDsPerPart() async throws {
        let long = String(repeating: "x", count: DeliveryReport.maximumProviderIDLength + 1)
        let receiver = try await WebhookReceiver(.init(responseBody: Array(
            #"{"messages":[{"id":"a-1"},{"status":"queued"},{"message_id":"c-3"},{"id":"\#(long)"}]}"#.utf8)))
        let sender: any SMSSender = HTTPSSender(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner,
                                                client: Self.client)
        let submitted = try await sender.submit(OutgoingSMS(to: Numbers.us, text: "x", encoding: .gsm7, parts: [],
                                                            locale: "en", verificationID: "v"))
        #expect(submitted.providerMessageIDs == ["a-1", nil, "c-3", nil])
        try await receiver.stop()
    }

    /// Nothing listening: retried, then a failure that says nothing was sent.
    @Test func refusedConnectionsAreRetriedThenFail() async throws {
        let receiver = try await WebhookReceiver()
        try await receiver.stop()
        let sender = HTTPSSender(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner, client: Self.client)
        do {
            _ = try await sender.post(OutgoingSMS(to: Numbers.us, text: "x", encoding: .gsm7, parts: [], locale: "en",
                                                    verificationID: "v"))
            Issue.record("a send to nothing succeeded")
        } catch {
            #expect(error.description.contains("3 attempts"))
            #expect(error.description.contains("nothing was sent"))
        }
    }

    /// A provider that got the request and answers late: no retry (it may have queued the SMS).
    @Test func noRetryOnceTheRequestWasSent() async throws {
        let receiver = try await WebhookReceiver(.init(slowFirst: 5, delay: .seconds(8)))
        let sender = HTTPSSender(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner, client: Self.client)
        do {
            _ = try await sender.post(OutgoingSMS(to: Numbers.us, text: "x", encoding: .gsm7, parts: [], locale: "en",
                                                    verificationID: "v"))
            Issue.record("a send past the timeout succeeded")
        } catch {
            #expect(error.description.contains("not retried"))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(receiver.requests.count == 1)
        try await receiver.stop()
    }

    /// 5xx is not retried either.
    @Test func serverErrorsAreNotRetried() async throws {
        let receiver = try await WebhookReceiver(.init(failFirst: 10))
        let sender = HTTPSSender(url: try #require(OutboundURL(receiver.url)), signature: webhookSigner, client: Self.client)
        await #expect(throws: HTTPSSender.SendError.self) {
            try await sender.post(OutgoingSMS(to: Numbers.us, text: "x", encoding: .gsm7, parts: [], locale: "en",
                                                verificationID: "v"))
        }
        #expect(receiver.requests.count == 1)
        try await receiver.stop()
    }
}
