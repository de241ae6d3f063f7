import Foundation
import Logging
import PhoneVerification
import PhoneVerificationPostgres
import PostgresNIO
import Synchronization
import Testing

/// Keeps the `psql_error` metadata of what postgres-nio logs in the background ("Connection creation
/// failed"): the reason a connection was refused.
struct ConnectionErrors: LogHandler {
    final class Box: Sendable {
        let errors = Mutex<[String]>([])
    }
    let box = Box()
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if let error = event.metadata?["psql_error"] { box.errors.withLock { $0.append("\(error)") } }
    }

    var all: [String] { box.errors.withLock { $0 } }
}

/// The TLS side of the server from `.ci/postgres.sh`: its certificate names `localhost` only and is
/// signed by `ca.crt`; `other-ca.crt` signed nothing the server has.
enum PostgresTLSServer {
    static let directory = ProcessInfo.processInfo.environment["SMSKIT_TEST_POSTGRES_TLS_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    static let enabled = (directory != nil && PostgresTestServer.url != nil) || PostgresTestServer.isCI

    /// The test server's URL with another host and the given query.
    static func url(host: String, query: String) throws -> String {
        let base = try #require(PostgresTestServer.url, "SMSKIT_TEST_POSTGRES_URL is not set under CI=true")
        var components = try #require(URLComponents(string: base))
        components.host = host
        components.query = query.isEmpty ? nil : query
        return try #require(components.string)
    }

    static func file(_ name: String) throws -> String {
        let directory = try #require(directory, "SMSKIT_TEST_POSTGRES_TLS_DIR is not set under CI=true: .ci/run must set it")
        return directory + "/" + name
    }

    /// A store on `url` runs one verification to approval, then reports whether the connection
    /// it used is encrypted (`pg_stat_ssl.ssl`) and its TLS version.
    static func encryption(url: String) async throws -> (ssl: Bool, version: String?) {
        let client = PostgresClient(configuration: try PostgresVerificationStore.configuration(url: url))
        let prefix = "tls" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let store = PostgresVerificationStore(client: client, tablePrefix: prefix)
            do {
                try await store.createSchema()
                let sender = RecordingSender()
                let verifier = try makeVerifier(store: store, sender: sender, clock: ManualClock()) {
                    $0.storeTimeout = .seconds(10)
                }
                let started = try await verifier.start(phoneNumber: Numbers.us)
                let code = try #require(sender.lastCode(to: started.e164))
                #expect(try await verifier.check(id: started.id, code: code) == .approved(e164: started.e164))
                let rows = try await client.query(
                    "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                var result: (Bool, String?)?
                for try await (ssl, version) in rows.decode((Bool, String?).self) { result = (ssl, version) }
                try await store.dropSchema()
                return try #require(result)
            } catch {
                try? await store.dropSchema()
                throw error
            }
        }
    }

    /// What a verifier on `url` gets from its store (`nil` when the store answered), and why
    /// postgres-nio could not connect, as it logged it.
    static func refusal(url: String) async throws -> (error: VerificationError?, reasons: String) {
        var configuration = try PostgresVerificationStore.configuration(url: url)
        configuration.options.connectTimeout = .seconds(2)
        let handler = ConnectionErrors()
        let client = PostgresClient(configuration: configuration,
                                    backgroundLogger: Logger(label: "tls-test") { _ in handler })
        let error = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let verifier = try makeVerifier(store: PostgresVerificationStore(client: client), sender: RecordingSender(),
                                            clock: ManualClock()) { $0.storeTimeout = .seconds(4) }
            return await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }
        }
        return (error, handler.all.joined(separator: "\n"))
    }
}

@Suite("PostgreSQL sslmode against a server with a self-signed CA",
       .enabled(if: PostgresTLSServer.enabled,
                "SMSKIT_TEST_POSTGRES_TLS_DIR is not set; run .ci/postgres.sh and export it (see the script)"))
struct PostgresTLSTests {
    @Test("require: encrypted without a CA; pg_stat_ssl.ssl is true for the store's connection")
    func require() async throws {
        let state = try await PostgresTLSServer.encryption(url: PostgresTLSServer.url(host: "127.0.0.1", query: "sslmode=require"))
        #expect(state.ssl)
        #expect(state.version?.hasPrefix("TLS") == true)
    }

    @Test("no sslmode on loopback is prefer: encrypted when the server offers TLS")
    func defaultOnLoopback() async throws {
        let state = try await PostgresTLSServer.encryption(url: PostgresTLSServer.url(host: "127.0.0.1", query: ""))
        #expect(state.ssl)
    }

    @Test("disable: plain text")
    func disable() async throws {
        let state = try await PostgresTLSServer.encryption(url: PostgresTLSServer.url(host: "127.0.0.1", query: "sslmode=disable"))
        #expect(!state.ssl)
    }

    @Test("verify-full: the right CA and the certificate's host name connect")
    func verifyFull() async throws {
        let ca = try PostgresTLSServer.file("ca.crt")
        let state = try await PostgresTLSServer.encryption(
            url: PostgresTLSServer.url(host: "localhost", query: "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(state.ssl)
    }

    @Test("verify-full: a host name the certificate does not carry (127.0.0.1 for a localhost certificate) is refused")
    func verifyFullWrongHost() async throws {
        let ca = try PostgresTLSServer.file("ca.crt")
        let refused = try await PostgresTLSServer.refusal(
            url: PostgresTLSServer.url(host: "127.0.0.1", query: "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(refused.error?.code == .storeUnavailable || refused.error?.code == .storeTimeout)
        #expect(refused.reasons.contains("failedToValidateHostname"), "\(refused.reasons)")
    }

    @Test("verify-ca: the right CA connects whatever the host name; another CA is refused")
    func verifyCA() async throws {
        let ca = try PostgresTLSServer.file("ca.crt")
        let state = try await PostgresTLSServer.encryption(
            url: PostgresTLSServer.url(host: "127.0.0.1", query: "sslmode=verify-ca&sslrootcert=\(ca)"))
        #expect(state.ssl)
        let other = try PostgresTLSServer.file("other-ca.crt")
        let refused = try await PostgresTLSServer.refusal(
            url: PostgresTLSServer.url(host: "localhost", query: "sslmode=verify-ca&sslrootcert=\(other)"))
        #expect(refused.error?.code == .storeUnavailable || refused.error?.code == .storeTimeout)
        #expect(refused.reasons.contains("CERTIFICATE_VERIFY_FAILED"), "\(refused.reasons)")
    }

    @Test("require with a CA file checks the chain, as libpq does: another CA is refused")
    func requireWithCA() async throws {
        let other = try PostgresTLSServer.file("other-ca.crt")
        let refused = try await PostgresTLSServer.refusal(
            url: PostgresTLSServer.url(host: "127.0.0.1", query: "sslmode=require&sslrootcert=\(other)"))
        #expect(refused.error?.code == .storeUnavailable || refused.error?.code == .storeTimeout)
        #expect(refused.reasons.contains("CERTIFICATE_VERIFY_FAILED"), "\(refused.reasons)")
    }
}

@Suite("PostgreSQL URL: sslmode and sslrootcert")
struct PostgresURLTests {
    @Test("the default mode: prefer on loopback, verify-full elsewhere",
          arguments: [("localhost", PostgresSSLMode.prefer), ("127.0.0.1", .prefer), ("127.1.2.3", .prefer),
                      ("::1", .prefer), ("[::1]", .prefer), ("LOCALHOST", .prefer),
                      ("db.internal", .verifyFull), ("10.0.0.5", .verifyFull), ("127.0.0.1.example.com", .verifyFull),
                      ("localhost.evil.example", .verifyFull), ("128.0.0.1", .verifyFull), ("127.0.0.256", .verifyFull)])
    func defaults(host: String, mode: PostgresSSLMode) {
        #expect(PostgresSSLMode.default(forHost: host) == mode)
    }

    @Test("every libpq mode but allow is read; allow, unknown modes and unsupported ssl parameters are refused",
          arguments: ["sslmode=allow", "sslmode=VERIFY-FULL", "sslmode=", "sslmode=requir", "sslcert=/tmp/c.pem",
                      "sslkey=/tmp/k.pem", "sslcrl=/tmp/crl.pem", "sslrootcert="])
    func refusedParameters(query: String) {
        #expect(throws: VerificationStoreError.self) {
            _ = try PostgresVerificationStore.configuration(url: "postgres://u@127.0.0.1:5432/db?\(query)")
        }
    }

    @Test("the modes that are read", arguments: PostgresSSLMode.allCases)
    func readModes(mode: PostgresSSLMode) throws {
        _ = try PostgresVerificationStore.configuration(url: "postgres://u@db.internal/db?sslmode=\(mode.rawValue)")
    }

    @Test("a CA file that is missing or holds no certificate is an error when the mode checks certificates")
    func badCAFile() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-empty-ca-\(UUID()).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: empty))
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for file in ["/nonexistent/ca.pem", empty] {
            for mode in ["verify-ca", "verify-full", "require"] {
                #expect(throws: VerificationStoreError.self) {
                    _ = try PostgresVerificationStore.configuration(url: "postgres://u@db.internal/db?sslmode=\(mode)&sslrootcert=\(file)")
                }
            }
        }
        _ = try PostgresVerificationStore.configuration(url: "postgres://u@db.internal/db?sslmode=verify-full&sslrootcert=system")
    }
}
