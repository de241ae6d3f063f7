import NIOCore
import NIOSSL
import SMPPCodec

extension SMPPClient.Configuration.TLS {
    /// The client context: TLS 1.2 or later, full certificate verification against the CA file or
    /// the system's trust roots.
    ///
    /// - Throws: ``SMPPError/Code/tlsFailed`` when the CA file cannot be read.
    func makeContext() throws(SMPPError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .fullVerification
        if let caFile { configuration.trustRoots = .file(caFile) }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SMPPError(.tlsFailed, "the TLS settings are not usable (ca_file \(caFile ?? "none")): \(error)")
        }
    }

    /// The name sent in SNI and checked against the certificate: `serverName`, else the host
    /// unless it is an IP address (NIOSSL then checks the address the connection went to).
    func expectedName(host: String) -> String? {
        if let serverName { return serverName }
        return (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}

extension SMPPError {
    /// The error for a connection that failed: a TLS failure (handshake, certificate, name) as
    /// ``Code/tlsFailed``, anything else as `otherwise`.
    static func connection(_ error: any Error, otherwise: Code, _ what: String) -> SMPPError {
        if let error = error as? SMPPError { return error }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return SMPPError(.tlsFailed, "\(what): TLS failed (\(error)); nothing was sent")
        }
        return SMPPError(otherwise, "\(what): \(error)")
    }
}
