#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import PostgresNIO
import ServiceLifecycle
import SMSKitServer

/// Where `smskit serve` and `smskit verify` keep verifications:
/// `--store memory|sqlite:PATH|postgres://...` (or `SMSKIT_VERIFY_STORE`); the one place that
/// turns a location into an open store.
///
/// - `memory`: this process only, lost on exit (tests, a single short-lived process);
/// - `sqlite:PATH` (or a bare path): one file, persistent; the default is
///   `smskit-verify.sqlite` in the working directory, the file `smskit verify` uses;
/// - `postgres://user[:password]@host[:port]/database[?sslmode=MODE&sslrootcert=FILE]`: one state
///   for many processes on many machines, over TLS as
///   ``PhoneVerificationPostgres/PostgresVerificationStore/configuration(url:)`` reads it
///   (`verify-full` by default, `prefer` on loopback). The server starts even when PostgreSQL is
///   down (`/readyz` says 503 until it is reachable; the tables are created on first contact).
enum VerificationStoreLocation: Sendable, Hashable, CustomStringConvertible {
    case memory
    case sqlite(path: String)
    case postgres(url: String)

    /// `sqlite:smskit-verify.sqlite`, as `smskit verify`.
    static let `default` = VerificationStoreLocation.sqlite(path: "smskit-verify.sqlite")

    /// Reads `memory`, `sqlite:PATH`, `postgres://...` (or `postgresql://...`), or a bare file
    /// path (SQLite, as `SMSKIT_VERIFY_STORE` for `smskit verify`).
    ///
    /// - Throws: ``ServiceConfigurationError`` for an unknown scheme or an empty path.
    init(parsing text: String) throws(ServiceConfigurationError) {
        let lowered = text.lowercased()
        if lowered == "memory" {
            self = .memory
        } else if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if lowered.hasPrefix("sqlite:") {
            let path = String(text.dropFirst(7))
            guard !path.isEmpty else { throw ServiceConfigurationError("sqlite: needs a file path, e.g. sqlite:smskit-verify.sqlite.") }
            self = .sqlite(path: path)
        } else if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0 == "+" }), !text[..<colon].isEmpty {
            throw ServiceConfigurationError("Unknown store scheme '\(text[..<colon].prefix(32))': use memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE.")
        } else {
            guard !text.isEmpty else { throw ServiceConfigurationError("The store is empty; use memory, sqlite:PATH or postgres://...") }
            self = .sqlite(path: text)
        }
    }

    /// For logs: the PostgreSQL password is never shown.
    var description: String {
        switch self {
        case .memory: return "memory"
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://(unreadable URL)" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://"
        }
    }

    /// The open store, what makes it ready (idempotent, retried until it succeeds) and the
    /// services it needs running (the PostgreSQL client).
    func open(logger: Logger) throws(ServiceConfigurationError) -> OpenedVerificationStore {
        switch self {
        case .memory:
            return OpenedVerificationStore(store: InMemoryVerificationStore(), prepare: {}, services: [])
        case .sqlite(let path):
            do {
                let store = try SQLiteVerificationStore(path: path)
                for warning in store.permissionWarnings { logger.warning("\(warning)") }
                return OpenedVerificationStore(store: store, prepare: {}, services: [])
            } catch {
                throw ServiceConfigurationError("The SQLite store \(path) cannot be opened: \(error.message)")
            }
        case .postgres(let url):
            let configuration: PostgresClient.Configuration
            do {
                configuration = try PostgresVerificationStore.configuration(url: url)
            } catch {
                throw ServiceConfigurationError(error.message)
            }
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let store = PostgresVerificationStore(client: client, logger: logger)
            return OpenedVerificationStore(store: store, prepare: { try await store.createSchema() }, services: [client])
        }
    }
}
