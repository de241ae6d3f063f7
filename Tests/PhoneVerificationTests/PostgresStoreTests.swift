import Foundation
import PhoneVerification
import PhoneVerificationPostgres
import PostgresNIO
import Testing

/// The server from `.ci/postgres.sh`. Under CI=true a missing server is a failure; otherwise the
/// suite is skipped with this message.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["SMSKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let enabled = url != nil || isCI

    /// Runs `body` with `count` stores, each on its own client (as separate processes), sharing
    /// fresh tables that are dropped afterwards.
    static func withStores(_ count: Int = 1,
                           _ body: @Sendable ([PostgresVerificationStore]) async throws -> Void) async throws {
        try await withClients(count) { _, stores, _ in try await body(stores) }
    }

    /// ``withStores(_:_:)`` that also hands over the clients and the table prefix, for tests that
    /// run SQL of their own beside the stores.
    static func withClients(_ count: Int = 1,
                            _ body: @Sendable ([PostgresClient], [PostgresVerificationStore], String) async throws -> Void) async throws {
        let url = try #require(url, "SMSKIT_TEST_POSTGRES_URL is not set under CI=true: .ci/run must start PostgreSQL")
        let configuration = try PostgresVerificationStore.configuration(url: url)
        let prefix = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let clients = (0..<count).map { _ in PostgresClient(configuration: configuration) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            let stores = clients.map { PostgresVerificationStore(client: $0, tablePrefix: prefix) }
            do {
                try await stores[0].createSchema()
                try await stores[0].createSchema()  // idempotent
                try await body(clients, stores, prefix)
                try await stores[0].dropSchema()
            } catch {
                try? await stores[0].dropSchema()
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}

@Suite("PostgresVerificationStore",
       .enabled(if: PostgresTestServer.enabled,
                "SMSKIT_TEST_POSTGRES_URL is not set; run: export SMSKIT_TEST_POSTGRES_URL=$(bash .ci/postgres.sh)"))
struct PostgresStoreTests {
    @Test("two engines on two clients: one starts, the other checks")
    func twoInstances() async throws {
        try await PostgresTestServer.withStores(2) { stores in
            try await StoreScenarios.twoInstances(first: stores[0], second: stores[1])
        }
    }

    @Test("concurrent checks from two clients never allow more than the permitted attempts")
    func concurrentChecks() async throws {
        try await PostgresTestServer.withStores(1) { stores in
            try await StoreScenarios.concurrentChecks(store: stores[0])
        }
        try await PostgresTestServer.withStores(2) { stores in
            // Half the checks through each client.
            let clock = ManualClock()
            let sender = RecordingSender()
            let a = try makeVerifier(store: stores[0], sender: sender, clock: clock)
            let b = try makeVerifier(store: stores[1], sender: sender, clock: clock)
            let started = try await a.start(phoneNumber: Numbers.us)
            let code = try #require(sender.lastCode(to: started.e164))
            let wrong = code == "000000" ? "000001" : "000000"
            let results = await withTaskGroup(of: CheckResult?.self) { group in
                for index in 0..<30 {
                    let verifier = index % 2 == 0 ? a : b
                    group.addTask { try? await verifier.check(id: started.id, code: wrong) }
                }
                var all: [CheckResult] = []
                for await result in group { if let result { all.append(result) } }
                return all
            }
            #expect(results.count == 30)
            #expect(results.filter { $0 != .tooManyAttempts }.count == 5)
        }
    }

    @Test("sliding windows, range velocity, resend claims and secret changes")
    func storeRules() async throws {
        try await PostgresTestServer.withStores(1) { stores in try await StoreScenarios.rules(store: stores[0]) }
    }

    @Test("a server that is down: a typed error within the store timeout, nothing approved")
    func serverDown() async throws {
        var configuration = try PostgresVerificationStore.configuration(url: "postgres://smskit@127.0.0.1:1/none")
        configuration.options.connectTimeout = .seconds(1)
        let client = PostgresClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let verifier = try makeVerifier(store: PostgresVerificationStore(client: client), sender: RecordingSender(),
                                            clock: ManualClock()) { $0.storeTimeout = .seconds(3) }
            let error = await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }
            #expect(error?.code == .storeTimeout || error?.code == .storeUnavailable)
            group.cancelAll()
        }
    }
}
