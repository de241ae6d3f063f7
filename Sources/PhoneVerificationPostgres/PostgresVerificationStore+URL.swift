import Foundation
import PhoneVerification
import PostgresNIO

/// How a connection to PostgreSQL uses TLS: libpq's `sslmode`, read from the URL's query.
///
/// | mode | encrypted | server certificate checked | host name checked |
/// |------|-----------|----------------------------|-------------------|
/// | `disable` | never | no | no |
/// | `prefer` | when the server offers TLS | no | no |
/// | `require` | always | only when `sslrootcert` is given (as libpq) | no |
/// | `verify-ca` | always | yes | no |
/// | `verify-full` | always | yes | yes |
///
/// Only `verify-ca` and `verify-full` stop a machine in the middle, which could otherwise answer
/// `approved` to any check; `prefer` and `require` only stop a passive eavesdropper. libpq's
/// `allow` (plain text first) is refused.
public enum PostgresSSLMode: String, Sendable, Hashable, CaseIterable {
    /// Plain text.
    case disable
    /// TLS when the server offers it, else plain text; the certificate is not checked.
    case prefer
    /// TLS or no connection; the certificate is not checked unless a CA file is given.
    case require
    /// TLS with a certificate signed by the CA (`sslrootcert`, else the system's trusted CAs).
    case verifyCA = "verify-ca"
    /// As ``verifyCA``, and the certificate must name the host of the URL (a DNS name, or an IP
    /// address in its subject alternative names).
    case verifyFull = "verify-full"

    /// The mode when the URL has no `sslmode`: ``prefer`` for a loopback host (`localhost`,
    /// `127.0.0.0/8`, `::1`), where nobody can stand in the middle without owning the machine,
    /// and ``verifyFull`` for every other host, where only a checked certificate keeps another
    /// machine from answering for the database.
    ///
    /// - Parameter host: The host of the URL.
    /// - Returns: The default mode for that host.
    public static func `default`(forHost host: String) -> PostgresSSLMode {
        isLoopback(host) ? .prefer : .verifyFull
    }

    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && Int(part).map { $0 <= 255 } == true
        }
    }
}

extension PostgresVerificationStore {
    /// A client configuration from a URL
    /// `postgres://user:password@host:port/database?sslmode=MODE&sslrootcert=FILE`.
    ///
    /// `sslmode` is one of ``PostgresSSLMode`` (`disable`, `prefer`, `require`, `verify-ca`,
    /// `verify-full`); without it, ``PostgresSSLMode/default(forHost:)``: `prefer` on loopback,
    /// `verify-full` elsewhere. `sslrootcert` is a PEM file of the CA certificates to trust, or
    /// `system` for the system's trusted CAs (also what `verify-ca` and `verify-full` use when it is
    /// absent). Client certificates (`sslcert`, `sslkey`) and other `ssl` parameters are refused
    /// rather than ignored, so that a URL never promises a protection the connection lacks.
    ///
    /// ```swift
    /// let configuration = try PostgresVerificationStore.configuration(
    ///     url: "postgres://smskit@db.internal/smskit?sslmode=verify-full&sslrootcert=/etc/smskit/db-ca.pem")
    /// ```
    ///
    /// - Parameter url: The URL.
    /// - Returns: The configuration.
    /// - Throws: ``VerificationStoreError`` `.unavailable` when the URL cannot be read, names an
    ///   unknown `sslmode` or an unsupported parameter, or its CA file cannot be read.
    public static func configuration(url: String) throws(VerificationStoreError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty else {
            throw VerificationStoreError(.unavailable, "the PostgreSQL URL must look like postgres://user:password@host:port/database")
        }
        var mode: PostgresSSLMode?
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let parsed = PostgresSSLMode(rawValue: value) else {
                    let shown = String((item.value ?? "").prefix(32))
                    throw VerificationStoreError(.unavailable,
                        "sslmode=\(shown) is not supported; use disable, prefer, require, verify-ca or verify-full")
                }
                mode = parsed
            case "sslrootcert":
                guard let value = item.value, !value.isEmpty else {
                    throw VerificationStoreError(.unavailable, "sslrootcert needs a file of PEM CA certificates, or system")
                }
                rootCertificate = value
            case let name where name.hasPrefix("ssl"):
                throw VerificationStoreError(.unavailable,
                    "the URL parameter \(name.prefix(32)) is not supported; only sslmode and sslrootcert are")
            default:
                continue
            }
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database,
            tls: try tls(mode ?? .default(forHost: host), rootCertificate: rootCertificate))
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The postgres-nio TLS setting for a mode and an optional CA file (`system` for the system's CAs).
    static func tls(_ mode: PostgresSSLMode,
                    rootCertificate: String?) throws(VerificationStoreError) -> PostgresClient.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        // libpq: `require` with a CA file checks the chain, as `verify-ca` does.
        let effective = mode == .require && rootCertificate != nil ? .verifyCA : mode
        switch effective {
        case .disable:
            return .disable
        case .prefer, .require:
            tls.certificateVerification = .none
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        if effective == .verifyCA || effective == .verifyFull, let rootCertificate, rootCertificate != "system" {
            do {
                let certificates = try NIOSSLCertificate.fromPEMFile(rootCertificate)
                guard !certificates.isEmpty else {
                    throw VerificationStoreError(.unavailable, "the CA file \(rootCertificate) holds no PEM certificate")
                }
                tls.trustRoots = .certificates(certificates)
            } catch let error as VerificationStoreError {
                throw error
            } catch {
                throw VerificationStoreError(.unavailable, "cannot read the CA file \(rootCertificate): \(error)")
            }
        }
        return mode == .prefer ? .prefer(tls) : .require(tls)
    }
}
